"""Codec throughput, as ratios against the bare `regex` split of the same text, same run.

    .venv/bin/python bench/python/codec.py [--repeat N]

For each corpus (the standard library's source; the UDHR where present) it measures, in MB/s
of UTF-8 input text:

* split:  `regex.findall` with the spec's llama3 pattern, the baseline (no normalization);
* encode: the pure-Python encoder with `functok.encode`'s defaults (NFC + llama3) in a single
  pass with empty caches: what a user gets from one pass over a corpus; then again over the same
  text with the caches the first pass filled (warm, a secondary column: no real workload encodes
  a text twice);
* native: `functok.encode` through the C core (native/, when it is built; it keeps no cache), as
  ratios against the pure encoder and the split of the same run;
* decode: the pure-Python decoder of that stream, per MB of the decoded text, single pass and warm;
* native decode: `functok.decode` through the C core (it keeps no cache), as a ratio against the
  pure decoder of the same run.

Each figure is the best of N runs; a single-pass run empties the caches first. The headline
ratios use the single-pass figures.

Goals: encode >= 0.8x split and decode >= 3x encode, both in a single pass (the headline
figures); the C core >= 10x the pure path, encode and decode.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
import time

import regex

import functok
from functok import decode
from functok.engine import PURE_ENGINE, backend, core
from functok.splitting import SPEC_PATTERNS

from corpora import UDHR, read_files, stdlib_files

def stdlib_text(limit_bytes: int = 20_000_000) -> str:
    return "".join(read_files(stdlib_files(), limit_bytes))


def udhr_text() -> str | None:
    if not UDHR.is_dir():
        return None
    return "\n".join(read_files(sorted(UDHR.glob("*.txt")), 10**12))


def best_of(repeat: int, fn, *args) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def clear_caches() -> None:
    """Empty the encoder's piece caches and the decoder's cache of groups with their text (a cold start)."""
    importlib.import_module("functok.encoding").clear_caches()
    importlib.import_module("functok.decoding_cache").clear_caches()


def encode(text: str) -> str:
    """The pure-Python encoder (the C core, when built, is measured on its own)."""
    return "".join(importlib.import_module("functok.encoding").encoded_pieces(text))


def pure_decode(stream: str) -> str:
    """The pure engine's decoder (``functok.decode`` runs the C core when it is built)."""
    return PURE_ENGINE.decode(stream)


def single_pass(repeat: int, fn, arg) -> tuple[float, object]:
    """Best of ``repeat`` runs of ``fn(arg)``, each one with empty caches."""
    best, result = float("inf"), None
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        result = fn(arg)
        best = min(best, time.perf_counter() - start)
    return best, result


def measure(name: str, text: str, repeat: int) -> dict:
    mb = len(text.encode()) / 1e6
    compiled = regex.compile(SPEC_PATTERNS["llama3"])
    t_split, _ = best_of(repeat, compiled.findall, text)
    t_encode, stream = single_pass(repeat, encode, text)
    t_encode_warm, _ = best_of(repeat, encode, text)  # caches as the last pass left them
    native = float("nan")
    if core is not None:
        t_native, native_stream = best_of(repeat, functok.encode, text)
        assert native_stream == stream
        native = mb / t_native
    t_decode, decoded = single_pass(repeat, pure_decode, stream)
    t_decode_warm, _ = best_of(repeat, pure_decode, stream)
    assert decoded == functok.normalize.nfc(text)
    native_decode = float("nan")
    if core is not None:
        t_native_decode, native_decoded = best_of(repeat, decode, stream)
        assert native_decoded == decoded
        native_decode = mb / t_native_decode
    return {
        "corpus": name, "MB": mb, "split": mb / t_split,
        "encode": mb / t_encode, "encode_warm": mb / t_encode_warm, "native": native,
        "decode": mb / t_decode, "decode_warm": mb / t_decode_warm, "native_decode": native_decode,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import functok.normalize  # noqa: F401
    print(f"# functok {functok.__version__}, Python {platform.python_version()}, regex {regex.__version__}, "
          f"{platform.machine()} {platform.processor() or ''}".rstrip())
    corpora = [("stdlib source", stdlib_text())]
    udhr = udhr_text()
    if udhr is None:
        print(f"# UDHR not found at {UDHR}; skipped")
    else:
        corpora.append(("UDHR (532 files)", udhr))
    header = (f"{'corpus':<18}{'MB':>6}{'split MB/s':>12}{'encode':>9}{'decode':>9}"
              f"{'enc/split':>11}{'dec/enc':>9}{'native':>9}{'nat/pure':>10}{'nat/split':>11}"
              f"{'nat dec':>9}{'natdec/pure':>13}{'encode warm':>13}{'decode warm':>13}")
    print(header)
    for name, text in corpora:
        r = measure(name, text, args.repeat)
        print(f"{r['corpus']:<18}{r['MB']:>6.1f}{r['split']:>12.1f}{r['encode']:>9.1f}{r['decode']:>9.1f}"
              f"{r['encode'] / r['split']:>10.2f}x{r['decode'] / r['encode']:>8.2f}x"
              f"{r['native']:>9.1f}{r['native'] / r['encode']:>9.2f}x{r['native'] / r['split']:>10.2f}x"
              f"{r['native_decode']:>9.1f}{r['native_decode'] / r['decode']:>12.2f}x"
              f"{r['encode_warm']:>13.1f}{r['decode_warm']:>13.1f}")
    print("# single pass (empty caches) leads; warm = a second pass over the same text")
    print(f"# backend: {backend()}; encode and decode are the pure path, native and nat dec the C core")
    print("# goals: encode >= 0.80x split, decode >= 3x encode (single pass); "
          "native: >= 10x pure, >= 1.5x split; nat dec >= 10x pure decode")
    return 0


if __name__ == "__main__":
    sys.exit(main())
