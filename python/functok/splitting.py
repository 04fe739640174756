"""The splitters (spec 5): cut text into pieces before folding.

The spec writes both splitters as `regex`-module patterns over Unicode classes:

    llama3: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}
            | ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+
    paper:  the same with \\p{N} (one number character) instead of \\p{N}{1,3}

The standard library's `re` has no `\\p{...}`, and its `\\s` follows the host's Unicode
version (and counts U+001C..U+001F as space). So this module writes every class as explicit
code point ranges taken from the pinned tables in `functok._ucd`, and the contractions as
explicit letter sets instead of re.IGNORECASE. The result yields exactly the pieces that the
`regex` module yields with the spec's text (tests/codec/test_splitting.py proves it on real and random
text), with no dependency and no host Unicode data.

Speed: in a `re` character class, code points above U+FFFF are a list of ranges searched one
by one, after the bitmap that covers the Basic Multilingual Plane. The letter class has about
300 such ranges, and a BMP character that is *not* in a class (the space that ends a word)
would walk all of them. So each big class is written as "BMP bitmap, or an astral character
that the astral ranges then confirm" (see `_one_of`); BMP text never touches the long lists.
Runs are possessive and `\\s*[\\r\\n]+` is rewritten so that it never backtracks; each rewrite
is commented where it is made. bench/python/split.py measures the result against `regex`.
"""

from __future__ import annotations

import functools
import re

__all__ = ["SPLITTERS", "SPEC_PATTERNS", "bracket", "complement", "normalized", "one_of_code_points", "pattern",
           "run_of", "split", "union"]

SPLITTERS = ("llama3", "paper")

# The spec's own text of each pattern, for `regex`. Documentation here; the tests run it.
SPEC_PATTERNS = {
    "llama3": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    "paper": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
}

MAX_CODE_POINT = 0x10FFFF
FIRST_ASTRAL = 0x10000

Ranges = tuple[tuple[int, int], ...]  # sorted, disjoint, inclusive (first, last)


# --- Range sets -------------------------------------------------------------------------
# Public, with `bracket` and `run_of` below: other patterns written over the pinned tables
# (GPT-2's pre-tokenizer in functok.tokenizer.external) are built from the same parts.


def normalized(ranges) -> Ranges:
    """Sort and merge overlapping or adjacent ranges."""
    merged: list[list[int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return tuple((first, last) for first, last in merged)


def union(*sets: Ranges) -> Ranges:
    """The code points in any of ``sets``."""
    return normalized(r for ranges in sets for r in ranges)


def complement(ranges: Ranges) -> Ranges:
    """Every code point (surrogates included: a str may hold them) not in `ranges`."""
    out, next_free = [], 0
    for first, last in normalized(ranges):
        if first > next_free:
            out.append((next_free, first - 1))
        next_free = last + 1
    if next_free <= MAX_CODE_POINT:
        out.append((next_free, MAX_CODE_POINT))
    return tuple(out)


def _minus(ranges: Ranges, removed: Ranges) -> Ranges:
    return complement(union(complement(ranges), removed))


def _clip(ranges: Ranges, low: int, high: int) -> Ranges:
    return tuple((max(a, low), min(b, high)) for a, b in ranges if b >= low and a <= high)


# --- Pattern text -----------------------------------------------------------------------


def _escape(cp: int) -> str:
    return f"\\u{cp:04x}" if cp < FIRST_ASTRAL else f"\\U{cp:08x}"


def bracket(ranges: Ranges) -> str:
    """A `re` character class holding exactly `ranges`."""
    parts = (_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in ranges)
    return "[" + "".join(parts) + "]"


def _one_of(ranges: Ranges) -> str:
    """One code point in `ranges`, written so that a BMP character is decided by a bitmap.

    The astral alternative starts with a single cheap range test, so `re` skips it for BMP
    characters before it looks at any astral range (in the look-behind).
    """
    bmp = _clip(ranges, 0, FIRST_ASTRAL - 1)
    astral = _clip(ranges, FIRST_ASTRAL, MAX_CODE_POINT)
    if not astral:
        return bracket(bmp)
    any_astral = bracket(((FIRST_ASTRAL, MAX_CODE_POINT),))
    astral_alt = any_astral
    if astral != ((FIRST_ASTRAL, MAX_CODE_POINT),):
        astral_alt += f"(?<={_astral_lookup(astral)})"
    if not bmp:
        return f"(?:{astral_alt})"
    return f"(?:{bracket(bmp)}|{astral_alt})"


ASTRAL_CHUNK = 16  # ranges per chunk: about the square root of the letter class's ~300


def _astral_lookup(astral: Ranges) -> str:
    """One code point in `astral`, tested in two steps instead of range by range.

    `re` tests the ranges of a class one at a time, so a character outside a class of 300
    ranges costs 300 tests. Here the ranges go in chunks of ASTRAL_CHUNK: an alternative per
    chunk first tests the chunk's whole span (which `re` does before entering it), and only
    the one chunk whose span holds the character tests its own ranges. Chunks run from the
    top down, where the common astral characters are (emoji, CJK ideographs in planes 2-3).
    """
    chunks = [astral[i:i + ASTRAL_CHUNK] for i in range(0, len(astral), ASTRAL_CHUNK)]
    alternatives = []
    for chunk in reversed(chunks):
        span = bracket(((chunk[0][0], chunk[-1][1]),))
        alternatives.append(span if len(chunk) == 1 else f"{span}(?<={bracket(chunk)})")
    return "|".join(alternatives)


def run_of(ranges: Ranges) -> str:
    """The longest run (one or more) of code points in `ranges`, never given back.

    Possessive is safe wherever this is used: each run ends its alternative or is followed
    only by something it cannot contain, so `regex` never backtracks into it either.
    """
    bmp = _clip(ranges, 0, FIRST_ASTRAL - 1)
    if bmp == ranges:
        return bracket(bmp) + "++"
    # One character, then BMP stretches (a fast bitmap loop) separated by single astral
    # characters. `re` cannot loop over `_one_of` as fast as over a plain class.
    astral = _one_of(_clip(ranges, FIRST_ASTRAL, MAX_CODE_POINT))
    if not bmp:
        return astral + "++"
    more_bmp = bracket(bmp) + "*+"
    return f"{_one_of(ranges)}{more_bmp}(?:{astral}{more_bmp})*+"


def _build(splitter: str) -> str:
    """The `re` pattern text of one splitter, alternative by alternative as in the spec."""
    from . import _ucd  # on first use only: importing functok stays cheap

    letter = normalized(_ucd.LETTER_RANGES)
    number = normalized(_ucd.NUMBER_RANGES)
    space = normalized(_ucd.WHITE_SPACE_RANGES)
    newline = ((0x0A, 0x0A), (0x0D, 0x0D))
    ws = bracket(space)  # White_Space lies wholly in the BMP: one bitmap

    alternatives = [
        # (?i:'s|'t|'re|'ve|'m|'ll|'d): simple case folding adds only U+017F (long s) to s.
        "'[sS\\u017f]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]",
        # [^\r\n\p{L}\p{N}]?\p{L}+ : an optional prefix character, then a word. The empty
        # last alternative is the `?` (tried after the character, as greedy `?` is).
        f"(?:{_one_of(complement(union(newline, letter, number)))}|){run_of(letter)}",
        # \p{N}{1,3} (llama3) or \p{N} (paper): digits in groups of up to three, or one.
        # (Possessive changes nothing: the repeat ends the alternative.)
        f"{_one_of(number)}{{1,3}}+" if splitter == "llama3" else _one_of(number),
        # ' ?[^\s\p{L}\p{N}]+[\r\n]*' : punctuation and symbols, with one leading space and
        # any trailing line breaks.
        f" ?{run_of(complement(union(space, letter, number)))}[\\r\\n]*",
        # \s*[\r\n]+ : whitespace up to and including the last line break of its run.
        # Written as repeated "spaces, then a line break" so that a run with no line break
        # (indentation) fails in one pass instead of giving back one space at a time.
        f"(?:{bracket(_minus(space, newline))}*+[\\r\\n])++",
        # \s+(?!\S) : whitespace, leaving the last space to start the next word.
        f"{ws}+(?!{bracket(complement(space))})",
        # \s+ : what remains (whitespace before a word, or a lone space).
        f"{ws}+",
    ]
    return "|".join(alternatives)


@functools.cache
def _compiled(splitter: str) -> re.Pattern[str]:
    return re.compile(_build(splitter))


def pattern(splitter: str) -> re.Pattern[str]:
    """The compiled `re` pattern of a splitter (built on first use, then cached).

    It has no capturing groups, so `pattern(s).findall(text)` returns the pieces.
    """
    if splitter not in SPLITTERS:
        raise ValueError(f"unknown splitter {splitter!r}; expected one of {', '.join(SPLITTERS)}")
    return _compiled(splitter)


def split(text: str, *, splitter: str = "llama3") -> list[str]:
    """Cut `text` into pieces; the pieces concatenate back to `text`.

    >>> split("We'll meet at 10:30, won't we?")
    ['We', "'ll", ' meet', ' at', ' ', '10', ':', '30', ',', ' won', "'t", ' we', '?']
    >>> split("in 2026", splitter="paper")
    ['in', ' ', '2', '0', '2', '6']
    """
    return pattern(splitter).findall(text)


def one_of_code_points(code_points) -> str:
    """A `re` pattern for one code point of ``code_points`` (ints), fast on BMP text.

    The encoder uses it for its "does this piece change?" check (added by the lead).
    """
    return _one_of(normalized((cp, cp) for cp in code_points))
