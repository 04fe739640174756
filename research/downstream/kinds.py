"""The kind of a token, from its string (FINDINGS.md, "Where the bits go").

* ``byte``: a byte-fallback token ``<0xNN>`` (ids 0..255);
* ``instr:case`` / ``instr:marks`` / ``instr:repeat``: only instruction code points (spec 2),
  holding opcodes of one family (CAPITALIZE/UPPERCASE; the 13 marks; REPEAT/MULTIREPEAT);
* ``instr:args``: only argument code points (a slot or count without its opcode);
* ``instr:mixed``: opcodes of more than one family;
* ``fused``: instruction code points and text in one token (fusion merges, fuse="frequent");
* ``base``: text only (every baseline token that is not a byte).
"""

from __future__ import annotations

from functok.opcodes import (ARGUMENT_FIRST, ARGUMENT_LAST, CAPITALIZE, FIRST_MARK, GROUP_FIRST, GROUP_LAST,
                             MARKS, MULTIREPEAT, REPEAT, UPPERCASE)

KINDS = ("base", "byte", "fused", "instr:case", "instr:marks", "instr:repeat", "instr:args", "instr:mixed")
_FAMILY = {CAPITALIZE: "case", UPPERCASE: "case", REPEAT: "repeat", MULTIREPEAT: "repeat",
           **{FIRST_MARK + i: "marks" for i in range(len(MARKS))}}


def kind_of(token: str, is_byte: bool) -> str:
    if is_byte:
        return "byte"
    group = [ord(c) for c in token if GROUP_FIRST <= ord(c) <= GROUP_LAST]
    if not group:
        return "base"
    if len(group) < len(token):
        return "fused"
    families = {_FAMILY.get(cp, "other") for cp in group if not ARGUMENT_FIRST <= cp <= ARGUMENT_LAST}
    if not families:
        return "instr:args"
    return f"instr:{families.pop()}" if len(families) == 1 else "instr:mixed"
