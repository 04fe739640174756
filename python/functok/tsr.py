"""Token saving rate (spec 10.4) and the ``functok tsr`` command.

TSR = (G - O) / G, where G and O are the token counts of greedy BPE and of optimal
segmentation on the same pre-tokens with the same vocabulary. It is reported for the whole
corpus and per word-length bucket (the pre-token's length in code points).

    functok tsr --vocab gpt2 --corpus some/dir other.txt
    functok tsr --vocab my-functok-tokenizer.json --corpus corpus.txt --json

``--vocab`` takes a functok tokenizer file (pre-tokens from the codec), a Hugging Face
``tokenizer.json`` (its own normalizer and pre-tokenizer) or a tiktoken rank file (pre-tokens
from ``--pattern``); ``gpt2`` means the GPT-2 rank file found by
:func:`functok.vocab.find_gpt2_tiktoken`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .loading import TokenizerFileError
from .vocab import PATTERNS, Vocabulary, find_gpt2_tiktoken, load_vocabulary

__all__ = ["BUCKETS", "Report", "add_command", "measure"]

# (label, shortest, longest) in code points; the edges are not normative
BUCKETS = (("1", 1, 1), ("2", 2, 2), ("3-4", 3, 4), ("5-8", 5, 8), ("9-16", 9, 16), ("17+", 17, None))
_PROGRESS_MIN_BYTES = 1 << 20  # corpora below this get no progress bar


@dataclass
class Bucket:
    bucket: str
    pretokens: int = 0
    greedy: int = 0
    optimal: int = 0

    @property
    def tsr(self) -> float:
        return (self.greedy - self.optimal) / self.greedy if self.greedy else 0.0


@dataclass
class Report:
    vocab: str
    alphabet: str
    vocab_size: int
    reachable_only: bool
    files: int = 0
    characters: int = 0
    pretokens: int = 0
    greedy: int = 0
    optimal: int = 0
    changed: int = 0  # pre-token occurrences whose optimal count is below greedy's
    buckets: list[Bucket] = field(default_factory=lambda: [Bucket(label) for label, _, _ in BUCKETS])

    @property
    def tsr(self) -> float:
        return (self.greedy - self.optimal) / self.greedy if self.greedy else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tsr": self.tsr}
        out.update(asdict(self))
        out["buckets"] = [dict(asdict(b), tsr=b.tsr) for b in self.buckets]
        return out


def _bucket_index(length: int) -> int:
    for k, (_, low, high) in enumerate(BUCKETS):
        if length >= low and (high is None or length <= high):
            return k
    return 0  # length 0 does not occur: pre-tokens are never empty


def measure(
    vocabulary: Vocabulary,
    texts: Iterable[str],
    *,
    reachable_only: bool = False,
    report: Report | None = None,
) -> Report:
    """Count greedy and optimal tokens of every pre-token of ``texts``.

    >>> from functok.vocab import load_hf
    >>> v = load_hf({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4,
    ...     "abc": 5}, "merges": [["b", "c"], ["a", "b"], ["ab", "c"]]}})
    >>> v.pre_tokenize = str.split
    >>> r = measure(v, ["abc abc ab"])
    >>> (r.greedy, r.optimal, round(r.tsr, 3))
    (5, 3, 0.4)
    """
    if report is None:
        report = Report(vocabulary.name, vocabulary.alphabet, len(vocabulary), reachable_only)
    for text in texts:
        report.characters += len(text)
        counts = Counter(vocabulary.pre_tokenize(text))  # each distinct pre-token once
        for pretoken, times in counts.items():
            greedy = len(vocabulary.ids(pretoken))
            optimal = len(vocabulary.ids(pretoken, segmentation="optimal", reachable_only=reachable_only))
            bucket = report.buckets[_bucket_index(len(vocabulary.to_text(pretoken)))]
            for target in (report, bucket):
                target.pretokens += times
                target.greedy += greedy * times
                target.optimal += optimal * times
            if optimal < greedy:
                report.changed += times
    return report


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


def add_command(subparsers: Any) -> None:
    configure(subparsers.add_parser(
        "tsr", help="token saving rate of optimal segmentation over greedy BPE",
        description="Token counts under greedy BPE and optimal segmentation, and "
                    "TSR = (greedy - optimal) / greedy, overall and by pre-token length."))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="functok tsr", description=__doc__.splitlines()[0])
    configure(parser)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
