"""CPython functok's side of bench/node/peers.mjs (run by it; not a standalone benchmark).

    python bench/python/cpython_peers.py corpora OUT_DIR MB           # the three corpora, measured and training halves
    python bench/python/cpython_peers.py train TEXT_FILE OUT VOCAB    # a compact/frequent tokenizer on the text
    python bench/python/cpython_peers.py time TOKENIZER CORPUS        # one cold greedy pass of the C core (CPU and wall time)

Each corpus comes in two disjoint halves of the same kind of text: the part the benchmark
encodes (at most MB megabytes of UTF-8) and the part its own tokenizer is trained on, so no
tokenizer has seen the text it is timed on.

- ``stdlib``: the standard library's .py source (bench/python/corpora.py); the even-numbered files are
  measured, the odd-numbered ones train.
- ``udhr``: the UDHR translations, whole, the even-numbered files measured, the odd ones train.
- ``multilingual``: short paragraphs in many scripts. From each script, the complete translations
  (stage 4, 30 articles; INDEX.tsv) of up to PER_SCRIPT languages, in code order; their first
  FIRST_BLOCKS blocks (title, preamble, the first articles) are measured, interleaved (block 1
  of every language, then block 2, ...), and their other blocks train.

The UDHR folder is $FUNCTOK_UDHR, else bench/python/corpora.py's UDHR (the one place the repository
says where it is).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import sys
import time
from pathlib import Path

PER_SCRIPT = 16    # languages per script in the multilingual sample (110 languages, 40 scripts)
FIRST_BLOCKS = 12  # the title, the preamble and articles 1-10 of each: about 5 KB a language
TRAIN_MB = 8       # the most training text per corpus


def udhr_folder() -> Path:
    if os.environ.get("FUNCTOK_UDHR"):
        return Path(os.environ["FUNCTOK_UDHR"])
    from corpora import UDHR

    return UDHR


def cut(texts: list[str], limit_bytes: float) -> str:
    """The texts joined by newlines, up to the limit, cut at a code point."""
    joined = "\n".join(texts).encode()
    return joined[: int(limit_bytes)].decode("utf-8", errors="ignore")


def stdlib_halves() -> tuple[list[str], list[str]]:
    from corpora import read_files, stdlib_files

    files = stdlib_files()
    return read_files(files[0::2], 10**9), read_files(files[1::2], 10**9)


def udhr_halves(folder: Path) -> tuple[list[str], list[str]]:
    files = sorted(folder.glob("*.txt"))
    read = lambda paths: [p.read_text(encoding="utf-8") for p in paths]  # noqa: E731
    return read(files[0::2]), read(files[1::2])


def multilingual_halves(folder: Path) -> tuple[list[str], list[str]]:
    with open(folder / "INDEX.tsv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["stage"] == "4" and r["articles"] == "30"]
    chosen: dict[str, list[str]] = {}
    for row in sorted(rows, key=lambda r: r["code"]):
        codes = chosen.setdefault(row["script"], [])
        if len(codes) < PER_SCRIPT:
            codes.append(row["code"])
    languages = [code for script in sorted(chosen) for code in chosen[script]]
    blocks = {code: (folder / f"{code}.txt").read_text(encoding="utf-8").split("\n\n") for code in languages}
    measured = [blocks[code][k] for k in range(FIRST_BLOCKS) for code in languages if k < len(blocks[code])]
    training = ["\n\n".join(blocks[code][FIRST_BLOCKS:]) for code in languages]
    return measured, training


def write_corpora(out: Path, mb: float) -> None:
    folder = udhr_folder()
    if not (folder / "INDEX.tsv").is_file():
        raise SystemExit(f"no UDHR at {folder} (set FUNCTOK_UDHR to the folder of the .txt files and INDEX.tsv)")
    out.mkdir(parents=True, exist_ok=True)
    halves = {"stdlib": stdlib_halves(), "udhr": udhr_halves(folder), "multilingual": multilingual_halves(folder)}
    for name, (measured, training) in halves.items():
        text, train = cut(measured, mb * 1e6), cut(training, TRAIN_MB * 1e6)
        (out / f"{name}.txt").write_text(text, encoding="utf-8")
        (out / f"{name}.train.txt").write_text(train, encoding="utf-8")
        print(json.dumps({"name": name, "path": str(out / f"{name}.txt"), "train": str(out / f"{name}.train.txt"),
                          "train_sha256": hashlib.sha256(train.encode()).hexdigest(),
                          "mb": len(text.encode()) / 1e6, "train_mb": len(train.encode()) / 1e6}))


def train(text_file: str, out: str, vocab_size: int) -> None:
    from functok import Tokenizer

    text = Path(text_file).read_text(encoding="utf-8")
    chunks = [text[k : k + 20000] for k in range(0, len(text), 20000)]
    # the defaults are the profile and fuse mode the goals name: compact, frequent
    Tokenizer.train(iter(chunks), vocab_size=vocab_size, show_progress=False).save(out)


def time_once(tokenizer: str, corpus: str) -> None:
    from functok import Tokenizer
    from functok import backend

    with open(corpus, encoding="utf-8", newline="") as f:
        text = f.read()
    start = time.perf_counter()
    tok = Tokenizer.from_file(tokenizer)
    loaded, cpu = time.perf_counter(), time.process_time()
    ids = tok.encode(text).ids
    seconds, cpu_seconds = time.perf_counter() - loaded, time.process_time() - cpu
    mb = len(text.encode()) / 1e6
    print(json.dumps({"impl": "cpython-functok", "engine": backend(), "seconds": seconds, "cpu_seconds": cpu_seconds,
                      "mb_s": mb / cpu_seconds, "wall_mb_s": mb / seconds,
                      "tokens": len(ids), "ids_sha256": hashlib.sha256(json.dumps(ids, separators=(",", ":")).encode()).hexdigest(),
                      "load_ms": (loaded - start) * 1000}))


def main(argv: list[str]) -> None:
    if argv[0] == "corpora":
        write_corpora(Path(argv[1]), float(argv[2]))
    elif argv[0] == "train":
        train(argv[1], argv[2], int(argv[3]))
    elif argv[0] == "time":
        time_once(argv[1], argv[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
