"""Tokenizer.train honours vocab_size: the rarest characters are left to byte fallback when the
corpus has more distinct characters than the budget, and ids stay lossless."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from functok import Tokenizer
from functok.tokenizer import byte_fallback_token

from fixtures.trained import need_tokenizers

# 600 distinct characters (CJK, so each is one symbol and NFC leaves it alone), the first ones
# the most frequent (40 lines down to 1), beside English words that give the trainer merges.
CHARS = [chr(0x4E00 + i) for i in range(600)]
CORPUS = [" ".join(CHARS[: 600 - 15 * k]) for k in range(40)] + [
    "The quick brown fox jumps over the lazy dog. THE DOG SLEEPS, the Fox runs!"] * 30


def _train(vocab_size: int, **options) -> Tokenizer:
    need_tokenizers()
    return Tokenizer.train(iter(CORPUS), vocab_size=vocab_size, show_progress=False, **options)


def _assert_lossless(tok: Tokenizer) -> None:
    for text in CORPUS[:2] + ["".join(CHARS), "Unseen: ÀÉÎ ☃ \U0001f600 Sooooo"]:
        assert tok.decode(tok.encode(text).ids) == text


@pytest.mark.parametrize("special_tokens", [(), ("<s>", "</s>")])
def test_more_characters_than_the_budget_gives_exactly_vocab_size(special_tokens):
    tok = _train(300, special_tokens=special_tokens)
    assert tok.vocab_size == 300  # exactly: this corpus has far more characters than room
    assert len(tok.get_vocab()) == len(set(tok.get_vocab().values())) == 300
    _assert_lossless(tok)
    # the most frequent characters are tokens, the rarest fall back to their UTF-8 bytes
    assert tok.token_to_id(CHARS[0]) is not None and tok.token_to_id(CHARS[-1]) is None
    assert tok.encode(CHARS[-1]).tokens == [byte_fallback_token(b) for b in CHARS[-1].encode()]


def test_a_smaller_alphabet_leaves_room_for_merges():
    tok = _train(300, limit_alphabet=20)
    assert tok.vocab_size == 300  # exactly: 256 bytes, 20 characters, 24 merges
    assert len(tok._merges) == 300 - 256 - 20
    _assert_lossless(tok)


def test_fewer_tokens_only_when_the_corpus_runs_out_of_merges():
    need_tokenizers()
    tok = Tokenizer.train(iter(["ab ab ab"]), vocab_size=1000, show_progress=False)
    # <= here, never more: "a", "b", " ", and the few merges this corpus has
    assert 256 < tok.vocab_size < 1000
    assert tok.decode(tok.encode("ab ba").ids) == "ab ba"


def test_below_the_floor_is_refused_naming_it():
    need_tokenizers()
    with pytest.raises(ValueError, match=r"vocab_size 258 .*the floor is 259: 256 byte-fallback tokens, "
                                         r"2 special tokens and one trained token"):
        Tokenizer.train(iter(CORPUS), vocab_size=258, special_tokens=["<s>", "</s>"], show_progress=False)
    assert _train(259, special_tokens=["<s>", "</s>"]).vocab_size == 259


def test_a_special_token_that_is_a_byte_token_is_refused():
    need_tokenizers()
    with pytest.raises(ValueError, match="<0x41>"):
        Tokenizer.train(iter(CORPUS), vocab_size=400, special_tokens=["<0x41>"], show_progress=False)


def test_the_kept_characters_are_the_same_on_every_run():
    """The trainer's own limit_alphabet breaks frequency ties in hash order: three runs gave three
    tokenizers. functok chooses the characters itself (most frequent, then smallest code point)."""
    need_tokenizers()
    script = ("import sys; sys.path.insert(0, 'tests'); from test_tokenizer_train import _train; "
              "print(_train(300).to_str())")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parents[1], timeout=300).stdout for _ in range(3)}
    assert len(runs) == 1
    vocab = json.loads(runs.pop())["tokenizer"]["model"]["vocab"]
    assert len(vocab) == 300
    kept = [c for c in CHARS if c in vocab]
    assert kept == CHARS[: len(kept)]  # ties at the cut go to the smaller code point
