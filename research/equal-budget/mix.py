"""Instruction mix on the held-out and training sets (no training): pieces with instructions,
instructions by kind, per option set."""
from common import *
import variants as V
OPTS = {"paper": dict(), "norep.cap": dict(repeat="none"), "wsr.r2": dict(repeat="ws_run", rng=dict(min_run=2)),
        "norep.r2ge": dict(repeat="none", rng=dict(min_run=2, gaps=True, edges=True))}
for corpus in ("code", "udhr"):
    tr, he, info = piece_counts(corpus, "llama3")
    for part, c in (("held", he),):
        tot = sum(c.values())
        for name, o in OPTS.items():
            kinds = Counter(); withins = 0
            for p, n in c.items():
                ins, base = V.analyse(p, **o)
                if ins:
                    withins += n
                for i in ins:
                    k = "UPPERCASE" if i[0] == V.UPPERCASE_OP else __import__("functok.opcodes", fromlist=["x"]).OPCODES[ord(i[0])].name
                    if k not in ("UPPERCASE", "CAPITALIZE", "REPEAT", "MULTIREPEAT"):
                        k = "mark"
                    kinds[k] += n
            log(corpus, part, name, f"pieces {tot:,}; with instructions {withins:,} ({withins/tot:.1%}); instructions {sum(kinds.values()):,} {dict(kinds)}")
