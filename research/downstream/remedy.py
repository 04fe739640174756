"""One remedy for the harm measured on udhr-paragraphs, as an encoder option.

The loss by token kind and by unit class (FINDINGS.md) puts udhr-paragraphs' harm in the words
that carry a combining mark, and the mark instructions are the costliest instruction family.
The remedy measured here is ``compact``/``frequent`` with the **marks family switched off**
(the encoder's ``features`` option, ``{"case", "repeat"}``): a marked letter stays composed in
the base (NFC), as in the baseline, while case and repeats stay instructions. Research only: the
spec is unchanged, and ``features`` is the encoder's existing ablation switch.

The tokenizer is trained exactly as prepare.py trains ``compact_frequent`` (compare's counting,
training, budget cut and fusion merges), only with that pre-tokenizer. Its streams go to their
own cache directory, ``cache/<protocol>.remedy/``, with the protocol's meta (the baseline's
entry is the one in results/<protocol>/meta.json, whose evaluation text this run checks it
shares). Cells are scored and stored like the grid's: results/<protocol>/<REMEDY>.seed<N>.json.

    cd research/downstream
    PYTHONPATH=../../python nohup nice -n 19 ../../.venv-torch/bin/python remedy.py --commit > grid-remedy.log 2>&1 &
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from functok.commands.compare import budgets
from functok.encoding import encoded_pieces
from functok.pretokenize import chained, has_group
from functok.pretokenize import pretokens as codec_pretokens
from functok.tokenizer.fusion import ChainCounter

import prepare
import protocols
import run_grid
from kinds import KINDS

REMEDY = "compact_frequent_nomarks"
REMEDY_FEATURES = frozenset({"case", "repeat"})  # the marks family off
PROTOCOL = "udhr-paragraphs"


@dataclass(frozen=True)
class FeatureVariant(budgets.BudgetVariant):
    """A row of compare's variant table with the encoder's ``features`` set (an ablation)."""

    features: frozenset = frozenset()

    def pretokenize(self, splitter: str):
        profile, fuse, features = self.profile, self.fuse, self.features
        return lambda text: codec_pretokens(text, splitter=splitter, fuse=fuse, profile=profile, features=features)


SPLIT_ROW = FeatureVariant(f"{REMEDY}_split", "compact, split, marks off", "compact", "none", features=REMEDY_FEATURES)
ROW = FeatureVariant(REMEDY, "compact, frequent, marks off", "compact", "frequent", features=REMEDY_FEATURES)


def train(split) -> dict:
    """As prepare.train_tokenizers trains compact_frequent: the split row's training, then the
    fusion merges of its chains at the budget."""
    chains = ChainCounter()
    counts = budgets.pretoken_counts(SPLIT_ROW, prepare.SPLITTER, split.train, chains)
    trained = budgets.train_at_budget(counts, prepare.BUDGET)
    return budgets.model_at(trained, prepare.BUDGET, counts, chains.chains)


def units_of_tokens(text: str, pre: list[str], tokens: dict) -> list[int]:
    """The unit (a context chain of the full-feature compact profile, as prepare._units) of each
    token. The remedy's chains are finer (fewer pieces carry a group), so each lies inside one
    unit; that is checked."""
    enc = encoded_pieces(text, splitter=prepare.SPLITTER, profile="compact", features=REMEDY_FEATURES)
    own = list(chained(range(len(enc)), lambda i: has_group(enc[i])))
    assert ["".join(enc[i] for i in c) for c in own] == pre, "remedy chains differ from its pre-tokens"
    unit_of_piece = {i: u for u, unit in enumerate(prepare._units(text)) for i in unit}
    out = []
    for c, p in zip(own, pre):
        (u,) = {unit_of_piece[i] for i in c}
        out.extend([u] * len(tokens[p]))
    return out


def prepare_remedy(name: str = PROTOCOL) -> Path:
    out = prepare.CACHE / f"{name}.remedy"
    if (out / "meta.json").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    kept = json.loads((run_grid.RESULTS / name / "meta.json").read_text())
    split = protocols.PROTOCOLS[name]()
    started = time.monotonic()
    model = train(split)
    print(f"{name}: remedy tokenizer trained in {time.monotonic() - started:.0f} s", file=sys.stderr)
    train_bytes = prepare.grid_train_bytes(split, kept)
    train_ids, strings, eval_pre, eval_ids, tokens = prepare.variant_ids(model, ROW.pretokenize(prepare.SPLITTER),
                                                                         split)
    units = [units_of_tokens(text, pre, tokens) for text, pre in zip(split.evaluation, eval_pre)]
    eval_classes = prepare.grid_classes(kept, split, units, eval_ids)
    held = budgets.pretoken_counts(ROW, prepare.SPLITTER, split.held)
    train_tokens = sum(map(len, train_ids))
    meta = dict(kept, variants={"baseline": kept["variants"]["baseline"], REMEDY: {
        "label": ROW.label, "profile": ROW.profile, "fuse": ROW.fuse, "features": sorted(REMEDY_FEATURES),
        "entries": len(strings), "train_tokens": train_tokens, "train_bytes_per_token": train_bytes / train_tokens,
        "eval_tokens": sum(map(len, eval_ids)), "held_out_tokens_all": budgets.held_out_tokens(model, held)}},
        kinds=list(KINDS))
    prepare.save_streams(out, REMEDY, model, train_ids, eval_ids, strings, eval_classes)
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    print(f"{name}: {REMEDY}: {train_tokens:,} training tokens, {meta['variants'][REMEDY]['eval_tokens']:,} eval "
          f"tokens", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", action="store_true")
    parser.add_argument("--seeds", nargs="*", type=int, default=list(run_grid.SEEDS))
    parser.add_argument("--points", nargs="*", default=["equal_tokens", "equal_bytes"],
                        choices=["equal_tokens", "equal_bytes"])
    args = parser.parse_args()
    cache = prepare_remedy()
    remedy_meta = run_grid.RESULTS / PROTOCOL / f"{REMEDY}.meta.json"
    if not remedy_meta.exists():
        remedy_meta.write_text((cache / "meta.json").read_text())
    for point in args.points:  # the remedy's bytes per token differ from the baseline's by 2%: its own equal-bytes runs
        for seed in args.seeds:
            run_grid.run(PROTOCOL, REMEDY, seed, point, cache, args.commit, extra=[remedy_meta])
    return 0


if __name__ == "__main__":
    sys.exit(main())
