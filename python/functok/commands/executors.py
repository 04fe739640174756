"""Where the corpus commands run their datatrove pipelines, shared by ``functok tokenize`` and
``functok train --executor ray``: the executor (processes on this machine, or a Ray cluster),
the folder a run claims (and resumes), and the tasks' failures as the command's error.

Nothing here imports datatrove or Ray at import time: the commands import this module when they
are set up, and the engines only when a pipeline runs (:mod:`.tokenize_pipeline`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

from ..chunks import InputError
from .corpus import shown
from .corpus_cli import ByteProgress

__all__ = ["PipelineError", "claim_folder", "default_tasks", "raise_failed", "run_identity", "run_pipeline",
           "run_watched"]

MIN_DEFAULT_TASKS, MAX_DEFAULT_TASKS = 16, 64

# Workers start by fork on Linux: a second, where datatrove's forkserver takes four on a small
# run (each worker imports datatrove anew); elsewhere fork is unsafe (macOS) or missing (Windows).
START_METHOD = "fork" if sys.platform == "linux" else "spawn"


class PipelineError(Exception):
    """A run that cannot start or go on; the command prints it and exits with status 2."""


def default_tasks(files: int) -> int:
    """One task per file, at least 16 and at most 64: enough tasks for the workers to share out
    evenly (with fewer files than tasks, the tasks share the files' records), and a number that
    does not depend on --workers, so neither do the shards."""
    return max(MIN_DEFAULT_TASKS, min(files, MAX_DEFAULT_TASKS))


def run_pipeline(pipeline: list, executor: str, *, tasks: int, workers: int, logging_dir: str,
                 ray_address: str | None) -> None:
    """Run the pipeline's unfinished tasks on the executor named: ``local`` (``workers``
    processes here) or ``ray`` (the cluster at ``ray_address``, else ``RAY_ADDRESS``, else a
    local one); PipelineError when Ray is missing or no cluster answers."""
    from .tokenize_pipeline import FileLoggingLocalExecutor, ray_executor

    if executor == "local":
        FileLoggingLocalExecutor(pipeline, tasks=tasks, workers=workers, start_method=START_METHOD,
                                 logging_dir=logging_dir).run()
        return
    try:
        import ray
    except ImportError:
        raise PipelineError("--executor ray needs Ray: pip install ray") from None
    try:
        ray_run, started = ray_executor(pipeline, tasks=tasks, workers=workers, logging_dir=logging_dir,
                                        address=ray_address)
    except ConnectionError as error:
        where = f"--ray-address {ray_address}" if ray_address else f"RAY_ADDRESS={os.environ.get('RAY_ADDRESS')}"
        raise PipelineError(f"{where}: {error}") from None
    try:
        ray_run.run()
    finally:
        if started:
            ray.shutdown()


def run_watched(pipeline: list, executor: str, *, tasks: int, workers: int, logging_dir: str,
                ray_address: str | None, bar: ByteProgress | None) -> None:
    """:func:`run_pipeline` with datatrove's log lines kept off the terminal (they go to
    ``logging_dir``), and ``bar`` (None: no bar) moved by the tasks' progress notes as they run,
    then closed."""
    from loguru import logger

    watching = _watch(Path(logging_dir) / "functok", bar) if bar else None
    logger.disable("datatrove")  # the tasks' log lines go to logging_dir; the terminal has the bar
    try:
        run_pipeline(pipeline, executor, tasks=tasks, workers=workers, logging_dir=logging_dir,
                     ray_address=ray_address)
    finally:
        logger.enable("datatrove")
        if watching:
            watching.set()
        if bar:
            bar.close()


def _watch(records: Path, bar: ByteProgress) -> threading.Event:
    """Move ``bar`` from the tasks' progress notes until the returned event is set."""
    from .tokenize_pipeline import read_records

    stop = threading.Event()

    def poll() -> None:
        while not stop.wait(0.5):
            bar.to(sum(note.get("bytes", 0) for note in read_records(records, "progress").values()))

    threading.Thread(target=poll, daemon=True).start()
    return stop


def raise_failed(records: Path, tasks: int) -> None:
    """The bad input a task stopped at (noted by the reader: Ray retries a failed task and goes
    on), or a task that did not finish, as the command's error."""
    from .tokenize_pipeline import read_records

    failed = read_records(records, "failed")
    if failed:
        raise InputError(failed[min(failed)]["error"])
    done = {int(p.stem) for p in records.parent.glob("completions/*") if p.stem.isdigit()}
    missing = sorted(set(range(tasks)) - done)
    if missing:
        raise PipelineError(f"{len(missing)} of {tasks} tasks did not finish (task {missing[0]}: see its log "
                            f"in {shown(records.parent)}/logs); run the command again to resume")


def run_identity(files: list[Path], **what: object) -> dict:
    """What a run reads (``files``, with their sizes and times) and how (``what``): a rerun into
    the same folder resumes only if this is equal."""
    listed = []
    for f in files:
        try:
            st = f.stat()
            listed.append([shown(f), st.st_size, st.st_mtime_ns])
        except OSError:
            listed.append([shown(f), None, None])
    return {**what, "files": listed}


def claim_folder(folder: Path, identity: dict, *, option: str, command: str, differs: str) -> None:
    """Make ``folder`` (the command's ``option``) this run's, or resume it; refuse a folder that
    holds something else: another run (one that ``differs`` in what it reads), or anything that
    is no ``command`` run."""
    run_file = folder / "run.json"
    if folder.exists() and not folder.is_dir():
        raise PipelineError(f"{option} {shown(folder)}: a file of that name exists; {option} names a folder")
    if run_file.is_file():
        try:
            earlier = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = None
        if earlier != identity:
            raise PipelineError(f"{option} {shown(folder)} holds another run ({differs}); "
                                f"remove it or choose another folder")
        return
    if folder.is_dir() and any(folder.iterdir()):
        raise PipelineError(f"{option} {shown(folder)}: the folder is not empty and holds no {command} run")
    folder.mkdir(parents=True, exist_ok=True)
    run_file.write_text(json.dumps(identity, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
