"""Spec 1.1.0: the profiles (6.6), the fold option (6.1), range case (6.2) and UPPERCASE (7.4, 7.5).

Property tests under the profile compact and every option set: the round trip, pieces and
pre-tokens that concatenate to the stream, and a range rule that only respells case.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import functok
from functok import FormatError, decode, encode, pieces, pretokens
from functok.encoding import CASES, FOLDS, encoder_options
from functok.normalize import nfc

from conftest import read_text_or_none, stdlib_sources

OPTION_SETS = [{"fold": f, "case": c} for f in FOLDS for c in CASES]

scalar = st.characters(exclude_categories=("Cs",))
interesting = st.sampled_from(
    list("aAbBeEiIİıſKkSsßẞ_1 \t\n\r\x1c\u00a0\u3000") + ["\u0301", "\u0307", "\u0323", "\ue000",
    "\ue110", "\uefff", "ǅ", "Ǆ", "É", "Ω", "ς", "漢", "\U00010400", "\U00010428"])
texts = st.text(st.one_of(scalar, interesting), max_size=60)
caps = st.text(st.sampled_from(list("ABCÉİ_ßẞ漢 a1\ue000")), max_size=40)
runs = st.lists(st.tuples(st.one_of(scalar, interesting), st.integers(1, 12)), max_size=12).map(
    lambda parts: "".join(c * n for c, n in parts))
any_text = st.one_of(texts, caps, runs)


# --- the profiles ---------------------------------------------------------------------------

def test_profiles_are_the_spec_table():
    assert dict(functok.PROFILES) == {
        "paper": functok.Profile(fold="all", case="capitalize"),
        "compact": functok.Profile(fold="none", case="range"),
    }
    with pytest.raises(TypeError):
        functok.PROFILES["mine"] = functok.Profile("all", "range")  # read-only


def test_explicit_options_override_the_profile():
    assert encoder_options("compact", fold="all") == ("all", "range")
    assert encoder_options("paper", case="range") == ("all", "range")
    assert encode("AAA", profile="compact", fold="all") == "\ue200\ue000\ue003\ue100\ue000a"


@pytest.mark.parametrize("kwargs, message", [
    ({"profile": "fast"}, "unknown profile 'fast'"),
    ({"profile": None}, "unknown profile None"),
    ({"fold": "whitespace"}, "fold must be one of"),
    ({"case": "upper"}, "case must be one of"),
])
def test_unknown_options_are_refused(kwargs, message):
    for call in (encode, pieces, pretokens):
        with pytest.raises(ValueError, match=message):
            call("Hello", **kwargs)


@given(any_text)
def test_paper_is_the_default_and_the_1_0_encoder(text):
    assert encode(text, profile="paper") == encode(text) == encode(text, fold="all", case="capitalize")


def test_the_compact_profile_has_no_repeats_and_uses_uppercase():
    found = pieces("    HELLO  World!!!! aaaa", profile="compact")
    names = {ins.name for p in found for ins in p.instructions}
    assert names == {"UPPERCASE", "CAPITALIZE"}


# --- round trips ----------------------------------------------------------------------------

@given(any_text, st.sampled_from(functok.SPLITTERS), st.sampled_from(OPTION_SETS))
def test_exact_round_trip_under_every_option_set(text, splitter, options):
    assert decode(encode(text, normalize=None, splitter=splitter, **options)) == text


@given(any_text)
def test_compact_round_trip_is_nfc(text):
    assert decode(encode(text, profile="compact")) == nfc(text)


@given(any_text, st.booleans(), st.sampled_from(OPTION_SETS))
def test_pretokens_and_pieces_concatenate_to_the_stream(text, split_operators, options):
    stream = encode(text, normalize=None, **options)
    found = pretokens(text, normalize=None, split_operators=split_operators, **options)
    assert "".join(found) == stream and all(found)
    got = pieces(text, normalize=None, **options)
    assert "".join(p.encoded for p in got) == stream
    assert "".join(p.text for p in got) == text


@given(any_text)
def test_range_case_only_respells_case(text):
    """Range case changes only the case instructions: same bases, same decoding."""
    for fold in FOLDS:
        cap = pieces(text, normalize=None, fold=fold, case="capitalize")
        rng = pieces(text, normalize=None, fold=fold, case="range")
        assert [p.base for p in cap] == [p.base for p in rng]
        for a, b in zip(cap, rng):
            assert [i for i in a.instructions if i.name != "CAPITALIZE"] == \
                   [i for i in b.instructions if i.name not in ("CAPITALIZE", "UPPERCASE")]
            # the instructions of the case family are by ascending start and do not overlap
            family = [i for i in b.instructions if i.name in ("CAPITALIZE", "UPPERCASE")]
            starts = [i.args[0] for i in family]
            assert starts == sorted(starts)
            ends = [i.args[1] if i.name == "UPPERCASE" else i.args[0] + 1 for i in family]
            assert all(e <= s for e, s in zip(ends, starts[1:]))
            assert all(i.args[1] <= 255 and i.args[1] - i.args[0] >= 2
                       for i in family if i.name == "UPPERCASE")


def test_compact_round_trip_stdlib_source():
    checked = 0
    for path in stdlib_sources()[:300]:
        text = read_text_or_none(path)
        if text is None:
            continue
        assert decode(encode(text, normalize=None, profile="compact")) == text, path
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("text", [
    "A" * 100_000,
    "AB" * 50_000 + "c",
    "\u0130" * 30_000,
    " " * 100_000 + "x",
    " \t" * 50_000,
    "\n \n" * 30_000,
])
@pytest.mark.parametrize("options", [{"profile": "compact"}, {"fold": "no-whitespace", "case": "range"}])
def test_stress_inputs_round_trip(text, options):
    assert decode(encode(text, normalize=None, **options)) == text


# --- decoding UPPERCASE (7.4, 7.5) ----------------------------------------------------------

@pytest.mark.parametrize("stream, kind, offset, lenient", [
    ("\ue110\ue002\ue002abc", "bad-range", 0, "abc"),
    ("\ue110\ue000\ue004abc", "position-out-of-range", 0, "abc"),
    ("\ue110\ue009\ue004abc", "bad-range", 0, "abc"),
    ("\ue100\ue000\ue110\ue002\ue001ab", "bad-range", 2, "Ab"),
    ("\ue110\ue000abc", "truncated-instruction", 0, "abc"),
    ("ab\ue110\ue000\ue001", "dangling-group", 2, "ab"),
    ("\ue110\ue000\ue002\ue005ab", "stray-argument", 3, "AB"),
])
def test_uppercase_errors(stream, kind, offset, lenient):
    with pytest.raises(FormatError) as info:
        decode(stream)
    assert (info.value.kind, info.value.offset) == (kind, offset)
    assert decode(stream, errors="replace") == lenient


def test_uppercase_decodes_on_the_fast_path_and_across_tokens():
    # A group whose range reaches past the text the fast path keeps with it.
    stream = "\ue110\ue000\ue014" + "abcdefghijklmnopqrst" + "uvw"
    assert decode(stream) == "ABCDEFGHIJKLMNOPQRSTuvw"
    assert decode("\ue110\ue000\ue0ff" + "a" * 300) == "A" * 255 + "a" * 45
    assert decode(("\ue110\ue000\ue002ab " * 3)) == "AB AB AB "


# --- saved tokenizers record the profile (11.2) ---------------------------------------------

FIXTURE = json.loads((__import__("pathlib").Path(__file__).parents[1] / "fixtures" / "tokenizer-small.json")
                     .read_text(encoding="utf-8"))


def test_a_file_without_a_profile_is_paper():
    assert "profile" not in FIXTURE["functok"]
    tok = functok.Tokenizer.from_data(FIXTURE, "small")
    assert tok.profile == "paper" and tok.header["profile"] == "paper"


def test_the_profile_is_saved_and_loaded():
    tok = functok.Tokenizer(FIXTURE["tokenizer"], profile="compact")
    data = json.loads(tok.to_str())
    assert data["functok"]["profile"] == "compact"
    again = functok.Tokenizer.from_str(tok.to_str())
    assert again.profile == "compact"
    text = "HTTPServer MAX_SIZE    x"
    assert again.pre_tokenizer(text) == pretokens(text, profile="compact")
    assert again.decode(again.encode(text).ids) == text
    assert "compact" in repr(again)


@pytest.mark.parametrize("value", ["fast", 3, None, ""])
def test_a_loader_refuses_an_unknown_profile(value):
    data = json.loads(json.dumps(FIXTURE))
    data["functok"]["profile"] = value
    with pytest.raises(functok.TokenizerFileError, match=r"\$\.functok\.profile: expected one of"):
        functok.Tokenizer.from_data(data, "t.json")
    with pytest.raises(functok.TokenizerFileError, match="unknown profile"):
        functok.Tokenizer(FIXTURE["tokenizer"], profile=value)


def test_a_1_0_file_loads_and_a_newer_minor_is_refused():
    data = json.loads(json.dumps(FIXTURE))
    assert data["functok"]["spec_version"] == "1.0.0"
    functok.Tokenizer.from_data(data, "t.json")
    major, minor, _ = functok.SPEC_VERSION.split(".")
    newer = f"{major}.{int(minor) + 1}.0"  # the next MINOR, whatever this functok implements
    data["functok"]["spec_version"] = newer
    with pytest.raises(functok.TokenizerFileError, match=f"spec_version {re.escape(newer)}"):
        functok.Tokenizer.from_data(data, "t.json")
    data["functok"]["spec_version"] = functok.SPEC_VERSION
    functok.Tokenizer.from_data(data, "t.json")


def test_train_records_the_profile():
    pytest.importorskip("tokenizers")
    corpus = ["HELLO WORLD, MAX_SIZE = 1\n    return HTTPServer"] * 20
    tok = functok.Tokenizer.train(iter(corpus), vocab_size=300, profile="compact", show_progress=False)
    assert tok.profile == "compact"
    assert json.loads(tok.to_str())["functok"]["profile"] == "compact"
    assert "\ue110\ue000\ue005" in tok.get_vocab()  # UPPERCASE(0,5): HELLO and MAX_SIZE's _SIZE
    assert tok.decode(tok.encode(corpus[0]).ids) == corpus[0]
    with pytest.raises(functok.TokenizerFileError, match="unknown profile"):
        functok.Tokenizer.train(iter(corpus), vocab_size=300, profile="fast", show_progress=False)
