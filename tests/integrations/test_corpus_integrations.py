"""The datatrove blocks (functok.integrations.datatrove), the pipeline built for the Slurm and
Ray executors without a cluster, the Hugging Face datasets helper, and lazy imports."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from functok import Tokenizer, encode  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EOS = "<eos>"
TEXTS = ["Hello World, HELLO world.", "naïve Résumé 漢字", f"holds {EOS} as text", "def f(x):\n    return x"]


@pytest.fixture(scope="module")
def tokenizer_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tok") / "tok.json"
    Tokenizer.train(iter(TEXTS * 3), vocab_size=300, profile="paper", special_tokens=[EOS],
                    show_progress=False).save(path)
    return path


def documents(texts):
    from datatrove.data import Document

    return (Document(text=t, id=f"d{k}") for k, t in enumerate(texts))


def test_tokenizer_block_skips_what_the_tokenizer_refuses(tmp_path, tokenizer_file):
    pytest.importorskip("datatrove")
    from datatrove.pipeline.tokens.merger import get_data_reader, load_doc_ends

    from functok.integrations.datatrove import FunctokDocumentTokenizer

    import numpy as np

    tok = Tokenizer.from_file(tokenizer_file)
    block = FunctokDocumentTokenizer(str(tmp_path), str(tokenizer_file), eos_token=EOS, special_text="skip",
                             segmentation="optimal")
    block.run(documents(TEXTS + ["lone \ud800 surrogate"]), rank=3, world_size=8)
    shard = tmp_path / "00003_unshuffled.ds"
    ends = load_doc_ends(open(f"{shard}.index", "rb"))
    got = [np.frombuffer(b, "<u2").tolist() for b in get_data_reader(open(shard, "rb"), ends, 2)]
    kept = [t for t in TEXTS if EOS not in t]
    assert got == [tok.encode(t, segmentation="optimal").ids + [tok.token_to_id(EOS)] for t in kept]
    record = json.loads(Path(f"{shard}.functok.json").read_text("utf-8"))
    assert record["documents"] == len(kept) and [s["reason"] for s in record["skipped"]] == [
        "holds a special token's text", "not text: lone-surrogate"]


def test_tokenizer_block_refuses_an_unknown_eos(tmp_path, tokenizer_file):
    pytest.importorskip("datatrove")
    from functok.integrations.datatrove import FunctokDocumentTokenizer

    with pytest.raises(ValueError, match="'<nope>' is not a token"):
        FunctokDocumentTokenizer(str(tmp_path), str(tokenizer_file), eos_token="<nope>").ids("x")


def test_encoder_block_gives_the_stream():
    pytest.importorskip("datatrove")
    from functok.integrations.datatrove import FunctokEncoder

    out = [d.text for d in FunctokEncoder(splitter="paper").run(documents(TEXTS))]
    assert out == [encode(t, splitter="paper") for t in TEXTS]


def test_the_same_pipeline_on_slurm_and_ray(tmp_path, tokenizer_file):
    """The pipeline of docs/corpus.md on the cluster executors, built (and pickled, as they ship
    it to their tasks) but not run: neither sbatch nor a Ray cluster is needed to build them."""
    pytest.importorskip("datatrove")
    from datatrove.executor.ray import RayPipelineExecutor
    from datatrove.executor.slurm import SlurmPipelineExecutor

    from functok.commands.tokenize_pipeline import corpus_pipeline

    (tmp_path / "corpus").mkdir()
    for k, t in enumerate(TEXTS):
        (tmp_path / "corpus" / f"{k}.txt").write_text(t, encoding="utf-8")
    out = str(tmp_path / "shards")
    pipeline = corpus_pipeline([str(tmp_path / "corpus")], str(tokenizer_file), out, eos=EOS)
    slurm = SlurmPipelineExecutor(pipeline, tasks=64, time="04:00:00", partition="cpu", workers=32,
                                  job_name="functok-tokenize", logging_dir=f"{out}/logs", cpus_per_task=1)
    ray = RayPipelineExecutor(pipeline, tasks=64, workers=8, logging_dir=f"{out}/logs")
    assert slurm.world_size == ray.world_size == 64
    assert [type(step).__name__ for step in slurm.pipeline] == ["CorpusShardReader", "FunctokDocumentTokenizer"]
    # what a task of either executor does with its copy of the pipeline, for the task with file 2
    reader, tokenizer = pickle.loads(pickle.dumps(ray.pipeline))
    tokenizer.run(reader.run(None, rank=2, world_size=64), rank=2, world_size=64)
    record = json.loads(Path(out, "00002_unshuffled.ds.functok.json").read_text("utf-8"))
    assert record["documents"] == 1 and record["tokens"] == len(Tokenizer.from_file(tokenizer_file).encode(
        TEXTS[2], disallowed_special=()).ids) + 1


def test_datasets_helper_with_num_proc(tokenizer_file):
    datasets = pytest.importorskip("datasets")
    from functok.integrations.datasets import tokenize_dataset

    tok = Tokenizer.from_file(tokenizer_file)
    rows = datasets.Dataset.from_dict({"text": TEXTS * 5})
    one = tokenize_dataset(rows, tok, eos=EOS)
    two = tokenize_dataset(rows, str(tokenizer_file), eos=EOS, num_proc=2, remove_columns=["text"])
    want = [tok.encode(t, disallowed_special=()).ids + [tok.token_to_id(EOS)] for t in TEXTS * 5]
    assert one["input_ids"] == two["input_ids"] == want
    assert two.column_names == ["input_ids"]


def test_import_functok_and_help_load_neither_datatrove_nor_datasets():
    code = ("import sys, functok; from functok.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "try:\n    main(['tokenize', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('datatrove', 'datasets', 'loguru')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={"PYTHONPATH": str(REPO / "python")}).stdout.strip().splitlines()[-1]
    assert loaded == "[]"
