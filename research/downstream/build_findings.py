"""Write FINDINGS.md (and the docs page docs/downstream.md) from results/: every number in them
comes from a result file; a cell without its file is shown as "not run", never filled in.

    cd research/downstream && PYTHONPATH=../../python python3 build_findings.py
"""

from __future__ import annotations

import json
import shutil
import statistics
from pathlib import Path

import build_followups

HERE = Path(__file__).parent
RESULTS, CACHE = HERE / "results", HERE / "cache"
DOCS = HERE.parents[1] / "docs" / "downstream.md"
ORDER = ("udhr-languages", "udhr-paragraphs", "code", "prose")  # protocols.ORDER, without importing functok
VARIANTS = ("baseline", "paper_split", "compact_frequent")
LABELS = {"baseline": "baseline (NFC + split)", "paper_split": "`paper`, split", "compact_frequent": "`compact`, `frequent`",
          "compact_frequent_nomarks": "`compact`, `frequent`, marks off"}
REMEDY = "compact_frequent_nomarks"  # remedy.py: item 4's remedy, on REMEDY_PROTOCOL only
REMEDY_PROTOCOL = "udhr-paragraphs"
SEEDS = (0, 1, 2)
POINTS = {"equal_tokens": "equal training tokens", "equal_bytes": "equal training bytes"}


def meta(protocol: str) -> dict | None:
    kept, made = RESULTS / protocol / "meta.json", CACHE / protocol / "meta.json"
    if not kept.exists() and made.exists():
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(made, kept)  # the data's description travels with the results
    return json.loads(kept.read_text()) if kept.exists() else None


SAME_BYTES = 0.01  # cell.SAME_BYTES: an equal-bytes run this close to equal tokens is not made


def cells(metas: dict) -> dict[tuple[str, str, int], dict]:
    """Every result by (protocol, variant, seed): its equal-tokens score, and its equal-bytes
    score from its own run, or from the equal-tokens run where the bytes differ by at most
    SAME_BYTES (then ``same_run`` is set)."""
    out = {}
    for protocol in ORDER:
        for variant in VARIANTS + ((REMEDY,) if protocol == REMEDY_PROTOCOL else ()):
            for seed in SEEDS:
                path = RESULTS / protocol / f"{variant}.seed{seed}.json"
                if not path.exists():
                    continue
                cell = json.loads(path.read_text())
                extra = RESULTS / protocol / f"{variant}.equal_bytes.seed{seed}.json"
                if extra.exists():
                    cell["equal_bytes"] = json.loads(extra.read_text())["equal_bytes"]
                elif abs(cell["bytes_ratio"] - 1) <= SAME_BYTES:
                    cell["equal_bytes"] = dict(cell["equal_tokens"], same_run=True)
                out[protocol, variant, seed] = cell
    return out


def have(grid: dict, protocol: str, variant: str, seed: int, point: str) -> bool:
    return point in grid.get((protocol, variant, seed), {})


def mean_std(values: list[float], digits: int = 4) -> str:
    if not values:
        return "not run"
    m = statistics.mean(values)
    if len(values) == 1:
        return f"{m:.{digits}f} (1 seed)"
    s = statistics.stdev(values)
    shown = f"{m:.{digits}f} ± {s:.{digits}f}"
    return shown if len(values) == 3 else f"{shown} ({len(values)} seeds)"


def paired_deltas(grid: dict, protocol: str, variant: str, point: str, without_bytes: bool = False) -> list[float]:
    """Δ% of the variant against the baseline of the same seed."""
    out = []
    for seed in SEEDS:
        a, b = grid.get((protocol, variant, seed)), grid.get((protocol, "baseline", seed))
        if have(grid, protocol, variant, seed, point) and have(grid, protocol, "baseline", seed, point):
            out.append((bpb(a[point], without_bytes) / bpb(b[point], without_bytes) - 1) * 100)
    return out


def verdict(grid: dict, protocol: str, variant: str, point: str, without_bytes: bool = False,
            reference: str = "baseline") -> str:
    """'worse'/'better' when every seed of the variant lies beyond every seed of the baseline
    (the seeds' ranges do not overlap), 'within the seeds' spread' otherwise."""
    v = [bpb(grid[protocol, variant, s][point], without_bytes) for s in SEEDS if have(grid, protocol, variant, s, point)]
    b = [bpb(grid[protocol, reference, s][point], without_bytes) for s in SEEDS
         if have(grid, protocol, reference, s, point)]
    if len(v) < 3 or len(b) < 3:
        return "incomplete"
    if min(v) > max(b):
        return "**worse** (no seed overlap)"
    if max(v) < min(b):
        return "**better** (no seed overlap)"
    return "within the seeds' spread"


def status_table(grid: dict) -> list[str]:
    rows = ["| protocol | " + " | ".join(LABELS[v] for v in VARIANTS) + " |", "|---|---|---|---|"]
    for protocol in ORDER:
        done = [", ".join(str(s) for s in SEEDS if (protocol, v, s) in grid) or "none" for v in VARIANTS]
        rows.append(f"| {protocol} | " + " | ".join((f"seeds {d}" if "," in d else f"seed {d}") if d != "none"
                                                    else "not run" for d in done) + " |")
    return rows


def bytes_status(grid: dict, metas: dict) -> list[str]:
    rows = ["| protocol | " + " | ".join(LABELS[v] for v in VARIANTS[1:]) + " |", "|---|---|---|"]
    for protocol in ORDER:
        m = metas.get(protocol)
        if not m:
            rows.append(f"| {protocol} | not prepared yet | not prepared yet |")
            continue
        shown = []
        for v in VARIANTS[1:]:
            r = m["variants"]["baseline"]["train_bytes_per_token"] / m["variants"][v]["train_bytes_per_token"]
            if abs(r - 1) <= SAME_BYTES:
                shown.append(f"tokens ratio {r:.3f}: the equal-tokens run stands for it")
            else:
                done = [s for s in SEEDS if (RESULTS / protocol / f"{v}.equal_bytes.seed{s}.json").exists()]
                shown.append(f"tokens ratio {r:.3f}: own run, seeds {', '.join(map(str, done)) or 'none'} done")
        rows.append(f"| {protocol} | " + " | ".join(shown) + " |")
    return rows


def discarded() -> list[str]:
    """The first, constant-learning-rate runs: one run scored at two nearby steps."""
    rows = ["| cell | step | bits/byte | step | bits/byte | Δ between the two steps |", "|---|---|---|---|---|---|"]
    for path in sorted((HERE / "results-constant-lr-udhr-languages").glob("*.seed*.json")):
        r = json.loads(path.read_text())
        a, b = r["equal_tokens"], r["equal_bytes"]
        if a["step"] != b["step"]:
            rows.append(f"| {path.stem} | {a['step']} | {a['bits_per_byte']:.4f} | {b['step']} | "
                        f"{b['bits_per_byte']:.4f} | {(b['bits_per_byte'] / a['bits_per_byte'] - 1) * 100:+.2f}% |")
    return rows


def bpb(result: dict, without_bytes: bool = False) -> float:
    """Bits per byte of a scored run; ``without_bytes``: the bits of byte-fallback tokens left out."""
    if not without_bytes:
        return result["bits_per_byte"]
    return result["bits_per_byte"] - result["by_kind"].get("byte", {}).get("bits_per_byte", 0.0)


def main_table(grid: dict, point: str, without_bytes: bool = False) -> list[str]:
    rows = ["| protocol | " + " | ".join(LABELS[v] for v in VARIANTS) + " | Δ `paper` split | Δ `compact`/`frequent` "
            "| `paper` split vs baseline | `compact`/`frequent` vs baseline |",
            "|---|---|---|---|---|---|---|---|"]
    for protocol in ORDER:
        means = [mean_std([bpb(grid[protocol, v, s][point], without_bytes) for s in SEEDS
                           if have(grid, protocol, v, s, point)]) + _same(grid, protocol, v, point) for v in VARIANTS]
        deltas = [_pct(paired_deltas(grid, protocol, v, point, without_bytes)) for v in VARIANTS[1:]]
        verdicts = [verdict(grid, protocol, v, point, without_bytes) for v in VARIANTS[1:]]
        rows.append(f"| {protocol} | " + " | ".join(means + deltas + verdicts) + " |")
    return rows


def _same(grid: dict, protocol: str, variant: str, point: str) -> str:
    same = [grid[protocol, variant, s][point].get("same_run") for s in SEEDS if have(grid, protocol, variant, s, point)]
    return " (the equal-tokens run)" if same and all(same) and variant != "baseline" else ""


def _pct(values: list[float]) -> str:
    if not values:
        return "not run"
    if len(values) == 1:
        return f"{values[0]:+.2f}% (1 seed)"
    return f"{statistics.mean(values):+.2f}% ± {statistics.stdev(values):.2f}" + ("" if len(values) == 3 else
                                                                                  f" ({len(values)} seeds)")


def data_table(metas: dict) -> list[str]:
    rows = ["| protocol | variant | training tokens | bytes/token (training) | held-out tokens (all held out) "
            "| Δ tokens | eval tokens | equal-bytes steps / equal-tokens steps |", "|---|---|---|---|---|---|---|---|"]
    for protocol in ORDER:
        m = metas.get(protocol)
        if not m:
            rows.append(f"| {protocol} | not prepared yet | | | | | | |")
            continue
        base = m["variants"]["baseline"]
        for v in VARIANTS:
            row = m["variants"][v]
            delta = (row["held_out_tokens_all"] / base["held_out_tokens_all"] - 1) * 100
            ratio = base["train_bytes_per_token"] / row["train_bytes_per_token"]
            rows.append(f"| {protocol} | {LABELS[v]} | {row['train_tokens']:,} | {row['train_bytes_per_token']:.3f} "
                        f"| {row['held_out_tokens_all']:,} | {delta:+.2f}% | {row['eval_tokens']:,} | {ratio:.3f} |")
    return rows


def kind_table(grid: dict, protocol: str, point: str, variants: tuple = VARIANTS) -> list[str]:
    """Bits per byte of the evaluation text spent on each kind of token, and bits per token."""
    kinds = sorted({k for (p, v, _), r in grid.items() if p == protocol and v in variants for k in r[point]["by_kind"]})
    if not kinds:
        return [f"*{protocol}: no cell run yet.*"]
    rows = ["| token kind | " + " | ".join(f"{LABELS[v]}: tokens · bits/token · share of bits" for v in variants) + " |",
            "|---" * (len(variants) + 1) + "|"]
    for kind in kinds:
        cells_ = []
        for v in variants:
            runs = [grid[protocol, v, s][point] for s in SEEDS if (protocol, v, s) in grid]
            have = [r for r in runs if kind in r["by_kind"]]
            if not runs:
                cells_.append("not run")
            elif not have:
                cells_.append("—")
            else:
                per_token = [r["by_kind"][kind]["bits"] / r["by_kind"][kind]["tokens"] for r in have]
                share = [r["by_kind"][kind]["bits"] / r["bits"] * 100 for r in have]
                cells_.append(f"{have[0]['by_kind'][kind]['tokens']:,} · {mean_std(per_token, 3)} · "
                              f"{statistics.mean(share):.1f}%")
        rows.append(f"| {kind} | " + " | ".join(cells_) + " |")
    return rows


def class_table(grid: dict, metas: dict, protocol: str, point: str, variants: tuple = VARIANTS) -> list[str]:
    """The same words in every stream: bits per byte of the units (compact context chains) of
    each class, with the variants' Δ% against the baseline of the same seed."""
    m = metas.get(protocol)
    if not m or not any(p == protocol for p, _, _ in grid):
        return [f"*{protocol}: no cell run yet.*"]
    total = sum(m["class_bytes"].values())
    rows = ["| unit class (capital · mark · seen in training) | share of bytes | baseline bits/byte | "
            + " | ".join(f"Δ {LABELS[v]}" for v in variants[1:]) + " |", "|---" * (len(variants) + 2) + "|"]
    for name in sorted(m["class_bytes"], key=lambda c: -m["class_bytes"][c]):
        base = [grid[protocol, "baseline", s][point]["by_class"][name]["bits_per_byte"]
                for s in SEEDS if (protocol, "baseline", s) in grid]
        deltas = []
        for v in variants[1:]:
            d = [(grid[protocol, v, s][point]["by_class"][name]["bits_per_byte"]
                  / grid[protocol, "baseline", s][point]["by_class"][name]["bits_per_byte"] - 1) * 100
                 for s in SEEDS if (protocol, v, s) in grid and (protocol, "baseline", s) in grid]
            deltas.append(_pct(d))
        rows.append(f"| {name} | {m['class_bytes'][name] / total * 100:.1f}% | {mean_std(base, 3)} | "
                    + " | ".join(deltas) + " |")
    return rows


def _paired_shares(grid: dict, protocol: str, variant: str, point: str, part) -> list[float]:
    """Per seed: (the variant's bits in ``part`` − the baseline's) as % of the baseline's bits.
    ``part(result)`` gives the bits of a part of one scored run."""
    out = []
    for seed in SEEDS:
        if have(grid, protocol, variant, seed, point) and have(grid, protocol, "baseline", seed, point):
            a, b = grid[protocol, variant, seed][point], grid[protocol, "baseline", seed][point]
            out.append((part(a) - part(b)) / b["bits"] * 100)
    return out


def _kind_bits(kind: str):
    return lambda r: r["by_kind"].get(kind, {}).get("bits", 0.0)


def _unit_bits(with_mark: bool):
    return lambda r: sum(c["bits"] for name, c in r["by_class"].items() if (".mark." in name) == with_mark)


def _has(grid: dict, protocol: str, variant: str, part_name: str, kinds: list[str]) -> bool:
    """Whether a kind's row applies to a variant: it or the baseline has tokens of that kind."""
    kind = next((k for k in kinds if part_name == f"tokens of kind `{k}`"), None)
    return kind is None or any(kind in r["equal_tokens"]["by_kind"] for (p, v, _), r in grid.items()
                               if p == protocol and v in (variant, "baseline"))


def decomposition(grid: dict, protocol: str, point: str, variants: tuple = VARIANTS) -> list[str]:
    """Where a variant's extra (or saved) bits are: its bits minus the baseline's of the same
    seed, by token kind and by unit (with a mark or not), as % of the baseline's bits; the rows
    of each column add up to its total."""
    kinds = sorted({k for (p, v, _), r in grid.items() if p == protocol and v in variants for k in r[point]["by_kind"]})
    if not any(_paired_shares(grid, protocol, v, point, lambda r: r["bits"]) for v in variants[1:]):
        return [f"*{protocol}: no paired cells yet.*"]
    rows = ["| part of the stream | " + " | ".join(f"Δ {LABELS[v]}" for v in variants[1:]) + " |",
            "|---" * len(variants) + "|"]
    parts = [(f"tokens of kind `{k}`", _kind_bits(k)) for k in kinds]
    parts += [("**all tokens (the total)**", lambda r: r["bits"]),
              ("units with a combining mark (all their tokens)", _unit_bits(True)),
              ("units without a mark", _unit_bits(False))]
    for name, part in parts:
        rows.append(f"| {name} | " + " | ".join(_pct(_paired_shares(grid, protocol, v, point, part))
                                               if _has(grid, protocol, v, name, kinds) else "—"
                                               for v in variants[1:]) + " |")
    marks_rest = [("the other tokens of units with a mark (units with a mark − `instr:marks`)",
                   lambda r: _unit_bits(True)(r) - _kind_bits("instr:marks")(r))]
    for name, part in marks_rest:
        rows.append(f"| {name} | " + " | ".join(_pct(_paired_shares(grid, protocol, v, point, part))
                                               for v in variants[1:]) + " |")
    return rows


def remedy_meta() -> dict | None:
    path = RESULTS / REMEDY_PROTOCOL / f"{REMEDY}.meta.json"
    return json.loads(path.read_text()) if path.exists() else None


def deltas_against_compact_frequent(grid: dict, protocol: str, variant: str, point: str) -> list[float]:
    """The variant's bits/byte against `compact`/`frequent`'s of the same seed, in %, for the seeds
    that have both (the remedy's second reference)."""
    return [(grid[protocol, variant, s][point]["bits_per_byte"]
             / grid[protocol, "compact_frequent", s][point]["bits_per_byte"] - 1) * 100
            for s in SEEDS if have(grid, protocol, variant, s, point) and have(grid, protocol, "compact_frequent", s, point)]


def remedy_section(grid: dict, metas: dict) -> list[str]:
    """Item 4: the remedy against the baseline and against compact/frequent, paired by seed."""
    p, point = REMEDY_PROTOCOL, "equal_tokens"
    done = [s for s in SEEDS if (p, REMEDY, s) in grid]
    m = remedy_meta()
    if not done:
        return [f"*Not run: no result file `results/{p}/{REMEDY}.seed*.json` yet.*"]
    out = [f"Seeds done: {', '.join(map(str, done))} (of {', '.join(map(str, SEEDS))}).", ""]
    if m:
        base, row = m["variants"]["baseline"], m["variants"][REMEDY]
        out += [f"Its stream at the same budget: {row['train_tokens']:,} training tokens "
                f"({row['train_bytes_per_token']:.3f} bytes/token against the baseline's "
                f"{base['train_bytes_per_token']:.3f}), {row['held_out_tokens_all']:,} held-out tokens "
                f"({(row['held_out_tokens_all'] / base['held_out_tokens_all'] - 1) * 100:+.2f}% against the "
                f"baseline's {base['held_out_tokens_all']:,}; `compact`/`frequent` with marks: "
                f"{(metas[p]['variants']['compact_frequent']['held_out_tokens_all'] / base['held_out_tokens_all'] - 1) * 100:+.2f}%).", ""]
    rows = ["| | bits/byte | Δ against the baseline (paired) | Δ against `compact`, `frequent` (paired) | vs baseline "
            "| vs `compact`, `frequent` |", "|---|---|---|---|---|---|"]
    for at in POINTS:
        for v in ("baseline", "compact_frequent", REMEDY):
            vals = [grid[p, v, s][at]["bits_per_byte"] for s in SEEDS if have(grid, p, v, s, at)]
            if not vals:
                rows.append(f"| {LABELS[v]}, {POINTS[at]} | not run | | | | |")
                continue
            against_cf = deltas_against_compact_frequent(grid, p, v, at)
            rows.append(f"| {LABELS[v]}, {POINTS[at]} | {mean_std(vals)} | "
                        f"{_pct(paired_deltas(grid, p, v, at)) if v != 'baseline' else ''} | "
                        f"{_pct(against_cf) if v == REMEDY else ''} | "
                        f"{verdict(grid, p, v, at) if v != 'baseline' else ''} | "
                        f"{verdict(grid, p, v, at, reference='compact_frequent') if v == REMEDY else ''} |")
    per_seed = ["| seed | " + " | ".join(LABELS[v] for v in ("baseline", "compact_frequent", REMEDY)) + " |",
                "|---|---|---|---|"]
    for s in SEEDS:
        per_seed.append(f"| {s} | " + " | ".join(f"{grid[p, v, s][point]['bits_per_byte']:.4f}" if (p, v, s) in grid
                                                 else "not run" for v in ("baseline", "compact_frequent", REMEDY)) + " |")
    trio = ("baseline", "compact_frequent", REMEDY)
    return (out + rows + ["", "Each seed:", ""] + per_seed
            + ["", "Where the bits go (Δ against the baseline, as % of the baseline's bits, paired by seed):", ""]
            + decomposition(grid, p, point, trio)
            + ["", "By token kind:", ""] + kind_table(grid, p, point, trio)
            + ["", "The same words:", ""] + class_table(grid, metas, p, point, trio))


def not_run(grid: dict, metas: dict) -> list[str]:
    """Every cell the issue asks for whose result file is missing, and what was never started."""
    out = []
    for protocol in ORDER:
        missing = [f"{LABELS[v]} seed {s}" for v in VARIANTS for s in SEEDS if (protocol, v, s) not in grid]
        if missing:
            out.append(f"- {protocol}, equal training tokens: {'; '.join(missing)}.")
        m = metas.get(protocol)
        if not m:
            out.append(f"- {protocol}, equal training bytes: not prepared, so not planned yet.")
            continue
        for v in VARIANTS[1:]:
            r = m["variants"]["baseline"]["train_bytes_per_token"] / m["variants"][v]["train_bytes_per_token"]
            if abs(r - 1) > SAME_BYTES:
                lost = [str(s) for s in SEEDS if not (RESULTS / protocol / f"{v}.equal_bytes.seed{s}.json").exists()]
                if lost:
                    out.append(f"- {protocol}, equal training bytes, {LABELS[v]} (tokens ratio {r:.3f}): "
                               f"seeds {', '.join(lost)}.")
    lost = [str(s) for s in SEEDS if (REMEDY_PROTOCOL, REMEDY, s) not in grid]
    if lost:
        out.append(f"- the remedy ({LABELS[REMEDY]}, {REMEDY_PROTOCOL}): seeds {', '.join(lost)}.")
    out += ["- the remedy on the other protocols, and any second remedy (for example the mark instruction "
            "placed next to the slot it modifies instead of in the prefix group): not started.",
            "- the 16k budget: not started."]
    m = remedy_meta()
    if m:
        r = m["variants"]["baseline"]["train_bytes_per_token"] / m["variants"][REMEDY]["train_bytes_per_token"]
        lost = [str(s) for s in SEEDS if not have(grid, REMEDY_PROTOCOL, REMEDY, s, "equal_bytes")]
        if lost:
            out.append(f"- the remedy's equal-bytes runs (tokens ratio {r:.3f}): seeds {', '.join(lost)}.")
    seconds = sorted(r["seconds"] for r in grid.values())
    if seconds:
        out.append(f"\nWhy: time. A cell's wall time (training and scoring, from the result files) ranged from "
                   f"{seconds[0] / 60:.0f} to {seconds[-1] / 60:.0f} minutes, with the load of the shared 2-core machines, one thread "
                   f"per cell under `nice -n 19`; the grid and its equal-bytes runs came first, and the time ran out before "
                   f"what is listed above.")
    return out


def remedy_short(grid: dict) -> list[str]:
    """The remedy's headline row for the docs page."""
    p, point = REMEDY_PROTOCOL, "equal_tokens"
    vals = [grid[p, REMEDY, s][point]["bits_per_byte"] for s in SEEDS if (p, REMEDY, s) in grid]
    if not vals:
        return ["*Not run yet.*"]
    against_cf = deltas_against_compact_frequent(grid, p, REMEDY, point)
    return ["| | bits/byte | Δ against the baseline (paired) | Δ against `compact`, `frequent` (paired) | vs baseline |",
            "|---|---|---|---|---|",
            f"| {LABELS[REMEDY]} ({p}) | {mean_std(vals)} | {_pct(paired_deltas(grid, p, REMEDY, point))} | "
            f"{_pct(against_cf)} | {verdict(grid, p, REMEDY, point)} |"]


def pins(grid: dict) -> list[str]:
    found = sorted({(r["pinned"]["commit"], r["pinned"]["functok_dirty"], r["pinned"]["torch"],
                     r["pinned"]["tokenizers"], r["pinned"]["python"]) for r in grid.values()})
    return [f"- commit `{c}` (python/functok {'modified' if d else 'clean'}), torch {t}, tokenizers {tk}, "
            f"CPython {py}" for c, d, t, tk, py in found] or ["- no cell run yet"]


def shape(grid: dict) -> str:
    r = next(iter(grid.values()), None)
    if not r:
        return "(no cell run yet)"
    s, o = r["shape"], r["optimizer"]
    return (f"{s['layers']} layers, width {s['width']}, {s['heads']} heads, context {s['context']}, "
            f"{r['parameters']:,} parameters (tied embedding, vocabulary 8,001 = the budget + a document "
            f"separator, the same for every variant); AdamW lr {o['lr']} (β 0.9/0.95, weight decay "
            f"{o['weight_decay']}, clip {o['clip']}), {o['schedule']} ({o['warmup']} steps), batch "
            f"{o['batch']} windows, {r['train_tokens_target']:,} training tokens at equal tokens")


def conclusions(grid: dict) -> list[str]:
    """One sentence per protocol and variant, from the numbers alone."""
    out = []
    for protocol in ORDER:
        for v in VARIANTS[1:]:
            for point in POINTS:
                d = paired_deltas(grid, protocol, v, point)
                if not d:
                    continue
                out.append(f"- {protocol}, {LABELS[v]}, {POINTS[point]}: {_pct(d)} bits/byte against the "
                           f"baseline (paired by seed): {verdict(grid, protocol, v, point)}.")
        if not any(p == protocol for p, _, _ in grid):
            out.append(f"- {protocol}: not run yet.")
    out += [line for protocol in ORDER for v in VARIANTS[1:] for line in where_harm(grid, protocol, v)]
    out += remedy_conclusion(grid)
    return out


def where_harm(grid: dict, protocol: str, variant: str, point: str = "equal_tokens") -> list[str]:
    """For a variant found worse: the token kind with the largest extra bits, and the units with
    and without a mark (paired by seed, as % of the baseline's bits)."""
    if not verdict(grid, protocol, variant, point).startswith("**worse"):
        return []
    kinds = {k for (p, v, _), r in grid.items() if p == protocol and v == variant for k in r[point]["by_kind"]}
    shares = {k: _paired_shares(grid, protocol, variant, point, _kind_bits(k)) for k in kinds}
    top = max(shares, key=lambda k: statistics.mean(shares[k]))
    return [f"- {protocol}, where the harm of {LABELS[variant]} lies: the costliest token kind is `{top}` "
            f"({_pct(shares[top])} of the baseline's bits); units with a combining mark "
            f"{_pct(_paired_shares(grid, protocol, variant, point, _unit_bits(True)))}, units without "
            f"{_pct(_paired_shares(grid, protocol, variant, point, _unit_bits(False)))}."]


def remedy_conclusion(grid: dict) -> list[str]:
    p, point = REMEDY_PROTOCOL, "equal_tokens"
    if not paired_deltas(grid, p, REMEDY, point):
        return [f"- The remedy ({LABELS[REMEDY]}, {p}): not run yet."]
    against_cf = deltas_against_compact_frequent(grid, p, REMEDY, point)
    return [f"- The remedy ({LABELS[REMEDY]}, {p}, equal training tokens): {_pct(paired_deltas(grid, p, REMEDY, point))} "
            f"bits/byte against the baseline, {verdict(grid, p, REMEDY, point)}; {_pct(against_cf)} against "
            f"`compact`, `frequent` with marks (paired by seed), "
            f"{verdict(grid, p, REMEDY, point, reference='compact_frequent')}."]


def render(grid: dict, metas: dict, template: str) -> str:
    blocks = {
        "STATUS": status_table(grid),
        "CONCLUSIONS": conclusions(grid),
        "BYTES_STATUS": bytes_status(grid, metas),
        "DISCARDED": discarded(),
        "PINS": pins(grid),
        "SHAPE": [shape(grid)],
        "DATA": data_table(metas),
        "MAIN_TOKENS": main_table(grid, "equal_tokens"),
        "MAIN_BYTES": main_table(grid, "equal_bytes"),
        "MAIN_NOBYTE": main_table(grid, "equal_tokens", without_bytes=True),
        "KINDS": [line for p in ORDER for line in [f"\n**{p}** ({POINTS['equal_tokens']})\n"] + kind_table(grid, p, "equal_tokens")],
        "CLASSES": [line for p in ORDER for line in [f"\n**{p}** ({POINTS['equal_tokens']})\n"]
                    + class_table(grid, metas, p, "equal_tokens")],
        "DECOMPOSITION": [line for p in ORDER for line in [f"\n**{p}** ({POINTS['equal_tokens']})\n"]
                          + decomposition(grid, p, "equal_tokens")],
        "REMEDY": remedy_section(grid, metas),
        "NOT_RUN": not_run(grid, metas),
        "DECOMPOSITION_PARAGRAPHS": decomposition(grid, REMEDY_PROTOCOL, "equal_tokens"),
        "REMEDY_SHORT": remedy_short(grid),
        "DESCRIPTIONS": [f"- **{p}**: {metas[p]['description']} ({metas[p]['train_documents']:,} training "
                         f"documents, {metas[p]['train_bytes']:,} bytes; scored on {metas[p]['eval_documents']:,} "
                         f"held-out documents, {metas[p]['eval_bytes']:,} bytes)" if p in metas else
                         f"- **{p}**: not prepared yet" for p in ORDER],
    }
    blocks.update(build_followups.blocks(), FOLLOWUPS_CONCLUSIONS=build_followups.conclusions())
    out = template
    for key, lines in blocks.items():
        out = out.replace("{{" + key + "}}", "\n".join(lines))
    return out


def main() -> None:
    metas = {p: m for p in ORDER if (m := meta(p))}
    grid = cells(metas)
    for name, target in (("FINDINGS.template.md", HERE / "FINDINGS.md"), ("docs.template.md", DOCS)):
        target.write_text(render(grid, metas, (HERE / name).read_text()))
        print(f"wrote {target} ({sum(v in VARIANTS for _, v, _ in grid)} of {len(ORDER) * len(VARIANTS) * len(SEEDS)} cells)")


if __name__ == "__main__":
    main()
