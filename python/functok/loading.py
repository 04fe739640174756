"""Reading tokenizer files: a functok tokenizer file, a Hugging Face ``tokenizer.json``, a
tiktoken rank file.

Every way such a file can be wrong (unreadable, not UTF-8, not JSON, nested too deeply, the
wrong shape, a merge of unknown tokens, two tokens with one id) raises one error type,
:class:`TokenizerFileError`, whose message names the file, the place in it (a JSON path such
as ``$.tokenizer.model.vocab["a"]``, or a line of a rank file) and what was expected there.
The checks are plain standard-library code, so they run wherever the loader runs (Pyodide
too); ``conformance/schema/tokenizer-file.schema.json`` describes the same shape for readers.

>>> parse_json('{"model": []}', "t.json")["model"]
[]
>>> try:
...     check_bpe({"model": []}, "t.json", "$")
... except TokenizerFileError as e:
...     print(e)
t.json: $.model: expected an object, got a list
"""

from __future__ import annotations

import binascii
import json
import os
import re
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from .bpe import BPE

__all__ = ["BPEModel", "TokenizerFileError", "build_bpe", "check_bpe", "parse_json", "read_text", "read_tiktoken"]

MAX_ID = 2**32  # ids are u32 in `tokenizers`, and functok's BPE packs two in a 64-bit key
_SHOWN = 40  # characters of a value or key shown in a message (keeps it to one short line)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read: ``file`` names it, ``where`` is the place in it (a
    JSON path like ``$.tokenizer.model.vocab["a"]``, ``line 3`` of a rank file, or None for the
    whole file) and ``problem`` says what was expected there."""

    def __init__(self, file: str, where: str | None, problem: str) -> None:
        self.file = file
        self.where = where
        self.problem = problem
        super().__init__(f"{file}: {where}: {problem}" if where else f"{file}: {problem}")

    def __reduce__(self):  # keep the fields through pickling (multiprocessing)
        return (TokenizerFileError, (self.file, self.where, self.problem))


# --- reading ------------------------------------------------------------------------------


def read_bytes(path: str | os.PathLike) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise TokenizerFileError(str(path), None, f"cannot read the file: {e.strerror or e}") from None


def read_text(path: str | os.PathLike) -> str:
    """The file as UTF-8 text (a BOM is not allowed: JSON forbids it)."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TokenizerFileError(str(path), None, f"expected UTF-8, but byte {e.start} is 0x{data[e.start]:02X}") from None


def parse_json(text: str, file: str) -> Any:
    """The JSON value of ``text``; a syntax error, a duplicate key or nesting deeper than the
    parser's stack is a :class:`TokenizerFileError`, never a traceback."""
    if not text.strip():
        raise TokenizerFileError(file, None, "expected JSON, got an empty file")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise TokenizerFileError(file, f"line {e.lineno} column {e.colno}", f"not valid JSON: {e.msg}") from None
    except RecursionError:
        raise TokenizerFileError(file, None, "expected JSON nested less deeply than the parser's stack") from None
    except ValueError as e:  # a number with more digits than int() converts
        problem = str(e).split(":")[0].split(";")[0]
        raise TokenizerFileError(file, None, f"expected JSON Python can read: {problem}") from None
    except _DuplicateKey as e:
        raise TokenizerFileError(file, None, f"a JSON object has the key {_shown(e.key)} twice") from None


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


def _shown(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=True)
    return quoted if len(quoted) <= _SHOWN else quoted[: _SHOWN - 4] + '..."'


def describe(value: Any) -> str:
    """A value as a message names it: ``a list``, ``the string "5"``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return f"the number {value!r}"[: _SHOWN + 11]
    if isinstance(value, str):
        return f"the string {_shown(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def field(path: str, name: str) -> str:
    return f"{path}.{name}" if _NAME.match(name) else f"{path}[{_shown(name)}]"


def entry(path: str, key: str) -> str:
    """A member of a map (a vocabulary's token): always bracketed, as tokens are any text."""
    return f"{path}[{_shown(key)}]"


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
        return self.get(obj, path, name, "an object", _is_object)

    def absent_or_null(self, obj: dict, path: str, names: tuple[str, ...], why: str) -> None:
        for name in names:
            self.get(obj, path, name, f"null ({why})", _is_null, default=None)


def _is_object(v: Any) -> bool:
    return isinstance(v, dict)


def _is_null(v: Any) -> bool:
    return v is None


def is_id(v: Any) -> bool:
    return type(v) is int and 0 <= v < MAX_ID


ID = f"an integer id from 0 to {MAX_ID - 1}"


# --- a BPE model (tokenizer.json) ---------------------------------------------------------


class BPEModel(NamedTuple):
    """The checked parts of a ``tokenizer.json``: ``model`` is its ``"model"`` object."""

    model: dict
    vocab: dict[str, int]
    merges: list[tuple[str, str]]
    special_tokens: dict[str, int]
    id_to_token: dict[int, str]


def check_bpe(data: Any, file: str, root: str, *, added_in_vocab: bool = False) -> BPEModel:
    """Check the BPE parts of a ``tokenizer.json`` found at JSON path ``root`` of ``file``:
    an object ``model`` with a ``vocab`` of unique ids, ``merges`` of two strings, and
    ``added_tokens`` with ids of their own (vocabulary tokens, when ``added_in_vocab``).
    :func:`build_bpe` checks the merges' tokens."""
    c = Checker(file)
    if not isinstance(data, dict):
        c.fail(root, f"expected an object (a tokenizer.json), got {describe(data)}")
    model = c.object(data, root, "model")
    at = field(root, "model")
    c.get(model, at, "type", '"BPE"', lambda v: v == "BPE", default="BPE")
    vocab, id_to_token = _check_vocab(c, model, at)
    merges = _check_merges(c, model, at, vocab)
    specials = _check_added_tokens(c, data, root, vocab, id_to_token, added_in_vocab)
    return BPEModel(model, vocab, merges, specials, id_to_token)


def _check_vocab(c: Checker, model: dict, at: str) -> tuple[dict[str, int], dict[int, str]]:
    """The vocabulary and its inverse: integer ids in range, each once."""
    vocab = c.get(model, at, "vocab", "an object (token to id)", _is_object)
    ids = vocab.values()
    id_to_token = dict(zip(ids, vocab))
    # The usual case, in C loops; else find and name the first fault.
    if not ids or (set(map(type, ids)) == {int} and min(ids) >= 0 and max(ids) < MAX_ID
                   and len(id_to_token) == len(vocab)):
        return vocab, id_to_token
    where = field(at, "vocab")
    token_of: dict[int, str] = {}
    for token, i in vocab.items():
        if not is_id(i):
            c.fail(entry(where, token), f"expected {ID}, got {describe(i)}")
        other = token_of.setdefault(i, token)
        if other != token:
            c.fail(entry(where, token), f"expected a unique id, got {i}, the id of {_shown(other)}")
    raise AssertionError("unreachable: the fast check failed, so a fault was found")


def _check_merges(c: Checker, model: dict, at: str, vocab: dict[str, int]) -> list[tuple[str, str]]:
    """The merges as pairs of strings. That both are tokens, and their concatenation too, is
    checked by :func:`build_bpe`, whose BPE looks each one up anyway."""
    merges = c.get(model, at, "merges", "a list of merges", lambda v: isinstance(v, list))
    try:  # the usual case, in C loops; any fault is found (and named) below
        pairs = [tuple(m) if type(m) is list else tuple(m.split(" ")) for m in merges]
        if not pairs or (set(map(len, pairs)) == {2} and set(map(type, chain.from_iterable(pairs))) == {str}):
            return pairs
    except (AttributeError, TypeError):  # a merge that is neither a list nor a string
        pass
    _locate_bad_merge(c, field(at, "merges"), merges, vocab)


def build_bpe(checked: BPEModel, file: str, root: str, **options) -> BPE:
    """functok's BPE of a checked model (``options`` go to :class:`functok.bpe.BPE`); a merge
    of tokens that are not in the vocabulary is a :class:`TokenizerFileError` naming it."""
    try:
        return BPE(checked.vocab, checked.merges, **options)
    except KeyError:
        where = field(field(root, "model"), "merges")
        _locate_bad_merge(Checker(file), where, checked.model["merges"], checked.vocab)


def _locate_bad_merge(c: Checker, where: str, merges: list, vocab: dict[str, int]) -> NoReturn:
    for k, merge in enumerate(merges):
        _check_merge(c, f"{where}[{k}]", merge, vocab)
    raise AssertionError("unreachable: a quick check failed, so a merge is at fault")


def _check_merge(c: Checker, here: str, merge: Any, vocab: dict[str, int]) -> None:
    if isinstance(merge, str) and merge.count(" ") == 1:
        pair = tuple(merge.split(" "))
    elif isinstance(merge, list) and len(merge) == 2 and all(isinstance(t, str) for t in merge):
        pair = tuple(merge)
    else:
        c.fail(here, f'expected a merge, "left right" or ["left", "right"], got {describe(merge)}')
    for side, token in enumerate(pair):
        if token not in vocab:
            c.fail(f"{here}[{side}]" if isinstance(merge, list) else here,
                   f"expected a token of the vocabulary, got {describe(token)}")
    if pair[0] + pair[1] not in vocab:
        c.fail(here, f"expected a merge whose result is a token, but {_shown(pair[0] + pair[1])} is not in "
                     f"the vocabulary")


def _check_added_tokens(c: Checker, data: dict, root: str, vocab: dict[str, int], id_to_token: dict[int, str],
                        in_vocab: bool) -> dict[str, int]:
    """Each added token once, with the vocabulary's id for it. A token missing from the
    vocabulary (as Llama 3's specials are) is refused when ``in_vocab``, else it needs an id
    no vocabulary token has."""
    added = c.get(data, root, "added_tokens", "a list of tokens", lambda v: v is None or isinstance(v, list),
                  default=None)
    where = field(root, "added_tokens")
    specials: dict[str, int] = {}
    ids: set[int] = set()
    for k, token in enumerate(added or ()):
        here = f"{where}[{k}]"
        if not isinstance(token, dict):
            c.fail(here, f"expected an object with content and id, got {describe(token)}")
        content = c.get(token, here, "content", "a non-empty string", lambda v: isinstance(v, str) and v != "")
        i = c.get(token, here, "id", ID, is_id)
        if content in vocab or in_vocab:
            if vocab.get(content) != i:
                c.fail(field(here, "id"), f"expected the vocabulary's id of {_shown(content)} "
                                          f"({vocab.get(content, 'none: it is not in the vocabulary')}), got {i}")
        elif i in id_to_token:
            c.fail(field(here, "id"), f"expected an id no vocabulary token has, got {i}, the id of "
                                      f"{_shown(id_to_token[i])}")
        if content in specials:
            c.fail(here, f"expected each added token once, got {_shown(content)} again")
        if i in ids:
            c.fail(field(here, "id"), f"expected a unique id, got {i} again")
        specials[content] = i
        ids.add(i)
    return specials


# --- tiktoken rank files ------------------------------------------------------------------

LINE = '"<base64 token> <rank>"'


def read_tiktoken(path: str | os.PathLike) -> dict[bytes, int]:
    """A tiktoken rank file: one ``base64(token) rank`` per line, every token and every rank
    once, and a rank for each of the 256 single bytes (the merges start from them)."""
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


# A whole rank file as tiktoken reads it (bytes.splitlines, then two fields split at white
# space): lines of a base64 token and a rank of at most 10 digits, or blank lines.
_SPACE = rb"[ \t\x0b\x0c]"
_BASE64_CHARS = re.compile(rb"[A-Za-z0-9+/=]+")
_RANK_FILE = re.compile(rb"(?:%s*[A-Za-z0-9+/=]+%s+[0-9]{1,10}%s*(?:\r\n|\r|\n|\Z)|%s*(?:\r\n|\r|\n))*"
                        % (_SPACE, _SPACE, _SPACE, _SPACE))


def _quick_ranks(data: bytes) -> dict[bytes, int] | None:
    """The ranks when every line is right (the usual case, in C loops), else None."""
    if _RANK_FILE.fullmatch(data) is None:
        return None
    fields = data.split()
    try:
        ranks = dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))
    except binascii.Error:  # bad padding
        return None
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
        if _BASE64_CHARS.fullmatch(parts[0]) is None:
            raise binascii.Error
        token = binascii.a2b_base64(parts[0])
    except binascii.Error:
        raise TokenizerFileError(file, where, f"expected {LINE}, but the token is not base64") from None
    rank = int(parts[1]) if parts[1].isdigit() and len(parts[1]) <= 10 else MAX_ID
    if rank >= MAX_ID:
        shown = _shown(parts[1].decode("utf-8", "replace"))
        raise TokenizerFileError(file, where, f"expected a rank from 0 to {MAX_ID - 1}, got {shown}")
    return token, rank
