"""Writes the fuzz targets' seed corpora from the conformance vectors' inputs (and, where present,
the benchmarks' corpora) into a build folder; scripts/fuzz.sh runs it, nothing is committed.

    python native/fuzz/seeds.py OUT_DIR

Each target native/fuzz/fuzz_NAME.c states its input's form in a line ``seeds: FORM``:
``text`` (the text's UTF-8) or ``byte+text`` (one leading byte the target reads as options,
then the text). The leading bytes are spread over all 256 values, so the seeds start every
configuration; the fuzzer mutates them from there.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO))

from functok.conformance.vectors import load_suite  # noqa: E402

CHUNK_BYTES = 2048  # a corpus seed: the first 2 KB of a file (the fuzzer's max_len is 4096)
CORPUS_FILES = 40   # of each corpus


def vector_texts() -> list[str]:
    """Every string input of every vector, and every string item of a list input, once each."""
    texts: dict[str, None] = {}
    for vector in load_suite(REPO / "conformance" / "vectors").vectors:
        value = vector.test.get("input")
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, str):
                texts[item] = None
    return list(texts)


def corpus_texts() -> list[str]:
    """The head of a few files of each benchmark corpus (the UDHR from corpora/udhr/)."""
    try:
        from bench.corpora import UDHR, stdlib_files
    except ImportError:
        return []
    files = stdlib_files()[:: max(1, len(stdlib_files()) // CORPUS_FILES)][:CORPUS_FILES]
    udhr = sorted(UDHR.glob("*.txt"))
    files += udhr[:: max(1, len(udhr) // CORPUS_FILES)][:CORPUS_FILES]
    texts = []
    for path in files:
        head = path.read_bytes()[:CHUNK_BYTES]
        texts.append(head.decode("utf-8", errors="ignore"))  # cut where a code point is whole
    return texts


def seed_form(target: Path) -> str:
    match = re.search(r"seeds: ([a-z+]+)", target.read_text(encoding="utf-8"))
    if not match or match.group(1) not in ("text", "byte+text"):
        raise SystemExit(f"{target}: no 'seeds: text' or 'seeds: byte+text' line")
    return match.group(1)


def main(out_dir: str) -> None:
    texts = vector_texts() + corpus_texts()
    for target in sorted(Path(__file__).parent.glob("fuzz_*.c")):
        name = target.stem.removeprefix("fuzz_")
        form = seed_form(target)
        folder = Path(out_dir) / name
        folder.mkdir(parents=True, exist_ok=True)
        for k, text in enumerate(texts):
            data = text.encode("utf-8", errors="surrogatepass")  # as fuzz_text reads them
            if form == "byte+text":
                data = bytes([k * 37 % 256]) + data
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"{name}: {len(texts)} seeds ({form})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
