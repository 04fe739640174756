"""``functok train``: a tokenizer from files and folders (.txt, .jsonl, .gz) equal to
Tokenizer.train on the same texts, the options passed through, bad input as compare has it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from functok import Tokenizer  # noqa: E402
from functok.cli import main  # noqa: E402

TEXTS = [f"The River {k} flows; RIVER river. def f{k}(x): return x * {k}\n" for k in range(40)]


def corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.txt").write_text("".join(TEXTS[:10]), encoding="utf-8")
    with gzip.open(folder / "b.jsonl.gz", "wt", encoding="utf-8") as f:
        f.writelines(json.dumps({"text": t}) + "\n" for t in TEXTS[10:])
    return folder


def train(*args: str) -> int:
    return main(["train", "--no-progress", "--vocab-size", "300", "--profile", "paper", *args])


@pytest.mark.parametrize("fuse", ["all", "frequent"])
def test_same_tokenizer_as_tokenizer_train(tmp_path, capsys, fuse):
    out = tmp_path / "tok.json"
    assert train("--corpus", str(corpus(tmp_path / "c")), "--out", str(out), "--special-token", "<eos>",
                 "--fuse", fuse) == 0
    assert "trained on 31 documents" in capsys.readouterr().out  # a.txt is one document, then 30 records
    got = Tokenizer.from_file(out)
    want = Tokenizer.train(iter(["".join(TEXTS[:10])] + TEXTS[10:]), vocab_size=300, profile="paper",
                           special_tokens=["<eos>"], show_progress=False, fuse=fuse)
    assert got.to_str() == want.to_str()
    assert got.token_to_id("<eos>") == 0 and got.header["profile"] == "paper" and got.header["fuse"] == fuse


def test_bad_input_exit_2_or_skipped(tmp_path, capsys):
    folder = corpus(tmp_path / "c")
    (folder / "bad.txt").write_bytes(b"ok text\xff")
    assert train("--corpus", str(folder), "--out", str(tmp_path / "t.json")) == 2
    err = capsys.readouterr().err
    assert "bad.txt: invalid UTF-8 at byte 7" in err and "Traceback" not in err
    assert not (tmp_path / "t.json").exists()
    assert train("--corpus", str(folder), "--out", str(tmp_path / "t.json"), "--skip-bad") == 0
    captured = capsys.readouterr()
    assert "1 skipped" in captured.out and "skipped 1 (invalid UTF-8)" in captured.err


@pytest.mark.parametrize("args, message", [
    (["--vocab-size", "10"], "the floor is 257"),
    (["--corpus", "nowhere"], "nowhere: no such file or folder"),
])
def test_refusals(tmp_path, capsys, args, message):
    base = ["--corpus", str(corpus(tmp_path / "c")), "--out", str(tmp_path / "t.json")]
    assert train(*base, *args) == 2
    assert message in capsys.readouterr().err


def test_out_must_be_a_file_in_a_folder(tmp_path, capsys):
    folder = corpus(tmp_path / "c")
    assert train("--corpus", str(folder), "--out", str(tmp_path)) == 2
    assert "a folder of that name exists" in capsys.readouterr().err
    assert train("--corpus", str(folder), "--out", str(tmp_path / "no" / "t.json")) == 2
    assert "does not exist" in capsys.readouterr().err
