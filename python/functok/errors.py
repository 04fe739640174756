"""The error kinds of spec section 8 and the one exception type that carries them."""

from __future__ import annotations

# The kinds, in the order of spec/opcodes.json (generated into _opcodes).
from ._opcodes import ERROR_KINDS

# At one offset a strict decoder reports the first of these (spec 8, precedence).
_PRECEDENCE = {"bad-count": 0, "bad-range": 1, "position-out-of-range": 2}


class FormatError(ValueError):
    """A stream or text that the format cannot accept.

    ``kind`` is the spec's name for the error (one of :data:`ERROR_KINDS`) and ``offset`` the
    index, in code points, of the offending code point in the input.
    """

    def __init__(self, kind: str, offset: int, message: str) -> None:
        if kind not in ERROR_KINDS:
            raise ValueError(f"unknown error kind {kind!r}")
        self.kind = kind
        self.offset = offset
        self.message = message
        super().__init__(f"{kind} at code point {offset}: {message}")

    def __reduce__(self):  # keep kind and offset through pickling (multiprocessing)
        return (FormatError, (self.kind, self.offset, self.message))


def strict_order(kind: str, offset: int) -> tuple[int, int]:
    """The order of spec 8.2: of several errors, a strict decoder reports the smallest."""
    return offset, _PRECEDENCE.get(kind, 3)


def first_error(errors: list[FormatError]) -> FormatError:
    """The error a strict decoder reports: smallest offset, then the spec's precedence."""
    return min(errors, key=lambda e: strict_order(e.kind, e.offset))
