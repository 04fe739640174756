"""Checking a parsed tokenizer file so that every fault names its place.

Every way a tokenizer file's JSON can have the wrong shape raises one error type,
:class:`TokenizerFileError`, whose message names the file, the place in it (a JSON path such as
``$.tokenizer.model.vocab["a"]``) and what was expected there. These are the primitives the
checks are written with: :class:`Checker`, the JSON paths (:func:`field`, :func:`entry`), values
as a message shows them (:func:`describe`, :func:`shown`) and ids (:func:`is_id`,
:func:`as_int`). They do no I/O (:mod:`functok.tokenizer.file_reader` reads the files) and are
plain standard-library code, so they run wherever the loader runs (Pyodide too).
:mod:`functok.tokenizer.bpe_model` checks a ``tokenizer.json``'s BPE model with them,
:mod:`functok.tokenizer.tokenizer_file` the functok tokenizer file.

>>> try:
...     Checker("t.json").object({"model": []}, "$", "model")
... except TokenizerFileError as e:
...     print(e)
t.json: $.model: expected an object, got a list
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import TokenizerFileError

__all__ = ["ID", "MAX_ID", "Checker", "as_int", "describe", "entry", "field", "is_id", "is_object", "shown"]

MAX_ID = 2**32  # ids are u32 in `tokenizers`, and functok's BPE packs two in a 64-bit key
SHOWN = 40  # characters of a value or key shown in a message (keeps it to one short line)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


# --- describing values and places ---------------------------------------------------------


def shown(text: str) -> str:
    """``text`` quoted as JSON, cut to :data:`SHOWN` characters for a one-line message."""
    quoted = json.dumps(text, ensure_ascii=True)
    return quoted if len(quoted) <= SHOWN else quoted[: SHOWN - 4] + '..."'


def describe(value: Any) -> str:
    """A value as a message names it: ``a list``, ``the string "5"``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return f"the number {value!r}"[: SHOWN + 11]
    if isinstance(value, str):
        return f"the string {shown(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def field(path: str, name: str) -> str:
    """The JSON path of member ``name`` of the object at ``path``: ``$.model`` or ``$["a b"]``."""
    return f"{path}.{name}" if _NAME.match(name) else f"{path}[{shown(name)}]"


def entry(path: str, key: str) -> str:
    """A member of a map (a vocabulary's token): always bracketed, as tokens are any text."""
    return f"{path}[{shown(key)}]"


_MISSING = object()


class Checker:
    """Checks of one file: each failure names the file and a JSON path."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, where: str | None, problem: str):
        raise TokenizerFileError(self.file, where, problem)

    def get(self, obj: dict, path: str, name: str, expected: str, ok, *, default: Any = _MISSING) -> Any:
        """``obj[name]`` if ``ok(value)``; a missing key is ``default`` when one is given."""
        value = obj.get(name, _MISSING)
        if value is _MISSING:
            if default is not _MISSING:
                return default
            self.fail(field(path, name), f"expected {expected}, got nothing (the key is missing)")
        if not ok(value):
            self.fail(field(path, name), f"expected {expected}, got {describe(value)}")
        return value

    def object(self, obj: dict, path: str, name: str) -> dict:
        return self.get(obj, path, name, "an object", is_object)

    def absent_or_null(self, obj: dict, path: str, names: tuple[str, ...], why: str) -> None:
        for name in names:
            self.get(obj, path, name, f"null ({why})", _is_null, default=None)


def is_object(v: Any) -> bool:
    return isinstance(v, dict)


def _is_null(v: Any) -> bool:
    return v is None


def is_id(v: Any) -> bool:
    """Is ``v`` an id: a whole number from 0 to ``MAX_ID - 1``, however written (spec 14.1:
    ``5``, ``5.0`` and ``5e0`` alike; a boolean is not a number)?"""
    return as_int(v) is not None and 0 <= v < MAX_ID


def as_int(v: Any) -> int | None:
    """The integer a JSON number ``v`` stands for, when it is a whole number (spec 14.1), else None."""
    if type(v) is int:
        return v
    if type(v) is float and v.is_integer():
        return int(v)
    return None


ID = f"an integer id from 0 to {MAX_ID - 1}"
