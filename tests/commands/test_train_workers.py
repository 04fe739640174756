"""``functok train --workers N`` and ``--min-count``: counts made in shards and merged train the
same tokenizer as one process (byte for byte, for every N), and pruning is per shard."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("tokenizers")

from functok.cli import main  # noqa: E402
from functok.commands.train_count import _merge_in_rank_order, count_corpus  # noqa: E402
import functok.tokenizer.pretoken_counts as counting  # noqa: E402
from functok.tokenizer.pretoken_counts import CountOptions, count_texts  # noqa: E402

OPTIONS = CountOptions(normalize="nfc", splitter="llama3", fuse="frequent", profile="compact")
WORDS = ["The", "RIVER", "river", "Straße", "STRASSE", "ΑΒΓ", "αβγ", "déjà", "Déjà", "def", "f(x):", "return",
         "x", "*", "1", "22", "  ", "\n", "世界", "Hello", "HELLO", "hello,", "mIxEd"]


def texts(n: int = 60) -> list[str]:
    """Varied texts (case, marks, scripts, digits, code) whose pre-tokens and chains repeat."""
    return [" ".join(WORDS[(k * j) % len(WORDS)] for j in range(1, 12)) + f" {k}\n" for k in range(n)]


def corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    all_texts = texts()
    (folder / "a.txt").write_text("".join(all_texts[:20]), encoding="utf-8")
    (folder / "b.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in all_texts[20:]),
                                    encoding="utf-8")
    return folder


def train(*args: str) -> int:
    return main(["train", "--no-progress", "--vocab-size", "400", *args])


@pytest.mark.parametrize("fuse", ["none", "frequent"])
def test_the_trained_file_is_the_same_for_every_worker_count(tmp_path, capsys, fuse):
    folder = corpus(tmp_path / "c")
    files = []
    for workers in (1, 2, 3):
        out = tmp_path / f"w{workers}.json"
        assert train("--corpus", str(folder), "--out", str(out), "--fuse", fuse, "--workers", str(workers)) == 0
        files.append(out.read_bytes())
    assert "trained on 41 documents" in capsys.readouterr().out
    assert files[0] == files[1] == files[2]


def as_dicts(counts):
    """Counts as dicts, whichever form they came in (one process: flat, PackedPretokenCounts)."""
    counts = counts.unpacked() if hasattr(counts, "unpacked") else counts
    return dict(counts.words), counts.chains and dict(counts.chains)


def test_counts_from_worker_processes_equal_one_process():
    one = count_corpus(iter(texts()), OPTIONS, workers=1)
    three = count_corpus(iter(texts()), OPTIONS, workers=3)
    assert one.chains  # the texts have chains, so that the merge of chains is tested too
    assert as_dicts(three) == as_dicts(one)
    if counting.native is not None:  # the workers' counts came back, and were added up, in flat form
        assert isinstance(three, counting.PackedPretokenCounts)


@pytest.mark.parametrize("min_count", [1, 3])
def test_without_the_c_core_workers_count_and_merge_dicts(monkeypatch, min_count):
    """FUNCTOK_PURE=1 (the workers are new processes: they read it) and no core here: the pure
    path's dicts, the same counts as the C core's flat ones."""
    flat = count_corpus(iter(texts()), OPTIONS, workers=2, min_count=min_count)
    monkeypatch.setenv("FUNCTOK_PURE", "1")
    monkeypatch.setattr(counting, "native", None)
    pure = count_corpus(iter(texts()), OPTIONS, workers=2, min_count=min_count)
    assert isinstance(pure, counting.PretokenCounts)
    assert as_dicts(pure) == as_dicts(flat)


@given(st.lists(st.sampled_from(WORDS + ["A", "b", "É", "\u0301"]), max_size=40).map(" ".join).map(lambda t: [t]),
       st.integers(1, 4), st.lists(st.text(max_size=30), max_size=8))
def test_shards_merged_in_rank_order_equal_one_count(first, shards, more):
    """Any texts, dealt out in turn to any number of shards: the merge of the shards' counts is
    the count of all the texts, keys in any order."""
    all_texts = first + more
    counted = [(rank, count_texts(iter(all_texts[rank::shards]), OPTIONS)) for rank in range(shards)]
    merged = _merge_in_rank_order(reversed(counted))  # the last shard arrives first
    assert as_dicts(merged) == as_dicts(count_texts(iter(all_texts), OPTIONS))


@pytest.mark.parametrize("workers", [1, 2])
def test_min_count_prunes_each_shard_before_the_merge(workers):
    all_texts = texts()
    got = count_corpus(iter(all_texts), OPTIONS, workers=workers, min_count=3)
    want_words, want_chains = Counter(), Counter()
    for rank in range(workers):
        shard = count_texts(iter(all_texts[rank::workers]), OPTIONS)
        want_words.update({w: n for w, n in shard.words.items() if n >= 3})
        want_chains.update({c: n for c, n in shard.chains.items() if n >= 3})
    assert as_dicts(got) == (dict(want_words), dict(want_chains))
    whole = count_texts(iter(all_texts), OPTIONS)
    assert 0 < len(got.words) < len(whole.words)  # something was pruned, not everything


def test_a_workers_error_is_raised_in_the_caller():
    with pytest.raises(TypeError, match="expected texts"):
        count_corpus(iter(["some text", 5, "more text"]), OPTIONS, workers=2)


@pytest.mark.parametrize("args, message", [(["--workers", "0"], "--workers must be at least 1"),
                                           (["--min-count", "0"], "--min-count must be at least 1")])
def test_bad_worker_options_are_refused(tmp_path, capsys, args, message):
    assert train("--corpus", str(corpus(tmp_path / "c")), "--out", str(tmp_path / "t.json"), *args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_datatrove_counting_pipeline_trains_the_same_file(tmp_path, capsys):
    """Counted by a datatrove pipeline (3 tasks, LocalPipelineExecutor), merged in rank order:
    the tokenizer functok train writes, byte for byte."""
    pytest.importorskip("datatrove")
    from datatrove.executor.local import LocalPipelineExecutor

    from functok import Tokenizer
    from functok.commands.count_pipeline import count_pipeline
    from functok.integrations.datatrove import merge_counts

    folder = corpus(tmp_path / "c")
    for k in range(3):  # five files, so that every task reads some
        (folder / f"more{k}.txt").write_text("".join(texts(80)[40 + 10 * k:50 + 10 * k]), encoding="utf-8")
    assert train("--corpus", str(folder), "--out", str(tmp_path / "cli.json")) == 0
    out = tmp_path / "counts"
    LocalPipelineExecutor(count_pipeline([str(folder)], str(out)), tasks=3, workers=1,
                          logging_dir=str(out / "logs")).run()
    assert sorted(p.name for p in out.glob("counts-*.jsonl")) == [f"counts-0000{r}.jsonl" for r in range(3)]
    trained = Tokenizer.train(merge_counts(out), vocab_size=400, show_progress=False)
    assert trained.to_str() == (tmp_path / "cli.json").read_text(encoding="utf-8")
    (out / "counts-00001.jsonl").unlink()
    with pytest.raises(ValueError, match="a task's file is missing"):
        merge_counts(out)


def test_bad_input_with_workers_exits_2_and_stops_them(tmp_path, capsys):
    folder = corpus(tmp_path / "c")
    (folder / "bad.txt").write_bytes(b"ok text\xff")
    assert train("--corpus", str(folder), "--out", str(tmp_path / "t.json"), "--workers", "2") == 2
    err = capsys.readouterr().err
    assert "bad.txt: invalid UTF-8 at byte 7" in err and "Traceback" not in err
    assert not (tmp_path / "t.json").exists()
    assert train("--corpus", str(folder), "--out", str(tmp_path / "t.json"), "--workers", "2", "--skip-bad") == 0
    assert "skipped 1 (invalid UTF-8)" in capsys.readouterr().err


def _count_files(tmp_path: Path, name: str, tasks: int = 3) -> Path:
    pytest.importorskip("datatrove")
    from datatrove.executor.local import LocalPipelineExecutor

    from functok.commands.count_pipeline import count_pipeline

    folder = tmp_path / "c"
    if not folder.exists():
        corpus(folder)
    out = tmp_path / name
    LocalPipelineExecutor(count_pipeline([str(folder)], str(out), OPTIONS, min_count=2), tasks=tasks, workers=1,
                          logging_dir=str(out / "logs")).run()
    return out


def test_count_files_are_the_same_from_the_c_core_and_without_it(tmp_path, monkeypatch):
    """The counter writes the same files from the C core's flat counts as from the pure path's
    dicts (the format is unchanged), and merge_counts adds them up to the same sums, in flat form
    a few lines at a time where the core is built, as dicts without it."""
    from functok.integrations import datatrove

    flat = _count_files(tmp_path, "flat")
    monkeypatch.setattr(datatrove, "MERGE_LINES", 5)  # many batches per file
    merged = datatrove.merge_counts(flat)
    monkeypatch.setattr(counting, "native", None)
    pure = _count_files(tmp_path, "pure")
    files = sorted(p.name for p in flat.glob("counts-*.jsonl"))
    assert files and [(flat / f).read_bytes() for f in files] == [(pure / f).read_bytes() for f in files]
    merged_pure = datatrove.merge_counts(pure)
    assert isinstance(merged_pure, counting.PretokenCounts)
    assert as_dicts(merged) == as_dicts(merged_pure)
    monkeypatch.undo()
    assert isinstance(merged, counting.PackedPretokenCounts) or counting.native is None


@pytest.mark.parametrize("line, problem", [('["w", "ab", 0]', "line 2"), ('["w", "ab", -1]', "line 2"),
                                           (f'["w", "ab", {2**64}]', "line 2"), ('["x", "ab", 1]', "line 2"),
                                           ('["c", "ab", 1]', "line 2"), ('not json', "line 2"),
                                           ('["w", "ab", 1.5]', "line 2")])
def test_a_malformed_count_file_is_a_value_error_naming_it(tmp_path, line, problem):
    from functok.integrations.datatrove import merge_counts

    out = _count_files(tmp_path, "counts", tasks=1)
    path = out / "counts-00000.jsonl"
    header = path.read_text(encoding="utf-8").splitlines()[0]
    path.write_text(header + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"counts-00000.jsonl: {problem}"):
        merge_counts(out)
    path.write_text('{"functok_counts": 99}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="counts-00000.jsonl: not a functok count file"):
        merge_counts(out)


def test_counts_added_past_2_64_are_an_error_naming_the_file(tmp_path):
    from functok.integrations.datatrove import merge_counts

    out = _count_files(tmp_path, "counts", tasks=2)
    for rank in range(2):
        path = out / f"counts-0000{rank}.jsonl"
        header = path.read_text(encoding="utf-8").splitlines()[0]
        path.write_text(header + "\n" + f'["w", "ab", {2**64 - 1}]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="counts-00001.jsonl: .*2\\*\\*64"):
        merge_counts(out)
