"""Context fusion merges with K chosen by the K rule (no held-out tuning): c* = mean training
usage of the tokens of the last 200 split merges at budget V-K; fusion merges are added (greedy,
rounds of 2%) while their training count >= c*; K is iterated to a fixed point (2 passes).
usage: krule_eval.py CORPUS BUDGET,..."""
from common import *
import variants as V
import fmctx
from fusionmerge import opts_of, tokenize_all, with_fusion


def cstar(m, split_c):
    toks = tokenize_all(m, split_c)
    use = Counter()
    for w, n in split_c.items():
        for t in toks[w]:
            use[t] += n
    last = [a + b for a, b in merges_of(m)[-200:]]
    return sum(use[t] for t in last) / len(last)


def greedy_until(wc, toks, cmin, kmax):
    """fmctx.fusion_merges, but stop at the first merge whose count < cmin."""
    counts = []
    orig = fmctx.Counter

    class Rec(Counter):
        def most_common(self, n=None):
            r = [(p, c) for p, c in Counter.most_common(self, n) if c >= cmin]
            counts.extend(c for _, c in r)
            if len(r) < (n or 0):  # the last round: make the loop stop afterwards
                Rec.done = True
            return r
    fmctx.Counter = Rec
    fmctx.ROUND = 0.02
    try:
        merges = fusion_merges_stop(wc, toks, kmax, Rec)
    finally:
        fmctx.Counter = orig
    return merges


def fusion_merges_stop(wc, toks, kmax, Rec):
    # run rounds until a round returns fewer merges than asked (counts fell below c*)
    Rec.done = False
    out = []
    # fmctx.fusion_merges loops while len(merges) < K; emulate the stop by a large K and a flag
    orig_mc = Rec.most_common
    def mc(self, n=None):
        if Rec.done:
            return []
        return orig_mc(self, n)
    Rec.most_common = mc
    merges = fmctx.fusion_merges(wc, toks, kmax, lambda a, b: True, True)
    return merges


def main(corpus, budgets, oname="norep.r2ge.mk", splitter="llama3"):
    opts = opts_of(oname)
    tr, he, _ = piece_counts(corpus, splitter)
    big = json.load(open(os.path.join(CACHE, f"split-{corpus}-{splitter}-{oname}.json")))
    split_c = apply_variant(tr, V.make(fuse="split", **opts))
    train_t, held_t = CORPORA[corpus]()
    wc, hc = fmctx.chain_counts(train_t, opts, splitter), fmctx.chain_counts(held_t, opts, splitter)
    held_words = Counter()
    for segs, n in hc.items():
        held_words["".join(segs)] += n
    strings = {s for segs in wc if len(segs) > 1 for s in segs}
    out_path = os.path.join(HERE, "results", f"krule-{corpus}-{splitter}-{oname}.json")
    res = json.load(open(out_path)) if os.path.exists(out_path) else {}
    for b in budgets:
        if str(b) in res:
            continue
        K = int(0.1 * b)
        for _ in range(2):
            m1 = truncate(big, b - K)
            c = cstar(m1, split_c)
            merges = greedy_until(wc, tokenize_all(m1, strings), c, int(0.5 * b))
            K_new = len(merges)
            if abs(K_new - K) <= 0.05 * K:
                K = K_new
                break
            K = K_new
        m1 = truncate(big, b - K)
        merges = greedy_until(wc, tokenize_all(m1, strings), cstar(m1, split_c), K)[:K]
        full = with_fusion(m1, merges)
        n = count_tokens(full, held_words)
        res[str(b)] = {"budget": b, "K": len(merges), "K_frac": round(len(merges) / b, 4), "cstar": round(c, 2), "tokens": n}
        log(corpus, b, res[str(b)])
        json.dump(res, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1], [int(x) for x in sys.argv[2].split(",")], *(sys.argv[3:4]))
