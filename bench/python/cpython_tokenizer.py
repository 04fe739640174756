"""CPython functok's side of bench/node/tokenizers.mjs (run by it; not a standalone benchmark).

    python bench/python/cpython_tokenizer.py train TEXT_FILE OUT [VOCAB_SIZE [PROFILE FUSE]]   # a functok tokenizer on the text
    python bench/python/cpython_tokenizer.py time TOKENIZER CORPUS              # functok tokenizer, greedy and optimal
    python bench/python/cpython_tokenizer.py gpt2 RANK_FILE CORPUS              # GPT-2 ranks: greedy and optimal

Each pass is one cold pass: a freshly loaded tokenizer or vocabulary (empty caches) encodes the
whole corpus once. Prints one JSON line per pass: seconds, MB/s of UTF-8 input, the token
count and the SHA-256 of the ids (as JSON), so the JS side can check it got the same ids.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time


def ids_digest(ids: list[int]) -> str:
    return hashlib.sha256(json.dumps(ids, separators=(",", ":")).encode()).hexdigest()


def report(name: str, mode: str, text: str, seconds: float, ids: list[int], load: float) -> None:
    mb = len(text.encode()) / 1e6
    print(json.dumps({"impl": name, "mode": mode, "seconds": seconds, "mb_s": mb / seconds, "tokens": len(ids),
                      "ids_sha256": ids_digest(ids), "load_ms": load * 1000}), flush=True)


def main(argv: list[str]) -> None:
    from functok.tokenizer import Tokenizer

    if argv[0] == "train":
        with open(argv[1], encoding="utf-8") as f:
            text = f.read()
        size = int(argv[3]) if len(argv) > 3 else 4000
        chunks = [text[k : k + 20000] for k in range(0, len(text), 20000)]
        if len(argv) > 5:  # a profile and a fuse mode (bench/node/engine.mjs: compact, frequent)
            options = {"profile": argv[4], "fuse": argv[5]}
        else:
            options = {"profile": "paper", "split_operators": True}
        Tokenizer.train(iter(chunks), vocab_size=size, show_progress=False, **options).save(argv[2])
        return
    with open(argv[2], encoding="utf-8", newline="") as f:
        text = f.read()
    if argv[0] == "time":
        for mode in ("greedy", "optimal"):
            start = time.perf_counter()
            tok = Tokenizer.from_file(argv[1])
            loaded = time.perf_counter()
            ids = tok.encode(text, segmentation=mode).ids
            report("cpython-functok", mode, text, time.perf_counter() - loaded, ids, loaded - start)
    elif argv[0] == "gpt2":
        from functok.tokenizer.external import load_tiktoken

        for mode in ("greedy", "optimal"):
            start = time.perf_counter()
            vocab = load_tiktoken(argv[1], pattern="gpt2")
            loaded = time.perf_counter()
            ids = vocab.encode(text, segmentation=mode)
            report("cpython-functok-gpt2", mode, text, time.perf_counter() - loaded, ids, loaded - start)


if __name__ == "__main__":
    main(sys.argv[1:])
