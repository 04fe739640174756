"""Per-row cost of one call of FunctokLogitsProcessor, against the bare constraint step, same run.

    .venv/bin/python bench/python/constrain_processor.py [--vocab 8000] [--rows 8] [--steps 64] [--before FILE]

A tokenizer (profile "compact", fuse "frequent") is trained on the standard library's source,
and ``--rows`` rows are grown together for ``--steps`` steps after prompts cut from the
corpus's encoding (numpy input ids, as a framework's tensor gives them): each step, one call of
the processor on the whole batch, then one id per row drawn among the ids it left allowed. The
rows are kept in order and nothing finishes, so any version of the processor can run it.

Baseline, measured in the same run on the same rows: the bare step a processor cannot avoid,
``state.advance(id)`` then the mask as a numpy bool array of the model's width
(``mask_bits``), per row. The figure is the processor's time per row-step and its ratio to
that baseline; the length check compares steps 0-15 with the last 16. ``--before FILE`` times
another version of ``hf.py`` on the same rows in the same run, for a before/after (for example
``git show main:python/functok/constrain/hf.py > /tmp/hf_before.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import statistics
import sys
import time

import numpy as np

import functok
from functok.constrain import FunctokLogitsProcessor
from functok.constrain.sampling import mask_bits

from constrain import corpus, prompts, train


def bare_step(constraint, state, choice: int, width: int) -> float:
    start = time.perf_counter()
    state = state.advance(choice)
    out = np.zeros(width, dtype=bool)
    out[: constraint.vocab_size] = mask_bits(np, state).astype(bool)
    return time.perf_counter() - start


def load_before(path: str):
    """The FunctokLogitsProcessor of another hf.py, imported as a module of functok.constrain."""
    spec = importlib.util.spec_from_file_location("functok.constrain.hf_before", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FunctokLogitsProcessor


def run(tok: functok.Tokenizer, docs: list[str], rows: int, steps: int, seed: int,
        processor_class=FunctokLogitsProcessor) -> tuple[list, list, list]:
    """(processor seconds per row-step, bare seconds per row-step, step index of each)."""
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    processor = processor_class(tok)
    constraint = processor.constraint
    width = constraint.vocab_size + 2  # a model's padded vocabulary
    # Prompts of one length (the rows of a batch), each a valid beginning: the whole row is read.
    batch = [p for p in prompts(tok, docs, rows * 4, rng) if len(p) >= 8][:rows]
    batch = [p[:8] for p in batch]
    states = [constraint.allowed(p) for p in batch]
    timed, bare, at = [], [], []
    for step in range(steps):
        ids = np.array(batch, dtype=np.int64)
        start = time.perf_counter()
        scores = processor(ids, np.zeros((len(batch), width)))
        timed.append((time.perf_counter() - start) / len(batch))
        at.append(step)
        spent = 0.0
        for r in range(len(batch)):
            allowed = [i for i in np.flatnonzero(~np.isneginf(scores[r])).tolist()
                       if i not in constraint.special_ids]  # the rows never end
            choice = allowed[int(np_rng.integers(len(allowed)))]
            spent += bare_step(constraint, states[r], choice, width)
            states[r] = states[r].advance(choice)
            batch[r] = batch[r] + [choice]
        bare.append(spent / len(batch))
    return timed, bare, at


def report(name: str, timed: list[float], bare: list[float], at: list[int], steps: int) -> None:
    proc_us, bare_us = statistics.median(timed) * 1e6, statistics.median(bare) * 1e6
    early = [t for t, a in zip(timed, at) if a < 16]
    late = [t for t, a in zip(timed, at) if a >= steps - 16]
    print(f"  {name}: processor median {proc_us:.1f} us per row-step, bare step {bare_us:.1f} us, "
          f"ratio {proc_us / bare_us:.2f}; {statistics.median(early) * 1e6:.1f} us at steps 0-15, "
          f"{statistics.median(late) * 1e6:.1f} us at the last 16")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--walks", type=int, default=6)
    parser.add_argument("--corpus-mb", type=float, default=1.0)
    parser.add_argument("--before", help="another hf.py to time on the same rows")
    args = parser.parse_args(argv)
    print(f"functok {functok.__version__}, Python {platform.python_version()}, {platform.machine()}")
    docs = corpus(args.corpus_mb)
    tok = train(docs, args.vocab)
    print(f"vocabulary {tok.vocab_size}, {args.rows} rows x {args.steps} steps x {args.walks} walks")
    versions = {"this": FunctokLogitsProcessor}
    if args.before:
        versions["before"] = load_before(args.before)
    results = {name: ([], [], []) for name in versions}
    for seed in range(args.walks):  # the versions take turns, so that load changes hit both
        for name, processor_class in versions.items():
            for total, part in zip(results[name], run(tok, docs, args.rows, args.steps, seed, processor_class)):
                total += part
    for name, (timed, bare, at) in results.items():
        report(name, timed, bare, at, args.steps)
    if args.before:
        this, before = (statistics.median(results[n][0]) for n in ("this", "before"))
        print(f"  this / before: {this / before:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
