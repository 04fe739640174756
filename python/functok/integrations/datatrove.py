"""functok in `datatrove <https://github.com/huggingface/datatrove>`_ pipelines (``pip install
'functok[corpus]'``): the engine of ``functok tokenize``, and blocks for your own pipelines.

* :class:`FunctokDocumentTokenizer`, a datatrove ``DocumentTokenizer`` whose ids are
  :meth:`functok.Tokenizer.encode`'s (plus the end-of-document id with ``eos_token``). It writes
  datatrove's own tokenized format (``<shard>.ds`` tokens, uint16 or uint32 when the vocabulary
  has more than 65,536 ids; ``.ds.index`` document ends; ``.ds.metadata``), which datatrove's
  readers and nanotron read unchanged, and beside each shard ``.ds.documents.jsonl`` (each
  document's id and token count, in order) and ``.ds.functok.json`` (counts and skipped
  documents with reasons). Unlike ``DocumentTokenizer`` it does not shuffle by default
  (``shuffle_documents=False``), so a shard depends only on its task's documents; pass
  ``shuffle_documents=True, seed=N`` for datatrove's seeded shuffle.
* :class:`FunctokEncoder`, a formatter that only turns each document's text into the
  Functionalizer stream (:func:`functok.encode`), for users who keep their own trainer and
  tokenizer.
* :class:`PretokenCounter`, training's counting step: each task writes its shard's pre-token
  counts to a file, :func:`merge_counts` adds them up in rank order, and ``Tokenizer.train``
  trains on the sum (the same tokenizer as ``functok train`` on the same texts). Both count and
  add up in the C core's flat form where it is built (no Python dict of pre-tokens).

A pipeline runs on any datatrove executor: ``LocalPipelineExecutor`` (what ``functok tokenize
--workers N`` uses), ``SlurmPipelineExecutor``, ``RayPipelineExecutor``; docs/corpus.md shows
all three. In datatrove ``tasks`` fixes the sharding and ``workers`` only the concurrency.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import Any

try:
    from datatrove.pipeline.base import PipelineStep
    from datatrove.pipeline.formatters.base import BaseFormatter
    from datatrove.pipeline.tokens.tokenizer import DocumentTokenizer, TokenizedFile
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"functok.integrations.datatrove needs datatrove and what its blocks import ({exc}): "
                      f"pip install 'functok[corpus]'") from exc

from ..engine import encode  # the engine's: the C core where it is built
from ..errors import FormatError
from ..tokenizer import Tokenizer
from ..tokenizer.fusion import ChainTable
from ..tokenizer.pretoken_counts import (CountOptions, PackedCounts, PackedPretokenCounts, PretokenCounts, add_up_counts,
                               count_texts_packed, counts_in_core)

__all__ = ["FunctokEncoder", "FunctokDocumentTokenizer", "PretokenCounter", "SPECIAL_TEXT", "merge_counts"]

SPECIAL_TEXT = ("ordinary", "skip")
UINT16_IDS = 1 << 16


class FunctokDocumentTokenizer(DocumentTokenizer):
    """Tokenize documents with a functok tokenizer file into datatrove token shards.

    ``tokenizer_file``: the functok tokenizer file (``functok train --out``). ``eos_token``: a
    token appended to every document (its text, as in datatrove). ``segmentation``: ``greedy``
    or ``optimal`` (spec 10). ``special_text``: what to do with a document holding a special
    token's text: ``ordinary`` encodes it as ordinary text (``disallowed_special=()``),
    ``skip`` skips the document. A document the tokenizer refuses (a lone surrogate, which
    datatrove's JSON readers let through) is skipped and recorded. Other keyword arguments are
    ``DocumentTokenizer``'s (``save_filename``, ``local_working_dir``, ``max_tokens_per_file``,
    ``shuffle_documents``, ``seed``...), except loss masks, which are not supported.
    Documents are encoded ``batch_size`` at a time by :meth:`functok.Tokenizer.encode_batch` on
    ``num_threads`` threads (1 by default: executors run tasks in processes already).
    """

    name = "functok tokenizer"

    def __init__(self, output_folder: Any, tokenizer_file: str, *, eos_token: str | None = None,
                 segmentation: str = "greedy", special_text: str = "ordinary", batch_size: int = 64,
                 num_threads: int = 1, shuffle_documents: bool = False, **options: Any) -> None:
        if special_text not in SPECIAL_TEXT:
            raise ValueError(f"unknown special_text {special_text!r}; expected one of {SPECIAL_TEXT}")
        if options.get("save_loss_metadata"):
            raise ValueError("FunctokDocumentTokenizer does not write loss masks")
        super().__init__(output_folder, str(tokenizer_file), eos_token=eos_token, batch_size=batch_size,
                         shuffle_documents=shuffle_documents, **options)
        if num_threads < 1:
            raise ValueError(f"num_threads must be at least 1, got {num_threads}")
        self.segmentation = segmentation
        self.special_text = special_text
        self.num_threads = num_threads

    @cached_property
    def tokenizer(self) -> Tokenizer:  # type: ignore[override]  (datatrove's is a tokenizers.Tokenizer)
        tokenizer = Tokenizer.from_file(self.tokenizer_name_or_path)
        if self.eos_token is not None and tokenizer.token_to_id(self.eos_token) is None:
            raise ValueError(f"end-of-document token {self.eos_token!r} is not a token of "
                             f"{self.tokenizer_name_or_path}")
        return tokenizer

    @cached_property
    def token_size(self) -> int:  # type: ignore[override]
        return 4 if self.tokenizer.vocab_size > UINT16_IDS else 2

    def ids(self, text: str) -> list[int]:
        """A document's ids: ``Tokenizer.encode(text).ids``, then the end-of-document id."""
        return self._with_eos(self.tokenizer.encode(text, **self._options()).ids)

    def ids_batch(self, texts: list[str]) -> list[list[int] | FormatError | ValueError]:
        """Each document's ids (as :meth:`ids`), or the error that refuses it: one call of
        ``Tokenizer.encode_batch``, and one by one only when a document in the batch is refused."""
        try:
            encodings = self.tokenizer.encode_batch(texts, num_threads=self.num_threads, **self._options())
        except (FormatError, ValueError):
            return [self._ids_or_error(text) for text in texts]
        return [self._with_eos(e.ids) for e in encodings]

    def _ids_or_error(self, text: str) -> list[int] | FormatError | ValueError:
        try:
            return self.ids(text)
        except (FormatError, ValueError) as error:
            return error

    def _options(self) -> dict:
        disallowed: Any = () if self.special_text == "ordinary" else "all"
        return {"segmentation": self.segmentation, "disallowed_special": disallowed}

    def _with_eos(self, ids: list[int]) -> list[int]:
        if self.eos_token is not None:
            ids.append(self.tokenizer.token_to_id(self.eos_token))
        return ids

    def write_unshuffled(self, data: Any, filename: str) -> TokenizedFile:
        """Tokenize the documents one by one into ``filename`` (datatrove's own method, with
        functok's ids, the documents index, and skips instead of a failed task)."""
        in_place = (not self.shuffle_documents and not self.shuffle_chunk_size) or not self.local_working_dir
        folder = self.output_folder if in_place else self.local_working_dir
        shard = TokenizedFile(folder, filename, save_index=True, save_loss_metadata=False,
                              upload_block_size=self.upload_block_size,
                              tokenizer_name_or_path=self.tokenizer_name_or_path,
                              save_final_metadata=self.save_final_metadata, token_size=self.token_size)
        record = {"documents": 0, "tokens": 0, "characters": 0, "text_bytes": 0, "skipped": []}
        with folder.open(f"{filename}.documents.jsonl", "wt", encoding="utf-8") as names:
            for batch in _batches(data, self.batch_size):
                with self.track_time(unit="batch"):
                    results = self.ids_batch([document.text for document in batch])
                for document, ids in zip(batch, results):
                    if isinstance(ids, Exception):
                        record["skipped"].append(_skip(document, ids))
                        self.stat_update("skipped")
                        continue
                    self._write(shard, names, record, document, ids)
        shard.close()
        with folder.open(f"{filename}.functok.json", "wt", encoding="utf-8") as f:
            json.dump(dict(record, token_bytes=self.token_size), f, ensure_ascii=False, indent=1)
        return shard

    def _write(self, shard: TokenizedFile, names: Any, record: dict, document: Any, ids: list[int]) -> None:
        """One document's ids into the shard, its line into ``.documents.jsonl``, its counts."""
        shard.write(ids, None)
        names.write(json.dumps({"id": document.id, "tokens": len(ids)}, ensure_ascii=False) + "\n")
        record["documents"] += 1
        record["tokens"] += len(ids)
        record["characters"] += len(document.text)
        record["text_bytes"] += len(document.text.encode("utf-8"))
        self.stat_update("tokens", value=len(ids))
        self.stat_update("documents")


def _batches(documents: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(documents)
    while batch := list(islice(iterator, size)):
        yield batch


def _skip(document: Any, error: Exception) -> dict:
    if isinstance(error, FormatError):
        reason = f"not text: {error.kind}"
    elif "special token" in str(error):
        reason = "holds a special token's text"
    else:
        reason = "refused by the tokenizer"
    return {"what": document.id, "reason": reason, "characters": len(document.text), "detail": str(error)}


class FunctokEncoder(BaseFormatter):
    """A formatter: each document's text becomes its Functionalizer stream (:func:`functok.encode`
    with these options), for a trainer or tokenizer of your own downstream."""

    name = "functok stream"

    def __init__(self, **options: Any) -> None:
        """``options`` are :func:`functok.encode`'s (``normalize``, ``splitter``, ``profile``...);
        those left out keep its defaults."""
        super().__init__()
        self.options = options

    def format(self, text: str) -> str:
        return encode(text, **self.options)


# --- Counting for training -----------------------------------------------------------------

COUNTS_FORMAT = 1  # the version of the count files' layout


class PretokenCounter(PipelineStep):
    """Training's counting step as a datatrove block: each task counts the pre-tokens (and under
    ``fuse="frequent"`` the chains) of the documents it is given, drops those its shard saw fewer
    than ``min_count`` times, and writes them to ``<output_folder>/counts-<rank>.jsonl``;
    :func:`merge_counts` adds the files up in rank order, and ``Tokenizer.train`` takes the sum in
    place of a corpus. It follows any reader: functok's (``functok.commands.count_pipeline``),
    datatrove's ``JsonlReader`` or ``ParquetReader``.

    A count file is JSON Lines: a header ``{"functok_counts": 1, "rank", "world_size",
    "options", "min_count"}``, then ``["w", pre-token, count]`` per pre-token and ``["c",
    [segment, ...], count]`` per chain, in the order first seen. It is written whole or not at
    all (a temporary file renamed), so a rerun of a failed task replaces it."""

    name = "functok pre-token counter"
    type = "🔢 - COUNTER"

    def __init__(self, output_folder: str, options: CountOptions, *, min_count: int = 1) -> None:
        super().__init__()
        self.output_folder, self.options, self.min_count = str(output_folder), options, min_count

    def run(self, data: Any = None, rank: int = 0, world_size: int = 1) -> Any:
        texts = (document.text for document in (data or ()))
        counts = count_texts_packed(texts, self.options, min_count=self.min_count)  # flat where the core counts
        self.stat_update("pretokens", value=len(counts.words))
        path = Path(self.output_folder, f"counts-{rank:05d}.jsonl")
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".part")
        header = {"functok_counts": COUNTS_FORMAT, "rank": rank, "world_size": world_size,
                  "options": asdict(self.options), "min_count": self.min_count}
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
            f.writelines(json.dumps(["w", word, n], ensure_ascii=False) + "\n" for word, n in counts.words.items())
            f.writelines(json.dumps(["c", list(chain), n], ensure_ascii=False) + "\n"  # a table or a Counter
                         for chain, n in (counts.chains.items() if counts.chains is not None else ()))
        os.replace(temporary, path)
        return iter(())


MERGE_LINES = 1 << 16  # lines of a count file added up at a time (where the C core adds them)


def merge_counts(folder: str | os.PathLike) -> PretokenCounts | PackedPretokenCounts:
    """The sum of the count files a :class:`PretokenCounter` pipeline wrote in ``folder``,
    added in rank order; ValueError, naming the file, when a task's file is missing, the files
    disagree or one is not well formed. Where the C core is built, each file is read
    :data:`MERGE_LINES` lines at a time and added up in flat form (no Python object per
    pre-token is kept: the sum is :class:`~functok.tokenizer.pretoken_counts.PackedPretokenCounts`)."""
    paths = sorted(Path(folder).glob("counts-*.jsonl"))
    if not paths:
        raise ValueError(f"{folder}: no count files (counts-<rank>.jsonl)")
    reading = [paths[0]]  # the file being read, to name it in an error the merge raises

    def shards():
        for expected_rank, path in enumerate(paths):
            reading[0] = path
            with open(path, encoding="utf-8") as f:
                header = _read_header(path, f)
                if header["rank"] != expected_rank or header["world_size"] != len(paths):
                    raise ValueError(f"{path}: task {header['rank']} of {header['world_size']}, but {len(paths)} "
                                     f"count files are there: a task's file is missing or left from another run")
                yield from _read_shards(path, f, CountOptions(**header["options"]))

    try:
        return add_up_counts(shards())
    except (ValueError, OverflowError, TypeError) as error:
        if str(error).startswith(str(reading[0])):
            raise
        raise ValueError(f"{reading[0]}: {error}") from error


def _read_header(path: Path, f) -> dict:
    try:
        header = json.loads(f.readline())
        if header.get("functok_counts") != COUNTS_FORMAT:
            raise ValueError
        CountOptions(**header["options"])
        return header
    except (ValueError, TypeError, KeyError, AttributeError):
        raise ValueError(f"{path}: not a functok count file of format {COUNTS_FORMAT}") from None


def _read_shards(path: Path, f, options: CountOptions) -> Iterator[PretokenCounts | PackedPretokenCounts]:
    """A count file's lines as shards to add up: :data:`MERGE_LINES` at a time in flat form where
    the C core is built (else the whole file as dicts)."""
    frequent, in_core = options.fuse == "frequent", counts_in_core()
    words: Counter[str] = Counter()
    chains: Counter[tuple[str, ...]] | None = Counter() if frequent else None
    for number, line in enumerate(f, 2):
        kind, key, n = _count_line(path, number, line)
        if kind == "w":
            words[key] += n
        elif chains is not None:
            chains[tuple(key)] += n
        if in_core and len(words) + len(chains or ()) >= MERGE_LINES:
            yield _flat(words, chains, options)
            words, chains = Counter(), Counter() if frequent else None
    yield _flat(words, chains, options) if in_core else PretokenCounts(words, chains, options)


def _count_line(path: Path, number: int, line: str) -> tuple[str, Any, int]:
    try:
        kind, key, n = json.loads(line)
        if kind not in ("w", "c") or type(n) is not int or not 0 < n < 1 << 64:
            raise ValueError
        if kind == "w" and not isinstance(key, str) or kind == "c" and not (
                isinstance(key, list) and all(isinstance(segment, str) for segment in key)):
            raise ValueError
    except (ValueError, TypeError):
        raise ValueError(f"{path}: line {number} is not [\"w\", pre-token, count] or [\"c\", [segment, ...], "
                         f"count] with a count from 1 to 2**64 - 1") from None
    return kind, key, n


def _flat(words: Counter[str], chains: Counter[tuple[str, ...]] | None, options: CountOptions) -> PackedPretokenCounts:
    """A batch of a count file's lines in the flat form the C core adds up."""
    return PackedPretokenCounts(PackedCounts(words), None if chains is None else ChainTable(chains), options)
