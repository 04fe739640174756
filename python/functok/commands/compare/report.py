"""The output of ``functok compare``: the terminal table, report.md, report.json and the charts.

Every number here comes from the result dict that :func:`functok.commands.compare.command.compare` returns,
except :data:`PAPER_TABLE2`, the paper's published rows, which the report places beside them.
The equal-budget table's rows are formatted by :mod:`.budgets`, beside its measurement. The
charts are SVG written by hand (no plotting library), both by :func:`line_panel`.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from html import escape
from pathlib import Path

from ...chunks import InputError
from . import budgets_report as equal_budgets

__all__ = ["PAPER_TABLE2", "budget_chart_name", "check_output", "format_table", "line_panel", "markdown",
           "svg_budgets", "svg_growth", "write_all"]

# The paper's Table 2: vocabulary at exhaustion, baseline -> Functionalizer.
PAPER_TABLE2 = (
    # dataset, domain, baseline, Functionalizer, Δ vocabulary %, Δ chars/token %
    ("Wikitext", "prose", 106_023, 90_531, -14.61, -14.29),
    ("Python-Codes", "code", 68_471, 57_012, -16.74, -17.19),
    ("FineWeb-Edu", "prose", 1_214_684, 975_169, -19.72, -12.88),
    ("GitHub-Code-Python", "code", 4_071_598, 3_356_761, -17.56, -17.73),
)
PAPER_SAMPLE = "up to 100,000 documents per dataset, 5,000 held out"

ROW_ORDER = ("baseline", "functionalizer", "case", "marks", "repeat", "none", "joined")
CHART_VARIANTS = (("baseline", "#1f77b4"), ("functionalizer", "#d62728"))


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}%".replace("-", "−")


def _corpus_line(c: dict) -> str:
    line = (f"{c['name']}: {c['files']:,} files, {c['documents']:,} documents "
            f"({c['training_documents']:,} training, {c['held_out_documents']:,} held out), "
            f"{c['characters']:,} code points")
    if c["skipped"]:
        reasons = ", ".join(f"{n} {r}" for r, n in c["skipped_by_reason"].items())
        line += f"; skipped {c['skipped']:,}: {reasons}"
    return line


def _exhaustion_rows(result: dict) -> list[tuple]:
    rows = result["exhaustion"]
    out = []
    for key in ROW_ORDER:
        r = rows[key]
        base = key == "baseline"  # the reference: no delta to show
        out.append((r["label"], r["distinct_pretokens"], r["vocabulary"],
                    None if base else r["delta_vocabulary_pct"], r["chars_per_token"],
                    None if base else r["delta_chars_per_token_pct"]))
    return out


def _paper_rows(domain: str | None = None) -> list[tuple]:
    return [row for row in PAPER_TABLE2 if domain is None or row[1] == domain]


def format_table(report: dict) -> str:
    """The terminal table: per corpus, the exhaustion rows, the paper's rows, the TSR rows."""
    lines: list[str] = []
    for result in report["corpora"]:
        c = result["corpus"]
        lines += [_corpus_line(c), ""]
        lines.append(f"  {'at merge exhaustion':<28}{'distinct':>11}{'vocabulary':>12}{'Δ vocab':>10}"
                     f"{'chars/tok':>11}{'Δ c/t':>10}")
        for label, distinct, vocab, dv, cpt, dc in _exhaustion_rows(result):
            lines.append(f"  {label:<28}{distinct:>11,}{vocab:>12,}{_pct(dv):>10}{cpt:>11.3f}{_pct(dc):>10}")
        for name, domain, base, func, dv, dc in _paper_rows():
            lines.append(f"  {'paper: ' + name:<28}{f'{base:,} → {func:,} ({domain})':>33}{_pct(dv):>10}"
                         f"{'':>11}{_pct(dc):>10}")
        fixed = result["fixed_size"]
        lines += ["", f"  {'at ' + format(fixed['vocab_size'], ',') + ' tokens':<28}{'vocabulary':>11}"
                      f"{'greedy c/t':>12}{'optimal c/t':>12}{'TSR':>10}"]
        for key in ("baseline", "functionalizer"):
            r = fixed[key]
            lines.append(f"  {r['label']:<28}{r['vocabulary']:>11,}{r['chars_per_token_greedy']:>12.3f}"
                         f"{r['chars_per_token_optimal']:>12.3f}{r['tsr'] * 100:>9.2f}%")
        note = _ran_out(fixed)
        if note:
            lines.append(f"  ({note})")
        trip = fixed["functionalizer"].get("round_trip")
        if trip:
            lines.append(f"  round trip of held-out documents: greedy {trip['greedy_exact']}/{trip['documents']}, "
                         f"optimal {trip['optimal_exact']}/{trip['documents']} exact")
        if result.get("equal_budget"):
            lines += [""] + equal_budgets.table_lines(result["equal_budget"])
        lines.append("")
    return "\n".join(lines).rstrip()


# --- report.md ------------------------------------------------------------------------------


def _ran_out(fixed: dict) -> str:
    """A note when a corpus runs out of merges before the fixed vocabulary size."""
    short = [fixed[k]["label"] for k in ("baseline", "functionalizer")
             if fixed[k]["vocabulary"] < fixed["vocab_size"]]
    if not short:
        return ""
    return (f"merges ran out before {fixed['vocab_size']:,} tokens for {' and '.join(short)}: "
            f"the corpus is too small for this size, so these rows are at exhaustion")


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _differences(result: dict) -> list[str]:
    """Where and why this corpus's numbers differ from the paper's: the facts, computed."""
    c = result["corpus"]
    rows = result["exhaustion"]
    base, func = rows["baseline"], rows["functionalizer"]
    domain = c.get("domain")
    paper = _paper_rows(domain) if domain else _paper_rows()
    which = f"the paper's {domain} rows" if domain else "the paper's rows"
    dv_paper = ", ".join(_pct(r[4]) for r in paper)
    dc_paper = ", ".join(_pct(r[5]) for r in paper)
    other_base = base["vocabulary"] - base["distinct_pretokens"]
    other_func = func["vocabulary"] - func["distinct_pretokens"]
    out = [
        f"- **Size.** {c['training_documents']:,} training documents, {c['characters']:,} code points "
        f"in all, against the paper's {PAPER_SAMPLE}. The vocabulary at exhaustion grows with the "
        f"number of distinct pre-tokens, which keeps growing with the corpus, so the absolute "
        f"sizes ({base['vocabulary']:,} → {func['vocabulary']:,}) are not comparable with the "
        f"paper's; the Δ% are.",
        f"- **Vocabulary Δ.** Measured {_pct(func['delta_vocabulary_pct'])}; {which} give {dv_paper}. "
        f"At exhaustion every distinct pre-token is an entry, and the other entries are the alphabet, "
        f"the special tokens and intermediate subwords: {base['distinct_pretokens']:,} + "
        f"{other_base:,} for the baseline, {func['distinct_pretokens']:,} + {other_func:,} for the "
        f"Functionalizer ({_pct(func['delta_distinct_pretokens_pct'])} distinct pre-tokens, "
        f"{_pct(_delta(other_func, other_base))} other entries). The Δ depends on how many words of "
        f"the corpus differ only in case, marks or repetition.",
        f"- **Ablation** (the paper has none). Vocabulary: case alone "
        f"{_pct(rows['case']['delta_vocabulary_pct'])}, marks alone "
        f"{_pct(rows['marks']['delta_vocabulary_pct'])}, repeats alone "
        f"{_pct(rows['repeat']['delta_vocabulary_pct'])}. Chars/token: case alone "
        f"{_pct(rows['case']['delta_chars_per_token_pct'])}, marks alone "
        f"{_pct(rows['marks']['delta_chars_per_token_pct'])}, repeats alone "
        f"{_pct(rows['repeat']['delta_chars_per_token_pct'])} (a run such as an indentation that "
        f"was one token becomes a REPEAT instruction and its base: two tokens). With "
        f"split_operators=false the vocabulary changes by {_pct(rows['joined']['delta_vocabulary_pct'])} "
        f"and chars/token by {_pct(rows['joined']['delta_chars_per_token_pct'])}: each piece stays "
        f"one pre-token, so there are exactly as many distinct pre-tokens as in the baseline, and "
        f"the instructions are merged into them instead of being shared.",
        f"- **Chars/token Δ.** Measured {_pct(func['delta_chars_per_token_pct'])}; {which} give "
        f"{dc_paper}. Each instruction is its own pre-token (split_operators=true), so every "
        f"capital, mark or run costs at least one token of its own: here "
        f"{func['held_out_instruction_tokens']:,} of the Functionalizer's {func['held_out_tokens']:,} "
        f"held-out tokens ({_share(func['held_out_instruction_tokens'], func['held_out_tokens'])}) are "
        f"instructions, against {base['held_out_tokens']:,} tokens in all for the baseline. How much "
        f"chars/token drops therefore follows the share of capitals and runs in the text. The "
        f"held-out set is {c['held_out_characters']:,} code points ({c['held_out_documents']:,} "
        f"documents), against the paper's 5,000 documents.",
        "- **Tokenizer.** Byte fallback here (lossless), none in the paper: a held-out character "
        "unseen in training costs its UTF-8 bytes here, where the paper's BPE dropped it and "
        "counted no token for it (that raises the paper's chars/token on such text, for both "
        "columns).",
    ]
    if c["skipped"]:
        reasons = ", ".join(f"{n:,} {r}" for r, n in c["skipped_by_reason"].items())
        out.append(f"- **Skipped.** {c['skipped']:,} files or documents were left out ({reasons}); "
                   f"those whose text was read hold {c['skipped_characters']:,} code points.")
    return out


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "—"


def _delta(new: float, old: float) -> float | None:
    return None if not old else (new - old) / old * 100


def markdown(report: dict) -> str:
    p = report["protocol"]
    lines = [
        "<!-- Generated by `functok compare` (python/functok/compare.py); do not edit. -->",
        "# functok compare",
        "",
        f"functok {report['functok_version']} (format {report['spec_version']}), tokenizers "
        f"{report['machine']['tokenizers']}, Python {report['machine']['python']} on "
        f"{report['machine']['cpus']} CPUs ({report['machine']['platform']}); the run took "
        f"{report.get('seconds', '?')} s.",
        "",
        "## Protocol",
        "",
        f"- Baseline pre-tokens: {p['normalizer']}, then the `{p['splitter']}` splitter "
        "(`functok.split`). Functionalizer: `functok.pretokens(text, splitter=..., "
        "split_operators=True)`.",
        f"- Trainer: `{p['trainer']}(vocab_size={p['exhaustion_vocab_size']:,})`, "
        f"{p['special_tokens']} special tokens, min_frequency={p['min_frequency']}: merges run to "
        "exhaustion. The vocabulary column is the trainer's vocabulary (special tokens + alphabet + "
        "merged tokens), as the paper counts it.",
        f"- Every tokenizer is character-level with byte fallback ({p['byte_fallback_tokens']} byte "
        "tokens, not counted in the vocabulary column), baseline and Functionalizer alike, so "
        "held-out ids are lossless and chars/token compares like with like.",
        f"- Chars/token: {p['chars_per_token']}. Held-out documents: one in N by a hash of the "
        "document's name (by file for source code).",
        f"- Greedy vs optimal: tokenizers trained to {p['fixed_vocab_size']:,} tokens in all "
        "(special + byte + trained); TSR = (greedy − optimal) / greedy on held-out pre-tokens "
        "(spec 10.4).",
    ]
    eb = p.get("equal_budget")
    if eb:
        lines += [
            f"- Equal budgets ({', '.join(f'{b:,}' for b in eb['budgets'])}): {eb['tokenizer']}. "
            f"{eb['truncation'][0].upper()}{eb['truncation'][1:]}. Held-out tokens: {eb['held_out_tokens']}. "
            f"Vocabulary at equal compression: {eb['equal_compression']} (the reference is "
            f"{eb['reference_budget']:,}, or the largest budget the baseline reaches). Redundancy ceiling: "
            f"{eb['ceiling']}.",
        ]
    lines.append("")
    for result in report["corpora"]:
        lines += _markdown_corpus(result)
    return "\n".join(lines) + "\n"


def _markdown_corpus(result: dict) -> list[str]:
    c = result["corpus"]
    lines = [f"## {c['name']}", "", f"{c['source']}; {c['sampling'] or 'all files'}.", "",
             _corpus_line(c) + ".", ""]
    if c["skipped_examples"]:
        lines += ["Skipped (the first 10 of each reason):", ""]
        lines += [f"- `{s['what']}`: {s.get('detail') or s['reason']}" for s in c["skipped_examples"]]
        lines.append("")
    lines += ["### Vocabulary at merge exhaustion (the paper's Table 2, measured)", ""]
    rows = [[label, f"{d:,}", f"{v:,}", _pct(dv), f"{cpt:.3f}", _pct(dc)]
            for label, d, v, dv, cpt, dc in _exhaustion_rows(result)]
    rows += [[f"paper: {name} ({dom})", "", f"{b:,} → {f:,}", _pct(dv), "", _pct(dc)]
             for name, dom, b, f, dv, dc in PAPER_TABLE2]
    lines += _md_table(["pre-tokens", "distinct", "vocabulary", "Δ vocabulary", "chars/token",
                        "Δ chars/token"], rows)
    lines += ["", f"![vocabulary growth]({chart_name(c['name'])})", "",
              "### Where and why the numbers differ from the paper", ""]
    lines += _differences(result)
    fixed = result["fixed_size"]
    lines += ["", f"### Greedy BPE against optimal segmentation at {fixed['vocab_size']:,} tokens", ""]
    rows = [[r["label"], f"{r['vocabulary']:,}", f"{r['greedy_tokens']:,}", f"{r['optimal_tokens']:,}",
             f"{r['chars_per_token_greedy']:.3f}", f"{r['chars_per_token_optimal']:.3f}", f"{r['tsr']:.2%}"]
            for r in (fixed["baseline"], fixed["functionalizer"])]
    lines += _md_table(["pre-tokens", "vocabulary", "greedy tokens", "optimal tokens", "chars/token greedy",
                        "chars/token optimal", "TSR"], rows)
    note = _ran_out(fixed)
    if note:
        lines += ["", note[0].upper() + note[1:] + "."]
    lines += ["", "TSR by pre-token length (code points; `functok tsr`'s buckets):", ""]
    base, func = fixed["baseline"]["by_length"], fixed["functionalizer"]["by_length"]
    rows = [[b["length"], f"{b['pretokens']:,}", f"{b['tsr']:.2%}", f"{f['pretokens']:,}", f"{f['tsr']:.2%}"]
            for b, f in zip(base, func)]
    lines += _md_table(["length", "baseline pre-tokens", "baseline TSR", "Functionalizer pre-tokens",
                        "Functionalizer TSR"], rows)
    trip = fixed["functionalizer"].get("round_trip")
    if trip:
        lines += ["", f"Round trip (`Tokenizer.decode(encode(x).ids) == NFC(x)`) on the held-out "
                      f"documents: greedy {trip['greedy_exact']}/{trip['documents']}, optimal "
                      f"{trip['optimal_exact']}/{trip['documents']}."]
    if result.get("equal_budget"):
        lines += ["", "### Held-out tokens at equal budgets", ""]
        lines += equal_budgets.markdown_lines(result["equal_budget"], budget_chart_name(c["name"]))
    lines.append("")
    return lines


# --- The chart ------------------------------------------------------------------------------


def chart_name(corpus_name: str) -> str:
    return f"vocabulary-growth-{corpus_name}.svg"


def budget_chart_name(corpus_name: str) -> str:
    return f"held-out-tokens-{corpus_name}.svg"


def _svg_head(width: int, height: int, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="12">',
            "<!-- Generated by functok compare (python/functok/commands/compare_report.py) -->",
            f'<text x="60" y="20" font-size="14">{escape(title)}</text>']


def line_panel(out: list[str], series: Sequence[tuple[str, str, Sequence[tuple[float, float]]]], *,
               box: tuple[float, float, float, float], x_range: tuple[float, float],
               y_range: tuple[float, float], title: str, x_label: str, x_ticks: Sequence[float],
               y_ticks: Sequence[float], fmt_x, fmt_y, legend: tuple[float, float, str],
               log_x: bool = False, every_point: bool = False,
               guide: tuple[float, str] | None = None) -> None:
    """One panel of lines, appended to ``out``: axes, ticks, one polyline per series
    (legend text, colour, points) with a dot at its end (or at ``every_point``), the legend at
    ``legend`` = (x, y of the first line, text-anchor), and a dashed horizontal ``guide`` =
    (y, label) if given. ``box`` is (x0, x1, y0, y1): left, right, bottom, top."""
    x0, x1, y0, y1 = box
    (lo_x, hi_x), (lo_y, hi_y) = x_range, y_range
    fx = math.log if log_x else (lambda v: v)
    span_x, span_y = (fx(hi_x) - fx(lo_x)) or 1, (hi_y - lo_y) or 1

    def sx(x: float) -> float:
        return x0 + (x1 - x0) * (fx(x) - fx(lo_x)) / span_x

    def sy(y: float) -> float:
        return y0 - (y0 - y1) * (y - lo_y) / span_y

    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#444"/>')
    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#444"/>')
    out.append(f'<text x="{x0}" y="{y1 - 6}">{escape(title)}</text>')
    for y in y_ticks:
        out.append(f'<text x="{x0 - 4}" y="{sy(y) + 4:.1f}" text-anchor="end">{fmt_y(y)}</text>')
    for x in x_ticks:
        out.append(f'<text x="{sx(x):.1f}" y="{y0 + 16}" text-anchor="middle">{fmt_x(x)}</text>')
    out.append(f'<text x="{(x0 + x1) / 2}" y="{y0 + 32}" text-anchor="middle">{escape(x_label)}</text>')
    if guide is not None:
        y, label = guide
        out.append(f'<line x1="{x0}" y1="{sy(y):.1f}" x2="{x1}" y2="{sy(y):.1f}" stroke="#888" '
                   f'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{x1}" y="{sy(y) - 4:.1f}" text-anchor="end" fill="#666">{escape(label)}</text>')
    lx, ly, anchor = legend
    for j, (label, colour, pts) in enumerate(series):
        if pts:
            path = " ".join(f"{sx(p[0]):.1f},{sy(p[1]):.1f}" for p in pts)
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
            for p in pts if every_point else pts[-1:]:
                out.append(f'<circle cx="{sx(p[0]):.1f}" cy="{sy(p[1]):.1f}" r="3" fill="{colour}"/>')
        out.append(f'<text x="{lx}" y="{ly + 16 * j}" text-anchor="{anchor}" fill="{colour}">{escape(label)}</text>')


def svg_growth(result: dict) -> str:
    """Two panels against merges: the vocabulary, and the share of training pre-token
    occurrences that are a single token. Each line ends where its merges run out."""
    growth = {key: result["growth"][key] for key, _ in CHART_VARIANTS}
    width, height, pad = 760, 300, 60
    panels = [("vocabulary", 1, lambda v: f"{v:,.0f}"), ("training pre-token occurrences that are one token", 2, lambda v: f"{v:.0%}")]
    max_x = max(pts[-1][0] for pts in growth.values()) or 1
    out = _svg_head(width, height * 2 + 40, f"{result['corpus']['name']}: growth against merges, until "
                                            f"merges run out")
    for k, (title, column, fmt) in enumerate(panels):
        top = 40 + k * height
        max_y = max(pt[column] for pts in growth.values() for pt in pts) or 1
        x0, x1, y0, y1 = pad + 20, width - 20, top + height - 40, top + 20
        series = []
        for key, colour in CHART_VARIANTS:
            pts = growth[key]
            end = pts[-1]
            series.append((f"{result['exhaustion'][key]['label']}: {fmt(end[column])} after {end[0]:,} merges",
                           colour, [(p[0], p[column]) for p in pts]))
        # legend at the lower right, where neither line goes
        line_panel(out, series, box=(x0, x1, y0, y1), x_range=(0, max_x), y_range=(0, max_y), title=title,
                   x_label="merges", x_ticks=[max_x * f for f in (0, 0.5, 1)], y_ticks=[max_y * f for f in (0, 0.5, 1)],
                   fmt_x=lambda v: f"{v:,.0f}", fmt_y=fmt, legend=(x1, y0 - 34, "end"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_budgets(result: dict) -> str:
    """Held-out tokens against the vocabulary budget (log scale), one line per variant of the
    equal-budget table, a dot per trained point (a variant's tokenizer at exhaustion is its last
    point when its merges ran out), and the baseline's count at the reference budget dashed."""
    section = result["equal_budget"]
    series = equal_budgets.chart_lines(section)
    xs = [p[0] for _, _, pts in series for p in pts] or [1]
    ys = [p[1] for _, _, pts in series for p in pts] or [0]
    lo_y, hi_y = min(ys), max(ys)
    margin = (hi_y - lo_y) * 0.05 or 1
    width, x0, x1, y0, y1 = 760, 100, 740, 350, 60
    height = y0 + 50 + 16 * len(series)  # the legend goes under the axes, where no line goes
    legend = []
    for (label, colour, pts), row in zip(series, section["variants"].values()):
        if row is section["variants"]["baseline"]:
            text = f"{label}: the reference"
        else:
            d = row["delta_tokens_at_reference_pct"]
            text = (f"{label}: {equal_budgets.signed_pct(d)} tokens at {section['reference_budget']:,}, "
                    f"vocabulary at equal compression {equal_budgets.equal_compression_text(row['equal_compression'])}"
                    if section["reference_budget"] else label)
        legend.append((text, colour, pts))
    out = _svg_head(width, height, f"{result['corpus']['name']}: held-out tokens against the vocabulary budget")
    guide = None
    if section["reference_tokens"] is not None:
        guide = (section["reference_tokens"], f"baseline at {section['reference_budget']:,}: "
                                              f"{section['reference_tokens']:,} tokens")
    line_panel(out, legend, box=(x0, x1, y0, y1), x_range=(min(xs), max(xs)), y_range=(lo_y - margin, hi_y + margin),
               title="held-out tokens (greedy)", x_label="budget (entries, the 256 byte tokens included; log scale)",
               x_ticks=[b for b in section["budgets"] if min(xs) <= b <= max(xs)],
               y_ticks=[lo_y + (hi_y - lo_y) * f for f in (0, 0.25, 0.5, 0.75, 1)],
               fmt_x=lambda v: f"{v:,.0f}", fmt_y=lambda v: f"{v:,.0f}",
               legend=(x0, y0 + 54, "start"), log_x=True, every_point=True, guide=guide)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- Writing -------------------------------------------------------------------------------


def check_output(folder: Path, corpus_names: Sequence[str] = ()) -> None:
    """Refuse an output folder the report cannot be written to (InputError), before the
    measurement runs rather than after: a file in its place or on its way, a folder where a
    report file goes (the charts only once ``corpus_names`` are known), no permission."""
    try:
        problem = _output_problem(folder, corpus_names)
    except OSError as error:  # a folder on the way that cannot be searched
        problem = f"cannot look at {error.filename}: {error.strerror}"
    if problem:
        raise InputError(f"--out {folder}: {problem}")


def _output_problem(folder: Path, corpus_names: Sequence[str]) -> str | None:
    if not folder.exists():
        existing = next(p for p in folder.absolute().parents if p.exists())  # "/" exists
        if not existing.is_dir():
            return f"{existing} is a file, not a folder"
        return None if os.access(existing, os.W_OK | os.X_OK) else f"no permission to create it in {existing}"
    if not folder.is_dir():
        return "a file of that name exists; --out names a folder"
    for name in ("report.json", "report.md", *map(chart_name, corpus_names), *map(budget_chart_name, corpus_names)):
        if (folder / name).is_dir():
            return f"{folder / name} is a folder, so the report cannot be written there"
    return None if os.access(folder, os.W_OK | os.X_OK) else "no permission to write in it"


def write_all(report: dict, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    path = folder / "report.json"
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    written.append(path)
    path = folder / "report.md"
    path.write_text(markdown(report), encoding="utf-8")
    written.append(path)
    for result in report["corpora"]:
        path = folder / chart_name(result["corpus"]["name"])
        path.write_text(svg_growth(result), encoding="utf-8")
        written.append(path)
        if result.get("equal_budget"):
            path = folder / budget_chart_name(result["corpus"]["name"])
            path.write_text(svg_budgets(result), encoding="utf-8")
            written.append(path)
    return written
