"""Every engine's decoder (the C core's native/core/decoding.c, the pure engine's functok/decoding_cache.py)
against the pure-Python reference (functok/decoding.py): the same text, or the same error (type,
kind, offset and message), strict and lenient, for many values of max_output; and
Tokenizer.decode, whose streams it decodes, with the same error and id index. The ``engine``
fixture (tests/conftest.py) runs each test on each engine.

Streams come from the conformance vectors, from encoding Hypothesis text under every option set,
from private-use soup, from damaged encodings, from the stdlib and UDHR corpora, and from hostile
runs. Where a C compiler exists the core is built by `pip install`; CI has one, so there a missing
core is a failure, not a skip.
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO, damaged, running_on
from fixtures.codec_cases import OPTION_SETS, TEXT, corpus_texts
from fixtures.trained import model_ids  # one source for the ids a model emits

import functok
from functok.errors import FormatError

decode_module = importlib.import_module("functok.decoding")
DEFAULT = decode_module.DEFAULT_MAX_OUTPUT


seam = importlib.import_module("functok.engine")


def pure_decode(stream, **options):
    """The reference decoder (functok/decoding.py), which functok.decode is held to."""
    return decode_module.decode(stream, **options)


def outcome(call, *args, **kwargs):
    """A call's result, or its error: FormatError as (type, kind, offset, message, str), other
    errors as (type, str), a tokenizer's with their id index."""
    try:
        return call(*args, **kwargs)
    except FormatError as error:
        return (type(error), error.kind, error.offset, error.message, str(error), getattr(error, "id_index", None))
    except ValueError as error:  # UnknownTokenIdError, ByteFallbackError (a UnicodeDecodeError)
        return (type(error), str(error), getattr(error, "id_index", None))
    except TypeError as error:
        return (type(error), str(error))


def limits(stream: str) -> list[int]:
    """max_output values around what the stream needs, and past any size."""
    n = len(stream)
    return [DEFAULT, 0, 1, n // 2, n, 2 * n + 7, 300 * n, 2**70]


def assert_same(stream: str, max_outputs=None) -> None:
    for max_output in max_outputs or limits(stream):
        for errors in ("strict", "replace"):
            options = dict(errors=errors, max_output=max_output)
            assert outcome(functok.decode, stream, **options) == outcome(pure_decode, stream, **options), \
                (stream[:200], options)


# --- the vectors ----------------------------------------------------------------------------

def decode_vectors():
    from functok.conformance import load_suite

    suite = load_suite(REPO / "conformance" / "vectors")
    return [v for v in suite.vectors if v.test.get("op") == "decode"]


def test_every_decode_vector(engine):
    vectors = decode_vectors()
    assert len(vectors) > 300
    for vector in vectors:
        stream = vector.test["input"]
        given_limit = vector.test.get("options", {}).get("max_output", DEFAULT)
        assert_same(stream, [given_limit, *limits(stream)])


# --- Hypothesis streams ---------------------------------------------------------------------

# Code points that make instructions: small arguments (so that positions fit), the assigned
# opcodes, reserved and unassigned ones, ESCAPE; and text: letters with case pairs and marks,
# surrogates, anything.
FORMAT = st.one_of(
    st.sampled_from([chr(0xE000 + k) for k in (0, 1, 2, 3, 4, 5, 8, 255)]),
    st.sampled_from([chr(c) for c in (0xE100, 0xE101, 0xE102, 0xE105, 0xE107, 0xE10D, 0xE10E, 0xE110,
                                      0xE200, 0xE201, 0xE202, 0xE300, 0xEFFE, 0xEFFF)]),
    st.characters(min_codepoint=0xE000, max_codepoint=0xEFFF),
)
SLOTS = st.one_of(
    st.sampled_from("aAeEiIoOuUcCsSnNyYzß ,1\u0301\u0308\u0327\u0130\u1e9e\ud800\udfff\U00010428"),
    st.characters(codec="utf-8"),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
)
SOUP = st.text(st.one_of(FORMAT, FORMAT, SLOTS), max_size=50)
LIMIT = st.one_of(st.just(DEFAULT), st.integers(0, 300), st.integers(0, 10**6))


def both(stream: str, max_output: int) -> None:
    for errors in ("strict", "replace"):
        options = dict(errors=errors, max_output=max_output)
        assert outcome(functok.decode, stream, **options) == outcome(pure_decode, stream, **options)


@given(TEXT, st.sampled_from(OPTION_SETS), LIMIT)
def test_encoded_text(engine, text, options, max_output):
    stream = functok.encode(text, **options)
    both(stream, max_output)
    both(stream, DEFAULT)


@given(SOUP, LIMIT)
def test_private_use_soup(engine, stream, max_output):
    both(stream, max_output)


@st.composite
def damaged_streams(draw):
    """An encoding, with code points deleted, inserted and swapped."""
    text = draw(st.text(st.sampled_from("aaaabAbéÉéèüÜçİiı ßẞ.\n\ue000"), max_size=40))
    options = draw(st.sampled_from(OPTION_SETS))
    stream = list(functok.encode(text, **options))
    stream = damaged(draw, stream, st.lists(st.one_of(FORMAT, SLOTS), min_size=1, max_size=3), 4)
    for _ in range(draw(st.integers(0, 2))):
        if len(stream) >= 2:
            k = draw(st.integers(0, len(stream) - 2))
            stream[k], stream[k + 1] = stream[k + 1], stream[k]
    return "".join(stream)


@given(damaged_streams(), LIMIT)
def test_damaged_streams(engine, stream, max_output):
    both(stream, max_output)


# Repeats that stack, overlap, spill past slot 255 and meet max_output.
REPEATS = st.lists(st.one_of(
    st.tuples(st.just(0xE200), st.integers(0, 6), st.integers(0, 255)),
    st.tuples(st.just(0xE201), st.integers(0, 6), st.integers(0, 8), st.integers(0, 255)),
    st.tuples(st.sampled_from([0xE100, 0xE102, 0xE104]), st.integers(0, 6)),
    st.tuples(st.just(0xE110), st.integers(0, 6), st.integers(0, 8)),
), max_size=8).map(lambda group: "".join(chr(op) + "".join(chr(0xE000 + a) for a in args) for op, *args in group))


@given(st.lists(st.tuples(REPEATS, st.text(st.sampled_from("abeiéß\uefff\ue000"), min_size=1, max_size=8))),
       LIMIT)
def test_stacked_repeats(engine, units, max_output):
    both("".join(group + text for group, text in units), max_output)


# --- real text and hostile runs ------------------------------------------------------------------

@pytest.mark.parametrize("profile", ["paper", "compact"])
def test_corpora(engine, profile):
    for text in corpus_texts():
        stream = functok.encode(text, profile=profile)
        assert functok.decode(stream) == pure_decode(stream) == functok.normalize.nfc(text)
        rng = random.Random(len(stream))
        broken = list(stream)
        for _ in range(max(1, len(broken) // 500)):  # deletions, insertions and swaps
            k = rng.randrange(len(broken))
            edit = rng.randrange(3)
            if edit == 0:
                del broken[k]
            elif edit == 1:
                broken.insert(k, chr(rng.choice([0xE000, 0xE003, 0xE100, 0xE200, 0xE201, 0xE300, 0xEFFF, 0xD800])))
            elif k + 1 < len(broken):
                broken[k], broken[k + 1] = broken[k + 1], broken[k]
        assert_same("".join(broken), [DEFAULT, len(stream) // 2])


def soup(seed: int, n: int) -> str:
    rng = random.Random(seed)
    alphabet = [chr(c) for c in range(0xE000, 0xF000)] + list("aé ß\ud800")
    return "".join(rng.choice(alphabet) for _ in range(n))


HOSTILE = [
    ("stray-arguments", "\ue000" * 1_000_000 + "a", [DEFAULT]),
    ("unknown-opcodes", "\ue300" * 1_000_000 + "a", [DEFAULT]),
    ("stacked-repeats", "\ue200\ue000\ue0ff" * 100_000 + "a", [DEFAULT, 10**6, 0]),
    ("multirepeats-past-slot-255", "\ue201\ue000\ue0ff\ue0ff" * 1000 + "ab" * 200, [DEFAULT, 10**6]),
    ("repeat-then-long-text", "\ue200\ue000\ue003" + "a" * 2_000_000, [2_000_000, DEFAULT]),
    ("marks-on-one-slot", "\ue102\ue000" * 200_000 + "e", [DEFAULT]),
    ("uppercase-many-times", "\ue110\ue000\ue0ff" * 100_000 + "x" * 300, [DEFAULT]),
    ("surrogates", "a\ud800" * 500_000, [DEFAULT]),
    ("escapes", "\uefff" * 1_000_001, [DEFAULT]),
    ("private-use-soup", soup(22, 1_000_000), [DEFAULT, 1000]),
]


@pytest.mark.parametrize("stream, max_outputs", [case[1:] for case in HOSTILE], ids=[case[0] for case in HOSTILE])
def test_hostile_streams(engine, stream, max_outputs):
    assert_same(stream, max_outputs)


# --- the entry point -------------------------------------------------------------------------

def test_bad_options_raise_as_the_pure_path_does(engine):
    for args, options in ((("x",), dict(errors="ignore")), (("x",), dict(max_output=-1)),
                          (("x",), dict(max_output=True)), (("x",), dict(max_output=2.5)), ((b"x",), {}),
                          (("\ue100",), dict(errors="ignore", max_output=-1)), ((None,), dict(errors="x"))):
        assert outcome(functok.decode, *args, **options) == outcome(pure_decode, *args, **options)


def test_plain_text_is_returned_as_it_is(engine):
    for text in ("", "abc", "é" * 10, "\u4e2d\U0001F600"):
        assert functok.decode(text) is text


def test_threads_decode_alike(engine):
    streams = [functok.encode(text) for text in corpus_texts()[:8]]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(functok.decode, streams)) == [pure_decode(s) for s in streams]


def test_functok_pure_keeps_the_pure_decoder():
    code = ("import functok, functok.engine as e; "
            "print(functok.decode is e.decode is e.PURE_ENGINE.decode and e.NATIVE_ENGINE is None)")
    env = dict(os.environ, FUNCTOK_PURE="1", PYTHONPATH=str(REPO / "python"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "True"


# --- Tokenizer.decode: ids -> stream -> the core --------------------------------------------------

_tokenizers: dict = {}


def tokenizer():
    """The stdlib tokenizer, made on the engine that runs now (its compiled parts are its own)."""
    from fixtures.trained import need_tokenizers, stdlib_tokenizer

    need_tokenizers()
    name = seam.current.name
    if name not in _tokenizers:
        _tokenizers[name] = type(stdlib_tokenizer()).from_str(stdlib_tokenizer().to_str())
    return _tokenizers[name]


def test_tokenizer_decode_of_real_text(engine):
    tok = tokenizer()
    for text in corpus_texts()[:20]:
        ids = tok.encode(text).ids
        assert tok.decode(ids) == functok.normalize.nfc(text)
        rng = random.Random(len(ids))
        broken = [i for i in ids if rng.random() > 0.01]
        for errors in ("strict", "replace"):
            for max_output in (DEFAULT, len(text) // 2):
                assert (outcome(tok.decode, broken, errors=errors, max_output=max_output)
                        == outcome(lambda: pure_path(tok.decode, broken, errors=errors, max_output=max_output)))


def pure_path(call, *args, **kwargs):
    """call() on the pure engine: no compiled table in Tokenizer.decode, the pure decoder."""
    with running_on(seam.PURE_ENGINE):
        return call(*args, **kwargs)


def test_tokenizer_decode_takes_the_engines_road(engine):
    tok = tokenizer()
    ids = tok.encode("Hello, World! «Déjà vu» 1234 ḁ\ue000").ids
    table = tok.token_table.compiled()
    assert (table is None) == (engine.name == "pure")
    text = engine.detokenize(table, ids, True, False, DEFAULT)
    assert text == (None if table is None else tok.decode(ids))
    assert tok.decode(ids) == pure_path(tok.decode, ids)
    unknown = ids + [tok.vocab_size + 10]  # a question: the reference decides
    assert engine.detokenize(table, unknown, True, False, DEFAULT) is None


def test_each_stretch_between_special_tokens_has_its_own_output_limit(engine):
    """max_output bounds each stream between special tokens, as the pure path decodes them: the
    core once counted the text before a stretch (a special token's, an earlier stretch's) against
    the stretch's limit, and in lenient mode dropped a repeat that fits (Hypothesis found it)."""
    tok = tokenizer()
    stream = functok.encode("ababab")  # MULTIREPEAT(0, 2, 3) "ab": 6 code points out
    assert stream == "\ue201\ue000\ue002\ue003ab"
    spelled = [tok.token_to_id(f"<0x{b:02X}>") for b in stream.encode()]
    eot = tok.token_to_id("<|endoftext|>")
    for ids, text in (([eot] + spelled, "<|endoftext|>ababab"),
                      (spelled + [eot] + spelled, "ababab<|endoftext|>ababab")):
        for errors in ("strict", "replace"):
            for max_output in (6, 8):
                assert tok.decode(ids, errors=errors, max_output=max_output) == text, (errors, max_output)
                assert pure_path(tok.decode, ids, errors=errors, max_output=max_output) == text


@given(model_ids())
def test_tokenizer_decode_of_random_and_damaged_ids(engine, ids):
    tok = tokenizer()
    for errors in ("strict", "replace"):
        for skip in (False, True):
            for max_output in (DEFAULT, 5):
                options = dict(errors=errors, skip_special_tokens=skip, max_output=max_output)
                assert (outcome(tok.decode, ids, **options)
                        == outcome(lambda: pure_path(tok.decode, ids, **options)))


# Byte tokens: every byte, so that overlong forms, surrogates, sequences cut short and bytes past
# U+10FFFF meet the core's UTF-8 reader, with ordinary tokens between the runs.
UTF8_CORNERS = [b"\xe0\x80\x80", b"\xe0\xa0\x80", b"\xed\xa0\x80", b"\xed\x9f\xbf", b"\xf0\x80\x80\x80",
                b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xc2\x80",
                b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3\xa9", b"\xf0\x9f\x98\x80", b"\xff", b"\x80"]
BYTE_RUNS = st.lists(st.one_of(st.lists(st.integers(0, 255), min_size=1, max_size=6),
                               st.sampled_from(UTF8_CORNERS).map(list), st.sampled_from(UTF8_CORNERS).map(list),
                               st.text("aé\ue100\ue000", min_size=1, max_size=3)), max_size=6)


def assert_same_byte_tokens(units) -> None:
    """Byte tokens for each list of bytes and each str's UTF-8, decoded by both roads."""
    tok = tokenizer()
    ids = []
    for unit in units:
        data = unit.encode() if isinstance(unit, str) else bytes(unit)
        ids += [tok.token_to_id(f"<0x{b:02X}>") for b in data]
    for errors in ("strict", "replace"):
        assert outcome(tok.decode, ids, errors=errors) == outcome(lambda: pure_path(tok.decode, ids, errors=errors))


@pytest.mark.parametrize("corner", UTF8_CORNERS)
def test_tokenizer_decode_of_each_utf8_corner(engine, corner):
    assert_same_byte_tokens([corner])
    assert_same_byte_tokens(["a", corner, "é", corner[:1]])


@given(BYTE_RUNS)
def test_tokenizer_decode_of_byte_tokens(engine, units):
    assert_same_byte_tokens(units)
