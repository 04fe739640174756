"""The datatrove side of ``functok tokenize``: the corpus reader as a datatrove block, and a
``LocalPipelineExecutor`` that keeps datatrove's log lines in the log files.

This module imports datatrove; :mod:`.tokenize` imports it only when the command runs, so that
``functok --help`` works without ``functok[corpus]``.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

from datatrove.data import Document as DatatroveDocument
from datatrove.executor.local import LocalPipelineExecutor
from datatrove.pipeline.base import PipelineStep

from ..chunks import InputError
from .corpus import CorpusReader, total_bytes

__all__ = ["CorpusShardReader", "FileLoggingLocalExecutor", "corpus_pipeline", "ray_executor", "read_records",
           "shard_of"]

PROGRESS_EVERY = 0.5  # seconds between a task's progress notes


def corpus_pipeline(paths: list[str], tokenizer_file: str, out: str, *, eos: str | None = None,
                    segmentation: str = "greedy", special_text: str = "ordinary", field: str = "text",
                    skip_bad: bool = False, threads: int = 1) -> list:
    """The pipeline of ``functok tokenize``, for any datatrove executor: read the corpus
    ``paths`` (listed here, once, sorted, without ``out`` if it lies in a corpus folder),
    tokenize into ``out``, each batch of documents by ``Tokenizer.encode_batch`` on ``threads``
    threads. Give the executor ``logging_dir=out + "/logs"`` to have the notes of
    the readers beside its own."""
    from ..integrations.datatrove import FunctokDocumentTokenizer

    listing = CorpusReader(paths, field=field, skip_bad=skip_bad, exclude=[out])  # never its own shards
    files = [os.fsdecode(f) for f in listing.files()]
    return [
        CorpusShardReader(files, os.path.join(out, "logs", "functok"), field=field, skip_bad=skip_bad),
        FunctokDocumentTokenizer(out, tokenizer_file, eos_token=eos, segmentation=segmentation,
                                 special_text=special_text, num_threads=threads),
    ]


def shard_of(files: list[str], rank: int, world_size: int) -> tuple[list[str], tuple[int, int] | None]:
    """What task ``rank`` reads: every ``world_size``-th file from the ``rank``-th, or, when there
    are fewer files than tasks, every ``world_size``-th record of all the files (the ``share`` of
    :class:`~.corpus.CorpusReader`). It depends on the task count, never on the workers, so the
    shards are the same for any ``--workers``."""
    if len(files) >= world_size:
        return files[rank::world_size], None
    return files, (rank, world_size)


class CorpusShardReader(PipelineStep):
    """Read a task's shard of the corpus with functok's reader (:mod:`.corpus`), as datatrove
    documents (``id`` = ``file`` or ``file:line``). It notes its progress (bytes on disk read)
    in ``records/progress-<rank>.json`` as it goes, and what it read and skipped in
    ``records/read-<rank>.json`` when done."""

    name = "functok corpus reader"
    type = "📖 - READER"

    def __init__(self, files: list[str], records: str, *, field: str = "text", skip_bad: bool = False,
                 unit: str = "file", max_line: int | None = None) -> None:
        super().__init__()
        self.files, self.records, self.field, self.skip_bad = list(files), records, field, skip_bad
        self.unit = unit  # "chunks" (training's count): text files in chunks, and tasks share files only
        self.max_line = max_line  # a document with a longer line is skipped and counted (functok train's)

    def run(self, data: Any = None, rank: int = 0, world_size: int = 1) -> Any:
        """The task's documents; bad input (InputError) is noted in ``failed-<rank>.json`` before
        it ends the task, so that the command can name it whichever executor ran the task."""
        Path(self.records, f"failed-{rank:05d}.json").unlink(missing_ok=True)  # of an earlier try
        try:
            yield from self._documents(rank, world_size)
        except InputError as error:
            self._note(f"failed-{rank:05d}.json", {"error": str(error)})
            raise

    def _documents(self, rank: int, world_size: int) -> Any:
        if self.unit == "file":
            mine, share = shard_of(self.files, rank, world_size)
        else:  # a chunk is no record that tasks could share
            mine, share = self.files[rank::world_size], None
        reader = CorpusReader(mine, field=self.field, skip_bad=self.skip_bad, unit=self.unit, share=share,
                              max_line=self.max_line)
        part = 1 if share is None else world_size  # a task that shares every file reads 1/part of it
        documents = characters = 0
        last, last_name = time.monotonic(), None
        paths = [Path(f) for f in mine]
        for doc in reader.documents(paths):
            documents += doc.name != last_name  # the chunks of a text file are one document
            last_name = doc.name
            characters += len(doc.text)
            self.stat_update("documents")
            yield DatatroveDocument(text=doc.text, id=doc.name)
            if time.monotonic() - last > PROGRESS_EVERY:
                last = time.monotonic()
                self._note(f"progress-{rank:05d}.json", {"bytes": doc.end // part})
        self._note(f"read-{rank:05d}.json", {"files": len(mine), "files_read": reader.files_read,
                                             "documents": documents, "characters": characters,
                                             "skipped": reader.skipped})
        self._note(f"progress-{rank:05d}.json", {"bytes": total_bytes(paths) // part})

    def _note(self, name: str, data: dict) -> None:
        path = Path(self.records, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".part")
        temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, path)  # a reader never sees half a note


def read_records(records: Path, prefix: str) -> dict[int, dict]:
    """The notes ``prefix-<rank>.json`` in ``records``, by rank."""
    out = {}
    for path in sorted(records.glob(f"{prefix}-*.json")):
        try:
            out[int(path.stem.split("-")[-1])] = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError):  # a note being replaced this instant
            continue
    return out


def ray_executor(pipeline: list, *, tasks: int, workers: int, logging_dir: str, address: str | None) -> Any:
    """datatrove's ``RayPipelineExecutor`` for ``pipeline``, on the Ray cluster at ``address``
    (``ray.init(address=...)``: ``auto``, ``ray://host:10001``...), or, without one (and without
    ``RAY_ADDRESS``), on a local cluster of ``workers`` CPUs that this process starts. Returns the
    executor and whether this call started Ray (then ``ray.shutdown()`` after the run).
    The tasks' log lines stay in ``logging_dir``, not on the terminal."""
    import ray
    from datatrove.executor.ray import RayPipelineExecutor

    started = not ray.is_initialized()
    if started:
        target = address or os.environ.get("RAY_ADDRESS")
        if target:
            _check_reachable(target)
        local = target is None
        ray.init(address=address, num_cpus=workers if local else None, log_to_driver=False,
                 include_dashboard=False, logging_level="warning")
    # One CPU and RAY_TASK_MEMORY_GB (1 GB) reserved per task: what Ray schedules by, not a limit.
    executor = RayPipelineExecutor(pipeline, tasks=tasks, workers=workers, logging_dir=logging_dir,
                                   cpus_per_task=1, mem_per_cpu_gb=RAY_TASK_MEMORY_GB)
    return executor, started


RAY_TASK_MEMORY_GB = 1
RAY_CONNECT_SECONDS = 10


def _check_reachable(address: str) -> None:
    """ConnectionError when nothing answers at a ``host:port`` (or ``ray://host:port``) address
    within RAY_CONNECT_SECONDS: ray.init would wait for it without end. Other forms (``auto``)
    are Ray's own lookup, which fails at once."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=RAY_CONNECT_SECONDS).close()
    except OSError as error:
        raise ConnectionError(f"nothing answers at {host}:{port} ({error.strerror or error})") from None


class FileLoggingLocalExecutor(LocalPipelineExecutor):
    """``LocalPipelineExecutor`` whose tasks write their log lines to ``logging_dir/logs`` only,
    not to the terminal, where ``functok tokenize`` draws its progress bar instead."""

    def _run_for_rank(self, rank: int, local_rank: int = 0, node_rank: int = -1) -> Any:
        import datatrove.executor.base as base
        from loguru import logger

        original = base.add_task_logger
        sinks = []

        def file_only(*args: Any, **kwargs: Any) -> Any:
            sinks.append(open(os.devnull, "w"))
            terminal, sys.stderr = sys.stderr, sinks[-1]  # the terminal sink datatrove adds
            try:
                return original(*args, **kwargs)
            finally:
                sys.stderr = terminal

        base.add_task_logger = file_only
        logger.enable("datatrove")
        try:
            return super()._run_for_rank(rank, local_rank, node_rank)
        finally:
            base.add_task_logger = original
            logger.disable("datatrove")  # its default sink is back on the terminal now
            for sink in sinks:
                sink.close()
