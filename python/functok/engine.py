"""The engine seam: which implementation runs functok's ops, chosen once, when functok is imported.

Three engines give the same output and the same errors (the differential tests run each op on
every engine of :func:`available`, through the ``engine`` fixture of tests/conftest.py; under
Pyodide, wasm/test/'s determinism and conformance tests hold the wasm engine to CPython):

* ``"native"``: functok's C core, ``functok._native``, built from ``native/`` by ``pip install``
  wherever a C compiler is found;
* ``"wasm"``: the same C core built to WebAssembly (``native/wasm/``), under Pyodide only, where
  ``wasm/functok.mjs`` provides it (:mod:`functok.engine_wasm`, the one module that speaks to
  JavaScript); its tokenizer parts are the greedy encoder and the id table (the optimal
  segmenter and tiktoken's merge rule run the reference's);
* ``"pure"``: the pure-Python reference, the spec's executable form. Its
  modules (:mod:`functok.encoding`, :mod:`functok.decoding`, :mod:`functok.pretokenize`,
  :mod:`functok.tokenizer.bpe`, :mod:`functok.tokenizer.segment`...) hold the spec's procedure and
  know nothing of engines; the one thing this engine adds is the cached decoder of
  :mod:`functok.decoding_cache` in front of :func:`functok.decoding.decode`.

``FUNCTOK_PURE=1`` in the environment, read when functok is imported, selects the pure engine
everywhere: the codec, and the BPE, optimal segmenter, decoder and counts of every tokenizer.

An :class:`Engine` is the ops of one engine; the one chosen is :data:`current`, and this
module's functions of the same names are its ops. The public codec functions
(:func:`functok.encode`, :func:`functok.pretokens`, :func:`functok.decode`) are this module's
:func:`encode`, :func:`pretokens` and :func:`decode`. The tokenizer asks it for its compiled
parts (:func:`greedy_encoder`, :func:`segmenter`, :func:`token_table` with :func:`detokenize`,
:func:`tiktoken_merger`), each None on the pure engine, where the tokenizer runs its reference
parts; ``functok train``'s counts read :data:`core`. This module never imports the tokenizer.

>>> backend() in ("native", "wasm", "pure")
True
"""

from __future__ import annotations

import functools
import math
import os
import sys
from types import ModuleType
from typing import Any, Callable, Iterable, NamedTuple

from . import decoding as reference_decode
from . import decoding_cache
from . import encoding as reference_encode
from . import pretokenize as reference_pretokenize
from .cache import CACHE_LIMIT
from .decoding import DEFAULT_MAX_OUTPUT, check_decode_arguments
from .encoding import DEFAULT_PROFILE, FEATURES
from .pretokenize import FUSE_MODES, fuse_mode
from .splitting import pattern as split_pattern

__all__ = ["Engine", "NATIVE_ENGINE", "OPS", "PURE", "PURE_ENGINE", "PURE_VARIABLE", "WASM_ENGINE", "available", "backend",
           "compiles_tokenizers", "core", "core_arguments", "current", "decode", "detokenize", "encode",
           "fusion_merges", "greedy_encoder", "pretokens", "pretokens_by", "segmenter", "tiktoken_merger",
           "token_table"]

PURE_VARIABLE = "FUNCTOK_PURE"
PURE = os.environ.get(PURE_VARIABLE, "") not in ("", "0")
"""Whether the environment asks for the pure engine everywhere (``FUNCTOK_PURE=1``)."""


def _load() -> ModuleType | None:
    if PURE:
        return None  # not even imported: the pure engine alone, as on a machine without the core
    try:
        from . import _native
    except ImportError:  # not built: no compiler at install time, or Pyodide
        return None
    return _native


_core_module = _load()


# -- the C core's arguments ----------------------------------------------------------------------

# The encoder configuration as the core takes it (native/core/core.h, CFG_*).
_FEATURE_BITS = {"case": 1, "marks": 2, "repeat": 4}
_FOLD_BITS = {"all": 0, "no-whitespace": 8, "none": 16}
_CASE_BITS = {"capitalize": 0, "range": 32}
MAX_DIGITS = {"llama3": 3, "paper": 1}  # spec 5.1: \p{N}{1,3} or \p{N}


def config_bits(features: frozenset[str], fold: str, case: str) -> int:
    """An encoder configuration (features, fold, case), checked already, as one integer."""
    return sum(_FEATURE_BITS[f] for f in features) | _FOLD_BITS[fold] | _CASE_BITS[case]


def core_arguments(text, *, normalize: str | None = "nfc", splitter: str = "llama3",
                   profile: str = DEFAULT_PROFILE, fold: str | None = None, case: str | None = None,
                   features: Iterable[str] = FEATURES) -> tuple:
    """The C core's arguments for text and these options, checked in the pure path's order and
    with its errors (options, splitter, then the text's type; the core checks surrogates)."""
    try:  # options seen before are valid: on a short text, checking them again costs more than the core
        options = _core_options[normalize, splitter, profile, fold, case, features]
    except (KeyError, TypeError):  # new options, or unhashable ones (a list of features)
        options = _check_core_options(normalize, splitter, profile, fold, case, features)
    if not isinstance(text, str):
        raise TypeError(f"expected str, not {type(text).__name__}")
    return (text, *options)


_core_options: dict[tuple, tuple[int, int, bool]] = {}  # the checked options, by their arguments
_MAX_CORE_OPTIONS = 256


def _check_core_options(normalize, splitter, profile, fold, case, features) -> tuple[int, int, bool]:
    config = reference_encode.check_options(normalize, features, profile, fold, case)
    if splitter not in MAX_DIGITS:
        split_pattern(splitter)  # raises the pure path's error for an unknown splitter
    options = MAX_DIGITS[splitter], config_bits(*config), normalize == "nfc"
    if len(_core_options) < _MAX_CORE_OPTIONS and isinstance(features, frozenset):
        _core_options[normalize, splitter, profile, fold, case, features] = options
    return options


# -- the C core's ops -----------------------------------------------------------------------------


def _core_engine(name: str, core: Any) -> Engine:
    """The engine of a C core: ``functok._native`` in CPython, or :class:`functok.engine_wasm.WasmCore`
    (the core in WebAssembly) under Pyodide; both have the same functions. A part the core lacks
    (the wasm build has no segmenter or tiktoken merger yet) is None: the reference's runs."""

    @functools.wraps(reference_encode.encode)
    def encode(text: str, **options) -> str:
        return core.encode(*core_arguments(text, **options))

    def pretokens_by(mode: str, text: str, **options) -> list[str]:
        return core.pretokens(*core_arguments(text, **options), FUSE_MODES.index(mode))

    @functools.wraps(reference_decode.decode)
    def decode(stream: str, *, errors: str = "strict", max_output: int = DEFAULT_MAX_OUTPUT) -> str:
        max_output = check_decode_arguments(stream, errors, max_output)
        return core.decode(stream, errors == "strict", max_output)  # native/core/decoding.c

    def greedy_encoder(bpe: Any, pre_tokenizer: Any):
        if bpe.prefix or bpe.suffix or bpe.unk_token or bpe.ignore_merges:
            return None  # options the core does not have
        _, max_digits, cfg, normalize = core_arguments("", normalize=pre_tokenizer.normalize,
                                                       splitter=pre_tokenizer.splitter, profile=pre_tokenizer.profile)
        chars = {ord(t): i for t, i in bpe.vocab.items() if len(t) == 1}
        byte_ids = bpe._bytes if bpe.byte_fallback else [None] * 256
        return core.GreedyEncoder(chars, bpe.merges, byte_ids, max_digits, cfg, normalize,
                                  FUSE_MODES.index(pre_tokenizer.fuse), CACHE_LIMIT)

    def segmenter(candidates: dict, byte_ids: list | None, fallback):
        try:
            return core.Segmenter(candidates, byte_ids, fallback)
        except (TypeError, OverflowError):  # tokens of both kinds, or ids the core cannot hold
            return None

    def tiktoken_merger(ranks: dict):
        return core.TiktokenMerger(ranks)

    def fusion_merges(table: Any, segmentation: Any, limit: int, min_count: float) -> list | None:
        at_least = _count_floor(min_count)
        if at_least is None:
            return None
        n = len(table.segments)  # the segmentation's first n words are the table's segments
        try:
            return core.fusion_merges(
                segmentation.tokens, segmentation.unmergeable(), segmentation.ids, memoryview(segmentation.starts)[:n + 1],
                table.instruction, table.chain_segments, table.chain_starts, table.counts,
                max(0, min(limit, sys.maxsize)), at_least)
        except OverflowError:  # a count past 64 bits
            return None

    has = functools.partial(hasattr, core)
    return Engine(name, encode, pretokens_by, decode, greedy_encoder,
                  segmenter if has("Segmenter") else _none, core.token_table, core.detokenize,
                  tiktoken_merger if has("TiktokenMerger") else _none,
                  fusion_merges if has("fusion_merges") else _none)


def _count_floor(min_count: float) -> int | None:
    """The least whole count that is not below ``min_count`` (a pair's count c stops the merges when
    ``c < min_count``, the reference's test), or None past the core's 64 bits."""
    if min_count != min_count:  # NaN: no count is below it
        return 0
    if min_count == math.inf:
        return None
    floor = max(0, math.ceil(min_count)) if min_count != -math.inf else 0
    return floor if floor < 1 << 64 else None


def _none(*args) -> None:
    """A compiled part the pure engine does not have: its caller runs the reference's."""
    return None


# -- the two engines, and the one chosen ------------------------------------------------------------


class Engine(NamedTuple):
    """One engine's ops. The codec's three take what :func:`functok.encode`,
    :func:`functok.pretokenize.pretokens_by` and :func:`functok.decode` take; each of the
    tokenizer's compiled parts returns None where this engine has none (then the tokenizer runs
    its reference part):

    * ``greedy_encoder(bpe, pre_tokenizer)``: for a :class:`functok.tokenizer.bpe.BPE` with byte
      fallback and no prefix, suffix or unk (what the loader checked) and a
      :class:`functok.tokenizer.codec_pretokenizer.CodecPreTokenizer`, an encoder of text between
      special tokens (``encode(text)``, ``pretoken_ids(pretokens)``, ``clear_caches()``), with
      the pure path's ids;
    * ``segmenter(candidates, byte_ids, fallback)``: an optimal segmenter with the methods, ids
      and errors of :class:`functok.tokenizer.segment.Segmenter` (None also for candidates the
      core cannot hold: tokens of both kinds, or ids past its range);
    * ``token_table(token, byte, special)``: a tokenizer's id table for ``detokenize(table, ids,
      strict, skip_special_tokens, max_output)``, which gives the text wherever no question comes
      up and None at an unknown id, invalid UTF-8 in byte tokens or a strict format error (the
      caller then decodes the ids itself);
    * ``tiktoken_merger(ranks)``: tiktoken's merge rule (``tokenize(piece)``) over ``ranks``;
    * ``fusion_merges(table, segmentation, limit, min_count)``: training's fusion merges
      (:data:`functok.tokenizer.fusion.CompiledMerges`), or None where the reference must run.
    """

    name: str
    encode: Callable[..., str]
    pretokens_by: Callable[..., list[str]]
    decode: Callable[..., str]
    greedy_encoder: Callable[[Any, Any], Any]
    segmenter: Callable[[dict, Any, Any], Any]
    token_table: Callable[[dict, dict, dict], Any]
    detokenize: Callable[..., Any]
    tiktoken_merger: Callable[[dict], Any]
    fusion_merges: Callable[[Any, Any, int, float], Any]


OPS = Engine._fields[1:]
"""The names of an engine's ops, each also this module's function on the chosen engine."""

PURE_ENGINE = Engine("pure", reference_encode.encode, reference_pretokenize.pretokens_by,
                     decoding_cache.decode,  # the reference decoder behind a cache of decoded groups
                     _none, _none, _none, _none, _none, _none)
NATIVE_ENGINE = None if _core_module is None else _core_engine("native", _core_module)
"""The C core's engine, or None where it is not built or ``FUNCTOK_PURE=1`` keeps it out."""


def _load_wasm():
    """Under Pyodide, the C core in WebAssembly that wasm/functok.mjs provides, else None."""
    if PURE or _core_module is not None or sys.platform != "emscripten":
        return None
    from . import engine_wasm  # Pyodide only: the one module that speaks to JavaScript

    return engine_wasm.load()


_wasm_core = _load_wasm()
WASM_ENGINE = None if _wasm_core is None else _core_engine("wasm", _wasm_core)
"""Under Pyodide, the C core built to WebAssembly (:mod:`functok.engine_wasm`), else None."""


def available() -> list[Engine]:
    """The engines this process can run: the pure one, and the C core's where it is built (in
    CPython, or in WebAssembly under Pyodide) and ``FUNCTOK_PURE=1`` is not set (the
    differential tests run each op on every one)."""
    return [e for e in (NATIVE_ENGINE, WASM_ENGINE, PURE_ENGINE) if e is not None]


current = available()[0]
"""The engine chosen at import: the C core's where it can run, else the pure one."""
core = _core_module if current is NATIVE_ENGINE else None
"""The C core's CPython module where it runs, else None (``functok train``'s counts read it)."""

# This module's functions: the chosen engine's ops (tests/conftest.py's running_on rebinds them).
encode = current.encode
pretokens_by = current.pretokens_by
decode = current.decode
greedy_encoder = current.greedy_encoder
segmenter = current.segmenter
token_table = current.token_table
detokenize = current.detokenize
tiktoken_merger = current.tiktoken_merger
fusion_merges = current.fusion_merges


def backend() -> str:
    """``"native"`` when the C core runs in CPython, ``"wasm"`` when it runs in WebAssembly
    under Pyodide, ``"pure"`` when the pure-Python reference does (the engine chosen at import)."""
    return current.name


def compiles_tokenizers() -> bool:
    """Whether the chosen engine has compiled tokenizer parts (:attr:`Engine.greedy_encoder`...)."""
    return current.name != "pure"


@functools.wraps(reference_pretokenize.pretokens)
def pretokens(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
              split_operators: bool = True, fuse: str | None = None, profile: str = DEFAULT_PROFILE,
              fold: str | None = None, case: str | None = None,
              features: Iterable[str] = FEATURES) -> list[str]:
    return pretokens_by(fuse_mode(fuse, split_operators), text, normalize=normalize,
                        splitter=splitter, profile=profile, fold=fold, case=case, features=features)
