"""Code points of the format (spec section 2).

These constants mirror ``spec/opcodes.json``; ``tests/test_opcodes.py`` checks that they agree,
so the JSON file stays the single source of truth.
"""

from __future__ import annotations

from typing import NamedTuple

ARGUMENT_FIRST = 0xE000
ARGUMENT_LAST = 0xE0FF
MAX_ARGUMENT = ARGUMENT_LAST - ARGUMENT_FIRST  # 255: the largest slot index or count

# Every code point in GROUP_FIRST..GROUP_LAST belongs to an instruction group in a stream.
GROUP_FIRST = 0xE000
GROUP_LAST = 0xEFFE
ESCAPE = 0xEFFF
ESCAPE_CHAR = chr(ESCAPE)

CAPITALIZE = 0xE100
UPPERCASE = 0xE110  # since spec 1.1.0
REPEAT = 0xE200
MULTIREPEAT = 0xE201

# The 13 marks (spec 2.3) in opcode order: (name of the mark instruction, combining mark).
# Opcode = FIRST_MARK + index.
MARKS: tuple[tuple[str, str], ...] = (
    ("TILDE", "\u0303"),
    ("ACUTE", "\u0301"),
    ("GRAVE", "\u0300"),
    ("CIRCUMFLEX", "\u0302"),
    ("DIAERESIS", "\u0308"),
    ("MACRON", "\u0304"),
    ("DOT_ABOVE", "\u0307"),
    ("RING_ABOVE", "\u030a"),
    ("DOUBLE_ACUTE", "\u030b"),
    ("CARON", "\u030c"),
    ("COMMA_BELOW", "\u0326"),
    ("CEDILLA", "\u0327"),
    ("OGONEK", "\u0328"),
)
FIRST_MARK = 0xE101
MARK_TO_OPCODE: dict[str, int] = {mark: FIRST_MARK + i for i, (_, mark) in enumerate(MARKS)}
OPCODE_TO_MARK: dict[int, str] = {op: mark for mark, op in MARK_TO_OPCODE.items()}


class OpcodeInfo(NamedTuple):
    name: str
    arity: int  # len(args), a field because the decoder reads it once per instruction
    args: tuple[str, ...]  # the arguments' names, as spec/opcodes.json gives them


def _info(name: str, *args: str) -> OpcodeInfo:
    return OpcodeInfo(name, len(args), args)


# Every assigned opcode with its name and arguments. Any other code point in 0xE100..0xEFFE is
# reserved or unassigned (an unknown opcode to a decoder of this spec version).
OPCODES: dict[int, OpcodeInfo] = {
    CAPITALIZE: _info("CAPITALIZE", "pos"),
    **{FIRST_MARK + i: _info(name, "pos") for i, (name, _) in enumerate(MARKS)},
    UPPERCASE: _info("UPPERCASE", "start", "end"),
    REPEAT: _info("REPEAT", "pos", "count"),
    MULTIREPEAT: _info("MULTIREPEAT", "start", "end", "count"),
}
NAME_TO_OPCODE: dict[str, int] = {info.name: op for op, info in OPCODES.items()}


def is_argument(cp: int) -> bool:
    return ARGUMENT_FIRST <= cp <= ARGUMENT_LAST


def argument(value: int) -> str:
    """The argument code point for ``value`` (0..255)."""
    return chr(ARGUMENT_FIRST + value)
