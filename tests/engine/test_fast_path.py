"""The fast path (the engine's compiled greedy encoder, :attr:`Tokenizer.fast_path`) accepts every
file the loader accepts, and gives the pure path's ids, on every engine (the ``engine`` fixture).
A fast path once built from the file's raw ``tokenizer.json`` (the Hugging Face ``tokenizers``
one, since removed) raised a bare ``Exception`` on files spec 14.3 allows (merges in both forms,
``"version": 5``, ``"fuse_unk": "yes"``, an unknown top-level member, a token holding a surrogate)."""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import engine as seam
from functok.tokenizer import Tokenizer

REPO = Path(__file__).resolve().parents[2]
FIXTURE = json.loads((REPO / "tests" / "fixtures" / "tokenizer-small.json").read_text(encoding="utf-8"))
EOS = "<|endoftext|>"
FRESH_WORDS = 128  # new pre-tokens in each text: many cache misses at once

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                      max_size=3),
                           max_leaves=5)
LETTERS = "abcdefghijklmnopqrstuvwxyzéüçøßабвгд漢字"


@st.composite
def texts(draw) -> str:
    """FRESH_WORDS distinct words (each a pre-token, new to the cache), and some text."""
    rnd = random.Random(draw(st.integers(0, 2**32)))  # a seed: little data for Hypothesis to hold
    letters, n = rnd.sample(LETTERS, len(LETTERS)), len(LETTERS)
    fresh = [letters[k % n] + letters[k // n] + "".join(rnd.choices(letters, k=rnd.randint(0, 6)))
             for k in range(FRESH_WORDS)]  # distinct in their first two letters
    return " ".join(fresh) + draw(st.text(max_size=20)) + f" {EOS} HELLO Wörld!!!"


def mixed_merges(merges: list, rnd: random.Random) -> list:
    """Each merge in either form of 14.3, mixed: the string form wherever no token has a space."""
    share = rnd.random()
    return [" ".join(m) if " " not in m[0] + m[1] and rnd.random() < share else list(m) for m in merges]


def repeated_merges(merges: list, rnd: random.Random, count: int) -> list:
    """Some pairs listed a second time, before or after the first: the last occurrence ranks."""
    merges = list(merges)
    for _ in range(count):
        merges.insert(rnd.randrange(len(merges) + 1), list(rnd.choice(merges)))
    return merges


def moved_ids(hf: dict, rnd: random.Random) -> None:
    """Ids anywhere in 0 .. 2**32 - 1, in no order (14.3), the special token's with them."""
    vocab = hf["model"]["vocab"]
    new = dict(zip(vocab, rnd.sample(range(2**32), len(vocab))))
    hf["model"]["vocab"] = new
    for added in hf["added_tokens"]:
        added["id"] = new[added["content"]]


def unused_id(vocab: dict) -> int:
    taken = set(vocab.values())
    return next(i for i in itertools.count() if i not in taken)


def with_surrogate_tokens(hf: dict) -> None:
    """Tokens of surrogates and a merge of them: allowed by 14.3 (writers MUST NOT write them;
    the results are host-dependent), never matched by a pre-token in Python. (Not a high then a
    low surrogate: JSON reads that pair as one code point.)"""
    vocab = hf["model"]["vocab"]
    for token in ("\ude00", "\ud83d", "\ude00\ud83d", "x\udfff"):
        vocab[token] = unused_id(vocab)
    hf["model"]["merges"].append(["\ude00", "\ud83d"])


def with_empty_token(hf: dict) -> None:
    """The empty string as a token, in merges on either side: no rule of 14.3 refuses it."""
    vocab = hf["model"]["vocab"]
    vocab[""] = unused_id(vocab)
    hf["model"]["merges"] += [["", "a"], ["e", ""]]


@st.composite
def accepted_files(draw) -> tuple[dict, bool]:
    """A variant of the fixture that the loader accepts (spec 14.3), and whether it has a
    surrogate token."""
    rnd = random.Random(draw(st.integers(0, 2**32)))  # a seed: little data for Hypothesis to hold
    data = copy.deepcopy(FIXTURE)
    hf, model = data["tokenizer"], data["tokenizer"]["model"]
    model["merges"] = mixed_merges(repeated_merges(model["merges"], rnd, draw(st.integers(0, 20))), rnd)
    if draw(st.booleans()):
        moved_ids(hf, rnd)
    for place, member in ((hf, "version"), (model, "fuse_unk")):  # ignored (14.3): any value, or none
        if draw(st.booleans()):
            place.pop(member, None)
        else:
            place[member] = draw(json_values)
    for member in ("type", "dropout", "unk_token", "ignore_merges"):  # absent means the value they have
        if draw(st.booleans()):
            model.pop(member)
    for place in (data, hf, model, hf["added_tokens"][0]):  # members nobody names are ignored
        place.update(draw(st.dictionaries(st.sampled_from(["x-extra", "cache_capacity", "comment"]),
                                          json_values, max_size=2)))
    if draw(st.booleans()):
        with_empty_token(hf)
    surrogates = draw(st.booleans())
    if surrogates:
        with_surrogate_tokens(hf)
    return data, surrogates


def loaded(data: dict, *, fast: bool) -> Tokenizer:
    """The tokenizer of ``data`` read back from its text, as a file is."""
    tok = Tokenizer.from_str(json.dumps(data), source="variant.json")
    if not fast:
        tok.fast_path = False  # the pure-Python BPE only
    return tok


@given(accepted_files(), texts(), st.sampled_from(["greedy", "optimal"]))
def test_fast_path_ids_equal_pure_path_ids_for_every_accepted_file(engine, case, text, segmentation):
    data, surrogates = case
    tie_break = "prefer-greedy" if segmentation == "optimal" else "leftmost-longest"
    fast, pure = loaded(data, fast=True), loaded(data, fast=False)
    options = {"segmentation": segmentation, "tie_break": tie_break, "allowed_special": "all"}
    assert fast.encode(text, **options).ids == pure.encode(text, **options).ids
    assert took_a_fast_path(fast, surrogates, segmentation)


def took_a_fast_path(tok: Tokenizer, surrogates: bool, segmentation: str = "greedy") -> bool:
    """Whether greedy ids came from the engine's compiled code as they should: the C core's
    encoder where it runs (any file, surrogate tokens too; the prefer-greedy tie-break's greedy
    ids too); on the pure engine none, the pure-Python BPE."""
    if not seam.compiles_tokenizers():
        return tok._native is False
    return isinstance(tok._native, seam.core.GreedyEncoder)


def test_the_fast_path_reads_the_cases_of_the_issue(engine):
    """One file with each case at once, on enough new pre-tokens to start the fast path."""
    data = issue_file()
    text = " ".join(f"w{k}z" for k in range(3 * FRESH_WORDS // 2))
    fast = loaded(data, fast=True)
    assert fast.encode(text).ids == loaded(data, fast=False).encode(text).ids
    assert took_a_fast_path(fast, surrogates=True)
    del data["tokenizer"]["model"]["vocab"]["x\udfff"]
    fast = loaded(data, fast=True)
    assert fast.encode(text).ids == loaded(data, fast=False).encode(text).ids
    assert took_a_fast_path(fast, surrogates=False)


def issue_file() -> dict:
    """The fixture with merges in both forms, ``"version": 5``, ``"fuse_unk": "yes"``, an unknown
    top-level member and a token holding a surrogate."""
    data = copy.deepcopy(FIXTURE)
    hf = data["tokenizer"]
    hf["version"], hf["x-extra"], hf["model"]["fuse_unk"] = 5, {"any": "thing"}, "yes"
    hf["model"]["merges"][1] = " ".join(hf["model"]["merges"][1])
    hf["model"]["vocab"]["x\udfff"] = unused_id(hf["model"]["vocab"])
    return data


@pytest.mark.parametrize("surrogate", [True, False])
def test_functok_tokenize_on_such_a_file_exits_0_with_the_ids(tmp_path, surrogate):
    pytest.importorskip("datatrove")
    from datatrove.pipeline.tokens.merger import get_data_reader, load_doc_ends
    import numpy as np

    data = issue_file()
    if not surrogate:
        del data["tokenizer"]["model"]["vocab"]["x\udfff"]
    (tmp_path / "tok.json").write_text(json.dumps(data), encoding="utf-8")
    docs = [" ".join(f"w{k}{d}z" for k in range(FRESH_WORDS)) for d in range(3)]
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "docs.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in docs),
                                                    encoding="utf-8")
    command = [sys.executable, "-m", "functok", "tokenize", "--no-progress", "--quiet", "--corpus",
               str(tmp_path / "corpus"), "--tokenizer", str(tmp_path / "tok.json"), "--out", str(tmp_path / "out"),
               "--workers", "1", "--tasks", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, PYTHONPATH=str(REPO / "python")))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    pure = loaded(data, fast=False)
    found = []
    for shard in sorted((tmp_path / "out").glob("*.ds")):
        ends = load_doc_ends(open(f"{shard}.index", "rb"))
        found += [np.frombuffer(b, dtype="<u2").tolist() for b in get_data_reader(open(shard, "rb"), ends, 2)]
    assert found == [pure.encode(t).ids for t in docs]
