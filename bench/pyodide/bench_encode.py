"""Times functok.encode; the same function runs in CPython and in Pyodide (bench/pyodide/bundle.mjs).

    python bench/pyodide/bench_encode.py RUNS < TEXT   # CPython's side: {"cold", "warm", "python"} as JSON

encode() keeps a per-piece cache, so a second pass over the same text mostly measures cache
hits.  ``cold=True`` empties the caches before every run, which is what new text costs.
"""

from __future__ import annotations

import json
import sys
import time

import functok


def clear_piece_caches() -> None:
    sys.modules["functok.encoding"].clear_caches()


def best_seconds(text: str, runs: int = 3, *, cold: bool) -> float:
    best = float("inf")
    for _ in range(runs):
        if cold:
            clear_piece_caches()
        start = time.perf_counter()
        functok.encode(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """CPython's side of the bundle benchmark: the text on stdin (UTF-8), the best of RUNS."""
    text, runs = sys.stdin.buffer.read().decode("utf-8"), int(sys.argv[1])
    cold, warm = best_seconds(text, runs, cold=True), best_seconds(text, runs, cold=False)
    print(json.dumps({"cold": cold, "warm": warm, "python": sys.version}))


if __name__ == "__main__":
    main()
