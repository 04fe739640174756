"""The follow-ups' blocks of FINDINGS.md and docs/downstream.md (build_findings.py renders them):
placement, inline markers, the learning curve, tokens and vocabulary side by side, the choice
for users, and what is missing. Every number comes from a result file; a missing one is shown
as "not run".
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

HERE = Path(__file__).parent
RESULTS = HERE / "results"
PROTOCOLS = ("code", "udhr-paragraphs")
SEEDS = (0, 1, 2)
SCALES = (1, 2, 4)
LABELS = {"baseline": "baseline", "paper_split": "`paper`, split (groups before the base)",
          "paper_postfix": "`paper`, split, groups after the base", "compact_frequent": "`compact`, `frequent`",
          "compact_split": "`compact`, split", "inline_case": "inline case markers",
          "inline_case_marks": "inline case and mark markers"}
INLINE = ("inline_case", "inline_case_marks")


def bpb(protocol: str, variant: str, seed: int, scale: int = 1) -> float | None:
    middle = "" if scale == 1 else f".tokens{scale}x"
    path = RESULTS / protocol / f"{variant}{middle}.seed{seed}.json"
    return json.loads(path.read_text())["equal_tokens"]["bits_per_byte"] if path.exists() else None


def scores(protocol: str, variant: str, scale: int = 1) -> dict[int, float]:
    return {s: v for s in SEEDS if (v := bpb(protocol, variant, s, scale)) is not None}


def paired(protocol: str, variant: str, reference: str, scale: int = 1) -> list[float]:
    a, b = scores(protocol, variant, scale), scores(protocol, reference, scale)
    return [(a[s] / b[s] - 1) * 100 for s in SEEDS if s in a and s in b]


def pct(values: list[float]) -> str:
    return _over_seeds(values, "{:+.2f}%", "{:.2f}")


def mean(values) -> str:
    return _over_seeds(values, "{:.4f}", "{:.4f}")


def _over_seeds(values, center: str, spread: str) -> str:
    """One value per seed as the mean (written by ``center``) ± the standard deviation (by
    ``spread``), with the seed count where it is not 3."""
    values = list(values)
    if not values:
        return "not run"
    if len(values) == 1:
        return f"{center.format(values[0])} (1 seed)"
    shown = f"{center.format(statistics.mean(values))} ± {spread.format(statistics.stdev(values))}"
    return shown if len(values) == 3 else f"{shown} ({len(values)} seeds)"


def verdict(protocol: str, variant: str, reference: str, scale: int = 1) -> str:
    """'worse'/'better' only when no seed of one lies within the other's range (3 seeds each)."""
    a, b = list(scores(protocol, variant, scale).values()), list(scores(protocol, reference, scale).values())
    if len(a) < 3 or len(b) < 3:
        return "incomplete" if a else "not run"
    if min(a) > max(b):
        return "**worse** (no seed overlap)"
    if max(a) < min(b):
        return "**better** (no seed overlap)"
    return "within the seeds' spread"


def per_seed(protocol: str, variant: str, scale: int = 1) -> str:
    s = scores(protocol, variant, scale)
    return " / ".join(f"{s[k]:.4f}" if k in s else "—" for k in SEEDS)


def placement() -> list[str]:
    rows = ["| protocol | prefix (`paper` split), seeds 0/1/2 | postfix, seeds 0/1/2 | Δ postfix vs prefix (paired) "
            "| postfix vs prefix | Δ postfix vs baseline (paired) |", "|---|---|---|---|---|---|"]
    for p in PROTOCOLS:
        rows.append(f"| {p} | {per_seed(p, 'paper_split')} | {per_seed(p, 'paper_postfix')} | "
                    f"{pct(paired(p, 'paper_postfix', 'paper_split'))} | {verdict(p, 'paper_postfix', 'paper_split')} | "
                    f"{pct(paired(p, 'paper_postfix', 'baseline'))} |")
    return rows


def meta_of(protocol: str, variant: str) -> dict | None:
    path = RESULTS / protocol / (f"{variant}.meta.json" if variant in INLINE + ("paper_postfix",) else "meta.json")
    if not path.exists():
        return None
    return json.loads(path.read_text())["variants"].get(variant)


def inline() -> list[str]:
    rows = ["| protocol | variant | seeds 0/1/2 | Δ vs baseline (paired) | vs baseline | Δ vs `compact`, `frequent` "
            "(paired) | vs `compact`, `frequent` | training tokens (Δ vs baseline) |", "|---|---|---|---|---|---|---|---|"]
    for p in PROTOCOLS:
        base = meta_of(p, "baseline")
        for v in ("baseline", "compact_frequent") + INLINE:
            m = meta_of(p, v)
            tokens = (f"{m['train_tokens']:,} ({(m['train_tokens'] / base['train_tokens'] - 1) * 100:+.2f}%)"
                      if m and base else "not prepared")
            if v == "baseline":
                rows.append(f"| {p} | {LABELS[v]} | {per_seed(p, v)} | | | | | {tokens} |")
                continue
            against_cf = "" if v == "compact_frequent" else pct(paired(p, v, "compact_frequent"))
            cf_verdict = "" if v == "compact_frequent" else verdict(p, v, "compact_frequent")
            rows.append(f"| {p} | {LABELS[v]} | {per_seed(p, v)} | {pct(paired(p, v, 'baseline'))} | "
                        f"{verdict(p, v, 'baseline')} | {against_cf} | {cf_verdict} | {tokens} |")
    return rows


def curve() -> list[str]:
    rows = ["| protocol | training tokens | baseline | `compact`, `frequent` | Δ (paired) | verdict |",
            "|---|---|---|---|---|---|"]
    for p in PROTOCOLS:
        for k in SCALES:
            rows.append(f"| {p} | {k}× ({655_360 * k:,}) | {mean(scores(p, 'baseline', k).values())} | "
                        f"{mean(scores(p, 'compact_frequent', k).values())} | "
                        f"{pct(paired(p, 'compact_frequent', 'baseline', k))} | {verdict(p, 'compact_frequent', 'baseline', k)} |")
    return rows


def vocabulary(protocol: str) -> dict | None:
    path = RESULTS / protocol / "vocabulary.json"
    return json.loads(path.read_text()) if path.exists() else None


def _ec(row: dict) -> str:
    ec = row["equal_compression"]
    if ec["reached"] == "not reached":
        return "not reached"
    bound = "≤ " if ec["reached"] == "at most" else ""
    return f"{bound}{ec['budget']:,.0f} ({ec['delta_pct']:+.1f}%)"


def side_by_side() -> list[str]:
    """Tokens, vocabulary and bits per byte in one table, as compare reports the first two."""
    out = []
    for p in PROTOCOLS:
        v = vocabulary(p)
        if not v:
            out += [f"*{p}: vocabulary.py has not run yet.*", ""]
            continue
        grid = v["budgets"]
        shown = [b for b in (8_000, 16_000, 32_000) if b in grid]
        out += [f"**{p}** (held-out tokens at compare's budgets; equal compression against the baseline at "
                f"{v['reference_budget']:,}; bits per byte of the 8k grid, 3 seeds):", "",
                "| variant | " + " | ".join(f"Δ tokens at {b // 1000}k" for b in shown)
                + " | vocabulary at equal compression | vocabulary at merge exhaustion | bits/byte at 8k | Δ bits/byte (paired) |",
                "|---" * (len(shown) + 5) + "|"]
        for key, row in v["rows"].items():
            deltas = [row["delta_tokens_pct"][grid.index(b)] for b in shown]
            cells = ["ran out" if d is None else ("—" if key == "baseline" else f"{d:+.2f}%") for d in deltas]
            ex = row["merge_exhaustion"]
            exhaustion = f"{ex['vocabulary']:,}" if ex else "none (fusion merges are chosen at a budget)"
            bits = mean(scores(p, key).values()) if key != "compact_split" else "not in the grid"
            delta = pct(paired(p, key, "baseline")) if key not in ("baseline", "compact_split") else ""
            out.append(f"| {LABELS[key]} | " + " | ".join(cells) + f" | {'—' if key == 'baseline' else _ec(row)} | "
                       f"{exhaustion} | {bits} | {delta} |")
        out.append("")
    return out


# Why a cell could not run, where that is known (measured, not guessed).
WHY_MISSING = {("udhr-paragraphs", "inline_case_marks"): (
    " It cannot be prepared from this checkout: compare's held-out rule hashes each paragraph's name, and"
    " the name holds the corpus path as given. The grid read the UDHR from a folder beside the checkout,"
    " before the repository carried it (corpora/udhr/, the same files byte for byte); read from"
    " corpora/udhr/ the same paragraphs give another held-out set (188,465 held-out bytes, not the grid's"
    " 168,547), and variants.prepare_variant refuses it (\"not the grid's text\"). The other cells' streams"
    " were prepared before the move and are the grid's.")}


def missing() -> list[str]:
    out = []
    for p in PROTOCOLS:
        for v in ("paper_postfix",) + INLINE:
            lost = [str(s) for s in SEEDS if bpb(p, v, s) is None]
            if lost:
                out.append(f"- {p}, {LABELS[v]}: seeds {', '.join(lost)}." + WHY_MISSING.get((p, v), ""))
        for k in SCALES[1:]:
            for v in ("baseline", "compact_frequent"):
                lost = [str(s) for s in SEEDS if bpb(p, v, s, k) is None]
                if lost:
                    out.append(f"- {p}, {LABELS[v]}, {k}× the training tokens: seeds {', '.join(lost)}.")
        if not vocabulary(p):
            out.append(f"- {p}: the vocabulary table (vocabulary.py).")
    out.append("- The scale grid (research/scale/): **not run: no GPU machine was lent to this task.** The harness "
               "runs end to end on CPU with `--device cpu --tiny`; research/scale/README.md gives the GPU commands.")
    return out or ["- none"]


def _one(values: list[float]) -> str:
    if not values:
        return "not run"
    return f"{statistics.mean(values):+.1f}%" + ("" if len(values) == 3 else f" ({len(values)} seeds)")


def _tokens_at(p: str, key: str, budget: int) -> str:
    v = vocabulary(p)
    if not v or budget not in v["budgets"]:
        return "not measured"
    d = v["rows"][key]["delta_tokens_pct"][v["budgets"].index(budget)]
    return "ran out" if d is None else f"{d:+.1f}%"


def _vocab_at(p: str, key: str) -> str:
    v = vocabulary(p)
    return _ec(v["rows"][key]) if v else "not measured"


def _per_protocol(cell) -> str:
    return "; ".join(f"{p}: {cell(p)}" for p in PROTOCOLS)


def choice() -> list[str]:
    """Which profile for which goal, with the numbers that back it (read from the results)."""
    bits = {p: {k: _one(paired(p, k, "baseline")) for k in ("compact_frequent", "paper_split", "inline_case")}
            for p in PROTOCOLS + ("prose",)}
    return [
        "| goal | choose | the numbers (against plain BPE at the same budget) | measured where |",
        "|---|---|---|---|",
        "| fewer tokens at a fixed vocabulary budget | `compact`, `frequent` (`Tokenizer.train`'s default) | "
        "held-out tokens at 8k / 32k: " + _per_protocol(lambda p: f"{_tokens_at(p, 'compact_frequent', 8_000)} / "
                                                             f"{_tokens_at(p, 'compact_frequent', 32_000)}")
        + " | this study's corpora (vocabulary.py, compare's rules); compare's own corpora in the README |",
        "| the smallest vocabulary for the baseline's compression | `compact`, `frequent` | vocabulary at equal "
        "compression (against 32k): " + _per_protocol(lambda p: _vocab_at(p, "compact_frequent")) + " | the same |",
        "| the best small model per byte of text | plain BPE (no codec) on code and multilingual text; "
        "`compact`, `frequent` on English prose | bits per byte, `compact`/`frequent`: "
        + "; ".join(f"{p}: {bits[p]['compact_frequent']}" for p in PROTOCOLS + ("prose",))
        + "; inline case markers: " + "; ".join(f"{p}: {bits[p]['inline_case']}" for p in PROTOCOLS)
        + " | a 1.4M-parameter GPT at 8k, 655k training tokens, 3 seeds; not measured above that scale |",
        "| the paper's numbers, or a shared base for every cased or marked form | `paper` | held-out tokens: "
        + _per_protocol(lambda p: f"{_paper_tokens(p)}") + "; bits per byte: "
        + "; ".join(f"{p}: {bits[p]['paper_split']}" for p in PROTOCOLS) + " | the same grid |",
    ]


def _paper_tokens(p: str) -> str:
    m = json.loads((RESULTS / p / "meta.json").read_text()) if (RESULTS / p / "meta.json").exists() else None
    if not m:
        return "not measured"
    v = m["variants"]
    return f"{(v['paper_split']['held_out_tokens_all'] / v['baseline']['held_out_tokens_all'] - 1) * 100:+.1f}% at 8k"


def pins() -> list[str]:
    """The commits the follow-ups' result files ran at (each file's own pin)."""
    found: dict[str, int] = {}
    for p in PROTOCOLS:
        for path in sorted((RESULTS / p).glob("*.json")):
            if path.name.startswith(("paper_postfix.", "inline_case", "vocabulary")) or ".tokens" in path.name:
                if "meta" in path.name:
                    continue
                pin = json.loads(path.read_text()).get("pinned", {})
                key = (f"commit `{pin.get('commit', '?')}` (python/functok "
                       f"{'modified' if pin.get('functok_dirty') else 'clean'}), torch {pin.get('torch')}, "
                       f"tokenizers {pin.get('tokenizers')}, CPython {pin.get('python')}")
                found[key] = found.get(key, 0) + 1
    return [f"- {k}: {n} result file{'s' if n > 1 else ''}" for k, n in sorted(found.items())] or ["- none yet"]


def blocks() -> dict[str, list[str]]:
    return {"FOLLOWUPS_PINS": pins(), "FOLLOWUPS_PLACEMENT": placement(), "FOLLOWUPS_INLINE": inline(), "FOLLOWUPS_CURVE": curve(),
            "FOLLOWUPS_TABLE": side_by_side(), "FOLLOWUPS_MISSING": missing(), "FOLLOWUPS_CHOICE": choice()}


def conclusions() -> list[str]:
    """One sentence per question and protocol, from the numbers alone."""
    out = []
    for p in PROTOCOLS:
        d = paired(p, "paper_postfix", "paper_split")
        out.append(f"- Placement, {p}: groups after the base against before it, {pct(d)} bits per byte (paired by "
                   f"seed): {verdict(p, 'paper_postfix', 'paper_split')}." if d else f"- Placement, {p}: not run yet.")
        for v in INLINE:
            d = paired(p, v, "baseline")
            if d:
                out.append(f"- {LABELS[v].capitalize()}, {p}: {pct(d)} against the baseline "
                           f"({verdict(p, v, 'baseline')}), {pct(paired(p, v, 'compact_frequent'))} against "
                           f"`compact`/`frequent` ({verdict(p, v, 'compact_frequent')}).")
            elif v == "inline_case":
                out.append(f"- {LABELS[v].capitalize()}, {p}: not run yet.")
        for k in SCALES[1:]:
            d = paired(p, "compact_frequent", "baseline", k)
            if d:
                out.append(f"- Learning curve, {p}, {k}× the training tokens: `compact`/`frequent` {pct(d)} against "
                           f"the baseline ({verdict(p, 'compact_frequent', 'baseline', k)}; at 1×: "
                           f"{pct(paired(p, 'compact_frequent', 'baseline'))}).")
    return out
