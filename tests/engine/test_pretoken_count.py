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

counting = importlib.import_module("functok.tokenizer.pretoken_counts")


@pytest.fixture(scope="module")
def native():
    """The C core, which the count runs on here even under FUNCTOK_PURE=1 (as tests/engine/test_codec.py)."""
    core = native_or_skip()
    saved, counting.native = counting.native, core
    yield core
    counting.native = saved


def counted(how, texts, normalize, splitter, fuse, profile):
    """(counts, chains) as training counts them (``fuse="frequent"``: the "none" pre-tokens and the
    chains), or the error as (type, kind, offset)."""
    chains = ChainCounter() if fuse == "frequent" else None
    count = counting._native_pretoken_counts if how == "native" else counting.pure_pretoken_counts
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
    monkeypatch.setattr(counting, "native", None)  # the Python count
    assert Tokenizer.train(iter(CORPUS), vocab_size=400, fuse=fuse, show_progress=False).to_str() == trained


# --- the flat form (count_pretokens_packed): the same counts, no Python object per key --------


def packed_as_lists(native, texts, normalize, splitter, fuse, profile):
    """count_texts_packed's counts as the lists ``counted`` gives, and the facts it adds."""
    options = counting.CountOptions(normalize=normalize, splitter=splitter, fuse=fuse, profile=profile)
    try:
        packed = counting.count_texts_packed(iter(texts), options)
    except FormatError as error:
        return (FormatError, error.kind, error.offset), None
    assert isinstance(packed, counting.PackedPretokenCounts)
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
    assert facts[:3] == (counting.separator_for(words), max(map(len, words), default=0), len(set("".join(words))))
    if options[2] == "frequent":
        assert facts[3] == max((sum(map(len, c)) for c, _ in expected[1]), default=0)


def test_packed_counts_train_the_same_file(native, tmp_path):
    need_tokenizers()
    texts = ["The Cat sat. THE CAT SAT! the cat, déjà vu: Déjà Vu " * 20, "def f(x):\n    return X + 1\n" * 30,
             "a" * 2500 + " b"]
    for fuse in ("frequent", "none"):
        options = counting.CountOptions(normalize="nfc", splitter="llama3", fuse=fuse, profile="compact")
        files = []
        for counts in (counting.count_texts(iter(texts), options), counting.count_texts_packed(iter(texts), options)):
            trained = Tokenizer.train(counts, vocab_size=400, fuse=fuse, profile="compact", show_progress=False)
            trained.save(tmp_path / "t.json")
            files.append((tmp_path / "t.json").read_bytes())
        assert files[0] == files[1], fuse


# --- shards merged and pruned in flat form (merge_packed_counts, min_count) -------------------


def as_lists(counts):
    """Counts (flat or dicts) as lists of (key, count) in their order."""
    counts = counts.unpacked() if isinstance(counts, counting.PackedPretokenCounts) else counts
    return list(counts.words.items()), None if counts.chains is None else list(counts.chains.items())


@given(st.lists(TEXTS, min_size=1, max_size=4), st.sampled_from(OPTIONS), st.integers(1, 4))
def test_packed_shards_merged_and_pruned_are_the_dict_counts(native, shards, options, min_count):
    """Shards counted apart, each pruned to min_count, added up in the C core: the keys, order
    and counts of the same shards as dicts added up in Python (PretokenCounts.update)."""
    options = counting.CountOptions(*options)
    try:
        want = [counting.count_texts(iter(texts), options).pruned(min_count) for texts in shards]
    except FormatError:
        return
    flat = [counting.count_texts_packed(iter(texts), options, min_count=min_count) for texts in shards]
    assert [as_lists(shard) for shard in flat] == [as_lists(shard) for shard in want]
    merged = counting.add_up_counts(iter(flat))
    assert isinstance(merged, counting.PackedPretokenCounts)
    assert as_lists(merged) == as_lists(counting.add_up_counts(iter(want)))
    words = dict(as_lists(merged)[0])
    assert (merged.words.longest, merged.words.characters) == (max(map(len, words), default=0),
                                                               len(set("".join(words))))


def test_merged_shards_are_freed_as_they_are_added(native):
    options = counting.CountOptions("nfc", "llama3", "frequent", "compact")
    shards = [counting.count_texts_packed(iter([f"The cat {k}. THE CAT!"]), options) for k in range(3)]
    counting.add_up_counts(iter(shards))
    assert all(len(shard.words) == 0 and shard.chains is None for shard in shards)  # taken: nothing held twice


@pytest.mark.parametrize("shard, error", [
    ((("\x01", b"a\x01b", (1).to_bytes(8, "little")), None), ValueError),  # two keys, one count
    ((("\x01", b"a\xffb", (1).to_bytes(8, "little")), None), ValueError),  # not UTF-8
    ((("\x01", b"a", b"\x01\x00"), None), ValueError),  # not whole uint64 counts
    ((("\x01", b"a", (0).to_bytes(8, "little")), None), ValueError),  # a count of 0
    ((("\x01\x02", b"a", (1).to_bytes(8, "little")), None), ValueError),  # a separator of two characters
    ((("\x01", b"a", (1).to_bytes(8, "little")), (["a"], (5).to_bytes(4, "little"),
                                                   bytes(8) + (1).to_bytes(8, "little"),
                                                   (1).to_bytes(8, "little"))), ValueError),  # segment 5 of 1
    ((("\x01", b"a", (1).to_bytes(8, "little")), (["a"], bytes(4), bytes(8), (1).to_bytes(8, "little"))),
     ValueError),  # chain_starts one short
    (("words only",), TypeError),
])
def test_malformed_packed_shards_are_refused(native, shard, error):
    with pytest.raises(error):
        native.merge_packed_counts(iter([shard]), True)


def test_a_merged_count_past_2_64_is_an_overflow_error(native):
    big = (("\x01", b"a", (2**64 - 1).to_bytes(8, "little")), None)
    assert native.merge_packed_counts(iter([big]), False)[0][2] == (2**64 - 1).to_bytes(8, "little")
    with pytest.raises(OverflowError, match="2\\*\\*64"):
        native.merge_packed_counts(iter([big, (("\x01", b"a", (1).to_bytes(8, "little")), None)]), False)
