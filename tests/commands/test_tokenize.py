"""``functok tokenize``: datatrove token shards whose ids are Tokenizer.encode's, document by
document, read back with datatrove's own (numpy-only) readers; the same bytes for 1 and 2
workers; a killed run that resumes to the same output, also with --out in the corpus folder;
bad documents counted."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")
pytest.importorskip("datatrove")

from datatrove.pipeline.tokens.merger import get_data_reader, load_doc_ends  # noqa: E402

from functok import Tokenizer  # noqa: E402
from functok.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EOS = "<|endoftext|>"
WORDS = "river stone Garden WINDOW letter résumé naïve 漢字 def return x+1 ==".split()


def text(k: int) -> str:
    return " ".join(WORDS[(k * j) % len(WORDS)] for j in range(40)) + f" {k}\n"


def write_corpus(folder: Path) -> dict[str, str]:
    """Four .jsonl(.gz) files and a .txt; returns every good document's text by its name."""
    folder.mkdir(parents=True)
    docs: dict[str, str] = {}
    for f in range(4):
        name = f"part{f}.jsonl" + (".gz" if f % 2 else "")
        lines = [json.dumps({"text": text(f * 1000 + k)}) for k in range(120)]
        lines[3] = json.dumps({"text": f"a document holding {EOS} as text"})
        for k, line in enumerate(lines, 1):
            docs[f"{folder / name}:{k}"] = json.loads(line)["text"]
        if f == 2:
            lines.append('{"body": "no text field"}')  # line 121: bad
        data = ("\n".join(lines) + "\n").encode()
        (folder / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    (folder / "notes.txt").write_text("Plain Text, one document.\n\nTwo paragraphs.\n", encoding="utf-8")
    docs[str(folder / "notes.txt")] = "Plain Text, one document.\n\nTwo paragraphs.\n"
    return docs


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("tokenize")
    docs = write_corpus(root / "corpus")
    tokenizer = Tokenizer.train(iter(list(docs.values())[::7]), vocab_size=400, profile="paper",
                                special_tokens=[EOS], show_progress=False)
    tokenizer.save(root / "tok.json")
    reference = root / "one-worker"
    assert tokenize(root, reference, "--workers", "1") == 0
    return root, docs, tokenizer, reference


def tokenize(root: Path, out: Path, *args: str, corpus: Path | None = None) -> int:
    return main(["tokenize", "--no-progress", "--quiet", "--corpus", str(corpus or root / "corpus"), "--tokenizer",
                 str(root / "tok.json"), "--out", str(out), "--eos", EOS, "--skip-bad", "--tasks", "4", *args])


def read_shards(out: Path, token_bytes: int = 2) -> list[tuple[str, list[int]]]:
    """(document id, ids) of every shard, with datatrove's readers; ids from the documents index."""
    dtype = {2: "<u2", 4: "<u4"}[token_bytes]
    import numpy as np

    found = []
    for shard in sorted(out.glob("*.ds")):
        ends = load_doc_ends(open(f"{shard}.index", "rb"))
        data = [np.frombuffer(b, dtype=dtype).tolist() for b in get_data_reader(open(shard, "rb"), ends, token_bytes)]
        names = [json.loads(line)["id"] for line in Path(f"{shard}.documents.jsonl").read_text("utf-8").splitlines()]
        assert len(names) == len(data)
        found += zip(names, data)
    return found


def shard_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and "logs" not in p.relative_to(out).parts}


def test_ids_are_tokenizer_encode_document_by_document(setup):
    root, docs, tokenizer, reference = setup
    found = read_shards(reference)
    eos = tokenizer.token_to_id(EOS)
    assert sorted(name for name, _ in found) == sorted(docs)  # every good document, once
    for name, ids in found:
        assert ids == tokenizer.encode(docs[name], disallowed_special=()).ids + [eos], name
    manifest = json.loads((reference / "manifest.json").read_text("utf-8"))
    assert manifest["counts"]["documents"] == len(docs) and manifest["token_bytes"] == 2
    assert manifest["counts"]["tokens"] == sum(len(ids) for _, ids in found)
    assert manifest["tokenizer"]["vocab_size"] == 400 and len(manifest["tokenizer"]["sha256"]) == 64
    assert manifest["tokenizer"]["sha256"] == hashlib.sha256((root / "tok.json").read_bytes()).hexdigest()


def test_bad_documents_counted(setup):
    manifest = json.loads((setup[3] / "manifest.json").read_text("utf-8"))
    assert manifest["skipped_by_reason"] == {"bad .jsonl line: no field 'text'": 1}
    assert manifest["skipped"][0]["what"].endswith("part2.jsonl:121")


def test_two_workers_give_the_same_bytes(setup):
    root, _, _, reference = setup
    assert tokenize(root, root / "two-workers", "--workers", "2") == 0
    assert shard_files(root / "two-workers") == shard_files(reference)


def test_two_threads_give_the_same_bytes_and_the_same_skips(setup):
    """--threads: batches through Tokenizer.encode_batch; a refused document in a batch is
    skipped alone (special_text skip refuses the four holding the end-of-text token's text)."""
    root, _, _, reference = setup
    assert tokenize(root, root / "two-threads", "--threads", "2") == 0
    assert shard_files(root / "two-threads") == shard_files(reference)
    for threads in ("1", "2"):
        assert tokenize(root, root / f"skip-{threads}", "--threads", threads, "--special-text", "skip") == 0
    assert shard_files(root / "skip-2") == shard_files(root / "skip-1")
    manifest = json.loads((root / "skip-2" / "manifest.json").read_text("utf-8"))
    assert manifest["skipped_by_reason"]["holds a special token's text"] == 4


# The child runs tokenize with its executor held after the first task: killed there, the run has
# one task done, three not and no manifest, however loaded the machine (a parent that polled for
# the first completion and then killed once saw all four done on a loaded CI machine).
HOLD_AFTER_THE_FIRST_TASK = """
import sys, time
from functok.commands.tokenize_pipeline import FileLoggingLocalExecutor
run = FileLoggingLocalExecutor._run_for_rank
def held_after_rank_0(self, rank, *args, **kwargs):
    stats = run(self, rank, *args, **kwargs)
    if rank == 0:
        time.sleep(600)
    return stats
FileLoggingLocalExecutor._run_for_rank = held_after_rank_0
from functok.cli import main
sys.exit(main(sys.argv[1:]))
"""


def kill_after_the_first_task(root: Path, corpus: Path, out: Path) -> None:
    """Run tokenize (four tasks, one worker) in a child process and kill it once the first task
    is done: a killed run, with some tasks finished and no manifest."""
    command = [sys.executable, "-c", HOLD_AFTER_THE_FIRST_TASK, "tokenize", "--no-progress", "--quiet", "--corpus",
               str(corpus), "--tokenizer", str(root / "tok.json"), "--out", str(out), "--eos", EOS,
               "--skip-bad", "--tasks", "4", "--workers", "1"]
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    process = subprocess.Popen(command, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    first = out / "logs" / "completions" / "00000"
    deadline = time.monotonic() + 120
    while not first.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done = sorted(p.name for p in (out / "logs" / "completions").iterdir())
    assert done == ["00000"], f"expected the first task done and the others not: {done}"
    assert not (out / "manifest.json").exists()


def test_a_killed_run_resumes_to_the_same_output(setup):
    root, _, _, reference = setup
    out = root / "killed"
    kill_after_the_first_task(root, root / "corpus", out)
    assert tokenize(root, out, "--workers", "2") == 0
    assert shard_files(out) == shard_files(reference)


def test_out_inside_the_corpus_folder_resumes(setup, tmp_path):
    """--out in the corpus folder: the rerun that resumes a killed run does not read the run's own
    shards (.ds.documents.jsonl files) as corpus. Before: refused, "holds another run"."""
    root = setup[0]
    corpus = tmp_path / "corpus"
    shutil.copytree(root / "corpus", corpus)
    whole = tmp_path / "whole"  # one uninterrupted run of the same corpus, --out outside it
    assert tokenize(root, whole, "--workers", "1", corpus=corpus) == 0
    out = corpus / "shards"
    kill_after_the_first_task(root, corpus, out)
    assert tokenize(root, out, "--workers", "2", corpus=corpus) == 0
    assert shard_files(out) == shard_files(whole)
    assert tokenize(root, out, "--workers", "1", corpus=corpus) == 0  # done: the same run again
    assert shard_files(out) == shard_files(whole)


def test_a_corpus_path_inside_out_is_refused(setup, capsys):
    root, _, _, reference = setup
    inside = reference / "00000_unshuffled.ds.documents.jsonl"
    code = main(["tokenize", "--no-progress", "--corpus", str(inside), "--tokenizer", str(root / "tok.json"),
                 "--out", str(reference / ".." / reference.name)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"{inside} is in the output folder {reference / '..' / reference.name}" in err


def test_bad_input_without_skip_bad_is_exit_2(setup, capsys):
    root = setup[0]
    code = main(["tokenize", "--no-progress", "--corpus", str(root / "corpus"), "--tokenizer",
                 str(root / "tok.json"), "--out", str(root / "strict"), "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 2 and "part2.jsonl:121: no field 'text'" in err and "Traceback" not in err


def test_uint32_tokens_past_65536_ids(setup, monkeypatch):
    import functok.integrations.datatrove as blocks

    root, docs, tokenizer, _ = setup
    monkeypatch.setattr(blocks, "UINT16_IDS", 100)  # as if the vocabulary had more than 65,536 ids
    out = root / "wide"
    assert tokenize(root, out, "--workers", "1") == 0
    assert json.loads((out / "manifest.json").read_text("utf-8"))["token_bytes"] == 4
    eos = tokenizer.token_to_id(EOS)
    for name, ids in read_shards(out, 4):
        assert ids == tokenizer.encode(docs[name], disallowed_special=()).ids + [eos]


def test_a_folder_of_another_run_is_refused(setup, capsys):
    root, _, _, reference = setup
    assert tokenize(root, reference, "--workers", "1", "--segmentation", "optimal") == 2
    assert "holds another run" in capsys.readouterr().err
    (root / "taken").mkdir()
    (root / "taken" / "mine.txt").write_text("x", encoding="utf-8")
    assert tokenize(root, root / "taken", "--workers", "1") == 2
    assert "not empty" in capsys.readouterr().err


def test_unknown_eos_and_bad_tokenizer(setup, capsys):
    root = setup[0]
    assert main(["tokenize", "--corpus", str(root / "corpus"), "--tokenizer", str(root / "tok.json"),
                 "--out", str(root / "e"), "--eos", "<nope>"]) == 2
    assert "--eos '<nope>' is not a token" in capsys.readouterr().err
    assert main(["tokenize", "--corpus", str(root / "corpus"), "--tokenizer", str(root / "corpus" / "notes.txt"),
                 "--out", str(root / "e")]) == 2
    assert "--tokenizer" in capsys.readouterr().err


def test_one_file_shared_by_the_tasks(setup):
    """Fewer files than tasks: the tasks share the records, for any --workers the same shards."""
    root, docs, tokenizer, _ = setup
    one = root / "corpus" / "part2.jsonl"  # 120 records and one bad line
    outs = []
    for workers in ("1", "2"):
        outs.append(root / f"shared-{workers}")
        assert main(["tokenize", "--no-progress", "--quiet", "--corpus", str(one), "--tokenizer",
                     str(root / "tok.json"), "--out", str(outs[-1]), "--skip-bad", "--workers", workers]) == 0
    assert shard_files(outs[0]) == shard_files(outs[1])
    manifest = json.loads((outs[0] / "manifest.json").read_text("utf-8"))
    assert manifest["tasks"] == 16 and manifest["counts"]["files_read"] == 1
    assert manifest["skipped_by_reason"] == {"bad .jsonl line: no field 'text'": 1}  # once, not once a task
    found = read_shards(outs[0])
    assert sorted(name for name, _ in found) == sorted(n for n in docs if n.startswith(f"{one}:"))
    assert all(ids == tokenizer.encode(docs[name], disallowed_special=()).ids for name, ids in found)
    shard_documents = [json.loads(p.read_text("utf-8"))["documents"] for p in sorted(outs[0].glob("*.functok.json"))]
    assert shard_documents == [8] * 8 + [7] * 8  # 120 records: record k in task k % 16


def test_executor_ray_without_ray_is_exit_2(setup, capsys):
    try:
        import ray  # noqa: F401
        pytest.skip("Ray is installed here: tests/integrations/test_ray.py runs the Ray executor")
    except ImportError:
        pass
    root = setup[0]
    assert tokenize(root, root / "no-ray", "--executor", "ray") == 2
    err = capsys.readouterr().err
    assert "--executor ray needs Ray: pip install ray" in err and "Traceback" not in err
