"""``functok train``'s counting step as a datatrove pipeline, for a corpus counted on many
machines (Slurm, Ray) or too large for one process's memory; docs/corpus.md shows each executor.

    from datatrove.executor import LocalPipelineExecutor   # or SlurmPipelineExecutor, RayPipelineExecutor
    from functok import Tokenizer
    from functok.commands.count_pipeline import count_pipeline
    from functok.integrations.datatrove import merge_counts

    pipeline = count_pipeline(["corpus/"], "counts/")            # Tokenizer.train's default options
    LocalPipelineExecutor(pipeline, tasks=16, workers=4, logging_dir="counts/logs").run()
    tokenizer = Tokenizer.train(merge_counts("counts/"), vocab_size=32000)

Task *r* reads the files *r*, *r* + tasks, ... with functok's reader (text files in chunks, as
``functok train`` reads them; tasks beyond the number of files read nothing) and writes its
counts to ``counts/counts-<r>.jsonl`` (:class:`~functok.integrations.datatrove.PretokenCounter`).
:func:`~functok.integrations.datatrove.merge_counts` adds the files in rank order; the tokenizer
is the one ``functok train`` trains on the same files, byte for byte, for any number of tasks
(without ``min_count``). Any datatrove reader may stand in for functok's (``JsonlReader``,
``ParquetReader``): the counter reads each document's ``text``.
"""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path

from ..tokenizer.pretoken_counts import CountOptions
from .corpus import DEFAULT_MAX_LINE, CorpusReader, total_bytes
from .tokenize_pipeline import CorpusShardReader

__all__ = ["count_pipeline", "run_counting"]


def count_pipeline(paths: list[str], out: str, options: CountOptions | None = None, *, field: str = "text",
                   skip_bad: bool = False, min_count: int = 1, max_line: int | None = DEFAULT_MAX_LINE) -> list:
    """The counting pipeline, for any datatrove executor: read the corpus ``paths`` (listed once,
    sorted, without ``out``), skipping and counting texts with a line longer than ``max_line``
    code points (``functok train --max-line-chars``; None: none), count under ``options`` (None:
    ``Tokenizer.train``'s defaults), prune each task's counts below ``min_count``, write them to
    ``out``."""
    from ..integrations.datatrove import PretokenCounter
    from .train_count import count_options

    listing = CorpusReader(paths, field=field, skip_bad=skip_bad, exclude=[out])
    files = [os.fsdecode(f) for f in listing.files()]
    return [
        CorpusShardReader(files, os.path.join(out, "logs", "functok"), field=field, skip_bad=skip_bad,
                          unit="chunks", max_line=max_line),
        PretokenCounter(out, options or count_options({}), min_count=min_count),
    ]


def run_counting(files: list[Path], counts: Path, options: CountOptions, *, executor: str, tasks: int,
                 workers: int, min_count: int = 1, field: str = "text", skip_bad: bool = False,
                 max_line: int | None = DEFAULT_MAX_LINE, ray_address: str | None = None,
                 progress: bool = False) -> dict[int, dict]:
    """``functok train --executor ray``'s counting: claim the folder ``counts`` (or resume the
    run it holds: finished tasks are not run again), run the counting pipeline's tasks over
    ``files`` on the executor named (``progress``: a bar over the bytes the tasks have read),
    and raise the bad input a task stopped at. Returns what each
    task read (``files_read``, ``documents``, ``characters``, ``skipped``), by rank; the counts
    are in ``counts``, for :func:`~functok.integrations.datatrove.merge_counts`."""
    from .corpus_cli import ByteProgress
    from .executors import claim_folder, raise_failed, run_identity, run_watched
    from .tokenize_pipeline import read_records

    how = {"options": asdict(options), "min_count": min_count, "tasks": tasks, "field": field,
           "skip_bad": skip_bad, "max_line": max_line}
    claim_folder(counts, run_identity(files, **how), option="--counts", command="functok train",
                 differs="a different corpus or counting options")
    pipeline = count_pipeline([os.fsdecode(f) for f in files], os.fsdecode(counts), options, field=field,
                              skip_bad=skip_bad, min_count=min_count, max_line=max_line)
    bar = ByteProgress(total_bytes(files), "counting", progress) if progress else None
    run_watched(pipeline, executor, tasks=tasks, workers=min(workers, tasks), logging_dir=str(counts / "logs"),
                ray_address=ray_address, bar=bar)
    records = counts / "logs" / "functok"
    raise_failed(records, tasks)
    return read_records(records, "read")
