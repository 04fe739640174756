"""``functok tokenize --executor ray`` on a local Ray cluster: datatrove's
``RayPipelineExecutor`` runs the same pipeline as the local executor, and the shards are the same,
byte for byte; bad input stops it with exit status 2, named, as on one machine. And ``functok
train``'s counting pipeline on Ray: the same count files, and the same trained file, from Python
and from ``functok train --executor ray``.

Ray is installed only in scripts/test.sh's ray lane (its own venv), so that no other test depends
on it. Without Ray these tests are skipped, unless ``FUNCTOK_REQUIRE_RAY=1`` (the lane sets it):
then they fail.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray



def need(module: str):
    """The module, or a skip; in the ray lane (FUNCTOK_REQUIRE_RAY=1) an ImportError, which fails it."""
    if os.environ.get("FUNCTOK_REQUIRE_RAY") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module)


need("ray")
need("datatrove")
pa = need("pyarrow")
pq = need("pyarrow.parquet")

from functok import Tokenizer  # noqa: E402
from functok.cli import main  # noqa: E402

EOS = "<|endoftext|>"
TEXTS = [f"The River {k} flows; RIVER river. def f{k}(x): return x * {k}\nnaïve 漢字 {k}" for k in range(60)]


@pytest.fixture(scope="module", autouse=True)
def cluster():
    """One local cluster of 2 CPUs for the module (started once: it takes seconds); the command
    runs on the cluster it finds, as it would under ``RAY_ADDRESS``."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="warning")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Three files of three kinds: a .jsonl, a .parquet and a .txt; a tokenizer beside them."""
    root = tmp_path_factory.mktemp("ray")
    folder = root / "corpus"
    folder.mkdir()
    (folder / "a.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in TEXTS[:25]), encoding="utf-8")
    pq.write_table(pa.table({"text": TEXTS[25:59]}), folder / "b.parquet", row_group_size=10)
    (folder / "c.txt").write_text(TEXTS[59], encoding="utf-8")
    Tokenizer.train(iter(TEXTS), vocab_size=320, profile="paper", special_tokens=[EOS],
                    show_progress=False).save(root / "tok.json")
    return root


def tokenize(root: Path, out: Path, *args: str, corpus: Path | None = None) -> int:
    return main(["tokenize", "--no-progress", "--quiet", "--corpus", str(corpus or root / "corpus"), "--tokenizer",
                 str(root / "tok.json"), "--out", str(out), "--eos", EOS, "--tasks", "4", "--workers", "2", *args])


def outputs(out: Path) -> dict[str, bytes]:
    """Every file the run wrote but datatrove's logs (which name the executor)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and "logs" not in p.relative_to(out).parts}


def test_ray_gives_the_local_executors_shards(corpus):
    assert tokenize(corpus, corpus / "local") == 0
    assert tokenize(corpus, corpus / "on-ray", "--executor", "ray") == 0
    local, on_ray = outputs(corpus / "local"), outputs(corpus / "on-ray")
    assert sorted(local) == sorted(on_ray) and len([n for n in local if n.endswith(".ds")]) == 4
    assert on_ray == local
    manifest = json.loads(local["manifest.json"])
    assert manifest["counts"]["documents"] == len(TEXTS)
    assert sorted((corpus / "on-ray" / "logs" / "completions").iterdir()) != []


def test_bad_input_on_ray_is_exit_2_named(corpus, tmp_path, capsys):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.jsonl").write_text(json.dumps({"text": TEXTS[0]}) + "\n" + '{"body": 1}\n', encoding="utf-8")
    assert tokenize(corpus, tmp_path / "out", "--executor", "ray", corpus=folder) == 2
    err = capsys.readouterr().err
    assert "a.jsonl:2: no field 'text'" in err and "Traceback" not in err


def test_counting_on_ray_gives_the_local_counts(corpus, tmp_path):
    """functok train's counting pipeline (functok.commands.count_pipeline) on Ray: the count files
    are the local executor's, byte for byte, and their merge trains functok train's file."""
    from datatrove.executor.local import LocalPipelineExecutor
    from datatrove.executor.ray import RayPipelineExecutor

    from functok.commands.count_pipeline import count_pipeline
    from functok.integrations.datatrove import merge_counts

    counts = {}
    for name, executor in (("local", LocalPipelineExecutor), ("ray", RayPipelineExecutor)):
        out = tmp_path / f"counts-{name}"
        executor(count_pipeline([str(corpus / "corpus")], str(out)), tasks=3, workers=2,
                 logging_dir=str(out / "logs")).run()
        counts[name] = {p.name: p.read_bytes() for p in sorted(out.glob("counts-*.jsonl"))}
    assert len(counts["local"]) == 3 and counts["ray"] == counts["local"]
    assert main(["train", "--no-progress", "--vocab-size", "320", "--corpus", str(corpus / "corpus"),
                 "--out", str(tmp_path / "cli.json")]) == 0
    trained = Tokenizer.train(merge_counts(tmp_path / "counts-ray"), vocab_size=320, show_progress=False)
    assert trained.to_str() == (tmp_path / "cli.json").read_text(encoding="utf-8")


def train(corpus_folder: Path, out: Path, *args: str) -> int:
    return main(["train", "--no-progress", "--vocab-size", "320", "--corpus", str(corpus_folder), "--field", "body",
                 "--out", str(out), *args])


def summary(out: str) -> list[str]:
    """functok train's summary line but the file's name and the time."""
    return out.split(": ", 1)[1].split("; ")[:2]


def test_train_on_ray_gives_plain_trains_file(tmp_path, capsys):
    """`functok train --executor ray`: the counting pipeline's tasks on the cluster (the module's,
    as under RAY_ADDRESS), merged here: the file plain `functok train` writes, byte for byte, on
    a .jsonl, a .parquet and a .txt whose records keep their text in --field body. A rerun with
    the same --counts resumes the finished run: it counts nothing again and trains the same."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.jsonl").write_text("".join(json.dumps({"body": t}) + "\n" for t in TEXTS[:25]), encoding="utf-8")
    pq.write_table(pa.table({"body": TEXTS[25:59]}), folder / "b.parquet", row_group_size=10)
    (folder / "c.txt").write_text(TEXTS[59], encoding="utf-8")
    counts = tmp_path / "counts"
    assert train(folder, tmp_path / "plain.json") == 0
    plain_summary = summary(capsys.readouterr().out)
    assert train(folder, tmp_path / "on-ray.json", "--executor", "ray", "--counts", str(counts), "--tasks", "3",
                 "--workers", "2") == 0
    assert summary(capsys.readouterr().out) == plain_summary
    assert plain_summary == ["320 tokens, trained on 60 documents (4,160 code points) from 3 files", "0 skipped"]
    assert (tmp_path / "on-ray.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    assert sorted(p.name for p in counts.glob("counts-*.jsonl")) == [f"counts-0000{r}.jsonl" for r in range(3)]
    finished = {p: p.stat().st_mtime_ns for p in counts.glob("counts-*.jsonl")}
    assert train(folder, tmp_path / "again.json", "--executor", "ray", "--counts", str(counts), "--tasks", "3",
                 "--workers", "2") == 0
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    assert {p: p.stat().st_mtime_ns for p in counts.glob("counts-*.jsonl")} == finished


def test_train_on_ray_refuses_bad_input_and_a_missing_counts_folder(tmp_path, capsys):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.jsonl").write_text(json.dumps({"body": TEXTS[0]}) + "\n" + '{"text": 1}\n', encoding="utf-8")
    assert train(folder, tmp_path / "t.json", "--executor", "ray", "--counts", str(tmp_path / "counts"),
                 "--tasks", "2") == 2
    err = capsys.readouterr().err
    assert "a.jsonl:2: no field 'body'" in err and "Traceback" not in err
    assert train(folder, tmp_path / "t.json", "--executor", "ray") == 2
    err = capsys.readouterr().err
    assert "--executor ray needs --counts DIR" in err and "Traceback" not in err
    assert not (tmp_path / "t.json").exists()


def test_an_address_where_nothing_answers_is_refused_at_once():
    """ray.init waits without end for a cluster that is not there: the command checks first."""
    from functok.commands.tokenize_pipeline import _check_reachable

    with pytest.raises(ConnectionError, match="nothing answers at 127.0.0.1:1"):
        _check_reachable("ray://127.0.0.1:1")
    assert _check_reachable("auto") is None  # Ray's own lookup, which fails at once
