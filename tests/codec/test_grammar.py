"""functok.grammar agrees with spec/opcodes.json and with spec 7.1's read_text."""

from __future__ import annotations

import doctest
import json
import random

from functok import grammar

from conftest import REPO

TABLE = json.loads((REPO / "spec" / "opcodes.json").read_text(encoding="utf-8"))


def cp(text: str) -> int:
    return int(text.removeprefix("U+"), 16)


def test_ranges_match_the_table():
    first_argument = cp(TABLE["argument"]["first"])
    escape = cp(TABLE["escape"]["code_point"])
    last_block = max(cp(block["last"]) for block in TABLE["reserved"] + TABLE["unassigned"])
    assert grammar.GROUP_CLASS == f"{chr(first_argument)}-{chr(last_block)}"
    assert grammar.FORMAT_CLASS == f"{chr(first_argument)}-{chr(escape)}"
    assert last_block + 1 == escape  # ESCAPE is the one format code point outside every group


def read_text(s: str, i: int) -> tuple[int, list[str]]:
    """Spec 7.1's read_text, without the surrogate replacement: (end, the slots as written)."""
    slots = []
    while i < len(s):
        c = ord(s[i])
        if c == 0xEFFF:
            if i + 1 == len(s):
                break
            slots.append(s[i:i + 2])
            i += 2
        elif 0xE000 <= c <= 0xEFFE:
            break
        else:
            slots.append(s[i])
            i += 1
    return i, slots


def parts(s: str) -> list[tuple[str, str]]:
    """The stream cut as spec 7.1 says: (kind, code points) for each group, text and final ESCAPE."""
    out, i = [], 0
    while i < len(s):
        if 0xE000 <= ord(s[i]) <= 0xEFFE:
            end = i
            while end < len(s) and 0xE000 <= ord(s[end]) <= 0xEFFE:
                end += 1
            out.append(("group", s[i:end]))
        else:
            end, _ = read_text(s, i)
            if end == i:  # an ESCAPE at the end
                end = i + 1
                out.append(("escape_at_end", s[i:end]))
            else:
                out.append(("text", s[i:end]))
        i = end
    return out


def test_patterns_cut_streams_as_the_spec_does():
    alphabet = ["a", "b", "\ue000", "\ue005", "\ue100", "\ue200", "\ue201", "\uefff", "\ud800", "\uf000"]
    rng = random.Random(12)
    for _ in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        assert [(m.lastgroup, m.group()) for m in grammar.STREAM_PART.finditer(s)] == parts(s)
        for i in range(len(s) + 1):
            end, slots = read_text(s, i)
            assert grammar.text_end(s, i) == end
            assert grammar.slot_list(s[i:end]) == slots
            assert grammar.unescape(s[i:end]) == "".join(slot[-1] for slot in slots)
        assert bool(grammar.NEEDS_DECODING.search(s)) == any(
            0xD800 <= ord(c) <= 0xDFFF or 0xE000 <= ord(c) <= 0xEFFF for c in s)


def test_docstring_examples_run():
    result = doctest.testmod(grammar)
    assert result.failed == 0 and result.attempted > 0
