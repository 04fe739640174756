"""Incremental decoding for generation (:class:`DecodeStream`): each id's text as soon as it is
final, with the same text and the same first error as :meth:`Tokenizer.decode`.

The stream of the ids is read as it arrives: text0, then units (a group and the text after it,
spec 7.1). A unit's decoding is its first ``reach`` slots decoded with the group (the head),
then the rest literally; what of it is final is described in :class:`DecodeStream`.
"""

from __future__ import annotations

import bisect
import functools
from typing import TYPE_CHECKING

from ..decoding import DEFAULT_MAX_OUTPUT, ERRORS, check_max_output
from .. import engine
from ..errors import FormatError
from ..grammar import GROUP_RUN, NEEDS_DECODING, SURROGATE, slot_list, text_end
from ..opcodes import ARGUMENT_FIRST, ARGUMENT_LAST, CAPITALIZE, ESCAPE_CHAR, MULTIREPEAT, OPCODES, REPEAT, UPPERCASE
from .decoding import IdReader
from .errors import ByteFallbackError, IdError, TokenFormatError, UnknownTokenIdError

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = ["DecodeStream"]


class DecodeStream:
    """Incremental decoding for generation: ``step(id)`` returns the text that has become final
    (or None), ``finish()`` the rest once the ids end. The concatenation equals
    :meth:`Tokenizer.decode` of the same ids (same ``errors`` and ``max_output``), and a
    strict stream raises the same error as :meth:`Tokenizer.decode`.

    >>> from functok.tokenizer import Tokenizer
    >>> tok = Tokenizer.train(iter(["Hello world"] * 3), vocab_size=300, show_progress=False)
    >>> stream = DecodeStream(tok)
    >>> [stream.step(i) for i in tok.encode("Hi you").ids] + [stream.finish()]
    [None, 'H', 'i', ' ', 'y', 'o', 'u', '']

    **What is final.** Text before any group is literal. A group's instructions are known
    once its text starts, and a slot of that text (a code point or an escape pair) is final
    once the instructions can no longer change it or what comes before it:

    * without a repeat that grows the text (count 2 or more), every slot is final as it
      arrives;
    * with one, the slots before the smallest such repeat's start are final as they arrive.
      The rest depends on the repeats: their expansion needs every slot their ranges name
      (``reach`` slots), and whether they fit ``max_output`` (spec 7.8) depends on every slot
      of the group's text, up to the next group.

      - ``errors="strict"`` emits the group's text as soon as its first ``reach`` slots are
        in, expanded, and the slots after them as they arrive: if a repeat turns out not to
        fit, the stream raises anyway (at the next group or ``finish()``).
      - ``errors="replace"`` holds the text from that start on until the next group or the
        end, or until the output is so long that no growing repeat of the group can fit any
        more (the limit has then dropped them all, and the text is final as it arrives).
        Before all ``reach`` slots are in, "can fit" counts each missing slot as one code
        point.

    Both modes check the limit incrementally, so a stream costs time linear in its length.

    **Errors** (strict mode): both this class and :meth:`Tokenizer.decode` raise the first
    error *in id order*: an unknown id (:class:`UnknownTokenIdError`, a ``ValueError``),
    byte-fallback ids that are not UTF-8 (:class:`ByteFallbackError`, a
    ``UnicodeDecodeError``), or the stream's first error (spec 8.2) as a
    :class:`TokenFormatError` (a :class:`functok.FormatError`), attributed to the id that
    holds its code point. Each has ``id_index``, the position of that id in the ids; a
    ``TokenFormatError``'s ``offset`` counts code points of the stream since the last
    special token. The stream is read as ``errors="replace"`` reads it (U+FFFD for an
    unknown id or invalid bytes), so an error in a group can come before, and win over, an
    id error in its text. The stream raises as soon as the winner is certain: an id error
    waits while the group it falls in could still report an earlier error.

    >>> stream = DecodeStream(tok)
    >>> [stream.step(i) for i in tok.encode("Hi").ids]
    [None, 'H', 'i']
    >>> stream.step(10**9)  # CAPITALIZE(0) has its slot: nothing open can raise before this id
    Traceback (most recent call last):
    ...
    functok.tokenizer.errors.UnknownTokenIdError: unknown token id 1000000000 (at index 3)
    """

    def __init__(
        self,
        tokenizer: Tokenizer,
        *,
        errors: str = "strict",
        skip_special_tokens: bool = False,
        max_output: int = DEFAULT_MAX_OUTPUT,
    ) -> None:
        if errors not in ERRORS:
            raise ValueError(f"errors must be one of {ERRORS}, not {errors!r}")
        self.tokenizer = tokenizer
        self.errors = errors
        self.skip_special_tokens = skip_special_tokens
        self.max_output = check_max_output(max_output)
        self._table = tokenizer.token_table
        self._reader = IdReader(self._table, strict=errors == "strict")
        self._stretch = _Stretch(errors == "strict", self.max_output)
        self._index = 0  # ids taken so far: the index of the next one

    def step(self, id: int) -> str | None:
        """Take one id; return the text that has become final, or None."""
        index = self._index
        self._index += 1
        table = self._table
        special = table.special.get(id)
        if special is not None:
            out = self._feed(self._reader.end_bytes()) + self._end_stretch()
            if not self.skip_special_tokens:
                out += special
            return out or None
        token = table.token.get(id)
        if token is not None and not self._reader.in_bytes and id not in table.byte:
            return self._stretch.feed(token, index) or None  # the common case, in short
        return self._feed(self._reader.read(id, index)) or None

    def finish(self) -> str:
        """The ids have ended: return the rest of the text (raises on errors in strict mode)."""
        return self._feed(self._reader.end_bytes()) + self._end_stretch()

    def _feed(self, pieces: list[tuple[str, int]]) -> str:
        stretch = self._stretch
        out = "".join([stretch.feed(chars, index) for chars, index in pieces]) if pieces else ""
        if self._reader.error is not None:
            error, self._reader.error = self._reader.error, None
            stretch.id_error(error)
        return out

    def _end_stretch(self) -> str:
        out = self._stretch.end()
        self._stretch = _Stretch(self.errors == "strict", self.max_output)
        return out


def _literal(text: str) -> str:
    """The decoding of text outside any group's reach (escapes undone, surrogates U+FFFD)."""
    return engine.decode(text, errors="replace")


class _Unit:
    """A group and the text after it, as far as they have arrived."""

    def __init__(self, offset: int) -> None:
        self.offset = offset  # of the group, in the stretch
        self.in_group = True  # still reading the group (its text has not started)
        self._chunks: list[str] = []
        self.length = 0  # of the group so far
        self.id_starts: list[int] = []  # group offset where each id's code points begin
        self.ids: list[int] = []  # and that id's index
        self.text_error: TokenFormatError | None = None  # the first error in the text

    def add_group(self, chars: str, index: int) -> None:
        self.id_starts.append(self.length)
        self.ids.append(index)
        self._chunks.append(chars)
        self.length += len(chars)

    def close_group(self) -> None:
        """The text starts: read the group's instructions (spec 7.2)."""
        self.in_group = False
        self.group = "".join(self._chunks)
        self._chunks = []
        info = _group_info(self.group)
        self.marks_at, self.growing, self.has_repeat, self.reach, self.clean, self.range_from = info
        self.hold_from = min((s for s, _, _ in self.growing), default=self.reach)
        # Each slot is at least one code point: a lower bound on any growing repeat's growth.
        self.least_growth = min(((c - 1) * (e - s) for s, e, c in self.growing), default=0)
        self.head: list[str] = []  # the raw first `reach` slots
        self.slot_out: list[str] = []  # their decodings without repeats
        self.size = 0  # code points of slot_out
        self.final = 0  # slots of slot_out returned so far
        self.emitted = 0  # code points of the head's decoding returned so far
        self.tail = 0  # code points after the head (each slot is one, literal)
        self.held: list[str] = []  # their text, while a repeat may still change the head
        self.head_out: str | None = None  # the head's decoding once known (strict mode)
        self.failed = False  # strict mode: the head's decoding raised
        self.settled = not self.growing  # no growing repeat can apply any more (or there is none)

    def group_index(self, offset: int) -> int:
        """The index of the id holding code point ``offset`` of the group."""
        return self.ids[bisect.bisect_right(self.id_starts, offset) - 1]

    def slot_output(self, slot: int, raw: str) -> str:
        ops = self.marks_at.get(slot)
        if ops is None:
            return _literal(raw)
        # The slot alone, with its instructions moved to slot 0: case and marks act on one slot.
        return engine.decode("".join(chr(op) + "\ue000" for op in ops) + raw, errors="replace")


@functools.lru_cache(maxsize=4096)
def _group_info(group: str) -> tuple[dict[int, list[int]], list[tuple[int, int, int]], bool, int, bool,
                                     int | None]:
    """What a group does to its text, as spec 7.2 parses it: (slot -> its case and mark
    opcodes, (start, end, count) of each repeat that grows the text, has it a repeat, how many
    slots its instructions name, does it parse without error, the first slot of an UPPERCASE
    range). Read-only: it is shared.

    An UPPERCASE(start, end) names each slot of its range as a CAPITALIZE would (spec 7.5: the
    same text), but only once all of them have arrived: with fewer slots it is dropped (spec
    7.4), so its range is held until then. One with ``end <= start`` (bad-range) names none."""
    marks_at: dict[int, list[int]] = {}
    growing: list[tuple[int, int, int]] = []
    has_repeat = False
    reach = 0
    clean = True
    range_from: int | None = None
    i = 0
    while i < len(group):
        info = OPCODES.get(ord(group[i]))
        if info is None:  # a stray argument or an unknown opcode
            clean = False
            i += 1
            continue
        j = i + 1
        while j < len(group) and j - i <= info.arity and ord(group[j]) <= ARGUMENT_LAST:
            j += 1
        opcode, args = ord(group[i]), tuple(ord(c) - ARGUMENT_FIRST for c in group[i + 1 : j])
        i = j
        if len(args) < info.arity:
            clean = False  # truncated
        elif opcode == REPEAT or opcode == MULTIREPEAT:
            has_repeat = True
            start, end, count = (args[0], args[0] + 1, args[1]) if opcode == REPEAT else args
            reach = max(reach, end, start + 1)  # a bad range names slots too
            if count >= 2 and end > start:
                growing.append((start, end, count))
        elif opcode == UPPERCASE:
            start, end = args
            reach = max(reach, end, start + 1)  # a bad range names slots too
            if end > start:
                for slot in range(start, end):
                    marks_at.setdefault(slot, []).append(CAPITALIZE)
                range_from = start if range_from is None else min(range_from, start)
            else:
                clean = False  # bad-range: the careful decoder reports it
        else:
            marks_at.setdefault(args[0], []).append(opcode)
            reach = max(reach, args[0] + 1)
    return marks_at, growing, has_repeat, reach, clean, range_from


class _Stretch:
    """One stretch of the stream (between special tokens), decoded as its code points arrive.

    The output is text0, then each unit (a group and its text). A unit's decoding is its
    first ``reach`` slots decoded with the group (the head), then the rest literally; its
    size counts toward ``max_output`` through ``before``, the output of the stretch so far.
    """

    def __init__(self, strict: bool, max_output: int) -> None:
        self.strict = strict
        self.max_output = max_output
        self.offset = 0  # code points of the stretch read so far
        self.before = 0  # output code points of text0 and the finished units
        self.unit: _Unit | None = None  # None while in text0
        self.escape: tuple[int, int] | None = None  # (offset, id index) of an unpaired ESCAPE
        self.pending: IdError | None = None  # strict: the first error known so far
        self._out: list[str] = []

    # -- reading code points

    def feed(self, chars: str, index: int) -> str:
        unit = self.unit
        if self.escape is None and not NEEDS_DECODING.search(chars):  # plain text, no group
            if unit is None:
                self.offset += len(chars)
                self.before += len(chars)
                return chars if self.pending is None else ""
            if not unit.in_group and len(unit.head) == unit.reach:  # the unit's tail
                self.offset += len(chars)
                unit.tail += len(chars)
                self._tail(unit, chars)
                out = "".join(self._out)
                self._out.clear()
                return out
        pos = 0
        while pos < len(chars):
            unit = self.unit
            if unit is not None and unit.in_group:
                end = GROUP_RUN.match(chars, pos).end()
                if end > pos:
                    unit.add_group(chars[pos:end], index)
                    self.offset += end - pos
                    pos = end
                if pos == len(chars):
                    break  # the group may go on
                unit.close_group()
            if self.escape is not None:  # the code point after an ESCAPE is escaped
                self.escape = None
                self._text(ESCAPE_CHAR + chars[pos], self.offset - 1, index)
                self.offset += 1
                pos += 1
                continue
            end = text_end(chars, pos)
            if end > pos:
                self._text(chars[pos:end], self.offset, index)
                self.offset += end - pos
                pos = end
            if pos == len(chars):
                break
            if chars[pos] == ESCAPE_CHAR:  # the last code point: it waits for the next one
                self.escape = (self.offset, index)
                self.offset += 1
                break
            self._end_unit()  # a group starts
            self.unit = _Unit(self.offset)
        self._raise_if_certain()
        out = "".join(self._out)
        self._out.clear()
        return out

    def id_error(self, error: UnknownTokenIdError | ByteFallbackError) -> None:
        self._candidate(error)
        self._raise_if_certain()

    def end(self) -> str:
        if self.escape is not None and self.strict:
            offset, index = self.escape
            self._text_error("escape-at-end", offset, index, "ESCAPE is the last code point")
        self._end_unit()
        out = "".join(self._out)
        self._out.clear()
        return out

    # -- text

    def _text(self, text: str, offset: int, index: int) -> None:
        """Complete slots of text0 or of the unit's text, from code point ``offset``."""
        if self.strict:
            surrogate = SURROGATE.search(text)
            if surrogate:
                self._text_error("lone-surrogate", offset + surrogate.start(), index,
                                 f"U+{ord(surrogate.group()):04X} is a surrogate")
        unit = self.unit
        if unit is None:  # text0
            out = _literal(text)
            self.before += len(out)
            self._emit(out)
            return
        missing = unit.reach - len(unit.head)
        if missing > 0:
            slots = slot_list(text)
            for raw in slots[:missing]:
                out = unit.slot_output(len(unit.head), raw)
                unit.head.append(raw)
                unit.slot_out.append(out)
                unit.size += len(out)
            if len(unit.head) == unit.reach:
                self._head_complete(unit)
            text = "".join(slots[missing:]) if len(slots) > missing else ""
        self._emit_head(unit)
        if text:
            out = _literal(text)
            unit.tail += len(out)
            self._tail(unit, out)

    def _head_complete(self, unit: _Unit) -> None:
        """The text holds every slot the group names."""
        if unit.settled:
            return
        if self.strict:
            try:
                unit.head_out = self._decode_head(unit, "strict")
            except FormatError:
                unit.failed = True  # the unit raises at its end; nothing more of it is final
            return
        # The exact growth of each growing repeat on the slots as they are (spec 7.7): with
        # none applied before it, a repeat sees the original slots.
        starts = [0]
        for out in unit.slot_out:
            starts.append(starts[-1] + len(out))
        unit.least_growth = min((c - 1) * (starts[e] - starts[s]) for s, e, c in unit.growing)

    def _tail(self, unit: _Unit, out: str) -> None:
        """Text after the head: literal, final once the head is."""
        if not unit.settled and not self.strict:
            self._settle(unit)
        if unit.settled or unit.head_out is not None:
            self._emit(out)
        elif not self.strict:
            unit.held.append(out)

    def _settle(self, unit: _Unit) -> None:
        """Lenient mode: has the output grown past what any growing repeat could still fit in?"""
        if self.before + unit.size + unit.tail + unit.least_growth > self.max_output:
            unit.settled = True  # spec 7.8 drops every growing repeat, whatever follows
            self._emit_head(unit)
            self._emit("".join(unit.held))
            unit.held = []

    def _emit_head(self, unit: _Unit) -> None:
        """Return what has become final of the head's decoding."""
        if not unit.settled and not self.strict:
            self._settle(unit)
        if unit.head_out is not None:  # strict: the head's decoding, repeats applied
            self._emit(unit.head_out[unit.emitted :])
            unit.emitted = len(unit.head_out)
            return
        final = len(unit.slot_out) if unit.settled else min(len(unit.slot_out), unit.hold_from)
        if unit.range_from is not None and len(unit.head) < unit.reach:
            final = min(final, unit.range_from)  # an UPPERCASE holds until its range is all in
        if final > unit.final:
            out = "".join(unit.slot_out[unit.final : final])
            unit.final = final
            unit.emitted += len(out)
            self._emit(out)

    def _emit(self, out: str) -> None:
        if out and self.pending is None:  # strict: once an error is certain, nothing is final
            self._out.append(out)

    # -- the end of a unit

    def _end_unit(self) -> None:
        """The unit is complete (a group starts, or the stretch ends): return the rest of it."""
        unit = self.unit
        if unit is None:
            self._raise_pending()
            return
        if unit.in_group:
            unit.close_group()  # a dangling group (spec 7.3)
        if self.strict and not (unit.clean and not unit.has_repeat and len(unit.head) == unit.reach):
            try:
                head = self._decode_head(unit, "strict")
            except FormatError as e:
                self._candidate(self._unit_error(unit, e))
                head = ""
        elif unit.settled and (unit.range_from is None or len(unit.head) == unit.reach):
            # (in strict mode: no repeat, and every slot the group names is in; an UPPERCASE
            # whose range is not all in is dropped, which the careful decoder below does)
            head = "".join(unit.slot_out)
        else:
            head = self._decode_head(unit, "replace")
        self._emit(head[unit.emitted :])
        self._emit("".join(unit.held))
        self.before += len(head) + unit.tail
        self.unit = None
        self._raise_pending()

    def _decode_head(self, unit: _Unit, errors: str) -> str:
        # The tail's code points count toward the limit (spec 7.8) as the text after the head.
        budget = max(0, self.max_output - self.before - unit.tail)
        return engine.decode(unit.group + "".join(unit.head), errors=errors, max_output=budget)

    def _unit_error(self, unit: _Unit, e: FormatError) -> TokenFormatError:
        if e.offset >= len(unit.group):  # in the head's text: its first surrogate
            assert unit.text_error is not None and unit.text_error.offset == unit.offset + e.offset
            return unit.text_error
        return TokenFormatError(e.kind, unit.offset + e.offset, e.message, unit.group_index(e.offset))

    # -- errors (strict mode)

    def _text_error(self, kind: str, offset: int, index: int, message: str) -> None:
        error = TokenFormatError(kind, offset, message, index)
        unit = self.unit
        if unit is not None and unit.text_error is None:
            unit.text_error = error
        self._candidate(error)

    def _candidate(self, error: IdError) -> None:
        pending = self.pending
        if pending is None or _error_order(error) < _error_order(pending):
            self.pending = error

    def _raise_pending(self) -> None:
        if self.pending is not None:
            raise self.pending

    def _raise_if_certain(self) -> None:
        """Raise the pending error once nothing still open can report an earlier one."""
        if self.pending is None:
            return
        unit = self.unit
        if unit is None:
            raise self.pending
        if unit.in_group or unit.has_repeat or len(unit.head) < unit.reach:
            return  # the group's errors are not known yet (repeats: not until its text ends)
        # Without repeats, the group's errors are known once its text holds every slot it names.
        try:
            self._decode_head(unit, "strict")
        except FormatError as e:
            self._candidate(self._unit_error(unit, e))
        raise self.pending


def _error_order(error: IdError) -> tuple[int, int]:
    return error.id_index, getattr(error, "offset", -1)
