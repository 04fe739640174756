"""Training at corpus scale: ``functok train`` against Hugging Face ``tokenizers`` alone, in one run.

    .venv/bin/python bench/python/train.py [--mb 400] [--vocab-size 32000] [--stdlib-of PYTHON ...]
                                    [--only train,workers,memory] [--min-count 2]

The corpus is ``bench/python/train_corpus.py``'s (``--mb`` MB of package source code, plus the UDHR),
built once and cached. Every measurement is a fresh process, run one after the other, its wall
time and peak RSS taken from the operating system (``os.wait4``'s ``ru_maxrss`` for that child):

* **train**: ``functok train --vocab-size N`` (the defaults) against the trainer alone:
  ``tokenizers``' ``BpeTrainer`` on ``ByteLevel`` pre-tokens, ``train_from_iterator`` over the
  same files' lines, in the same order, to the same vocabulary size;
* **workers**: ``functok train --workers 2`` against ``--workers 1`` (the trained files compared
  byte for byte), and the counting step alone with 2 workers against 1 (``--workers`` spreads
  the counting only: the trainer runs on every core already, the fusion step on one);
* **memory**: counting alone (what ``functok train`` holds before the trainer starts: the
  reader and the pre-token counts, ``functok.commands.train_count.count_corpus``) on the corpus
  and on the corpus twice (the same text again: the same distinct pre-tokens), and, with
  ``--min-count``, counting pruned per shard, and the vocabulary it trains against the unpruned
  one's.

It prints each figure and the ratios the issue's goals name.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_corpus  # noqa: E402

PYTHON = sys.executable


def run_child(argv: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """Runs ``argv`` to the end; its wall seconds, peak RSS in MB and CPU seconds (user and
    system, its own and its waited-for children's: counting workers), that child's own."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{stderr[-3000:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def functok_train(corpus: Path, out: Path, vocab: int, *extra: str, package: Path | None = None
                  ) -> tuple[float, float, float]:
    """functok train; ``package``: the ``python/`` folder of another checkout to run instead."""
    env = None if package is None else dict(os.environ, PYTHONPATH=str(package))
    return run_child([PYTHON, "-m", "functok", "train", "--corpus", str(corpus), "--vocab-size", str(vocab),
                      "--out", str(out), "--no-progress", *extra], env)


def hf_train(corpus: Path, vocab: int) -> tuple[float, float, float]:
    return run_child([PYTHON, __file__, "--child", "hf", str(corpus), "--vocab-size", str(vocab)])


def count_only(corpus: Path, *extra: str) -> tuple[float, float, float]:
    return run_child([PYTHON, __file__, "--child", "count", str(corpus), *extra])


# --- the children --------------------------------------------------------------------------


def lines(folder: Path):
    """The corpus's lines in the order functok train reads its files, in lists of 1,000."""
    for path in sorted(folder.glob("*.txt")):
        with open(path, encoding="utf-8") as f:
            batch = []
            for line in f:
                batch.append(line)
                if len(batch) == 1000:
                    yield batch
                    batch = []
            if batch:
                yield batch


def child_hf(folder: Path, vocab: int) -> None:
    """The trainer alone: byte-level BPE as GPT-2 trains it."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    hf.train_from_iterator(lines(folder), trainer)
    print(hf.get_vocab_size())


def child_count(folder: Path, workers: int, min_count: int) -> None:
    """functok train's counting step alone, with Tokenizer.train's default options."""
    from functok.commands.corpus import CorpusReader
    from functok.commands.train_count import count_options
    from functok.commands.train_count import count_corpus

    reader = CorpusReader([str(folder)], field="text", skip_bad=False, unit="chunks", max_line=100_000)
    counts = count_corpus((doc.text for doc in reader.documents()), count_options({}), workers=workers,
                          min_count=max(1, min_count))
    print(len(counts.words), len(counts.chains or ()))


# --- the run -------------------------------------------------------------------------------


def doubled(corpus: Path, into: Path) -> Path:
    """A folder holding the corpus's files twice (hard links), read in the same order twice."""
    into.mkdir(exist_ok=True)
    for copy in ("1", "2"):
        for f in sorted(corpus.glob("*.txt")):
            link = into / f"{copy}-{f.name}"
            if not link.exists():
                os.link(f, link)
    return into


def vocab_overlap(a: Path, b: Path) -> float:
    va = json.loads(a.read_text())["tokenizer"]["model"]["vocab"]
    vb = json.loads(b.read_text())["tokenizer"]["model"]["vocab"]
    return len(va.keys() & vb.keys()) / max(len(va), 1)


def row(name: str, wall: float, rss: float, cpu: float) -> None:
    print(f"{name:<52}{wall:>9.1f} s{rss:>9.0f} MB{cpu:>9.1f} s  CPU/wall {cpu / wall:.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=400.0)
    parser.add_argument("--vocab-size", type=int, default=32000)
    parser.add_argument("--stdlib-of", action="append", default=[], metavar="PYTHON")
    parser.add_argument("--only", default="train,workers,memory")
    parser.add_argument("--min-count", type=int, default=0, help="also measure pruning at this count (memory)")
    parser.add_argument("--before", type=Path, default=None, metavar="PYTHON_FOLDER",
                        help="also time functok train from this checkout's python/ folder (an earlier commit, "
                             "its C core built or copied in), and compare the files")
    parser.add_argument("--workers", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--child", choices=("hf", "count"), help=argparse.SUPPRESS)
    parser.add_argument("folder", nargs="?", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "hf":
        child_hf(args.folder, args.vocab_size)
        return 0
    if args.child == "count":
        child_count(args.folder, args.workers, args.min_count)
        return 0
    corpus = train_corpus.build(args.mb, args.stdlib_of)
    size = sum(f.stat().st_size for f in corpus.glob("*.txt")) / 1e6
    only = set(args.only.split(","))
    print(f"# corpus {corpus.name}: {size:.1f} MB; vocab {args.vocab_size}; load {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    print(f"{'':<52}{'wall':>11}{'peak RSS':>12}{'CPU':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if "train" in only:
            f_wall, f_rss, f_cpu = functok_train(corpus, tmp / "functok.json", args.vocab_size)
            row("functok train (defaults, --workers 1)", f_wall, f_rss, f_cpu)
            if args.before:
                b_wall, b_rss, b_cpu = functok_train(corpus, tmp / "before.json", args.vocab_size,
                                                     package=args.before)
                row("functok train, before (--before)", b_wall, b_rss, b_cpu)
                same = (tmp / "before.json").read_bytes() == (tmp / "functok.json").read_bytes()
                print(f"functok train now / before: wall {f_wall / b_wall:.2f}x, peak RSS {f_rss / b_rss:.2f}x; "
                      f"files identical: {same}", flush=True)
            h_wall, h_rss, h_cpu = hf_train(corpus, args.vocab_size)
            row("tokenizers BpeTrainer, ByteLevel, train_from_iterator", h_wall, h_rss, h_cpu)
            print(f"functok / tokenizers: wall {f_wall / h_wall:.2f}x (goal <= 1.0), peak RSS {f_rss / h_rss:.2f}x "
                  f"(goal <= 1.0)", flush=True)
        if "workers" in only:
            w1 = functok_train(corpus, tmp / "w1.json", args.vocab_size, "--workers", "1")
            row("functok train --workers 1", *w1)
            w2 = functok_train(corpus, tmp / "w2.json", args.vocab_size, "--workers", "2")
            row("functok train --workers 2", *w2)
            same = (tmp / "w1.json").read_bytes() == (tmp / "w2.json").read_bytes()
            print(f"--workers 2 / --workers 1: speed-up {w1[0] / w2[0]:.2f}x (goal >= 1.7); files identical: "
                  f"{same}", flush=True)
            c1 = count_only(corpus, "--workers", "1")
            row("counting alone, --workers 1", *c1)
            c2 = count_only(corpus, "--workers", "2")
            row("counting alone, --workers 2", *c2)
            print(f"counting alone, --workers 2 / --workers 1: speed-up {c1[0] / c2[0]:.2f}x", flush=True)
        if "memory" in only:
            once = count_only(corpus)
            row("counting, corpus x1", *once)
            twice = count_only(doubled(corpus, tmp / "x2"))
            row("counting, corpus x2 (the same text twice)", *twice)
            print(f"counting memory x2 / x1: {twice[1] / once[1]:.2f}x (goal <= 1.1)", flush=True)
            if args.min_count > 1:
                pruned = count_only(corpus, "--workers", "2", "--min-count", str(args.min_count))
                row(f"counting, --workers 2 --min-count {args.min_count}", *pruned)
                plain = count_only(corpus, "--workers", "2")
                row("counting, --workers 2", *plain)
                functok_train(corpus, tmp / "plain.json", args.vocab_size, "--workers", "2")
                functok_train(corpus, tmp / "pruned.json", args.vocab_size, "--workers", "2",
                              "--min-count", str(args.min_count))
                print(f"--min-count {args.min_count}: counting memory {pruned[1] / plain[1]:.2f}x; "
                      f"vocabulary overlap with the unpruned training "
                      f"{vocab_overlap(tmp / 'plain.json', tmp / 'pruned.json'):.1%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
