"""What the corpus commands (``functok train``, ``functok tokenize``, ``functok compare``) share
around the reader (:mod:`.corpus`): their corpus options, the progress bar over the corpus bytes,
and the summary of what was skipped."""

from __future__ import annotations

import argparse
from collections import Counter


class ByteProgress:
    """A progress bar over the corpus bytes on disk (tqdm on a terminal, else nothing): the
    commands move it with ``to(bytes_done)``; tqdm shows the rate in MB/s."""

    def __init__(self, total: int, desc: str, enabled: bool) -> None:
        self.bar = None
        self.done = 0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            import sys
            self.bar = tqdm(total=total, desc=desc, unit="B", unit_scale=True, unit_divisor=1000,
                            file=sys.stderr, leave=False)

    def to(self, done: int) -> None:
        if self.bar is not None and done > self.done:
            self.bar.update(done - self.done)
        self.done = max(self.done, done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# --- The commands' corpus options and skip summary (functok train, functok tokenize) --------


def add_corpus_options(parser: argparse.ArgumentParser) -> None:
    """The corpus options ``functok train`` and ``functok tokenize`` share."""
    parser.add_argument("--corpus", nargs="+", action="extend", required=True, metavar="PATH",
                        help=".txt and .jsonl files, their .gz forms, .parquet and .arrow files (datasets' "
                             "save_to_disk folders), and folders of them")
    add_field_option(parser)
    parser.add_argument("--skip-bad", action="store_true",
                        help="skip (and count) folders that cannot be listed, unreadable files, "
                             "invalid UTF-8 and bad .jsonl lines and table rows instead of stopping with exit status 2")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--quiet", action="store_true", help="no summary of skips on stderr")


def add_field_option(parser: argparse.ArgumentParser) -> None:
    """``--field`` (or ``--text-column``, datatrove's ``text_key``): where the text of a record is."""
    parser.add_argument("--field", "--text-column", dest="field", default="text", metavar="NAME",
                        help="the .jsonl field, or the Parquet/Arrow column, holding the text (default: text)")


def skipped_summary(skipped: list[dict], by_reason: dict[str, int] | None = None) -> list[str]:
    """One line per reason: how many (``by_reason`` when ``skipped`` lists only the first of
    them), and the first example listed."""
    counts = Counter(s["reason"] for s in skipped) if by_reason is None else by_reason
    first = {}
    for s in skipped:
        first.setdefault(s["reason"], s["what"])
    return [f"{n:,} ({reason})" + (f", e.g. {first[reason]}" if reason in first else "")
            for reason, n in counts.items()]
