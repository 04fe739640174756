"""Pinned Unicode data for functok (spec section 3), decoded from ``_ucd_data``.

spec/tools/generate.py writes the data (the normative, readable tables are spec/unicode/*.txt)
as packed hex strings in ``_ucd_data``; this module decodes them once, at import. Ranges are
inclusive (first, last) int pairs, sorted and merged. Nothing here consults the host's Unicode
data.
"""

from __future__ import annotations

from . import _ucd_data as _data


def _ranges(packed: str) -> tuple[tuple[int, ...], ...]:
    """ "first..last:value" entries (hex; "..last" and ":value" optional) -> int tuples."""
    rows = []
    for entry in packed.split():
        span, *values = entry.split(":")
        first, _, last = span.partition("..")
        rows.append((int(first, 16), int(last or first, 16), *(int(v, 16) for v in values)))
    return tuple(rows)


def _fields(packed: str) -> list[list[int]]:
    """ "a:b:c" entries (hex) -> lists of ints."""
    return [[int(f, 16) for f in entry.split(":")] for entry in packed.split()]


UNICODE_VERSION = _data.UNICODE_VERSION

# The 13 marks (spec 2.3) in opcode order (U+E101..U+E10D).
MARKS = _data.MARKS

# General_Category L*, N*, and the White_Space property: (first, last).
LETTER_RANGES = _ranges(_data.LETTER_RANGES)
NUMBER_RANGES = _ranges(_data.NUMBER_RANGES)
WHITE_SPACE_RANGES = _ranges(_data.WHITE_SPACE_RANGES)

# Canonical decomposition mappings, one level, packed: char:part[:part] (Hangul excluded).
_CANONICAL_MAPPINGS = _data.CANONICAL_MAPPINGS

# Canonical combining classes other than 0: (first, last, class).
_COMBINING_CLASS_RANGES = _ranges(_data.COMBINING_CLASS_RANGES)

# Full_Composition_Exclusion, which is NFC_Quick_Check No; and NFC_Quick_Check Maybe.
_COMPOSITION_EXCLUSION_RANGES = _ranges(_data.COMPOSITION_EXCLUSION_RANGES)
_NFC_QC_NO_RANGES = _COMPOSITION_EXCLUSION_RANGES
_NFC_QC_MAYBE_RANGES = _ranges(_data.NFC_QC_MAYBE_RANGES)


def _case_pairs():
    """The simple case pairs, from runs first_upper:count:stride:delta: upper = first_upper +
    k * stride and lower = upper + delta, for 0 <= k < count."""
    for first, count, stride, delta in _fields(_data.CASE_RUNS):
        for k in range(count):
            upper = first + k * stride
            yield chr(upper), chr(upper + delta)


UPPER_TO_LOWER: dict[str, str] = dict(_case_pairs())
LOWER_TO_UPPER: dict[str, str] = {low: up for up, low in UPPER_TO_LOWER.items()}


def _mark_decompositions():
    """composed:base:marks entries, each mark one hex digit (its index in MARKS)."""
    for entry in _data.MARK_DECOMPOSITIONS.split():
        composed, base, marks = entry.split(":")
        yield chr(int(composed, 16)), (
            chr(int(base, 16)),
            "".join(MARKS[int(m, 16)] for m in marks),
        )


# composed char -> (base char, marks in canonical decomposition order), and its inverse.
DECOMPOSITIONS: dict[str, tuple[str, str]] = dict(_mark_decompositions())
COMPOSITIONS: dict[tuple[str, str], str] = {v: k for k, v in DECOMPOSITIONS.items()}

del _case_pairs, _mark_decompositions
