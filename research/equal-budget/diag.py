"""Where the tokens go: held-out tokens of context fusion (code, 32k, K=15%) vs baseline 32k,
split into pieces outside chains (no instructions, not before one) and chains (an instruction-
bearing piece and the piece before it). Also the most used fusion tokens."""
from common import *
import variants as V
import fmctx
from fusionmerge import opts_of, tokenize_all, with_fusion
corpus, b, f = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
opts = opts_of("norep.r2ge.mk")
train_t, held_t = CORPORA[corpus]()
wc, hc = fmctx.chain_counts(train_t, opts), fmctx.chain_counts(held_t, opts)
big = json.load(open(os.path.join(CACHE, f"split-{corpus}-llama3-norep.r2ge.mk.json")))
K = int(round(b * f)); m1 = truncate(big, b - K)
strings = {s for segs in wc if len(segs) > 1 for s in segs}
merges = fmctx.fusion_merges(wc, tokenize_all(m1, strings), K, lambda a, c: True, True)
full = with_fusion(m1, merges)
hf_v = hf_counter(full)
# baseline model
from grid import train as _t
tr, he, _ = piece_counts(corpus, "llama3")
bl = truncate(train(Counter(tr), 64000), b)
hf_b = hf_counter(bl)
# held-out chains with their raw pieces: rebuild with raw texts
memo = {}
acc = Counter(); fused_use = Counter()
for t in held_t:
    pieces = split(nfc(t), splitter="llama3")
    chain_raw, chain_enc = [], []
    def flush():
        if not chain_raw: return
        kind = "chain" if len(chain_raw) > 1 else "plain"
        w = "".join(chain_enc)
        ev = hf_v.encode(w, add_special_tokens=False).tokens
        eb = sum(len(hf_b.encode(p, add_special_tokens=False).ids) for p in chain_raw)
        acc[kind + " variant"] += len(ev); acc[kind + " baseline"] += eb; acc[kind + " n"] += 1
        for tok in ev:
            if any("\ue100" <= ch <= "\ueffe" for ch in tok) and len(tok) > 1 and not all("\ue000" <= ch <= "\ueffe" for ch in tok):
                fused_use[tok] += 1
    for p in pieces:
        a = memo.get(p) or memo.setdefault(p, V.analyse(p, **opts))
        ins, base = a
        if ins and chain_raw:
            chain_raw.append(p); chain_enc.append("".join(ins) + base)
        else:
            flush(); chain_raw, chain_enc = [p], ["".join(ins) + base]
    flush()
log(corpus, b, f, dict(acc))
for k in ("plain", "chain"):
    log(k, f"variant {acc[k+' variant']:,} baseline {acc[k+' baseline']:,} diff {acc[k+' variant']-acc[k+' baseline']:+,}")
log("top fusion tokens:", [(repr(t), n) for t, n in fused_use.most_common(25)])
