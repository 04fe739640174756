"""The equal-budget comparison of ``functok compare``: held-out tokens at a fixed vocabulary size.

The paper compares vocabularies at merge exhaustion. A tokenizer's user instead fixes a budget
(16k, 32k, ... entries) and pays for every token, so this part trains every variant to the same
budgets and counts the held-out tokens:

* the **tokenizer** is the kind :meth:`functok.Tokenizer.train` makes: character-level Hugging
  Face BPE with byte fallback, no special tokens, ``min_frequency=0``; a budget counts every
  entry, the 256 byte tokens included (the trainer gets ``budget - 256``);
* the **variants** are one table, :data:`BUDGET_VARIANTS`: the baseline (NFC + splitter), each
  profile (``paper``, ``compact``) with ``fuse="none"`` (split) and ``"all"`` (fused), and
  ``compact`` with ``"frequent"`` (context chains and fusion merges, spec 9.4; it reuses the
  compact split row's training and adds the fusion merges at each budget);
* **one training per variant**, at the largest budget, serves every budget: Hugging Face's
  ``BpeTrainer`` picks merges greedily, so the merges of a smaller budget are exactly a prefix of
  a larger run's (measured in ``research/equal-budget/FINDINGS.md``, Q1; ``tests/commands/test_compare_budgets.py``
  checks it). :func:`truncate` cuts the large run by the result token's id. A budget whose
  alphabet does not fit (more distinct characters than ``budget - 256``) is trained on its own,
  with the alphabet ``Tokenizer.train`` keeps, since there the prefix property does not hold;
* the **headline figures** per variant: Δ held-out tokens against the baseline at the same
  budget, and the **vocabulary at equal compression**: the budget the variant needs to reach the
  baseline's held-out tokens at the reference budget (32,000, or the largest budget the baseline
  reaches when 32,000 is not one of them or the corpus runs out before it), interpolated linearly
  in log(budget) between trained points, as Δ% against the reference; "not reached" when even the
  largest trained point falls short;
* the **redundancy ceiling** of the baseline vocabulary at each budget: the trained entries that
  carry case or one of the 13 marks and whose functok base (features case and marks) is itself an
  entry, as a share of the budget (and of the trained entries). It bounds what base sharing can
  save: each such entry is a second copy of a base that the vocabulary already holds.

A variant whose merges run out before a budget has no count at that budget ("ran out"); the
tokenizer it has at exhaustion is one more trained point (at its real size) for the
interpolation and the chart.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...encoding import pieces as codec_pieces
from ...tokenizer.fusion import ChainCounter, add_fusion_merges, greedy_tokens, merges_of, truncate
from ...tokenizer.train import MAX_VOCAB_SIZE
from ...engine import pretokens as codec_pretokens
from ...normalize import nfc
from ...splitting import split

__all__ = ["BUDGET_VARIANTS", "BudgetVariant", "DEFAULT_BUDGETS", "REFERENCE_BUDGET", "available_variants",
           "ceiling", "equal_budget", "equal_compression", "held_out_tokens", "model_at", "parse_budgets",
           "pretoken_counts", "reference_budget", "size", "train_at_budget", "truncate"]

BYTE_TOKENS = 256
DEFAULT_BUDGETS = (8_000, 11_314, 16_000, 22_627, 32_000, 45_255, 64_000)  # a sqrt(2) grid
REFERENCE_BUDGET = 32_000
_CEILING_FEATURES = frozenset({"case", "marks"})


# --- The variants: one table --------------------------------------------------------------


@dataclass(frozen=True)
class BudgetVariant:
    """One way of cutting text into pre-tokens for the equal-budget table.

    ``profile`` None is the baseline (NFC + splitter, no codec); any other is the encoder
    profile (``functok.PROFILES``). ``fuse`` is the pre-token rule of spec 9: "none" (every
    instruction its own pre-token), "all" (group and base one pre-token) or "frequent" (context
    chains, trained as "none" of the same profile plus fusion merges: the row reuses that
    variant's training, so it comes after it in :data:`BUDGET_VARIANTS`).
    """

    key: str  # the name in report.json
    label: str  # the name in the tables
    profile: str | None
    fuse: str | None = None  # "none" | "all" | "frequent"; None for the baseline
    colour: str = "#444444"  # its line in the chart

    @property
    def split_operators(self) -> bool | None:
        return None if self.fuse is None else self.fuse != "all"

    def available(self) -> bool:
        return self.profile is None or _has_profile(self.profile)

    def pretokenize(self, splitter: str) -> Callable[[str], list[str]]:
        if self.profile is None:
            return lambda text: split(nfc(text), splitter=splitter)
        profile, fuse = self.profile, self.fuse
        return lambda text: codec_pretokens(text, splitter=splitter, fuse=fuse, profile=profile)


def _has_profile(name: str) -> bool:
    import functok

    return name in functok.PROFILES


BUDGET_VARIANTS = (
    BudgetVariant("baseline", "baseline (NFC + split)", None, colour="#1f77b4"),
    BudgetVariant("paper_split", "paper, split", "paper", "none", colour="#d62728"),
    BudgetVariant("paper_fused", "paper, fused", "paper", "all", colour="#ff7f0e"),
    BudgetVariant("compact_split", "compact, split", "compact", "none", colour="#2ca02c"),
    BudgetVariant("compact_fused", "compact, fused", "compact", "all", colour="#9467bd"),
    BudgetVariant("compact_frequent", "compact, frequent", "compact", "frequent", colour="#17becf"),
)
# The exhaustion table's variants whose pre-tokens are the same (compare counts them already).
SAME_AS_EXHAUSTION = {"baseline": "baseline", "paper_split": "functionalizer", "paper_fused": "joined"}


def available_variants() -> tuple[BudgetVariant, ...]:
    return tuple(v for v in BUDGET_VARIANTS if v.available())


def parse_budgets(text: str) -> tuple[int, ...]:
    """``"8000,16000,32k"`` -> (8000, 16000, 32000), sorted, without repeats; ValueError names
    what is wrong. ``k`` means thousands. Each budget is from 257 to :data:`MAX_VOCAB_SIZE`."""
    budgets = []
    for part in text.split(","):
        part = part.strip().lower().replace("_", "")
        if not part:
            continue
        scale = 1000 if part.endswith("k") else 1
        try:
            value = int(part[:-1] if scale > 1 else part) * scale
        except ValueError:
            raise ValueError(f"{part!r} is not a whole number") from None
        if value <= BYTE_TOKENS:
            raise ValueError(f"{value} leaves no room for a trained token: a budget counts the "
                             f"{BYTE_TOKENS} byte tokens, so it must be at least {BYTE_TOKENS + 1}")
        if value > MAX_VOCAB_SIZE:  # the trainer would abort the interpreter, or overflow
            raise ValueError(f"{value:,} is over the maximum budget, {MAX_VOCAB_SIZE:,} (2**24, the largest "
                             f"vocab_size Tokenizer.train takes: the trainer reserves memory for every entry)")
        budgets.append(value)
    if not budgets:
        raise ValueError("no budget given")
    return tuple(sorted(set(budgets)))


# --- Training, truncation, counting ---------------------------------------------------------


def alphabet_size(counts: Counter) -> int:
    return len(set("".join(counts)))


def train_at_budget(counts: Counter, budget: int, *, progress: bool = False) -> dict:
    """Train on pre-token counts as :meth:`functok.Tokenizer.train` does (byte fallback, no
    special tokens, min_frequency 0, the most frequent characters when the alphabet does not
    fit); the trainer's ``tokenizer.json`` as a dict, without the byte tokens."""
    from ...tokenizer.train import kept_alphabet
    from ...tokenizer.train import train_counts

    room = budget - BYTE_TOKENS
    return train_counts(counts, room, alphabet=kept_alphabet(counts, room), show_progress=progress)


def size(trained: dict) -> int:
    """The budget a trained tokenizer fills: its entries and the 256 byte tokens."""
    return len(trained["model"]["vocab"]) + BYTE_TOKENS


def held_out_tokens(trained: dict, held: Counter) -> int:
    """Greedy BPE tokens of the held-out pre-tokens (each distinct one encoded once)."""
    tokens = greedy_tokens(trained, held)
    return sum(len(tokens[word]) * n for word, n in held.items())


# --- The redundancy ceiling -----------------------------------------------------------------


def ceiling_base(entry: str) -> str:
    """An entry with its case and mark instructions removed: functok's bases (features case
    and marks, no normalization)."""
    return "".join(p.base for p in codec_pieces(entry, normalize=None, features=_CEILING_FEATURES))


def ceiling(entries: Sequence[str], budget: int) -> dict[str, Any]:
    """The redundancy ceiling of a vocabulary (the module docstring says what it bounds): of its
    trained ``entries`` (byte tokens left out: they are not text), those that carry case or one
    of the 13 marks (their base differs), and those whose base is itself an entry, as a share of
    ``budget`` (the byte tokens counted, as a budget counts them) and of the trained entries."""
    vocab = set(entries)
    variant = [t for t in vocab if ceiling_base(t) != t]
    with_base = [t for t in variant if ceiling_base(t) in vocab]
    return {
        "budget": budget,
        "trained_entries": len(vocab),
        "variant_entries": len(variant),
        "with_base": len(with_base),
        "ceiling_pct": round(len(with_base) / budget * 100, 4) if budget else None,
        "ceiling_of_trained_pct": round(len(with_base) / len(vocab) * 100, 4) if vocab else None,
    }


# --- Vocabulary at equal compression -------------------------------------------------------


def equal_compression(points: Sequence[tuple[int, int]], target: int, reference: int) -> dict[str, Any]:
    """The budget at which a variant's held-out tokens fall to ``target``, from its trained
    ``points`` [(budget, tokens)], linear in log(budget) between the two points around the first
    crossing, and its Δ% against ``reference``. ``reached`` is "interpolated", "at most" (the
    smallest point already reaches the target: the budget is a bound) or "not reached"."""
    pts = sorted(points)
    if not pts:
        return {"reached": "not reached", "budget": None, "delta_pct": None}
    if pts[0][1] <= target:  # exactly there, or already below at the smallest point: a bound
        b = pts[0][0]
        return {"reached": "interpolated" if pts[0][1] == target else "at most",
                "budget": b, "delta_pct": round((b / reference - 1) * 100, 4)}
    for (b0, n0), (b1, n1) in zip(pts, pts[1:]):
        if n0 > target >= n1:
            x = math.log(b0) + (n0 - target) / (n0 - n1) * (math.log(b1) - math.log(b0))
            b = math.exp(x)
            return {"reached": "interpolated", "budget": round(b, 1), "delta_pct": round((b / reference - 1) * 100, 4)}
    return {"reached": "not reached", "budget": None, "delta_pct": None}


def reference_budget(budgets: Sequence[int], baseline_tokens: Sequence[int | None]) -> int | None:
    """32,000 when it is a budget the baseline reaches, else the largest budget it reaches."""
    reached = [b for b, n in zip(budgets, baseline_tokens) if n is not None]
    if not reached:
        return None
    return REFERENCE_BUDGET if REFERENCE_BUDGET in reached else max(reached)


# --- One corpus ---------------------------------------------------------------------------


def measure_variant(train: Counter, held: Counter, budgets: Sequence[int], *, progress: bool = False,
                    keep_vocabularies: bool = False, big: dict | None = None,
                    chains: Counter | None = None) -> dict[str, Any]:
    """One variant at every budget: one training at the largest (``big`` when given; one more
    per budget whose alphabet does not fit), truncated to the others; held-out tokens per budget
    (None where the merges ran out) and the tokenizer at exhaustion when they ran out before the
    largest. With ``chains`` (the training chains of spec 9.4) ``train`` holds the split
    pre-tokens and each budget gets its fusion merges (:func:`add_fusion_merges`)."""
    budgets = sorted(budgets)
    alphabet = alphabet_size(train)
    largest = budgets[-1]
    started = time.monotonic()
    trainings = 0
    if big is None:
        big, trainings = train_at_budget(train, largest, progress=progress), 1
    tokens: list[int | None] = []
    vocabularies: list[list[str] | None] = []
    for budget in budgets:
        source = big
        if budget != largest and alphabet > budget - BYTE_TOKENS:  # the kept alphabet differs: no prefix
            source = train_at_budget(train, budget, progress=progress)
            trainings += 1
        cut = model_at(source, budget, train, chains)
        tokens.append(None if cut is None else held_out_tokens(cut, held))
        vocabularies.append(None if cut is None else list(cut["model"]["vocab"]))
    exhaustion = None
    if tokens[-1] is None:  # merges ran out: the whole training is one more point
        whole = big if chains is None else add_fusion_merges(big, train, chains, largest)
        exhaustion = {"budget": size(whole), "held_out_tokens": held_out_tokens(whole, held)}
    row: dict[str, Any] = {
        "alphabet": alphabet,
        "trainings": trainings,
        "held_out_tokens": tokens,
        "exhaustion": exhaustion,
        "seconds": round(time.monotonic() - started, 2),
        "_big": big,
    }
    if keep_vocabularies:
        row["_vocabularies"] = vocabularies
    return row


def model_at(trained: dict, budget: int, train: Counter, chains: Counter | None) -> dict | None:
    """The variant's model at ``budget`` from a training at that budget or more (``trained``,
    from :func:`train_at_budget` on the pre-token counts ``train``): the training truncated, or
    with ``chains`` (a fused variant's chain counts) the fusion merges added to it. None when
    the merges ran out before ``budget``."""
    if chains is None:
        return truncate(trained, budget)
    fused = add_fusion_merges(trained, train, chains, budget)
    return fused if size(fused) >= budget else None


def pretoken_counts(variant: BudgetVariant, splitter: str, texts: Sequence[str],
                    chains: ChainCounter | None = None) -> Counter:
    """How often each pre-token of ``variant`` (anything with ``pretokenize(splitter)``) stands
    in ``texts``, as :func:`train_at_budget` takes them; with ``chains``, each text's pre-tokens
    are also added to it, for a fused variant's fusion merges."""
    pretokenize = variant.pretokenize(splitter)
    counts: Counter = Counter()
    for text in texts:
        found = pretokenize(text)
        counts.update(found)
        if chains is not None:
            chains.update(found)
    return counts


def equal_budget(train_texts: Sequence[str], held_texts: Sequence[str], *, splitter: str, budgets: Sequence[int],
                 counted: dict[str, tuple[Counter, Counter]] | None = None, progress: bool = False,
                 log: Callable[[str], None] = lambda s: None, name: str = "corpus") -> dict[str, Any]:
    """The equal-budget section of one corpus (the dict report.json holds under
    ``equal_budget``). ``counted``: pre-token counts (training, held-out) already made, by
    variant key, so that compare does not count them twice."""
    budgets = sorted(set(budgets))
    counted = dict(counted or {})
    variants: dict[str, Any] = {}
    ceilings: list[dict | None] = []
    available = available_variants()
    fused_profiles = {v.profile for v in available if v.fuse == "frequent"}
    # profile -> what its "frequent" row reuses of its split row: the counts, the training, the chains
    splits: dict[str, dict[str, Any]] = {}
    for variant in available:
        started = time.monotonic()
        extra: dict[str, Any] = {}
        chains = None
        if variant.fuse == "frequent":  # its split row comes first in BUDGET_VARIANTS
            train, extra = splits[variant.profile]["train"], splits[variant.profile]["reused"]
            held = pretoken_counts(variant, splitter, held_texts)
        else:
            chains = ChainCounter() if variant.fuse == "none" and variant.profile in fused_profiles else None
            if variant.key in counted and chains is None:
                train, held = counted[variant.key]
            else:
                train = pretoken_counts(variant, splitter, train_texts, chains)
                held = pretoken_counts(variant, splitter, held_texts)
        counting = time.monotonic() - started
        row = measure_variant(train, held, budgets, progress=progress, keep_vocabularies=variant.key == "baseline",
                              **extra)
        big = row.pop("_big")
        if chains is not None:
            splits[variant.profile] = {"train": train, "reused": {"big": big, "chains": chains.chains}}
        if variant.key == "baseline":
            ceilings = [None if v is None else ceiling(v, b) for b, v in zip(budgets, row.pop("_vocabularies"))]
        row = {"label": variant.label, "profile": variant.profile, "fuse": variant.fuse,
               "split_operators": variant.split_operators, "distinct_pretokens": len(train),
               "held_out_pretokens": sum(held.values()), **row}
        row["seconds"] = round(row["seconds"] + counting, 2)
        variants[variant.key] = row
        shown = ", ".join("ran out" if n is None else f"{n:,}" for n in row["held_out_tokens"])
        log(f"{name}: equal budget: {variant.label}: held-out tokens {shown} ({row['seconds']} s)")
    base = variants["baseline"]["held_out_tokens"]
    reference = reference_budget(budgets, base)
    target = None if reference is None else base[budgets.index(reference)]
    for key, row in variants.items():
        row["delta_tokens_pct"] = [None if n is None or b is None else round((n / b - 1) * 100, 4)
                                   for n, b in zip(row["held_out_tokens"], base)]
        row["delta_tokens_at_reference_pct"] = (None if reference is None
                                                else row["delta_tokens_pct"][budgets.index(reference)])
        points = [(b, n) for b, n in zip(budgets, row["held_out_tokens"]) if n is not None]
        if row["exhaustion"]:
            points.append((row["exhaustion"]["budget"], row["exhaustion"]["held_out_tokens"]))
        row["equal_compression"] = (equal_compression(points, target, reference) if target is not None
                                    else {"reached": "not reached", "budget": None, "delta_pct": None})
    return {
        "budgets": budgets,
        "reference_budget": reference,
        "reference_tokens": target,
        "variants": variants,
        "ceiling": ceilings,
    }


PROTOCOL = {
    "tokenizer": "character-level Hugging Face BPE with byte fallback, as functok.Tokenizer.train "
                 "trains it: no special tokens, min_frequency 0; a budget counts every entry, the 256 "
                 "byte tokens included",
    "truncation": "one training per variant at the largest budget, cut to each smaller one by the "
                  "result token's id (entries with id < budget - 256, merges before the first whose "
                  "result lies beyond); a budget whose alphabet does not fit is trained on its own",
    "fusion": "fuse=frequent rows: the split row's training of the same profile, cut to budget - K, "
              "plus K fusion merges chosen on the training chains (functok.tokenizer.fusion, the K "
              "rule); held-out pre-tokens are chains (spec 9.4)",
    "held_out_tokens": "greedy BPE ids of the held-out pre-tokens (the same held-out documents as "
                       "the exhaustion table)",
    "equal_compression": "the budget at which the variant's held-out tokens reach the baseline's at "
                         "the reference budget, linear in log(budget) between trained points, as a "
                         "delta against the reference",
    "ceiling": "baseline entries with case or one of the 13 marks whose functok base (features "
               "case, marks) is also an entry, per budget (variant_ceiling.py's definition)",
}
