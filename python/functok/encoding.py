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
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, NamedTuple

from . import _ucd
from .cache import remember
from .errors import FormatError
from .grammar import FORMAT_CODE_POINT, SURROGATE
from .opcodes import ESCAPE_CHAR, MARK_TO_OPCODE, MAX_ARGUMENT, NAME_TO_OPCODE, OPCODES, argument
from .splitting import one_of_code_points
from .splitting import pattern as split_pattern

FEATURES = frozenset({"case", "marks", "repeat"})
NORMALIZATIONS = ("nfc", None)
FOLDS = ("all", "no-whitespace", "none")  # the fold option (spec 6.1)
CASES = ("capitalize", "range")  # the case option (spec 6.2)


class Profile(NamedTuple):
    """A named choice of the encoder options (spec 6.6)."""

    fold: str
    case: str


# The profiles of spec 6.6. "paper" is the 1.0 encoder and the default.
PROFILES: Mapping[str, Profile] = MappingProxyType({
    "paper": Profile(fold="all", case="capitalize"),
    "compact": Profile(fold="none", case="range"),
})
"""The encoder profiles (spec 6.6), name -> :class:`Profile`: ``"paper"`` (the 1.0 encoder,
the default: fold everything, one CAPITALIZE per capital) and ``"compact"`` (fold nothing,
range case: UPPERCASE for runs of capitals). Read-only."""
DEFAULT_PROFILE = "paper"

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

def _fold(piece: str, fold: str = "all") -> tuple[list[str], list[int], list[Instruction]]:
    """Cut a piece into slots, folding runs (REPEAT) and repeated units (MULTIREPEAT).

    Returns the slots' code points, where each slot starts in the piece, and the repeat-family
    instructions in ascending start slot. ``fold`` is "all" or "no-whitespace" (spec 6.1: no
    whitespace run or whitespace-only unit is folded); "none" never gets here.
    """
    keep_whitespace = fold == "no-whitespace"
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
            if keep_whitespace and char in _WHITESPACE:
                slots.extend(char * run)  # the whole run is literal slots
                starts.extend(range(i, i + run))
            else:
                _fold_run(char, run, i, slots, starts, repeats)
            i += run
            continue
        folded = _fold_unit(piece, i, slots, starts, repeats, keep_whitespace)
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
               repeats: list[Instruction], keep_whitespace: bool = False) -> int:
    """Try MULTIREPEAT at ``i``, shortest unit first; return the code points consumed (or 0).
    With ``keep_whitespace`` a unit made only of whitespace is skipped (spec 6.1)."""
    start = len(slots)
    n = len(piece)
    for length in range(2, MAX_UNIT + 1):
        if start + length > MAX_ARGUMENT or i + MIN_RUN * length > n:
            return 0  # a longer unit fits even less
        unit = piece[i:i + length]
        if keep_whitespace and _ALL_WHITESPACE.fullmatch(unit):
            continue
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


def _ranges(base: str, capitals: list[Instruction]) -> list[Instruction]:
    """The case instructions of case="range" (spec 6.2's range rule): a maximal run of slots
    among 0..254 that are capitals or caseless, holding at least 2 capitals, is one UPPERCASE;
    every other capital keeps its CAPITALIZE. ``base`` has the capitals already lowered."""
    capital = {ins.args[0] for ins in capitals}
    lower = _ucd.LOWER_TO_UPPER  # a slot here that is not a capital is a lower member
    limit = min(len(base), MAX_ARGUMENT)  # an UPPERCASE ends at 255 at the most
    out: list[Instruction] = []
    s = 0
    while s < limit:
        if s not in capital and base[s] in lower:
            s += 1
            continue
        e = s
        run: list[int] = []
        while e < limit and (e in capital or base[e] not in lower):
            if e in capital:
                run.append(e)
            e += 1
        if len(run) >= 2:
            out.append(Instruction("UPPERCASE", (s, e)))
        else:
            out.extend(Instruction("CAPITALIZE", (t,)) for t in run)
        s = e
    if MAX_ARGUMENT in capital:
        out.append(Instruction("CAPITALIZE", (MAX_ARGUMENT,)))
    return out


def _one_of(chars) -> str:
    """A regex for one of ``chars``, fast for BMP text (see functok.splitting's class builder)."""
    return one_of_code_points(sorted(map(ord, chars)))


# Characters that marks or case rewrite; and, with the runs and repeated units that folding
# rewrites and what escaping rewrites, everything that makes a piece differ from its encoding.
_CHANGING = re.compile(_one_of(set(_ucd.DECOMPOSITIONS) | set(_ucd.UPPER_TO_LOWER)))
_REPEATS = re.compile(f"(.)\\1\\1|(.{{2,{MAX_UNIT}}})\\2\\2", re.DOTALL)
_WHITESPACE = frozenset(chr(c) for a, b in _ucd.WHITE_SPACE_RANGES for c in range(a, b + 1))  # W, 3.2
_ALL_WHITESPACE = re.compile(f"(?:{_one_of(_WHITESPACE)})+")
_NEEDS_WORK = re.compile(f"{_CHANGING.pattern}|{FORMAT_CODE_POINT.pattern}|{_REPEATS.pattern}", re.DOTALL)


# --- 6.3 Escape and 6.4 serialization ----------------------------------------------------

def _escape(base: str) -> str:
    """Write every code point of U+E000..U+EFFF in the base as ESCAPE + that code point."""
    return FORMAT_CODE_POINT.sub(lambda m: ESCAPE_CHAR + m.group(), base)


def analyse_piece(piece: str, features: frozenset[str] = FEATURES, fold: str = "all",
                  case: str = "capitalize") -> _Encoded:
    """The instructions (in canonical order), escaped base and slot starts of one piece.

    ``fold`` and ``case`` are the encoder options of spec 6.1 and 6.2 (see :data:`PROFILES`).
    """
    if not _NEEDS_WORK.search(piece):  # most pieces of real text
        return _Encoded((), piece, tuple(range(len(piece))))
    if "repeat" in features and fold != "none" and _REPEATS.search(piece):
        slots, starts, repeats = _fold(piece, fold)
        base = "".join(slots)
    else:
        base, starts, repeats = piece, range(len(piece)), []
    mark_instructions, capitals, base = _marks_and_case(base, "marks" in features, "case" in features)
    if case == "range" and len(capitals) >= 2:  # with fewer, every capital is CAPITALIZE
        capitals = _ranges(base, capitals)
    # Canonical order (6.4): repeats by start, marks by (slot, decomposition order), the case
    # family by start slot. Each list is built in that order already.
    instructions = tuple(repeats + mark_instructions + capitals)
    return _Encoded(instructions, _escape(base), tuple(starts))


def encode_piece(piece: str, features: frozenset[str] = FEATURES, fold: str = "all",
                 case: str = "capitalize") -> str:
    """The stream form of one piece: its group followed by its base."""
    if not _NEEDS_WORK.search(piece):  # most pieces of real text
        return piece
    enc = analyse_piece(piece, features, fold, case)
    return "".join(i.code for i in enc.instructions) + enc.base if enc.instructions else enc.base


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


# One cache per form of a piece (encode_piece, or spec 9.1's pre-tokens) and encoder
# configuration (features, fold, case).
_Config = tuple[frozenset[str], str, str]
_DEFAULT_CONFIG: _Config = (FEATURES, "all", "capitalize")
_caches: dict[tuple[Callable, _Config], _PieceCache] = {}


def clear_caches() -> None:
    """Forget every cached piece (benchmarks use this for a cold start)."""
    for cache in _caches.values():
        cache.clear()


def _cache(make: Callable, config: _Config) -> _PieceCache:
    cache = _caches.get((make, config))
    if cache is None:
        features, fold, case = config
        # The default configuration calls ``make`` with its defaults: no partial on a miss.
        compute = make if config == _DEFAULT_CONFIG else partial(make, features=features, fold=fold, case=case)
        cache = _caches[make, config] = _PieceCache(compute)
    return cache


# --- The public entry points -------------------------------------------------------------

def encoder_options(profile: str = DEFAULT_PROFILE, fold: str | None = None,
                    case: str | None = None) -> Profile:
    """The ``fold`` and ``case`` options in effect (spec 6.6): the profile's, each overridden
    by an option given explicitly.

    >>> encoder_options("compact")
    Profile(fold='none', case='range')
    >>> encoder_options("compact", fold="all")
    Profile(fold='all', case='range')
    """
    chosen = PROFILES.get(profile) if isinstance(profile, str) else None
    if chosen is None:
        raise ValueError(f"unknown profile {profile!r}; known: {sorted(PROFILES)}")
    fold = chosen.fold if fold is None else fold
    case = chosen.case if case is None else case
    if fold not in FOLDS:
        raise ValueError(f"fold must be one of {FOLDS}, not {fold!r}")
    if case not in CASES:
        raise ValueError(f"case must be one of {CASES}, not {case!r}")
    return Profile(fold, case)


def check_options(normalize, features, profile=DEFAULT_PROFILE, fold=None, case=None) -> _Config:
    """The encoder configuration (features, fold, case) of these options, checked, with the
    errors every engine raises for bad ones."""
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"normalize must be 'nfc' or None, not {normalize!r}")
    features = frozenset(features)
    if not features <= FEATURES:
        raise ValueError(f"unknown features {sorted(features - FEATURES)}; known: {sorted(FEATURES)}")
    if profile == DEFAULT_PROFILE and fold is None and case is None:  # the common call
        return _DEFAULT_CONFIG if features == FEATURES else (features, "all", "capitalize")
    return (features, *encoder_options(profile, fold, case))


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
           profile: str = DEFAULT_PROFILE, fold: str | None = None, case: str | None = None,
           features: Iterable[str] = FEATURES) -> str:
    """Encode text to a stream (spec 1.1).

    >>> encode("Héllo")
    '\\ue102\\ue001\\ue100\\ue000hello'
    >>> encode("HELLO", profile="compact")
    '\\ue110\\ue000\\ue005hello'

    ``profile`` names the encoder options (:data:`PROFILES`, spec 6.6): ``"paper"`` (the
    default, the 1.0 encoder) or ``"compact"`` (no folding, range case). ``fold``
    (``"all"``, ``"no-whitespace"``, ``"none"``) and ``case`` (``"capitalize"``, ``"range"``)
    override the profile's value when given.

    ``features`` (ablation studies only) switches off case, marks or folding (6.1: the "repeat" feature); the
    result still decodes exactly but is not the canonical stream.
    """
    return "".join(encoded_pieces(text, normalize=normalize, splitter=splitter, profile=profile,
                                  fold=fold, case=case, features=features))


def encoded_pieces(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
                   profile: str = DEFAULT_PROFILE, fold: str | None = None, case: str | None = None,
                   features: Iterable[str] = FEATURES) -> list[str]:
    """Each piece of ``text`` in its stream form (:func:`encode_piece`). Options as :func:`encode`."""
    return map_pieces(encode_piece, text, normalize=normalize, splitter=splitter, profile=profile,
                      fold=fold, case=case, features=features)


def map_pieces(make: Callable, text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
               profile: str = DEFAULT_PROFILE, fold: str | None = None, case: str | None = None,
               features: Iterable[str] = FEATURES) -> list:
    """``make(piece, features, fold, case)`` for each piece of ``text``, through one bounded
    cache per ``make`` and configuration (the encoder's hot path: :func:`encoded_pieces`, and
    spec 9.1's pre-tokens in :mod:`functok.pretokenize`). Options as :func:`encode`."""
    config = check_options(normalize, features, profile, fold, case)
    return list(map(_cache(make, config).__getitem__,
                    split_pattern(splitter).findall(_normalized(text, normalize))))


def pieces(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
           profile: str = DEFAULT_PROFILE, fold: str | None = None, case: str | None = None,
           features: Iterable[str] = FEATURES) -> list[Piece]:
    """Each piece with its offsets in the original text, its instructions and its base.

    >>> [str(i) for i in pieces("Héllo")[0].instructions]
    ['ACUTE(1)', 'CAPITALIZE(0)']
    """
    features, fold, case = check_options(normalize, features, profile, fold, case)
    splitting = split_pattern(splitter)  # every option before the text (spec 6)
    check_scalar_values(text)
    if normalize == "nfc":
        from .normalize import nfc_with_offsets
        normalized, offsets = nfc_with_offsets(text)
    else:
        normalized, offsets = text, None
    result = []
    position = 0
    for piece in splitting.findall(normalized):
        end = position + len(piece)
        if offsets is None:
            start_orig, end_orig = position, end
        else:
            # A span that NFC rewrote maps all its output to the whole span (spec 4.4), so a
            # piece ends where the source of its last code point ends.
            start_orig = offsets[position]
            end_orig = offsets[bisect_right(offsets, offsets[end - 1])]
        enc = analyse_piece(piece, features, fold, case)
        result.append(Piece(piece, start_orig, end_orig, enc.instructions, enc.base, enc.slot_starts))
        position = end
    return result
