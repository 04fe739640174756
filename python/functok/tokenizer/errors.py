"""The tokenizer's error types: a file it cannot read, and ids it cannot decode.

Each keeps its fields through pickling (multiprocessing). The id errors carry ``id_index``, the
position in the ids of the id at fault; :class:`functok.tokenizer.Tokenizer.decode` and
:class:`functok.tokenizer.DecodeStream` raise the first of them in id order (spec 8.2 for the
stream's own errors).
"""

from __future__ import annotations

from ..errors import FormatError

__all__ = ["ByteFallbackError", "TokenFormatError", "TokenizerFileError", "UnknownTokenIdError"]


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read: ``file`` names it, ``where`` is the place in it (a
    JSON path like ``$.tokenizer.model.vocab["a"]``, ``line 3`` of a rank file, or None for the
    whole file) and ``problem`` says what was expected there."""

    def __init__(self, file: str, where: str | None, problem: str) -> None:
        self.file = file
        self.where = where
        self.problem = problem
        super().__init__(f"{file}: {where}: {problem}" if where else f"{file}: {problem}")

    def __reduce__(self):
        return (TokenizerFileError, (self.file, self.where, self.problem))


class TokenFormatError(FormatError):
    """A :class:`FormatError` in the stream of token ids.

    ``offset`` counts code points of the stream since the last special token (as
    :func:`functok.decode` would report it for that stretch), ``id_index`` is the position,
    in the ids, of the id that holds the offending code point (for a code point spelled by
    byte-fallback tokens: the first byte of its UTF-8 sequence).
    """

    def __init__(self, kind: str, offset: int, message: str, id_index: int) -> None:
        super().__init__(kind, offset, message)
        self.id_index = id_index

    def __str__(self) -> str:
        return f"{super().__str__()} (id at index {self.id_index})"

    def __reduce__(self):
        return (TokenFormatError, (self.kind, self.offset, self.message, self.id_index))


class UnknownTokenIdError(ValueError):
    """An id that is not in the vocabulary; ``id_index`` is its position in the ids."""

    def __init__(self, id: int, id_index: int) -> None:
        super().__init__(f"unknown token id {id} (at index {id_index})")
        self.id = id
        self.id_index = id_index

    def __reduce__(self):
        return (UnknownTokenIdError, (self.id, self.id_index))


class ByteFallbackError(UnicodeDecodeError):
    """Byte-fallback tokens that are not UTF-8.

    ``object`` holds the bad bytes (``start`` 0, ``end`` their length) and ``id_index`` the
    position, in the ids, of the first of them.
    """

    def __init__(self, bad: bytes, reason: str, id_index: int) -> None:
        super().__init__("utf-8", bad, 0, len(bad), reason)
        self.id_index = id_index

    def __str__(self) -> str:
        return f"{super().__str__()} (byte-fallback id at index {self.id_index})"

    def __reduce__(self):
        return (ByteFallbackError, (self.object, self.reason, self.id_index))


IdError = TokenFormatError | UnknownTokenIdError | ByteFallbackError
"""Any error of the ids, as the decoders order them (by ``id_index``)."""
