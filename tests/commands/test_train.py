"""``functok train``: a tokenizer from files and folders (.txt, .jsonl, .gz) equal to
Tokenizer.train on the same texts, the options passed through, bad input as compare has it;
options out of bounds and an --out that is a corpus file refused in one line; long lines skipped."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from functok import Tokenizer  # noqa: E402
from functok.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
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


def one_line_refusal(err: str, *names: str) -> None:
    """A refusal is one line on stderr, naming what it refuses, with no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("functok train: ") and "Traceback" not in err, err
    assert all(name in lines[0] for name in names), (names, err)


@pytest.mark.parametrize("args, names", [
    (["--vocab-size", "16777217"], ["--vocab-size 16,777,217", "the maximum, 16,777,216"]),
    (["--min-frequency", "-1"], ["--min-frequency -1", "minimum, 0"]),
    (["--min-frequency", str(2**64)], ["--min-frequency", "18,446,744,073,709,551,615"]),
    (["--limit-alphabet", "-1"], ["--limit-alphabet -1", "minimum, 0"]),
    (["--special-token", "<s>", "--special-token", ""], ["--special-token ''", "non-empty", "14.3"]),
    (["--max-line-chars", "0"], ["--max-line-chars must be at least 1"]),
])
def test_options_out_of_bounds_are_refused_before_reading(tmp_path, capsys, args, names):
    """Before: --min-frequency -1 was an OverflowError traceback, --special-token '' exit 0 with
    an empty ordinary token 0."""
    base = ["--corpus", str(corpus(tmp_path / "c")), "--out", str(tmp_path / "t.json")]
    assert train(*base, *args) == 2
    one_line_refusal(capsys.readouterr().err, *names)
    assert not (tmp_path / "t.json").exists()


def test_a_vocab_size_past_memory_is_refused_not_aborted(tmp_path):
    """Before: SIGABRT ("memory allocation of 283467841552 bytes failed"); in a child process, so
    that a regression fails this test instead of killing the test run."""
    result = subprocess.run([sys.executable, "-m", "functok", "train", "--no-progress", "--corpus",
                             str(corpus(tmp_path / "c")), "--out", str(tmp_path / "t.json"),
                             "--vocab-size", str(2**32)], capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, PYTHONPATH=str(REPO / "python")))
    assert result.returncode == 2
    one_line_refusal(result.stderr, "--vocab-size 4,294,967,296", "16,777,216 (2**24")


@pytest.mark.parametrize("how", ["same", "relative", "symlink", "hardlink"])
def test_out_that_is_a_corpus_file_is_refused(tmp_path, capsys, monkeypatch, how):
    """Before: exit 0, and the corpus file held the tokenizer."""
    folder = corpus(tmp_path / "c")
    victim = folder / "a.txt"
    before = victim.read_bytes()
    out = {"same": victim, "relative": Path("c") / ".." / "c" / "a.txt"}.get(how, tmp_path / "other.txt")
    if how == "symlink":
        os.symlink(victim, out)
    if how == "hardlink":
        os.link(victim, out)
    monkeypatch.chdir(tmp_path)
    assert train("--corpus", str(folder), "--out", str(out)) == 2
    one_line_refusal(capsys.readouterr().err, f"--out {out}", f"{victim}")
    assert victim.read_bytes() == before


def test_a_long_line_is_skipped_and_counted(tmp_path, capsys):
    """The reader's --max-line-chars bound, as compare has it (it did not apply to train)."""
    folder = corpus(tmp_path / "c")
    (folder / "long.jsonl").write_text(json.dumps({"text": "x" * 101 + "\nshort"}) + "\n", encoding="utf-8")
    out = tmp_path / "t.json"
    assert train("--corpus", str(folder), "--out", str(out), "--max-line-chars", "100") == 0
    captured = capsys.readouterr()
    assert "skipped 1 (a line over 100 code points), e.g. " in captured.err and "long.jsonl:1" in captured.err
    assert "trained on 31 documents" in captured.out
    want = Tokenizer.train(iter(["".join(TEXTS[:10])] + TEXTS[10:]), vocab_size=300, profile="paper",
                           show_progress=False)
    assert Tokenizer.from_file(out).to_str() == want.to_str()


def test_a_long_line_in_a_text_file_skips_its_chunk_named(tmp_path, capsys):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "a.txt").write_text("first line\n" + "y" * 50 + "\nlast\n", encoding="utf-8")
    (folder / "b.txt").write_text("The River flows.\n", encoding="utf-8")
    assert train("--corpus", str(folder), "--out", str(tmp_path / "t.json"), "--max-line-chars", "20") == 0
    err = capsys.readouterr().err
    assert f"skipped 1 (a line over 20 code points), e.g. {folder / 'a.txt'} (the chunk from code point 0)" in err


def test_executor_ray_without_ray_is_exit_2(tmp_path, capsys, monkeypatch):
    """`import ray` fails here whether Ray is installed or not (None in sys.modules blocks it);
    tests/integrations/test_ray.py trains on a Ray cluster."""
    pytest.importorskip("datatrove")
    monkeypatch.setitem(sys.modules, "ray", None)
    assert train("--corpus", str(corpus(tmp_path / "c")), "--out", str(tmp_path / "t.json"), "--executor", "ray",
                 "--counts", str(tmp_path / "counts")) == 2
    one_line_refusal(capsys.readouterr().err, "--executor ray needs Ray: pip install ray")
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("case, names", [
    ("no --counts", ["--executor ray needs --counts DIR", "every node"]),
    ("--counts without ray", ["--counts is for --executor ray"]),
    ("--tasks without ray", ["--tasks is for --executor ray"]),
    ("--counts in the corpus", ["--counts", "is in the corpus folder", "outside it"]),
    ("the corpus in --counts", ["is in the output folder", "never reads its own output"]),
    ("--counts a file", ["--counts", "a file of that name exists; --counts names a folder"]),
    ("--counts holding other files", ["--counts", "not empty and holds no functok train run"]),
    ("--tasks 0", ["--tasks must be at least 1"]),
])
def test_the_counts_folder_is_checked_before_counting(tmp_path, capsys, monkeypatch, case, names):
    """Each refusal comes before any counting, so without Ray too (blocked here)."""
    pytest.importorskip("datatrove")
    monkeypatch.setitem(sys.modules, "ray", None)
    folder = corpus(tmp_path / "c")
    counts = {"--counts in the corpus": folder / "counts", "the corpus in --counts": tmp_path}.get(
        case, tmp_path / "counts")
    if case == "--counts a file":
        counts.write_text("not a folder", encoding="utf-8")
    if case == "--counts holding other files":
        counts.mkdir()
        (counts / "notes.txt").write_text("mine", encoding="utf-8")
    args = {"no --counts": ["--executor", "ray"], "--counts without ray": ["--counts", str(counts)],
            "--tasks without ray": ["--tasks", "4"],
            "--tasks 0": ["--executor", "ray", "--counts", str(counts), "--tasks", "0"]}.get(
        case, ["--executor", "ray", "--counts", str(counts)])
    assert train("--corpus", str(folder), "--out", str(tmp_path / "t.json"), *args) == 2
    one_line_refusal(capsys.readouterr().err, *names)
    assert not (tmp_path / "t.json").exists()
    assert case in ("--counts a file", "--counts holding other files") or not (tmp_path / "counts").exists()
