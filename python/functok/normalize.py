"""NFC from the pinned Unicode 18.0.0 tables, with offsets (spec 4).

The normalization form C of UAX #15, computed from ``_ucd`` alone: the host's ``unicodedata``
is never used, because its Unicode version differs from host to host (CPython 3.11 has 14.0,
Pyodide on Python 3.14 has 16.0), and the format must give the same output everywhere.

Speed comes from the quick check. A character is *stable* when its canonical combining class is
0 and its NFC_Quick_Check is Yes: nothing before it can combine or reorder with it, so NFC never
changes text across the boundary in front of it. A C-level ``re`` search for characters that are
not stable, window by window, skipping all-ASCII windows at memory speed, decides most inputs:
already-NFC text is returned as it is, with no per-character Python loop. Otherwise only the
*spans* that need work are normalized: a run of such characters together with the stable
character just before it (the starter it may compose with). Everything else is copied by
slicing, and the spans' results are cached, since natural text repeats them.

>>> nfc("e\\u0301")
'é'
>>> nfc_with_offsets("cafe\\u0301!")
('café!', [0, 1, 2, 3, 5, 6])
>>> nfc_with_offsets("café") == ("café", None)
True
"""

from __future__ import annotations

import re

from . import _ucd

__all__ = ["nfc", "nfc_with_offsets", "is_nfc"]


# --------------------------------------------------------------------------------------------
# Tables, built once at import from the compact data in _ucd.


def _code_points(ranges):
    for first, last, *_ in ranges:
        yield from range(first, last + 1)


def _combining_classes() -> dict[str, int]:
    return {
        chr(cp): ccc
        for first, last, ccc in _ucd._COMBINING_CLASS_RANGES
        for cp in range(first, last + 1)
    }


def _canonical_mappings() -> dict[str, str]:
    """One-level canonical decomposition mappings, char -> str."""
    return {
        chr(cp): "".join(map(chr, parts))
        for cp, *parts in _ucd._fields(_ucd._CANONICAL_MAPPINGS)
    }


def _full_decompositions(mappings: dict[str, str]) -> dict[str, str]:
    """Mappings applied recursively (a mapping's parts may decompose again)."""

    def full(ch: str) -> str:
        if ch not in mappings:
            return ch
        return "".join(full(part) for part in mappings[ch])

    return {ch: full(ch) for ch in mappings}


def _primary_composites(mappings: dict[str, str]) -> dict[str, str]:
    """(first + second) -> composite for every two-part mapping not excluded from composition."""
    excluded = {chr(cp) for cp in _code_points(_ucd._COMPOSITION_EXCLUSION_RANGES)}
    return {
        parts: ch for ch, parts in mappings.items() if len(parts) == 2 and ch not in excluded
    }


def _unstable_code_points() -> list[int]:
    """Every code point that is not stable: ccc != 0, or NFC_Quick_Check No or Maybe."""
    cps = set(_code_points(_ucd._COMBINING_CLASS_RANGES))
    cps.update(_code_points(_ucd._NFC_QC_NO_RANGES))
    cps.update(_code_points(_ucd._NFC_QC_MAYBE_RANGES))
    return sorted(cps)


def _char_class(cps: list[int]) -> str:
    """The inside of a regex character class matching exactly ``cps`` (merged ranges)."""
    items: list[list[int]] = []
    for cp in cps:
        if items and cp == items[-1][1] + 1:
            items[-1][1] = cp
        else:
            items.append([cp, cp])
    # Literal characters parse faster than escapes (none of these is special inside a class).
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in items)


_CCC = _combining_classes()
_MAPPINGS = _canonical_mappings()
_DECOMPOSE = _full_decompositions(_MAPPINGS)
_COMPOSE = _primary_composites(_MAPPINGS)
del _MAPPINGS

_UNSTABLE_CPS = _unstable_code_points()
_UNSTABLE_SET = frozenset(map(chr, _UNSTABLE_CPS))
_QC_NOT_YES = sorted(_code_points(_ucd._NFC_QC_NO_RANGES + _ucd._NFC_QC_MAYBE_RANGES))

# Finding the work. The search runs over every character of the input, so its classes must be
# cheap: `re` tests a class's BMP part with one table lookup but its astral ranges one by one
# (about a hundred of them). So the search scans for *candidates*: the unstable BMP characters
# and every astral character. Astral characters are rare; the stable ones are sorted out later.
#
# A *run* is a maximal run of candidates, and a *span* is a run plus the stable character before
# it (the starter the run may compose with; absent at the start of the text). Both ends of a span
# are boundaries that NFC does not act across, so spans normalize independently.
#
# A run of one character with NFC_QC Yes never changes: a stable astral character (an emoji)
# trivially, and a combining mark (as after most Indic consonants) because it cannot combine
# with the stable character before it and has nothing to be reordered with. _RUN skips those and
# finds every other run, in C: runs of two or more, and single NFC_QC No or Maybe characters
# (tested with the exact class, which is slow but runs at candidates only). It starts with a
# plain class so that `re` scans ahead to candidates fast (a leading optional character or an
# alternation would make it try the pattern at every position of the text).
_ASTRAL = "\U00010000-\U0010ffff"
_CANDIDATES = _ASTRAL + _char_class([cp for cp in _UNSTABLE_CPS if cp < 0x10000])
_RUN = re.compile(f"[{_CANDIDATES}](?:[{_CANDIDATES}]+|(?<=[{_char_class(_QC_NOT_YES)}]))")
# Inside long spans only: the maximal runs of exactly the unstable characters.
_EXACT_RUN = re.compile(f"[{_char_class(_UNSTABLE_CPS)}]+")

# Hangul syllables (Unicode section 3.12), handled algorithmically.
_S_BASE, _L_BASE, _V_BASE, _T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
_L_COUNT, _V_COUNT, _T_COUNT = 19, 21, 28
_N_COUNT = _V_COUNT * _T_COUNT
_S_COUNT = _L_COUNT * _N_COUNT


# --------------------------------------------------------------------------------------------
# The three steps of NFC on one span: decompose, order canonically, compose.


def _decompose(span: str) -> list[str]:
    out: list[str] = []
    for ch in span:
        d = _DECOMPOSE.get(ch)
        if d is not None:
            out.extend(d)
            continue
        s = ord(ch) - _S_BASE
        if 0 <= s < _S_COUNT:
            out.append(chr(_L_BASE + s // _N_COUNT))
            out.append(chr(_V_BASE + s % _N_COUNT // _T_COUNT))
            if s % _T_COUNT:
                out.append(chr(_T_BASE + s % _T_COUNT))
        else:
            out.append(ch)
    return out


def _order(chars: list[str]) -> None:
    """Canonical ordering in place: each run of non-starters is sorted stably by class."""
    ccc = _CCC
    i, n = 0, len(chars)
    while i < n:
        if chars[i] not in ccc:
            i += 1
            continue
        j = i + 1
        while j < n and chars[j] in ccc:
            j += 1
        if j - i > 1:
            chars[i:j] = sorted(chars[i:j], key=ccc.__getitem__)
        i = j


def _pair(first: str, second: str) -> str | None:
    """The primary composite of two characters, or None (Hangul LV and LVT included)."""
    composite = _COMPOSE.get(first + second)
    if composite is not None:
        return composite
    l_index = ord(first) - _L_BASE
    if 0 <= l_index < _L_COUNT:
        v_index = ord(second) - _V_BASE
        if 0 <= v_index < _V_COUNT:
            return chr(_S_BASE + (l_index * _V_COUNT + v_index) * _T_COUNT)
        return None
    s_index = ord(first) - _S_BASE
    if 0 <= s_index < _S_COUNT and s_index % _T_COUNT == 0:
        t_index = ord(second) - _T_BASE
        if 0 < t_index < _T_COUNT:
            return chr(ord(first) + t_index)
    return None


def _compose(chars: list[str]) -> str:
    """Canonical composition (UAX #15, 'Canonical Composition Algorithm').

    Each character is tried against the last starter. It is blocked from it when a character
    left between them has class 0 or a class >= its own; since the marks are in canonical order,
    it is enough to compare with the last one left (``last_class``; 0 means none is left, the
    character is adjacent to the starter). An unblocked character that forms a primary composite
    with the starter replaces the starter and disappears. A span that starts with a non-starter
    has no starter until its first class-0 character.
    """
    if not chars:
        return ""
    ccc = _CCC
    out = [chars[0]]
    starter_pos = 0
    starter = chars[0]
    # 256 = "blocked": a leading non-starter is no starter to compose with.
    last_class = 256 if starter in ccc else 0
    for ch in chars[1:]:
        ch_class = ccc.get(ch, 0)
        if last_class < ch_class or last_class == 0:
            composite = _pair(starter, ch)
            if composite is not None:
                out[starter_pos] = starter = composite
                continue
        if ch_class == 0:
            starter_pos = len(out)
            starter = ch
        last_class = ch_class
        out.append(ch)
    return "".join(out)


def _normalize_span(span: str) -> str:
    chars = _decompose(span)
    _order(chars)
    return _compose(chars)


_CACHE: dict[str, str] = {}
_CACHE_LIMIT = 1 << 16  # entries; cleared when full
_CACHE_SPAN_MAX = 32  # longer spans are rare and not worth keeping


def _span_nfc(span: str) -> str:
    """NFC of one span; short spans are cached, since natural text repeats them."""
    out = _CACHE.get(span)
    if out is None:
        if len(span) > _CACHE_SPAN_MAX:
            return _long_span_nfc(span)
        out = _normalize_span(span)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[span] = out
    return out


def _long_span_nfc(span: str) -> str:
    """A long span is often a run of stable astral characters (CJK Extension B, say): return
    those as they are, and normalize only the exactly unstable spans inside."""
    if _UNSTABLE_SET.isdisjoint(span):
        return span
    parts, done = [], 0
    for match in _EXACT_RUN.finditer(span):
        start, end = match.span()
        start = max(start - 1, done)
        parts.append(span[done:start])
        parts.append(_normalize_span(span[start:end]))
        done = end
    parts.append(span[done:])
    return "".join(parts)


_CHUNK = 4096  # characters


def _runs(text: str):
    """(start, end) of each run of ``text`` that _RUN finds, left to right.

    Same as iterating ``_RUN.finditer(text)``, but the text is taken in windows, and a window
    that is all ASCII (most of them in code or English) is skipped at memory-copy speed.
    Consecutive windows overlap by one character so that no two-character run is cut in two, and
    a run that reaches a window's end is matched again in full.
    """
    n = len(text)
    pos = 0
    search, match = _RUN.search, _RUN.match
    while pos < n:
        end = pos + _CHUNK
        if text[pos:end].isascii():
            pos = end
            continue
        while pos < end:
            found = search(text, pos, end + 1)
            if found is None:
                break
            start, pos = found.span()
            if pos > end:
                pos = match(text, start).end()
            yield start, pos
        pos = max(pos, end)


def _changed_spans(text: str):
    """(start, end, nfc) for each span of ``text`` that NFC changes, left to right.

    The spans are exactly those of spec 4.4: a run that holds an astral character may hold a
    stable one (an emoji beside a combining mark), which ends a span there, so such a run is cut
    into the maximal runs of unstable characters inside it, each with the stable character
    before it. The text NFC gives is the same either way; the offsets are the spec's.
    """
    span_nfc = _span_nfc
    for start, end in _runs(text):
        run = text[start:end]
        if max(run) > "\uffff":
            yield from _exact_changed_spans(text, start, end)
            continue
        if start:
            start -= 1  # the stable character before the run
        span = text[start:end]
        out = span_nfc(span)
        if out != span:
            yield start, end, out


def _exact_changed_spans(text: str, start: int, end: int):
    """_changed_spans inside one run text[start:end] that holds astral characters."""
    span_nfc = _span_nfc
    for match in _EXACT_RUN.finditer(text, start, end):
        s, e = match.span()
        if s:
            s -= 1  # the stable character before: before the run, or a stable astral one in it
        span = text[s:e]
        out = span_nfc(span)
        if out != span:
            yield s, e, out


# --------------------------------------------------------------------------------------------
# Public API


def nfc(text: str) -> str:
    """The NFC of ``text`` at Unicode 18.0.0. Already-NFC input is returned as is.

    >>> nfc("A\\u030a\\u0301") == "\\u01fa"
    True
    """
    if text.isascii():
        return text
    parts, done = [], 0
    for start, end, out in _changed_spans(text):
        parts.append(text[done:start])
        parts.append(out)
        done = end
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def nfc_with_offsets(text: str) -> tuple[str, list[int] | None]:
    """NFC of ``text`` and where each result character comes from.

    Returns ``(result, None)`` when ``result == text`` (the identity). Otherwise ``offsets`` has
    ``len(result) + 1`` entries: ``offsets[j]`` is the index in ``text`` of the character that
    result character ``j`` comes from, and ``offsets[-1] == len(text)``; the list never
    decreases. Inside a span that NFC changed (recomposed or reordered), every result character
    maps to the span's start.

    >>> nfc_with_offsets("a\\u0328\\u0301z")
    ('ą́z', [0, 0, 3, 4])
    """
    if text.isascii():
        return text, None
    parts: list[str] = []
    offsets: list[int] = []
    done = 0  # text[:done] is in parts already
    for start, end, out in _changed_spans(text):
        parts.append(text[done:start])
        offsets.extend(range(done, start))
        parts.append(out)
        offsets.extend([start] * len(out))
        done = end
    if not parts:
        return text, None
    parts.append(text[done:])
    offsets.extend(range(done, len(text) + 1))
    return "".join(parts), offsets


def is_nfc(text: str) -> bool:
    """Whether ``text`` is in NFC (exact: the quick check, then the spans it cannot decide).

    >>> is_nfc("café"), is_nfc("cafe\\u0301")
    (True, False)
    """
    return text.isascii() or next(_changed_spans(text), None) is None
