"""``functok tokenize``: a corpus into token shards that training frameworks read, on all cores.

The engine is datatrove (``pip install 'functok[corpus]'``): the corpus reader of
:mod:`.corpus` as a datatrove block (:mod:`.tokenize_pipeline`), then
:class:`functok.integrations.datatrove.FunctokDocumentTokenizer`, run by ``LocalPipelineExecutor`` with
``--workers`` processes. The output folder holds datatrove's own tokenized format, one shard per
task: ``NNNNN_unshuffled.ds`` (each document's ids, uint16 little-endian, uint32 when the
vocabulary has more than 65,536 ids), ``.ds.index`` (document ends, uint64), ``.ds.metadata``,
and functok's ``.ds.documents.jsonl`` (document ids and token counts) and ``.ds.functok.json``;
``manifest.json`` (the tokenizer's SHA-256, functok and spec versions, counts, skipped documents
with reasons); ``run.json`` (what the run reads, to resume it); ``logs/`` (datatrove's logs and
completion markers, and functok's notes).

**Deterministic.** Each document's ids are ``Tokenizer.encode(text).ids`` (plus the ``--eos``
id). ``--tasks`` fixes the sharding (task ``r`` reads files ``r``, ``r + tasks``, ...; with fewer
files than tasks, records ``r``, ``r + tasks``, ... of all the files) and
``--workers`` only how many tasks run at once, and nothing is shuffled, so the shards are the
same, byte for byte, for any ``--workers``. **Resumable.** A task that finished has a completion
marker; a killed run, run again with the same command, redoes only the unfinished tasks, and its
output equals an uninterrupted run's. A folder holding a different run is refused. The output
folder is never input: a corpus folder holding it is read without it (so ``--out`` may lie in
the corpus folder, and the rerun lists the same files), and a ``--corpus`` path inside it is
refused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

from ..chunks import InputError
from . import command_functions
from .corpus import CorpusReader, shown, total_bytes
from .corpus_cli import ByteProgress, add_corpus_options, skipped_summary
from .executors import (MAX_DEFAULT_TASKS, MIN_DEFAULT_TASKS, PipelineError, claim_folder, default_tasks, raise_failed,
                        run_identity, run_watched)

__all__ = ["add_command", "tokenize_corpus"]

EXIT_BAD_INPUT = 2
MAX_LISTED_SKIPS = 10_000  # manifest.json lists this many skips; the counts cover them all


def sha256_of(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def tokenize_corpus(paths: list[str], tokenizer_file: Path, out: Path, *, workers: int, tasks: int | None = None,
                    threads: int = 1, segmentation: str = "greedy", eos: str | None = None,
                    special_text: str = "ordinary", field: str = "text", skip_bad: bool = False,
                    progress: bool = False, executor: str = "local", ray_address: str | None = None) -> dict:
    """Tokenize the corpus ``paths`` into ``out`` (see the module); returns the manifest.
    ``executor``: ``local`` (processes on this machine) or ``ray`` (the cluster at ``ray_address``,
    else a local one); the shards are the same."""
    from .. import SPEC_VERSION, __version__
    from ..tokenizer import Tokenizer
    from .tokenize_pipeline import corpus_pipeline, read_records

    try:
        tokenizer = Tokenizer.from_file(tokenizer_file)
    except (OSError, ValueError) as error:
        raise PipelineError(f"--tokenizer {shown(tokenizer_file)}: {error}") from None
    eos_id = None
    if eos is not None and (eos_id := tokenizer.token_to_id(eos)) is None:
        raise PipelineError(f"--eos {eos!r} is not a token of {shown(tokenizer_file)}")
    listing = CorpusReader(paths, field=field, skip_bad=skip_bad, exclude=[out])  # never its own shards
    files = listing.files()  # InputError: a missing path, a folder that cannot be listed, a path in out
    tasks = tasks or default_tasks(len(files))
    options = {"segmentation": segmentation, "eos": eos, "eos_id": eos_id, "special_text": special_text,
               "field": field, "skip_bad": skip_bad, "tasks": tasks}
    tokenizer_sha = sha256_of(tokenizer_file)
    claim_folder(out, run_identity(files, tokenizer_sha256=tokenizer_sha, options=options), option="--out",
                 command="functok tokenize", differs="a different corpus, tokenizer or options")
    records = out / "logs" / "functok"
    pipeline = corpus_pipeline([os.fsdecode(f) for f in files], str(tokenizer_file), str(out), eos=eos,
                               segmentation=segmentation, special_text=special_text, field=field,
                               skip_bad=skip_bad, threads=threads)
    started = time.monotonic()
    bar = ByteProgress(total_bytes(files), "tokenizing", progress) if progress else None
    run_watched(pipeline, executor, tasks=tasks, workers=min(workers, tasks), logging_dir=str(out / "logs"),
                ray_address=ray_address, bar=bar)
    raise_failed(records, tasks)
    seconds = time.monotonic() - started
    manifest = _manifest(out, files, listing.skipped, read_records(records, "read"), tasks)
    manifest.update({
        "generator": "functok tokenize",
        "functok_version": __version__,
        "spec_version": SPEC_VERSION,
        "tokenizer": {"file": shown(tokenizer_file.name), "sha256": tokenizer_sha, "vocab_size": tokenizer.vocab_size,
                      "spec_version": tokenizer.header["spec_version"], "profile": tokenizer.header["profile"],
                      "fuse": tokenizer.header.get("fuse")},
        "options": options,
    })
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    manifest["seconds"] = seconds  # for the summary line; not in the file, which stays deterministic
    return manifest


def _manifest(out: Path, files: list[Path], listing_skips: list[dict], reads: dict[int, dict], tasks: int) -> dict:
    shards, skipped, records = [], list(listing_skips), []
    totals: Counter = Counter()
    for rank in range(tasks):
        read = reads.get(rank, {})
        skipped += read.get("skipped", [])
        totals["files_read"] += read.get("files_read", 0)
        name = f"{rank:05d}_unshuffled.ds"
        record_file = out / f"{name}.functok.json"
        record = {}
        if record_file.is_file():
            record = json.loads(record_file.read_text(encoding="utf-8"))
            records.append(record)
        skipped += record.get("skipped", [])
        for key in ("documents", "tokens", "characters", "text_bytes"):
            totals[key] += record.get(key, 0)
        shards.append({"file": name, "documents": record.get("documents", 0), "tokens": record.get("tokens", 0)})
    return {
        "format": "datatrove tokenized files: <shard>.ds token ids (little-endian), <shard>.ds.index "
                  "document ends (uint64, in tokens)",
        "token_bytes": records[0].get("token_bytes") if records else None,  # the first shard's record says
        "tasks": tasks,
        "counts": {"files": len(files), "files_read": totals["files_read"], "documents": totals["documents"],
                   "tokens": totals["tokens"], "characters": totals["characters"], "text_bytes": totals["text_bytes"],
                   "bytes_on_disk": total_bytes(files), "skipped": len(skipped)},
        "skipped_by_reason": dict(Counter(s["reason"] for s in skipped)),
        "skipped": skipped[:MAX_LISTED_SKIPS],
        "shards": shards,
    }


def run(args: argparse.Namespace) -> int:
    try:  # fail early, before reading anything; the blocks' own imports too
        from ..integrations import datatrove  # noqa: F401
    except ImportError as exc:
        return _fail(str(exc) if "functok[corpus]" in str(exc) else "needs datatrove: pip install 'functok[corpus]'")
    if args.workers < 1 or args.threads < 1 or (args.tasks is not None and args.tasks < 1):
        return _fail("--workers, --threads and --tasks must be at least 1")
    progress = not args.no_progress and sys.stderr.isatty()
    try:
        manifest = tokenize_corpus(args.corpus, Path(args.tokenizer), Path(args.out), workers=args.workers,
                                   tasks=args.tasks, threads=args.threads, segmentation=args.segmentation,
                                   eos=args.eos,
                                   special_text=args.special_text, field=args.field, skip_bad=args.skip_bad,
                                   progress=progress, executor=args.executor, ray_address=args.ray_address)
    except (InputError, PipelineError) as error:
        return _fail(str(error))
    counts, seconds = manifest["counts"], manifest["seconds"]
    if not args.quiet:
        for line in skipped_summary(manifest["skipped"], manifest["skipped_by_reason"]):  # the list stops
            print(f"functok tokenize: skipped {line}", file=sys.stderr)
    megabytes = counts["text_bytes"] / 1e6  # of UTF-8 text tokenized, whatever the files' compression
    print(f"wrote {manifest['tasks']} shards to {shown(args.out)}: {counts['documents']:,} documents, "
          f"{counts['tokens']:,} tokens, {counts['skipped']:,} skipped; {megabytes:.1f} MB of text in {seconds:.1f} s "
          f"({megabytes / max(seconds, 1e-9):.2f} MB/s with {min(args.workers, manifest['tasks'])} workers)")
    return 0


def _fail(message: str) -> int:
    print(f"functok tokenize: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def configure(parser: argparse.ArgumentParser) -> None:
    add_corpus_options(parser)
    parser.add_argument("--tokenizer", required=True, help="the functok tokenizer file (functok train --out)")
    parser.add_argument("--out", required=True, help="the output folder: new, empty, or a run to resume")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="tasks run at once, one process each (default: all cores); the output does "
                             "not depend on it")
    parser.add_argument("--threads", type=int, default=1, metavar="N",
                        help="threads per worker: each batch of documents is encoded by Tokenizer.encode_batch "
                             "on N threads, in parallel where the C core runs (default: 1); the output does "
                             "not depend on it")
    parser.add_argument("--tasks", type=int, default=None, metavar="N",
                        help="shards: task r reads files r, r+N, ... (records r, r+N, ... with fewer files "
                             f"than tasks; default: one per file, from {MIN_DEFAULT_TASKS} to {MAX_DEFAULT_TASKS}); "
                             "the output depends on it")
    parser.add_argument("--segmentation", choices=("greedy", "optimal"), default="greedy",
                        help="greedy BPE merges, or the fewest tokens per pre-token (default: greedy)")
    parser.add_argument("--eos", default=None, metavar="TOKEN",
                        help="append this token's id after each document (its text, e.g. '<|endoftext|>')")
    parser.add_argument("--special-text", choices=("ordinary", "skip"), default="ordinary",
                        help="a document holding a special token's text: encode that text as ordinary "
                             "text, or skip the document (default: ordinary)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="run the tasks in processes on this machine, or on a Ray cluster (pip install ray; "
                             "every node must see the corpus and --out at the same paths); the output does "
                             "not depend on it (default: local)")
    parser.add_argument("--ray-address", default=None, metavar="ADDRESS",
                        help="with --executor ray: the cluster's address, as ray.init takes it (auto, "
                             "ray://head:10001...); default: RAY_ADDRESS, else a local cluster of --workers CPUs")
    parser.set_defaults(func=run)


HELP = "tokenize a corpus into datatrove token shards, on all cores (needs functok[corpus])"


DESCRIPTION = """Tokenize .txt/.jsonl(.gz), .parquet and .arrow files and folders with a functok
tokenizer into datatrove's tokenized format (NNNNN_unshuffled.ds: uint16 ids, uint32 past 65,536
ids; .ds.index: document ends), which datatrove's readers and nanotron read. One shard per task; --tasks fixes the
sharding, --workers only the concurrency, so the shards are the same for any --workers. Also
writes manifest.json (tokenizer SHA-256, versions, counts, skipped documents with reasons). A
killed run resumes when run again with the same command. --executor ray runs the tasks on a Ray
cluster, with the same output. Needs pip install 'functok[corpus]'."""


add_command, main = command_functions("tokenize", configure, help=HELP, description=DESCRIPTION,
                                       alone=__doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
