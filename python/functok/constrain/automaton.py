"""The strict decoder as an automaton over code points: what may come next in a stream.

A :class:`Cursor` reads a stretch of stream one code point at a time (:meth:`Cursor.feed`) and
one byte-fallback byte at a time (:meth:`Cursor.feed_byte`), and refuses, before it happens,
anything after which no continuation could decode strictly: the grammar of spec 7.1/7.2
(``stray-argument``, ``unknown-opcode``, ``truncated-instruction``, ``bad-count``,
``bad-range``, ``lone-surrogate``), invalid UTF-8 in byte-fallback runs, and, in exact mode,
``position-out-of-range`` (7.4, 7.7) and ``output-too-large`` (7.8). ``dangling-group`` and
``escape-at-end`` are about the end: :meth:`Cursor.can_end`.

Positions are lower bounds on the number of slots of the text after a group, so a group only
has to be checked when its text ends (the next group, or the end): the cursor keeps the
group's *requirement* ``min_n`` and counts the text's slots ``n``. The output limit needs the
decoded size: the cursor keeps it exactly (``before`` for what is done, ``size`` for the
current group's text, each slot weighed by how many copies the group's repeats make of it).
"""

from __future__ import annotations

from collections import Counter

from .. import _ucd
from ..decoding import DEFAULT_MAX_OUTPUT
from ..grammar import SURROGATE_FIRST, SURROGATE_LAST
from ..opcodes import (
    ARGUMENT_FIRST,
    ARGUMENT_LAST,
    CAPITALIZE,
    ESCAPE,
    GROUP_FIRST,
    GROUP_LAST,
    MAX_ARGUMENT,
    MULTIREPEAT,
    OPCODE_TO_MARK,
    OPCODES,
    REPEAT,
    UPPERCASE,
)

__all__ = ["AFTER_ESCAPE", "IN_GROUP", "IN_INSTRUCTION", "IN_TEXT", "Cursor", "Group", "argument_bounds"]

# Where a cursor is (spec 7.1's words): in text; after a bare ESCAPE, in text; in a group, between
# instructions; inside an instruction, reading its arguments.
IN_TEXT, AFTER_ESCAPE, IN_GROUP, IN_INSTRUCTION = 0, 1, 2, 3
_HEAD = MAX_ARGUMENT + 1  # slots 0..255: the only ones an instruction names
_END = -1  # an argument bound meaning "greater than the argument before" (end > start)
_LOWEST = {"pos": 0, "start": 0, "end": _END, "count": 1}  # the lowest value of each argument, by name


def argument_bounds(opcode: int) -> tuple[int, ...]:
    """The lowest value of each argument of ``opcode``: count >= 1 (bad-count), end > start
    (bad-range, written ``-1``), anything else >= 0."""
    return tuple(_LOWEST[name] for name in OPCODES[opcode].args)


_BOUNDS = {op: argument_bounds(op) for op in OPCODES}
_SURROGATES = range(SURROGATE_FIRST, SURROGATE_LAST + 1)


def _composable(marks: str, named: bool) -> bool:
    """Can some slot with these marks compose to one code point (spec 7.6)? A named slot's
    code point is the upper member of its pair, so only a base that case leaves alone counts."""
    key = (marks, named)
    found = _COMPOSABLE.get(key)
    if found is None:
        lower = _ucd.LOWER_TO_UPPER
        found = any(m == marks and not (named and base in lower) for base, m in _ucd.COMPOSITIONS)
        _COMPOSABLE[key] = found
    return found


_COMPOSABLE: dict[tuple[str, bool], bool] = {}


def _composes_within(marks: str, named: bool, lo: int, hi: int) -> bool:
    """Does some code point of [lo, hi] (as the slot's code point, before case) compose with
    ``marks``?"""
    upper = _ucd.LOWER_TO_UPPER
    for base, m in _ucd.COMPOSITIONS:
        if m != marks:
            continue
        sources = [] if named and base in upper else [base]  # a named lower-case base is cased first
        if named:
            sources += [low for low, up in upper.items() if up == base]
        if any(lo <= ord(c) <= hi for c in sources):
            return True
    return False


class Group:
    """The instructions of one group, as far as the text after it is concerned."""

    __slots__ = ("slots_needed", "repeats", "marks", "named", "min_n", "weights", "least_output_after", "max_weight", "longest_marked_slot")

    def __init__(self) -> None:
        self.slots_needed = 0  # slots that CAPITALIZE, the marks and UPPERCASE need
        self.repeats: tuple[tuple[int, int, int], ...] = ()  # (start, end, count), stream order
        self.marks: dict[int, str] = {}
        self.named: frozenset[int] | set[int] = frozenset()
        self.min_n = 0  # slots the whole group needs (repeats included)
        self.weights: list[int] | None = None  # copies of slot p in the output, p < 256
        self.least_output_after: list[int] = [0]  # [p]: the least output slots p..min_n-1 can add
        self.max_weight = 1  # the most copies the repeats make of one slot
        self.longest_marked_slot = 1  # the longest slot a mark list can make (1 + its marks)

    def copy(self) -> Group:
        g = Group.__new__(Group)
        g.slots_needed, g.repeats, g.marks, g.named = self.slots_needed, self.repeats, dict(self.marks), set(self.named)
        g.min_n, g.weights, g.least_output_after = self.min_n, self.weights, self.least_output_after
        g.max_weight, g.longest_marked_slot = self.max_weight, self.longest_marked_slot
        return g

    def add(self, opcode: int, args: tuple[int, ...]) -> None:
        if opcode == REPEAT:
            self.repeats += ((args[0], args[0] + 1, args[1]),)
        elif opcode == MULTIREPEAT:
            self.repeats += (args,)
        elif opcode == UPPERCASE:
            self.slots_needed = max(self.slots_needed, args[1])
            self.named = set(self.named) | set(range(args[0], args[1]))
        elif opcode == CAPITALIZE:
            self.slots_needed = max(self.slots_needed, args[0] + 1)
            self.named = set(self.named) | {args[0]}
        else:
            self.slots_needed = max(self.slots_needed, args[0] + 1)
            self.marks[args[0]] = self.marks.get(args[0], "") + OPCODE_TO_MARK[opcode]
            self.longest_marked_slot = max(self.longest_marked_slot, 1 + len(self.marks[args[0]]))
        self._settle()

    def _settle(self) -> None:
        """Recompute ``min_n`` and, for a group with repeats, the weights and ``rem``."""
        if not self.repeats:
            self.min_n = self.slots_needed
            return
        order = sorted(self.repeats, key=lambda r: -r[0])  # 7.7: descending start, stable
        lo, hi = self.slots_needed, _HEAD
        while lo < hi:  # the least n for which every repeat's range lies in the list (monotone)
            mid = (lo + hi) // 2
            if _repeats_fit(order, mid):
                hi = mid
            else:
                lo = mid + 1
        self.min_n = lo
        head, spill = list(range(_HEAD)), Counter()
        for start, end, count in order:
            head[start:end] = head[start:end] * count
            if len(head) > _HEAD:
                spill.update(head[_HEAD:])
                del head[_HEAD:]
        copies = Counter(head) + spill
        self.weights = [copies.get(p, 0) for p in range(_HEAD)]
        self.max_weight = max(self.weights)
        least_output_after = [0] * (self.min_n + 1)
        for p in range(self.min_n - 1, -1, -1):
            least_output_after[p] = least_output_after[p + 1] + self.weights[p] * self.least_slot(p)
        self.least_output_after = least_output_after

    def least_slot(self, p: int) -> int:
        """The fewest code points slot ``p`` can decode to."""
        marks = self.marks.get(p)
        if not marks:
            return 1
        return 1 if _composable(marks, p in self.named) else 1 + len(marks)

    def slot_size(self, p: int, c: str) -> int:
        """The code points slot ``p`` holding ``c`` decodes to, before repeats (7.5, 7.6)."""
        marks = self.marks.get(p)
        if not marks:
            return 1
        if p in self.named:
            c = _ucd.LOWER_TO_UPPER.get(c, c)
        return len(c) if (c, marks) in _ucd.COMPOSITIONS else len(c) + len(marks)


def _repeats_fit(order: list[tuple[int, int, int]], n: int) -> bool:
    length = n
    for start, end, count in order:
        if end - 1 >= length:
            return False
        length += (count - 1) * (end - start)
    return True


class Cursor:
    """Where a reader of one stretch of stream stands (see the module docstring).

    ``exact=False`` is the syntax-only mode: the grammar of the shipped grammar files, with no
    positions and no output limit.
    """

    __slots__ = ("exact", "max_output", "where", "opcode", "args", "bounds", "pend", "group", "n",
                 "before", "size", "owned")

    def __init__(self, exact: bool = True, max_output: int = DEFAULT_MAX_OUTPUT) -> None:
        self.exact = exact
        self.max_output = max_output
        self.where = IN_TEXT
        self.opcode = 0  # NEED: the instruction being read, its arguments so far, their bounds
        self.args: tuple[int, ...] = ()
        self.bounds: tuple[int, ...] = ()
        self.pend = b""  # an unfinished UTF-8 sequence of byte-fallback bytes
        self.group: Group | None = None  # the open group, or the one whose text is being read
        self.n = 0  # slots of the text after ``group``
        self.before = 0  # decoded code points of the stretch before ``group``
        self.size = 0  # decoded code points of ``group``'s text so far
        self.owned = True  # is ``group`` this cursor's own (copy on write)?

    def copy(self) -> Cursor:
        c = Cursor.__new__(Cursor)
        c.exact, c.max_output, c.where, c.opcode, c.args, c.bounds = (
            self.exact, self.max_output, self.where, self.opcode, self.args, self.bounds)
        c.pend, c.group, c.n, c.before, c.size = self.pend, self.group, self.n, self.before, self.size
        c.owned = False
        self.owned = False
        return c

    # -- what the state says

    def owing(self) -> int:
        """Slots the current text still needs before a group may start (0 in syntax mode)."""
        if not self.exact or self.group is None or self.where not in (IN_TEXT, AFTER_ESCAPE):
            return 0
        return max(0, self.group.min_n - self.n)

    def can_end(self) -> bool:
        """May the stretch end here (end of sequence, or a special token)?"""
        return self.where == IN_TEXT and not self.pend and not self.owing()

    def key(self) -> tuple:
        """What the syntax of the next token depends on (the cache key of masks)."""
        if self.where == IN_INSTRUCTION:
            return (IN_INSTRUCTION, self._next_bound(), self.bounds[len(self.args) + 1:], self.pend)
        return (self.where, self.owing() > 0, self.pend)

    def _next_bound(self) -> int:
        bound = self.bounds[len(self.args)]
        return self.args[-1] + 1 if bound == _END else bound

    # -- reading

    def feed_text(self, text: str) -> bool:
        """Read the code points of one token; False (and a spoiled cursor) if one is refused."""
        for c in text:
            if not self.feed(c):
                return False
        return True

    def feed(self, ch: str) -> bool:
        c = ord(ch)
        if self.pend:
            return False  # a token after an unfinished UTF-8 sequence: invalid UTF-8
        where = self.where
        if where == IN_INSTRUCTION:
            return self._argument(c)
        if c in _SURROGATES:
            return False  # lone-surrogate, bare or escaped
        if where == AFTER_ESCAPE:
            self.where = IN_TEXT
            return self._slot(ch)
        if GROUP_FIRST <= c <= GROUP_LAST:
            if c <= ARGUMENT_LAST or c not in OPCODES:
                return False  # stray-argument, unknown-opcode
            if where == IN_TEXT:
                if self.owing():
                    return False  # position-out-of-range for the group whose text ends here
                self._commit()
                self.group = Group()
                self.owned = True
            self.where, self.opcode, self.args, self.bounds = IN_INSTRUCTION, c, (), _BOUNDS[c]
            return self._completable()
        if where == IN_GROUP:
            self.where, self.n, self.size = IN_TEXT, 0, 0  # the group's text begins
        if c == ESCAPE:
            self.where = AFTER_ESCAPE
            return self._slot_possible(0, 0x10FFFF)  # the escaped code point must fit
        return self._slot(ch)

    def _completable(self) -> bool:
        """In exact mode, inside an instruction: can some arguments still complete it within the
        output limit (7.8)? Only a repeat, or any instruction of a group with repeats, can fail."""
        if not self.exact or not (self.opcode in (REPEAT, MULTIREPEAT) or self.group.repeats):
            return True
        if self.opcode in (REPEAT, MULTIREPEAT):
            # The least output: each argument at its lowest (range [start, start + 1), count 1).
            trial = self.copy()
            while trial.where == IN_INSTRUCTION:
                if not trial._argument(ARGUMENT_FIRST + trial._next_bound(), check=False):
                    return False
            return True
        group = self.group
        slack = self.max_output - self.before - group.least_output_after[0]
        if group.max_weight * (group.longest_marked_slot + 1) + 2 * _HEAD <= slack:
            return True  # a case or mark instruction adds less than that, wherever it points
        return self._any_completion()

    def _any_completion(self) -> bool:
        """Try every value of the next argument, each later one at its lowest (UPPERCASE's
        end: start + 1). Sound (a True is a real completion); it can miss a completion only
        at the output limit, where a longer case range would be needed to compose marks."""
        first = ARGUMENT_FIRST + self._next_bound()
        for c in range(first, ARGUMENT_LAST + 1):
            trial = self.copy()
            if not trial._argument(c, check=False):
                continue
            while trial.where == IN_INSTRUCTION:
                if not trial._argument(ARGUMENT_FIRST + trial._next_bound(), check=False):
                    break
            else:
                return True
        return False

    def _argument(self, c: int, check: bool = True) -> bool:
        if not ARGUMENT_FIRST <= c <= ARGUMENT_LAST:
            return False  # truncated-instruction
        value = c - ARGUMENT_FIRST
        if value < self._next_bound():
            return False  # bad-count, bad-range
        args = self.args + (value,)
        if len(args) < len(self.bounds):
            if self.bounds[len(args)] == _END and value == ARGUMENT_LAST - ARGUMENT_FIRST:
                return False  # a range starting at 255 has no end > start
            self.args = args
            return not check or self._completable()
        self.where, self.args = IN_GROUP, ()
        if not self.exact:
            return True
        if not self.owned:
            self.group, self.owned = self.group.copy(), True
        self.group.add(self.opcode, args)
        return not self.group.repeats or self._fits(self.group.least_output_after[0])

    def _slot(self, ch: str) -> bool:
        """One slot of the current text; False if the output limit makes it impossible."""
        group = self.group
        if group is None or not self.exact:
            self.n += 1
            self.size += 1
            return True
        p = self.n
        self.n += 1
        if p >= _HEAD:
            self.size += 1
        elif group.weights is None:
            self.size += group.slot_size(p, ch)
        else:
            self.size += group.weights[p] * group.slot_size(p, ch)
        if not group.repeats:
            return True
        return self._fits(group.least_output_after[self.n] if self.n < len(group.least_output_after) else 0)

    def _slot_possible(self, lo: int, hi: int) -> bool:
        """Could one more slot of the current text, holding a code point of [lo, hi], fit the
        output limit (with the least the slots after it need)?"""
        group = self.group
        if group is None or not self.exact or not group.repeats:
            return True
        in_text = self.where in (IN_TEXT, AFTER_ESCAPE)
        p = self.n if in_text else 0
        size = self.size if in_text else 0
        after = group.least_output_after[p + 1] if p + 1 < len(group.least_output_after) else 0
        budget = self.max_output - self.before - size - after
        if p >= _HEAD:
            return budget >= 1
        weight, marks = group.weights[p], group.marks.get(p)
        if not marks or weight * (1 + len(marks)) <= budget:
            return weight <= budget
        # Only a code point that composes with the marks (7.6) is short enough.
        return weight <= budget and _composes_within(marks, p in group.named, lo, hi)

    def _fits(self, still: int) -> bool:
        """7.8: a group with a repeat must leave the stretch's output within max_output (with
        ``still`` the least the slots it still needs add)."""
        return self.before + self.size + still <= self.max_output

    def _commit(self) -> None:
        self.before += self.size
        self.size = 0
        self.n = 0

    # -- byte fallback

    def feed_byte(self, b: int) -> bool:
        """Read one byte-fallback byte; refused if no code point it can begin is acceptable."""
        pend = self.pend + bytes((b,))
        need = _utf8_length(pend[0])
        if need == 0 or not _continues(pend):
            return False
        if len(pend) < need:
            lo, hi = _utf8_span(pend, need)
            if not self._accepts_some(lo, hi):
                return False
            self.pend = pend
            return True
        self.pend = b""
        return self.feed(pend.decode("utf-8"))

    def _accepts_some(self, lo: int, hi: int) -> bool:
        """Can some code point in [lo, hi] (a UTF-8 sequence begun) be read here?"""
        where = self.where
        if where == IN_INSTRUCTION:
            first, last = max(lo, ARGUMENT_FIRST + self._next_bound()), min(hi, ARGUMENT_LAST)
            if first > last:
                return False
            if not (self.exact and (self.opcode in (REPEAT, MULTIREPEAT) or self.group.repeats)):
                return True
            # The output limit depends on the value: try each (only where a repeat is at stake).
            return any(self._trial()._argument(c) for c in range(first, last + 1))
        if where == AFTER_ESCAPE:
            return self._slot_possible(lo, hi)
        if lo < GROUP_FIRST or hi > GROUP_LAST:
            # text, or ESCAPE (then any code point is the slot)
            return self._slot_possible(0, 0x10FFFF) if lo <= ESCAPE <= hi else self._slot_possible(lo, hi)
        if where == IN_TEXT and self.owing():
            return False
        # An opcode: in exact mode, one whose instruction can still be completed (7.8)
        return any(lo <= op <= hi and (not self.exact or self._trial().feed(chr(op))) for op in OPCODES)

    def _trial(self) -> Cursor:
        """A copy to try a code point on, as if the UTF-8 sequence begun were complete."""
        trial = self.copy()
        trial.pend = b""
        return trial


def _utf8_length(lead: int) -> int:
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0  # a continuation byte, C0, C1 or F5..FF cannot begin a sequence


_SECOND = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}


def _continues(seq: bytes) -> bool:
    """Is ``seq`` (lead byte first) a valid beginning of a UTF-8 sequence?"""
    for i in range(1, len(seq)):
        lo, hi = _SECOND.get(seq[0], (0x80, 0xBF)) if i == 1 else (0x80, 0xBF)
        if not lo <= seq[i] <= hi:
            return False
    return True


def _utf8_span(seq: bytes, need: int) -> tuple[int, int]:
    """The code points a valid unfinished sequence can end as: [lo, hi]."""
    missing = need - len(seq)
    lo_seq = seq + bytes([_SECOND.get(seq[0], (0x80, 0xBF))[0] if len(seq) == 1 else 0x80]) + b"\x80" * (missing - 1)
    hi_seq = seq + bytes([_SECOND.get(seq[0], (0x80, 0xBF))[1] if len(seq) == 1 else 0xBF]) + b"\xbf" * (missing - 1)
    return ord(lo_seq.decode("utf-8")), ord(hi_seq.decode("utf-8"))
