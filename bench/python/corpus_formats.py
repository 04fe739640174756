"""functok tokenize on the same corpus as .jsonl, .parquet and .arrow files: MB/s and peak memory,
measured in the same run (the goal: Parquet input / .jsonl input >= 0.9x).

    .venv/bin/python bench/python/corpus_formats.py [--stdlib-mb N] [--vocab-size N] [--tasks N] [--rounds N]

The corpus is bench/python/corpus.py's (a fixed sample of the standard library's .py files and every
UDHR translation, one document per file), dealt round-robin into --tasks files of each format:
``.jsonl`` (one JSON line per document), ``.parquet`` (pyarrow's ``write_table`` defaults:
snappy, one row group here) and ``.arrow`` (the IPC stream format, as ``datasets``'
``save_to_disk`` writes, batches of 1,000 rows). The functok tokenizer is trained on every
fourth document.

Each run is ``functok tokenize --workers 1`` in a fresh process, one single pass (the first one
over these files, with empty caches, leads); the formats run in turn, then again in the
reverse order (--rounds rounds), so that load that drifts during the run falls on each format
alike. MB/s counts the UTF-8 bytes of the documents over the wall time, start-up included
(MB per CPU second, also printed, is the figure that the load of other work disturbs least);
the token files of every format must be identical, byte for byte (checked). The corpus twice,
as Parquet, shows whether memory grows with the corpus. A last line times the corpus reader
alone (functok.commands.corpus.CorpusReader, no tokenizing) on each format, which is where the
formats differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpora import REPO
from corpus import add_corpus_options, documents, functok_run, prepare_apart

FORMATS = ("jsonl", "parquet", "arrow")

READER = """
import sys, time
from functok.commands.corpus import CorpusReader
started = time.monotonic()
size = sum(len(doc.text.encode()) for doc in CorpusReader([sys.argv[1]]).documents())
print(size, time.monotonic() - started)
"""


def write_formats(work: Path, texts: list[str], files: int) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    for kind in FORMATS:
        (work / kind).mkdir(parents=True)
    (work / "parquet-twice").mkdir()
    for k in range(files):
        part = texts[k::files]
        twice = pa.table({"text": pa.array(part + part, type=pa.string())})  # the same documents twice
        pq.write_table(twice, work / "parquet-twice" / f"part{k:03d}.parquet")
        (work / "jsonl" / f"part{k:03d}.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in part),
                                                           encoding="utf-8")
        table = pa.table({"text": pa.array(part, type=pa.string())})
        pq.write_table(table, work / "parquet" / f"part{k:03d}.parquet")
        with pa.ipc.new_stream(str(work / "arrow" / f"part{k:03d}.arrow"), table.schema) as writer:
            writer.write_table(table, max_chunksize=1000)
    return sum(len(t.encode()) for t in texts)


def prepare(work: Path, stdlib_mb: float, udhr: Path, tasks: int, vocab_size: int) -> None:
    from functok import Tokenizer

    texts = documents(stdlib_mb, udhr)
    size = write_formats(work, texts, tasks)
    (work / "size.json").write_text(json.dumps(size), encoding="utf-8")
    on_disk = {kind: sum(p.stat().st_size for p in (work / kind).iterdir()) / 1e6 for kind in FORMATS}
    print(f"corpus: {len(texts):,} documents, {size / 1e6:.1f} MB of UTF-8; on disk: "
          + ", ".join(f"{kind} {mb:.1f} MB" for kind, mb in on_disk.items()))
    Tokenizer.train(iter(texts[::4]), vocab_size=vocab_size, special_tokens=["<|endoftext|>"],
                    show_progress=False).save(work / "functok.json")


def shards(out: Path) -> dict[str, bytes]:
    """The token files (their index of documents names each document by its file, so differs)."""
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.ds*")) if p.name.endswith((".ds", ".index", ".metadata"))}


def reader_run(folder: Path) -> float:
    """Seconds the corpus reader alone takes over the folder, in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    out = subprocess.run([sys.executable, "-c", READER, str(folder)], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_options(parser, tasks="shards, and files of each format")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over the formats, each in turn (default: 2)")
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare, args.stdlib_mb, args.udhr, args.tasks, args.vocab_size)
        return 0
    work = Path(tempfile.mkdtemp(prefix="functok-bench-formats-"))
    prepare_apart(__file__, work, args)
    size = json.loads((work / "size.json").read_text(encoding="utf-8"))
    runs: dict[str, list[dict]] = {kind: [] for kind in FORMATS}
    for round_ in range(args.rounds):
        for kind in FORMATS if round_ % 2 == 0 else reversed(FORMATS):
            runs[kind].append(functok_run(work / kind, work / "functok.json", work / f"out-{kind}-{round_}", 1,
                                          args.tasks))
    twice = functok_run(work / "parquet-twice", work / "functok.json", work / "out-twice", 1, args.tasks)
    readers = {kind: reader_run(work / kind) for kind in FORMATS}
    print(f"\nfunctok tokenize, 1 worker, {size / 1e6:.1f} MB; round 1 is the single pass with empty caches")
    print(f"{'format':<8} " + " ".join(f"{'MB/s r' + str(r + 1):>9}" for r in range(args.rounds))
          + f" {'peak MB':>8} {'load':>5}")
    for kind in FORMATS:
        rates = [size / 1e6 / r["wall"] for r in runs[kind]]
        print(f"{kind:<8} " + " ".join(f"{rate:9.2f}" for rate in rates)
              + f" {max(r['peak_mb'] for r in runs[kind]):8.0f} {runs[kind][0]['load']:5.1f}")
    for kind in ("parquet", "arrow"):
        ratios = [runs["jsonl"][r]["wall"] / runs[kind][r]["wall"] for r in range(args.rounds)]
        by_cpu = [runs["jsonl"][r]["cpu"] / runs[kind][r]["cpu"] for r in range(args.rounds)]
        print(f"{kind} / jsonl, MB/s: " + ", ".join(f"{x:.2f}x" for x in ratios)
              + " (round 1 leads; goal >= 0.9x); MB per CPU second: " + ", ".join(f"{x:.2f}x" for x in by_cpu)
              + f"; peak memory {runs[kind][0]['peak_mb'] / runs['jsonl'][0]['peak_mb']:.2f}x")
    print(f"parquet, the corpus twice / once, peak memory: {twice['peak_mb'] / runs['parquet'][0]['peak_mb']:.2f}x "
          f"(flat is 1.0x; {2 * size / 1e6 / twice['wall']:.2f} MB/s)")
    print("\nthe corpus reader alone (no tokenizing), MB/s: "
          + ", ".join(f"{kind} {size / 1e6 / seconds:.1f}" for kind, seconds in readers.items())
          + f"; parquet / jsonl {readers['jsonl'] / readers['parquet']:.2f}x, arrow / jsonl "
            f"{readers['jsonl'] / readers['arrow']:.2f}x")
    reference = shards(work / "out-jsonl-0")
    same = all(shards(work / f"out-{kind}-{r}") == reference for kind in FORMATS for r in range(args.rounds))
    print(f"shards of every format and round identical: {same}")
    import shutil
    shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
