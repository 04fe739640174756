"""Optimal segmentation (spec 10): the DP against a brute-force oracle, against greedy BPE, the
tie-break vectors, special and byte-fallback tokens, and long tokens / long pre-tokens."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import random_bpe
from functok.conformance.ops import segment as run_vector
from functok.tokenizer.bpe import BPE, byte_fallback_token
from functok.tokenizer.segment import Segmenter, brute_force

# The hand-written vectors live beside the tests until the conformance suite takes them in.
_SUITE = Path(__file__).resolve().parents[2] / "conformance" / "vectors" / "segment.json"
VECTORS = _SUITE


# --- the oracle ---------------------------------------------------------------------------


@st.composite
def small_vocab(draw):
    """Random tokens over 'abc' (not always every single letter), ids in order."""
    singles = draw(st.lists(st.sampled_from("abc"), unique=True, min_size=1))
    longer = draw(st.lists(st.text("abc", min_size=2, max_size=4), max_size=10))
    return {t: i for i, t in enumerate(dict.fromkeys(singles + longer))}


@given(small_vocab(), st.text("abc", max_size=9))
def test_dp_equals_brute_force(vocab, text):
    seg = Segmenter(vocab)
    best = brute_force(text, vocab)
    if not best:  # some letter is in no token
        with pytest.raises(ValueError):
            seg.segment(text)
        return
    assert seg.count(text) == len(best[0])
    assert seg.segment(text) == best[0]  # the oracle's first answer is leftmost-longest


def _byte_ids(symbol: str) -> list[int]:
    return [1000 + b for b in symbol.encode("utf-8")]


@given(small_vocab(), st.text("abcé€", max_size=8))
def test_dp_with_byte_fallback_equals_brute_force(vocab, text):
    vocab = dict(vocab, **{"é": 50}) if "é" in text and len(text) % 2 else vocab
    seg = Segmenter(vocab, fallback=_byte_ids)
    best = brute_force(text, vocab, _byte_ids)
    assert seg.segment(text) == best[0]
    assert seg.count(text) == len(best[0])


# --- never above greedy -------------------------------------------------------------------


@given(random_bpe(), st.text("abc", min_size=1, max_size=30))
def test_count_never_above_greedy(model, text):
    vocab, merges = model
    greedy = BPE(vocab, merges).tokenize(text)
    seg = Segmenter(vocab)
    assert seg.count(text) <= len(greedy)
    assert len(seg.segment(text, tie_break="prefer-greedy", greedy=greedy)) == seg.count(text)
    if len(greedy) == seg.count(text):
        assert seg.segment(text, tie_break="prefer-greedy", greedy=greedy) == greedy


@given(st.text(st.characters(codec="utf-8"), max_size=60))
def test_count_never_above_greedy_with_a_trained_tokenizer(text):
    """Arbitrary text (all planes, private use, marks) through the codec, per pre-token."""
    from fixtures.trained import stdlib_tokenizer

    tok = stdlib_tokenizer()
    vocab = tok.vocabulary
    for pretoken in vocab.pre_tokenize(text):
        greedy = vocab.ids(pretoken)
        optimal = vocab.ids(pretoken, segmentation="optimal")
        assert len(optimal) <= len(greedy)
        assert _spelled(tok, optimal) == _spelled(tok, greedy) == pretoken
        kept = vocab.ids(pretoken, segmentation="optimal", tie_break="prefer-greedy")
        assert len(kept) == len(optimal)
        assert kept == greedy or len(greedy) > len(optimal)


def _spelled(tok, ids: list[int]) -> str:
    """The stream text that ids spell (byte-fallback runs read as UTF-8)."""
    out, run = [], bytearray()
    for i in ids:
        token = tok.id_to_token(i)
        if token.startswith("<0x") and len(token) == 6:
            run.append(int(token[3:5], 16))
            continue
        out.append(run.decode())
        run.clear()
        out.append(token)
    return "".join(out) + run.decode()


# --- the spec's tie-breaks, as vectors ----------------------------------------------------


def _vectors():
    return json.loads(VECTORS.read_text(encoding="utf-8"))["tests"]


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: v["id"])
def test_segment_vectors(vector):
    assert run_vector(vector["input"], vector["options"]) == vector["expected"]


def test_vector_greedy_claims():
    """The vectors' descriptions say what greedy BPE gives; check those claims too."""
    v = {t["id"]: t for t in _vectors()}

    def greedy(vector_id):
        o = v[vector_id]["options"]
        vocab = {t: i for i, t in enumerate(o["tokens"])}
        return [o["tokens"][i] for i in BPE(vocab, [tuple(m) for m in o["merges"]]).tokenize(v[vector_id]["input"])]

    assert greedy("seg-02") == ["ab", "aba"]
    assert greedy("seg-04") == ["a", "bc"]
    assert greedy("seg-06") == ["ab", "cd"]


def test_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="tie_break"):
        Segmenter({"a": 0}).segment("a", tie_break="rightmost")


# --- special and byte-fallback tokens -----------------------------------------------------


def test_special_tokens_never_produced_by_the_dp():
    pytest.importorskip("tokenizers")
    from fixtures.trained import stdlib_tokenizer

    tok = stdlib_tokenizer()
    special = set(tok.special_tokens.values())
    text = "<|endoftext|> <pad> x<pad>y" * 3
    ids = tok.encode(text, segmentation="optimal", disallowed_special=()).ids
    assert not special & set(ids)
    assert tok.decode(ids) == text
    with pytest.raises(ValueError, match="special token"):
        tok.encode(text, segmentation="optimal")
    allowed = tok.encode(text, segmentation="optimal", allowed_special={"<pad>"},
                         disallowed_special=()).ids
    assert tok.token_to_id("<pad>") in allowed and tok.token_to_id("<|endoftext|>") not in allowed


def test_byte_fallback_only_for_missing_characters():
    pytest.importorskip("tokenizers")
    from fixtures.trained import stdlib_tokenizer

    tok = stdlib_tokenizer()
    byte_ids = {tok.token_to_id(byte_fallback_token(b)) for b in range(256)}
    for pretoken in tok.vocabulary.pre_tokenize("héllo wörld 漢字 x = 1"):
        ids = tok.vocabulary.ids(pretoken, segmentation="optimal")
        missing = [c for c in pretoken if tok.token_to_id(c) is None]
        assert sum(i in byte_ids for i in ids) == sum(len(c.encode()) for c in missing)


# --- long tokens, long pre-tokens ---------------------------------------------------------


def test_512_byte_tokens_and_a_100k_pre_token_finish():
    """Tokens of 512 bytes, a 100,000-symbol pre-token: the DP is O(length x matched prefix)."""
    rng = random.Random(4)
    alphabet = "abcdefgh"
    vocab = {c: i for i, c in enumerate(alphabet)}
    text = "".join(rng.choice(alphabet) for _ in range(100_000))
    for k in range(40):  # disjoint 512-symbol tokens cut from the text, plus their halves
        start = k * 2500 + rng.randrange(0, 1000)
        for length in (512, 256, 128, 64):
            vocab.setdefault(text[start : start + length], len(vocab))
    vocab.update({"a" * 512: len(vocab), "ab" * 256: len(vocab) + 1})
    seg = Segmenter(vocab)
    ids = seg.segment(text)
    inverse = {i: t for t, i in vocab.items()}
    assert "".join(inverse[i] for i in ids) == text
    assert len(ids) == seg.count(text) <= len(text) - 40 * 511
    assert max(len(inverse[i]) for i in ids) == 512
    # the same with a byte-level pre-token
    byte_vocab = {t.encode(): i for t, i in vocab.items()}
    assert Segmenter(byte_vocab).segment(text.encode()) == ids


def test_a_run_with_nested_long_tokens_finishes():
    """The worst case for prefix matching: every length of one repeated symbol is a token, so
    each position has 512 edges (work grows as length x 512; 20,000 symbols here)."""
    vocab = {"x" * n: n for n in range(1, 513)}
    seg = Segmenter(vocab)
    assert seg.segment("x" * 20_000) == [512] * 39 + [32]
    assert seg.segment("x" * 20_000, tie_break="prefer-greedy", greedy=[1] * 20_000) == [512] * 39 + [32]
