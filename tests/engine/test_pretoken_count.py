"""Training's pre-token counting in the C core (native/core/count.c, ``count_pretokens``) against
the Python count: the same counts and chains, in the same order (the order the trainer is fed),
or the same error; and the same trained tokenizer file for every fuse mode."""

from __future__ import annotations

import importlib
import itertools
import os
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import read_text_or_none, stdlib_sources, udhr_files, native_or_skip
from fixtures.trained import need_tokenizers

from functok import FUSE_MODES, Tokenizer
from functok.errors import FormatError
from functok.tokenizer.fusion import ChainCounter

train = importlib.import_module("functok.tokenizer.train")


@pytest.fixture(scope="module")
def native():
    """The C core, which the count runs on here even under FUNCTOK_PURE=1 (as tests/engine/test_codec.py)."""
    core = native_or_skip()
    saved, train.native = train.native, core
    yield core
    train.native = saved


def counted(how, texts, normalize, splitter, fuse, profile):
    """(counts, chains) as training counts them (``fuse="frequent"``: the "none" pre-tokens and the
    chains), or the error as (type, kind, offset)."""
    chains = ChainCounter() if fuse == "frequent" else None
    count = train._native_pretoken_counts if how == "native" else train.pure_pretoken_counts
    try:
        counts = count(iter(texts), normalize, splitter, "none" if chains else fuse, profile, chains)
    except FormatError as error:
        return (FormatError, error.kind, error.offset)
    except TypeError as error:
        return (TypeError, str(error))
    assert type(counts) is Counter
    return list(counts.items()), chains and list(chains.chains.items())


OPTIONS = list(itertools.product(("nfc", None), ("llama3", "paper"), FUSE_MODES, ("paper", "compact")))

ALPHABET = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from("aAbBéÉ\u0301\u0308\u0327 ooOO\t\n\r  123\ue000\ue100\uefff'sSﬁǅẞİ.,"),
)
TEXTS = st.lists(st.text(ALPHABET, max_size=40), max_size=6)


@given(TEXTS, st.sampled_from(OPTIONS))
def test_counts_are_the_pure_counts(native, texts, options):
    assert counted("native", texts, *options) == counted("pure", texts, *options)


@given(st.lists(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("\ud800\udfff"),
                        max_size=20), max_size=4))
def test_a_lone_surrogate_is_the_same_error(native, texts):
    options = ("nfc", "llama3", "frequent", "compact")
    assert counted("native", texts, *options) == counted("pure", texts, *options)


def test_a_text_that_is_not_a_str_is_a_type_error(native):
    for fuse in FUSE_MODES:  # (Tokenizer.train's reader refuses it first, with the same words)
        assert counted("native", ["fine", b"bytes"], "nfc", "llama3", fuse, "compact") == (
            TypeError, "expected texts (str), got bytes")


def test_an_error_from_the_texts_comes_through(native):
    def texts():
        yield "Some text. "
        raise OSError("the corpus broke")

    with pytest.raises(OSError, match="the corpus broke"):
        counted("native", texts(), "nfc", "llama3", "frequent", "compact")


@pytest.mark.parametrize("profile", ["paper", "compact"])
def test_real_text_counts_are_the_pure_counts(native, profile):
    texts = [t for t in map(read_text_or_none, stdlib_sources()[::60] + udhr_files()[::10]) if t]
    for fuse in FUSE_MODES:
        assert counted("native", texts, "nfc", "llama3", fuse, profile) == counted(
            "pure", texts, "nfc", "llama3", fuse, profile)


def test_hostile_text_counts_are_the_pure_counts(native):
    texts = ["ab" * 300_000, "A B " * 50_000, "\u0301" * 100_000, "x" * 200_000 + "Y", " " * 100_000]
    for fuse in FUSE_MODES:
        assert counted("native", texts, "nfc", "llama3", fuse, "compact") == counted(
            "pure", texts, "nfc", "llama3", fuse, "compact")


CORPUS = ["The quick brown fox jumps over the lazy dog. THE DOG SLEEPS, the Fox runs!",
          "Héllo Wörld, ÉCOLE école Ecole.\n\n    indented = True  # a comment",
          "Die Würde des Menschen ist unantastbar. ДОБРО пожаловать. 東京 Tōkyō"] * 5


@pytest.mark.parametrize("fuse", FUSE_MODES)
def test_the_trained_tokenizer_is_the_pure_one(native, monkeypatch, fuse):
    need_tokenizers()
    trained = Tokenizer.train(iter(CORPUS), vocab_size=400, fuse=fuse, show_progress=False).to_str()
    monkeypatch.setattr(train, "native", None)  # the Python count
    assert Tokenizer.train(iter(CORPUS), vocab_size=400, fuse=fuse, show_progress=False).to_str() == trained


# --- the flat form (count_pretokens_packed): the same counts, no Python object per key --------


def packed_as_lists(native, texts, normalize, splitter, fuse, profile):
    """count_texts_packed's counts as the lists ``counted`` gives, and the facts it adds."""
    options = train.CountOptions(normalize=normalize, splitter=splitter, fuse=fuse, profile=profile)
    try:
        packed = train.count_texts_packed(iter(texts), options)
    except FormatError as error:
        return (FormatError, error.kind, error.offset), None
    assert isinstance(packed, train.PackedPretokenCounts)
    words, chains = packed.words, packed.chains
    facts = (words.separator, words.longest, words.characters, None if chains is None else chains.longest)
    unpacked = packed.unpacked()
    return (list(unpacked.words.items()), None if chains is None else list(unpacked.chains.items())), facts


@given(TEXTS, st.sampled_from(OPTIONS))
def test_packed_counts_are_the_counts(native, texts, options):
    got, facts = packed_as_lists(native, texts, *options)
    expected = counted("native", texts, *options)
    assert got == expected
    if facts is None:
        return
    words = dict(expected[0])
    assert facts[:3] == (train._separator(words), max(map(len, words), default=0), len(set("".join(words))))
    if options[2] == "frequent":
        assert facts[3] == max((sum(map(len, c)) for c, _ in expected[1]), default=0)


def test_packed_counts_train_the_same_file(native, tmp_path):
    need_tokenizers()
    texts = ["The Cat sat. THE CAT SAT! the cat, déjà vu: Déjà Vu " * 20, "def f(x):\n    return X + 1\n" * 30,
             "a" * 2500 + " b"]
    for fuse in ("frequent", "none"):
        options = train.CountOptions(normalize="nfc", splitter="llama3", fuse=fuse, profile="compact")
        files = []
        for counts in (train.count_texts(iter(texts), options), train.count_texts_packed(iter(texts), options)):
            trained = Tokenizer.train(counts, vocab_size=400, fuse=fuse, profile="compact", show_progress=False)
            trained.save(tmp_path / "t.json")
            files.append((tmp_path / "t.json").read_bytes())
        assert files[0] == files[1], fuse
