"""Shared-base fusion ("fusion merges"): train split-mode BPE (every instruction its own
pre-token, bases pooled) at budget V-K, then append K merges that may only join two symbols
across an instruction/instruction or instruction/base boundary, chosen greedily by training
frequency (in rounds). At encode time every piece is ONE pre-token (group + base): the split
merges rebuild each instruction and the base exactly as in split mode (no split merge can cross
a boundary: an argument code point is never followed by a base or opcode code point inside a
split pre-token), then the fusion merges join the frequent combinations.
So: base sharing for every piece, whole tokens for the frequent pieces, standard BPE file.

usage: fusionmerge.py CORPUS OPTS_NAME BUDGET,... FRACTION,...
"""
from common import *
import variants as V
from grid import REPEAT, RANGE

ROUND = 0.1  # each round takes this share of the remaining K (at least 50 merges)


def opts_of(name):
    rep, cas, mk = name.split(".")
    if cas == "tl":  # r2ge, but camelCase/PascalCase pieces keep their case literal
        return dict(repeat=REPEAT[rep], case=True, marks=mk == "mk", rng=RANGE["r2ge"], tl=True)
    return dict(repeat=REPEAT[rep], case=cas != "nocase", marks=mk == "mk", rng=RANGE.get(cas))


def segments_of(counts, opts):
    """piece -> (list of instruction strings, base)"""
    return {p: V.analyse(p, **opts) for p in counts}


def tokenize_all(trained, strings):
    hf = hf_counter(trained)
    strings = list(strings)
    out = {}
    for k in range(0, len(strings), 20000):
        ss = strings[k:k + 20000]
        for s, e in zip(ss, hf.encode_batch(ss, add_special_tokens=False)):
            out[s] = e.tokens
    return out


def fusion_merges(tr, segs, toks, K):
    """Greedy boundary merges. words: (symbols, boundaries-after flags), counts."""
    words = []
    for p, n in tr.items():
        ins, base = segs[p]
        if not ins:
            continue
        syms, cross = [], []  # cross[i]: a segment boundary lies between syms[i] and syms[i+1]
        for seg in list(ins) + [base]:
            t = toks[seg]
            if syms:
                cross.append(True)
            syms.extend(t)
            cross.extend([False] * (len(t) - 1))
        words.append([syms, cross, n])
    merges = []
    while len(merges) < K:
        pc = Counter()
        for syms, cross, n in words:
            for i, c in enumerate(cross):
                if c:
                    pc[(syms[i], syms[i + 1])] += n
        if not pc:
            break
        take = max(50, int((K - len(merges)) * ROUND))
        best = [pr for pr, _ in pc.most_common(min(take, K - len(merges)))]
        rank = {pr: r for r, pr in enumerate(best)}
        merges.extend(best)
        for w in words:
            syms, cross, n = w
            # apply this round's merges in rank order (as BPE would)
            while True:
                cand = [(rank[(syms[i], syms[i + 1])], i) for i, c in enumerate(cross) if c and (syms[i], syms[i + 1]) in rank]
                if not cand:
                    break
                r, i = min(cand)
                syms[i:i + 2] = [syms[i] + syms[i + 1]]
                cross[i:i + 1] = []  # the boundary between them disappears; neighbours keep theirs
                # (cross has len(syms)-1 entries: remove the entry for the merged pair)
            w[0], w[1] = syms, cross
    return merges, pc_last(words)


def pc_last(words):
    return None


def with_fusion(trained, merges):
    model = trained["model"]
    vocab = dict(model["vocab"])
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    return dict(trained, model=dict(model, vocab=vocab, merges=merges_of(trained) + [tuple(m) for m in merges]))


def fused_pretokens(counts, segs):
    out = Counter()
    for p, n in counts.items():
        ins, base = segs[p]
        out["".join(ins) + base] += n
    return out


def main(corpus, oname, budgets, fracs, splitter="llama3"):
    tr, he, info = piece_counts(corpus, splitter)
    opts = opts_of(oname)
    segs = segments_of(set(tr) | set(he), opts)
    path = os.path.join(CACHE, f"split-{corpus}-{splitter}-{oname}.json")
    if os.path.exists(path):
        big = json.load(open(path))
    else:
        c = apply_variant(tr, V.make(fuse="split", **opts))
        t = time.time(); big = train(c, 64000); log("trained split", round(time.time() - t, 1))
        json.dump(big, open(path, "w"))
    held_fused = fused_pretokens(he, segs)
    out_path = os.path.join(HERE, "results", f"fm-{corpus}-{splitter}-{oname}.json")
    res = json.load(open(out_path)) if os.path.exists(out_path) else {}
    strings = {s for p in tr for s in (list(segs[p][0]) + [segs[p][1]]) if segs[p][0]}
    for b in budgets:
        for f in fracs:
            key = f"{b}/{f}"
            if key in res:
                continue
            K = int(round(b * f))
            m1 = truncate(big, b - K)
            toks = tokenize_all(m1, strings)
            merges, _ = fusion_merges(tr, segs, toks, K)
            full = with_fusion(m1, merges)
            n = count_tokens(full, held_fused)
            res[key] = {"budget": b, "K": K, "fusion_merges": len(merges), "vocab": len(full["model"]["vocab"]) + 256, "tokens": n}
            log(corpus, oname, key, res[key])
            json.dump(res, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    corpus, oname, budgets, fracs = sys.argv[1:5]
    sp = sys.argv[5] if len(sys.argv) > 5 else "llama3"
    main(corpus, oname, [int(x) for x in budgets.split(",")], [float(x) for x in fracs.split(",")], sp)
