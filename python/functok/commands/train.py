"""``functok train``: train a functok tokenizer on a corpus of files and folders.

The corpus is read by the shared reader (:mod:`.corpus`: ``.txt``, ``.jsonl`` with ``--field``,
their ``.gz`` forms, folders of them), streamed: a text file comes in chunks cut where the
codec's pieces end, so its pre-tokens are those of the whole file, and a ``.jsonl`` file one
record at a time. Memory holds the pre-token counts, not the corpus. Bad input stops the run
with exit status 2, naming the file and the byte offset (or the line), unless ``--skip-bad``
skips and counts it. Training itself is :meth:`functok.Tokenizer.train`, whose options this
command passes on; an option left out keeps that method's default.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..chunks import InputError
from . import run_alone
from .corpus import ByteProgress, CorpusReader, add_corpus_options, shown, skipped_summary, total_bytes

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
    if args.normalization is not None:  # not args.normalize, which cli.main turns from "none" into None
        options["normalize"] = None if args.normalization == "none" else args.normalization
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
    options = train_options(args)
    reader = CorpusReader(args.corpus, field=args.field, skip_bad=args.skip_bad, unit="chunks")
    counts: Counter = Counter()
    try:
        files = reader.files()
        progress = ByteProgress(total_bytes(files), "reading", args.progress)
        try:
            tokenizer = Tokenizer.train(_Texts(reader, progress, counts), **options)
        finally:
            progress.close()
    except InputError as error:
        return _fail(str(error))
    except ValueError as error:  # the vocabulary floor, a special token that is a byte token
        return _fail(str(error))
    if not counts["characters"]:
        return _fail(f"no text in the corpus ({reader.files_read} files read, {len(reader.skipped)} skipped)")
    try:
        tokenizer.save(out)
    except OSError as error:
        return _fail(f"--out {out}: cannot write: {error.strerror}")
    if not args.quiet:
        for line in skipped_summary(reader.skipped):
            print(f"functok train: skipped {line}", file=sys.stderr)
    print(f"wrote {shown(out)}: {tokenizer.vocab_size:,} tokens, trained on {counts['documents']:,} documents "
          f"({counts['characters']:,} code points) from {reader.files_read:,} files; {len(reader.skipped):,} "
          f"skipped; {time.monotonic() - started:.1f} s")
    return 0


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


def _fail(message: str) -> int:
    print(f"functok train: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def configure(parser: argparse.ArgumentParser) -> None:
    from .. import PROFILES

    add_corpus_options(parser)
    parser.add_argument("--vocab-size", type=int, required=True, metavar="N",
                        help="tokens in all: special tokens, the 256 byte tokens, the alphabet and the merges")
    parser.add_argument("--out", default="tokenizer.json", help="the tokenizer file to write (default: tokenizer.json)")
    parser.add_argument("--profile", choices=sorted(PROFILES), default=None,
                        help="the encoder profile of the pre-tokens (default: Tokenizer.train's)")
    parser.add_argument("--fuse", choices=FUSE_CHOICES, default=None,
                        help="instructions in pre-tokens: 'none' splits them off, 'all' keeps them in their "
                             "pieces, 'frequent' fuses frequent contexts (default: Tokenizer.train's)")
    parser.add_argument("--special-token", action="append", default=[], metavar="TOKEN",
                        help="a special token (ids 0, 1, ... in the order given); may be repeated")
    parser.add_argument("--splitter", choices=("llama3", "paper"), default=None,
                        help="the splitter (default: Tokenizer.train's)")
    parser.add_argument("--normalize", dest="normalization", choices=("nfc", "none"), default=None,
                        type=lambda v: v.lower(),
                        help="normalization (default: Tokenizer.train's)")
    parser.add_argument("--min-frequency", type=int, default=None, metavar="N",
                        help="merge only pairs seen at least N times")
    parser.add_argument("--limit-alphabet", type=int, default=None, metavar="N",
                        help="keep at most N characters; the rarest get byte-fallback tokens")
    parser.set_defaults(func=run)


HELP = "train a functok tokenizer on .txt/.jsonl(.gz) files and folders"


DESCRIPTION = """Train a functok tokenizer (Tokenizer.train) on .txt and .jsonl files, their .gz
forms and folders of them, streamed with flat memory. Bad input stops the run with exit status 2,
naming the file and byte offset (or line), unless --skip-bad skips and counts it. Options left
out keep Tokenizer.train's defaults."""


def add_command(subparsers: Any) -> None:
    configure(subparsers.add_parser("train", help=HELP, description=DESCRIPTION))


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("functok train", __doc__.splitlines()[0], configure, argv)


if __name__ == "__main__":
    sys.exit(main())
