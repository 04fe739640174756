"""The follow-ups' CPU cells, in priority order: placement (``paper_postfix``), inline case markers
(``inline_case``), the learning curve (2x then 4x training tokens, baseline and
``compact``/``frequent``), then inline case and mark markers (``inline_case_marks``).

Each cell is one result file, skipped when it exists (so a run resumes where it stopped). Two
processes can run side by side: a cell is claimed by a file in cache/claims/ before it starts, so
they never take the same one (a claim left by a killed process is removed by hand). Nothing is
committed here: commit_results.sh commits every result that has landed, as one grid commit.

    cd research/downstream
    PYTHONPATH=../../python nohup nice -n 19 ../../.venv-torch/bin/python run_followups.py > grid-followups-a.log 2>&1 &
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator

import prepare
import run_grid
import variants

PROTOCOLS = ("code", "udhr-paragraphs")
CURVE_VARIANTS = ("baseline", "compact_frequent")
CURVE_SCALES = (2, 4)
CLAIMS = prepare.CACHE / "claims"


def cells() -> Iterator[tuple[str, str, int, int]]:
    """(protocol, variant, seed, scale) in the order they should run."""
    for key in ("paper_postfix", "inline_case"):
        for protocol in PROTOCOLS:
            for seed in run_grid.SEEDS:
                yield protocol, key, seed, 1
    for scale in CURVE_SCALES:
        for seed in run_grid.SEEDS:
            for protocol in PROTOCOLS:
                for key in CURVE_VARIANTS:
                    yield protocol, key, seed, scale
    for protocol in PROTOCOLS:
        for seed in run_grid.SEEDS:
            yield protocol, "inline_case_marks", seed, 1


def claim(protocol: str, key: str, seed: int, scale: int) -> bool:
    CLAIMS.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(CLAIMS / f"{protocol}.{key}.seed{seed}.x{scale}", os.O_CREAT | os.O_EXCL))
        return True
    except FileExistsError:
        return False


def cache_of(protocol: str, key: str):
    if key in variants.VARIANTS:
        return variants.prepare_variant(protocol, key)
    return prepare.prepare(protocol)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="only these variants")
    args = parser.parse_args()
    for protocol, key, seed, scale in cells():
        if args.only and key not in args.only:
            continue
        if run_grid.result_path(protocol, key, seed, "equal_tokens", scale).exists():
            continue
        if not claim(protocol, key, seed, scale):
            continue
        run_grid.run(protocol, key, seed, "equal_tokens", cache_of(protocol, key), False, scale=scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
