"""Times functok.encode; the same function runs in CPython and in Pyodide (wasm/bench.mjs).

encode() keeps a per-piece cache, so a second pass over the same text mostly measures cache
hits.  ``cold=True`` empties the caches before every run, which is what new text costs.
"""

from __future__ import annotations

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
