"""The decoder (spec section 7): stream -> groups -> slots -> text.

The stream is cut by the grammar's one regular expression (:data:`functok.grammar.STREAM_PART`):
text before the first group, then each group with the text that follows it. A group only ever
touches the first 256 slots of its text, so the rest is copied by slicing.

Errors go through one method, :meth:`_Decoder.error`, which does what the mode needs:
``errors="replace"`` records nothing; ``errors="strict"`` keeps only the error that spec 8.2
says comes first, and stops after the group and text that hold it (every later group's errors
have larger offsets). Memory stays proportional to the input plus the output: instructions are
read one at a time, and a text is split into slots only for its first 256.

This module is the reference and knows nothing of engines: :func:`functok.decode` is
:mod:`functok.engine`'s, which runs the C core's decoder (``native/core/decoding.c``) or, on the pure
engine, this one behind the group cache of :mod:`functok.decoding_cache`; both give this module's
text or its error (kind, offset and message).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from itertools import islice
from typing import NamedTuple

from . import _ucd
from .errors import FormatError, strict_order
from .grammar import SLOT, STREAM_PART, SURROGATE, unescape
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
    UPPERCASE,
)

DEFAULT_MAX_OUTPUT = 2**26
"""The default ``max_output`` (spec 7.8): 2**26 code points. Every default limit of functok
(:func:`decode`, the tokenizer's decoders, the conformance ops, the CLI per chunk) is this one."""
ERRORS = ("strict", "replace")

_JUNK = re.compile("[^%s]+" % "".join(map(chr, OPCODES)))  # no code point that starts an instruction

_HEAD_SLOTS = MAX_ARGUMENT + 1  # slots 0..255: the only ones an instruction can name
_JOIN_EVERY = 4096  # output parts of the careful decoder joined into one string at a time


class _Instruction(NamedTuple):
    opcode: int
    args: tuple[int, ...]
    offset: int  # of the opcode, in the stream


def check_max_output(value: object) -> int:
    """``value`` if it is a valid ``max_output`` (spec 7.8: a non-negative integer).

    >>> check_max_output(10)
    10
    >>> check_max_output(-1)
    Traceback (most recent call last):
    ValueError: max_output must be a non-negative integer, not -1
    >>> check_max_output(True)
    Traceback (most recent call last):
    TypeError: max_output must be an int, not bool
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"max_output must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"max_output must be a non-negative integer, not {value}")
    return int(value)


def check_decode_arguments(stream: object, errors: object, max_output: object) -> int:
    """Check :func:`decode`'s arguments in its order (the stream's type, ``errors``, then
    ``max_output``), with its errors; returns ``max_output``. Every engine checks them here."""
    if not isinstance(stream, str):
        raise TypeError(f"expected str, not {type(stream).__name__}")
    if errors not in ERRORS:
        raise ValueError(f"errors must be 'strict' or 'replace', not {errors!r}")
    return check_max_output(max_output)


def decode(stream: str, *, errors: str = "strict", max_output: int = DEFAULT_MAX_OUTPUT) -> str:
    """Decode a stream back to text.

    >>> decode("\\ue102\\ue001\\ue100\\ue000hello")
    'Héllo'
    >>> decode("\\ue100", errors="replace")   # a dangling group is dropped
    ''

    With ``errors="strict"`` (the default) a malformed stream raises :class:`FormatError`
    with the spec's error kind and offset; ``errors="replace"`` applies every lenient action
    and never raises. ``max_output`` bounds the code points that repeats may produce; it must
    be a non-negative ``int`` (:func:`check_max_output`), in either mode.
    """
    max_output = check_decode_arguments(stream, errors, max_output)
    decoder = _Decoder(stream, max_output, strict=errors == "strict")
    out = decoder.run()
    if decoder.first is not None:
        raise decoder.first
    return out


class _Decoder:
    """The careful decoder.

    The mode says what :meth:`error` does: ``strict`` keeps the first error (spec 8.2) in
    ``first`` and stops after its group and text; otherwise the decoder is lenient and records nothing,
    unless ``record`` is a list, which then receives every error the lenient decoder acts on
    (spec 8.2's definition of strict decoding, taken literally; the tests compare the two).
    """

    __slots__ = ("stream", "max_output", "record", "strict", "first", "_first_order")

    def __init__(self, stream: str, max_output: int, record: list[FormatError] | None = None,
                 *, strict: bool = False) -> None:
        self.stream = stream
        self.max_output = max_output
        self.record = record
        self.strict = strict
        self.first: FormatError | None = None  # strict mode: the error to raise
        self._first_order = (0, 0)

    def error(self, kind: str, offset: int, message: str, *args: object) -> None:
        """The lenient decoder acts on an error; ``message.format(*args)`` describes it.

        The message is formatted only for an error that is kept, so that lenient decoding of
        private-use soup does no work per bad code point beyond finding it.
        """
        if self.record is not None:
            self.record.append(FormatError(kind, offset, message.format(*args)))
        elif self.strict:
            order = strict_order(kind, offset)
            if self.first is None or order < self._first_order:
                self.first = FormatError(kind, offset, message.format(*args))
                self._first_order = order

    def run(self) -> str:
        stream = self.stream
        blocks: list[str] = []  # the output so far, joined a few thousand parts at a time
        parts: list[str] = []
        written = 0  # code points output so far, for the max_output check
        group = None  # the pending group's (start, end), waiting for its text
        surrogates = SURROGATE.search(stream) is not None
        for part in STREAM_PART.finditer(stream):
            kind = part.lastgroup
            if kind == "group":  # groups are maximal runs, so a text always comes between two
                group = part.span()
                continue
            if kind == "escape_at_end":
                self.error("escape-at-end", part.start(), "ESCAPE is the last code point")
                break
            text, start, end = self._text(part) if surrogates else (stream, *part.span())
            if group is None:
                head, tail = unescape(text[start:end]), ""
            else:
                head, tail = self._apply_group(*group, *_slots(text, start, end), written)
                group = None
            parts.append(head)
            parts.append(tail)
            written += len(head) + len(tail)
            if self.first is not None:
                return ""  # strict: every later group's errors have larger offsets
            if len(parts) >= _JOIN_EVERY:  # a short text's string costs more than its code points
                blocks.append("".join(parts))
                parts.clear()
        if group is not None:
            self._dangling(*group)
        blocks.append("".join(parts))
        return "".join(blocks)

    # -- text and slots

    def _text(self, part: re.Match) -> tuple[str, int, int]:
        """The text ``part`` as (string, start, end): the stream itself, or where it holds lone
        surrogates, a copy with each one recorded and replaced by U+FFFD."""
        stream, start, end = self.stream, part.start(), part.end()
        if not SURROGATE.search(stream, start, end):
            return stream, start, end
        for bad in islice(SURROGATE.finditer(stream, start, end), None if self.record is not None else 1):
            self.error("lone-surrogate", bad.start(), "U+{:04X} is a surrogate", ord(bad.group()))
        text = SURROGATE.sub("\ufffd", stream[start:end])
        return text, 0, len(text)

    # -- 7.2 parsing a group

    def _parse(self, start: int, end: int) -> Iterator[_Instruction]:
        """The well-formed instructions of the group stream[start:end], one at a time (a group
        may be long); its parse errors are recorded as they are met."""
        stream = self.stream
        i = start
        while i < end:
            cp = ord(stream[i])
            info = OPCODES.get(cp)
            if info is None:
                i = self._junk(i, end)
                continue
            j = i + 1
            while j < end and j - i <= info.arity and ARGUMENT_FIRST <= ord(stream[j]) <= ARGUMENT_LAST:
                j += 1
            if j - i <= info.arity:
                self.error("truncated-instruction", i, "{} needs {} arguments, has {}",
                           info.name, info.arity, j - i - 1)
            else:
                yield _Instruction(cp, tuple(ord(c) - ARGUMENT_FIRST for c in stream[i + 1:j]), i)
            i = j

    def _junk(self, start: int, end: int) -> int:
        """Record the run of code points at ``start`` that are no assigned opcode and so start
        no instruction (stray arguments, unknown opcodes); return the run's end."""
        stop = _JUNK.match(self.stream, start, end).end()
        # Each is an error, but only the first of the run can be a strict decoder's first
        # error: the others matter only when every error is recorded.
        for offset in range(start, stop) if self.record is not None else (start,):
            cp = ord(self.stream[offset])
            if ARGUMENT_FIRST <= cp <= ARGUMENT_LAST:
                self.error("stray-argument", offset, "argument not consumed by an instruction")
            else:
                self.error("unknown-opcode", offset, "U+{:04X} is not an assigned opcode", cp)
        return stop

    def _dangling(self, start: int, end: int) -> None:
        instructions = self._parse(start, end)
        first = next(instructions, None)  # parse errors before it are recorded on the way
        if first is not None:
            self.error("dangling-group", first.offset, "instruction group with no text after it")
            if self.record is not None:
                for _ in instructions:  # the parse errors after it, which have larger offsets
                    pass

    # -- 7.4 applying a group to its slots

    def _apply_group(self, start: int, end: int, head: list[str], tail: str, written: int) -> tuple[str, str]:
        """Decode the group stream[start:end] with the slots of its text: the first 256 as
        ``head`` (changed in place), the rest as ``tail``. Returns the decoded head and tail."""
        slot_count = len(head)  # 256 for any longer text: every position fits it anyway
        lower_to_upper = _ucd.LOWER_TO_UPPER
        marks: dict[int, list[str]] = {}
        repeats: dict[int, array] = {}  # start slot -> offsets of its repeats, in stream order
        for opcode, args, offset in self._parse(start, end):
            if opcode == REPEAT or opcode == MULTIREPEAT:
                repeats.setdefault(args[0], array("q")).append(offset)
            elif opcode == UPPERCASE:  # spec 7.4 then 7.5, with CAPITALIZE: before marks
                first, end = args
                if end <= first:
                    self.error("bad-range", offset, "UPPERCASE range [{}, {}) is empty", first, end)
                elif end > slot_count:
                    self.error("position-out-of-range", offset, "slots [{}, {}) of a text with {} slots",
                               first, end, slot_count)
                else:
                    head[first:end] = [lower_to_upper.get(c, c) for c in head[first:end]]
            elif args[0] >= slot_count:
                self.error("position-out-of-range", offset, "slot {} of a text with {} slots",
                           args[0], slot_count)
            elif opcode == CAPITALIZE:  # case now, marks after all: `İ` is DOT_ABOVE on a capitalized `i`
                head[args[0]] = lower_to_upper.get(head[args[0]], head[args[0]])
            else:
                marks.setdefault(args[0], []).append(OPCODE_TO_MARK[opcode])
        compositions = _ucd.COMPOSITIONS
        for slot, mark_list in marks.items():
            mark_seq = "".join(mark_list)
            head[slot] = compositions.get((head[slot], mark_seq)) or head[slot] + mark_seq
        if repeats:
            tail = self._repeat(head, tail, repeats, written)
        return "".join(head), tail

    def _repeat(self, head: list[str], tail: str, repeats: dict[int, array], written: int) -> str:
        """Apply the repeats to ``head`` in place; return the new tail.

        ``repeats`` maps a start slot to the stream offsets of its repeats (8 bytes each,
        however many a hostile group holds). Repeats only name slots below 256, so whatever
        an expansion pushes past slot 255 is moved into the tail at once: the work and memory
        stay proportional to the output, which ``max_output`` bounds.
        """
        size = written + sum(map(len, head)) + len(tail)
        spilled: list[str] = []  # pushed out of the head, newest first in the output
        for start in sorted(repeats, reverse=True):  # descending start, ties in stream order
            for offset in repeats[start]:
                end, count = self._repeat_range(offset, start)
                if count == 0:
                    self.error("bad-count", offset, "a repeat count of 0")
                    continue
                if end <= start:
                    self.error("bad-range", offset, "MULTIREPEAT range [{}, {}) is empty", start, end)
                    continue
                if end > len(head):  # the head holds every slot while the list has fewer than 256
                    self.error("position-out-of-range", offset, "slots [{}, {}) of a slot list of {}",
                               start, end, len(head))
                    continue
                added = (count - 1) * sum(map(len, head[start:end]))
                if size + added > self.max_output:
                    self.error("output-too-large", offset, "output would reach {} code points (max_output {})",
                               size + added, self.max_output)
                    continue
                head[start:end] = head[start:end] * count
                size += added
                if len(head) > _HEAD_SLOTS:
                    spilled.append("".join(head[_HEAD_SLOTS:]))
                    del head[_HEAD_SLOTS:]
        return "".join(reversed(spilled)) + tail if spilled else tail

    def _repeat_range(self, offset: int, start: int) -> tuple[int, int]:
        """(end, count) of the well-formed repeat at ``offset`` whose start slot is ``start``."""
        stream = self.stream
        if ord(stream[offset]) == REPEAT:
            return start + 1, ord(stream[offset + 2]) - ARGUMENT_FIRST
        return ord(stream[offset + 2]) - ARGUMENT_FIRST, ord(stream[offset + 3]) - ARGUMENT_FIRST


def _slots(text: str, start: int, end: int) -> tuple[list[str], str]:
    """Split text[start:end] into its first 256 slots (a list) and the rest, unescaped (a string).

    No instruction can name a slot past 255, and a text with more slots than that keeps 256 in
    the head, so every range check can use ``len(head)``. Only the head is split into slots:
    one string per code point of a long text would cost about 60 bytes each.
    """
    if text.find(ESCAPE_CHAR, start, end) < 0:
        cut = min(end, start + _HEAD_SLOTS)
        return list(text[start:cut]), text[cut:end]
    # A slot is one or two code points, so the head lies in the first 512: findall over them
    # splits it as over the whole text (a pair cut at the window's edge comes after slot 255).
    found = SLOT.findall(text, start, min(end, start + 2 * _HEAD_SLOTS))[:_HEAD_SLOTS]
    cut = start + sum(map(len, found))
    return [slot[-1] for slot in found], unescape(text[cut:end])
