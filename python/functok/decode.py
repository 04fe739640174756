"""The decoder (spec section 7): op stream -> groups -> slots -> text.

The stream is cut into *units* by one regular expression: text before the first group, then
each group with the text that follows it. A group only ever touches the first 256 slots of its
text, so the rest is copied by slicing. Error-free units are cached, so a stream of repeated
tokens costs one dictionary lookup per unit.

Every error goes through one path: the decoder always runs leniently and records what it
dropped; ``errors="strict"`` then raises the recorded error that the spec says comes first.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from . import _ucd
from .cache import remember
from .errors import FormatError, first_error
from .opcodes import (
    ARGUMENT_FIRST,
    ARGUMENT_LAST,
    CAPITALIZE,
    ESCAPE_CHAR,
    MAX_ARGUMENT,
    MULTIREPEAT,
    OPCODE_TO_MARK,
    OPCODES,
    REPEAT,
)

DEFAULT_MAX_OUTPUT = 2**26
ERRORS = ("strict", "replace")

# A unit of the stream: a group, a run of text (escape pairs included), or a final ESCAPE.
_UNIT = re.compile(
    "(?P<group>[\ue000-\ueffe]+)"
    "|(?P<text>(?:[^\ue000-\uefff]|\uefff[\\s\\S])+)"
    "|(?P<escape_at_end>\uefff)"
)
_NEEDS_DECODING = re.compile("[\ud800-\udfff\ue000-\uefff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SLOT = re.compile("\uefff[\\s\\S]|[\\s\\S]")
_ESCAPE_PAIR = re.compile("\uefff([\\s\\S])")

_HEAD_SLOTS = MAX_ARGUMENT + 1  # slots 0..255: the only ones an instruction can name


class _Instruction(NamedTuple):
    opcode: int
    args: tuple[int, ...]
    offset: int  # of the opcode, in the stream


def decode(stream: str, *, errors: str = "strict", max_output: int = DEFAULT_MAX_OUTPUT) -> str:
    """Decode an op stream back to text.

    >>> decode("\\ue102\\ue001\\ue100\\ue000hello")
    'Héllo'
    >>> decode("\\ue100", errors="replace")   # a dangling group is dropped
    ''

    With ``errors="strict"`` (the default) a malformed stream raises :class:`FormatError`
    with the spec's error kind and offset; ``errors="replace"`` applies every lenient action
    and never raises. ``max_output`` bounds the code points that repeats may produce.
    """
    if not isinstance(stream, str):
        raise TypeError(f"expected str, not {type(stream).__name__}")
    if errors not in ERRORS:
        raise ValueError(f"errors must be 'strict' or 'replace', not {errors!r}")
    if not _NEEDS_DECODING.search(stream):
        return stream  # plain text is its own decoding
    if ESCAPE_CHAR not in stream and not _SURROGATE.search(stream):
        out = _decode_fast(stream, max_output)
        if out is not None:
            return out
    found: list[FormatError] = []
    out = _Decoder(stream, max_output, found).run()
    if found and errors == "strict":
        raise first_error(found)
    return out


class _Decoder:
    def __init__(self, stream: str, max_output: int, errors: list[FormatError]) -> None:
        self.stream = stream
        self.max_output = max_output
        self.errors = errors

    def error(self, kind: str, offset: int, message: str) -> None:
        self.errors.append(FormatError(kind, offset, message))

    def run(self) -> str:
        stream = self.stream
        parts: list[str] = []
        written = 0  # code points output so far, for the max_output check
        units = _UNIT.finditer(stream)
        group = None  # the pending group match, waiting for its text
        for unit in units:
            kind = unit.lastgroup
            if kind == "group":  # groups are maximal runs, so a text always comes between two
                group = unit
                continue
            if kind == "escape_at_end":
                self.error("escape-at-end", unit.start(), "ESCAPE is the last code point")
                break
            text = self._text(unit)
            if group is None:
                piece = _unescape(text)
            else:
                piece = self._apply_group(group.start(), group.end(), text, written)
                group = None
            parts.append(piece)
            written += len(piece)
        if group is not None:
            self._dangling(group)
        return "".join(parts)

    # -- text and slots

    def _text(self, unit: re.Match) -> str:
        """The unit's raw text, with each lone surrogate recorded and replaced by U+FFFD."""
        text = unit.group()
        if not _SURROGATE.search(text):
            return text
        for bad in _SURROGATE.finditer(text):
            self.error("lone-surrogate", unit.start() + bad.start(),
                       f"U+{ord(bad.group()):04X} is a surrogate")
        return _SURROGATE.sub("\ufffd", text)

    # -- 7.2 parsing a group

    def _parse(self, start: int, end: int) -> list[_Instruction]:
        """The well-formed instructions of the group stream[start:end]; errors are recorded."""
        stream = self.stream
        instructions = []
        i = start
        while i < end:
            cp = ord(stream[i])
            if ARGUMENT_FIRST <= cp <= ARGUMENT_LAST:
                self.error("stray-argument", i, "argument not consumed by an instruction")
                i += 1
                continue
            info = OPCODES.get(cp)
            if info is None:
                self.error("unknown-opcode", i, f"U+{cp:04X} is not an assigned opcode")
                i += 1
                continue
            j = i + 1
            while j < end and j - i <= info.arity and ARGUMENT_FIRST <= ord(stream[j]) <= ARGUMENT_LAST:
                j += 1
            args = tuple(ord(c) - ARGUMENT_FIRST for c in stream[i + 1:j])
            if len(args) < info.arity:
                self.error("truncated-instruction", i,
                           f"{info.name} needs {info.arity} arguments, has {len(args)}")
            else:
                instructions.append(_Instruction(cp, args, i))
            i = j
        return instructions

    def _dangling(self, group: re.Match) -> None:
        instructions = self._parse(group.start(), group.end())
        if instructions:
            self.error("dangling-group", instructions[0].offset, "instruction group with no text after it")

    # -- 7.3 applying a group to its slots

    def _apply_group(self, start: int, end: int, text: str, written: int) -> str:
        """Decode the group stream[start:end] with the text after it."""
        instructions = self._parse(start, end)
        head, tail, slot_count = _slots(text)
        capitals, marks, repeats = [], {}, []
        for ins in instructions:
            if ins.opcode == REPEAT or ins.opcode == MULTIREPEAT:
                repeats.append(ins)
            elif ins.args[0] >= slot_count:
                self.error("position-out-of-range", ins.offset,
                           f"slot {ins.args[0]} of a text with {slot_count} slots")
            elif ins.opcode == CAPITALIZE:
                capitals.append(ins.args[0])
            else:
                marks.setdefault(ins.args[0], []).append(OPCODE_TO_MARK[ins.opcode])
        # Case before marks: `İ` is DOT_ABOVE on a capitalized `i`.
        lower_to_upper = _ucd.LOWER_TO_UPPER
        for slot in capitals:
            head[slot] = lower_to_upper.get(head[slot], head[slot])
        compositions = _ucd.COMPOSITIONS
        for slot, mark_list in marks.items():
            mark_seq = "".join(mark_list)
            head[slot] = compositions.get((head[slot], mark_seq)) or head[slot] + mark_seq
        if repeats:
            tail = self._repeat(head, tail, repeats, written)
        return "".join(head) + tail

    def _repeat(self, head: list[str], tail: str, repeats: list[_Instruction], written: int) -> str:
        """Apply the repeats to ``head`` in place; return the new tail.

        Repeats only name slots below 256, so whatever an expansion pushes past slot 255 is
        moved into the tail at once: the work and memory stay proportional to the output,
        which ``max_output`` bounds.
        """
        size = written + sum(map(len, head)) + len(tail)
        spilled: list[str] = []  # pushed out of the head, newest first in the output
        # Descending start slot; sorted() is stable, so ties keep stream order.
        for ins in sorted(repeats, key=lambda r: -r.args[0]):
            if ins.opcode == REPEAT:
                start, count = ins.args
                end = start + 1
            else:
                start, end, count = ins.args
            if count == 0:
                self.error("bad-count", ins.offset, "a repeat count of 0")
                continue
            if end <= start:
                self.error("bad-range", ins.offset, f"MULTIREPEAT range [{start}, {end}) is empty")
                continue
            if end > len(head):  # the head holds every slot while the list has fewer than 256
                self.error("position-out-of-range", ins.offset,
                           f"slots [{start}, {end}) of a slot list of {len(head)}")
                continue
            added = (count - 1) * sum(map(len, head[start:end]))
            if size + added > self.max_output:
                self.error("output-too-large", ins.offset,
                           f"output would reach {size + added} code points (max_output {self.max_output})")
                continue
            head[start:end] = head[start:end] * count
            size += added
            if len(head) > _HEAD_SLOTS:
                spilled.append("".join(head[_HEAD_SLOTS:]))
                del head[_HEAD_SLOTS:]
        return "".join(reversed(spilled)) + tail if spilled else tail


class _Malformed(Exception):
    """A unit with an error: the fast path gives up and the careful path takes over."""


class _UnitCache(dict):
    """(group, head of its text) -> decoded head, computed on a miss; a hit is one lookup."""

    def __missing__(self, unit: tuple[str, str]) -> str:
        group, head = unit
        errors: list[FormatError] = []
        # A unit may grow by _FAST_EXPANSION code points at most here (marks add fewer than
        # its group's length): a bigger repeat is left to the careful path, so the fast path's
        # memory stays within a batch of max_output.
        decoder = _Decoder(group + head, len(group) + len(head) + _FAST_EXPANSION, errors)
        out = decoder._apply_group(0, len(group), head, 0)
        if errors:
            raise _Malformed
        remember(self, unit, out)
        return out


class _ReachCache(dict):
    """group -> how many slots of its text it can touch (or _Malformed if it does not parse).

    CAPITALIZE and diacritics touch slot pos; a repeat, slots [start, end). Expansions only
    copy slots, so the first ``reach`` slots of the list as it stands always come from the
    text's first ``reach`` slots: decoding that head and appending the rest is exact.
    """

    def __missing__(self, group: str) -> int:
        errors: list[FormatError] = []
        instructions = _Decoder(group, DEFAULT_MAX_OUTPUT, errors)._parse(0, len(group))
        if errors:
            raise _Malformed
        reach = max(ins.args[1] if ins.opcode == MULTIREPEAT else ins.args[0] + 1
                    for ins in instructions)
        remember(self, group, reach)
        return reach


_unit_cache = _UnitCache()
_reach_cache = _ReachCache()


def clear_caches() -> None:
    """Forget every cached unit (benchmarks use this for a cold start)."""
    for cache in (_unit_cache, _reach_cache, _short_unit_cache):
        cache.clear()
_GROUP_SPLIT = re.compile("([\\ue000-\\ueffe]+)")
_FAST_EXPANSION = 1024  # code points a repeat may add to one unit on the fast path
_FAST_BATCH = 1024  # units decoded between two checks of max_output


_SHORT_HEAD = 12  # text code points that travel with their group on the fastest path
_SHORT_UNIT_SPLIT = re.compile(f"([\\ue000-\\ueffe]+[^\\ue000-\\uefff]{{0,{_SHORT_HEAD}}})")
_GROUP = re.compile("[\\ue000-\\ueffe]+")


class _ShortUnitCache(dict):
    """group + up to 12 code points of its text -> their decoding.

    None where the group reaches past the 12 code points it came with: the caller then
    decodes that unit with the rest of its text.
    """

    def __missing__(self, unit: str) -> str | None:
        group_end = _GROUP.match(unit).end()
        group, head = unit[:group_end], unit[group_end:]
        if not head:
            raise _Malformed  # a dangling group
        if _reach_cache[group] > len(head) == _SHORT_HEAD:
            return None
        out = _unit_cache[group, head]
        remember(self, unit, out)
        return out


_short_unit_cache = _ShortUnitCache()


def _decode_fast(stream: str, max_output: int) -> str | None:
    """The fast path: every group with the first 12 code points of its text in one key.

    ``re.split`` keeps each group together with the head of its text, so decoding is a cached
    lookup per unit through C-level ``map``, with the text between heads copied as it is
    (a group that reaches further is decoded with its whole text). Returns None where the
    careful path must decide: an error, a dangling group, or output past ``max_output``.
    """
    parts = _SHORT_UNIT_SPLIT.split(stream)
    size = 0
    try:
        for batch in range(1, len(parts), 2 * _FAST_BATCH):
            end = batch + 2 * _FAST_BATCH
            decoded = list(map(_short_unit_cache.__getitem__, parts[batch:end:2]))
            if None in decoded:
                _decode_long_reach(parts, batch, decoded)
            parts[batch:end:2] = decoded
            size += sum(map(len, decoded))
            if size > max_output:
                return None  # a repeat may be the one that crosses max_output
    except _Malformed:
        return None
    out = "".join(parts)
    return out if len(out) <= max_output else None


def _decode_long_reach(parts: list[str], batch: int, decoded: list[str | None]) -> None:
    """Decode the units of a batch whose groups reach past their head, with all their text.

    The text of unit ``parts[k]`` goes on in ``parts[k + 1]`` (up to the next group), so that
    part is folded into the unit's decoding and emptied.
    """
    for i, out in enumerate(decoded):
        if out is None:
            k = batch + 2 * i
            unit = parts[k]
            group_end = _GROUP.match(unit).end()
            decoded[i] = _decode_unit(unit[:group_end], unit[group_end:] + parts[k + 1])
            parts[k + 1] = ""


def _decode_unit(group: str, text: str) -> str:
    reach = _reach_cache[group]
    if len(text) <= reach:
        return _unit_cache[group, text]
    return _unit_cache[group, text[:reach]] + text[reach:]


def _unescape(text: str) -> str:
    """Text outside any group: each escape pair becomes the code point it escapes."""
    return _ESCAPE_PAIR.sub(r"\1", text) if ESCAPE_CHAR in text else text


def _slots(text: str) -> tuple[list[str], str, int]:
    """Split a text into its first 256 slots (a list), the rest (a string), and the slot count.

    No instruction can name a slot past 255, and a text with more slots than that keeps 256 in
    the head, so every range check can use ``len(head)``.
    """
    if ESCAPE_CHAR not in text:
        return list(text[:_HEAD_SLOTS]), text[_HEAD_SLOTS:], len(text)
    slots = [s[-1] for s in _SLOT.findall(text)]
    return slots[:_HEAD_SLOTS], "".join(slots[_HEAD_SLOTS:]), len(slots)
