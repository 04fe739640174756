"""The C core (native/, functok._native) against the pure-Python reference: the same output, or
the same error (type, kind, offset), for every option, on arbitrary and real text.

Where a C compiler exists the core is built by `pip install`; CI has one, so there a missing core
is a failure, not a skip.
"""

from __future__ import annotations

import importlib
import itertools
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO, read_text_or_none, stdlib_sources, udhr_files

import functok
native_module = importlib.import_module("functok.native")
from functok.errors import FormatError

encode_module = importlib.import_module("functok.encode")  # functok.encode is the function
pretokenize_module = importlib.import_module("functok.pretokenize")


def _native_or_skip():
    try:
        return importlib.import_module("functok._native")
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("functok._native is not built: CI has a compiler, so `pip install` should build it")
        pytest.skip("functok._native is not built here (no C compiler at install time)")


@pytest.fixture(scope="module")
def native():
    return _native_or_skip()


def pure_encode(text, **options):
    return "".join(encode_module.encoded_pieces(text, **options))


def pure_pretokens(text, fuse, **options):
    saved = pretokenize_module.native
    pretokenize_module.native = None
    try:
        return functok.pretokens(text, fuse=fuse, **options)
    finally:
        pretokenize_module.native = saved


def native_encode(native, text, **options):
    return native.encode(*encode_module.native_arguments(text, **options))


def native_pretokens(native, text, fuse, **options):
    return native.pretokens(*encode_module.native_arguments(text, **options), functok.FUSE_MODES.index(fuse))


def outcome(call, *args, **kwargs):
    """A call's result, or its error as (type, kind, offset)."""
    try:
        return call(*args, **kwargs)
    except FormatError as error:
        return (FormatError, error.kind, error.offset)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))


OPTION_SETS = [
    dict(normalize=normalize, splitter=splitter, profile=profile, fold=fold, case=case, features=features)
    for normalize, splitter, profile, fold, case, features in itertools.product(
        ("nfc", None), ("llama3", "paper"), ("paper", "compact"), (None, "all", "no-whitespace", "none"),
        (None, "capitalize", "range"),
        (encode_module.FEATURES, frozenset({"case"}), frozenset({"marks", "repeat"}), frozenset()))
]

# Text that reaches every branch: all planes, private use (escaped), the 13 marks and other
# combining marks in any order, capitals and caseless letters, runs and units, digits, line breaks.
ALPHABET = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from("aAbBéÉ\u0301\u0308\u0327\u0323\u031b ooOO\t\n\r  123٣\ue000\ue100\uefff\uf8ff'sSﬁǅẞİ"),
    st.characters(min_codepoint=0x300, max_codepoint=0x36F),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xAC20),
    st.characters(min_codepoint=0x1100, max_codepoint=0x1175),
)
TEXT = st.text(ALPHABET, max_size=60)


def test_the_backend_is_native_where_the_core_is_built(native):
    assert functok.backend() == "native"
    assert functok.encode("Héllo") == pure_encode("Héllo")


@given(TEXT, st.sampled_from(OPTION_SETS))
def test_encode_is_the_pure_path(native, text, options):
    assert outcome(native_encode, native, text, **options) == outcome(pure_encode, text, **options)


@given(TEXT, st.sampled_from(OPTION_SETS), st.sampled_from(functok.FUSE_MODES))
def test_pretokens_are_the_pure_path(native, text, options, fuse):
    assert (outcome(native_pretokens, native, text, fuse, **options)
            == outcome(pure_pretokens, text, fuse, **options))


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("\ud800\udfff"), max_size=30))
def test_lone_surrogates_are_the_same_error(native, text):
    for normalize in ("nfc", None):
        assert (outcome(native_encode, native, text, normalize=normalize)
                == outcome(pure_encode, text, normalize=normalize))


@given(TEXT)
def test_nfc_and_split_are_the_pure_path(native, text):
    from functok.normalize import nfc

    assert native.nfc(text) == nfc(text)
    for splitter, digits in native_module.MAX_DIGITS.items():
        assert native.split(text, digits) == functok.split(text, splitter=splitter)


# NFC's corners: Hangul jamo (L V T) and syllables (LV, LVT) compose algorithmically; marks of
# different classes reorder; a composite excluded from composition stays decomposed.
NFC_CORNERS = st.text(st.sampled_from("\u1100\u1112\u1161\u1175\u11a8\u11c2\uac00\uac01\ud7a3"
                                      "Aae\u0301\u0323\u0308\u0327\u031b\u0344\u0958\u212b\u00c5"), max_size=12)


@given(NFC_CORNERS)
def test_nfc_corners_are_the_pure_path(native, text):
    from functok.normalize import nfc

    assert native.nfc(text) == nfc(text)
    assert native_encode(native, text) == pure_encode(text)


def test_bad_options_raise_as_the_pure_path_does(native):
    for options in (dict(normalize="nfkc"), dict(splitter="gpt2"), dict(profile="tight"), dict(fold="some"),
                    dict(case="title"), dict(features={"colour"})):
        assert outcome(functok.encode, "x", **options) == outcome(pure_encode, "x", **options)
    assert outcome(functok.encode, b"x") == outcome(pure_encode, b"x")


def corpus_texts() -> list[str]:
    texts = [t for t in map(read_text_or_none, stdlib_sources()[::40]) if t]
    texts += [t for t in map(read_text_or_none, udhr_files()[::8]) if t]
    return texts


@pytest.mark.parametrize("profile", ["paper", "compact"])
def test_real_text_is_the_pure_path(native, profile):
    for text in corpus_texts():
        assert native_encode(native, text, profile=profile) == pure_encode(text, profile=profile)
        for fuse in functok.FUSE_MODES:
            assert native_pretokens(native, text, fuse, profile=profile) == pure_pretokens(text, fuse, profile=profile)


@pytest.mark.parametrize("text", [
    "a" * 1_000_000, "ab" * 500_000, "\u0301\u0327" * 300_000, "e" + "\u0301\u0323" * 200_000,
    "\ue000" * 500_000, " " * 1_000_000, "A" * 100_000 + "b", "1" * 300_000,
])
def test_hostile_text_is_the_pure_path(native, text):
    for profile in ("paper", "compact"):
        assert native_encode(native, text, profile=profile) == pure_encode(text, profile=profile)


def test_functok_pure_makes_the_pure_path_run(native):
    code = "import functok; print(functok.backend())"
    for value, expected in (("1", "pure"), ("0", "native"), ("", "native")):
        env = dict(os.environ, FUNCTOK_PURE=value, PYTHONPATH=str(REPO / "python"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert out.stdout.strip() == expected


def test_the_tables_are_fresh():
    result = subprocess.run([sys.executable, str(REPO / "native" / "tools" / "generate_tables.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


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
                          env={**os.environ, native_module.PURE_VARIABLE: "1"}, timeout=60)
    assert done.returncode == 2
    assert "--require-native" in done.stderr and done.stdout == ""
