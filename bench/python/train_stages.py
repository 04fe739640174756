"""Where ``functok train``'s time and memory go: each stage of ``train_bpe`` on one corpus,
with its wall and CPU seconds, the process's RSS after it, and its peak RSS during it.

    .venv/bin/python bench/python/train_stages.py FOLDER [--vocab-size 32000]

FOLDER is a corpus folder (``bench/python/train_corpus.py`` builds one). Tokenizer.train's defaults
(``compact``, ``fuse="frequent"``), read as ``functok train`` reads them (text files in chunks).
The peak of a stage is read from the kernel's high-water mark, reset before the stage
(``/proc/self/clear_refs``), so this runs on Linux only. CPU seconds count every thread (the
trainer and the greedy segmentation use several).
"""

from __future__ import annotations

import argparse
import sys
import time

from functok.commands.corpus import CorpusReader
from functok.tokenizer import fusion, train

STAGES = {train: ("count_texts_packed", "bounded_counts", "kept_alphabet", "_bounded_table", "release_freed_memory",
                  "train_counts", "add_fusion_merges", "with_byte_tokens"),
          fusion: ("greedy_segmentation", "_marginal_use", "table_fusion_merges")}


def memory() -> tuple[int, int]:
    """The process's RSS and its high-water mark since the last reset, in MB."""
    fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def timed(module, name: str, rows: list) -> None:
    original = getattr(module, name)

    def stage(*args, **kwargs):
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets the high-water mark
        wall, cpu = time.perf_counter(), time.process_time()
        result = original(*args, **kwargs)
        rows.append((name, time.perf_counter() - wall, time.process_time() - cpu, *memory()))
        return result

    setattr(module, name, stage)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("--vocab-size", type=int, default=32000)
    args = parser.parse_args()
    rows: list = []
    for module, names in STAGES.items():
        for name in names:
            timed(module, name, rows)
    reader = CorpusReader([args.folder], field="text", skip_bad=False, unit="chunks", max_line=100_000)
    start = time.perf_counter()
    train.train_bpe((doc.text for doc in reader.documents()), vocab_size=args.vocab_size, splitter="llama3",
                    normalize="nfc", fuse=train.DEFAULT_FUSE, profile=train.DEFAULT_PROFILE, show_progress=False)
    print(f"# {args.folder}: {time.perf_counter() - start:.1f} s in all; nested stages are listed before "
          f"the stage that holds them")
    print(f"{'stage':<22}{'wall s':>8}{'CPU s':>8}{'RSS after':>11}{'peak':>8}")
    for name, wall, cpu, rss, peak in rows:
        print(f"{name:<22}{wall:>8.2f}{cpu:>8.2f}{rss:>8} MB{peak:>5} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
