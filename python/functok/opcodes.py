"""Code points of the format (spec section 2).

The numbers come from ``spec/opcodes.json`` through ``_opcodes``, which spec/tools/generate.py
writes; this module adds the lookups the codec uses.
"""

from __future__ import annotations

from typing import NamedTuple

from ._opcodes import (  # noqa: F401  (re-exported: the codec imports them from here)
    ARGUMENT_FIRST,
    ARGUMENT_LAST,
    CAPITALIZE,
    ESCAPE,
    FIRST_MARK,
    GROUP_FIRST,
    GROUP_LAST,
    MAX_ARGUMENT,
    MULTIREPEAT,
    OPCODE_TABLE,
    REPEAT,
    UPPERCASE,
)

ESCAPE_CHAR = chr(ESCAPE)

# The 13 marks (spec 2.3) in opcode order: (name of the mark instruction, combining mark).
# Opcode = FIRST_MARK + index.
MARKS: tuple[tuple[str, str], ...] = tuple((name, mark) for _, name, mark, _ in OPCODE_TABLE if mark)
MARK_TO_OPCODE: dict[str, int] = {mark: FIRST_MARK + i for i, (_, mark) in enumerate(MARKS)}
OPCODE_TO_MARK: dict[int, str] = {op: mark for mark, op in MARK_TO_OPCODE.items()}


class OpcodeInfo(NamedTuple):
    name: str
    arity: int  # len(args), a field because the decoder reads it once per instruction
    args: tuple[str, ...]  # the arguments' names, as spec/opcodes.json gives them


# Every assigned opcode with its name and arguments. Any other code point in 0xE100..0xEFFE is
# reserved or unassigned (an unknown opcode to a decoder of this spec version).
OPCODES: dict[int, OpcodeInfo] = {
    code_point: OpcodeInfo(name, len(args), args) for code_point, name, _, args in OPCODE_TABLE
}
NAME_TO_OPCODE: dict[str, int] = {info.name: op for op, info in OPCODES.items()}


def is_argument(cp: int) -> bool:
    return ARGUMENT_FIRST <= cp <= ARGUMENT_LAST


def argument(value: int) -> str:
    """The argument code point for ``value`` (0..255)."""
    return chr(ARGUMENT_FIRST + value)
