"""Q1: are the merges of a smaller budget a prefix of a larger run's (HF BpeTrainer, same corpus
and settings)? And does truncating the large run give the same held-out token counts?"""
from common import *
import variants
res = {}
for corpus in ("code", "udhr"):
    tr, he, info = piece_counts(corpus, "llama3")
    for vname in ("baseline", "paper_split"):
        fn = variants.VARIANTS[vname]
        c, h = apply_variant(tr, fn), apply_variant(he, fn)
        runs = {}
        for V in (8000, 16000, 32000, 65536):
            t = time.time(); runs[V] = train(c, V); dt = time.time() - t
            log(corpus, vname, V, f"trained in {dt:.1f}s, vocab {len(runs[V]['model']['vocab'])}, merges {len(runs[V]['model']['merges'])}")
        big = runs[65536]
        bm = merges_of(big)
        for V in (8000, 16000, 32000):
            m = merges_of(runs[V])
            prefix = bm[:len(m)] == m
            first_diff = next((k for k, (a, b) in enumerate(zip(m, bm)) if a != b), None)
            vocab_same = all(big["model"]["vocab"].get(t) == i for t, i in runs[V]["model"]["vocab"].items())
            cut = truncate(big, V)
            same_model = cut["model"]["vocab"] == runs[V]["model"]["vocab"] and cut["model"]["merges"] == [list(x) for x in m]
            n_sep = count_tokens(runs[V], h); n_cut = count_tokens(cut, h)
            log(corpus, vname, V, f"merges prefix of 64k: {prefix} (first diff {first_diff}); vocab ids same: {vocab_same}; truncated model identical: {same_model}; held tokens separate {n_sep} truncated {n_cut}")
            res[f"{corpus}/{vname}/{V}"] = dict(prefix=prefix, first_diff=first_diff, vocab_same=vocab_same,
                                                 same_model=same_model, separate=n_sep, truncated=n_cut)
json.dump(res, open("results/q1_prefix.json", "w"), indent=1)
