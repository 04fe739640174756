"""``import functok`` with the C core against the pure path (``FUNCTOK_PURE=1``), same run.

    .venv/bin/python bench/python/import_time.py [--runs N]

Each run is a fresh interpreter that imports functok; the two ways alternate so that a change in
the machine's load falls on both. It prints the median and the best wall time of each (the
interpreter's start included) and their difference, then the best time ``python -X importtime``
gives functok itself each way, and the core's own module (loading the extension and filling its
tables). Goal: ``import functok`` <= +20 ms over pure (the C core must not slow every CLI call
and every worker's start).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"
CODE = "import functok"


def environment(pure: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(PYTHON_DIR), os.environ.get("PYTHONPATH")])))
    env.pop("FUNCTOK_PURE", None)
    if pure:
        env["FUNCTOK_PURE"] = "1"
    return env


def one_import(pure: bool) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CODE], env=environment(pure), check=True)
    return time.perf_counter() - start


def import_times_us(pure: bool) -> dict[str, int]:
    """The microseconds ``-X importtime`` gives each module (cumulative: with what it imports)."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", CODE], env=environment(pure),
                         capture_output=True, text=True, check=True)
    return {name.strip(): int(total) for total, name in
            re.findall(r"^import time:\s+\d+ \|\s+(\d+) \|(.*)$", run.stderr, re.M)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    backend = subprocess.run([sys.executable, "-c", "import functok; print(functok.backend())"],
                             env=environment(False), capture_output=True, text=True, check=True).stdout.strip()
    if backend != "native":
        print("the C core is not built: nothing to compare")
        return 1
    times: dict[bool, list[float]] = {True: [], False: []}
    inside: dict[bool, list[dict[str, int]]] = {True: [], False: []}
    one_import(True), one_import(False)  # warm the file cache
    for _ in range(args.runs):
        for pure in (True, False):
            times[pure].append(one_import(pure))
            inside[pure].append(import_times_us(pure))
    pure, native = (statistics.median(times[p]) * 1e3 for p in (True, False))
    best_pure, best_native = (min(times[p]) * 1e3 for p in (True, False))
    print(f"# python -c {CODE!r}, {args.runs} runs each, alternating; Python {sys.version.split()[0]}")
    print(f"{'':<8}{'median ms':>11}{'best ms':>9}")
    print(f"{'pure':<8}{pure:>11.1f}{best_pure:>9.1f}")
    print(f"{'native':<8}{native:>11.1f}{best_native:>9.1f}")
    print(f"native - pure: {native - pure:+.1f} ms median, {best_native - best_pure:+.1f} ms best "
          f"(native / pure {native / pure:.2f}x)")
    pure_in, native_in = (min(run["functok"] for run in inside[p]) / 1e3 for p in (True, False))
    core = min(run.get("functok._native", 0) for run in inside[False]) / 1e3
    print(f"-X importtime, best of {args.runs}: functok {pure_in:.1f} ms pure, {native_in:.1f} ms native "
          f"({native_in - pure_in:+.1f} ms); functok._native itself {core:.1f} ms")
    print("# goal: import functok <= +20 ms over pure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
