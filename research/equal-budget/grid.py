"""Held-out tokens of one variant at every budget of the grid, from ONE training at the largest
budget, truncated (Q1 shows truncation == separate training). Results cached in results/.

usage: grid.py CORPUS SPLITTER NAME [NAME ...]   (names from SPECS below)
"""
from common import *
import variants as V

BUDGETS = [8000, 11314, 16000, 22627, 32000, 45255, 64000]
VMAX = 64000


def fused_set_T(tr, T, **opts):
    """The instruction-bearing pieces seen at least T times in training."""
    out = set()
    for p, n in tr.items():
        if n >= T and V.analyse(p, **opts)[0]:
            out.add(p)
    return out


def fused_set_K(tr, K, **opts):
    c = [(n, p) for p, n in tr.items() if V.analyse(p, **opts)[0]]
    c.sort(reverse=True)
    return {p for n, p in c[:K]}


RANGE = {"r2": dict(min_run=2), "r3": dict(min_run=3), "r2g": dict(min_run=2, gaps=True),
         "r3g": dict(min_run=3, gaps=True), "r2ge": dict(min_run=2, gaps=True, edges=True)}
REPEAT = {"rep": "all", "wsp": "ws_piece", "wsr": "ws_run", "norep": "none"}


def spec(name, tr):
    """name = parts joined by '.': [repeat].[case].[marks].[fusion]
    repeat: rep|wsp|wsr|norep; case: cap|r2|r3|r2g|r3g|r2ge|nocase; marks: mk|nomk;
    fusion: split|group|fused|T<n>|K<n>|first|gT<n> (fused over T, else whole group one pre-token)."""
    if name in ("baseline", "paper_split", "paper_fused"):
        return V.VARIANTS[name]
    rep, cas, mk, fus = name.split(".")
    opts = dict(repeat=REPEAT[rep], case=cas != "nocase", marks=mk == "mk",
                rng=RANGE.get(cas))
    if fus in ("split", "group", "fused", "first"):
        return V.make(fuse=fus, **opts)
    if fus.startswith("gT"):
        return V.make(fuse="setgroup", fused_set=fused_set_T(tr, int(fus[2:]), **opts), **opts)
    if fus.startswith("T"):
        return V.make(fuse="set", fused_set=fused_set_T(tr, int(fus[1:]), **opts), **opts)
    if fus.startswith("K"):
        return V.make(fuse="set", fused_set=fused_set_K(tr, int(fus[1:]), **opts), **opts)
    raise ValueError(name)


def run(corpus, splitter, name, budgets=BUDGETS, vmax=VMAX, want_ceiling=False):
    path = os.path.join(HERE, "results", f"{corpus}-{splitter}-{name}.json")
    if os.path.exists(path):
        return json.load(open(path))
    tr, he, info = piece_counts(corpus, splitter)
    t0 = time.time()
    fn = spec(name, tr)
    c, h = apply_variant(tr, fn), apply_variant(he, fn)
    t1 = time.time()
    big = train(c, vmax)
    t2 = time.time()
    out = {"corpus": corpus, "splitter": splitter, "variant": name, "info": info,
           "train_pretokens": sum(c.values()), "distinct_train_pretokens": len(c),
           "held_pretokens": sum(h.values()), "trained_vocab": len(big["model"]["vocab"]) + 256,
           "tokens": {}, "ceiling": {}}
    for b in budgets:
        cut = truncate(big, b)
        if cut is None:
            out["tokens"][str(b)] = None
            continue
        out["tokens"][str(b)] = count_tokens(cut, h)
        if want_ceiling:
            out["ceiling"][str(b)] = ceiling(cut)
    out["seconds"] = {"pretokens": round(t1 - t0, 1), "train": round(t2 - t1, 1), "count": round(time.time() - t2, 1)}
    json.dump(out, open(path, "w"), indent=1)
    log(corpus, splitter, name, out["seconds"], {k: v for k, v in out["tokens"].items()})
    return out


if __name__ == "__main__":
    corpus, splitter, *names = sys.argv[1:]
    for n in names:
        run(corpus, splitter, n, want_ceiling=(n == "baseline"))
