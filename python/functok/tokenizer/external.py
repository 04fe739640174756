"""External vocabularies: a Hugging Face ``tokenizer.json`` (BPE) and a tiktoken rank file.

Each loader returns a :class:`~functok.tokenizer.vocabulary.Vocabulary`, so that optimal
segmentation can be compared with greedy BPE on a production vocabulary, without the codec. The
model's *symbol space* (spec 10.1) is one of:

* byte-level vocabularies (GPT-2's byte alphabet in ``tokenizer.json``; tiktoken rank files):
  one symbol per byte. A ``tokenizer.json`` keeps its tokens in the GPT-2 alphabet (one
  character per byte, see :func:`bytes_to_unicode`); a tiktoken file keeps raw ``bytes``.
* character vocabularies, with or without byte fallback: one symbol per character; a character
  missing from the vocabulary falls back to its UTF-8 bytes as ``<0xXX>`` tokens.

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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import engine
from .bpe import TiktokenBPE
from .bpe_model import build_bpe, check_bpe
from .errors import TokenizerFileError
from .file_reader import parse_json, read_json, read_text, read_tiktoken_ranks
from .json_checks import Checker, describe
from .tokenizer import Tokenizer
from .vocabulary import CHARACTERS, PreTokenizer, SymbolSpace, Vocabulary

__all__ = [
    "CompiledTiktokenBPE",
    "PATTERNS",
    "bytes_to_unicode",
    "find_gpt2_tiktoken",
    "gpt2_pattern",
    "load_hf",
    "load_tiktoken",
    "load_vocabulary",
    "pattern_for",
    "read_tiktoken_ranks",  # the rank file's reader (tokenizer/file_reader.py), beside its loader
    "tiktoken_model",
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


class Gpt2ByteAlphabet(SymbolSpace):
    """Byte-level pre-tokens written in GPT-2's byte alphabet (a ``tokenizer.json`` with a
    ByteLevel pre-tokenizer): spelled as they are, read back as their bytes' UTF-8."""

    def __init__(self) -> None:
        super().__init__("byte-level")
        self._byte_of = {c: b for b, c in bytes_to_unicode().items()}

    def text(self, pretoken: str) -> str:
        return bytes(self._byte_of.get(c, 63) for c in pretoken).decode("utf-8", "replace")


class Utf8Bytes(SymbolSpace):
    """Text pre-tokens over a vocabulary of byte strings (a tiktoken rank file)."""

    spells_as_is = False

    def __init__(self) -> None:
        super().__init__("byte-level")

    def spell(self, pretoken: str) -> bytes:
        return pretoken.encode("utf-8")


# --- Hugging Face tokenizer.json ----------------------------------------------------------


def load_hf(source: str | os.PathLike | Mapping, *, pre_tokenizer: PreTokenizer | None = None) -> Vocabulary:
    """A Hugging Face ``tokenizer.json`` with a BPE model (byte-level or byte fallback).

    Greedy ids come from :class:`functok.tokenizer.bpe.BPE` (identical to ``tokenizers``).
    Pre-tokenizing runs the file's own normalizer and pre-tokenizer (:class:`HFPreTokenizer`,
    which needs ``tokenizers`` installed), unless ``pre_tokenizer`` replaces them.
    A malformed file raises :class:`functok.TokenizerFileError`.
    """
    if isinstance(source, Mapping):
        return _hf_vocabulary(dict(source), "tokenizer.json", pre_tokenizer)
    return _hf_vocabulary(read_json(source), str(source), pre_tokenizer)


def _hf_vocabulary(data: Any, name: str, pre_tokenizer: PreTokenizer | None = None) -> Vocabulary:
    checked = check_bpe(data, name, "$")
    model = checked.model
    c = Checker(name)
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        c.get(model, "$.model", key, "null or \"\": subword prefixes and suffixes are not supported by the "
                                     "segmenter", lambda v: v in (None, ""), default=None)
    unk = c.get(model, "$.model", "unk_token", "null or a token of the vocabulary",
                lambda v: v is None or (isinstance(v, str) and v in checked.vocab), default=None)
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
    return Vocabulary(
        name=name,
        tokens=checked.vocab,
        special_tokens=checked.special_tokens,
        model=bpe,
        pre_tokenizer=pre_tokenizer or HFPreTokenizer(data, name),
        symbols=Gpt2ByteAlphabet() if byte_level else CHARACTERS,
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


class HFPreTokenizer:
    """A ``tokenizer.json``'s normalizer and pre-tokenizer, run by ``tokenizers``; a
    :data:`~functok.tokenizer.vocabulary.PreTokenizer`. Built at once when ``tokenizers`` is
    installed, so that a normalizer or pre-tokenizer it refuses is refused at load (spec 14.8);
    without it (Pyodide), on first use."""

    def __init__(self, data: Mapping, name: str) -> None:
        self._data = data
        self._name = name
        self._steps: tuple | None = None  # (normalizer, pre_tokenizer) once loaded
        try:
            import tokenizers  # noqa: F401
        except ImportError:  # pragma: no cover - depends on the environment
            return
        self._load()

    def __call__(self, text: str) -> list[str]:
        normalizer, pre_tokenizer = self._steps or self._load()
        if normalizer is not None:
            text = normalizer.normalize_str(text)
        if pre_tokenizer is None:
            return [text] if text else []
        return [w for w, _ in pre_tokenizer.pre_tokenize_str(text)]

    def _load(self) -> tuple:
        try:
            from tokenizers import Tokenizer as HFTokenizer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                "pre-tokenizing with a tokenizer.json needs `tokenizers` (pip install tokenizers)"
            ) from exc
        # Only the two parts run here: functok checks the model itself (an id written 5.0 is
        # 5 to functok, spec 14.1, and a float to `tokenizers`), and ignores the rest.
        parts = {"model": {"type": "BPE", "vocab": {}, "merges": []},
                 "normalizer": self._data.get("normalizer"), "pre_tokenizer": self._data.get("pre_tokenizer")}
        try:
            hf = HFTokenizer.from_str(json.dumps(parts, allow_nan=False))
        except Exception as e:  # a normalizer or pre-tokenizer `tokenizers` does not know, or nested too deeply
            problem = " ".join(str(e).split())[:200]
            raise TokenizerFileError(self._name, "$", f"`tokenizers` cannot read its normalizer or "
                                                      f"pre-tokenizer: {problem}") from None
        self._steps = (hf.normalizer, hf.pre_tokenizer)
        return self._steps


# --- tiktoken rank files ------------------------------------------------------------------


def load_tiktoken(
    path: str | os.PathLike,
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
) -> Vocabulary:
    """A tiktoken rank file; ``pattern`` is a key of :data:`PATTERNS` or a `regex` pattern
    (default: :func:`pattern_for` the file's name).

    Greedy ids come from :class:`functok.tokenizer.bpe.TiktokenBPE` (identical to tiktoken), its
    merges in the C core where it is built (:func:`tiktoken_model`). Symbols are bytes. GPT-2's ``<|endoftext|>`` is not in the file; pass it in
    ``special_tokens``.
    """
    ranks = read_tiktoken_ranks(path)
    return Vocabulary(
        name=str(path),
        tokens=ranks,
        special_tokens=special_tokens or {},
        model=tiktoken_model(ranks),
        pre_tokenizer=regex_pre_tokenizer(pattern or pattern_for(path)),
        symbols=Utf8Bytes(),
    )


def tiktoken_model(ranks: Mapping[bytes, int]) -> TiktokenBPE:
    """tiktoken's merge rule over ``ranks``: :class:`CompiledTiktokenBPE` where the engine has
    one (:func:`functok.engine.tiktoken_merger`, the C core's), else the pure-Python :class:`TiktokenBPE`."""
    merger = engine.tiktoken_merger(dict(ranks))
    return TiktokenBPE(ranks) if merger is None else CompiledTiktokenBPE(ranks, merger)


class CompiledTiktokenBPE(TiktokenBPE):
    """:class:`TiktokenBPE` with its merges in the C core (``functok._native.TiktokenMerger``,
    native/core/bpe.c): the same ids and the same ``KeyError`` for a byte that is not a token
    (tests/engine/test_greedy_encoder.py), in n log n where the pure port is quadratic."""

    def __init__(self, ranks: Mapping[bytes, int], merger=None) -> None:
        super().__init__(ranks)
        self._merger = engine.tiktoken_merger(self.ranks) if merger is None else merger
        if self._merger is None:
            raise RuntimeError("the pure engine runs (FUNCTOK_PURE=1, or no C core): use TiktokenBPE")

    def tokenize(self, piece: bytes) -> list[int]:
        return self._merger.tokenize(piece)


def regex_pre_tokenizer(pattern: str) -> PreTokenizer:
    """The pre-tokenizer of a :data:`PATTERNS` key or a `regex` pattern."""
    if PATTERNS.get(pattern) == "llama3":
        from ..splitting import split

        return functools.partial(split, splitter="llama3")
    if pattern == "gpt2":
        return gpt2_pattern().findall
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
def gpt2_pattern() -> re.Pattern[str]:
    """GPT-2's pattern for the standard library's `re`, written as the llama3 splitter is
    (:mod:`functok.splitting`): classes from the pinned tables, so it yields the same pieces as
    `regex` with :data:`PATTERNS` ``["gpt2"]`` (tests/tokenizer/test_bpe.py), about twice as fast and
    without the `regex` dependency."""
    from .. import _ucd
    from ..splitting import bracket, complement, normalized, run_of, union

    letter = normalized(_ucd.LETTER_RANGES)
    number = normalized(_ucd.NUMBER_RANGES)
    space = normalized(_ucd.WHITE_SPACE_RANGES)
    ws = bracket(space)
    return re.compile(
        "|".join(
            [
                "'(?:[sdmt]|ll|ve|re)",
                f" ?{run_of(letter)}",  # ' ?\p{L}+'
                f" ?{run_of(number)}",  # ' ?\p{N}+'
                f" ?{run_of(complement(union(space, letter, number)))}",  # ' ?[^\s\p{L}\p{N}]+'
                f"{ws}+(?!{bracket(complement(space))})",  # '\s+(?!\S)'
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
        return Tokenizer.from_data(data, name).vocabulary
    return _hf_vocabulary(data, name)
