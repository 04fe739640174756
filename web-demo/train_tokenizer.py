"""Trains the web demo's small tokenizer on Python's standard library source.

    python web-demo/train_tokenizer.py OUT.json [--vocab-size 8000] [--max-chars 2000000]

wasm/build.mjs runs this into wasm/dist/demo-tokenizer.json, so the file always matches the
functok in the same bundle.  The text is the interpreter's own standard library (top-level
modules, in name order, up to --max-chars code points): something every machine that builds the
project has, with no download.  Much of the demo's multilingual input is unseen by it, which
shows the byte fallback keeping the round trip exact.
"""

from __future__ import annotations

import argparse
import json
import sysconfig
from pathlib import Path

from functok.tokenizer import Tokenizer


def stdlib_texts(max_chars: int) -> list[str]:
    texts, total = [], 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text[: max_chars - total])
        total += len(texts[-1])
        if total >= max_chars:
            break
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--max-chars", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    texts = stdlib_texts(args.max_chars)
    tokenizer = Tokenizer.train(iter(texts), vocab_size=args.vocab_size, show_progress=False)
    document = json.loads(tokenizer.to_str())
    # Generated files say so first; loaders read only the "functok" and "tokenizer" keys.
    document = {"generated_by": "web-demo/train_tokenizer.py (wasm/build.mjs); do not edit", **document}
    args.out.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    print(f"{args.out}: vocab {tokenizer.vocab_size}, trained on {sum(map(len, texts))} code points of the stdlib")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
