"""Trains the web demo's small tokenizer on Python's standard library source.

    python web-demo/train_tokenizer.py OUT.json [--vocab-size 8000] [--max-chars 2000000]

wasm/build.mjs runs this into wasm/dist/demo-tokenizer.json, so the file always matches the
functok in the same bundle; `functok demo` trains the same tokenizer on first request when it has
no bundle (functok.commands.demo.train_demo_tokenizer does the work for both).  The text is the
interpreter's own standard library (top-level modules, in name order, up to --max-chars code
points): something every machine that builds the project has, with no download.  Much of the
demo's multilingual input is unseen by it, which shows the byte fallback keeping the round trip
exact.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from functok.commands.demo import train_demo_tokenizer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--max-chars", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    text = train_demo_tokenizer(args.vocab_size, args.max_chars)
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: vocab {args.vocab_size}, trained on up to {args.max_chars} code points of the stdlib")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
