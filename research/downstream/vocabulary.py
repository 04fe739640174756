"""Tokens and vocabulary of the inline variants beside the baseline and
``compact``/``frequent``, as ``functok compare`` reports them, on the grid's protocols.

* **held-out tokens at equal budget** (compare's equal-budget table: ``budgets.measure_variant``
  at compare's default budgets, 8k to 64k; Δ% against the baseline at each budget);
* **vocabulary at equal compression** (``budgets.equal_compression``: the budget at which the
  variant's held-out tokens reach the baseline's at the reference budget, 32k);
* **vocabulary at merge exhaustion** (compare's exhaustion table: ``train_as_the_paper`` at
  ``EXHAUSTION_VOCAB_SIZE``, ``vocabulary_stats``'s vocabulary), for the variants that have one
  pre-token rule of their own (``compact``/``frequent`` has none: its fusion merges are chosen at
  a budget, so compare reports no exhaustion row for it; its split row's is given instead).

Output: results/<protocol>/vocabulary.json (kept with the results; build_findings.py reads it).

    cd research/downstream
    PYTHONPATH=../../python nice -n 19 ../../.venv-torch/bin/python vocabulary.py code udhr-paragraphs
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

from functok.commands.compare import budgets
from functok.commands.compare.train import (EXHAUSTION_VOCAB_SIZE, count_pretokens, train_as_the_paper,
                                           vocabulary_stats)
from functok.tokenizer.fusion import ChainCounter

import prepare
import protocols
import run_grid
import variants

ROWS = ("baseline", "compact_split", "compact_frequent", "inline_case", "inline_case_marks")


def _counts(row: str, texts: list[str], chains: ChainCounter | None = None) -> Counter:
    """Pre-token counts as compare makes them (and the training chains, for the split row that
    ``compact``/``frequent`` reuses)."""
    variant = variants.VARIANTS.get(row) or next(v for v in budgets.BUDGET_VARIANTS if v.key == row)
    pretokenize = variant.pretokenize(prepare.SPLITTER)
    if chains is None:
        return count_pretokens(texts, pretokenize)
    counts: Counter = Counter()
    for text in texts:
        found = pretokenize(text)
        counts.update(found)
        chains.update(found)
    return counts


def measure(name: str) -> dict:
    split = protocols.PROTOCOLS[name]()
    grid = list(budgets.DEFAULT_BUDGETS)
    rows: dict[str, dict] = {}
    chains = ChainCounter()
    compact = None
    for row in ROWS:
        started = time.monotonic()
        held = _counts(row, split.held)
        if row == "compact_frequent":  # compare's rule: the compact split row's training, plus fusion merges
            train, big = compact
            measured = budgets.measure_variant(train, held, grid, big=big, chains=chains.chains)
            exhaustion = None
        else:
            train = _counts(row, split.train, chains if row == "compact_split" else None)
            measured = budgets.measure_variant(train, held, grid)
            stats = vocabulary_stats(train_as_the_paper(train, vocab_size=EXHAUSTION_VOCAB_SIZE), train)
            exhaustion = {k: stats[k] for k in ("vocabulary", "alphabet", "merges", "special_tokens")}
        if row == "compact_split":
            compact = (train, measured["_big"])
        measured.pop("_big")
        rows[row] = {"held_out_tokens": measured["held_out_tokens"], "budget_exhaustion": measured["exhaustion"],
                     "merge_exhaustion": exhaustion, "distinct_pretokens": len(train),
                     "seconds": round(time.monotonic() - started, 1)}
        print(f"{name}: {row}: {measured['held_out_tokens']} ({rows[row]['seconds']} s)", file=sys.stderr, flush=True)
    base = rows["baseline"]["held_out_tokens"]
    reference = budgets.reference_budget(grid, base)
    target = base[grid.index(reference)]
    for row in rows.values():
        row["delta_tokens_pct"] = [None if n is None or b is None else round((n / b - 1) * 100, 4)
                                   for n, b in zip(row["held_out_tokens"], base)]
        points = [(b, n) for b, n in zip(grid, row["held_out_tokens"]) if n is not None]
        if row["budget_exhaustion"]:
            points.append((row["budget_exhaustion"]["budget"], row["budget_exhaustion"]["held_out_tokens"]))
        row["equal_compression"] = budgets.equal_compression(points, target, reference)
    return {"protocol": name, "budgets": grid, "reference_budget": reference, "reference_tokens": target,
            "exhaustion_vocab_size": EXHAUSTION_VOCAB_SIZE, "rows": rows, "pinned": run_grid.pinned()}


if __name__ == "__main__":
    for protocol in sys.argv[1:]:
        out = run_grid.RESULTS / protocol / "vocabulary.json"
        if not out.exists():
            out.write_text(json.dumps(measure(protocol), indent=1) + "\n")
