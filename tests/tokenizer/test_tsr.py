"""TSR (spec 10.4) and `functok tsr`, on vocabularies made here (nothing is downloaded)."""

from __future__ import annotations

import base64
import json

import pytest

from functok.cli import main
from functok.tokenizer.external import load_hf, load_tiktoken, load_vocabulary
from functok.tokenizer.tsr import BUCKETS, measure

from fixtures.trained import need_tokenizers, stdlib_texts, stdlib_tokenizer

# b|c is merged before a|b, so greedy BPE writes "abc" as a|bc although abc is one token
MERGES = [["b", "c"], ["a", "b"], ["ab", "c"]]
VOCAB = {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4, "abc": 5}


def test_tsr_by_hand():
    v = load_hf({"model": {"type": "BPE", "vocab": VOCAB, "merges": MERGES}})
    v.pre_tokenize = str.split  # no `tokenizers` needed for this vocabulary's pre-tokens
    r = measure(v, ["abc abc ab cab"])
    # abc: greedy a|bc (2), optimal abc (1); ab: 1 and 1; cab: c|ab (2) and 2
    assert (r.greedy, r.optimal, r.pretokens, r.changed) == (7, 5, 4, 2)
    assert r.tsr == pytest.approx(2 / 7)
    by_bucket = {b.bucket: (b.pretokens, b.greedy, b.optimal) for b in r.buckets}
    assert by_bucket["2"] == (1, 1, 1) and by_bucket["3-4"] == (3, 6, 4)


def test_reachable_only_can_only_lower_the_saving():
    vocab = dict(VOCAB, abca=6)  # no merge builds abca
    v = load_hf({"model": {"type": "BPE", "vocab": vocab, "merges": MERGES}})
    v.pre_tokenize = str.split
    assert measure(v, ["abca"]).optimal == 1
    assert measure(v, ["abca"], reachable_only=True).optimal == 2


def _write_tiktoken(path, ranks: dict[bytes, int]) -> None:
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))


def test_tiktoken_file_and_json_output(tmp_path, capsys):
    ranks = {bytes([b]): b for b in range(256)}
    for token in (b"bc", b"ab", b"abc", b" abc", b" a"):
        ranks[token] = len(ranks)
    rank_file = tmp_path / "tiny.tiktoken"
    _write_tiktoken(rank_file, ranks)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("abc abc\nab cab", encoding="utf-8")
    (corpus / "b.txt").write_text("ünïcødé abc", encoding="utf-8")
    assert main(["tsr", "--vocab", str(rank_file), "--corpus", str(corpus), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    vocab = load_tiktoken(rank_file)
    texts = ["abc abc\nab cab", "ünïcødé abc"]
    greedy = sum(len(vocab.encode(t)) for t in texts)
    optimal = sum(len(vocab.encode(t, segmentation="optimal")) for t in texts)
    assert (report["greedy"], report["optimal"], report["files"]) == (greedy, optimal, 2)
    assert report["tsr"] == pytest.approx((greedy - optimal) / greedy)
    assert sum(b["greedy"] for b in report["buckets"]) == greedy
    assert [b["bucket"] for b in report["buckets"]] == [label for label, _, _ in BUCKETS]
    assert main(["tsr", "--vocab", str(rank_file), "--corpus", str(corpus)]) == 0
    table = capsys.readouterr().out
    assert "all" in table and "TSR" in table


def test_functok_tokenizer_file(tmp_path, capsys):
    need_tokenizers()
    path = tmp_path / "tok.json"
    tok = stdlib_tokenizer()
    tok.save(path)
    _, held_out = stdlib_texts()
    corpus = tmp_path / "code.py"
    text = "".join(held_out[:8])
    corpus.write_text(text, encoding="utf-8")
    assert main(["tsr", "--vocab", str(path), "--corpus", str(corpus), "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["greedy"] == len(tok.encode(text).ids)
    assert report["optimal"] == len(tok.encode(text, segmentation="optimal").ids)
    assert 0 < report["tsr"] < 0.5
    assert load_vocabulary(path).alphabet == "characters"


def test_bad_paths_exit_with_a_message(tmp_path, capsys):
    assert main(["tsr", "--vocab", str(tmp_path / "none.json"), "--corpus", str(tmp_path)]) == 2
    assert "functok tsr:" in capsys.readouterr().err
