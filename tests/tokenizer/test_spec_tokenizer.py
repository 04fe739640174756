"""Spec 14.5 and 14.6 as written agree with the reference: the spec's plain greedy loop (lowest
rank, the leftmost on a tie, a pair listed twice ranked by its last place) gives the ids of
functok's priority-queue BPE, and the spec's byte-run decoding gives Python's "replace" text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import functok
from functok.tokenizer.bpe import BPE, byte_fallback_token

ALPHABET = "abc"  # few symbols, so that merges, ties and overlaps are frequent


def spec_greedy(word: str, vocab: dict[str, int], merges: list[tuple[str, str]]) -> list[int]:
    """The pseudo-code of spec 14.5, line for line."""
    token = {i: t for t, i in vocab.items()}
    rank = {pair: k for k, pair in enumerate(merges)}  # a later duplicate overwrites: its last place
    symbols: list[int] = []
    for c in word:
        if c in vocab:
            symbols.append(vocab[c])
        else:
            symbols.extend(vocab[byte_fallback_token(b)] for b in c.encode("utf-8"))
    while True:
        best = None
        for k in range(len(symbols) - 1):
            r = rank.get((token[symbols[k]], token[symbols[k + 1]]))
            if r is not None and (best is None or r < best[0]):
                best = (r, k)
        if best is None:
            return symbols
        k = best[1]
        symbols[k : k + 2] = [vocab[token[symbols[k]] + token[symbols[k + 1]]]]


@st.composite
def vocabularies(draw):
    """A character vocabulary with byte fallback and merges drawn over its own tokens (some listed
    twice), in a shuffled id order."""
    tokens = list(draw(st.sets(st.sampled_from(ALPHABET), min_size=1)))
    merges = []
    for _ in range(draw(st.integers(0, 12))):
        left, right = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if len(left + right) <= 6:
            merges.append((left, right))
            if left + right not in tokens:
                tokens.append(left + right)
    if merges and draw(st.booleans()):
        merges.append(draw(st.sampled_from(merges)))  # a duplicate: ranked by its last place
    tokens += [byte_fallback_token(b) for b in range(256)]
    order = draw(st.permutations(range(len(tokens))))
    return {t: order[k] for k, t in enumerate(tokens)}, merges


@settings(max_examples=300, deadline=None)
@given(vocabularies(), st.text(alphabet=ALPHABET + "z\u00df", max_size=12))
def test_the_spec_greedy_loop_is_the_reference_bpe(vocabulary, word):
    vocab, merges = vocabulary
    assert BPE(vocab, merges, byte_fallback=True).tokenize(word) == spec_greedy(word, vocab, merges)


def test_ties_go_to_the_leftmost_pair_and_duplicates_to_their_last_rank():
    vocab = {t: i for i, t in enumerate(["a", "b", "c", "aa", "ab", "bc"])}
    assert spec_greedy("aaa", vocab, [("a", "a")]) == [vocab["aa"], vocab["a"]]
    twice = [("b", "c"), ("a", "b"), ("b", "c")]  # b c ranks 2, after a b
    assert spec_greedy("abc", vocab, twice) == [vocab["ab"], vocab["c"]]
    assert BPE(vocab, twice).tokenize("abc") == [vocab["ab"], vocab["c"]]


@given(st.binary(max_size=12))
def test_byte_runs_decode_by_maximal_subparts_as_spec_14_6_says(data):
    """Spec 14.6 names Python's "replace" and WHATWG's decoder as the same practice; pin the
    examples it gives and that a valid run is its text."""
    text = data.decode("utf-8", "replace")
    assert "\ufffd" in text or text.encode("utf-8") == data
    examples = {b"\xc3": "\ufffd", b"\xe2\x82": "\ufffd", b"\xc3(": "\ufffd(", b"\xff": "\ufffd",
                b"\xed\xa0\x80": "\ufffd" * 3}
    for run, want in examples.items():
        assert run.decode("utf-8", "replace") == want


def test_a_format_error_offset_counts_from_the_start_of_the_text():
    """Spec 14.4: a lone surrogate after an allowed special token is reported at its index in the
    whole text, not in its stretch."""
    tok = functok.Tokenizer.train(iter(["ab <s> ab"] * 5), vocab_size=300, special_tokens=["<s>"],
                                  show_progress=False)
    with pytest.raises(functok.FormatError) as caught:
        tok.encode("<s>a\ud800", allowed_special="all")
    assert (caught.value.kind, caught.value.offset) == ("lone-surrogate", 4)


def test_an_unknown_allowed_special_token_is_refused_without_special_tokens():
    tok = functok.Tokenizer.train(iter(["ab ab"] * 5), vocab_size=300, show_progress=False)
    with pytest.raises(ValueError, match="not special tokens of this tokenizer"):
        tok.encode("x", allowed_special={"<q>"})
