"""Which implementation runs: functok's C core or the pure-Python reference.

The C core is ``functok._native``, built from ``native/`` by ``pip install`` wherever a C compiler
is found (the package installs pure where none is). The codec's entry points (:func:`functok.encode`,
:func:`functok.pretokens`, :func:`functok.decode`) call it when it is there, and it gives the same output and the same
errors as the pure path, which stays the spec's executable form (and what Pyodide runs).
``FUNCTOK_PURE=1`` in the environment, read when functok is imported, makes the pure path run:
the pure codec, and the pure-Python BPE and optimal segmenter in every :class:`functok.Tokenizer`.

>>> backend() in ("native", "pure")
True
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["MAX_DIGITS", "PURE", "PURE_VARIABLE", "backend", "config_bits", "core"]

PURE_VARIABLE = "FUNCTOK_PURE"
PURE = os.environ.get(PURE_VARIABLE, "") not in ("", "0")
"""Whether the environment asks for the pure path everywhere: no C core, and no Hugging Face
``tokenizers`` fast path in :class:`functok.Tokenizer` (its ``fast_path`` starts False)."""


def _load() -> ModuleType | None:
    if PURE:
        return None
    try:
        from . import _native
    except ImportError:  # not built: no compiler at install time, or Pyodide
        return None
    return _native


core = _load()
"""The C core's module, or None where the pure path runs."""


def backend() -> str:
    """``"native"`` when the C core runs, ``"pure"`` when the pure-Python reference does."""
    return "pure" if core is None else "native"


# The encoder configuration as the core takes it (native/src/core.h, CFG_*).
_FEATURE_BITS = {"case": 1, "marks": 2, "repeat": 4}
_FOLD_BITS = {"all": 0, "no-whitespace": 8, "none": 16}
_CASE_BITS = {"capitalize": 0, "range": 32}
MAX_DIGITS = {"llama3": 3, "paper": 1}  # spec 5.1: \p{N}{1,3} or \p{N}


def config_bits(features: frozenset[str], fold: str, case: str) -> int:
    """An encoder configuration (features, fold, case), checked already, as one integer."""
    return sum(_FEATURE_BITS[f] for f in features) | _FOLD_BITS[fold] | _CASE_BITS[case]
