"""Tokenizer.train honours vocab_size: the rarest characters are left to byte fallback when the
corpus has more distinct characters than the budget, and ids stay lossless; options out of
bounds are refused naming them; giant pre-tokens and chains are cut for counting only."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import Tokenizer
from functok.tokenizer import byte_fallback_token
from functok.tokenizer.pretoken_counts import MAX_TRAINING_PRETOKEN, _runs, bounded_chains, bounded_counts
from functok.tokenizer.train import MAX_MIN_FREQUENCY, MAX_VOCAB_SIZE

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
    script = ("import sys; sys.path.insert(0, 'tests'); from tokenizer.test_train import _train; "
              "print(_train(300).to_str())")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parents[2], timeout=300).stdout for _ in range(3)}
    assert len(runs) == 1
    vocab = json.loads(runs.pop())["tokenizer"]["model"]["vocab"]
    assert len(vocab) == 300
    kept = [c for c in CHARS if c in vocab]
    assert kept == CHARS[: len(kept)]  # ties at the cut go to the smaller code point


# --- Bounds: an option out of range is refused, naming it -------------------------------------


@pytest.mark.parametrize("options, message", [
    ({"vocab_size": 2**32}, r"vocab_size 4,294,967,296 is over the maximum, 16,777,216 \(2\*\*24"),
    ({"vocab_size": MAX_VOCAB_SIZE + 1}, r"vocab_size 16,777,217 is over the maximum, 16,777,216"),
    ({"vocab_size": 300.0}, r"vocab_size must be a whole number, got 300\.0"),
    ({"min_frequency": -1}, r"min_frequency -1 is below the minimum, 0"),
    ({"min_frequency": 2**64}, r"min_frequency 18,446,744,073,709,551,616 is over the maximum, "
                               r"18,446,744,073,709,551,615 \(2\*\*64 - 1"),
    ({"limit_alphabet": -1}, r"limit_alphabet -1 is below the minimum, 0"),
    ({"special_tokens": ["<s>", ""]}, r"special_tokens '': special tokens are non-empty strings \(spec 14.3\)"),
    ({"special_tokens": ["a\ud800"]}, r"special_tokens 'a\\ud800' holds a lone surrogate"),
])
def test_an_option_out_of_bounds_is_refused_naming_it(options, message):
    """Before: 2**32 aborted the interpreter (SIGABRT, the trainer's allocation failed), -1 and
    2**64 were OverflowError, '' became an empty ordinary token 0."""
    options = {"vocab_size": 300, **options}
    with pytest.raises(ValueError, match=message):
        Tokenizer.train(iter(CORPUS), show_progress=False, **options)


def test_the_largest_vocab_size_trains():
    need_tokenizers()
    tok = Tokenizer.train(iter(["ab ab ab"]), vocab_size=MAX_VOCAB_SIZE, min_frequency=MAX_MIN_FREQUENCY,
                          show_progress=False)
    assert tok.vocab_size == 256 + 3  # "a", "b", " ": no pair is that frequent
    assert tok.decode(tok.encode("ab ba").ids) == "ab ba"


# --- Long pre-tokens: cut for counting, so that one long line cannot stall a training ---------


def test_a_giant_pretoken_is_cut_for_counting_and_stays_lossless():
    """Before, the trainer learned 'ab' * 2048 from one line of 'ab' * 3000 (and took time
    quadratic in the line: bench/python/scaling.py train-*); now no token is longer than the cut."""
    need_tokenizers()
    line = "ab" * 3000 + " Sooooo " + "xyz" * 700
    tok = Tokenizer.train(iter([line]), vocab_size=400, show_progress=False)
    assert max(len(t) for t in tok.get_vocab()) <= MAX_TRAINING_PRETOKEN
    assert tok.token_to_id("ab" * 256) is not None  # learned inside the cut pieces
    for text in (line, line * 2, "ab" * 100_001):
        assert tok.decode(tok.encode(text).ids) == text
        assert tok.decode(tok.encode(text, segmentation="optimal").ids) == text


def test_a_giant_chain_is_cut_for_counting(monkeypatch):
    """fuse="frequent" counts chains (spec 9.4): "A B " repeated is one chain as long as its line,
    which the fusion merges' count went over once per merge (before: the whole 8,000 code points;
    bench/python/scaling.py train-chain times it)."""
    need_tokenizers()
    import functok.tokenizer.train as training

    seen = []
    original = training.add_fusion_merges
    monkeypatch.setattr(training, "add_fusion_merges",
                        lambda trained, counts, chains, *a, **k: seen.append(chains) or original(
                            trained, counts, chains, *a, **k))
    line = "A B " * 2000
    tok = Tokenizer.train(iter([line, "The Cat. THE CAT. the cat"]), vocab_size=320, show_progress=False,
                          fuse="frequent")
    assert max(sum(map(len, chain)) for chain in seen[0].chains()) <= MAX_TRAINING_PRETOKEN  # a ChainTable
    assert tok.decode(tok.encode(line).ids) == line


words = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40)


def _characters(counts: Counter) -> Counter:
    total: Counter = Counter()
    for word, n in counts.items():
        for ch, k in Counter(word).items():
            total[ch] += k * n
    return total


@given(st.dictionaries(words, st.integers(1, 5)), st.integers(1, 12))
def test_bounded_counts_keep_every_character(counts, limit):
    bounded = bounded_counts(Counter(counts), limit)
    assert all(len(w) <= limit for w in bounded)
    assert _characters(bounded) == _characters(Counter(counts))
    if all(len(w) <= limit for w in counts):
        assert bounded == Counter(counts)


@given(st.lists(st.text(st.characters(codec="utf-8"), min_size=1, max_size=15), min_size=1, max_size=12),
       st.integers(1, 20))
def test_bounded_chains_are_runs_of_the_chain(chain, limit):
    runs = list(_runs(tuple(chain), limit))
    assert "".join("".join(run) for run in runs) == "".join(chain)  # in order, every code point
    assert all(run and sum(map(len, run)) <= limit for run in runs)
    bounded = bounded_chains(Counter({tuple(chain): 3}), limit)
    if sum(map(len, chain)) <= limit:
        assert bounded == Counter({tuple(chain): 3})
    else:
        assert bounded == _times(runs, 3)  # runs of one segment hold no boundary: left out


def _times(runs: list, n: int) -> Counter:
    out: Counter = Counter()
    for run in runs:
        if len(run) > 1:
            out[run] += n
    return out


# --- The counts wait in a temporary file while the trainer runs -----------------------------

SPILL_TEXTS = ["The Cat sat. THE CAT SAT! the cat's mat", "def f(x):\n    return x * 22\n",
               "Straße STRASSE ΑΒΓ αβγ"] * 5


def _fds_into(folder: Path) -> list[str]:
    """The files this process holds open in ``folder`` (an anonymous temporary file is
    ``folder/#inode (deleted)`` in /proc)."""
    fds = Path("/proc/self/fd")
    links = []
    for fd in fds.iterdir():
        try:
            links.append(str(fd.readlink()))
        except OSError:  # closed meanwhile (the listing's own descriptor)
            pass
    return [link for link in links if link.startswith(str(folder))]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to see open files")
@pytest.mark.parametrize("fuse", ["none", "frequent"])
def test_the_spilled_counts_are_in_a_temporary_file_removed_even_on_error(tmp_path, monkeypatch, fuse):
    need_tokenizers()
    import tempfile

    import functok.tokenizer.train as training
    from functok.tokenizer.pretoken_counts import CountOptions, count_texts

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    during = []

    def failing_trainer(counts, *args, **kwargs):
        during.append((_fds_into(tmp_path), type(counts).__name__, dict(counts.items())))
        raise RuntimeError("the trainer failed")

    monkeypatch.setattr(training, "train_counts", failing_trainer)
    with pytest.raises(RuntimeError, match="the trainer failed") as failure:  # its traceback holds the frames
        Tokenizer.train(iter(SPILL_TEXTS), vocab_size=400, show_progress=False, fuse=fuse)
    (open_then, kind, streamed), = during
    assert len(open_then) == 1 and kind == "SpilledCounts"  # the trainer read from the file
    want = count_texts(iter(SPILL_TEXTS), CountOptions("nfc", "llama3", "none", "compact")).words
    assert streamed == dict(want)
    assert _fds_into(tmp_path) == [] and list(tmp_path.iterdir()) == []  # closed (not left to the collector)
    del failure


def test_where_the_temporary_folder_cannot_take_the_counts_they_stay_in_memory(tmp_path, monkeypatch):
    need_tokenizers()
    import tempfile

    spilled = Tokenizer.train(iter(SPILL_TEXTS), vocab_size=400, show_progress=False).to_str()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    with pytest.warns(RuntimeWarning, match="holds its counts in memory"):
        held = Tokenizer.train(iter(SPILL_TEXTS), vocab_size=400, show_progress=False).to_str()
    assert held == spilled


@given(st.dictionaries(st.text(st.characters(codec="utf-8", exclude_characters="\x01"), min_size=1, max_size=12),
                       st.integers(1, 2**64 - 1), max_size=40), st.integers(1, 5))
def test_spilled_counts_stream_and_load_back_the_packed_counts(tmp_path_factory, counts, block):
    """Read a few bytes at a time (a separator and a character cut by a block's end), the file
    gives back every pre-token and count in order, and loads back whole."""
    import tempfile

    from functok.tokenizer.pretoken_counts import PackedCounts
    from functok.tokenizer.train import SpilledCounts

    packed = PackedCounts(Counter(counts))
    with tempfile.TemporaryFile(dir=tmp_path_factory.getbasetemp()) as f:
        f.write(b"ahead")  # the counts need not start the file
        spilled = SpilledCounts(packed, f)
        spilled.BLOCK = 8 * block
        assert list(spilled.items()) == list(packed.items()) == list(counts.items())
        loaded = spilled.loaded()
        assert (loaded.data, loaded.counts, loaded.separator) == (packed.data, packed.counts, packed.separator)
        assert len(spilled) == len(counts)
