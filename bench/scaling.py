"""Scaling on hostile input: time at growing sizes, as ratios against the smallest size.

    .venv/bin/python bench/scaling.py [--only NAME] [--repeat N]

Each case builds an input of size n and runs one operation on it. The baseline is the same
operation on the smallest input, in the same run; the figure that matters is
``time(k·n) / time(n)`` against the size ratio ``k``. A linear operation gives about ``k``; the
threshold of each case (for example 4x the input in at most 5x the time) says how much worse
than linear it may be. The script exits 1 when a case is over its threshold, so that it can
fail; no test is timed (issue 11: time is measured here, memory in tests with tracemalloc).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[int], Any]  # size -> input
    run: Callable[[Any], Any]  # input -> anything (the operation being timed)
    sizes: tuple[int, ...]
    max_time_ratio: float  # allowed time(largest) / time(smallest)
    what: str  # one line: what the input is and which operation runs


CASES: list[Case] = []  # each section below appends its cases


def best_of(repeat: int, fn: Callable[[Any], Any], arg: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - start)
    return best


def measure(c: Case, repeat: int) -> bool:
    times = []
    for n in c.sizes:
        data = c.make(n)
        times.append(best_of(repeat, c.run, data))
        del data
    size_ratio = c.sizes[-1] / c.sizes[0]
    time_ratio = times[-1] / times[0]
    ok = time_ratio <= c.max_time_ratio
    cells = "  ".join(f"{n:>11,}: {t:7.3f}s" for n, t in zip(c.sizes, times))
    print(f"{c.name}: {c.what}")
    print(f"  {cells}")
    print(f"  {size_ratio:.0f}x the input in {time_ratio:.2f}x the time "
          f"(threshold {c.max_time_ratio:g}x) {'ok' if ok else 'OVER THRESHOLD'}")
    return ok


# --- cases: the decoder (functok.decode) ---------------------------------------------------

# Code points; 4x the input in at most 5x the time. Where decoding is mostly copying, a
# millisecond at 1M is noise: those cases start at 4M.
_DECODE_SIZES = (1 << 20, 1 << 21, 1 << 22)
_COPY_SIZES = (1 << 22, 1 << 23, 1 << 24)


def _decode(stream: str, **options: Any) -> str | None:
    from functok import FormatError, decode
    from functok.decode import clear_caches

    clear_caches()  # hostile input is met cold
    try:
        return decode(stream, **options)
    except FormatError:  # a strict case: raising at the first error is the operation timed
        return None


def _decoder_case(name: str, make: Callable[[int], str], what: str, sizes: tuple[int, ...] = _DECODE_SIZES,
                  **options: Any) -> Case:
    return Case(name, make, lambda stream: _decode(stream, **options), sizes, 5.0, what)


def _near_max_output() -> Case:
    return Case("decode-over-max-output", lambda n: ("\ue200\ue000\ue003" + "a" * n, n),
                lambda made: _decode(made[0], max_output=made[1], errors="replace"), _COPY_SIZES, 5.0,
                "REPEAT(0,3) then n letters, max_output = n, lenient (the careful path drops the repeat)")


def _short_units(n: int) -> str:
    from functok import encode

    return encode("A " * (n // 4))  # CAPITALIZE(0) "a " per word: four code points a unit


CASES += [
    _decoder_case("decode-lenient-stray", lambda n: "\ue000" * n + "a",
                  "n stray arguments then a letter, errors='replace'", errors="replace"),
    _decoder_case("decode-strict-stray", lambda n: "\ue000" * n + "a",
                  "n stray arguments then a letter, strict (raises stray-argument at 0)"),
    _decoder_case("decode-lenient-unknown", lambda n: "\ue300" * n + "a",
                  "n unknown opcodes then a letter, errors='replace'", errors="replace"),
    _decoder_case("decode-lenient-surrogates", lambda n: "a\ud800" * (n // 2),
                  "a letter and a lone surrogate, n/2 times, errors='replace'", errors="replace"),
    _decoder_case("decode-careful-escape", lambda n: "\uefff\ue000" + "lorem ipsum " * (n // 12),
                  "one escape pair then n code points of text (the careful path)", _COPY_SIZES),
    _near_max_output(),
    _decoder_case("decode-group-escape-cjk", lambda n: "\ue100\ue000\uefff\ue000" + "\u4e2d" * n,
                  "CAPITALIZE(0), an escape pair, then n CJK characters in one text", _COPY_SIZES),
    _decoder_case("decode-long-group", lambda n: "\ue100\ue000" * (n // 2) + "a",
                  "one group of n/2 CAPITALIZE(0), then a letter"),
    _decoder_case("decode-fast-short-units", _short_units, "n/4 units of CAPITALIZE(0) 'a ' (the fast path)"),
]


# --- cases: DecodeStream --------------------------------------------------------------------


# --- cases: the command line (functok encode / decode on files) -----------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the cases whose name contains this")
    parser.add_argument("--repeat", type=int, default=3, help="best of N per size (default 3)")
    args = parser.parse_args(argv)
    selected = [c for c in CASES if not args.only or args.only in c.name]
    results = [measure(c, args.repeat) for c in selected]
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
