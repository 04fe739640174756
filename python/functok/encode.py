"""The encoder (spec section 6): text -> pieces -> groups of instructions + bases -> stream.

The hot path is :func:`encode`: normalize, split with one C-level ``findall``, then map every
piece through a cache whose misses call :func:`encode_piece`. Most pieces of real text repeat,
so the Python-level work is paid once per distinct piece.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from bisect import bisect_right
from itertools import chain
from typing import Callable, Iterable, NamedTuple

from . import _ucd
from .cache import remember
from .errors import FormatError
from .grammar import FORMAT_CODE_POINT, SURROGATE
from .opcodes import (
    CAPITALIZE,
    ESCAPE_CHAR,
    MARK_TO_OPCODE,
    MAX_ARGUMENT,
    MULTIREPEAT,
    NAME_TO_OPCODE,
    OPCODES,
    REPEAT,
    argument,
)
from .split import one_of_code_points
from .split import pattern as split_pattern

FEATURES = frozenset({"case", "marks", "repeat"})
NORMALIZATIONS = ("nfc", None)

MIN_RUN = 3  # a run or unit repeated at least this often is folded (6.1)
MAX_UNIT = 8  # the longest MULTIREPEAT unit (6.1)

_RUN = re.compile(r"(.)\1*", re.DOTALL)


class Instruction(NamedTuple):
    """One instruction of a group: an opcode name and its arguments."""

    name: str
    args: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.name}({','.join(map(str, self.args))})"

    @property
    def code(self) -> str:
        """The instruction as it is written in the stream: opcode then argument code points."""
        return chr(NAME_TO_OPCODE[self.name]) + "".join(map(argument, self.args))


@dataclass(frozen=True)
class Piece:
    """One splitter piece and its encoding (see :func:`pieces`)."""

    text: str  # the piece's text after normalization
    start: int  # code point offsets of the piece in the original text
    end: int
    instructions: tuple[Instruction, ...]
    base: str  # as written in the stream (escapes included)
    slot_starts: tuple[int, ...]  # for slot j, where it begins in ``text``

    @property
    def encoded(self) -> str:
        return "".join(i.code for i in self.instructions) + self.base


class _Encoded(NamedTuple):
    instructions: tuple[Instruction, ...]
    base: str
    slot_starts: tuple[int, ...]


# --- 6.1 Folding -------------------------------------------------------------------------

def _fold(piece: str) -> tuple[list[str], list[int], list[Instruction]]:
    """Cut a piece into slots, folding runs (REPEAT) and repeated units (MULTIREPEAT).

    Returns the slots' code points, where each slot starts in the piece, and the repeat-family
    instructions in ascending start slot.
    """
    slots: list[str] = []
    starts: list[int] = []
    repeats: list[Instruction] = []
    n = len(piece)
    i = 0
    while i < n:
        if len(slots) > MAX_ARGUMENT:
            # No instruction can name a slot past 255, so the rest is literal.
            slots.extend(piece[i:])
            starts.extend(range(i, n))
            break
        char = piece[i]
        run = _RUN.match(piece, i).end() - i
        if run >= MIN_RUN:
            _fold_run(char, run, i, slots, starts, repeats)
            i += run
            continue
        folded = _fold_unit(piece, i, slots, starts, repeats)
        if folded:
            i += folded
            continue
        slots.append(char)
        starts.append(i)
        i += 1
    return slots, starts, repeats


def _fold_run(char: str, run: int, at: int, slots: list[str], starts: list[int],
              repeats: list[Instruction]) -> None:
    """A run of ``run`` identical code points: chunks of at most 255 copies (6.1)."""
    left = run
    while left:
        chunk = min(MAX_ARGUMENT, left)
        slot = len(slots)
        if chunk >= MIN_RUN and slot <= MAX_ARGUMENT:
            repeats.append(Instruction("REPEAT", (slot, chunk)))
            slots.append(char)
            starts.append(at)
        else:
            slots.extend(char * chunk)
            starts.extend(range(at, at + chunk))
        at += chunk
        left -= chunk


def _fold_unit(piece: str, i: int, slots: list[str], starts: list[int],
               repeats: list[Instruction]) -> int:
    """Try MULTIREPEAT at ``i``, shortest unit first; return the code points consumed (or 0)."""
    start = len(slots)
    n = len(piece)
    for length in range(2, MAX_UNIT + 1):
        if start + length > MAX_ARGUMENT or i + MIN_RUN * length > n:
            return 0  # a longer unit fits even less
        unit = piece[i:i + length]
        copies = 1
        while copies < MAX_ARGUMENT and piece.startswith(unit, i + copies * length):
            copies += 1
        if copies >= MIN_RUN:
            repeats.append(Instruction("MULTIREPEAT", (start, start + length, copies)))
            slots.extend(unit)
            starts.extend(range(i, i + length))
            return length * copies
    return 0


# --- 6.2 Marks and case ------------------------------------------------------------------

_MARK_NAME = {mark: OPCODES[op].name for mark, op in MARK_TO_OPCODE.items()}



def _marks_and_case(base: str, marks: bool, case: bool) -> tuple[list[Instruction], list[Instruction], str]:
    """Rewrite slots 0..255 of ``base`` (one code point per slot) to their bases.

    Returns the mark and CAPITALIZE instructions and the new base. Only the slots that
    change are visited: one C-level search finds them.
    """
    mark_instructions: list[Instruction] = []
    capitals: list[Instruction] = []
    chars = None
    for found in _CHANGING.finditer(base, 0, MAX_ARGUMENT + 1):
        slot, char = found.start(), found.group()
        if marks and char in _ucd.DECOMPOSITIONS:
            char, mark_seq = _ucd.DECOMPOSITIONS[char]
            mark_instructions.extend(Instruction(_MARK_NAME[m], (slot,)) for m in mark_seq)
        if case and char in _ucd.UPPER_TO_LOWER:
            char = _ucd.UPPER_TO_LOWER[char]
            capitals.append(Instruction("CAPITALIZE", (slot,)))
        if char != found.group():
            if chars is None:
                chars = list(base)
            chars[slot] = char
    return mark_instructions, capitals, base if chars is None else "".join(chars)


def _one_of(chars) -> str:
    """A regex for one of ``chars``, fast for BMP text (see functok.split's class builder)."""
    return one_of_code_points(sorted(map(ord, chars)))


# Characters that marks or case rewrite; and, with the runs and repeated units that folding
# rewrites and what escaping rewrites, everything that makes a piece differ from its encoding.
_CHANGING = re.compile(_one_of(set(_ucd.DECOMPOSITIONS) | set(_ucd.UPPER_TO_LOWER)))
_REPEATS = re.compile(f"(.)\\1\\1|(.{{2,{MAX_UNIT}}})\\2\\2", re.DOTALL)
_NEEDS_WORK = re.compile(f"{_CHANGING.pattern}|{FORMAT_CODE_POINT.pattern}|{_REPEATS.pattern}", re.DOTALL)


# --- 6.3 Escape and 6.4 serialization ----------------------------------------------------

def _escape(base: str) -> str:
    """Write every code point of U+E000..U+EFFF in the base as ESCAPE + that code point."""
    return FORMAT_CODE_POINT.sub(lambda m: ESCAPE_CHAR + m.group(), base)


def analyse_piece(piece: str, features: frozenset[str] = FEATURES) -> _Encoded:
    """The instructions (in canonical order), escaped base and slot starts of one piece."""
    if not _NEEDS_WORK.search(piece):  # most pieces of real text
        return _Encoded((), piece, tuple(range(len(piece))))
    if "repeat" in features and _REPEATS.search(piece):
        slots, starts, repeats = _fold(piece)
        base = "".join(slots)
    else:
        base, starts, repeats = piece, range(len(piece)), []
    mark_instructions, capitals, base = _marks_and_case(base, "marks" in features, "case" in features)
    # Canonical order (6.4): repeats by start, marks by (slot, decomposition order),
    # CAPITALIZE by slot. Each list is built in that order already.
    instructions = tuple(repeats + mark_instructions + capitals)
    return _Encoded(instructions, _escape(base), tuple(starts))


def encode_piece(piece: str, features: frozenset[str] = FEATURES) -> str:
    """The stream form of one piece: its group followed by its base."""
    if not _NEEDS_WORK.search(piece):  # most pieces of real text
        return piece
    enc = analyse_piece(piece, features)
    return "".join(i.code for i in enc.instructions) + enc.base if enc.instructions else enc.base


def piece_pretokens(piece: str, features: frozenset[str] = FEATURES) -> tuple[str, ...]:
    """The pre-tokens of one piece with split_operators: one per instruction, then the base."""
    enc = analyse_piece(piece, features)
    return tuple(i.code for i in enc.instructions) + (enc.base,)


# --- Caches ------------------------------------------------------------------------------

_MAX_CACHED_PIECE = 256  # code points; longer pieces are rare, and would pin memory


class _PieceCache(dict):
    """piece -> value, computed on a miss; hits go through ``dict.__getitem__`` in C."""

    def __init__(self, compute: Callable[[str], object]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, piece: str):
        value = self._compute(piece)
        if len(piece) <= _MAX_CACHED_PIECE:
            remember(self, piece, value)
        return value


_stream_caches: dict[frozenset[str], _PieceCache] = {}
_pretoken_caches: dict[frozenset[str], _PieceCache] = {}


def clear_caches() -> None:
    """Forget every cached piece (benchmarks use this for a cold start)."""
    for cache in (*_stream_caches.values(), *_pretoken_caches.values()):
        cache.clear()


def _cache(caches: dict, make: Callable, features: frozenset[str]) -> _PieceCache:
    cache = caches.get(features)
    if cache is None:
        cache = caches[features] = _PieceCache(partial(make, features=features))
    return cache


# --- The public entry points -------------------------------------------------------------

def _check_options(normalize, features) -> frozenset[str]:
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"normalize must be 'nfc' or None, not {normalize!r}")
    features = frozenset(features)
    if not features <= FEATURES:
        raise ValueError(f"unknown features {sorted(features - FEATURES)}; known: {sorted(FEATURES)}")
    return features


def check_scalar_values(text: str) -> None:
    """Raise ``lone-surrogate`` at the first surrogate code point in ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, not {type(text).__name__}")
    found = SURROGATE.search(text)
    if found:
        raise FormatError("lone-surrogate", found.start(),
                          f"U+{ord(found.group()):04X} is a surrogate, not a Unicode scalar value")


def _normalized(text: str, normalize) -> str:
    check_scalar_values(text)
    if normalize == "nfc":
        from .normalize import nfc
        return nfc(text)
    return text


def encode(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
           features: Iterable[str] = FEATURES) -> str:
    """Encode text to a stream (spec 1.1).

    >>> encode("Héllo")
    '\\ue102\\ue001\\ue100\\ue000hello'

    ``features`` (ablation studies only) switches off case, marks or folding (6.1: the "repeat" feature); the
    result still decodes exactly but is not the canonical stream.
    """
    features = _check_options(normalize, features)
    text = _normalized(text, normalize)
    cache = _cache(_stream_caches, encode_piece, features)
    return "".join(map(cache.__getitem__, split_pattern(splitter).findall(text)))


def pretokens(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
              split_operators: bool = True, features: Iterable[str] = FEATURES) -> list[str]:
    """The pre-tokens that BPE sees (spec section 9); they concatenate to ``encode(text)``.

    >>> pretokens("Hello")
    ['\\ue100\\ue000', 'hello']
    >>> pretokens("Hello", split_operators=False)
    ['\\ue100\\ue000hello']
    """
    features = _check_options(normalize, features)
    text = _normalized(text, normalize)
    found = split_pattern(splitter).findall(text)
    if not split_operators:
        return list(map(_cache(_stream_caches, encode_piece, features).__getitem__, found))
    cache = _cache(_pretoken_caches, piece_pretokens, features)
    return list(chain.from_iterable(map(cache.__getitem__, found)))


def pieces(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
           features: Iterable[str] = FEATURES) -> list[Piece]:
    """Each piece with its offsets in the original text, its instructions and its base.

    >>> [str(i) for i in pieces("Héllo")[0].instructions]
    ['ACUTE(1)', 'CAPITALIZE(0)']
    """
    features = _check_options(normalize, features)
    check_scalar_values(text)
    if normalize == "nfc":
        from .normalize import nfc_with_offsets
        normalized, offsets = nfc_with_offsets(text)
    else:
        normalized, offsets = text, None
    result = []
    position = 0
    for piece in split_pattern(splitter).findall(normalized):
        end = position + len(piece)
        if offsets is None:
            start_orig, end_orig = position, end
        else:
            # A span that NFC rewrote maps all its output to the whole span (spec 4.4), so a
            # piece ends where the source of its last code point ends.
            start_orig = offsets[position]
            end_orig = offsets[bisect_right(offsets, offsets[end - 1])]
        enc = analyse_piece(piece, features)
        result.append(Piece(piece, start_orig, end_orig, enc.instructions, enc.base, enc.slot_starts))
        position = end
    return result
