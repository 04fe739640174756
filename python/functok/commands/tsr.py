"""The ``functok tsr`` command: the token saving rate (spec 10.4) of a vocabulary on a corpus.

The measurement is :func:`functok.tokenizer.tsr.measure`; this module reads the corpus and the
vocabulary and prints the report.

    functok tsr --vocab gpt2 --corpus some/dir other.txt
    functok tsr --vocab my-functok-tokenizer.json --corpus corpus.txt --json

``--vocab`` takes a functok tokenizer file (pre-tokens from the codec), a Hugging Face
``tokenizer.json`` (its own normalizer and pre-tokenizer) or a tiktoken rank file (pre-tokens
from ``--pattern``); ``gpt2`` means the GPT-2 rank file found by
:func:`functok.tokenizer.external.find_gpt2_tiktoken`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..tokenizer.errors import TokenizerFileError
from ..tokenizer.external import PATTERNS, find_gpt2_tiktoken, load_vocabulary
from ..tokenizer.tsr import BUCKETS, Report, measure
from ..tokenizer.vocabulary import Vocabulary
from . import command_functions

__all__ = ["BUCKETS", "Report", "add_command", "format_table", "measure"]

_PROGRESS_MIN_BYTES = 1 << 20  # corpora below this get no progress bar


def format_table(report: Report) -> str:
    lines = [
        f"vocabulary  {report.vocab} ({report.alphabet}, {report.vocab_size:,} tokens"
        f"{', reachable only' if report.reachable_only else ''})",
        f"corpus      {report.files:,} files, {report.characters:,} characters, "
        f"{report.pretokens:,} pre-tokens ({report.changed:,} segmented with fewer tokens)",
        "",
        f"{'length':>8} {'pre-tokens':>12} {'greedy':>12} {'optimal':>12} {'TSR':>8}",
    ]
    rows = [(b.bucket, b.pretokens, b.greedy, b.optimal, b.tsr) for b in report.buckets]
    rows.append(("all", report.pretokens, report.greedy, report.optimal, report.tsr))
    for label, n, g, o, tsr in rows:
        lines.append(f"{label:>8} {n:>12,} {g:>12,} {o:>12,} {tsr:>8.2%}")
    return "\n".join(lines)


# --- the command --------------------------------------------------------------------------


def _corpus_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(f for f in p.rglob("*") if f.is_file()))
        elif p.is_file():
            files.append(p)
        else:
            raise FileNotFoundError(f"corpus path not found: {p}")
    return files


class _Progress:
    """tqdm when installed, else a plain line on stderr every few seconds."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self._bar = None
        self._last = time.monotonic()
        if enabled:
            try:
                from tqdm import tqdm

                self._bar = tqdm(total=total, unit="B", unit_scale=True, desc="tsr", file=sys.stderr,
                                 disable=None)  # None: no bar when stderr is not a terminal
            except ImportError:
                pass

    def update(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self.enabled and time.monotonic() - self._last > 2:
            self._last = time.monotonic()
            print(f"tsr: {self.done / max(self.total, 1):.0%} of {self.total:,} bytes", file=sys.stderr)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _load(spec: str, pattern: str | None) -> Vocabulary:
    if spec == "gpt2" and not Path(spec).exists():
        found = find_gpt2_tiktoken()
        if found is None:
            raise FileNotFoundError(
                "GPT-2 rank file not found: set FUNCTOK_GPT2_TIKTOKEN or put whisper/assets/"
                "gpt2.tiktoken from `pip download --no-deps openai-whisper` at "
                "~/.cache/functok/gpt2.tiktoken"
            )
        return load_vocabulary(found, pattern="gpt2")
    return load_vocabulary(spec, pattern=pattern)


def _measure_files(vocabulary: Vocabulary, files: list[Path], sizes: list[int], reachable_only: bool,
                   report: Report, progress: _Progress) -> None:
    for path, size in zip(files, sizes):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            print(f"functok tsr: skipped {path}: not UTF-8", file=sys.stderr)
            continue
        measure(vocabulary, [text], reachable_only=reachable_only, report=report)
        report.files += 1
        progress.update(size)


def run(args: argparse.Namespace) -> int:
    try:
        vocabulary = _load(args.vocab, args.pattern)
        files = _corpus_files(args.corpus)
    except (OSError, ValueError, ImportError) as e:
        print(f"functok tsr: {e}", file=sys.stderr)
        return 2
    sizes = [f.stat().st_size for f in files]
    show = not args.no_progress and sum(sizes) >= _PROGRESS_MIN_BYTES
    progress = _Progress(sum(sizes), show)
    report = Report(vocabulary.name, vocabulary.alphabet, len(vocabulary), args.reachable_only)
    try:
        _measure_files(vocabulary, files, sizes, args.reachable_only, report, progress)
    except (OSError, TokenizerFileError, ImportError) as e:  # e.g. a tokenizer.json `tokenizers` cannot run
        print(f"functok tsr: {e}", file=sys.stderr)
        return 2
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_table(report))
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vocab", required=True,
                        help="functok tokenizer file, tokenizer.json, tiktoken rank file, or 'gpt2'")
    parser.add_argument("--corpus", required=True, nargs="+", metavar="PATH",
                        help="UTF-8 text files or directories (read recursively)")
    parser.add_argument("--pattern", default=None,
                        help=f"pre-tokenizer of a tiktoken file: {', '.join(PATTERNS)} or a regex "
                             f"(default: from the file name, cl100k*/o200k*, else gpt2)")
    parser.add_argument("--reachable-only", action="store_true",
                        help="optimal segmentation uses only tokens the merges can build")
    parser.add_argument("--json", action="store_true", help="print JSON (top-level field 'tsr')")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


HELP = "token saving rate of optimal segmentation over greedy BPE"
DESCRIPTION = """Token counts under greedy BPE and optimal segmentation, and TSR = (greedy - optimal) /
greedy, overall and by pre-token length."""
add_command, main = command_functions("tsr", configure, help=HELP, description=DESCRIPTION,
                                      alone=__doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
