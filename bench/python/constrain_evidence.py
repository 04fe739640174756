"""Evidence for functok.constrain: how often sampled ids fail to decode, without and with it.

    .venv/bin/python bench/python/constrain_evidence.py [--samples 1000] [--length 64] [--vocab 8000]

Writes research/constrain-evidence/report.md and report.json (fixed seeds: the same run gives
the same counts). A tokenizer (profile "compact", fuse "frequent", an ``<eos>`` special token)
is trained on the standard library's source (plus the UDHR where present), and 1,000
continuations of 64 ids are sampled after prompts cut out of the corpus's encoding (0 to 32
ids: a prompt may stop inside a group, as a user's prompt may), from two sources of logits:

(a) random logits: a standard normal per id (seeded by the sample and the step);
(b) a tiny model: a bigram model over token ids (counts of id pairs in the encoded corpus,
    interpolated with unigram counts, add-one smoothed), trained in seconds on the CPU with
    numpy. It is the smallest model that learns the format's local habits (an opcode is
    followed by an argument, a group by text) without learning them exactly, which is where
    a real model's malformed streams come from; no torch is needed.

Each continuation is sampled twice with the same seed: without the constraint (softmax over
all ids) and with it (the same logits, masked by ``Constraint``; when 64 ids are reached where
the sequence cannot end, ``finish`` adds the few ids that close it, counted in the report). Each
prompt + continuation is decoded with ``Tokenizer.decode`` (strict): the report counts the
rejections, by error kind, and the empty continuations (no text beyond the prompt's), and
times the constraint's work per step against the rest of the step (logits and sampling).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

import functok
from functok.constrain import Constraint
from functok.constrain.sampling import finish

from constrain import corpus, prompts, train

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "research" / "constrain-evidence"


class Bigram:
    """P(next | previous id), interpolated with P(next), from the ids of the encoded corpus."""

    def __init__(self, ids: list[int], vocab_size: int, weight: float = 0.9) -> None:
        arr = np.asarray(ids, dtype=np.int64)
        self.unigram = (np.bincount(arr, minlength=vocab_size) + 1.0) / (len(arr) + vocab_size)
        pairs = arr[:-1] * vocab_size + arr[1:]
        keys, counts = np.unique(pairs, return_counts=True)
        self.rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        prev = keys // vocab_size
        for p in np.unique(prev):
            sel = prev == p
            nxt, cnt = keys[sel] % vocab_size, counts[sel].astype(np.float64)
            self.rows[int(p)] = (nxt, cnt / cnt.sum())
        self.weight = weight

    def logits(self, ids: list[int], sample: int = 0) -> np.ndarray:
        probs = (1 - self.weight) * self.unigram
        row = self.rows.get(ids[-1]) if ids else None
        if row is not None:  # probs is a new array here: adding to it leaves the unigram alone
            probs[row[0]] += self.weight * row[1]
        else:
            probs = self.unigram
        return np.log(probs)


def draw(logits: np.ndarray, allowed: np.ndarray | None, rng: np.random.Generator) -> int:
    if allowed is not None:
        logits = np.where(allowed, logits, -np.inf)
    weights = np.exp(logits - logits.max())
    cumulative = np.cumsum(weights)
    return int(min(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"), len(weights) - 1))


def outcome(tok: functok.Tokenizer, prompt: list[int], continuation: list[int]) -> tuple[str | None, bool]:
    """(the error kind, or None if it decodes strictly; is the continuation empty?)"""
    before = len(tok.decode(prompt, errors="replace", skip_special_tokens=True))
    try:
        text = tok.decode(prompt + continuation, skip_special_tokens=True)
        kind = None
    except functok.FormatError as e:
        kind, text = e.kind, tok.decode(prompt + continuation, errors="replace", skip_special_tokens=True)
    except (ValueError, UnicodeDecodeError) as e:
        kind, text = type(e).__name__, tok.decode(prompt + continuation, errors="replace", skip_special_tokens=True)
    return kind, len(text) <= before


def sample_one(tok, constraint, source, prompt, length, seed, constrained):
    rng = np.random.default_rng(seed)
    size = constraint.vocab_size
    state = constraint.start()
    for i in prompt:
        state = state.advance(i)
    ids = list(prompt)
    eos = constraint.eos_token_id
    overhead = other = 0.0
    for _ in range(length):
        started = time.perf_counter()
        logits = source(ids, seed)
        other += time.perf_counter() - started
        allowed = None
        if constrained:
            started = time.perf_counter()
            allowed = np.unpackbits(np.frombuffer(state.bitmask(), dtype=np.uint8), bitorder="little")[:size]
            allowed = allowed.astype(bool)
            overhead += time.perf_counter() - started
        started = time.perf_counter()
        choice = draw(logits, allowed, rng)
        other += time.perf_counter() - started
        if choice == eos:
            break
        if constrained:
            started = time.perf_counter()
            state = state.advance(choice)
            overhead += time.perf_counter() - started
        ids.append(choice)
    closing = finish(state) if constrained else []
    steps = len(ids) - len(prompt)
    return ids[len(prompt):] + closing, len(closing), overhead, other, steps


def experiment(name, tok, constraint, source, all_prompts, length) -> dict:
    result = {}
    for constrained in (False, True):
        kinds: Counter = Counter()
        empty = closing_total = closing_max = steps = 0
        overhead = other = 0.0
        for k, prompt in enumerate(all_prompts):
            cont, closing, o, t, s = sample_one(tok, constraint, source, prompt, length, 1000 + k, constrained)
            kind, is_empty = outcome(tok, prompt, cont)
            kinds[kind or "ok"] += 1
            empty += is_empty
            closing_total += closing
            closing_max = max(closing_max, closing)
            overhead, other, steps = overhead + o, other + t, steps + s
        key = "constrained" if constrained else "unconstrained"
        result[key] = {
            "samples": len(all_prompts), "rejected": len(all_prompts) - kinds["ok"],
            "errors": {k: v for k, v in kinds.most_common() if k != "ok"}, "empty": empty,
            "closing_ids_total": closing_total, "closing_ids_max": closing_max, "steps": steps,
            "constraint_us_per_step": overhead / max(steps, 1) * 1e6,
            "logits_and_sampling_us_per_step": other / max(steps, 1) * 1e6,
        }
        print(f"{name:14} {key:13} rejected {result[key]['rejected']:4}  empty {empty:4}  "
              f"closing ids {closing_total} (max {closing_max})  "
              f"constraint {result[key]['constraint_us_per_step']:.1f} us/step, "
              f"rest {result[key]['logits_and_sampling_us_per_step']:.1f} us/step")
    return result


def report_markdown(meta: dict, results: dict) -> str:
    lines = [
        "<!-- generated by bench/python/constrain_evidence.py: do not edit; rerun it -->",
        "# Constrained generation: evidence",
        "",
        f"functok {meta['functok']}, Python {meta['python']}, {meta['machine']}; tokenizer: "
        f"{meta['vocab_size']} ids ({meta['format_tokens']} format tokens), profile compact, fuse frequent, "
        f"trained on {meta['corpus']}. {meta['samples']} continuations of {meta['length']} ids per row, "
        f"after prompts of 0 to 32 ids cut from the encoded corpus; seeds fixed (1000 + k).",
        "",
        "| logits | sampling | rejected by the strict decoder | empty | closing ids added (total / max) | constraint us/step | logits + sampling us/step |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, per in results.items():
        for key, r in per.items():
            errors = ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "none"
            lines.append(f"| {name} | {key} | {r['rejected']} ({errors}) | {r['empty']} | "
                         f"{r['closing_ids_total']} / {r['closing_ids_max']} | {r['constraint_us_per_step']:.1f} | "
                         f"{r['logits_and_sampling_us_per_step']:.1f} |")
    lines += [
        "",
        "*Rejected*: `Tokenizer.decode` (strict) raises for prompt + continuation; the error kinds are",
        "the spec's (`dangling-group`, `position-out-of-range`, ...) or the tokenizer's",
        "(`ByteFallbackError`: invalid UTF-8 in byte-fallback ids). *Empty*: the continuation adds no",
        "text to the prompt's (decoded leniently where the strict decoder refuses). *Closing ids*: ids",
        "`functok.constrain.finish` added after the 64th where the sequence could not end there (a",
        "group's pending slots, an unfinished UTF-8 sequence). The tiny model is a bigram model over",
        "token ids (numpy, trained in seconds on the encoded corpus); see the script's docstring.",
        "A pipeline that shows a failed strict decode as an empty output would count the rejected",
        "column as empty outputs. *Constraint us/step*: `state.advance` plus the mask as a numpy bool",
        "array (`bitmask` and `unpackbits`), in this run's Python loop; `bench/python/constrain.py` times the",
        "constraint's own step.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--length", type=int, default=64)
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--corpus-mb", type=float, default=3.0)
    args = parser.parse_args(argv)
    docs = corpus(args.corpus_mb)
    started = time.perf_counter()
    tok = train(docs, args.vocab)
    constraint = Constraint(tok, eos_token_id="<eos>")
    ids: list[int] = []
    for doc in docs:
        ids += tok.encode(doc).ids + [constraint.eos_token_id]
    model = Bigram(ids, constraint.vocab_size)
    print(f"tokenizer and bigram model trained in {time.perf_counter() - started:.0f} s "
          f"({len(ids)} ids of training data)")
    all_prompts = prompts(tok, docs, args.samples, random.Random(15))
    def noise(ids: list[int], sample: int) -> np.ndarray:  # the same logits at the same step of a sample
        return np.random.default_rng([sample, len(ids)]).standard_normal(constraint.vocab_size)

    results = {
        "random": experiment("random logits", tok, constraint, noise, all_prompts, args.length),
        "bigram": experiment("bigram model", tok, constraint, model.logits, all_prompts, args.length),
    }
    meta = {"functok": functok.__version__, "python": platform.python_version(), "machine": platform.machine(),
            "vocab_size": constraint.vocab_size, "format_tokens": len(constraint.format_ids),
            "corpus": f"{len(docs)} documents, {sum(map(len, docs)) / 1e6:.1f} M code points",
            "samples": args.samples, "length": args.length}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "report.json").write_text(json.dumps({"meta": meta, "results": results}, indent=2) + "\n", encoding="utf-8")
    (OUT / "report.md").write_text(report_markdown(meta, results), encoding="utf-8")
    print(f"wrote {OUT / 'report.md'}")
    bad = sum(r["constrained"]["rejected"] for r in results.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
