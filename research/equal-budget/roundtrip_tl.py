"""Lossless check of the prototypes: a small decoder for the prototype groups (UPPERCASE(start,
end): slots start..end-1 with a case pair take the upper member, others are unchanged; case
before marks, repeats last by descending start) on every distinct piece of both corpora."""
from common import *
import variants
from functok.opcodes import OPCODES, OPCODE_TO_MARK
from functok import _ucd

def decode_piece(ins, base):
    slots, i = [], 0
    while i < len(base):
        if base[i] == "\uefff":
            slots.append(base[i + 1]); i += 2
        else:
            slots.append(base[i]); i += 1
    marks = {}
    reps = []
    for c in ins:
        op, args = c[0], [ord(x) - 0xE000 for x in c[1:]]
        if op == variants.UPPERCASE_OP:
            for s in range(args[0], args[1]):
                slots[s] = _ucd.LOWER_TO_UPPER.get(slots[s], slots[s])
        else:
            name = OPCODES[ord(op)].name
            if name == "CAPITALIZE":
                slots[args[0]] = _ucd.LOWER_TO_UPPER.get(slots[args[0]], slots[args[0]])
            elif name in ("REPEAT", "MULTIREPEAT"):
                reps.append((name, args))
            else:
                marks.setdefault(args[0], []).append(OPCODE_TO_MARK[ord(op)])
    for s, ops in marks.items():
        seq = "".join(ops)
        slots[s] = _ucd.COMPOSITIONS[(slots[s], seq)]
    for name, a in sorted(reps, key=lambda r: -r[1][0]):
        if name == "REPEAT":
            slots[a[0]:a[0] + 1] = [slots[a[0]] * a[1]]
        else:
            slots[a[0]:a[1]] = ["".join(slots[a[0]:a[1]]) * a[2]]
    return "".join(slots)


for corpus in ("code", "udhr"):
    tr, he, _ = piece_counts(corpus, "llama3")
    allp = list(set(tr) | set(he))
    o = dict(repeat="none", rng=dict(min_run=2, gaps=True, edges=True), tl=True)
    bad = [p for p in allp if decode_piece(*variants.analyse(p, **o)) != p]
    log(corpus, "tl", "round-trip failures:", len(bad), bad[:3])
