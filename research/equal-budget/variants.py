"""Prototype encoders: the 1.0 encoder re-implemented with options, so that range case and the
whitespace option can be measured without changing functok. ``check()`` proves that the
default options reproduce functok's own pieces (instructions and base) on a corpus.

A variant is a function piece -> list of pre-tokens.
"""
from __future__ import annotations
import re
from functools import lru_cache
from functok import _ucd
from functok.encode import analyse_piece, FEATURES, MIN_RUN, MAX_UNIT
from functok.opcodes import NAME_TO_OPCODE, MAX_ARGUMENT, argument

UPPERCASE_OP = "\ue110"  # pretend code point of UPPERCASE(start, end)
_RUN = re.compile(r"(.)\1*", re.DOTALL)
_ESC = re.compile("[\ue000-\uefff]")


def _ws_set():
    s = set()
    for a, b in _ucd.WHITE_SPACE_RANGES:
        s.update(map(chr, range(a, b + 1)))
    return frozenset(s)


WS = _ws_set()


def code(name, args):
    op = UPPERCASE_OP if name == "UPPERCASE" else chr(NAME_TO_OPCODE[name])
    return op + "".join(map(argument, args))


# --- folding (spec 6.1) with a whitespace option ------------------------------------------------

def fold(piece, ws_literal=False):
    """ws_literal: a run, or a MULTIREPEAT unit, made only of whitespace stays literal."""
    slots, repeats = [], []
    n, i = len(piece), 0
    while i < n:
        if len(slots) > MAX_ARGUMENT:
            slots.extend(piece[i:])
            break
        ch = piece[i]
        run = _RUN.match(piece, i).end() - i
        if run >= MIN_RUN:
            if ws_literal and ch in WS:
                slots.extend(ch * run)
                i += run
                continue
            left = run
            while left:
                chunk = min(MAX_ARGUMENT, left)
                slot = len(slots)
                if chunk >= MIN_RUN and slot <= MAX_ARGUMENT:
                    repeats.append(("REPEAT", (slot, chunk)))
                    slots.append(ch)
                else:
                    slots.extend(ch * chunk)
                left -= chunk
            i += run
            continue
        got = 0
        start = len(slots)
        for L in range(2, MAX_UNIT + 1):
            if start + L > MAX_ARGUMENT or i + MIN_RUN * L > n:
                break
            unit = piece[i:i + L]
            k = 1
            while k < MAX_ARGUMENT and piece.startswith(unit, i + k * L):
                k += 1
            if k >= MIN_RUN:
                if ws_literal and all(c in WS for c in unit):
                    break  # literal: fall through to one literal slot
                repeats.append(("MULTIREPEAT", (start, start + L, k)))
                slots.extend(unit)
                got = L * k
                break
        if got:
            i += got
            continue
        slots.append(ch)
        i += 1
    return slots, repeats


# --- marks and case (spec 6.2) with range case --------------------------------------------------

def marks_case(slots, marks=True, case=True, rng=None, tl=False):
    """rng: None (CAPITALIZE per slot) or dict(min_run, gaps, edges). tl: case instructions only
    for Title case (one capital, the first letter) and all-caps pieces; a piece with capitals
    elsewhere (camelCase, PascalCase, HTTPServer) keeps its case literal."""
    diacritics, kinds = [], []  # kinds: 'C' capital lowered, 'L' lower member kept, 'N' no pair
    out = list(slots)
    for s, c in enumerate(slots):
        if s > MAX_ARGUMENT:
            kinds.append("X")
            continue
        if marks and c in _ucd.DECOMPOSITIONS:
            c, ms = _ucd.DECOMPOSITIONS[c]
            diacritics.extend((_MARK_NAME[m], (s,)) for m in ms)
        if case and c in _ucd.UPPER_TO_LOWER:
            c = _ucd.UPPER_TO_LOWER[c]
            kinds.append("C")
        else:
            kinds.append("L" if c in _ucd.LOWER_TO_UPPER else "N")
        out[s] = c
    caps = [s for s, k in enumerate(kinds) if k == "C"]
    if tl and caps:
        first_letter = next((s for s, k in enumerate(kinds) if k in "CL"), None)
        title = caps == [first_letter]
        allcaps = "L" not in kinds
        if not (title or allcaps):
            for s in caps:
                out[s] = _ucd.LOWER_TO_UPPER[out[s]]
            caps = []
    if rng is None or len(caps) < 2:
        case_ins = [("CAPITALIZE", (s,)) for s in caps]
    else:
        case_ins = ranges(kinds, **rng)
    return diacritics, case_ins, out


def ranges(kinds, min_run=2, gaps=False, edges=False):
    """Runs of capitals -> UPPERCASE(start, end); the rest CAPITALIZE. gaps: slots without a case
    pair may sit inside a run; edges: a run also takes the pairless slots around it."""
    ok = set("CN") if gaps else {"C"}
    ins = []
    n = min(len(kinds), MAX_ARGUMENT)  # end <= 255
    s = 0
    while s < n:
        if kinds[s] not in ok:
            s += 1
            continue
        e = s
        while e < n and kinds[e] in ok:
            e += 1
        a, b = s, e
        if not edges:
            while a < b and kinds[a] != "C":
                a += 1
            while b > a and kinds[b - 1] != "C":
                b -= 1
        ncap = sum(1 for k in kinds[a:b] if k == "C")
        if ncap >= min_run:
            ins.append(("UPPERCASE", (a, b)))
        else:
            ins.extend(("CAPITALIZE", (j,)) for j in range(a, b) if kinds[j] == "C")
        s = e
    # capitals past slot 254 (rare): CAPITALIZE
    ins.extend(("CAPITALIZE", (j,)) for j in range(n, min(len(kinds), MAX_ARGUMENT + 1)) if kinds[j] == "C")
    return ins


_MARK_NAME = {}
for _m, _op in __import__("functok.opcodes", fromlist=["MARK_TO_OPCODE"]).MARK_TO_OPCODE.items():
    from functok.opcodes import OPCODES
    _MARK_NAME[_m] = OPCODES[_op].name


def escape(base):
    return _ESC.sub(lambda m: "\uefff" + m.group(), base)


def analyse(piece, repeat="all", marks=True, case=True, rng=None, tl=False):
    """-> (list of instruction codes in canonical order, base). repeat: all | ws_piece (no folding
    in a piece made only of whitespace) | ws_run (no whitespace-only run/unit folds) | none."""
    if repeat == "none" or (repeat == "ws_piece" and all(c in WS for c in piece)):
        slots, reps = list(piece), []
    else:
        slots, reps = fold(piece, ws_literal=(repeat == "ws_run"))
    dia, cas, out = marks_case(slots, marks, case, rng, tl)
    cas.sort(key=lambda x: x[1][0])
    ins = [code(n, a) for n, a in reps + dia + cas]
    return ins, escape("".join(out))


def check(counts, n=None):
    """Default options == functok.analyse_piece on every distinct piece."""
    bad = 0
    for p in list(counts)[:n]:
        e = analyse_piece(p, FEATURES)
        mine = analyse(p)
        if mine != ([i.code for i in e.instructions], e.base):
            bad += 1
    return bad


# --- variants: piece -> pre-tokens --------------------------------------------------------------

def make(repeat="all", marks=True, case=True, rng=None, fuse="split", fused_set=None, first=False, tl=False):
    """fuse: split (each instruction its own pre-token) | group (the whole group one pre-token) |
    fused (group + base one pre-token) | set (fused when the piece is in fused_set, else split).
    first: fuse only the group with the base's first code point (rest of base separate)."""
    @lru_cache(maxsize=None)
    def fn(piece):
        ins, base = analyse(piece, repeat, marks, case, rng, tl)
        if not ins:
            return (base,)
        mode = fuse
        if fuse == "set":
            mode = "fused" if piece in fused_set else "split"
        elif fuse == "setgroup":
            mode = "fused" if piece in fused_set else "group"
        if mode == "fused":
            return ("".join(ins) + base,)
        if mode == "group":
            return ("".join(ins), base)
        if mode == "first":
            return tuple(["".join(ins) + base[0]] + ([base[1:]] if len(base) > 1 else []))
        return tuple(ins) + (base,)
    return fn


VARIANTS = {
    "baseline": lambda p: (p,),
    "paper_split": make(),
    "paper_fused": make(fuse="fused"),
}
