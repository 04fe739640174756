"""NFC from the pinned tables (spec 5.1) equals unicodedata2's NFC at Unicode 18.0.0.

Random text biased toward the characters that make NFC work (combining marks, Hangul, composition
exclusions, the Unicode 16 scripts whose composites compose again), the UDHR corpus, the
standard library's source, and exhaustive constructions over the tables.
"""

from __future__ import annotations

import ast
import os
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import udhr_files
from functok import _ucd
from functok import normalize as normalize_module
from functok.normalize import is_nfc, nfc, nfc_with_offsets

ucd = pytest.importorskip("unicodedata2")

EXAMPLES = int(os.environ.get("FUNCTOK_HYPOTHESIS_EXAMPLES", "200"))
STDLIB = Path(sysconfig.get_paths()["stdlib"])
SCALARS = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]


def reference(text: str) -> str:
    return ucd.normalize("NFC", text)


def expand(ranges) -> list[str]:
    return [chr(cp) for first, last, *_ in ranges for cp in range(first, last + 1)]


MARKS = sorted({chr(cp) for cp in SCALARS if ucd.combining(chr(cp))})
EXCLUDED = expand(_ucd._COMPOSITION_EXCLUSION_RANGES)
MAYBE = expand(_ucd._NFC_QC_MAYBE_RANGES)
# Starters that begin a primary composite (the first of a canonical pair that NFC composes).
COMPOSING_STARTERS = sorted({
    ucd.normalize("NFD", ch)[0] for ch in map(chr, SCALARS)
    if len(ucd.normalize("NFD", ch)) > 1 and reference(ch) == ch
    and not ucd.combining(ucd.normalize("NFD", ch)[0])
})
HANGUL = ([chr(cp) for cp in range(0x1100, 0x1113)] + [chr(cp) for cp in range(0x1161, 0x1176)]
          + [chr(cp) for cp in range(0x11A7, 0x11C3)] + ["\uac00", "\uac01", "\ud7a3", "\ub098"])
# Unicode 16: Tulu-Tigalari, Gurung Khema and Kirat Rai vowel signs that compose twice.
RECOMPOSING = [chr(cp) for cp in (0x113B8, 0x113C2, 0x113C5, 0x113C9, 0x1611E, 0x1611F, 0x16120,
                                  0x16121, 0x16129, 0x16D63, 0x16D67, 0x16D69)]
INTERESTING = (MARKS[:200] + EXCLUDED + MAYBE + COMPOSING_STARTERS[:300] + HANGUL + RECOMPOSING
               + list(_ucd.MARKS) + list("aeiouAEIOU ")
               + list(_ucd.DECOMPOSITIONS)[:100])

any_scalar = st.characters(exclude_categories=("Cs",))
nfc_heavy_text = st.text(st.one_of(any_scalar, st.sampled_from(INTERESTING)), max_size=40)


def check_offsets(text: str) -> None:
    result, offsets = nfc_with_offsets(text)
    assert result == nfc(text)
    if offsets is None:
        assert result == text
        return
    assert result != text
    assert len(offsets) == len(result) + 1
    assert offsets[-1] == len(text)
    assert all(a <= b for a, b in zip(offsets, offsets[1:]))
    assert all(0 <= o < len(text) for o in offsets[:-1])


# --------------------------------------------------------------------------------------------
# Random text


@settings(max_examples=EXAMPLES, deadline=None)
@given(nfc_heavy_text)
def test_nfc_equals_unicodedata2_on_random_text(text):
    expected = reference(text)
    assert nfc(text) == expected
    assert nfc(ucd.normalize("NFD", text)) == expected
    assert nfc(expected) == expected
    assert is_nfc(text) == (expected == text)
    assert is_nfc(expected)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(any_scalar, max_size=200))
def test_nfc_equals_unicodedata2_on_any_text(text):
    assert nfc(text) == reference(text)


@settings(max_examples=EXAMPLES, deadline=None)
@given(nfc_heavy_text)
def test_offsets_invariants(text):
    check_offsets(text)
    check_offsets(ucd.normalize("NFD", text))


def test_offsets_examples():
    assert nfc_with_offsets("") == ("", None)
    assert nfc_with_offsets("plain ascii") == ("plain ascii", None)
    already = "Müller déjà vu क्षत्रिय 한국어"
    assert nfc_with_offsets(already) == (already, None)
    assert nfc_with_offsets("cafe\u0301!") == ("café!", [0, 1, 2, 3, 5, 6])
    # A reordered span (dot below before acute) maps wholly to its start.
    assert nfc_with_offsets("xa\u0301\u0323y") == ("x\u1ea1\u0301y", [0, 1, 1, 4, 5])
    # Hangul L + V + T compose to one syllable.
    assert nfc_with_offsets("\u1100\u1161\u11a8") == ("\uac01", [0, 3])
    # A singleton decomposition: Angstrom sign -> A with ring.
    assert nfc_with_offsets("\u212b") == ("\u00c5", [0, 1])
    # A leading mark has no starter before it.
    assert nfc_with_offsets("\u0301\u0300") == ("\u0301\u0300", None)
    assert nfc_with_offsets("\u0323\u0301a") == ("\u0323\u0301a", None)
    assert nfc_with_offsets("\u0301\u0323a") == ("\u0323\u0301a", [0, 0, 2, 3])


def test_already_nfc_text_is_returned_as_is():
    text = "Grüße, ça va? Ελληνικά, हिन्दी, 😀 𠀀"
    assert nfc(text) is text


def test_no_host_unicode_data():
    """normalize.py must not consult the host's Unicode version (spec section 3)."""
    source = Path(__file__).parents[2] / "python" / "functok" / "normalize.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert not any(name.startswith("unicodedata") for name in imported)


# --------------------------------------------------------------------------------------------
# Real text


def test_udhr_corpus():
    files = udhr_files()
    for path in files:
        text = path.read_text(encoding="utf-8")
        for variant in (text, ucd.normalize("NFD", text)):
            assert nfc(variant) == reference(variant), path.name
        check_offsets(ucd.normalize("NFD", text))


def test_stdlib_source():
    chunk = []
    for path in sorted(STDLIB.glob("*.py")):
        try:
            chunk.append(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            continue
    text = "".join(chunk)
    assert len(text) > 1_000_000
    assert nfc(text) == reference(text)
    decomposed = ucd.normalize("NFD", text)
    assert nfc(decomposed) == reference(decomposed)


# --------------------------------------------------------------------------------------------
# Exhaustive constructions


def test_every_code_point():
    text = "".join(map(chr, SCALARS))
    assert nfc(text) == reference(text)
    # Each assigned one alone, between stable characters, and decomposed.
    assigned = [chr(cp) for cp in SCALARS if ucd.category(chr(cp)) not in ("Cn", "Co")]
    spaced = "x".join(assigned)
    assert nfc(spaced) == reference(spaced)
    decomposed = "x".join(ucd.normalize("NFD", ch) for ch in assigned)
    assert nfc(decomposed) == reference(decomposed)


@pytest.mark.parametrize("mark_class", ["ccc!=0", "maybe", "excluded"])
def test_each_unstable_character_after_each_composing_starter(mark_class):
    following = {"ccc!=0": MARKS, "maybe": MAYBE, "excluded": EXCLUDED}[mark_class]
    for starter in COMPOSING_STARTERS + HANGUL:
        text = "".join(starter + ch for ch in following)
        assert nfc(text) == reference(text), f"U+{ord(starter):04X}"


def test_mark_pairs_in_both_orders():
    marks = list(_ucd.MARKS) + ["\u0323", "\u0345", "\u031b", "\u05b0", "\u094d",
                                          "\u0e38", "\u302a", "\U0001d165"]
    bases = ["a", "A", "e", "o", "u", "\u03b1", "\u03c9", "\u0438", "\u05d0", "\u0915", "x"]
    for base in bases:
        text = "".join(base + m1 + m2 for m1 in marks for m2 in marks)
        assert nfc(text) == reference(text), base
        text3 = "".join(base + m1 + m2 + m3 for m1 in marks for m2 in marks for m3 in marks[:8])
        assert nfc(text3) == reference(text3), base


def test_hangul_all_jamo_sequences():
    text = "".join(chr(0x1100 + l) + chr(0x1161 + v) + (chr(0x11A7 + t) if t else "")
                   for l in range(19) for v in range(21) for t in range(28))
    assert nfc(text) == reference(text) == "".join(map(chr, range(0xAC00, 0xD7A4)))
    # Syllables followed by T jamo (LV + T composes, LVT + T does not).
    text = "".join(chr(s) + "\u11a8" for s in range(0xAC00, 0xD7A4, 7))
    assert nfc(text) == reference(text)


def test_long_spans():
    # Long runs go around the span cache, and runs of stable astral characters are skipped.
    cases = ["a" + "\u0301\u0323" * 500, "\U0001f600" * 1000 + "e\u0301",
             "\U00020000\u0301" * 300, "\U0001d15e" * 100, "\u1100\u1161" * 200,
             "\U0001611e" * 101 + "\U0001611f", "\u0300" * 2000]
    for text in cases:
        assert nfc(text) == reference(text)
        check_offsets(text)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3 * normalize_module._CHUNK), nfc_heavy_text),
                max_size=4))
def test_windowed_search_finds_every_run(pieces):
    """The window-by-window search (all-ASCII windows skipped) finds exactly the runs of one
    search over the whole text, also where runs straddle window boundaries."""
    text = "".join("x" * pad + piece for pad, piece in pieces)
    whole = [m.span() for m in normalize_module._RUN.finditer(text)]
    assert list(normalize_module._runs(text)) == whole
    assert nfc(text) == reference(text)


def test_runs_across_window_boundaries():
    chunk = normalize_module._CHUNK
    for tail in ["a\u0301", "a\u0301\u0323", "\u0323\u0301", "\u1100\u1161\u11a8",
                 "\U0001611e\U0001611e", "\u212b", "\u0301" * 3]:
        for shift in range(-3, 3):
            text = "x" * (chunk + shift) + tail + "y" * chunk + tail
            whole = [m.span() for m in normalize_module._RUN.finditer(text)]
            assert list(normalize_module._runs(text)) == whole
            assert nfc(text) == reference(text)
            check_offsets(text)
