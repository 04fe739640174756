"""The codec against hand-derived examples, its round-trip invariants, and real corpora."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import functok
from functok import FormatError, decode, encode, pieces, pretokens
from functok.normalize import nfc

from conftest import read_text_or_none, stdlib_sources, udhr_files

# Every expected stream below was worked out by hand from spec sections 6.1 to 6.4.
PAPER_EXAMPLES = [
    ("Hello", "\ue100\ue000hello"),                       # CAPITALIZE(0)
    ("Héllo", "\ue102\ue001\ue100\ue000hello"),           # ACUTE(1) CAPITALIZE(0)
    ("######", "\ue200\ue000\ue006#"),                    # REPEAT(0,6)
    ("    ", "\ue200\ue000\ue004 "),                      # REPEAT(0,4)
    ("abcabcabc", "\ue201\ue000\ue003\ue003abc"),         # MULTIREPEAT(0,3,3)
]

ENCODE_EXAMPLES = [
    ("hello", "hello"),
    ("Hello World", "\ue100\ue000hello\ue100\ue001 world"),   # two pieces, slots restart
    ("He\u0301llo", "\ue102\ue001\ue100\ue000hello"),          # NFC composes first
    ("İstanbul", "\ue107\ue000\ue100\ue000istanbul"),         # DOT_ABOVE(0) CAPITALIZE(0)
    ("Abcabcabc", "\ue100\ue000abcabcabc"),                   # copies compare original code points
    ("aa", "aa"),
    ("aaa", "\ue200\ue000\ue003a"),
    ("Sooooo", "\ue200\ue001\ue005\ue100\ue000so"),
    ("a" * 256, "\ue200\ue000\ue0ffaa"),                      # 255 + a literal remainder of 1
    ("a" * 257, "\ue200\ue000\ue0ffaaa"),
    ("a" * 258, "\ue200\ue000\ue0ff\ue200\ue001\ue003aa"),    # 255 + 3
    ("a" * 300, "\ue200\ue000\ue0ff\ue200\ue001\ue02daa"),    # 255 + 45
    ("ÉÉÉ", "\ue200\ue000\ue003\ue102\ue000\ue100\ue000e"),   # repeat, then marks and case of slot 0
    ("Ǘ", "\ue105\ue000\ue102\ue000\ue100\ue000u"),           # DIAERESIS then ACUTE: decomposition order
    ("Ệ", "\ue100\ue000ệ"),                                    # dot below is not among the 13
    ("ǅ", "ǅ"),                                                # titlecase: no bijective pair
    ("ẞ", "ẞ"),                                                # U+1E9E lowercases to ß, which uppercases to SS
    ("\ue000", "\uefff\ue000"),                                # private use in the format's range
    ("\uefff", "\uefff\uefff"),
    ("\uf8ff", "\uf8ff"),                                      # other private use passes through
    ("\ue000\ue000\ue000", "\ue200\ue000\ue003\uefff\ue000"),
]


@pytest.mark.parametrize("text, stream", PAPER_EXAMPLES + ENCODE_EXAMPLES)
def test_encode_examples(text, stream):
    assert encode(text) == stream
    assert decode(stream) == nfc(text)


def test_slot_255_and_256():
    # Period 16 > the longest MULTIREPEAT unit, so nothing folds: X is slot 255, Y slot 256.
    letters = "".join("bcdefghijklmnopq"[i % 16] for i in range(255)) + "XY"
    stream = encode(letters)
    assert stream == "\ue100\ue0ff" + letters[:255] + "x" + "Y"  # CAPITALIZE(255); Y stays literal
    assert decode(stream) == letters


def test_pretokens():
    assert pretokens("Hello") == ["\ue100\ue000", "hello"]
    assert pretokens("Héllo") == ["\ue102\ue001", "\ue100\ue000", "hello"]
    assert pretokens("Héllo", split_operators=False) == ["\ue102\ue001\ue100\ue000hello"]


def test_pieces_fields():
    (first, second) = pieces("Héllo wörld")
    assert [str(i) for i in first.instructions] == ["ACUTE(1)", "CAPITALIZE(0)"]
    assert (first.text, first.start, first.end, first.base) == ("Héllo", 0, 5, "hello")
    assert [str(i) for i in second.instructions] == ["DIAERESIS(2)"]
    assert (second.start, second.end) == (5, 11)
    assert str(functok.Instruction("REPEAT", (0, 4))) == "REPEAT(0,4)"


def test_pieces_offsets_point_into_the_original_text():
    text = "Ame\u0301lie e\u0301te\u0301"  # NFC shortens both words
    found = pieces(text)
    assert [text[p.start:p.end] for p in found] == ["Ame\u0301lie", " e\u0301te\u0301"]
    assert [p.text for p in found] == ["Amélie", " été"]


def test_decoder_behaviours_of_the_original():
    caps = "".join("\ue100" + chr(0xE000 + i) for i in range(1, 7))
    assert decode(caps + " un" + "icef") == " UNICEF"            # a group spans several tokens
    assert decode("\ue100\ue000,") == ","                          # CAPITALIZE without a partner
    assert decode("\ue200\ue000\ue004\ue200\ue000\ue003\n") == "\n" * 6   # stacked repeats compose
    assert decode("abc\ue100\ue000", errors="replace") == "abc"   # dangling group dropped


@pytest.mark.parametrize("operation", ["encode", "pieces", "pretokens"])
@pytest.mark.parametrize("option", [{"splitter": "gpt2"}, {"profile": "fast"}, {"normalize": "nfkc"},
                                    {"fold": "some"}, {"case": "title"}])
def test_a_bad_option_is_reported_before_a_surrogate(operation, option):
    """Spec 6 (1.2.0, js/SPEC-GAPS.md G11 and R2): options are checked before the text, so a
    call with a bad option is a usage error whatever the text holds."""
    with pytest.raises(ValueError) as info:
        getattr(functok, operation)("a\ud800", **option)
    assert not isinstance(info.value, functok.FormatError)


def test_lone_surrogate_in_encode():
    with pytest.raises(FormatError) as info:
        encode("ab\ud800c")
    assert (info.value.kind, info.value.offset) == ("lone-surrogate", 2)


# --- properties --------------------------------------------------------------------------

scalar = st.characters(exclude_categories=("Cs",))
interesting = st.sampled_from(
    list("aAeEiIİıſKkSs'’ \t\n\r\x1c\x85\u00a0\u2028") + ["\u0301", "\u0308", "\u0323", "\u0327",
    "\ue000", "\ue0ff", "\ue100", "\ue200", "\uefff", "\uf8ff", "\U000f0000", "ǅ", "ẞ", "Å", "Ω", "ﬁ",
    "가", "\u1100", "\u1161", "1", "٣"])
texts = st.text(st.one_of(scalar, interesting), max_size=60)
runs = st.lists(st.tuples(st.one_of(scalar, interesting), st.integers(1, 12)), max_size=12).map(
    lambda parts: "".join(c * n for c, n in parts))


@given(st.one_of(texts, runs), st.sampled_from(functok.SPLITTERS))
def test_exact_round_trip_without_normalization(text, splitter):
    assert decode(encode(text, normalize=None, splitter=splitter)) == text


@given(st.one_of(texts, runs))
def test_round_trip_is_nfc(text):
    assert decode(encode(text)) == nfc(text)


@given(st.one_of(texts, runs), st.booleans())
def test_pretokens_and_pieces_concatenate(text, split_operators):
    stream = encode(text, normalize=None)
    assert "".join(pretokens(text, normalize=None, split_operators=split_operators)) == stream
    found = pieces(text, normalize=None)
    assert "".join(p.encoded for p in found) == stream
    assert "".join(p.text for p in found) == text
    assert all(text[p.start:p.end] == p.text for p in found)


@given(st.one_of(texts, runs), st.frozensets(st.sampled_from(["case", "marks", "repeat"])))
def test_ablated_streams_still_decode(text, features):
    assert decode(encode(text, normalize=None, features=features)) == text


# --- real text and stress ------------------------------------------------------------------

def test_round_trip_udhr():
    from functok.normalize import nfc
    for path in udhr_files():
        text = path.read_text(encoding="utf-8")
        assert decode(encode(text)) == nfc(text), path.name
        assert decode(encode(text, normalize=None, splitter="paper")) == text, path.name


def test_round_trip_stdlib_source():
    checked = 0
    for path in stdlib_sources():
        text = read_text_or_none(path)
        if text is None:
            continue
        assert decode(encode(text, normalize=None)) == text, path
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("text", [
    "a" * 1_000_000,
    "".join(chr(0x41 + (i % 26)) if i % 7 == 0 else chr(0x61 + (i % 26)) for i in range(100_000)),
    "".join(chr(0xE000 + (i % 4096)) for i in range(50_000)),
    " " * 100_000 + "x",
    "\r " * 50_000,
    "'" * 100_000,
    "9" * 100_000,
    "ab" * 200_000,
    "Aa" * 100_000,
])
def test_stress_inputs_round_trip(text):
    assert decode(encode(text, normalize=None)) == text


def test_runtime_is_standard_library_only():
    """The codec imports and works with regex, tokenizers and every unicodedata blocked."""
    import subprocess
    import sys
    script = (
        "import sys\n"
        "for name in ('regex', 'tokenizers', 'unicodedata', 'unicodedata2', 'tqdm'):\n"
        "    sys.modules[name] = None  # any import of them now fails\n"
        "import functok\n"
        "text = 'Héllo İstanbul, ÇA VA??? ' * 3 + '\\ue000'\n"
        "stream = functok.encode(text)\n"
        "assert functok.decode(stream) == text\n"
        "assert [str(i) for i in functok.pieces('Héllo')[0].instructions] == ['ACUTE(1)', 'CAPITALIZE(0)']\n"
        "print('ok')\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
