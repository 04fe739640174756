"""An adaptive rule for K (how many fusion merges): keep adding boundary merges while their
training count is at least c*, the typical training count of the last split merges (mean final
usage of the tokens made by the last 200 merges of the split training at V). Reports K/V.
usage: krule.py CORPUS BUDGET,..."""
from common import *
import variants as V
import fmctx
from fusionmerge import opts_of, tokenize_all

def main(corpus, budgets, oname="norep.r2ge.mk", splitter="llama3"):
    opts = opts_of(oname)
    tr, he, _ = piece_counts(corpus, splitter)
    big = json.load(open(os.path.join(CACHE, f"split-{corpus}-{splitter}-{oname}.json")))
    split_c = apply_variant(tr, V.make(fuse="split", **opts))
    train_t, _ = CORPORA[corpus]()
    wc = fmctx.chain_counts(train_t, opts, splitter)
    strings = {s for segs in wc if len(segs) > 1 for s in segs}
    for b in budgets:
        m = truncate(big, b)
        toks = tokenize_all(m, split_c)
        use = Counter()
        for w, n in split_c.items():
            for t in toks[w]:
                use[t] += n
        merges = merges_of(m)
        last = [a + bb for a, bb in merges[-200:]]
        cstar = sum(use[t] for t in last) / len(last)
        # boundary pair counts, greedy, one merge per step approximated by rounds of 1%
        fmctx.ROUND = 0.02
        toks2 = tokenize_all(m, strings)
        counts = fusion_counts(wc, toks2, int(0.4 * b))
        K = sum(1 for c in counts if c >= cstar)
        log(corpus, b, f"c*={cstar:.1f}", f"K_rule={K} ({K / b:.1%} of budget)", "counts at 5/10/15/20%:",
            [counts[int(f * b)] if int(f * b) < len(counts) else None for f in (0.03, 0.05, 0.1, 0.15, 0.2)])

def fusion_counts(words_c, toks, K):
    # like fmctx.fusion_merges but returns the count of each chosen merge
    out = []
    orig = fmctx.Counter
    class Rec(Counter):
        def most_common(self, n=None):
            r = Counter.most_common(self, n)
            out.extend(c for _, c in r)
            return r
    fmctx.Counter = Rec
    try:
        fmctx.fusion_merges(words_c, toks, K, lambda a, b: True, True)
    finally:
        fmctx.Counter = orig
    return out

if __name__ == "__main__":
    main(sys.argv[1], [int(x) for x in sys.argv[2].split(",")])
