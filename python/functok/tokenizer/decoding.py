"""Token ids back to text (spec 14.6): ids -> the stream -> :func:`functok.decode` (spec 7), with
the first error in id order.

:class:`TokenTable` says what each id of a tokenizer stands for; :class:`IdReader` turns ids into
the stream's code points the one way both decoders read them (:func:`decode_ids` here, for a
whole list of ids, and :class:`functok.tokenizer.stream.DecodeStream`, one id at a time).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Mapping, Sequence

from .. import engine
from ..decoding import ERRORS
from ..errors import FormatError
from .bpe import byte_fallback_token
from .errors import ByteFallbackError, TokenFormatError, UnknownTokenIdError

__all__ = ["IdReader", "TokenTable", "decode_ids", "utf8_error"]


class TokenTable:
    """What each id of a tokenizer stands for: ``special`` (id -> a special token's text),
    ``byte`` (id -> the byte of a byte-fallback token) and ``token`` (id -> its token, the
    stream's code points; every id, special and byte tokens included)."""

    def __init__(self, vocab: Mapping[str, int], token: Mapping[int, str], special_tokens: Mapping[str, int]) -> None:
        """``vocab`` maps each token to its id and ``token`` is its inverse; the vocabulary has
        all 256 byte-fallback tokens."""
        self.token = token
        self.special = {i: t for t, i in special_tokens.items()}
        self.byte = {vocab[byte_fallback_token(b)]: b for b in range(256)}
        self._compiled: object = False  # the engine's copy, built on first use (None: it has none)

    def compiled(self):
        """The engine's copy of this table (:func:`functok.engine.token_table`), or None on the
        pure engine."""
        if self._compiled is False:
            self._compiled = engine.token_table(dict(self.token), self.byte, self.special)
        return self._compiled


def utf8_error(data: bytes, first_index: int) -> ByteFallbackError:
    """The first UTF-8 error of ``data``, whose first byte is the id at ``first_index``."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ByteFallbackError(data[e.start : e.end], e.reason, first_index + e.start)
    raise AssertionError(f"{data!r} is valid UTF-8")


class IdReader:
    """Ids to stream code points, the one way both decoders read them.

    A token id gives its token, an unknown id U+FFFD, byte-fallback ids their UTF-8 (U+FFFD
    for invalid bytes, as ``bytes.decode(errors="replace")``). Each piece of code points comes
    with the index of the id it is attributed to: a code point spelled in bytes belongs to the
    first byte of its sequence. The first error of the ids (strict mode) is kept in ``error``.
    Special ids are the caller's: they end a stretch.
    """

    def __init__(self, table: TokenTable, strict: bool) -> None:
        self._byte_of = table.byte
        self._token_of = table.token
        self._strict = strict
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._last_byte = 0  # index of the last byte-fallback id read
        self.error: UnknownTokenIdError | ByteFallbackError | None = None

    def read(self, id: int, index: int) -> list[tuple[str, int]]:
        byte = self._byte_of.get(id)
        if byte is not None:
            return self._byte(byte, index)
        pieces = self.end_bytes()
        token = self._token_of.get(id)
        if token is None:
            self._fail(lambda: UnknownTokenIdError(id, index))
            token = "\ufffd"
        pieces.append((token, index))
        return pieces

    @property
    def in_bytes(self) -> bool:
        """Is a UTF-8 sequence of byte-fallback ids unfinished?"""
        return bool(self._utf8.getstate()[0])

    def end_bytes(self) -> list[tuple[str, int]]:
        """A run of byte-fallback ids has ended: an unfinished sequence is U+FFFD."""
        buffered = self._utf8.getstate()[0]
        if not buffered:
            return []
        first = self._last_byte - len(buffered) + 1
        self._fail(lambda: utf8_error(buffered, first))
        return [(self._utf8.decode(b"", final=True), first)]

    def _byte(self, byte: int, index: int) -> list[tuple[str, int]]:
        buffered = self._utf8.getstate()[0]
        chars = self._utf8.decode(bytes((byte,)))
        self._last_byte = index
        if not chars:
            return []
        # The output is the sequence the buffered bytes began (or their U+FFFD), then at
        # most one code point of this byte alone (ASCII, or U+FFFD for a byte that cannot
        # start a sequence).
        first = index - len(buffered)
        if "\ufffd" in chars and not (buffered == b"\xef\xbf" and byte == 0xBD):  # not U+FFFD itself
            self._fail(lambda: utf8_error(buffered + bytes((byte,)), first))
        if len(chars) == 2:
            return [(chars[0], first), (chars[1], index)]
        return [(chars, first)]

    def _fail(self, error: Callable[[], UnknownTokenIdError | ByteFallbackError]) -> None:
        if self._strict and self.error is None:
            self.error = error()


def decode_ids(table: TokenTable, ids: Iterable[int], *, errors: str, skip_special_tokens: bool,
               max_output: int) -> str:
    """The text of ``ids``: see :meth:`functok.tokenizer.Tokenizer.decode`, which this is."""
    if errors not in ERRORS:
        raise ValueError(f"errors must be one of {ERRORS}, not {errors!r}")
    if not isinstance(ids, Sequence):
        ids = list(ids)  # an error's id is found by reading its stretch again
    strict = errors == "strict"
    if _is_max_output(max_output):
        # The engine's road (the C core's), the same text wherever no question comes up. Where
        # one does (an unknown id, invalid UTF-8 in byte tokens, a strict format error), or where
        # the engine has none, the ids are decoded below, and the first error is found and
        # attributed to its id here, in one place.
        text = engine.detokenize(table.compiled(), ids, strict, skip_special_tokens, max_output)
        if text is not None:
            return text
    out: list[str] = []
    tokens: list[str] = []  # the current stretch's stream
    run = bytearray()  # byte-fallback tokens waiting to be read as UTF-8
    run_start = stretch_start = 0
    first_error: UnknownTokenIdError | ByteFallbackError | None = None  # of this stretch's ids
    byte_of, special_of, token_of = table.byte, table.special, table.token
    for index, i in enumerate(ids):
        byte = byte_of.get(i)
        if byte is not None:
            if not run:
                run_start = index
            run.append(byte)
            continue
        if run:
            first_error = _read_bytes(run, run_start, tokens, strict, first_error)
        special = special_of.get(i)
        if special is None:
            token = token_of.get(i)
            if token is None:
                if strict and first_error is None:
                    first_error = UnknownTokenIdError(i, index)
                token = "\ufffd"
            tokens.append(token)
            continue
        out.append(_decode_stretch(table, ids, stretch_start, tokens, first_error, errors, max_output))
        tokens.clear()
        first_error = None
        stretch_start = index + 1
        if not skip_special_tokens:
            out.append(special)
    if run:
        first_error = _read_bytes(run, run_start, tokens, strict, first_error)
    out.append(_decode_stretch(table, ids, stretch_start, tokens, first_error, errors, max_output))
    return "".join(out)


def _is_max_output(value: object) -> bool:
    """Whether ``value`` passes :func:`functok.decoding.check_max_output` (else the pure road raises
    its error when it decodes its first stretch, after any error of the ids before it)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _decode_stretch(table: TokenTable, ids: Sequence[int], start: int, tokens: list[str], first_error,
                    errors: str, max_output: int) -> str:
    """Decode the stream of ids[start:...]; in strict mode raise its first error in id order."""
    try:
        text = engine.decode("".join(tokens), errors=errors, max_output=max_output)
    except FormatError as e:
        index = _index_of_offset(table, ids, start, e.offset)
        if first_error is None or index < first_error.id_index:
            raise TokenFormatError(e.kind, e.offset, e.message, index) from None
        raise first_error from None
    if first_error is not None:
        raise first_error
    return text


def _read_bytes(run: bytearray, first_index: int, tokens: list[str], strict: bool, first_error):
    """Append a run of byte-fallback tokens as UTF-8 to ``tokens`` (U+FFFD for invalid bytes);
    return the stretch's first id error, this run's if it is the first."""
    try:
        tokens.append(run.decode("utf-8", "strict" if strict else "replace"))
    except UnicodeDecodeError:
        if first_error is None:
            first_error = utf8_error(bytes(run), first_index)
        tokens.append(run.decode("utf-8", "replace"))
    run.clear()
    return first_error


def _index_of_offset(table: TokenTable, ids: Sequence[int], start: int, offset: int) -> int:
    """The index of the id holding code point ``offset`` of the stretch that starts at ids[start]."""
    reader = IdReader(table, strict=False)
    position = 0
    for index in range(start, len(ids)):
        for chars, at in reader.read(ids[index], index):
            position += len(chars)
            if offset < position:
                return at
    for chars, at in reader.end_bytes():
        position += len(chars)
        if offset < position:
            return at
    raise AssertionError(f"offset {offset} is past the stretch")
