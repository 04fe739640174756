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

from ..tokenizer.train import CountOptions
from .corpus import CorpusReader
from .tokenize_pipeline import CorpusShardReader

__all__ = ["count_pipeline"]


def count_pipeline(paths: list[str], out: str, options: CountOptions | None = None, *, field: str = "text",
                   skip_bad: bool = False, min_count: int = 1) -> list:
    """The counting pipeline, for any datatrove executor: read the corpus ``paths`` (listed once,
    sorted, without ``out``), count under ``options`` (None: ``Tokenizer.train``'s defaults),
    prune each task's counts below ``min_count``, write them to ``out``."""
    from ..integrations.datatrove import PretokenCounter
    from .train import count_options

    listing = CorpusReader(paths, field=field, skip_bad=skip_bad, exclude=[out])
    files = [os.fsdecode(f) for f in listing.files()]
    return [
        CorpusShardReader(files, os.path.join(out, "logs", "functok"), field=field, skip_bad=skip_bad,
                          unit="chunks"),
        PretokenCounter(out, options or count_options({}), min_count=min_count),
    ]
