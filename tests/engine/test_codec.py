"""Every engine of the seam (functok/engine.py: the C core, native/ and functok._native, and the
pure one) against the pure-Python reference modules: the same output, or the same error (type,
kind, offset), for every option, on arbitrary and real text. The ``engine`` fixture
(tests/conftest.py) runs each test on each engine; ``native`` tests reach the core's own parts.

Where a C compiler exists the core is built by `pip install`; CI has one, so there a missing core
is a failure, not a skip.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO, native_or_skip
from fixtures.codec_cases import OPTION_SETS, TEXT, corpus_texts

import functok
seam = importlib.import_module("functok.engine")
from functok.errors import FormatError

encode_module = importlib.import_module("functok.encoding")
pretokenize_module = importlib.import_module("functok.pretokenize")




@pytest.fixture(scope="module")
def native():
    return native_or_skip()


def pure_encode(text, **options):
    return "".join(encode_module.encoded_pieces(text, **options))


def pure_pretokens(text, fuse, **options):
    return pretokenize_module.pretokens(text, fuse=fuse, **options)  # the reference


@pytest.fixture(scope="module")
def engine(native):
    """The C core's engine, with functok running on it: the pure engine's encode and pretokens_by
    are encoding.encode and pretokenize.pretokens_by themselves, so holding them to the reference
    would compare a function with itself; this file holds the compiled engine alone to them."""
    from conftest import running_on

    with running_on(seam.NATIVE_ENGINE):
        yield seam.NATIVE_ENGINE


def engine_encode(engine, text, **options):
    return engine.encode(text, **options)


def engine_pretokens(engine, text, fuse, **options):
    return engine.pretokens_by(fuse, text, **options)


def outcome(call, *args, **kwargs):
    """A call's result, or its error as (type, kind, offset)."""
    try:
        return call(*args, **kwargs)
    except FormatError as error:
        return (FormatError, error.kind, error.offset)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))


def test_the_backend_is_native_where_the_core_is_built(native):
    assert functok.backend() == "native"
    assert functok.encode("Héllo") == pure_encode("Héllo")


@given(TEXT, st.sampled_from(OPTION_SETS))
def test_encode_is_the_pure_path(engine, text, options):
    assert outcome(engine_encode, engine, text, **options) == outcome(pure_encode, text, **options)


@given(TEXT, st.sampled_from(OPTION_SETS), st.sampled_from(functok.FUSE_MODES))
def test_pretokens_are_the_pure_path(engine, text, options, fuse):
    assert (outcome(engine_pretokens, engine, text, fuse, **options)
            == outcome(pure_pretokens, text, fuse, **options))


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("\ud800\udfff"), max_size=30))
def test_lone_surrogates_are_the_same_error(engine, text):
    for normalize in ("nfc", None):
        assert (outcome(engine_encode, engine, text, normalize=normalize)
                == outcome(pure_encode, text, normalize=normalize))


@given(TEXT)
def test_nfc_and_split_are_the_pure_path(native, text):
    from functok.normalize import nfc

    assert native.nfc(text) == nfc(text)
    for splitter, digits in seam.MAX_DIGITS.items():
        assert native.split(text, digits) == functok.split(text, splitter=splitter)


# NFC's corners: Hangul jamo (L V T) and syllables (LV, LVT) compose algorithmically; marks of
# different classes reorder; a composite excluded from composition stays decomposed.
NFC_CORNERS = st.text(st.sampled_from("\u1100\u1112\u1161\u1175\u11a8\u11c2\uac00\uac01\ud7a3"
                                      "Aae\u0301\u0323\u0308\u0327\u031b\u0344\u0958\u212b\u00c5"), max_size=12)


@given(NFC_CORNERS)
def test_nfc_corners_are_the_pure_path(native, text):
    from functok.normalize import nfc

    assert native.nfc(text) == nfc(text)


@given(NFC_CORNERS)
def test_nfc_corners_encode_as_the_pure_path(engine, text):
    assert engine_encode(engine, text) == pure_encode(text)


def test_bad_options_raise_as_the_pure_path_does(engine):
    for options in (dict(normalize="nfkc"), dict(splitter="gpt2"), dict(profile="tight"), dict(fold="some"),
                    dict(case="title"), dict(features={"colour"})):
        assert outcome(functok.encode, "x", **options) == outcome(pure_encode, "x", **options)
    assert outcome(functok.encode, b"x") == outcome(pure_encode, b"x")


@pytest.mark.parametrize("profile", ["paper", "compact"])
def test_real_text_is_the_pure_path(engine, profile):
    for text in corpus_texts():
        assert engine_encode(engine, text, profile=profile) == pure_encode(text, profile=profile)
        for fuse in functok.FUSE_MODES:
            assert engine_pretokens(engine, text, fuse, profile=profile) == pure_pretokens(text, fuse, profile=profile)


@pytest.mark.parametrize("text", [
    "a" * 1_000_000, "ab" * 500_000, "\u0301\u0327" * 300_000, "e" + "\u0301\u0323" * 200_000,
    "\ue000" * 500_000, " " * 1_000_000, "A" * 100_000 + "b", "1" * 300_000,
])
def test_hostile_text_is_the_pure_path(engine, text):
    for profile in ("paper", "compact"):
        assert engine_encode(engine, text, profile=profile) == pure_encode(text, profile=profile)


# The core encodes a str in place, whatever its kind (1, 2 or 4 bytes a code point), a window of
# 16,384 code points at a time (native/core/stream.c), and writes the stream into a str made in the
# width it most likely needs, made longer or wider as it goes. These reach each of those paths.
WINDOW = 1 << 14


@pytest.mark.parametrize("text", [
    "", "a", "Ab", "é" * 3, "caf\u00e9 na\u00efve", "ABC\u0100", "\u0100" + "x" * 40_000,
    "\U0001F600 A", "e\u0301" * 20_000, "\u00e9" * 20_000,  # NFC already vs not
    "A " * 40_000,  # the stream is longer than the capacity first made
    "\u00e0" * 20_000 + "\ufa6c",  # NFC makes a 2-byte text astral: the stream's str widens
    "x" * 30_000 + "\ufa6c" + "Y" * 10,
])
def test_every_kind_and_width_is_the_pure_path(engine, text):
    for features in (encode_module.FEATURES, frozenset()):
        for normalize in ("nfc", None):
            result = engine_encode(engine, text, normalize=normalize, features=features)
            assert result == pure_encode(text, normalize=normalize, features=features)


WINDOW_FILLERS = st.sampled_from(["a", "A", " ", "\n", "é", "e\u0301", "1", "\u0301", ".", "\U0001F600", "ab"])


@given(WINDOW_FILLERS, st.integers(-12, 12), TEXT, st.sampled_from(OPTION_SETS))
def test_window_boundaries_are_the_pure_path(engine, filler, shift, text, options):
    """Text that straddles the end of the first window, after a run of one filler (a piece that
    goes on past a window, an NFC span cut by it, whitespace runs with a line break beyond it)."""
    prefix = (filler * WINDOW)[: WINDOW - len(text) // 2 + shift]
    long_text = prefix + text + " " + prefix
    assert outcome(engine_encode, engine, long_text, **options) == outcome(pure_encode, long_text, **options)


@given(st.integers(0, 300), st.sampled_from(["a", "\u00e9", "\u0100", "\U0001F600"]), st.sampled_from("\ud800\udbff\udc00\udfff"))
def test_a_surrogate_anywhere_in_a_long_text_is_the_same_error(engine, at, filler, surrogate):
    """The core scans 64 code units at a time for surrogates (2- and 4-byte strs)."""
    text = filler * at + surrogate + filler * 70 + surrogate
    assert outcome(engine_encode, engine, text) == outcome(pure_encode, text) == (FormatError, "lone-surrogate", at)


def test_long_pieces_cross_many_windows(engine):
    for text in ("\n" + " " * (3 * WINDOW) + "\n" + " " * 5 + "x",
                 " " * (2 * WINDOW + 1) + "\r\n x", "b" * (5 * WINDOW) + "C",
                 "e" + "\u0301\u0323" * (2 * WINDOW) + "f", "a\u0308" * (3 * WINDOW)):
        for options in OPTION_SETS[::7]:
            assert engine_encode(engine, text, **options) == pure_encode(text, **options)


def test_functok_pure_makes_the_pure_path_run(native):
    code = "import functok; print(functok.backend())"
    for value, expected in (("1", "pure"), ("0", "native"), ("", "native")):
        env = dict(os.environ, FUNCTOK_PURE=value, PYTHONPATH=str(REPO / "python"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert out.stdout.strip() == expected


def test_the_version_names_the_path_that_runs(native):
    for value, expected in (("1", "pure Python)"), ("", "C core)")):
        env = dict(os.environ, FUNCTOK_PURE=value, PYTHONPATH=str(REPO / "python"))
        out = subprocess.run([sys.executable, "-m", "functok", "--version"], capture_output=True, text=True,
                             env=env, check=True)
        assert expected in out.stdout


# --- the suite's third implementation: the C core through the protocol ---------------------------

def test_the_c_core_passes_every_vector_through_the_protocol(native):
    """`functok conformance-server --require-native` is the C core speaking the protocol (the
    implementations table's third row): every vector passes, run as any other program is."""
    from functok.conformance import load_suite, run_suite
    from functok.conformance.transport import CommandTransport

    suite = load_suite(REPO / "conformance" / "vectors")
    transport = CommandTransport([sys.executable, "-m", "functok", "conformance-server", "--require-native"])
    try:
        report = run_suite(suite, transport)
    finally:
        transport.close()
    assert report.implementation["name"] == "functok (C core)"
    failures = [f"{r.id}: {r.message}" for r in report.results if r.status != "passed"]
    assert not failures, "\n".join(failures[:20])
    assert report.count("passed") == len(suite.vectors)


def test_require_native_refuses_the_pure_path():
    done = subprocess.run([sys.executable, "-m", "functok", "conformance-server", "--require-native"],
                          input='{"cmd": "start"}\n', capture_output=True, text=True,
                          env={**os.environ, seam.PURE_VARIABLE: "1"}, timeout=60)
    assert done.returncode == 2
    assert "--require-native" in done.stderr and done.stdout == ""
