from common import *
import sys
for corpus in ("code", "udhr"):
    for sp in ("llama3", "paper"):
        t = time.time(); tr, he, info = piece_counts(corpus, sp)
        log(corpus, sp, info, "distinct train", len(tr), "held", len(he), "tokens train", sum(tr.values()), f"{time.time()-t:.1f}s")
