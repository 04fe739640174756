"""Shared-base fusion with left context: like fusionmerge.py, but an instruction-bearing piece is
joined, as one BPE word, to the piece before it (chains of consecutive instruction-bearing pieces
form one word), and fusion merges may also join the previous piece's last token with the group
(e.g. '.'+CAPITALIZE(1) or 'class'+CAPITALIZE(1)), so a predictable capital costs no token while
every base stays shared. Segment boundaries are the only places fusion merges may act.

usage: fmctx.py CORPUS OPTS_NAME BUDGET,... FRACTION,... [nogroupbase]
"""
from common import *
import variants as V
from fusionmerge import opts_of, tokenize_all, with_fusion
ROUND = float(os.environ.get('FM_ROUND', '0.1'))
from functok.normalize import nfc
from functok.split import split


def chain_counts(texts, opts, splitter="llama3"):
    """Counter of words, each a tuple of segments; boundaries between segments."""
    out = Counter()
    memo = {}
    for t in texts:
        cur = None
        for p in split(nfc(t), splitter=splitter):
            a = memo.get(p)
            if a is None:
                a = memo[p] = V.analyse(p, **opts)
            ins, base = a
            segs = tuple(ins) + (base,)
            if ins and cur is not None:
                cur = cur + segs
            else:
                if cur is not None:
                    out[cur] += 1
                cur = segs
        if cur is not None:
            out[cur] += 1
    return out


def _has_ins(t):
    return any("\ue100" <= ch <= "\ueffe" for ch in t) and not t.startswith("\uefff")


def fusion_merges(words_c, toks, K, allow, one_piece=True, ext=False):
    """one_piece: no token may hold text of two different pieces (so a fusion merge can attach
    a group to the previous piece's last token, or to its own base, but never join two texts)."""
    words = []
    for segs, n in words_c.items():
        if len(segs) == 1:
            continue
        syms, cross, owner = [], [], []
        piece = 0
        for k, seg in enumerate(segs):
            t = toks[seg]
            if syms:
                cross.append(ext or allow(segs[k - 1], seg))
            syms.extend(t)
            cross.extend([ext] * (len(t) - 1))
            if is_ins(seg):
                owner.extend([None] * len(t))
            else:
                owner.extend([piece] * len(t))
                piece += 1
        words.append([syms, cross, owner, n])

    def ok(owner, i, syms=None):
        a, b = owner[i], owner[i + 1]
        if one_piece and a is not None and b is not None and a != b:
            return False
        if ext:  # any pair with an instruction in it (so a fused group may go on merging with its base)
            return ins_in[i] if syms is None else (_has_ins(syms[i]) or _has_ins(syms[i + 1]))
        return True
    merges = []
    while len(merges) < K:
        pc = Counter()
        for syms, cross, owner, n in words:
            for i, c in enumerate(cross):
                if c and ok(owner, i, syms):
                    pc[(syms[i], syms[i + 1])] += n
        if not pc:
            break
        take = max(50, int((K - len(merges)) * ROUND))
        best = [pr for pr, _ in pc.most_common(min(take, K - len(merges)))]
        if not best:
            break
        rank = {pr: r for r, pr in enumerate(best)}
        merges.extend(best)
        for w in words:
            syms, cross, owner, n = w
            while True:
                cand = [(rank[(syms[i], syms[i + 1])], i) for i, c in enumerate(cross)
                        if c and (syms[i], syms[i + 1]) in rank and ok(owner, i, syms)]
                if not cand:
                    break
                r, i = min(cand)
                syms[i:i + 2] = [syms[i] + syms[i + 1]]
                cross[i:i + 1] = []
                o = owner[i] if owner[i] is not None else owner[i + 1]
                owner[i:i + 2] = [o]
    return merges


def is_ins(s):
    return "\ue100" <= s[0] <= "\ueffe"


def main(corpus, oname, budgets, fracs, mode="all", splitter="llama3"):
    opts = opts_of(oname)
    train_t, held_t = CORPORA[corpus]()
    t = time.time()
    wc, hc = chain_counts(train_t, opts, splitter), chain_counts(held_t, opts, splitter)
    log("chains", len(wc), len(hc), round(time.time() - t, 1))
    big = json.load(open(os.path.join(CACHE, f"split-{corpus}-{splitter}-{oname}.json")))
    held_words = Counter()
    for segs, n in hc.items():
        held_words["".join(segs)] += n
    strings = {s for segs in wc if len(segs) > 1 for s in segs}
    # which boundaries may fuse: ctx (previous text | group), group|group, group|base
    if mode == "all":
        allow = lambda a, b: True
    one_piece = not mode.endswith("-cross")
    ext = mode == "ext"
    mode = mode.replace("-cross", "").replace("ext", "all")
    if mode == "all":
        allow = lambda a, b: True
    elif mode == "ctxonly":  # only previous text | first instruction (group/base stay split)
        allow = lambda a, b: (not is_ins(a)) and is_ins(b)
    tag = ("ext" if ext else mode) + ("" if one_piece else "-cross") + ("" if ROUND == 0.1 else f"-round{ROUND}")
    out_path = os.path.join(HERE, "results", f"fmctx-{tag}-{corpus}-{splitter}-{oname}.json")
    res = json.load(open(out_path)) if os.path.exists(out_path) else {}
    for b in budgets:
        for f in fracs:
            key = f"{b}/{f}"
            if key in res:
                continue
            K = int(round(b * f))
            m1 = truncate(big, b - K)
            toks = tokenize_all(m1, strings)
            merges = fusion_merges(wc, toks, K, allow, one_piece, ext)
            full = with_fusion(m1, merges)
            n = count_tokens(full, held_words)
            res[key] = {"budget": b, "K": K, "fusion_merges": len(merges), "vocab": len(full["model"]["vocab"]) + 256, "tokens": n}
            log(corpus, oname, tag, key, res[key])
            json.dump(res, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    corpus, oname, budgets, fracs = sys.argv[1:5]
    mode = sys.argv[5] if len(sys.argv) > 5 else "all"
    sp = sys.argv[6] if len(sys.argv) > 6 else "llama3"
    main(corpus, oname, [int(x) for x in budgets.split(",")], [float(x) for x in fracs.split(",")], mode, sp)
