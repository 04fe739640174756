from common import *
import variants
for corpus in ("code", "udhr"):
    for sp in ("llama3", "paper"):
        tr, he, _ = piece_counts(corpus, sp)
        allp = Counter(tr); allp.update(he)
        log(corpus, sp, "mismatches vs functok.analyse_piece:", variants.check(allp), "of", len(allp))
# spot checks
for s in ["MAX_SIZE", "HTTPServer", " UNICEF", "ÉCOLE", "AAAH", "getValue", "A_B", "    ", "):\n\n\n", "abcabcabc", "STRAßE"]:
    for rng in (None, dict(min_run=2), dict(min_run=2, gaps=True), dict(min_run=2, gaps=True, edges=True)):
        ins, base = variants.analyse(s, repeat="ws_run", rng=rng)
        print(repr(s), rng, [ "UPPERCASE(%d,%d)" % (ord(i[1])-0xE000, ord(i[2])-0xE000) if i[0]=="\ue110" else " ".join("%04X"%ord(c) for c in i) for i in ins], repr(base))
