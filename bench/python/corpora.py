"""The benchmarks' corpora: the standard library's source and the UDHR (corpora/udhr/, in the repository)."""

from __future__ import annotations

import sysconfig
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
UDHR = REPO / "corpora" / "udhr"


def stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)


def readable_texts(paths: Iterable[Path]) -> Iterator[str]:
    """The text of each UTF-8 file of ``paths``, in order, read as it is asked for; files that
    do not decode or cannot be read are passed over."""
    for path in paths:
        try:
            yield path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue


def read_files(paths, limit_bytes: int) -> list[str]:
    """The UTF-8 files of ``paths`` in order (undecodable ones passed over), up to a size."""
    docs, size = [], 0
    for text in readable_texts(paths):
        docs.append(text)
        size += len(text.encode())
        if size >= limit_bytes:
            break
    return docs
