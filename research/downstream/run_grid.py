"""Run the grid: 4 protocols x 3 variants x 3 seeds, one JSON result file per cell.

A cell whose file exists is skipped, so the grid resumes where it stopped. Whole protocol
blocks finish first, in protocols.ORDER; then the equal-bytes runs (cell.py), only for the
variants whose bytes/token differ from the baseline's by more than cell.SAME_BYTES. With
--commit each result file is committed (on the current branch: that file, the protocol's
meta.json, and FINDINGS.md and docs/downstream.md rebuilt) as soon as it is written.

    cd research/downstream
    PYTHONPATH=../../python nohup nice -n 19 ../../.venv-torch/bin/python run_grid.py --commit > grid.log 2>&1 &
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import torch

import prepare
import protocols
from cell import SAME_BYTES, bytes_ratio, run_cell

SEEDS = (0, 1, 2)
RESULTS = Path(__file__).with_name("results")
ROOT = Path(__file__).resolve().parents[2]


def result_path(protocol: str, variant: str, seed: int, point: str = "equal_tokens", scale: int = 1) -> Path:
    """results/<protocol>/<variant>[.equal_bytes][.tokens<k>x].seed<N>.json"""
    middle = ("" if point == "equal_tokens" else f".{point}") + ("" if scale == 1 else f".tokens{scale}x")
    return RESULTS / protocol / f"{variant}{middle}.seed{seed}.json"


def pinned() -> dict:
    """The commit the study ran at, and whether the package's code differed from it."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "python/functok"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    import functok
    import tokenizers

    return {"commit": head, "functok_dirty": bool(dirty), "functok": functok.__version__,
            "tokenizers": tokenizers.__version__, "torch": torch.__version__, "python": platform.python_version()}


def commit(path: Path, extra: Sequence[Path] = ()) -> None:
    """Commit the result file (and ``extra`` files), with FINDINGS.md and the docs page rebuilt
    to include it."""
    import build_findings

    build_findings.main()
    paths = [str(path), str(build_findings.HERE / "FINDINGS.md"), str(build_findings.DOCS),
             *map(str, RESULTS.glob("*/meta.json")), *map(str, extra)]
    for _ in range(10):
        add = subprocess.run(["git", "add", "--", *paths], cwd=ROOT, capture_output=True)
        done = subprocess.run(["git", "commit", "-q", "-m", f"research/downstream: result {path.parent.name}/{path.name}",
                               "--", *paths], cwd=ROOT, capture_output=True)
        if add.returncode == 0 and done.returncode == 0:
            return
        time.sleep(5)
    print(f"could not commit {path}", file=sys.stderr)


def run(protocol: str, variant: str, seed: int, point: str, cache: Path, commit_it: bool,
        extra: Sequence[Path] = (), scale: int = 1) -> None:
    path = result_path(protocol, variant, seed, point, scale)
    if path.exists():
        return
    started = time.strftime("%H:%M:%S")
    result = dict(run_cell(cache, variant, seed, point, scale), pinned=pinned())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
    times = "" if scale == 1 else f", {scale}x the training tokens"
    print(f"{started} {protocol} {variant} seed {seed}: {result[point]['bits_per_byte']:.4f} bits/byte at "
          f"{point.replace('_', ' ')}{times} ({result['seconds']} s)", flush=True)
    if commit_it:
        commit(path, extra)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocols", nargs="*", default=list(protocols.ORDER))
    parser.add_argument("--commit", action="store_true")
    parser.add_argument("--seeds", nargs="*", type=int, default=list(SEEDS),
                        help="only these seeds (a second process can take other seeds of the same protocol)")
    parser.add_argument("--variants", nargs="*", default=list(prepare.VARIANT_KEYS), choices=prepare.VARIANT_KEYS,
                        help="only these variants, in this order")
    parser.add_argument("--points", nargs="*", default=["equal_tokens", "equal_bytes"],
                        choices=["equal_tokens", "equal_bytes"])
    args = parser.parse_args()
    for point in args.points:
        for protocol in args.protocols:
            cache = prepare.prepare(protocol)
            meta = json.loads((cache / "meta.json").read_text())
            for seed in args.seeds:
                for variant in args.variants:
                    if point == "equal_bytes" and abs(bytes_ratio(meta, variant) - 1) <= SAME_BYTES:
                        continue
                    run(protocol, variant, seed, point, cache, args.commit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
