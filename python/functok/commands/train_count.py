"""``functok train``'s counting step on several cores: the corpus's texts counted in shards, one
process each, and the shards' counts merged.

**Shards.** The reader runs in the calling process (so bad input, ``--skip-bad`` and progress
behave as with one process) and deals the texts out in turn: text *k* goes to worker *k* mod N.
A text is a ``.jsonl`` record or a chunk of a text file cut where the codec's pieces end, so
every pre-token and every chain (spec 9.4) lies within one text, and the shards together count
exactly what one process counts.

**Merge.** Each worker counts its shard in the C core
(:func:`functok.tokenizer.pretoken_counts.count_texts_packed`), drops what it saw fewer than ``min_count``
times, and sends its counts back in flat form; the C core adds them up in rank order
(:func:`~functok.tokenizer.pretoken_counts.add_up_counts`), with no Python object per pre-token or chain on
either side (without the C core, as dicts: :meth:`PretokenCounts.update`). Sums do not depend on
the order, and training does not depend on the order of the keys (Hugging Face's trainer holds
its words in a hash map; the alphabet and the fusion merges break ties by the text), so the
trained file is the same, byte for byte, for every N (``tests/commands/test_train.py``). With
``min_count`` above 1 it is not: pruning is per shard, before the merge, which is what keeps
each worker's memory to its own shard's frequent pre-tokens.

**Memory.** The C core hands the counts back in flat form
(:class:`~functok.tokenizer.pretoken_counts.PackedPretokenCounts`: the pre-tokens' UTF-8 and arrays of
counts and ids, no Python object per pre-token or chain), so counting holds about the C table's
size, pruned or not, with any number of workers. A worker holds its shard's distinct pre-tokens
and chains; the caller, the merged counts (the corpus's distinct pre-tokens, whatever its size:
docs/corpus.md measures it) and one shard's at a time while adding it. At most :data:`QUEUE_TEXTS`
texts wait for each worker.
"""

from __future__ import annotations

import inspect
import multiprocessing
import queue
from collections.abc import Iterable

from ..tokenizer.pretoken_counts import (CountOptions, PackedPretokenCounts, PretokenCounts, add_up_counts,
                                          count_texts_packed)

__all__ = ["QUEUE_TEXTS", "count_corpus", "count_options"]

QUEUE_TEXTS = 4  # texts (about 1 MB each) waiting for a worker: enough to keep it busy, no more
_POLL_SECONDS = 1.0  # how often a wait checks that the workers are alive


def count_corpus(texts: Iterable[str], options: CountOptions, *, workers: int = 1,
                 min_count: int = 1) -> PretokenCounts | PackedPretokenCounts:
    """The pre-token counts of ``texts`` under ``options``, counted by ``workers`` processes
    (1: in this one), each dropping what its shard saw fewer than ``min_count`` times; in flat
    form (``PackedPretokenCounts``) where the C core counts."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if workers == 1:
        return count_texts_packed(texts, options, min_count=min_count)
    return _count_in_processes(texts, options, workers, min_count)


def _count_in_processes(texts: Iterable[str], options: CountOptions, workers: int,
                        min_count: int) -> PretokenCounts | PackedPretokenCounts:
    context = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
    results = context.Queue()
    inboxes = [context.Queue(QUEUE_TEXTS) for _ in range(workers)]
    processes = [context.Process(target=_worker, args=(rank, inbox, results, options, min_count), daemon=True)
                 for rank, inbox in enumerate(inboxes)]
    for p in processes:
        p.start()
    try:
        for k, text in enumerate(texts):
            _put(inboxes[k % workers], text, processes[k % workers])
        for inbox, p in zip(inboxes, processes):
            _put(inbox, None, p)
        merged = _merge_in_rank_order(_get(results, processes) for _ in processes)
        for p in processes:
            p.join()
    finally:
        for p in processes:  # on an error (bad input in the reader, a worker's failure): stop the rest
            if p.is_alive():
                p.terminate()
                p.join()
    return merged


def _merge_in_rank_order(arriving: Iterable[tuple[int, PretokenCounts | PackedPretokenCounts]]
                         ) -> PretokenCounts | PackedPretokenCounts:
    """The shards' counts added up in rank order as they arrive (:func:`_in_rank_order`)."""
    return add_up_counts(_in_rank_order(arriving))


def _in_rank_order(arriving: Iterable[tuple[int, PretokenCounts | PackedPretokenCounts]]
                   ) -> Iterable[PretokenCounts | PackedPretokenCounts]:
    """The shards in rank order, each as soon as those before it are there (a shard that comes
    early waits for them)."""
    waiting: dict = {}
    next_rank = 0
    for rank, counts in arriving:
        waiting[rank] = counts
        while next_rank in waiting:
            yield waiting.pop(next_rank)
            next_rank += 1
    assert not waiting


def _worker(rank: int, inbox, results, options: CountOptions, min_count: int) -> None:
    try:
        counts = count_texts_packed(iter(inbox.get, None), options, min_count=min_count)
    except BaseException as error:  # sent back, raised in the caller
        results.put((rank, error))
        return
    results.put((rank, counts))


def _put(inbox, item, process) -> None:
    while True:
        try:
            inbox.put(item, timeout=_POLL_SECONDS)
            return
        except queue.Full:
            if not process.is_alive():
                raise RuntimeError(f"a counting worker stopped (exit code {process.exitcode})") from None


def _get(results, processes) -> tuple[int, PretokenCounts | PackedPretokenCounts]:
    while True:
        try:
            rank, counts = results.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            dead = [p for p in processes if not p.is_alive() and p.exitcode]
            if dead:
                raise RuntimeError(f"a counting worker stopped (exit code {dead[0].exitcode})") from None
            continue
        if isinstance(counts, BaseException):
            raise counts
        return rank, counts


def count_options(options: dict) -> CountOptions:
    """The options that make the pre-tokens, as ``Tokenizer.train`` resolves them (its defaults
    for those left out)."""
    from ..tokenizer import Tokenizer
    from ..tokenizer.train import DEFAULT_FUSE

    defaults = inspect.signature(Tokenizer.train).parameters
    chosen = {name: options.get(name, defaults[name].default) for name in ("normalize", "splitter", "profile", "fuse")}
    return CountOptions(**{**chosen, "fuse": chosen["fuse"] or DEFAULT_FUSE})
