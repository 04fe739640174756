"""Reading a tokenizer's files, and checking JSON so that every fault names its place.

Every way such a file can be wrong (unreadable, not UTF-8, not JSON, nested too deeply, the
wrong shape) raises one error type, :class:`TokenizerFileError`, whose message names the file,
the place in it (a JSON path such as ``$.tokenizer.model.vocab["a"]``, or a line of a rank file)
and what was expected there. The checks are plain standard-library code, so they run wherever
the loader runs (Pyodide too). :mod:`functok.tokenizer.model_files` checks the models
(``tokenizer.json``, tiktoken rank files) with them, :mod:`functok.tokenizer.file` the
functok tokenizer file.

>>> parse_json('{"model": []}', "t.json")["model"]
[]
>>> try:
...     Checker("t.json").object({"model": []}, "$", "model")
... except TokenizerFileError as e:
...     print(e)
t.json: $.model: expected an object, got a list
"""

from __future__ import annotations

import json
import os
import re
from itertools import accumulate
from pathlib import Path
from typing import Any

from .errors import TokenizerFileError

__all__ = ["ID", "MAX_DEPTH", "MAX_ID", "Checker", "TokenizerFileError", "as_int", "describe", "entry", "field",
           "is_id", "is_object", "parse_json", "read_bytes", "read_text", "shown"]

MAX_ID = 2**32  # ids are u32 in `tokenizers`, and functok's BPE packs two in a 64-bit key
MAX_DEPTH = 127  # arrays and objects nested at most this deep (spec 14.1), as `tokenizers` reads
SHOWN = 40  # characters of a value or key shown in a message (keeps it to one short line)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


# --- reading ------------------------------------------------------------------------------


def read_bytes(path: str | os.PathLike) -> bytes:
    """The file's bytes; an OS error is a :class:`TokenizerFileError` naming the file."""
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise TokenizerFileError(str(path), None, f"cannot read the file: {e.strerror or e}") from None


def read_text(path: str | os.PathLike) -> str:
    """The file as UTF-8 text without a byte order mark (spec 14.1: RFC 8259 forbids it)."""
    return utf8_text(read_bytes(path), str(path))


def utf8_text(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text: ill-formed UTF-8 or a leading BOM is a :class:`TokenizerFileError`."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise TokenizerFileError(file, None, "expected UTF-8 without a byte order mark, but the file starts with one")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TokenizerFileError(file, None, f"expected UTF-8, but byte {e.start} is 0x{data[e.start]:02X}") from None


def parse_json(text: str, file: str) -> Any:
    """The JSON value of ``text`` (RFC 8259, spec 14.1); a syntax error, ``NaN`` or
    ``Infinity`` (not JSON), a duplicate key or nesting deeper than :data:`MAX_DEPTH` is a
    :class:`TokenizerFileError`, never a traceback. An integer written with more digits than
    ``int()`` converts is read as a float, as JavaScript reads every number."""
    if not text.strip():
        raise TokenizerFileError(file, None, "expected JSON, got an empty file")
    _check_depth(text, file)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_not_json, parse_int=_integer)
    except json.JSONDecodeError as e:
        raise TokenizerFileError(file, f"line {e.lineno} column {e.colno}", f"not valid JSON: {e.msg}") from None
    except _NotJson as e:
        raise TokenizerFileError(file, None, f"not valid JSON: {e.args[0]} is not a JSON number (RFC 8259)") from None
    except _DuplicateKey as e:
        raise TokenizerFileError(file, None, f"a JSON object has the key {shown(e.key)} twice") from None


# Outside strings, the brackets of the text: their running count is the nesting depth.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _check_depth(text: str, file: str) -> None:
    """Spec 14.1: at most :data:`MAX_DEPTH` nested arrays and objects (found in C loops)."""
    steps = map(_DEPTH_STEP.__getitem__, _BRACKETS.findall(_STRING.sub("", text)))
    if max(accumulate(steps), default=0) > MAX_DEPTH:
        raise TokenizerFileError(file, None, f"expected JSON nested at most {MAX_DEPTH} deep (arrays and objects)")


class _NotJson(Exception):
    pass


def _not_json(name: str):
    raise _NotJson(name)


def _integer(digits: str) -> int | float:
    # int() refuses more than sys.get_int_max_str_digits() digits; such a number is out of any
    # integer member's range anyway, and elsewhere it is ignored, so read it as JavaScript does.
    return int(digits) if len(digits) <= 400 else float(digits)


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    # JSON allows a repeated key and Python keeps the last: a vocabulary would lose a token.
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        raise _DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return out


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
