"""The stream grammar of spec 7.1 as data: its code point ranges and compiled patterns.

A stream is ``text0 (group text)*``:

* a *group* is a maximal run of U+E000..U+EFFE (arguments and opcodes);
* a *text* is a run of *slots*: a code point outside U+E000..U+EFFF, or an *escape pair*
  (U+EFFF, ESCAPE, then any code point, which the slot holds);
* an ESCAPE that is the stream's last code point is the error ``escape-at-end``;
* a surrogate code point, bare or escaped, is the error ``lone-surrogate``.

This module is the one place where that is written down for code: the decoder, chunking, the
command line, the encoder's escaping, ``DecodeStream`` and the Pyodide bridge take their
patterns from here, and so can other tools that read streams. The ranges come from
:mod:`functok.opcodes`, which ``tests/codec/test_opcodes.py`` checks against ``spec/opcodes.json``;
``tests/codec/test_grammar.py`` checks these patterns against spec 7.1's ``read_text``.

Patterns over text are possessive (``++``, ``*+``): a backtracking quantifier would keep a
stack entry per code point of a long text (spec 12.4).

>>> [m.lastgroup for m in STREAM_PART.finditer("ab\\ue100\\ue000cd\\uefff")]
['text', 'group', 'text', 'escape_at_end']
>>> group_end("\\ue100\\ue000hello")
2
>>> unescape("a\\uefff\\ue100b")
'a\\ue100b'
"""

from __future__ import annotations

import re

from .opcodes import ESCAPE, ESCAPE_CHAR, GROUP_FIRST, GROUP_LAST, MULTIREPEAT, REPEAT

__all__ = [
    "ESCAPE_PAIR",
    "FORMAT_CLASS",
    "FORMAT_CODE_POINT",
    "GROUP",
    "GROUP_CLASS",
    "GROUP_RUN",
    "GROUP_START",
    "NEEDS_DECODING",
    "REPEAT_OPCODE",
    "SLOT",
    "STREAM_PART",
    "SURROGATE",
    "SURROGATE_CLASS",
    "SURROGATE_FIRST",
    "SURROGATE_LAST",
    "TEXT",
    "TEXT_RUN",
    "group_end",
    "has_repeat",
    "is_group_code_point",
    "slot_list",
    "text_end",
    "unescape",
]

SURROGATE_FIRST = 0xD800  # Unicode's surrogate code points: no text may hold one (spec 7.1)
SURROGATE_LAST = 0xDFFF

# Bodies of character classes, for patterns built elsewhere (e.g. f"[^{FORMAT_CLASS}]").
GROUP_CLASS = f"{chr(GROUP_FIRST)}-{chr(GROUP_LAST)}"  # code points that make up groups
FORMAT_CLASS = f"{chr(GROUP_FIRST)}-{chr(ESCAPE)}"  # every code point of the format, ESCAPE too
SURROGATE_CLASS = f"{chr(SURROGATE_FIRST)}-{chr(SURROGATE_LAST)}"
_ANY = "[\\s\\S]"  # any code point (with no re.DOTALL needed)
_TEXT_SLOTS = f"(?:[^{FORMAT_CLASS}]++|{ESCAPE_CHAR}{_ANY})"  # a run of plain slots, or one escape pair

GROUP = re.compile(f"[{GROUP_CLASS}]+")
"""A group: a maximal run of U+E000..U+EFFE (``match`` at its first code point)."""

GROUP_RUN = re.compile(f"[{GROUP_CLASS}]*")
"""The group code points from a position on, possibly none (e.g. the rest of a group begun in an
earlier block)."""

GROUP_START = re.compile(f"(?<![{GROUP_CLASS}])[{GROUP_CLASS}]")
"""The first code point of a group (one not preceded by a group code point). Only exact in text
without ESCAPE, where an escaped code point could look like a group's."""

TEXT = re.compile(f"{_TEXT_SLOTS}++")
"""A text of at least one slot, up to the next group, the end, or an ESCAPE at the end."""

TEXT_RUN = re.compile(f"{_TEXT_SLOTS}*+")
"""Complete text slots from a position on, possibly none; an ESCAPE with nothing after it is left
unmatched (it ends the stream, or waits for its code point)."""

STREAM_PART = re.compile(f"(?P<group>[{GROUP_CLASS}]+)|(?P<text>{_TEXT_SLOTS}++)|(?P<escape_at_end>{ESCAPE_CHAR})")
"""One part of a stream, named by ``lastgroup``: a ``group``, a ``text`` (escape pairs included),
or a final ESCAPE (``escape_at_end``). ``finditer`` cuts a whole stream into its parts."""

SLOT = re.compile(f"{ESCAPE_CHAR}{_ANY}|{_ANY}")
"""One slot of a text: an escape pair or one code point."""

ESCAPE_PAIR = re.compile(f"{ESCAPE_CHAR}({_ANY})")
"""An escape pair; its group 1 is the code point the slot holds."""

NEEDS_DECODING = re.compile(f"[{SURROGATE_CLASS}{FORMAT_CLASS}]")
"""A code point that makes a stream more than plain text: one of the format's, or a surrogate.
A stream with none decodes to itself."""

SURROGATE = re.compile(f"[{SURROGATE_CLASS}]")
"""A surrogate code point (the error ``lone-surrogate``)."""

FORMAT_CODE_POINT = re.compile(f"[{FORMAT_CLASS}]")
"""A code point of U+E000..U+EFFF: in a base, the encoder writes each as an escape pair (6.3)."""

REPEAT_OPCODE = re.compile(f"[{chr(REPEAT)}{chr(MULTIREPEAT)}]")
"""REPEAT or MULTIREPEAT: an opcode whose output counts toward ``max_output`` (7.8)."""

_REPEAT_CHAR, _MULTIREPEAT_CHAR = chr(REPEAT), chr(MULTIREPEAT)


def is_group_code_point(cp: int) -> bool:
    """Whether code point ``cp`` belongs to a group when it is not escaped.

    >>> is_group_code_point(0xE100), is_group_code_point(0xEFFF)
    (True, False)
    """
    return GROUP_FIRST <= cp <= GROUP_LAST


def group_end(stream: str, start: int = 0) -> int:
    """Where the group code points from ``start`` end (``start`` itself if there are none)."""
    return GROUP_RUN.match(stream, start).end()


def text_end(stream: str, start: int = 0) -> int:
    """Where the complete text slots from ``start`` end: at a group, the end of the stream, or an
    ESCAPE with nothing after it."""
    return TEXT_RUN.match(stream, start).end()


def unescape(text: str) -> str:
    """A text outside any group's reach: each escape pair becomes the code point it holds.

    >>> unescape("\\uefff\\uefff!")
    '\\uefff!'
    """
    return ESCAPE_PAIR.sub(r"\1", text) if ESCAPE_CHAR in text else text


def slot_list(text: str) -> list[str]:
    """The slots of a text made of complete slots, each as written (a code point or an escape pair).

    >>> slot_list("a\\uefff\\ue000b")
    ['a', '\\uefff\\ue000', 'b']
    """
    return SLOT.findall(text) if ESCAPE_CHAR in text else list(text)


def has_repeat(stream: str) -> bool:
    """Whether ``stream`` holds a REPEAT or MULTIREPEAT code point (escaped or not): without one,
    decoding it never meets ``max_output``."""
    return _REPEAT_CHAR in stream or _MULTIREPEAT_CHAR in stream
