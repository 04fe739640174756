"""External vocabularies: a Hugging Face ``tokenizer.json`` (BPE) and a tiktoken rank file.

A :class:`Vocabulary` bundles what optimal segmentation needs to be compared with greedy BPE on
a production vocabulary, without the codec: the pre-tokenizer, the greedy BPE, and the
candidate tokens of the dynamic programme in the model's *symbol space*:

* byte-level vocabularies (GPT-2's byte alphabet in ``tokenizer.json``; tiktoken rank files):
  one symbol per byte. A ``tokenizer.json`` keeps its tokens in the GPT-2 alphabet (one
  character per byte, see :func:`bytes_to_unicode`); a tiktoken file keeps raw ``bytes``.
* character vocabularies, with or without byte fallback: one symbol per character; a character
  missing from the vocabulary falls back to its UTF-8 bytes as ``<0xXX>`` tokens.

The candidate tokens never include special (added) tokens or byte-fallback tokens, and can be
restricted to the tokens reachable by the merges.

The real GPT-2 rank file ships in the ``openai-whisper`` source distribution as
``whisper/assets/gpt2.tiktoken`` (``pip download --no-deps openai-whisper``; do not install
it, it pulls in torch). :func:`find_gpt2_tiktoken` looks for it in ``$FUNCTOK_GPT2_TIKTOKEN``,
then ``$XDG_CACHE_HOME/functok/gpt2.tiktoken`` (default ``~/.cache/functok/gpt2.tiktoken``).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .bpe import TiktokenBPE, byte_fallback_token
from .loading import (
    Checker,
    TokenizerFileError,
    build_bpe,
    check_bpe,
    describe,
    parse_json,
    read_text,
    read_tiktoken,
)
from .segment import TIE_BREAKS, Segmenter

__all__ = [
    "PATTERNS",
    "Vocabulary",
    "bytes_to_unicode",
    "find_gpt2_tiktoken",
    "load_hf",
    "load_tiktoken",
    "load_vocabulary",
    "pattern_for",
    "reachable_by_merges",
    "read_tiktoken_ranks",
]

# Pre-tokenizer patterns of the tiktoken encodings (tiktoken_ext/openai_public.py), for the
# `regex` module. "gpt2" and "llama3" run on the standard library's `re` instead (same pieces,
# pinned Unicode tables, no dependency); other patterns need `regex`.
PATTERNS = {
    "gpt2": r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
    "cl100k": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
    r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
    "llama3": "llama3",
}


def pattern_for(path: str | os.PathLike) -> str:
    """The pre-tokenizer a tiktoken file's name suggests: cl100k_base, o200k_base, else GPT-2's
    (gpt2, r50k_base, p50k_base)."""
    name = Path(path).name.lower()
    return next((key for key in ("cl100k", "o200k") if name.startswith(key)), "gpt2")

_BYTE_FALLBACK = re.compile(r"<0x[0-9A-F]{2}>")


@functools.cache
def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte alphabet: each byte as one printable character (``openai/gpt-2``)."""
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    chars = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(printable, chars)}


class Vocabulary:
    """A BPE vocabulary with its pre-tokenizer, its greedy BPE and its optimal segmenter.

    ``pre_tokenize(text)`` cuts text into pre-tokens; ``symbols(pretoken)`` spells one in the
    symbol space (bytes for tiktoken, identity otherwise); ``to_text(pretoken)`` spells it as
    text again (for word lengths). Ids are cached per pre-token and per mode.
    """

    def __init__(
        self,
        *,
        name: str,
        alphabet: str,
        tokens: Mapping,
        special_tokens: Mapping[str, int],
        greedy: Callable[[Any], list[int]],
        pre_tokenize: Callable[[str], list],
        reachable: Callable[[], set],
        byte_fallback: bool = False,
        symbols: Callable[[Any], Any] | None = None,
        to_text: Callable[[Any], str] | None = None,
    ) -> None:
        self.name = name
        self.alphabet = alphabet  # "byte-level" or "characters"
        self.byte_fallback = byte_fallback
        self.tokens = dict(tokens)  # every model token, special ones included
        self.special_tokens = dict(special_tokens)
        self.pre_tokenize = pre_tokenize
        self.symbols = symbols or _identity
        self.to_text = to_text or _identity
        self._greedy = greedy
        self._reachable = reachable
        self._segmenters: dict[bool, Segmenter] = {}
        self._caches: dict[tuple, dict] = {}

    def __len__(self) -> int:
        return len(self.tokens)

    def candidates(self, *, reachable_only: bool = False) -> dict:
        """The DP's tokens: no special tokens, no byte-fallback tokens."""
        special = set(self.special_tokens.values())
        out = {
            t: i
            for t, i in self.tokens.items()
            if i not in special and not (self.byte_fallback and _is_byte_token(t))
        }
        if reachable_only:
            keep = self._reachable()
            out = {t: i for t, i in out.items() if t in keep}
        return out

    def segmenter(self, *, reachable_only: bool = False) -> Segmenter:
        seg = self._segmenters.get(reachable_only)
        if seg is None:
            fallback = self._byte_fallback_ids if self.byte_fallback else None
            seg = Segmenter(self.candidates(reachable_only=reachable_only), fallback=fallback)
            self._segmenters[reachable_only] = seg
        return seg

    def ids(
        self,
        pretoken,
        *,
        segmentation: str = "greedy",
        tie_break: str = "leftmost-longest",
        reachable_only: bool = False,
    ) -> list[int]:
        """The ids of one pre-token (cached; do not modify the returned list)."""
        return self.encode_pretokens(
            (pretoken,), segmentation=segmentation, tie_break=tie_break, reachable_only=reachable_only
        )

    def encode(
        self,
        text: str,
        *,
        segmentation: str = "greedy",
        tie_break: str = "leftmost-longest",
        reachable_only: bool = False,
    ) -> list[int]:
        """All ids of ``text``: the ids of its pre-tokens, concatenated."""
        return self.encode_pretokens(
            self.pre_tokenize(text),
            segmentation=segmentation,
            tie_break=tie_break,
            reachable_only=reachable_only,
        )

    def encode_pretokens(
        self,
        pretokens: Iterable,
        *,
        segmentation: str = "greedy",
        tie_break: str = "leftmost-longest",
        reachable_only: bool = False,
    ) -> list[int]:
        """The ids of each pre-token, concatenated (cached per pre-token and mode)."""
        cache, compute = self._mode(segmentation, tie_break, reachable_only)
        get = cache.get
        out: list[int] = []
        extend = out.extend
        for pretoken in pretokens:  # the hot loop: mostly cache hits
            found = get(pretoken)
            if found is None:
                if len(cache) >= _MAX_CACHE:
                    cache.clear()
                found = cache[pretoken] = compute(pretoken)
            extend(found)
        return out

    def _cache(self, segmentation: str, tie_break: str, reachable_only: bool) -> dict:
        return self._mode(segmentation, tie_break, reachable_only)[0]

    def _mode(self, segmentation: str, tie_break: str, reachable_only: bool) -> tuple[dict, Callable]:
        """The cache of one mode and the function that fills it."""
        if segmentation == "greedy":  # one greedy cache whatever the DP options
            tie_break, reachable_only = "", False
        key = (segmentation, tie_break, reachable_only)
        mode = self._caches.get(key)
        if mode is None:
            mode = self._caches[key] = ({}, self._computer(*key))
        return mode

    def _computer(self, segmentation: str, tie_break: str, reachable_only: bool) -> Callable:
        symbols = self.symbols
        if segmentation == "greedy":
            greedy = self._greedy
            return greedy if symbols is _identity else lambda p: greedy(symbols(p))
        if segmentation != "optimal":
            raise ValueError(f"unknown segmentation {segmentation!r}; expected greedy or optimal")
        seg = self.segmenter(reachable_only=reachable_only)
        if tie_break == "leftmost-longest":
            best = seg.leftmost_longest
            return best if symbols is _identity else lambda p: best(symbols(p))
        if tie_break == "prefer-greedy":
            return lambda p: seg.segment(symbols(p), tie_break=tie_break, greedy=self.ids(p))
        raise ValueError(f"unknown tie_break {tie_break!r}; expected one of {TIE_BREAKS}")

    def _byte_fallback_ids(self, symbol: str) -> list[int]:
        ids = [self.tokens.get(byte_fallback_token(b)) for b in symbol.encode("utf-8")]
        if None in ids:
            raise ValueError(f"{symbol!r} is not in the vocabulary and has no byte fallback")
        return ids  # type: ignore[return-value]


_MAX_CACHE = 500_000


def _identity(x):
    return x


def reachable_by_merges(vocab: Mapping[str, int], merges: Iterable[tuple[str, str]]) -> set[str]:
    """The tokens the merges can build: the one-symbol tokens, then every merge of two
    reachable tokens, to a fixed point (a trained merge list needs one pass)."""
    merges = list(merges)
    out = {t for t in vocab if len(t) == 1}
    grew = True
    while grew:
        before = len(out)
        out.update(a + b for a, b in merges if a in out and b in out)
        grew = len(out) > before
    return out & set(vocab)


def _is_byte_token(token) -> bool:
    return isinstance(token, str) and _BYTE_FALLBACK.fullmatch(token) is not None


# --- Hugging Face tokenizer.json ----------------------------------------------------------


def load_hf(source: str | os.PathLike | Mapping) -> Vocabulary:
    """A Hugging Face ``tokenizer.json`` with a BPE model (byte-level or byte fallback).

    Greedy ids come from :class:`functok.bpe.BPE` (identical to ``tokenizers``). Pre-tokenizing
    runs the file's own normalizer and pre-tokenizer, so it needs ``tokenizers`` installed.
    A malformed file raises :class:`functok.TokenizerFileError`.
    """
    if isinstance(source, Mapping):
        return _hf_vocabulary(dict(source), "tokenizer.json")
    return _hf_vocabulary(parse_json(read_text(source), str(source)), str(source))


def _hf_vocabulary(data: Any, name: str) -> Vocabulary:
    checked = check_bpe(data, name, "$")
    model, vocab, merges, special = checked.model, checked.vocab, checked.merges, checked.special_tokens
    c = Checker(name)
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        c.get(model, "$.model", key, "null or \"\": subword prefixes and suffixes are not supported by the "
                                     "segmenter", lambda v: v in (None, ""), default=None)
    unk = c.get(model, "$.model", "unk_token", "null or a token of the vocabulary",
                lambda v: v is None or (isinstance(v, str) and v in vocab), default=None)
    bpe = build_bpe(
        checked,
        name,
        "$",
        byte_fallback=bool(model.get("byte_fallback")),
        unk_token=unk,
        fuse_unk=bool(model.get("fuse_unk")),
        ignore_merges=bool(model.get("ignore_merges")),
    )
    byte_level = _mentions("ByteLevel", [data.get("pre_tokenizer"), data.get("decoder")])

    back = {c: b for b, c in bytes_to_unicode().items()}

    def to_text(pretoken: str) -> str:
        """The text a pre-token spells (for byte-level ones, its bytes read as UTF-8)."""
        if not byte_level:
            return pretoken
        return bytes(back.get(c, 63) for c in pretoken).decode("utf-8", "replace")

    return Vocabulary(
        name=name,
        alphabet="byte-level" if byte_level else "characters",
        tokens=vocab,
        special_tokens=special,
        greedy=bpe.tokenize,
        pre_tokenize=_hf_pre_tokenizer(data, name),
        reachable=lambda: reachable_by_merges(vocab, merges),
        byte_fallback=bpe.byte_fallback,
        to_text=to_text,
    )


def _mentions(text: str, value: Any) -> bool:
    """Does ``text`` occur in a string anywhere in the JSON ``value`` (any depth, no recursion)?"""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str) and text in v:
            return True
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _hf_pre_tokenizer(data: Mapping, name: str) -> Callable[[str], list[str]]:
    """The file's normalizer and pre-tokenizer, run by ``tokenizers`` (imported lazily)."""
    state: dict = {}

    def pre_tokenize(text: str) -> list[str]:
        if not state:
            try:
                from tokenizers import Tokenizer as HFTokenizer
            except ImportError as exc:  # pragma: no cover - depends on the environment
                raise ImportError(
                    "pre-tokenizing with a tokenizer.json needs `tokenizers` (pip install tokenizers)"
                ) from exc
            try:
                hf = HFTokenizer.from_str(json.dumps(data))
            except Exception as e:  # a normalizer or pre-tokenizer `tokenizers` does not know
                problem = " ".join(str(e).split())[:200]
                raise TokenizerFileError(name, "$", f"`tokenizers` cannot read it: {problem}") from None
            state["normalizer"] = hf.normalizer
            state["pre_tokenizer"] = hf.pre_tokenizer
        if state["normalizer"] is not None:
            text = state["normalizer"].normalize_str(text)
        if state["pre_tokenizer"] is None:
            return [text] if text else []
        return [w for w, _ in state["pre_tokenizer"].pre_tokenize_str(text)]

    return pre_tokenize


# --- tiktoken rank files ------------------------------------------------------------------


def read_tiktoken_ranks(path: str | os.PathLike) -> dict[bytes, int]:
    """A tiktoken rank file: one ``base64(token) rank`` per line (every token and rank once,
    all 256 single bytes ranked); else :class:`functok.TokenizerFileError`."""
    return read_tiktoken(path)


def load_tiktoken(
    path: str | os.PathLike,
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
) -> Vocabulary:
    """A tiktoken rank file; ``pattern`` is a key of :data:`PATTERNS` or a `regex` pattern
    (default: :func:`pattern_for` the file's name).

    Greedy ids come from :class:`functok.bpe.TiktokenBPE` (identical to tiktoken). Symbols are
    bytes. GPT-2's ``<|endoftext|>`` is not in the file; pass it in ``special_tokens``.
    """
    ranks = read_tiktoken_ranks(path)
    bpe = TiktokenBPE(ranks)

    def reachable() -> set[bytes]:
        # tiktoken has no merge list: a token is reachable when it is one byte or joins two
        # reachable tokens (its parts always exist when it was trained by merging).
        out: set[bytes] = set()
        for token in sorted(ranks, key=len):
            if len(token) == 1 or any(
                token[:k] in out and token[k:] in out for k in range(1, len(token))
            ):
                out.add(token)
        return out

    return Vocabulary(
        name=str(path),
        alphabet="byte-level",
        tokens=ranks,
        special_tokens=special_tokens or {},
        greedy=bpe.tokenize,
        pre_tokenize=_regex_pre_tokenizer(pattern or pattern_for(path)),
        reachable=reachable,
        symbols=lambda piece: piece.encode("utf-8"),
    )


def _regex_pre_tokenizer(pattern: str) -> Callable[[str], list[str]]:
    if PATTERNS.get(pattern) == "llama3":
        from .split import split

        return lambda text: split(text, splitter="llama3")
    if pattern == "gpt2":
        return _gpt2_pattern().findall
    try:
        import regex
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"the {pattern!r} pre-tokenizer needs the `regex` module") from exc
    try:
        compiled = regex.compile(PATTERNS.get(pattern, pattern))
    except regex.error as e:
        raise ValueError(f"the pre-tokenizer pattern {pattern!r} is not a valid regex: {e}") from None
    return compiled.findall


@functools.cache
def _gpt2_pattern() -> re.Pattern[str]:
    """GPT-2's pattern for the standard library's `re`, written as the llama3 splitter is
    (:mod:`functok.split`): classes from the pinned tables, so it yields the same pieces as
    `regex` with :data:`PATTERNS` ``["gpt2"]`` (tests/test_bpe.py), about twice as fast and
    without the `regex` dependency."""
    from . import _ucd
    from .split import _bracket, _complement, _normalized, _run_of, _union

    letter = _normalized(_ucd.LETTER_RANGES)
    number = _normalized(_ucd.NUMBER_RANGES)
    space = _normalized(_ucd.WHITE_SPACE_RANGES)
    ws = _bracket(space)
    return re.compile(
        "|".join(
            [
                "'(?:[sdmt]|ll|ve|re)",
                f" ?{_run_of(letter)}",  # ' ?\p{L}+'
                f" ?{_run_of(number)}",  # ' ?\p{N}+'
                f" ?{_run_of(_complement(_union(space, letter, number)))}",  # ' ?[^\s\p{L}\p{N}]+'
                f"{ws}+(?!{_bracket(_complement(space))})",  # '\s+(?!\S)'
                f"{ws}+",  # '\s+'
            ]
        )
    )


def find_gpt2_tiktoken() -> Path | None:
    """The GPT-2 rank file if it is on this machine (see the module docstring), else None."""
    env = os.environ.get("FUNCTOK_GPT2_TIKTOKEN")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    for candidate in (env, cache / "functok" / "gpt2.tiktoken"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def load_vocabulary(path: str | os.PathLike, *, pattern: str | None = None) -> Vocabulary:
    """A functok tokenizer file, a ``tokenizer.json``, or (anything else) a tiktoken file.

    A file that is not one of these raises :class:`functok.TokenizerFileError` naming it.
    """
    p = Path(path)
    if p.suffix != ".json":
        return load_tiktoken(p, pattern=pattern)
    name = str(path)
    data = parse_json(read_text(p), name)
    if not isinstance(data, dict):
        raise TokenizerFileError(name, "$", f"expected an object (a functok tokenizer file or a "
                                            f"tokenizer.json), got {describe(data)}")
    if "functok" in data:
        from .tokenizer import Tokenizer

        return Tokenizer._from_data(data, name).vocabulary
    return _hf_vocabulary(data, name)
