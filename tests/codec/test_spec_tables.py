"""spec/SPEC.md's tables agree with spec/opcodes.json, the format's normative data."""

from __future__ import annotations

import json
import re

from conftest import REPO

SPEC = (REPO / "spec" / "SPEC.md").read_text(encoding="utf-8")
TABLE = json.loads((REPO / "spec" / "opcodes.json").read_text(encoding="utf-8"))


def section(heading: str) -> str:
    """The text of the section that starts with ``heading`` up to the next heading."""
    start = SPEC.index(heading)
    following = re.search(r"^#{2,3} ", SPEC[start + len(heading):], re.M)
    return SPEC[start:start + len(heading) + (following.start() if following else len(SPEC))]


def table_rows(text: str) -> list[list[str]]:
    rows = [line.strip().strip("|").split("|") for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows[2:]]  # skip header and rule


def test_code_point_table_is_the_json_table():
    rows = {row[0]: row for row in table_rows(section("### 2.1 The table"))}
    for op in TABLE["opcodes"]:
        _, name, family, args = rows.pop(op["code_point"])[:4]
        assert (name, family) == (op["name"], op["family"])
        assert [a.strip() for a in args.split(",")] == [a["name"] for a in op["args"]]
    argument = rows.pop(f'{TABLE["argument"]["first"]}..{TABLE["argument"]["last"]}')
    assert argument[1] == "argument"
    escape = rows.pop(TABLE["escape"]["code_point"])
    assert escape[1] == TABLE["escape"]["name"]
    for block in TABLE["reserved"]:
        assert rows.pop(f'{block["first"]}..{block["last"]}')[1] == "reserved"
    for block in TABLE["unassigned"]:
        assert rows.pop(f'{block["first"]}..{block["last"]}')[1] == "unassigned"
    assert not rows, f"rows in SPEC.md 2.1 that opcodes.json lacks: {sorted(rows)}"


def test_marks_in_the_table_are_the_json_marks():
    text = section("### 2.1 The table")
    for op in TABLE["opcodes"]:
        if op["family"] == "mark":
            row = next(line for line in text.splitlines() if line.startswith(f'| {op["code_point"]} |'))
            assert op["mark"] in row, row


def test_error_table_is_the_json_error_table():
    rows = table_rows(section("### 8.1 Error kinds"))
    assert [row[0].strip("`") for row in rows] == [e["kind"] for e in TABLE["errors"]]


def test_header_states_the_spec_and_unicode_versions():
    header = SPEC[:SPEC.index("## Conformance language")]
    assert f'| **Version** | {TABLE["spec_version"]} |' in header
    assert f'Unicode {TABLE["unicode_version"]}' in header
