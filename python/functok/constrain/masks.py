"""Exact next-token masks for a :class:`functok.Tokenizer`: :class:`Constraint` and its states.

Each token is classified once, by what it does to the reader of the stream
(:class:`~functok.constrain.automaton.Cursor`):

* a *text* token (no code point of U+E000..U+EFFF) adds slots, and is allowed wherever text is;
* a *byte* token feeds one byte of a UTF-8 sequence;
* a *format* token (an opcode, arguments, an ESCAPE, or text mixed with them) is simulated once
  per *syntactic state* (the cursor's :meth:`~functok.constrain.automaton.Cursor.key`: where
  in the grammar it stands, and the UTF-8 bytes pending), and the result kept;
* a *special* token ends the stretch, so it is allowed exactly where the end is.

A step then costs a dictionary lookup and a few big-integer operations on bitmasks, whatever
the length of the sequence, plus the exact checks that depend on more than the syntactic state:

* the *lead* of a format token (the slots it adds before its first group code point) against
  the slots the pending group still needs: one mask per number of slots owed;
* the few *complex* tokens (they add to an open group and then end its text, inside one token)
  simulated from the state itself;
* near the output limit (a group whose repeats could take the output within reach of
  ``max_output``), every candidate token simulated exactly: slower, and only there.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..decoding import DEFAULT_MAX_OUTPUT, check_max_output
from ..grammar import FORMAT_CODE_POINT, SURROGATE, group_end, has_repeat
from ..opcodes import ARGUMENT_FIRST, ARGUMENT_LAST, ESCAPE, FIRST_MARK, GROUP_FIRST, GROUP_LAST, MULTIREPEAT, REPEAT
from .automaton import AFTER_ESCAPE, IN_GROUP, IN_INSTRUCTION, IN_TEXT, Cursor, Group

__all__ = ["MODES", "Constraint", "DisallowedTokenError", "State"]

MODES = ("exact", "syntax")


class DisallowedTokenError(ValueError):
    """An id the constraint does not allow in this state (``id``, at position ``index``)."""

    def __init__(self, id: int, index: int, why: str = "it cannot continue a strictly decodable sequence") -> None:
        self.id = id
        self.index = index
        super().__init__(f"token id {id} at index {index} is not allowed: {why}")


def _bits(ids: Iterable[int], size: int) -> int:
    """A bitmask (bit i = id i) from ids, built through a bytearray (fast for many ids)."""
    buf = bytearray((size + 7) // 8)
    for i in ids:
        buf[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(buf, "little")


def _shape(text: str, entry: int) -> tuple[int, int, int]:
    """(lead, boundaries, repeats) of a token: the slots before its first group code point
    (len(text) + 1 if none), how many times a group code point follows text inside it (the first
    counts if the token starts in text), and its repeat opcodes plus one if it starts with an
    argument (which may complete a repeat begun before it)."""
    lead = None
    boundaries = slots = 0
    in_text = entry != IN_GROUP  # entering in a group (G0 or inside an instruction), or in text
    escape = entry == AFTER_ESCAPE
    repeats = 0
    leading_argument = bool(text) and ARGUMENT_FIRST <= ord(text[0]) <= ARGUMENT_LAST and entry != AFTER_ESCAPE
    for ch in text:
        c = ord(ch)
        if escape:
            escape = False
            in_text = True
            slots += 1
            continue
        if GROUP_FIRST <= c <= GROUP_LAST:
            if c in (REPEAT, MULTIREPEAT):
                repeats += 1
            if in_text:
                boundaries += 1
                if lead is None:
                    lead = slots
            in_text = False
        elif c == ESCAPE:
            escape = True
        else:
            in_text = True
            slots += 1
    return (len(text) + 1 if lead is None else lead), boundaries, repeats + leading_argument


class Constraint:
    """Which ids may come next so that the ids decode with ``tokenizer.decode`` (strict).

    ``mode="exact"`` (the default) allows exactly the ids after which some continuation decodes
    strictly: a well-formed stream, positions within the slots of the text after each group,
    the output within ``max_output``, valid UTF-8 in byte-fallback runs, no unknown id.
    ``mode="syntax"`` drops the positions and the output limit: it is what the grammar files
    (:mod:`functok.grammar_export`) express. ``eos_token_id`` (default: the tokenizer's special
    token named ``eos_token``, if given by name, else none) is allowed where the sequence may
    end; other special tokens too (each ends a stretch).

    >>> from functok import Tokenizer
    >>> tok = Tokenizer.train(iter(["Hello World"] * 4), vocab_size=300, profile="compact", fuse="none",
    ...                       show_progress=False)
    >>> state = Constraint(tok).start()
    >>> state = state.advance(tok.token_to_id("\\ue100\\ue000"))   # CAPITALIZE(0): a group is open
    >>> state.end_allowed, state.allows(tok.token_to_id("hello"))
    (False, True)
    """

    def __init__(self, tokenizer, *, mode: str = "exact", max_output: int = DEFAULT_MAX_OUTPUT,
                 eos_token_id: int | str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.tokenizer = tokenizer
        self.exact = mode == "exact"
        self.mode = mode
        self.max_output = check_max_output(max_output)
        table = tokenizer.token_table
        if isinstance(eos_token_id, str):
            eos_token_id = tokenizer.special_tokens[eos_token_id]
        self.eos_token_id = eos_token_id
        ids = set(table.token) | set(table.special)
        self.vocab_size = max(ids) + 1 if ids else 0
        self.byte_of: dict[int, int] = dict(table.byte)
        self.special_ids = frozenset(table.special)
        self.token_of: dict[int, str] = {}
        text_ids, self.format_ids = [], []
        for i, token in table.token.items():
            if i in self.byte_of or i in self.special_ids or SURROGATE.search(token):
                continue  # a surrogate is lone-surrogate wherever it stands
            self.token_of[i] = token
            (self.format_ids if FORMAT_CODE_POINT.search(token) else text_ids).append(i)
        self.text_mask = _bits(text_ids, self.vocab_size)
        self.special_mask = _bits(self.special_ids, self.vocab_size)
        self.longest = max((len(self.token_of[i]) for i in text_ids + self.format_ids), default=1)
        self._shapes = {entry: {i: _shape(self.token_of[i], entry) for i in self.format_ids}
                        for entry in (IN_TEXT, AFTER_ESCAPE, IN_GROUP)}
        # key -> (mask, complex ids, ids that are complex when the open group has repeats)
        self._syntax: dict[tuple, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
        self._lead: dict[tuple[int, int], int] = {}  # (entry, slots owed) -> ids whose lead is shorter
        self._inside: dict[tuple[int, int], bool] = {}  # (id, entry) -> its inner groups decode
        self._by_repeats: dict[int, list[int]] = {}
        for i in self.format_ids:
            self._by_repeats.setdefault(self._shapes[IN_TEXT][i][2], []).append(i)

    # -- states

    def start(self) -> State:
        """The state before any id."""
        return State(self, Cursor(self.exact, self.max_output), 0)

    def allowed(self, ids: Iterable[int]) -> State:
        """The state after ``ids`` (raises :class:`DisallowedTokenError` at the first id not
        allowed); its :meth:`State.mask` is the set of next ids."""
        state = self.start()
        for i in ids:
            state = state.advance(i)
        return state

    # -- reading one id

    def _advance(self, cursor: Cursor, id: int) -> Cursor | None:
        """The cursor after ``id``, or None if it is not allowed (``cursor`` is left alone)."""
        if id in self.special_ids:
            return Cursor(self.exact, self.max_output) if cursor.can_end() else None
        byte = self.byte_of.get(id)
        nxt = cursor.copy()
        if byte is not None:
            return nxt if nxt.feed_byte(byte) else None
        token = self.token_of.get(id)
        if token is None or not nxt.feed_text(token):
            return None
        return nxt

    # -- masks

    def mask(self, cursor: Cursor) -> int:
        """The ids allowed after ``cursor``, as a bitmask (bit i = id i)."""
        key = cursor.key()
        entry = self._syntax.get(key)
        if entry is None:
            entry = self._syntax[key] = self._syntactic(key)
        mask, complex_ids, repeat_sensitive = entry
        if self.exact:
            if repeat_sensitive and cursor.group.repeats:  # then only a simulation knows
                for i in repeat_sensitive:
                    mask &= ~(1 << i)
                complex_ids += repeat_sensitive
            if cursor.where in (IN_TEXT, AFTER_ESCAPE):
                owed = cursor.owing()
                if owed:
                    mask &= ~self._lead_below(cursor.where, owed)
            elif cursor.where == IN_GROUP and cursor.group.min_n:
                # a token that starts with text ends the open group's text at its first group code point
                mask &= ~self._lead_below(IN_GROUP, cursor.group.min_n)
            for i in complex_ids:
                if self._advance(cursor, i) is not None:
                    mask |= 1 << i
            mask = self._near_limit(cursor, mask)
        if cursor.can_end():
            mask |= self.special_mask
        return mask

    def _syntactic(self, key: tuple) -> tuple[int, tuple[int, ...]]:
        """The ids a cursor with ``key`` allows, ignoring what more than the key decides, and
        the complex ids to simulate from the cursor itself (exact mode)."""
        probe = _probe(key, self.exact, self.max_output)
        where, pend = key[0], key[-1]
        allowed = [b_id for b_id, b in self.byte_of.items() if probe.copy().feed_byte(b)]
        if pend:
            return _bits(allowed, self.vocab_size), (), ()
        complex_ids, repeat_sensitive = [], []
        entry = IN_GROUP if where == IN_INSTRUCTION else where
        syntax_probe = _probe(key, False, self.max_output)
        for i in self.format_ids:
            token = self.token_of[i]
            if not syntax_probe.copy().feed_text(token):
                continue
            if self.exact and self._shapes[entry][i][1]:  # a group code point after text, inside it
                if entry == IN_GROUP and GROUP_FIRST <= ord(token[0]) <= GROUP_LAST:
                    # It adds to the open group, then ends its text. Without repeats on either
                    # side the group needs max(the open group's slots, the token's): the
                    # token's are checked here, the open group's by _lead_below.
                    if where == IN_INSTRUCTION or has_repeat(token[: group_end(token)]):  # a repeat in its leading group run
                        complex_ids.append(i)
                        continue
                    if not self._fine_inside(i, -IN_GROUP):
                        continue
                    repeat_sensitive.append(i)
                elif not self._fine_inside(i, entry):
                    continue  # a group inside the token that its own text cannot satisfy
            # The rest depends on the slots owed before the token's first group code point
            # (_lead_below, per state); positions after it are the next tokens' concern.
            allowed.append(i)
        mask = _bits(allowed, self.vocab_size)
        if where != IN_INSTRUCTION:
            mask |= self.text_mask
        return mask, tuple(complex_ids), tuple(repeat_sensitive)

    def _fine_inside(self, i: int, entry: int) -> bool:
        """Do the groups that token ``i`` opens and ends within itself decode (positions; the
        output limit of a repeat among them is checked per state, near the limit)? Read from a
        cursor that owes nothing, in text (or after an ESCAPE)."""
        key = (i, entry)
        found = self._inside.get(key)
        if found is None:
            cursor = Cursor(True, 2**62)
            cursor.where = {AFTER_ESCAPE: AFTER_ESCAPE, -IN_GROUP: IN_GROUP}.get(entry, IN_TEXT)
            if entry == -IN_GROUP:  # in a group of its own, with no instruction yet
                cursor.group = Group()
            found = self._inside[key] = cursor.feed_text(self.token_of[i])
        return found

    def _lead_below(self, where: int, owed: int) -> int:
        """Format ids that reach a group code point with fewer than ``owed`` slots."""
        key = (where, owed)
        found = self._lead.get(key)
        if found is None:
            found = self._lead[key] = _bits(
                (i for i, (lead, boundaries, _) in self._shapes[where].items() if boundaries and lead < owed),
                self.vocab_size)
        return found

    def _near_limit(self, cursor: Cursor, mask: int) -> int:
        """Near ``max_output``, check each candidate that could reach it by simulating it."""
        group = cursor.group
        slack = self.max_output - cursor.before - cursor.size
        repeats = group is not None and bool(group.repeats)
        weight, marks = (group.max_weight, group.longest_marked_slot) if group is not None else (1, 1)
        text_growth = self.longest * weight * marks if repeats else 0
        suspects: list[int] = []
        if text_growth > slack:
            suspects += self.token_of  # every token may add a slot that does not fit
            suspects += self.byte_of
        else:
            if cursor.where in (IN_TEXT, AFTER_ESCAPE):
                weight, marks = 1, 1  # the next group starts afresh, after this text's last slots
            reach = 256 * weight * (marks + self.longest) + text_growth
            for repeats, ids in self._by_repeats.items():
                if reach * 255 ** repeats > slack:
                    suspects += ids
            if reach * 255 > slack:
                suspects += self.byte_of  # a byte may complete a repeat's argument
        for i in suspects:
            if mask >> i & 1 and self._advance(cursor, i) is None:
                mask &= ~(1 << i)
        return mask


def _probe(key: tuple, exact: bool, max_output: int) -> Cursor:
    """A cursor standing where ``key`` says (the representative of its syntactic state)."""
    cursor = Cursor(exact, max_output)
    if key[0] == IN_INSTRUCTION:
        _, bound, rest, pend = key
        # An opcode whose completion adds nothing to the group (exact mode adds one instruction:
        # a mark with its one argument; the arguments' values are all that matter here).
        cursor.where, cursor.opcode, cursor.args, cursor.bounds = IN_INSTRUCTION, FIRST_MARK, (), (bound,) + rest
        cursor.group = Group()
    else:
        where, owing, pend = key
        cursor.where = where
        if where in (AFTER_ESCAPE, IN_GROUP) or owing:
            cursor.group = Group()
        if owing:
            cursor.group.min_n = 1  # at least one slot owed
    cursor.pend = pend
    return cursor


class State:
    """Where a sequence of ids stands under a :class:`Constraint` (immutable: :meth:`advance`
    returns a new state, so states can be kept, compared and branched, as in beam search)."""

    __slots__ = ("constraint", "cursor", "length", "_mask")

    def __init__(self, constraint: Constraint, cursor: Cursor, length: int) -> None:
        self.constraint = constraint
        self.cursor = cursor
        self.length = length  # ids read so far
        self._mask: int | None = None

    def advance(self, id: int) -> State:
        """The state after ``id``; :class:`DisallowedTokenError` if it is not allowed."""
        nxt = self.constraint._advance(self.cursor, id)
        if nxt is None:
            raise DisallowedTokenError(id, self.length)
        return State(self.constraint, nxt, self.length + 1)

    def mask(self) -> int:
        """The allowed next ids as a bitmask: bit ``i`` is set if id ``i`` is allowed."""
        if self._mask is None:
            self._mask = self.constraint.mask(self.cursor)
        return self._mask

    def bitmask(self) -> bytes:
        """:meth:`mask` as bytes, little-endian bit order (id ``i`` is bit ``i % 8`` of byte
        ``i // 8``), ``ceil(vocab_size / 8)`` bytes."""
        return self.mask().to_bytes((self.constraint.vocab_size + 7) // 8, "little")

    def allowed_ids(self) -> list[int]:
        """The allowed next ids, ascending."""
        mask, out = self.mask(), []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def allows(self, id: int) -> bool:
        return 0 <= id < self.constraint.vocab_size and bool(self.mask() >> id & 1)

    @property
    def end_allowed(self) -> bool:
        """May the sequence end here (end of sequence: no group open or pending without its
        slots, no bare ESCAPE, no unfinished UTF-8 sequence)?"""
        return self.cursor.can_end()

    def __repr__(self) -> str:
        return f"State(length={self.length}, end_allowed={self.end_allowed})"
