"""Corpus-scale tokenizing: functok tokenize on 1 and 2 workers, against datatrove's own
DocumentTokenizer with a plain Hugging Face byte-level BPE, measured in the same run.

    .venv/bin/python bench/python/corpus.py [--stdlib-mb N] [--vocab-size N] [--tasks N] [--keep DIR]

The corpus: a fixed sample of the standard library's .py files (the smallest CRC-32 of their path,
up to --stdlib-mb MB) and every UDHR translation (corpora/udhr), one
document per file, written as .jsonl files (--tasks of them, documents dealt round-robin). Both
tokenizers are trained here on the same text (every fourth document) with the same vocabulary
size: functok's with ``Tokenizer.train`` (its defaults), the baseline with ``tokenizers``'
``BpeTrainer`` over the ByteLevel pre-tokenizer (what a user would otherwise run), saved to a
file (datatrove's ``load_tokenizer`` would try the Hub for a name that is not a file).

Each run is one single pass in a fresh process, with ``RAYON_NUM_THREADS=1`` so that a worker is
one core for both: functok greedy with 1 and 2 workers (the same --tasks, so the shards must be
equal byte for byte, which is checked), the baseline with 1 worker through the same reader, and
functok with 1 worker on the corpus twice (memory per worker at two corpus sizes). MB/s counts
the UTF-8 bytes of the documents over the wall time, start-up included. The corpus twice (each
document written twice) shows whether memory grows with the corpus (the largest document and
the tokenizer's bounded caches stay the same; only the size doubles). Peak memory is the
largest resident set of the run's processes (``wait4``). The load average and the CPU time
each run got are printed, because the machine may be shared; MB per CPU second is the figure
that load disturbs least.

Goals: 2 workers >= 1.8x 1 worker; functok greedy per worker >= 1.0x DocumentTokenizer (a
stretch goal); memory per worker independent of corpus size. With the C core: per worker >= 5x
the code before it and >= 2x DocumentTokenizer. ``--before DIR`` names the ``python/`` folder
of an older checkout (with its own build of the C core, if it had one), whose ``functok tokenize``
then runs once more on the same corpus and tokenizer file, in the same run: the "before" column.
``FUNCTOK_PURE=1`` runs of the pure path are a row too (``--pure``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
import zlib
from pathlib import Path

from corpora import REPO, UDHR, readable_texts  # the benchmarks' one place for where the corpora are

EOS = "<|endoftext|>"

BASELINE = """
import sys
from datatrove.executor.local import LocalPipelineExecutor
from datatrove.pipeline.tokens.tokenizer import DocumentTokenizer
from functok.commands.tokenize_pipeline import CorpusShardReader
from functok.commands.corpus import CorpusReader
corpus, tokenizer, out, tasks = sys.argv[1:5]
files = [str(f) for f in CorpusReader([corpus]).files()]
pipeline = [CorpusShardReader(files, out + "/logs/functok"),
            DocumentTokenizer(out, tokenizer, eos_token="<|endoftext|>", shuffle_documents=False)]
LocalPipelineExecutor(pipeline, tasks=int(tasks), workers=1, logging_dir=out + "/logs").run()
"""


def documents(stdlib_mb: float, udhr: Path) -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted((f for f in root.rglob("*.py") if "site-packages" not in f.parts),
                   key=lambda f: zlib.crc32(f.relative_to(root).as_posix().encode()))
    texts, size = [], 0
    for text in readable_texts(files):
        if size + len(text.encode()) > stdlib_mb * 1e6:
            continue
        texts.append(text)
        size += len(text.encode())
    if udhr.is_dir():
        texts += [f.read_text(encoding="utf-8") for f in sorted(udhr.glob("*.txt"))]
    else:
        print(f"(no UDHR at {udhr}: the standard library only)")
    return texts


def write_corpus(folder: Path, texts: list[str], files: int) -> int:
    folder.mkdir(parents=True)
    parts = [texts[k::files] for k in range(files)]
    for k, part in enumerate(parts):
        (folder / f"part{k:03d}.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in part),
                                                   encoding="utf-8")
    return sum(len(t.encode()) for t in texts)


def train(work: Path, texts: list[str], vocab_size: int) -> tuple[Path, Path]:
    from tokenizers import Tokenizer as HF
    from tokenizers import decoders, models, pre_tokenizers, trainers

    from functok import Tokenizer

    sample = texts[::4]
    started = time.monotonic()
    functok_file = work / "functok.json"
    Tokenizer.train(iter(sample), vocab_size=vocab_size, special_tokens=[EOS], show_progress=False).save(functok_file)
    print(f"trained functok ({vocab_size:,}) in {time.monotonic() - started:.1f} s", end="; ")
    started = time.monotonic()
    hf = HF(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.train_from_iterator(sample, trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=[EOS],
                                                       initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                                       show_progress=False))
    hf_file = work / "hf-bytelevel.json"
    hf.save(str(hf_file))
    print(f"the byte-level BPE ({hf.get_vocab_size():,}) in {time.monotonic() - started:.1f} s")
    return functok_file, hf_file


def timed(command: list[str], python: Path = REPO / "python", **variables: str) -> dict:
    """One run in a fresh process (functok from ``python``): wall seconds, CPU seconds and the
    peak memory of its processes."""
    env = dict(os.environ, RAYON_NUM_THREADS="1", PYTHONPATH=str(python), **variables)
    load = os.getloadavg()[0]
    started = time.monotonic()
    with tempfile.TemporaryFile() as log:  # not a pipe, which datatrove's log lines could fill
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - started
        log.seek(0)
        error = log.read().decode(errors="replace")
    if status:
        sys.exit(f"failed: {' '.join(command)}\n{error[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024,
            "load": (load + os.getloadavg()[0]) / 2}


def functok_run(corpus: Path, tokenizer: Path, out: Path, workers: int, tasks: int, **where) -> dict:
    return timed([sys.executable, "-m", "functok.cli", "tokenize", "--no-progress", "--quiet", "--corpus", str(corpus),
                  "--tokenizer", str(tokenizer), "--out", str(out), "--eos", EOS, "--workers", str(workers),
                  "--tasks", str(tasks)], **where)


def shards(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.ds*"))}


def prepare(work: Path, stdlib_mb: float, udhr: Path, tasks: int, vocab_size: int) -> None:
    """The corpus and both tokenizers, written into ``work`` (run in a process of its own)."""
    texts = documents(stdlib_mb, udhr)
    full = write_corpus(work / "full", texts, tasks)
    double = write_corpus(work / "double", texts + texts, tasks)  # the same documents, twice: only the size grows
    write_corpus(work / "tiny", ["Start-up."] * tasks, tasks)  # one line per file: the start-up cost
    (work / "sizes.json").write_text(json.dumps({"full": full, "double": double}), encoding="utf-8")
    print(f"corpus: {len(texts):,} documents, {full / 1e6:.1f} MB of UTF-8 (and {double / 1e6:.1f} MB, each twice); "
          f"{os.cpu_count()} cores")
    train(work, texts, vocab_size)


def add_corpus_options(parser: argparse.ArgumentParser, tasks: str) -> None:
    """The options of the corpus and tokenizer that :func:`prepare_apart` makes (``tasks``: what
    --tasks counts), here and in bench/python/corpus_formats.py."""
    parser.add_argument("--stdlib-mb", type=float, default=4.0, help="MB of standard-library source (default: 4)")
    parser.add_argument("--udhr", type=Path, default=UDHR, help=f"the UDHR folder (default: {UDHR})")
    parser.add_argument("--vocab-size", type=int, default=8192)
    parser.add_argument("--tasks", type=int, default=16, help=f"{tasks} (default: 16)")
    parser.add_argument("--prepare", type=Path, default=None, help=argparse.SUPPRESS)


def prepare_apart(script: str, work: Path, args: argparse.Namespace) -> None:
    """Runs ``script --prepare work`` with this run's corpus options: the corpus and the training
    in a process of their own, so that this one stays small, because a child's peak resident
    memory (wait4) starts at its parent's when it forks."""
    subprocess.run([sys.executable, script, "--prepare", str(work), "--stdlib-mb", str(args.stdlib_mb), "--udhr",
                    str(args.udhr), "--tasks", str(args.tasks), "--vocab-size", str(args.vocab_size)],
                   env=dict(os.environ, PYTHONPATH=str(REPO / "python")), check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_options(parser, tasks="shards (and .jsonl files)")
    parser.add_argument("--keep", default=None, help="work in this folder and keep it (default: a temporary one)")
    parser.add_argument("--before", type=Path, default=None,
                        help="the python/ folder of an older checkout: its functok tokenize is a row too")
    parser.add_argument("--pure", action="store_true", help="a row of the pure path (FUNCTOK_PURE=1)")
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare, args.stdlib_mb, args.udhr, args.tasks, args.vocab_size)
        return 0
    work = Path(args.keep or tempfile.mkdtemp(prefix="functok-bench-corpus-"))
    work.mkdir(parents=True, exist_ok=True)
    prepare_apart(__file__, work, args)
    sizes = json.loads((work / "sizes.json").read_text(encoding="utf-8"))
    full, double = sizes["full"], sizes["double"]
    functok_file, hf_file = work / "functok.json", work / "hf-bytelevel.json"

    runs = {
        "functok greedy, 1 worker": (functok_run(work / "full", functok_file, work / "f1", 1, args.tasks), full),
        "functok greedy, 2 workers": (functok_run(work / "full", functok_file, work / "f2", 2, args.tasks), full),
        "DocumentTokenizer + HF byte-level BPE, 1 worker": (timed(
            [sys.executable, "-c", BASELINE, str(work / "full"), str(hf_file), str(work / "hf"), str(args.tasks)]), full),
        "functok greedy, 1 worker, the corpus twice": (functok_run(work / "double", functok_file, work / "d1", 1,
                                                                   args.tasks), double),
    }
    if args.before:
        runs["functok greedy, 1 worker, before (--before)"] = (
            functok_run(work / "full", functok_file, work / "b1", 1, args.tasks, python=args.before.resolve()), full)
    if args.pure:
        runs["functok greedy, 1 worker, pure (FUNCTOK_PURE=1)"] = (
            functok_run(work / "full", functok_file, work / "p1", 1, args.tasks, FUNCTOK_PURE="1"), full)
    startup = {workers: functok_run(work / "tiny", functok_file, work / f"t{workers}", workers, args.tasks)
               for workers in (1, 2)}
    same = shards(work / "f1") == shards(work / "f2")
    print(f"\n{'run':<50} {'MB/s':>7} {'MB/CPU s':>8} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'load':>5}")
    rate, per_cpu = {}, {}
    for name, (r, size) in runs.items():
        rate[name], per_cpu[name] = size / 1e6 / r["wall"], size / 1e6 / r["cpu"]
        print(f"{name:<50} {rate[name]:7.2f} {per_cpu[name]:8.2f} {r['wall']:7.1f} {r['cpu']:7.1f} "
              f"{r['peak_mb']:8.0f} {r['load']:5.1f}")
    one, two = runs["functok greedy, 1 worker"][0], runs["functok greedy, 2 workers"][0]
    scaling = rate["functok greedy, 2 workers"] / rate["functok greedy, 1 worker"]
    per_worker = rate["functok greedy, 1 worker"] / rate["DocumentTokenizer + HF byte-level BPE, 1 worker"]
    memory = runs["functok greedy, 1 worker, the corpus twice"][0]["peak_mb"] / one["peak_mb"]
    print(f"\nscaling 1 -> 2 workers: {scaling:.2f}x (goal >= 1.8x); the 2-worker run got "
          f"{two['cpu'] / two['wall']:.2f} cores on average, the 1-worker run {one['cpu'] / one['wall']:.2f}")
    cpu_ratio = per_cpu["functok greedy, 1 worker"] / per_cpu["DocumentTokenizer + HF byte-level BPE, 1 worker"]
    net = ((one["wall"] - startup[1]["wall"]) / max(two["wall"] - startup[2]["wall"], 1e-9))
    print(f"start-up (a corpus of {args.tasks} one-line files): {startup[1]['wall']:.1f} s with 1 worker, "
          f"{startup[2]['wall']:.1f} s with 2; scaling without it: {net:.2f}x")
    print(f"per worker, functok greedy / DocumentTokenizer with a plain byte-level BPE: {per_worker:.2f}x "
          f"by wall time, {cpu_ratio:.2f}x by CPU time (stretch goal >= 1.0x)")
    print(f"peak memory, the corpus twice / once, 1 worker: {memory:.2f}x (flat is 1.0x)")
    for name in runs:
        if name.startswith("functok greedy, 1 worker, ") and "twice" not in name:
            print(f"per worker, functok greedy / {name.split(', ')[-1]}: "
                  f"{rate['functok greedy, 1 worker'] / rate[name]:.2f}x by wall time, "
                  f"{per_cpu['functok greedy, 1 worker'] / per_cpu[name]:.2f}x by CPU time")
    print(f"shards of 1 and 2 workers identical: {same}")
    for folder in ("b1", "p1"):
        if (work / folder).is_dir() and shards(work / folder) != shards(work / "f1"):
            print(f"shards of {folder} differ from the 1-worker run")
            same = False
    if not args.keep:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
