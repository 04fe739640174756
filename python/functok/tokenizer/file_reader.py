"""Every read of a tokenizer's files, in one place: opening the file, its UTF-8, its JSON, and
a tiktoken rank file's lines.

Each loader reads through this module (:meth:`functok.Tokenizer.from_file` and
:meth:`~functok.Tokenizer.from_str`, and the external vocabularies of
:mod:`functok.tokenizer.external`), so that every way a file can be unreadable (an OS error, not
UTF-8 or a byte order mark, not JSON, a duplicate key, nested too deeply, a bad rank line) raises
one error type, :class:`TokenizerFileError`, whose message names the file, the place in it (a
line and column of the JSON, or a line of a rank file) and what was expected there. What the
parsed JSON must hold is checked elsewhere (:mod:`functok.tokenizer.tokenizer_file`,
:mod:`functok.tokenizer.bpe_model`). Plain standard-library code, so it runs wherever the loader
runs (Pyodide too).

>>> parse_json('{"model": []}', "t.json")["model"]
[]
>>> try:
...     parse_json('{"a": 1, "a": 2}', "t.json")
... except TokenizerFileError as e:
...     print(e)
t.json: a JSON object has the key "a" twice
"""

from __future__ import annotations

import binascii
import json
import os
import re
from itertools import accumulate
from pathlib import Path
from typing import Any, NoReturn

from .errors import TokenizerFileError
from .json_checks import MAX_ID, shown

__all__ = ["MAX_DEPTH", "parse_json", "read_bytes", "read_json", "read_text", "read_tiktoken_ranks"]

MAX_DEPTH = 127  # arrays and objects nested at most this deep (spec 14.1), as `tokenizers` reads


# --- bytes and text -----------------------------------------------------------------------


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


# --- JSON ---------------------------------------------------------------------------------


def read_json(path: str | os.PathLike) -> Any:
    """The JSON value of the file at ``path`` (:func:`read_text`, then :func:`parse_json`)."""
    return parse_json(read_text(path), str(path))


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


# --- tiktoken rank files ------------------------------------------------------------------

LINE = '"<base64 token> <rank>"'


def read_tiktoken_ranks(path: str | os.PathLike) -> dict[bytes, int]:
    """A tiktoken rank file: one ``base64(token) rank`` per line, every token and every rank
    once, and a rank for each of the 256 single bytes (the merges start from them); else
    :class:`functok.TokenizerFileError`."""
    file = str(path)
    data = read_bytes(path)
    ranks = _quick_ranks(data)
    if ranks is None:
        _locate_bad_line(file, data.splitlines())
    if not ranks:
        raise TokenizerFileError(file, None, f"expected lines {LINE}, got an empty file")
    missing = [b for b in range(256) if bytes((b,)) not in ranks]
    if missing:
        raise TokenizerFileError(file, None, f"expected a rank for each of the 256 single bytes, but byte "
                                             f"0x{missing[0]:02X} has none ({len(missing)} missing)")
    return ranks


# A whole rank file as spec 14.8 reads it (tiktoken's reading, bytes.splitlines, then two
# fields split at ASCII white space, made strict): lines of a padded base64 token and a rank of
# at most 10 digits, or blank lines. Anything else (a BOM, a no-break space) is no field.
_SPACE = rb"[ \t\x0b\x0c]"
_BASE64 = rb"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})"
_BASE64_TOKEN = re.compile(_BASE64 + rb"\Z")
_RANK_FILE = re.compile(rb"(?:%s*%s%s+[0-9]{1,10}%s*(?:\r\n|\r|\n|\Z)|%s*(?:\r\n|\r|\n))*"
                        % (_SPACE, _BASE64, _SPACE, _SPACE, _SPACE))


def _quick_ranks(data: bytes) -> dict[bytes, int] | None:
    """The ranks when every line is right (the usual case, in C loops), else None."""
    if _RANK_FILE.fullmatch(data) is None:
        return None
    fields = data.split()
    ranks = dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))
    values = ranks.values()
    if len(ranks) != len(fields) // 2 or len(set(values)) != len(ranks) or (ranks and max(values) >= MAX_ID):
        return None
    return ranks


def _locate_bad_line(file: str, lines: list[bytes]) -> NoReturn:
    line_of_rank: dict[int, int] = {}
    line_of_token: dict[bytes, int] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        token, rank = _tiktoken_line(file, number, line)
        if token in line_of_token:
            raise TokenizerFileError(file, f"line {number}", f"expected each token once, got {token!r} "
                                                             f"again (line {line_of_token[token]})")
        if rank in line_of_rank:
            raise TokenizerFileError(file, f"line {number}", f"expected a unique rank, got {rank}, the rank "
                                                             f"of line {line_of_rank[rank]}")
        line_of_token[token] = line_of_rank[rank] = number
    raise AssertionError("unreachable: a quick check failed, so a line is at fault")


def _tiktoken_line(file: str, number: int, line: bytes) -> tuple[bytes, int]:
    parts = line.split()
    where = f"line {number}"
    if len(parts) != 2:
        raise TokenizerFileError(file, where, f"expected {LINE}, got {len(parts)} field{'s' * (len(parts) != 1)}")
    try:
        if _BASE64_TOKEN.match(parts[0]) is None:  # padded, RFC 4648 section 4 (spec 14.8)
            raise binascii.Error
        token = binascii.a2b_base64(parts[0])
    except binascii.Error:
        raise TokenizerFileError(file, where, f"expected {LINE}, but the token is not base64") from None
    rank = int(parts[1]) if parts[1].isdigit() and len(parts[1]) <= 10 else MAX_ID
    if rank >= MAX_ID:
        got = shown(parts[1].decode("utf-8", "replace"))
        raise TokenizerFileError(file, where, f"expected a rank from 0 to {MAX_ID - 1}, got {got}")
    return token, rank
