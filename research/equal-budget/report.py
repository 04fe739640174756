"""Tables from results/*.json: held-out tokens vs baseline at equal budget (Δ%), and the
vocabulary at equal compression (budget reaching the baseline's tokens at 32k, log-interpolated).
usage: report.py [CORPUS SPLITTER]"""
import json, glob, math, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
SHOW = [8000, 16000, 32000, 64000]


def load(corpus, splitter):
    out = {}
    for f in sorted(glob.glob(os.path.join(HERE, "results", f"{corpus}-{splitter}-*.json"))):
        r = json.load(open(f))
        out[r["variant"]] = r
    return out


def equal_compression(tokens: dict, target: float, ref=32000):
    pts = sorted((int(b), n) for b, n in tokens.items() if n is not None)
    for (b0, n0), (b1, n1) in zip(pts, pts[1:]):
        if n0 >= target >= n1 and n0 != n1:
            x = math.log(b0) + (n0 - target) / (n0 - n1) * (math.log(b1) - math.log(b0))
            return math.exp(x) / ref - 1
    if pts and pts[0][1] <= target:
        return f"<= {pts[0][0] / ref - 1:+.1%}"
    return None


def table(corpus, splitter, names=None, ref=32000):
    res = load(corpus, splitter)
    if "baseline" not in res:
        return ""
    base = res["baseline"]["tokens"]
    target = base[str(ref)]
    rows = [f"| variant ({corpus}, {splitter}) | " + " | ".join(f"{b // 1000}k" for b in SHOW) +
            f" | vocab at equal compression (vs baseline {ref // 1000}k) |", "|---" * (len(SHOW) + 2) + "|"]
    order = names or sorted(res, key=lambda n: (n != "baseline", res[n]["tokens"][str(ref)] or 1e18))
    for n in order:
        if n not in res:
            continue
        t = res[n]["tokens"]
        cells = []
        for b in SHOW:
            if t.get(str(b)) is None or base.get(str(b)) is None:
                cells.append("n/a")
            elif n == "baseline":
                cells.append(f"{t[str(b)]:,}")
            else:
                cells.append(f"{t[str(b)] / base[str(b)] - 1:+.2%}")
        eq = equal_compression(t, target, ref)
        eqs = "not reached" if eq is None else (eq if isinstance(eq, str) else f"{eq:+.1%}")
        rows.append(f"| `{n}` | " + " | ".join(cells) + f" | {eqs} |")
    return "\n".join(rows)


def ceiling_table(corpus, splitter):
    res = load(corpus, splitter)
    c = res.get("baseline", {}).get("ceiling")
    if not c:
        return ""
    rows = [f"| {corpus} baseline budget | variant entries | with base as entry | ceiling (of budget) | (of trained entries) |", "|---|---|---|---|---|"]
    for b, v in sorted(c.items(), key=lambda kv: int(kv[0])):
        rows.append(f"| {int(b):,} | {v['variant_entries']:,} | {v['with_base']:,} | {v['ceiling']:.1%} | {v['ceiling_excl_bytes']:.1%} |")
    return "\n".join(rows)


if __name__ == "__main__":
    args = sys.argv[1:] or ["code", "llama3"]
    print(table(*args))
    print()
    print(ceiling_table(*args))
