"""The splitters (format v1, section 4) against the `regex` module running the spec's text.

functok.splitting rewrites both patterns for the standard library's `re` (explicit ranges from the
pinned tables, explicit contraction letters, possessive runs). These tests prove that it yields
exactly the pieces `regex` yields with the original pattern text: on every code point, on the
standard library's source, on the UDHR corpus, on random text, and on inputs built to make a
backtracking engine work hard. `regex` 2026.11.15 implements Unicode 18.0.0, the version the
tables are pinned to, so both sides use the same character data.
"""

from __future__ import annotations

import doctest
import importlib
import os
import re
import sysconfig
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from functok import _ucd
from functok.splitting import SPLITTERS, pattern, split

split_module = importlib.import_module("functok.splitting")

EXAMPLES = int(os.environ.get("FUNCTOK_HYPOTHESIS_EXAMPLES", "200"))

# The spec's text (format-v1.md section 4), copied here rather than imported, so that the oracle
# does not share a typo with the code under test. `paper` has \p{N} where llama3 has \p{N}{1,3}.
LLAMA3 = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
PAPER = LLAMA3.replace(r"\p{N}{1,3}", r"\p{N}")
ORACLES = {"llama3": regex.compile(LLAMA3), "paper": regex.compile(PAPER)}

UDHR = Path(__file__).parents[2] / "corpora" / "udhr"  # in the repository (corpora/README.md)


def assert_same_pieces(text: str, splitter: str, label: str = "") -> None:
    """split() equals the oracle on `text`; on failure, show where they first differ."""
    expected = ORACLES[splitter].findall(text)
    got = split(text, splitter=splitter)
    if got == expected:
        return
    i = next((k for k, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
    offset = sum(map(len, expected[:i]))
    pytest.fail(
        f"{splitter} {label}: piece {i} at offset {offset} differs:\n"
        f"  got      {got[max(0, i - 2):i + 3]!r}\n  expected {expected[max(0, i - 2):i + 3]!r}"
    )


# --- The module's contract --------------------------------------------------------------


def test_spec_text_is_what_the_module_documents():
    assert PAPER != LLAMA3 and LLAMA3.count(r"\p{N}{1,3}") == 1
    assert split_module.SPEC_PATTERNS == {"llama3": LLAMA3, "paper": PAPER}
    assert SPLITTERS == ("llama3", "paper")


@pytest.mark.parametrize("name", ["", "LLAMA3", "gpt2", "paper "])
def test_unknown_splitter_names_the_valid_ones(name):
    for call in (lambda: pattern(name), lambda: split("abc", splitter=name)):
        with pytest.raises(ValueError, match="llama3.*paper"):
            call()


@pytest.mark.parametrize("splitter", SPLITTERS)
def test_pattern_is_cached_and_findall_returns_strings(splitter):
    assert pattern(splitter) is pattern(splitter)
    assert pattern(splitter).groups == 0  # else findall would return groups, not pieces
    assert pattern(splitter).findall("Hi 123!") == split("Hi 123!", splitter=splitter)
    assert pattern(splitter).flags & (re.IGNORECASE | re.ASCII) == 0  # explicit letter sets


def test_docstring_examples():
    failures, tried = doctest.testmod(split_module)
    assert tried > 0 and failures == 0


def test_known_pieces():
    # Hand-checked examples; the oracle tests below cover the rest.
    assert split("He's 12345 x\r\n\n  y") == ["He", "'s", " ", "123", "45", " x", "\r\n\n", " ", " y"]
    assert split("12345", splitter="paper") == list("12345")
    assert split("\x1c\x1d") == ["\x1c\x1d"]  # U+001C..U+001F are not White_Space
    assert split("a\u2028b") == ["a", "\u2028b"]  # ... but U+2028 is, and it is no \r or \n


# --- Character classes: every code point --------------------------------------------------


ALL_CODE_POINTS = "".join(map(chr, range(0x110000)))  # lone surrogates too


def in_context(code_points) -> str:
    """Each code point c in contexts that exercise every alternative: a word's prefix, start
    and continuation, after a digit, before a line break, after an apostrophe, after a symbol."""
    return "".join(f" {c}{c}a{c}1{c}\n'{c}a.{c} " for c in map(chr, code_points))


def range_edges() -> list[int]:
    """Code points at and next to every range edge of the classes, plus a sparse sample."""
    edges = set(range(0, 0x110000, 61))
    for table in (_ucd.LETTER_RANGES, _ucd.NUMBER_RANGES, _ucd.WHITE_SPACE_RANGES):
        for first, last in table:
            edges.update((first - 1, first, last, last + 1))
    return sorted(cp for cp in edges if 0 <= cp <= 0x10FFFF)


def test_every_code_point_llama3():
    # Exhaustive, once: `paper` differs only in the number alternative's repetition.
    assert_same_pieces(in_context(range(0x110000)), "llama3", "every code point")


def test_every_bmp_code_point_and_range_edge_paper():
    assert_same_pieces(in_context(range(0x10000)), "paper", "BMP")
    assert_same_pieces(in_context(range_edges()), "paper", "range edges")


@pytest.mark.parametrize(
    "table, oracle",
    [("LETTER_RANGES", r"\p{L}+"), ("NUMBER_RANGES", r"\p{N}+"), ("WHITE_SPACE_RANGES", r"\s+")],
)
def test_pinned_tables_agree_with_the_oracle(table, oracle):
    # The tables the pattern is built from are the classes `regex` uses for the spec's text.
    spans = [m.span() for m in regex.finditer(oracle, ALL_CODE_POINTS)]
    assert tuple((a, b - 1) for a, b in spans) == split_module.normalized(getattr(_ucd, table))


@pytest.mark.parametrize("letter", "strevmld")
def test_contraction_letters_are_the_simple_case_folds(letter):
    spec = {"s": "sS\u017f"}.get(letter, letter + letter.upper())
    folds = set(regex.findall(f"(?i:{letter})", ALL_CODE_POINTS))
    assert folds == set(spec)  # what the spec states is what `regex` does
    for c in folds | {"K", "\u212a", "\u00df", "\u0131", "\u0130"}:
        for splitter in SPLITTERS:
            for text in (f"'{c}", f"'{c}e", f"'r{c}", f"'{c}{c}", f"x'{c}y"):
                assert_same_pieces(text, splitter, repr(text))


# --- Real text ---------------------------------------------------------------------------


def stdlib_sources() -> tuple[dict[str, str], int]:
    """Every .py file of the standard library (no site-packages), and how many were skipped."""
    root = Path(sysconfig.get_paths()["stdlib"])
    texts, undecodable = {}, 0
    for path in sorted(root.rglob("*.py")):
        if {"site-packages", "dist-packages"} & set(path.parts):
            continue
        try:
            texts[str(path.relative_to(root))] = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            undecodable += 1
    return texts, undecodable


@pytest.mark.parametrize("splitter", SPLITTERS)
def test_standard_library_source(splitter):
    texts, undecodable = stdlib_sources()
    print(f"stdlib: {len(texts)} files compared, {undecodable} undecodable files skipped")
    assert len(texts) > 500 and undecodable < len(texts) // 100
    for name, text in texts.items():
        assert_same_pieces(text, splitter, name)


@pytest.mark.parametrize("splitter", SPLITTERS)
def test_udhr_corpus(splitter):
    files = sorted(p for p in UDHR.iterdir() if p.is_file())
    assert files, f"{UDHR} is empty"
    for path in files:
        assert_same_pieces(path.read_text(encoding="utf-8"), splitter, path.name)


# --- Random text -------------------------------------------------------------------------

# Characters the pattern treats specially: the whitespace set (with its near misses U+001C..
# U+001F), apostrophes and contraction letters with their folds and look-alikes.
TRICKY = (
    "\r\n\t\x0b\x0c \x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u200b\u2028\u2029\u202f\u205f"
    "\u3000'\u2019sStTrReEvVmMlLdD\u017fK\u212a\u00df\u0130\u0131"
)
any_char = st.characters(exclude_categories=("Cs",))  # every plane, no surrogates
characters = st.one_of(
    any_char,
    st.sampled_from(TRICKY),
    st.characters(categories=("L",)),
    st.characters(categories=("N",)),
    st.characters(categories=("Mn", "Mc", "Me")),  # combining marks
    st.characters(categories=("Co",)),  # private use, the format's own range
    st.characters(min_codepoint=0x10000, exclude_categories=("Cs",)),  # astral
)
runs = st.builds(lambda c, n: c * n, characters, st.integers(1, 12))  # repeats, space runs
random_text = st.lists(st.one_of(characters, runs, st.sampled_from(["'s", "'LL", " \r\n", "123456"])),
                       max_size=60).map("".join)


@settings(max_examples=EXAMPLES, deadline=None)
@given(random_text)
def test_random_text_matches_oracle(text):
    for splitter in SPLITTERS:
        assert_same_pieces(text, splitter)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(st.one_of(characters, st.characters(categories=("Cs",))), max_size=80))
def test_pieces_concatenate_to_input(text):
    # Lone surrogates included: a Python str may hold them, and split() must not lose them.
    for splitter in SPLITTERS:
        pieces = split(text, splitter=splitter)
        assert "".join(pieces) == text
        assert all(pieces)  # no empty piece


# --- Stress: inputs that make a backtracking engine work hard --------------------------

MILLION = 1_000_000


@pytest.mark.parametrize("char", ["a", " ", "\n", "'", "-", "\u00e9", "\x1c", "\U0001d400", "\U0001f600", "7"])
def test_a_million_identical_characters(char):
    text = char * MILLION
    pieces = split(text)
    assert "".join(pieces) == text
    if char == "7":
        assert pieces == ["777"] * (MILLION // 3) + ["7"]
    else:
        assert pieces == [text]  # one run: a word, a space run, a symbol run
    assert_same_pieces(text, "paper" if char != "7" else "llama3", repr(char))


STRESS = {
    "spaces then a letter": " " * 100_000 + "a",
    "CR-space pairs": "\r " * 100_000,
    "digits": "1" * 100_000,
    "apostrophes": "'" * 100_000,
    "alternating space and tab runs": (" " * 7 + "\t" * 5) * 20_000,
    "space-tab pairs then a letter": " \t" * 100_000 + "x",
    "spaces then a symbol": " " * 100_000 + "!",
    "spaces, newline, spaces, letter": " " * 100_000 + "\n" + " " * 100_000 + "x",
    "newline-space pairs then a letter": "\n " * 100_000 + "x",
    "tab runs ending in newlines": ("\t" * 50 + "\n") * 2000 + "x",
    "space-symbol pairs": " !" * 100_000,
    "symbol-letter pairs": "!a" * 100_000,
    "contractions": "'s" * 50_000 + "'\u017f'S'K" * 20_000,
    "BMP and astral letters": "a\U0001d400" * 100_000,
    "letters and marks": "e\u0301" * 100_000,
    "space before every digit": " 1" * 100_000,
    "space-apostrophe-letter": " 'a" * 100_000,
    "no line break in a huge run then one": " " * 200_000 + "\r",
    "letter-digit pairs": "a1" * 100_000,
    "astral digits": "\U0001d7ce" * 100_000,
    "emoji-space pairs": "\U0001f600 " * 100_000,
    "unassigned astral code points": "".join(map(chr, range(0xE0200, 0xEFFFF, 2))),
}


@pytest.mark.parametrize("name", STRESS)
@pytest.mark.parametrize("splitter", SPLITTERS)
def test_stress_input(name, splitter):
    text = STRESS[name]
    assert "".join(split(text, splitter=splitter)) == text
    assert_same_pieces(text, splitter, name)


def test_stress_structure():
    # Expected shapes, stated independently of the oracle.
    assert split(" " * 100_000 + "a") == [" " * 99_999, " a"]
    assert split("\r " * 100_000) == ["\r " * 99_999 + "\r", " "]
    assert split("'" * 100_000) == ["'" * 100_000]
    assert split("1" * 100_000, splitter="paper") == ["1"] * 100_000


# --- one_of_code_points (the encoder's "does this piece change?" class) -------------------


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.sets(st.one_of(st.integers(0, 0x10FFFF), st.integers(0x1F000, 0x1F0FF)), min_size=1, max_size=60),
       st.lists(st.integers(0, 0x10FFFF), max_size=40))
def test_one_of_code_points_matches_exactly_the_set(members, probes):
    one = re.compile(split_module.one_of_code_points(members))
    for cp in [*members, *probes, *(m + 1 for m in members if m < 0x10FFFF), *(m - 1 for m in members if m)]:
        assert bool(one.fullmatch(chr(cp))) == (cp in members), hex(cp)
