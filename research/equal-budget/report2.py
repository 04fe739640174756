"""Tables for the fusion-merge results (fm-*.json, fmctx-*.json): Δ tokens vs baseline per budget
and fraction K/V, and vocabulary at equal compression per fixed fraction and for the envelope."""
import json, glob, os, sys
from report import load, equal_compression
HERE = os.path.dirname(os.path.abspath(__file__))


def fm_table(path, corpus, splitter="llama3", ref=32000):
    base = load(corpus, splitter)["baseline"]["tokens"]
    r = json.load(open(path))
    by = {}
    for k, v in r.items():
        by.setdefault(k.split("/")[1], {})[str(v["budget"])] = v["tokens"]
    budgets = sorted({int(b) for d in by.values() for b in d})
    fr = sorted(by, key=float)
    lines = [f"| budget | " + " | ".join(f"K={float(f):.0%}" for f in fr) + " | best |", "|---" * (len(fr) + 2) + "|"]
    env = {}
    for b in budgets:
        cells, best = [], None
        for f in fr:
            n = by[f].get(str(b))
            cells.append("" if n is None else f"{n / base[str(b)] - 1:+.2%}")
            if n is not None and (best is None or n < best):
                best = n
        env[str(b)] = best
        lines.append(f"| {b:,} | " + " | ".join(cells) + f" | {best / base[str(b)] - 1:+.2%} |")
    eq = []
    for f in fr + ["best"]:
        d = env if f == "best" else by[f]
        if len(d) >= 3:
            e = equal_compression(d, base[str(ref)], ref)
            eq.append(f"K={f if f == 'best' else f'{float(f):.0%}'}: " + ("not reached" if e is None else (e if isinstance(e, str) else f"{e:+.1%}")))
    return "\n".join(lines) + "\n\nvocabulary at equal compression (vs baseline 32k): " + ("; ".join(eq) if eq else "(needs at least 3 budgets; only these were run)")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        corpus = "code" if "-code-" in p else "udhr"
        print(p)
        print(fm_table(p, corpus))
        print()
