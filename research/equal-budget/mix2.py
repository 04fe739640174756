from common import *
import variants as V
o = dict(repeat="none", rng=dict(min_run=2, gaps=True, edges=True))
for corpus in ("code", "udhr"):
    tr, he, info = piece_counts(corpus, "llama3")
    k = Counter()
    for p, n in he.items():
        ins, base = V.analyse(p, **o)
        if not ins: continue
        k["pieces"] += n
        k[f"groups of {min(len(ins),3)}{'+' if len(ins)>=3 else ''} instructions"] += n
        if len(ins) == 1:
            first = ins[0]
            kind = "UPPERCASE" if first[0] == V.UPPERCASE_OP else ("CAPITALIZE" if first[0]=="\ue100" else "mark")
            k[f"1 instr: {kind}"] += n
            if kind == "CAPITALIZE": k[f"1 instr: CAPITALIZE at slot {'0/1' if ord(first[1])-0xE000 <= 1 else '>=2 (camel)'}"] += n
        if tr.get(p, 0) == 0: k["held piece unseen in training"] += n
        elif tr[p] < 10: k["held piece seen <10 times"] += n
    log(corpus, dict(k))
