"""The equal-budget table of ``functok compare`` as people read it: the terminal table,
report.md's section and the chart's lines (the measurements are :mod:`.budgets`)."""

from __future__ import annotations

import textwrap
from typing import Any

from .budgets import BUDGET_VARIANTS

__all__ = ["chart_lines", "equal_compression_text", "markdown_lines", "signed_pct", "table_lines"]


# --- The table, report.md and the chart's lines ---------------------------------------------


def signed_pct(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:+.{digits}f}%".replace("-", "−")


def equal_compression_text(ec: dict[str, Any]) -> str:
    """"+14.3%", "≤ −75.0%" (already there at the smallest budget) or "not reached"."""
    if ec["reached"] == "not reached":
        return "not reached"
    text = signed_pct(ec["delta_pct"], 1)
    return "≤ " + text if ec["reached"] == "at most" else text


def _cells(section: dict, key: str) -> list[str]:
    row = section["variants"][key]
    if key == "baseline":
        return ["ran out" if n is None else f"{n:,}" for n in row["held_out_tokens"]]
    return ["ran out" if n is None else ("—" if d is None else signed_pct(d))
            for n, d in zip(row["held_out_tokens"], row["delta_tokens_pct"])]


def _ceiling_cells(section: dict) -> list[str]:
    return ["ran out" if c is None else f"{c['ceiling_pct']:.2f}%" for c in section["ceiling"]]


def _budget_name(budget: int) -> str:
    return f"{budget:,}"


def _notes(section: dict) -> list[str]:
    ref = section["reference_budget"]
    out = []
    if ref is None:
        out.append("the baseline's merges ran out before every budget: no equal-compression figure")
    else:
        out.append(f"vocab at equal compression: the budget at which a variant's held-out tokens fall to the "
                   f"baseline's {section['reference_tokens']:,} at {ref:,} (interpolated in log budget), as Δ "
                   f"against {ref:,}")
    if any(r["equal_compression"]["reached"] == "at most" for r in section["variants"].values()):
        out.append(f"≤: the variant is at or below that count already at {section['budgets'][0]:,}, the smallest "
                   f"budget, so its figure is a bound")
    ran_out = [f"{r['label']} at {r['exhaustion']['budget']:,}" for r in section["variants"].values()
               if r["exhaustion"]]
    if ran_out:
        out.append("ran out: merges ran out before that budget (the corpus is too small); exhaustion: "
                   + ", ".join(ran_out))
    return out


def table_lines(section: dict) -> list[str]:
    """The terminal table of one corpus: held-out tokens of the baseline, Δ% of every variant,
    the vocabulary at equal compression, and the baseline's redundancy ceiling, per budget."""
    budgets = section["budgets"]
    width = max(9, *(len(_budget_name(b)) + 1 for b in budgets))
    head = f"  {'at equal budget':<26}" + "".join(f"{_budget_name(b):>{width}}" for b in budgets)
    lines = [head + f"{'equal compr.':>15}"]
    for key, row in section["variants"].items():
        if key == "baseline":
            last = "—" if section["reference_budget"] is None else f"{section['reference_budget']:,} (ref.)"
        else:
            last = equal_compression_text(row["equal_compression"])
        lines.append(f"  {row['label']:<26}" + "".join(f"{c:>{width}}" for c in _cells(section, key))
                     + f"{last:>15}")
    lines.append(f"  {'ceiling (baseline vocab.)':<26}" + "".join(f"{c:>{width}}" for c in _ceiling_cells(section)))
    notes = ["baseline: held-out tokens; the others: Δ against it at the same budget"] + _notes(section)
    for note in notes:
        lines += textwrap.wrap(f"({note})", width=len(lines[0]), initial_indent="  ", subsequent_indent="   ")
    return lines


def markdown_lines(section: dict, chart: str | None = None) -> list[str]:
    """report.md's section of one corpus: the table, the ceiling's parts, the chart."""
    budgets = section["budgets"]
    ref = section["reference_budget"]
    header = ["pre-tokens", *map(_budget_name, budgets),
              f"vocabulary at equal compression (vs baseline at {ref:,})" if ref else "vocabulary at equal compression"]
    rows = []
    for key, row in section["variants"].items():
        last = "reference" if key == "baseline" else equal_compression_text(row["equal_compression"])
        ec = row["equal_compression"]
        if key != "baseline" and ec["budget"] is not None:
            last += f" ({'≤ ' if ec['reached'] == 'at most' else ''}{ec['budget']:,.0f})"
        rows.append([row["label"], *_cells(section, key), last])
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out += [""] + [f"- {note[0].upper()}{note[1:]}." for note in _notes(section)]
    out += ["", "Redundancy ceiling of the baseline vocabulary (`variant_ceiling.py`'s definition: trained "
                "entries with case or one of the 13 marks whose functok base is also an entry):", ""]
    header = ["budget", "trained entries", "with case or marks", "with their base as an entry",
              "ceiling (of the budget)", "(of trained entries)"]
    rows = [[_budget_name(b), "ran out", "", "", "", ""] if c is None else
            [_budget_name(b), f"{c['trained_entries']:,}", f"{c['variant_entries']:,}", f"{c['with_base']:,}",
             f"{c['ceiling_pct']:.2f}%", f"{c['ceiling_of_trained_pct']:.2f}%"]
            for b, c in zip(budgets, section["ceiling"])]
    out += ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    if chart:
        out += ["", f"![held-out tokens against vocabulary size]({chart})"]
    return out


def chart_lines(section: dict) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """(label, colour, [(budget, held-out tokens)]) per variant: its trained points, the
    tokenizer at exhaustion included."""
    colours = {v.key: v.colour for v in BUDGET_VARIANTS}
    out = []
    for key, row in section["variants"].items():
        pts = [(b, n) for b, n in zip(section["budgets"], row["held_out_tokens"]) if n is not None]
        if row["exhaustion"]:
            pts.append((row["exhaustion"]["budget"], row["exhaustion"]["held_out_tokens"]))
        out.append((row["label"], colours.get(key, "#444444"), sorted(pts)))
    return out
