"""Per-step cost of functok.constrain's exact masks, against the naive mask, same run.

    .venv/bin/python bench/python/constrain.py [--vocab 16000 32000] [--steps 3000] [--corpus-mb 6]

For each vocabulary size and fuse mode (``none``: instructions apart from their bases;
``frequent``: the frequent ones fused; ``all``: every group joined with its base, which makes
many more tokens hold format code points) a tokenizer is trained (profile "compact") on the
standard library's source plus the UDHR where present, and a `Constraint` is built (its build
time is reported). Then random walks of 64 ids under random logits, from prompts cut out of the
corpus's encoding, measure one *step*: `state.advance(id)` plus `state.mask()` (the allowed
next ids as a bitmask) plus `state.bitmask()` (the bytes a sampler reads). Single pass with
empty caches first (the masks of syntactic states are computed on first sight), then a second
pass over the same walks (warm). Figures: median, 90th percentile and mean in microseconds.

Baselines, measured in the same run:

* naive: "try every id with the strict decoder" (`tokenizer.decode(ids + [i])` for each id),
  timed on a subsample of ids and scaled to the whole vocabulary (it also answers a different,
  weaker question: a decodable prefix, not a prefix of something decodable);
* sampling: drawing one id with numpy from the logits (softmax and a cumulative search), the
  work a sampler does anyway; the constraint's step as a ratio of it.

The length check: the median step at positions 0-63 and at 448-511 of 512-id walks (the goal:
independent of the sequence length).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

import numpy as np

import functok
from functok.constrain import Constraint
from functok.constrain.sampling import mask_bits

from corpora import UDHR, read_files, stdlib_files

GOAL_US = 50.0


def corpus(limit_mb: float) -> list[str]:
    docs = read_files(stdlib_files(), int(limit_mb * 1e6))
    if UDHR.is_dir():
        docs += read_files(sorted(UDHR.glob("*.txt")), int(limit_mb * 0.3e6))
    return docs


def train(docs: list[str], vocab_size: int, fuse: str = "frequent") -> functok.Tokenizer:
    return functok.Tokenizer.train(iter(docs), vocab_size=vocab_size, profile="compact", fuse=fuse,
                                   special_tokens=("<eos>",), show_progress=False)


def prompts(tok: functok.Tokenizer, docs: list[str], count: int, rng: random.Random) -> list[list[int]]:
    out = []
    for _ in range(count):
        doc = rng.choice(docs)
        start = rng.randrange(max(1, len(doc) - 400))
        ids = tok.encode(doc[start:start + 400]).ids
        out.append(ids[: rng.randint(0, min(32, len(ids)))])  # may stop inside a group
    return out


def walk(constraint: Constraint, prompt: list[int], length: int, rng: np.random.Generator,
         timings: list[float], positions: list[int] | None = None) -> list[int]:
    """One walk of ``length`` ids; appends the time of each step to ``timings``."""
    state = constraint.start()
    for i in prompt:
        state = state.advance(i)
    state.mask()
    ids = list(prompt)
    for position in range(length):
        allowed = np.flatnonzero(mask_bits(np, state))  # outside the timed step
        if allowed.size == 0:
            break
        choice = int(allowed[rng.integers(allowed.size)])
        if choice in constraint.special_ids:
            break
        start = time.perf_counter()
        state = state.advance(choice)
        state.mask()
        state.bitmask()
        timings.append(time.perf_counter() - start)
        if positions is not None:
            positions.append(position)
        ids.append(choice)
    return ids


def naive_step(tok: functok.Tokenizer, ids: list[int], sample: list[int]) -> float:
    """Seconds to try ``sample`` ids with the strict decoder after ``ids``."""
    start = time.perf_counter()
    for i in sample:
        try:
            tok.decode(ids + [i])
        except (ValueError, UnicodeDecodeError):
            pass
    return time.perf_counter() - start


def sampling_step(logits: np.ndarray, rng: np.random.Generator) -> float:
    start = time.perf_counter()
    weights = np.exp(logits - logits.max())
    cumulative = np.cumsum(weights)
    int(np.searchsorted(cumulative, rng.random() * cumulative[-1]))
    return time.perf_counter() - start


def us(seconds: list[float]) -> dict[str, float]:
    values = sorted(s * 1e6 for s in seconds)
    return {"median": statistics.median(values), "p90": values[int(0.9 * (len(values) - 1))],
            "mean": statistics.fmean(values)}


def run(vocab_size: int, docs: list[str], steps: int, fuse: str) -> None:
    started = time.perf_counter()
    tok = train(docs, vocab_size, fuse)
    trained = time.perf_counter() - started
    started = time.perf_counter()
    constraint = Constraint(tok, eos_token_id="<eos>")
    built = time.perf_counter() - started
    n_format = len(constraint.format_ids)
    print(f"\nvocabulary {tok.vocab_size}, fuse={fuse!r} ({n_format} format tokens); "
          f"trained in {trained:.0f} s, "
          f"Constraint built in {built * 1e3:.0f} ms")
    rng = random.Random(vocab_size)
    walks = prompts(tok, docs, max(1, steps // 64), rng)
    cold: list[float] = []
    finished = [walk(constraint, p, 64, np.random.default_rng(k), cold) for k, p in enumerate(walks)]
    warm: list[float] = []
    for k, p in enumerate(walks):
        walk(constraint, p, 64, np.random.default_rng(k), warm)
    long_times: list[float] = []
    long_positions: list[int] = []
    for k in range(4):
        walk(constraint, [], 512, np.random.default_rng(1000 + k), long_times, long_positions)
    early = [t for t, p in zip(long_times, long_positions) if p < 64]
    late = [t for t, p in zip(long_times, long_positions) if p >= 448]
    subsample = rng.sample(range(constraint.vocab_size), 200)
    naive = [naive_step(tok, ids[: rng.randint(1, len(ids))], subsample) * constraint.vocab_size / len(subsample)
             for ids in finished[:20] if ids]
    np_rng = np.random.default_rng(0)
    sampling = [sampling_step(np_rng.normal(size=constraint.vocab_size), np_rng) for _ in range(500)]
    c, w = us(cold), us(warm)
    naive_us, sampling_us = us(naive)["median"], us(sampling)["median"]
    print(f"  step, single pass (cold caches): median {c['median']:.1f} us, p90 {c['p90']:.1f}, "
          f"mean {c['mean']:.1f}  ({len(cold)} steps)")
    print(f"  step, warm:                      median {w['median']:.1f} us, p90 {w['p90']:.1f}, mean {w['mean']:.1f}")
    print(f"  naive (strict decoder per id):   median {naive_us / 1e3:.1f} ms per step "
          f"-> constraint is {naive_us / c['median']:.0f}x faster (single-pass median)")
    print(f"  numpy sampling of the logits:    median {sampling_us:.1f} us -> constraint step = "
          f"{c['median'] / sampling_us:.2f}x a sampling step")
    print(f"  length: median {us(early)['median']:.1f} us at positions 0-63, "
          f"{us(late)['median']:.1f} us at 448-511 ({len(late)} steps)")
    verdict = "meets" if c["median"] <= GOAL_US else "misses"
    print(f"  goal: median <= {GOAL_US:.0f} us per step: {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vocab", type=int, nargs="+", default=[16000, 32000])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--corpus-mb", type=float, default=6.0)
    parser.add_argument("--fuse", choices=list(functok.FUSE_MODES), nargs="+", default=["none", "frequent", "all"],
                        help="how groups meet their bases in the pre-tokens (spec 9)")
    args = parser.parse_args(argv)
    print(f"functok {functok.__version__}, Python {platform.python_version()}, {platform.machine()}")
    docs = corpus(args.corpus_mb)
    print(f"corpus: {len(docs)} documents, {sum(map(len, docs)) / 1e6:.1f} M code points")
    for fuse in args.fuse:
        for size in args.vocab:
            run(size, docs, args.steps, fuse)
    return 0


if __name__ == "__main__":
    sys.exit(main())
