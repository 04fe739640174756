"""``functok train``: train a functok tokenizer on a corpus of files and folders.

The corpus is read by the shared reader (:mod:`.corpus`: ``.txt``, ``.jsonl`` with ``--field``,
their ``.gz`` forms, folders of them), streamed: a text file comes in chunks cut where the
codec's pieces end, so its pre-tokens are those of the whole file, and a ``.jsonl`` file one
record at a time. Memory holds the pre-token counts, not the corpus. Bad input stops the run
with exit status 2, naming the file and the byte offset (or the line), unless ``--skip-bad``
skips and counts it. A record, or a chunk of a text file, with a line longer than
``--max-line-chars`` code points is skipped and counted, as ``functok compare`` does. Training
itself is :meth:`functok.Tokenizer.train`, whose options this command passes on (an option left
out keeps that method's default) and whose bounds it checks before reading: ``--vocab-size`` at
most 2**24, ``--min-frequency`` from 0 to 2**64 - 1, ``--limit-alphabet`` at least 0, special
tokens non-empty (:mod:`functok.tokenizer.train`). ``--out`` must not be a corpus file.
``--workers N`` counts the pre-tokens in N processes (:mod:`.train_count`) and trains on the
sum, the same tokenizer for every N; ``--min-count N`` drops, in each worker's shard, what it
saw fewer than N times. ``--executor ray`` counts on a Ray cluster instead: the counting
pipeline's tasks (:mod:`.count_pipeline`, run as ``functok tokenize`` runs its own:
:mod:`.executors`) write their counts to ``--counts``, which this machine merges
(:func:`functok.integrations.datatrove.merge_counts`) and trains on: the same tokenizer.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..chunks import InputError
from ..tokenizer.train import MAX_VOCAB_SIZE, alphabet_room, check_training_options
from . import command_functions
from .corpus import DEFAULT_MAX_LINE, CorpusReader, input_file_at, is_inside, real_path, shown, total_bytes
from .corpus_cli import ByteProgress, add_corpus_options, skipped_summary
from .executors import MAX_DEFAULT_TASKS, MIN_DEFAULT_TASKS, PipelineError, default_tasks
from .train_count import count_corpus, count_options

__all__ = ["add_command", "train_options"]

EXIT_BAD_INPUT = 2
FUSE_CHOICES = ("none", "all", "frequent")


def train_options(args: argparse.Namespace) -> dict:
    """The keyword arguments of ``Tokenizer.train`` that the command line gives."""
    options: dict[str, Any] = {"vocab_size": args.vocab_size, "special_tokens": list(args.special_token),
                               "show_progress": args.progress}
    for name in ("splitter", "profile", "fuse", "min_frequency", "limit_alphabet"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    if args.normalize != "default":
        options["normalize"] = None if args.normalize == "none" else args.normalize
    return options


def run(args: argparse.Namespace) -> int:
    from ..tokenizer import Tokenizer

    started = time.monotonic()
    args.progress = not args.no_progress and sys.stderr.isatty()
    out = Path(args.out)
    try:
        import tokenizers  # noqa: F401  (fail early, before reading anything)
    except ImportError:
        return _fail("needs Hugging Face tokenizers: pip install 'functok[train]'")
    if out.is_dir():
        return _fail(f"--out {out}: a folder of that name exists; --out names the tokenizer file")
    if not out.parent.is_dir():
        return _fail(f"--out {out}: the folder {out.parent} does not exist")
    if args.workers is None:  # tokenize's default on a cluster; one process here
        args.workers = (os.cpu_count() or 1) if args.executor == "ray" else 1
    options = train_options(args)
    problem = _bad_option(args, options) or _bad_executor_options(args)
    if problem:
        return _fail(problem)
    counts_folder = [args.counts] if args.counts else []  # never corpus: a corpus path in it is refused
    reader = CorpusReader(args.corpus, field=args.field, skip_bad=args.skip_bad, unit="chunks",
                          max_line=args.max_line_chars, exclude=counts_folder)
    counts: Counter = Counter()
    try:
        files = reader.files()
        clash = input_file_at(out, files)
        if clash is not None:
            return _fail(f"--out {shown(out)}: is the corpus file {shown(clash)}; writing the tokenizer "
                         f"would overwrite its input")
        count = _count_on_ray if args.executor == "ray" else _count_here
        pretoken_counts, skipped = count(args, reader, files, options, counts)
        tokenizer = Tokenizer.train(pretoken_counts, **options)
        del pretoken_counts
    except InputError as error:
        return _fail(str(error))
    except ValueError as error:  # the vocabulary floor, a special token that is a byte token
        return _fail(str(error))
    except PipelineError as error:  # no Ray, no cluster, a --counts folder of another run
        return _fail(str(error))
    if not counts["characters"]:
        return _fail(f"no text in the corpus ({counts['files_read']} files read, {len(skipped)} skipped)")
    try:
        tokenizer.save(out)
    except OSError as error:
        return _fail(f"--out {out}: cannot write: {error.strerror}")
    if not args.quiet:
        for line in skipped_summary(skipped):
            print(f"functok train: skipped {line}", file=sys.stderr)
    print(f"wrote {shown(out)}: {tokenizer.vocab_size:,} tokens, trained on {counts['documents']:,} documents "
          f"({counts['characters']:,} code points) from {counts['files_read']:,} files; {len(skipped):,} "
          f"skipped; {time.monotonic() - started:.1f} s")
    return 0


def _count_here(args: argparse.Namespace, reader: CorpusReader, files: list[Path], options: dict,
                counts: Counter) -> tuple[Any, list[dict]]:
    """The pre-token counts, counted on this machine by ``--workers`` processes, and the skips."""
    progress = ByteProgress(total_bytes(files), "reading", args.progress)
    try:
        pretoken_counts = count_corpus(_Texts(reader, progress, counts), count_options(options),
                                       workers=args.workers, min_count=args.min_count)
    finally:
        progress.close()
    counts["files_read"] = reader.files_read
    return pretoken_counts, reader.skipped


def _count_on_ray(args: argparse.Namespace, reader: CorpusReader, files: list[Path], options: dict,
                  counts: Counter) -> tuple[Any, list[dict]]:
    """The pre-token counts, counted by the counting pipeline's ``--tasks`` tasks on the Ray
    cluster into ``--counts`` and merged here in rank order, and the skips."""
    try:  # the blocks' own imports too
        from ..integrations.datatrove import merge_counts
    except ImportError as exc:
        raise PipelineError(str(exc) if "functok[corpus]" in str(exc)
                            else "--executor ray needs datatrove: pip install 'functok[corpus]'") from None
    from .count_pipeline import run_counting

    reads = run_counting(files, Path(args.counts), count_options(options), executor="ray",
                         tasks=args.tasks or default_tasks(len(files)), workers=args.workers,
                         min_count=args.min_count, field=args.field, skip_bad=args.skip_bad,
                         max_line=args.max_line_chars, ray_address=args.ray_address, progress=args.progress)
    skipped = list(reader.skipped)  # the listing's, then each task's in rank order
    for rank in sorted(reads):
        skipped += reads[rank].get("skipped", [])
        for key in ("files_read", "documents", "characters"):
            counts[key] += reads[rank].get(key, 0)
    return merge_counts(args.counts), skipped


class _Texts:
    """The corpus's texts for ``Tokenizer.train``: an iterable (not a list, which it would
    read as file paths) that moves the progress bar and counts what it yields."""

    def __init__(self, reader: CorpusReader, progress: ByteProgress, counts: Counter) -> None:
        self.reader, self.progress, self.counts = reader, progress, counts

    def __iter__(self) -> Iterator[str]:
        last = None
        for doc in self.reader.documents():
            if doc.name != last:  # the chunks of a text file are one document
                self.counts["documents"] += 1
                last = doc.name
            self.counts["characters"] += len(doc.text)
            self.progress.to(doc.end)
            yield doc.text


def _bad_option(args: argparse.Namespace, options: dict) -> str | None:
    """What is wrong with the numeric options and the special tokens, or None: checked before
    the corpus is read, with the options' own names."""
    if args.max_line_chars < 1:
        return "--max-line-chars must be at least 1"
    if args.workers < 1:
        return "--workers must be at least 1"
    if args.min_count < 1:
        return "--min-count must be at least 1"
    try:
        check_training_options(**{k: options[k] for k in ("vocab_size", "special_tokens")},
                               min_frequency=options.get("min_frequency", 0),
                               limit_alphabet=options.get("limit_alphabet"),
                               spell=_OPTION_NAMES.__getitem__)
        alphabet_room(options["vocab_size"], list(dict.fromkeys(options["special_tokens"])))
    except ValueError as error:
        return str(error)
    return None


_OPTION_NAMES = {"vocab_size": "--vocab-size", "min_frequency": "--min-frequency",
                 "limit_alphabet": "--limit-alphabet", "special_tokens": "--special-token"}


def _bad_executor_options(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--counts``, ``--tasks`` and ``--ray-address`` for the executor
    chosen, or None: checked before reading."""
    if args.executor != "ray":
        given = [name for name, value in (("--counts", args.counts), ("--tasks", args.tasks),
                                          ("--ray-address", args.ray_address)) if value is not None]
        return f"{given[0]} is for --executor ray (here the counts stay in memory)" if given else None
    if args.tasks is not None and args.tasks < 1:
        return "--tasks must be at least 1"
    if not args.counts:
        return ("--executor ray needs --counts DIR: the folder for the tasks' count files, on storage that "
                "every node of the cluster sees")
    for path in args.corpus:
        if os.path.isdir(path) and is_inside(args.counts, real_path(path)):  # (a missing path: the reader's)
            return (f"--counts {shown(args.counts)} is in the corpus folder {shown(path)}: the count files "
                    f"would lie among the corpus; choose a folder outside it")
    return None


def _fail(message: str) -> int:
    print(f"functok train: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def configure(parser: argparse.ArgumentParser) -> None:
    from .. import PROFILES

    add_corpus_options(parser)
    parser.add_argument("--vocab-size", type=int, required=True, metavar="N",
                        help="tokens in all: special tokens, the 256 byte tokens, the alphabet and the merges; "
                             f"at most {MAX_VOCAB_SIZE:,} (2**24: the trainer reserves memory for each)")
    parser.add_argument("--out", default="tokenizer.json", help="the tokenizer file to write (default: tokenizer.json)")
    parser.add_argument("--profile", choices=sorted(PROFILES), default=None,
                        help="the encoder profile of the pre-tokens (default: Tokenizer.train's)")
    parser.add_argument("--fuse", choices=FUSE_CHOICES, default=None,
                        help="instructions in pre-tokens: 'none' splits them off, 'all' keeps them in their "
                             "pieces, 'frequent' fuses frequent contexts (default: Tokenizer.train's)")
    parser.add_argument("--special-token", action="append", default=[], metavar="TOKEN",
                        help="a special token, non-empty (ids 0, 1, ... in the order given); may be repeated")
    parser.add_argument("--splitter", choices=("llama3", "paper"), default=None,
                        help="the splitter (default: Tokenizer.train's)")
    parser.add_argument("--normalize", choices=("nfc", "none"), default="default",
                        type=lambda v: v.lower(),
                        help="normalization (default: Tokenizer.train's)")
    parser.add_argument("--min-frequency", type=int, default=None, metavar="N",
                        help="merge only pairs seen at least N times (0 to 2**64 - 1)")
    parser.add_argument("--limit-alphabet", type=int, default=None, metavar="N",
                        help="keep at most N characters (N >= 0); the rarest get byte-fallback tokens")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="count the pre-tokens in N processes (the corpus dealt out text by text), then "
                             "train; with --executor ray, N tasks run at once on the cluster; the tokenizer is "
                             "the same for every N (default: 1; with --executor ray, all cores, as tokenize's)")
    parser.add_argument("--min-count", type=int, default=1, metavar="N",
                        help="drop the pre-tokens that a worker's shard (with --executor ray, a task's) holds "
                             "fewer than N times before the counts are merged, to bound memory (default: 1, "
                             "keep all; see docs/corpus.md)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="local: count in --workers processes on this machine, the counts in memory; ray: "
                             "count as the counting pipeline's --tasks tasks on a Ray cluster (pip install ray "
                             "and functok[corpus]; every node must see the corpus and --counts at the same "
                             "paths), then merge the count files and train here; the tokenizer is the same "
                             "(default: local)")
    parser.add_argument("--ray-address", default=None, metavar="ADDRESS",
                        help="with --executor ray: the cluster's address, as ray.init takes it (auto, "
                             "ray://head:10001...); default: RAY_ADDRESS, else a local cluster of --workers CPUs")
    parser.add_argument("--tasks", type=int, default=None, metavar="N",
                        help="with --executor ray: task r counts files r, r+N, ... (a file is never shared "
                             f"between tasks; default: one per file, from {MIN_DEFAULT_TASKS} to "
                             f"{MAX_DEFAULT_TASKS}); without --min-count the tokenizer does not depend on it")
    parser.add_argument("--counts", default=None, metavar="DIR",
                        help="with --executor ray (and needed by it): the folder, outside the corpus, for the "
                             "tasks' count files (counts-<r>.jsonl) and logs; a rerun of the same corpus and "
                             "counting options resumes it, counting only what did not finish")
    parser.add_argument("--max-line-chars", type=int, default=DEFAULT_MAX_LINE, metavar="N",
                        help="skip (and count) records, and chunks of text files, with a line longer than "
                             f"N code points, as functok compare does (default: {DEFAULT_MAX_LINE:,})")
    parser.set_defaults(func=run)


HELP = "train a functok tokenizer on .txt/.jsonl(.gz), .parquet and .arrow files and folders"


DESCRIPTION = """Train a functok tokenizer (Tokenizer.train) on .txt and .jsonl files, their .gz
forms, .parquet and .arrow tables and folders of them, streamed with flat memory. Bad input stops the run with exit status 2,
naming the file and byte offset (or line), unless --skip-bad skips and counts it. Lines over
--max-line-chars are skipped and counted; pre-tokens over 1,000 code points are cut for counting
(training time stays linear in a line's length). --out must not be a corpus file. Options left
out keep Tokenizer.train's defaults. --workers N counts the pre-tokens in N processes (the same
tokenizer for every N); --min-count N prunes each worker's counts (docs/corpus.md). --executor ray
--counts DIR counts on a Ray cluster, in --tasks tasks writing to DIR, then merges and trains here:
the same tokenizer."""


add_command, main = command_functions("train", configure, help=HELP, description=DESCRIPTION,
                                       alone=__doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
