"""The C core's optimal segmenter (native/core/segment.c, functok._native.Segmenter) against the
pure reference (functok.tokenizer.segment.Segmenter, spec 10): the same ids under both
tie-breaks, with and without byte fallback and reachable_only, and the same errors (type and
message), on random vocabularies, the brute-force oracle, tokenizers trained on the corpora, the
conformance vectors and hostile words.

Where a C compiler exists the core is built by `pip install`; CI has one, so there a missing core
is a failure, not a skip.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO, random_bpe, read_text_or_none, stdlib_sources, udhr_files, native_or_skip
from functok.conformance import ops
from functok.tokenizer.bpe import BPE, byte_fallback_token
from functok.tokenizer.segment import Segmenter, brute_force

seam = importlib.import_module("functok.engine")  # Vocabulary asks it for its segmenter
vocabulary_module = importlib.import_module("functok.tokenizer.vocabulary")




@pytest.fixture(scope="module")
def native():
    return native_or_skip()


def outcome(call):
    """What a call gives: ("ok", value) or ("error", exception type, message)."""
    try:
        return ("ok", call())
    except Exception as error:  # noqa: BLE001 - the type and message are what is compared
        return ("error", type(error), str(error))


def assert_same(native_seg, pure_seg, word, greedy=None):
    """Both segmenters agree on every method Vocabulary uses (and count)."""
    assert outcome(lambda: native_seg.leftmost_longest(word)) == outcome(lambda: pure_seg.leftmost_longest(word))
    assert outcome(lambda: native_seg.segment(word)) == outcome(lambda: pure_seg.segment(word))
    assert outcome(lambda: native_seg.count(word)) == outcome(lambda: pure_seg.count(word))
    if greedy is not None:
        options = {"tie_break": "prefer-greedy", "greedy": greedy}
        assert outcome(lambda: native_seg.segment(word, **options)) == outcome(lambda: pure_seg.segment(word, **options))


def _byte_ids(symbol: str) -> list[int]:
    return [1000 + b for b in symbol.encode("utf-8")]


ALL_BYTES = [1000 + b for b in range(256)]


# --- random vocabularies and the oracle ---------------------------------------------------


@st.composite
def small_vocab(draw, alphabet="abc"):
    """Random tokens over a small alphabet (not always every single symbol), ids in order."""
    singles = draw(st.lists(st.sampled_from(alphabet), unique=True, min_size=0))
    longer = draw(st.lists(st.text(alphabet, min_size=2, max_size=5), max_size=12))
    return {t: i for i, t in enumerate(dict.fromkeys(singles + longer))}


@given(small_vocab(), st.text("abc", max_size=12))
def test_equals_the_pure_segmenter_and_the_oracle(native, vocab, word):
    seg = native.Segmenter(vocab)
    assert_same(seg, Segmenter(vocab), word)
    best = brute_force(word, vocab)
    if best:
        assert seg.leftmost_longest(word) == best[0]
        assert seg.count(word) == len(best[0])


@given(small_vocab("abé€𝄞"), st.text("abé€𝄞x", max_size=10))
def test_byte_fallback_equals_the_pure_segmenter_and_the_oracle(native, vocab, word):
    seg = native.Segmenter(vocab, ALL_BYTES, _byte_ids)
    assert_same(seg, Segmenter(vocab, fallback=_byte_ids), word)
    assert seg.leftmost_longest(word) == brute_force(word, vocab, _byte_ids)[0]


@given(random_bpe(), st.text("abc", max_size=30))
def test_prefer_greedy_against_bpe(native, model, word):
    vocab, merges = model
    greedy = BPE(vocab, merges).tokenize(word)
    assert_same(native.Segmenter(vocab), Segmenter(vocab), word, greedy=greedy)


@given(small_vocab(), st.text("abc", max_size=12))
def test_bytes_vocabularies(native, vocab, word):
    """Byte-level vocabularies (tiktoken rank files): tokens and words are bytes."""
    vocab = {t.encode(): i for t, i in vocab.items()}
    assert_same(native.Segmenter(vocab), Segmenter(vocab), word.encode())


def _vocabulary_fallback(tokens):
    """Vocabulary._byte_fallback_ids over tokens that lack some byte tokens (its error included)."""

    def fallback(symbol):
        ids = [tokens.get(byte_fallback_token(b)) for b in symbol.encode("utf-8")]
        if None in ids:
            raise ValueError(f"{symbol!r} is not in the vocabulary and has no byte fallback")
        return ids

    return fallback


@given(small_vocab("ab"), st.text("abé€\ud800", max_size=8), st.sets(st.integers(0, 255)))
def test_missing_byte_tokens_raise_the_pure_error(native, vocab, word, missing):
    """A symbol that is no token and whose bytes lack a token: the pure path's ValueError (its
    rightmost such symbol); a lone surrogate: its UnicodeEncodeError."""
    tokens = dict(vocab)
    for b in range(256):
        if b not in missing:
            tokens[byte_fallback_token(b)] = 1000 + b
    byte_ids = [tokens.get(byte_fallback_token(b)) for b in range(256)]
    fallback = _vocabulary_fallback(tokens)
    assert_same(native.Segmenter(vocab, byte_ids, fallback), Segmenter(vocab, fallback=fallback), word)


def test_errors_are_the_pure_errors(native):
    vocab = {"a": 0, "ab": 1, "é€": 2}
    fallback = _vocabulary_fallback({})
    cases = [
        (native.Segmenter(vocab), Segmenter(vocab), "abc" * 30),  # no token, no fallback: s[:40]
        (native.Segmenter(vocab), Segmenter(vocab), ""),
        (native.Segmenter(vocab, [None] * 256, fallback), Segmenter(vocab, fallback=fallback), "aéb€a"),
        (native.Segmenter(vocab, [None] * 256, fallback), Segmenter(vocab, fallback=fallback), "é€"),  # whole
        (native.Segmenter({b"a": 0}, ALL_BYTES, _byte_ids), Segmenter({b"a": 0}, fallback=_byte_ids), b"aba"),
        (native.Segmenter({b"a": 0}, ALL_BYTES, _byte_ids), Segmenter({b"a": 0}, fallback=_byte_ids), b"aa"),
        (native.Segmenter({}), Segmenter({}), b"ab"),
        (native.Segmenter({"": 7, "a": 0}), Segmenter({"": 7, "a": 0}), ""),  # the empty token
    ]
    for native_seg, pure_seg, word in cases:
        assert_same(native_seg, pure_seg, word)
    assert outcome(lambda: native.Segmenter(vocab).segment("a", tie_break="rightmost")) == outcome(
        lambda: Segmenter(vocab).segment("a", tie_break="rightmost"))
    assert outcome(lambda: native.Segmenter(vocab).segment("a", tie_break="prefer-greedy")) == outcome(
        lambda: Segmenter(vocab).segment("a", tie_break="prefer-greedy"))
    with pytest.raises(ValueError, match="no segmentation of 'abcabc"):
        native.Segmenter(vocab).segment("abc" * 30)


def test_construction_checks_its_input(native):
    with pytest.raises(TypeError):
        native.Segmenter({"a": 0, b"b": 1})
    with pytest.raises(TypeError):
        native.Segmenter({"a": "0"})
    with pytest.raises(OverflowError):
        native.Segmenter({"a": 2**32})
    with pytest.raises(ValueError):
        native.Segmenter({"a": 0}, [0] * 255, _byte_ids)
    with pytest.raises(TypeError):
        native.Segmenter({"a": 0}, ALL_BYTES)  # byte fallback comes with the pure fallback function
    seg = native.Segmenter({"a": 0})
    with pytest.raises(TypeError):
        seg.segment(b"a")
    assert seg.tokens == {"a": 0} and seg.fallback is None


# --- vocabularies: the native segmenter is the one Vocabulary uses ---------------------------


def pure_segmenter(vocabulary, reachable_only):
    fallback = vocabulary._byte_fallback_ids if vocabulary.byte_fallback else None
    return Segmenter(vocabulary.candidates(reachable_only=reachable_only), fallback=fallback)


@pytest.fixture
def native_vocabularies(native, monkeypatch):
    """Vocabularies built in the test use the C core's segmenter, even under FUNCTOK_PURE=1."""
    use_core_segmenter(native, monkeypatch)
    return native


def use_core_segmenter(native, monkeypatch) -> None:
    """The seam's segmenter op on the C core (the native engine's), even under FUNCTOK_PURE=1."""
    monkeypatch.setattr(seam, "_core_module", native)
    monkeypatch.setattr(seam, "segmenter", seam._core_engine("native", native).segmenter)


def _compare_vocabulary(native, vocabulary, texts):
    vocabulary._segmenters.clear()
    for reachable_only in (False, True):
        seg = vocabulary.segmenter(reachable_only=reachable_only)
        assert isinstance(seg, native.Segmenter)
        pure = pure_segmenter(vocabulary, reachable_only)
        seen = set()
        for text in texts:
            for pretoken in vocabulary.pre_tokenize(text):
                if pretoken in seen:
                    continue
                seen.add(pretoken)
                word = vocabulary.symbols.spell(pretoken)
                assert_same(seg, pure, word, greedy=vocabulary.ids(pretoken))
        assert len(seen) > 100


def _corpus_sample(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    udhr = sorted(udhr_files())
    stdlib = sorted(stdlib_sources())
    paths = rng.sample(udhr, min(count, len(udhr))) + rng.sample(stdlib, min(count, len(stdlib)))
    return [t[:20_000] for t in map(read_text_or_none, paths) if t]


def test_trained_tokenizers_on_the_corpora(native_vocabularies):
    pytest.importorskip("tokenizers")
    from fixtures.trained import stdlib_texts, udhr_texts
    from functok.tokenizer import Tokenizer

    train, _ = stdlib_texts()
    texts = _corpus_sample(22, 12)
    udhr = udhr_texts()
    small = Tokenizer.train(iter(udhr[::7] + list(train[:20])), vocab_size=700, profile="compact",
                            fuse="frequent", show_progress=False)  # much byte fallback
    larger = Tokenizer.train(iter(list(train[:60]) + udhr[::5]), vocab_size=4000, show_progress=False)
    for tok in (small, larger):
        _compare_vocabulary(native_vocabularies, tok.vocabulary, texts)


def test_tokenizer_encode_optimal_is_the_same(native, monkeypatch):
    """Tokenizer.encode(segmentation="optimal"), end to end, on the corpora: native and pure."""
    pytest.importorskip("tokenizers")
    from fixtures.trained import stdlib_tokenizer

    tok = stdlib_tokenizer()
    texts = _corpus_sample(7, 6) + ["\ue000\U000f0000\U0010fffd" * 300]
    results = {}
    for path in ("native", "pure"):
        if path == "native":
            use_core_segmenter(native, monkeypatch)
        else:
            monkeypatch.setattr(seam, "segmenter", seam.PURE_ENGINE.segmenter)
        tok.vocabulary._segmenters.clear()
        tok.vocabulary.clear_caches()
        results[path] = [
            [tok.encode(text, segmentation="optimal", tie_break=tie_break, reachable_only=reachable,
                        disallowed_special=()).ids for text in texts]
            for tie_break in ("leftmost-longest", "prefer-greedy") for reachable in (False, True)
        ]
        assert isinstance(tok.vocabulary.segmenter(), native.Segmenter) == (path == "native")
    tok.vocabulary._segmenters.clear()
    tok.vocabulary.clear_caches()
    assert results["native"] == results["pure"]


def test_gpt2_ranks(native_vocabularies):
    """A byte-level rank file (bytes tokens and bytes words), where one is found."""
    from functok.tokenizer.external import find_gpt2_tiktoken, load_tiktoken

    path = find_gpt2_tiktoken()
    if path is None:
        pytest.skip("no GPT-2 rank file here (optional data: $FUNCTOK_GPT2_TIKTOKEN)")
    vocabulary = load_tiktoken(path, pattern="gpt2")
    _compare_vocabulary(native_vocabularies, vocabulary, _corpus_sample(3, 4))


# --- the conformance vectors run through the C core ------------------------------------------


def _vectors(name):
    return json.loads((REPO / "conformance" / "vectors" / f"{name}.json").read_text(encoding="utf-8"))["tests"]


SEGMENT_VECTORS = _vectors("segment")
OPTIMAL_VECTORS = [v for v in _vectors("tokenize") if v["options"].get("segmentation") == "optimal"]


@pytest.fixture
def counting_core(native, monkeypatch):
    """The C core, with a count of the native segmenters made (so a vector that passed without
    the core would show)."""
    made = []

    def segmenter(*args):
        made.append(args)
        return native.Segmenter(*args)

    monkeypatch.setattr(seam, "segmenter", segmenter)
    return made


@pytest.mark.parametrize("vector", SEGMENT_VECTORS, ids=lambda v: v["id"])
def test_segment_vectors(counting_core, vector):
    assert ops.segment(vector["input"], vector["options"]) == vector["expected"]
    assert counting_core


@pytest.mark.parametrize("vector", OPTIMAL_VECTORS, ids=lambda v: v["id"])
def test_optimal_tokenize_vectors(counting_core, vector):
    assert ops.tokenize(vector["input"], vector["options"]) == vector["expected"]
    assert counting_core


def test_the_tokenize_vectors_include_tok_34_to_39():
    assert {f"tok-{k}" for k in range(34, 40)} <= {v["id"] for v in OPTIMAL_VECTORS}


# --- hostile words ---------------------------------------------------------------------------


def test_a_100k_private_use_word_with_byte_fallback(native):
    rng = random.Random(22)
    soup = "".join(chr(rng.choice([rng.randrange(0xE000, 0xF900), rng.randrange(0xF0000, 0xFFFFE),
                                   rng.randrange(0x61, 0x64)])) for _ in range(100_000))
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, soup[500:503]: 5, soup[9000:9040]: 6}
    seg = native.Segmenter(vocab, ALL_BYTES, _byte_ids)
    ids = seg.leftmost_longest(soup)
    assert ids == Segmenter(vocab, fallback=_byte_ids).leftmost_longest(soup)
    assert 6 in ids and len(ids) > 200_000


def test_long_tokens_and_nested_runs(native):
    """512-symbol tokens over a 100,000-symbol word, and a run where every length is a token."""
    rng = random.Random(4)
    text = "".join(rng.choice("abcdefgh") for _ in range(100_000))
    vocab = {c: i for i, c in enumerate("abcdefgh")}
    for k in range(40):
        start = k * 2500 + rng.randrange(0, 1000)
        for length in (512, 256, 128, 64):
            vocab.setdefault(text[start : start + length], len(vocab))
    assert native.Segmenter(vocab).leftmost_longest(text) == Segmenter(vocab).leftmost_longest(text)
    nested = {"x" * n: n for n in range(1, 513)}
    assert native.Segmenter(nested).segment("x" * 20_000) == [512] * 39 + [32]
    run = {b"x" * n: n for n in range(1, 513)}
    assert native.Segmenter(run).segment(b"x" * 100_001) == [512] * 195 + [161]


def test_threads_share_one_segmenter(native):
    """The core is read-only once built and each call has its own scratch: threads agree."""
    rng = random.Random(5)
    vocab = {"".join(rng.choice("abcd") for _ in range(rng.randrange(1, 7))): i for i in range(300)}
    vocab.update({c: 1000 + k for k, c in enumerate("abcd")})
    seg, pure = native.Segmenter(vocab), Segmenter(vocab)
    words = ["".join(rng.choice("abcd") for _ in range(rng.randrange(1, 3000))) for _ in range(40)]
    expected = [pure.leftmost_longest(w) for w in words]
    results = [None] * 4

    def work(k):
        results[k] = [seg.leftmost_longest(w) for w in words]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_ids_are_the_vocabularys_own_objects(native):
    """The lists share the id objects of the tokens (and byte_ids), as the pure path's do: a
    pre-token cache holds many of them, and new ints would cost memory the pure path does not."""
    tokens = {f"t{i}": i for i in range(2000)}
    tokens.update({"a": int("2000"), "b": int("2001"), "ab": int("2002")})  # ints of their own
    byte_ids = [int(str(2003 + b)) for b in range(256)]
    seg = native.Segmenter(tokens, byte_ids, _byte_ids)
    ids = seg.leftmost_longest("abé")
    assert ids == [2002, 2003 + 0xC3, 2003 + 0xA9]
    assert ids[0] is tokens["ab"] and ids[1] is byte_ids[0xC3]
    sparse = native.Segmenter({"a": 2**31, "b": 1})  # ids far apart: new ints, same values
    assert sparse.leftmost_longest("ab") == [2**31, 1]


def test_a_vocabulary_and_its_segmenter_are_collected(native_vocabularies, monkeypatch):
    """Vocabulary -> its segmenter -> the fallback (a bound method) -> the vocabulary: a cycle
    that the garbage collector must see through the native type."""
    import gc
    import weakref

    from functok.conformance.ops import segment as run_vector  # builds a byte-fallback vocabulary

    made = []
    original = vocabulary_module.Vocabulary._new_segmenter

    def spy(self, reachable_only):
        made.append(weakref.ref(self))
        return original(self, reachable_only)

    monkeypatch.setattr(vocabulary_module.Vocabulary, "_new_segmenter", spy)
    assert run_vector("aé", {"tokens": ["a"], "byte_fallback": True}) == ["a", "<0xC3>", "<0xA9>"]
    gc.collect()
    assert made and all(ref() is None for ref in made)
