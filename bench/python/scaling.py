"""Scaling on hostile input: time at growing sizes, as ratios against the smallest size.

    .venv/bin/python bench/python/scaling.py [--only NAME] [--repeat N]

Each case builds an input of size n and runs one operation on it. The baseline is the same
operation on the smallest input, in the same run; the figure that matters is
``time(k·n) / time(n)`` against the size ratio ``k``. A linear operation gives about ``k``; the
threshold of each case (for example 4x the input in at most 5x the time) says how much worse
than linear it may be. The script exits 1 when a case is over its threshold, so that it can
fail; no test is timed (a timed test fails on a loaded machine and passes a slow change on a
fast one: time is measured here, memory in tests with tracemalloc, which load does not move).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[int], Any]  # size -> input
    run: Callable[[Any], Any]  # input -> anything (the operation being timed)
    sizes: tuple[int, ...]
    max_time_ratio: float  # allowed time(largest) / time(smallest)
    what: str  # one line: what the input is and which operation runs


CASES: list[Case] = []  # each section below appends its cases


def best_of(repeat: int, fn: Callable[[Any], Any], arg: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - start)
    return best


def measure(c: Case, repeat: int) -> bool:
    times = []
    for n in c.sizes:
        data = c.make(n)
        times.append(best_of(repeat, c.run, data))
        del data
    size_ratio = c.sizes[-1] / c.sizes[0]
    time_ratio = times[-1] / times[0]
    ok = time_ratio <= c.max_time_ratio
    cells = "  ".join(f"{n:>11,}: {t:7.3f}s" for n, t in zip(c.sizes, times))
    print(f"{c.name}: {c.what}")
    print(f"  {cells}")
    print(f"  {size_ratio:.0f}x the input in {time_ratio:.2f}x the time "
          f"(threshold {c.max_time_ratio:g}x) {'ok' if ok else 'OVER THRESHOLD'}")
    return ok


# --- cases: the decoder (functok.decode) ---------------------------------------------------

# Code points; 4x the input in at most 5x the time. The smallest size takes tens of
# milliseconds at least, so that one scheduler hiccup on a shared machine is not a ratio.
_DECODE_SIZES = (1 << 22, 1 << 23, 1 << 24)
_GROUP_SIZES = (1 << 19, 1 << 20, 1 << 21)  # instructions: about a microsecond each


def _decode(stream: str, pure: bool, **options: Any) -> str | None:
    """functok.decode (the C core where it is built), or with ``pure`` the pure engine's decoder."""
    from functok import FormatError, decoding_cache, engine

    decoding_cache.clear_caches()  # hostile input is met cold
    decode = engine.PURE_ENGINE.decode if pure else engine.decode
    try:
        return decode(stream, **options)
    except FormatError:  # a strict case: raising at the first error is the operation timed
        return None


def _decoder_case(name: str, make: Callable[[int], str], what: str, sizes: tuple[int, ...] = _DECODE_SIZES,
                  pure: bool = False, **options: Any) -> Case:
    return Case(name, make, lambda stream: _decode(stream, pure, **options), sizes, 5.0, what)


def _near_max_output(name: str = "decode-over-max-output", pure: bool = False) -> Case:
    return Case(name, lambda n: ("\ue200\ue000\ue003" + "a" * n, n),
                lambda made: _decode(made[0], pure, max_output=made[1], errors="replace"), _DECODE_SIZES, 5.0,
                "REPEAT(0,3) then n letters, max_output = n, lenient (the careful path drops the repeat)")


def _short_units(n: int) -> str:
    from functok import encode

    return encode("A " * (n // 4))  # CAPITALIZE(0) "a " per word: four code points a unit


def _decoder_cases(prefix: str = "decode", pure: bool = False) -> list[Case]:
    """The decoder's cases, named prefix-...: functok.decode, or the pure decoder."""
    cases = [_decoder_case(f"{prefix}{name.removeprefix('decode')}", make, what, *sizes, pure=pure, **options)
             for name, make, what, sizes, options in _DECODER_INPUTS]
    return cases + [_near_max_output(f"{prefix}-over-max-output", pure)]


_DECODER_INPUTS = [  # (name, make, what, sizes, options): each case once on each decoder
    ("decode-lenient-stray", lambda n: "\ue000" * n + "a",
     "n stray arguments then a letter, errors='replace'", (), dict(errors="replace")),
    ("decode-strict-stray", lambda n: "\ue000" * n + "a",
     "n stray arguments then a letter, strict (raises stray-argument at 0)", (), {}),
    ("decode-lenient-unknown", lambda n: "\ue300" * n + "a",
     "n unknown opcodes then a letter, errors='replace'", (), dict(errors="replace")),
    ("decode-lenient-surrogates", lambda n: "a\ud800" * (n // 2),
     "a letter and a lone surrogate, n/2 times, errors='replace'", (), dict(errors="replace")),
    ("decode-careful-escape", lambda n: "\uefff\ue000" + "lorem ipsum " * (n // 12),
     "one escape pair then n code points of text (the careful path)", (), {}),
    ("decode-group-escape-cjk", lambda n: "\ue100\ue000\uefff\ue000" + "\u4e2d" * n,
     "CAPITALIZE(0), an escape pair, then n CJK characters in one text", (), {}),
    ("decode-long-group", lambda n: "\ue100\ue000" * (n // 2) + "a",
     "one group of n/2 CAPITALIZE(0), then a letter", (_GROUP_SIZES,), {}),
    ("decode-fast-short-units", _short_units, "n/4 units of CAPITALIZE(0) 'a ' (the fast path)", (), {}),
    ("decode-stacked-repeats", lambda n: "\ue200\ue000\ue0ff" * (n // 3) + "a",
     "one group of n/3 REPEAT(0,255), then a letter, lenient, max_output 2**20 (drops all but 4,128)",
     (_GROUP_SIZES,), dict(errors="replace", max_output=1 << 20)),
]
# functok.decode (the C core where it is built), then the pure decoder on the same inputs.
CASES += _decoder_cases()
CASES += _decoder_cases("pure-decode", pure=True)


# --- cases: DecodeStream --------------------------------------------------------------------


def _small_tokenizer():
    from pathlib import Path

    from functok.tokenizer import Tokenizer

    fixtures = Path(__file__).resolve().parents[2] / "tests" / "fixtures"
    tok = Tokenizer.from_file(fixtures / "tokenizer-small.json")
    tok.fast_path = False
    return tok


def _ids_after_a_repeat(n: int) -> tuple:
    """"Sooooo" (a REPEAT in its group) and then n ids of " hello world": one long text after it."""
    tok = _small_tokenizer()
    unit = tok.encode(" hello world").ids
    return tok, tok.encode("Sooooo").ids + unit * (n // len(unit))


def _stream_all(errors: str) -> Callable[[tuple], Any]:
    def run(data: tuple) -> None:
        from functok.tokenizer import DecodeStream

        tok, ids = data
        stream = DecodeStream(tok, errors=errors)
        for i in ids:
            stream.step(i)
        stream.finish()

    return run


for _errors in ("strict", "replace"):
    CASES.append(Case(
        name=f"decode-stream-after-repeat-{_errors}",
        make=_ids_after_a_repeat,
        run=_stream_all(_errors),
        sizes=(50_000, 100_000, 200_000),
        max_time_ratio=5.0,
        what=f'DecodeStream(errors="{_errors}").step over "Sooooo" + " hello world" * k (n ids)',
    ))


# --- cases: the command line (functok encode / decode on files) -----------------------------
# The CLI reads about 1 MB at a time and cuts chunks with functok.chunks; these run the same
# code over a text held in memory, given in blocks of 2**20 code points, as a file read gives.

CLI_BLOCK = 1 << 20
CLI_SIZES = (6_000_000, 12_000_000, 24_000_000)


def _cli_blocks(text: str):
    return (text[i:i + CLI_BLOCK] for i in range(0, len(text), CLI_BLOCK))


def _repeated(head: str, unit: str, n: int) -> str:
    return head + unit * (n // len(unit))


def _cli_decode(max_output=None):
    def run(stream: str) -> int:
        from functok.cli import decode_blocks
        return sum(map(len, decode_blocks(_cli_blocks(stream), max_output=max_output)))
    return run


def _cli_encode(text: str) -> int:
    from functok.chunks import text_chunks
    from functok.encoding import encode
    return sum(len(encode(chunk)) for _, chunk in text_chunks(_cli_blocks(text)))


CASES += [
    Case("cli-decode-group-free",
         lambda n: _repeated("", "\uefff\ue000" + "lorem ipsum " * 83, n), _cli_decode(),
         CLI_SIZES, 5.0, "functok decode: no group, an escaped U+E000 every 1,000 code points"),
    Case("cli-decode-after-repeat",
         lambda n: _repeated("\ue200\ue000\ue005s", "lorem ipsum ", n), _cli_decode(),
         CLI_SIZES, 5.0, "functok decode: one REPEAT, then its group's text (no other group)"),
    Case("cli-decode-max-output-after-capitalize",
         lambda n: _repeated("\ue100\ue000", "lorem ipsum ", n), _cli_decode(max_output=2**40),
         CLI_SIZES, 5.0, "functok decode --max-output: one CAPITALIZE, then its group's text"),
    Case("cli-encode-cjk",
         lambda n: _repeated("", "漢字かな交じり文", n), _cli_encode,
         CLI_SIZES, 5.0, "functok encode: CJK without spaces or line feeds (one giant piece)"),
]


# --- cases: the tokenizer on one giant pre-token (Tokenizer.encode) -------------------------

_TOKENIZER: list = []  # trained once, on first use


def _chain_tokenizer():
    if not _TOKENIZER:
        from functok import Tokenizer

        texts = ["The Cat sat. HELLO WORLD. Hello World! the cat"] * 50
        _TOKENIZER.append(Tokenizer.train(iter(texts), vocab_size=320, profile="paper", fuse="frequent",
                                          show_progress=False))
    return _TOKENIZER[0]


def _tokenize(segmentation: str) -> Callable[[str], int]:
    def run(text: str) -> int:
        from functok.encoding import clear_caches

        tok = _chain_tokenizer()
        tok.clear_caches()  # hostile input is met cold (the C core's cache too)
        clear_caches()
        return len(tok.encode(text, segmentation=segmentation).ids)
    return run


_CHAIN_SIZES = (1 << 17, 1 << 18, 1 << 19)  # code points
CASES += [
    Case(f"tokenizer-encode-chain-{seg}", lambda n: "A B " * (n // 4), _tokenize(seg), _CHAIN_SIZES, 5.0,
         f"Tokenizer.encode ({seg}): capitals and spaces, one context chain (fuse=frequent, spec 9.4)")
    for seg in ("greedy", "optimal")
]


# The greedy path runs in the C core where it is built (functok.backend() says whether): one
# giant pre-token of letters (one BPE word, n log n with its queue), and private-use soup (each
# code point escaped and written in byte-fallback tokens). One BPE word is n log n, as in
# tokenizers: log 2^20 / log 2^18 makes 4x the word 4.4x the work, and the C core's queue of a
# million entries outgrows the processor's caches (measured: 4.7x to 5.4x; the pure path, whose
# constant hides it, 3.9x), hence 6x for that case.
_WORD_SIZES = (1 << 18, 1 << 19, 1 << 20)  # code points
CASES += [
    Case("tokenizer-encode-letters-greedy", lambda n: _letters(n), _tokenize("greedy"), _WORD_SIZES, 6.0,
         "Tokenizer.encode (greedy): one pre-token of random letters"),
    Case("tokenizer-encode-private-use-greedy", lambda n: "".join(chr(0xF0000 + k % 0xFFFD) for k in range(n)),
         _tokenize("greedy"), _WORD_SIZES, 5.0,
         "Tokenizer.encode (greedy): plane-15 private use, escaped, in byte-fallback tokens"),
]


# --- cases: training on one giant line (Tokenizer.train) ------------------------------------
# The trainer's time on one word grew with the square of its length; functok.tokenizer.train
# cuts pre-tokens and chains over MAX_TRAINING_PRETOKEN code points for counting, so that one
# hostile line cannot stall a training. Before, a line of "ab" * 60000 took 9 s and one of 1 MB of "x" over 300 s; at
# 32k, 64k and 128k code points these cases took 1.0, 4.3 and 15.5 s ("ab"), 0.5, 3.0 and 14.4 s
# ("x"), 0.4, 0.8 and 2.5 s (the chain): 4x the line in 16x to 26x the time.

_TRAIN_SIZES = (1 << 18, 1 << 19, 1 << 20)  # code points, in one line
# Few merges: what is timed is the line's length. The trainer's own search grows faster than its
# data on random letters, whatever the lines (at vocab_size 600, 4x the letters in 1,000-letter
# lines took 4.6x the time, in one line 6x; at 300, 3.8x and 2.9x).
_TRAIN_VOCAB = 300


def _letters(n: int) -> str:
    """n pseudo-random lowercase letters: one pre-token whose cut pieces all differ."""
    import random

    return "".join(random.Random(0).choices("abcdefghijklmnopqrstuvwxyz", k=n))


def _train(line: str) -> int:
    from functok import Tokenizer

    # Tokenizer.train's defaults, as functok train has them (fuse="frequent": the split training,
    # then the fusion merges on the chains, each step once over the pre-tokens)
    return Tokenizer.train(iter([line]), vocab_size=_TRAIN_VOCAB, show_progress=False).vocab_size


CASES += [
    Case("train-line-ab", lambda n: "ab" * (n // 2), _train, _TRAIN_SIZES, 5.0,
         "Tokenizer.train on one line of 'ab' repeated (one giant pre-token)"),
    Case("train-line-x", lambda n: "x" * n, _train, _TRAIN_SIZES, 5.0,
         "Tokenizer.train on one line of 'x' repeated (one giant pre-token)"),
    Case("train-line-letters", _letters, _train, _TRAIN_SIZES, 5.0,
         "Tokenizer.train on one line of random letters (a giant pre-token whose pieces all differ)"),
    Case("train-line-chain", lambda n: "A B " * (n // 4), _train, _TRAIN_SIZES, 5.0,
         "Tokenizer.train on one line of 'A B ' repeated (one giant chain, spec 9.4)"),
]


# --- cases: training's pre-token counts on colliding keys ---------------------------------
# Pre-tokens that differ only in bit 20 of their code points ("." and U+10002E): a multiply-xor
# hash such as FNV-1a gives them the same low bits, so they would share one slot of the count's
# table and counting would be quadratic (with FNV-1a, 8x the pre-tokens took 830x the time:
# 0.016 s, 0.82 s, 13.2 s at 2**12, 2**15, 2**17). native/core/count.c mixes and seeds its hash.

def _twins(n: int) -> list[str]:
    """Distinct pre-tokens of 'punctuation' code points, each "." or U+10002E and so on: n of them."""
    from itertools import islice, product

    marks = ".,;:!?*+-=@#%^&~/|<>"
    words = ("".join(chr(ord(c) + d) for c, d in zip(marks, combo))
             for combo in product((0, 0x100000), repeat=len(marks)))
    return [" ".join(islice(words, n))]


def _count(texts: list[str]) -> int:
    from functok.tokenizer.pretoken_counts import _pretoken_counts

    return len(_pretoken_counts(iter(texts), None, "llama3", "none", "compact"))


CASES += [
    Case("train-count-twins", _twins, _count, (1 << 16, 1 << 17, 1 << 18), 5.0,
         "training's pre-token count over pre-tokens that differ only in bit 20 of their code points"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the cases whose name contains this")
    parser.add_argument("--repeat", type=int, default=5, help="best of N per size (default 5)")
    args = parser.parse_args(argv)
    selected = [c for c in CASES if not args.only or args.only in c.name]
    results = [measure(c, args.repeat) for c in selected]
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
