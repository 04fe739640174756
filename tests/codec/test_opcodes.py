"""The Python constants agree with spec/opcodes.json, the format's single source of truth."""

from __future__ import annotations

import json

import functok
from functok import opcodes
from functok.errors import ERROR_KINDS

from conftest import REPO

TABLE = json.loads((REPO / "spec" / "opcodes.json").read_text(encoding="utf-8"))


def cp(text: str) -> int:
    return int(text.removeprefix("U+"), 16)


def test_opcodes_match_the_table():
    from_table = {cp(op["code_point"]): (op["name"], len(op["args"])) for op in TABLE["opcodes"]}
    assert from_table == {op: (info.name, info.arity) for op, info in opcodes.OPCODES.items()}
    names = {cp(op["code_point"]): tuple(a["name"] for a in op["args"]) for op in TABLE["opcodes"]}
    assert names == {op: info.args for op, info in opcodes.OPCODES.items()}


def test_marks_match_the_table():
    marks = [(op["name"], chr(cp(op["mark"]))) for op in TABLE["opcodes"] if op["family"] == "mark"]
    assert marks == list(opcodes.MARKS)
    assert len(marks) == 13


def test_ranges_match_the_table():
    assert (cp(TABLE["argument"]["first"]), cp(TABLE["argument"]["last"])) == (
        opcodes.ARGUMENT_FIRST, opcodes.ARGUMENT_LAST)
    assert cp(TABLE["escape"]["code_point"]) == opcodes.ESCAPE
    assigned = set(opcodes.OPCODES)
    for block in TABLE["reserved"] + TABLE["unassigned"]:
        span = range(cp(block["first"]), cp(block["last"]) + 1)
        assert not assigned & set(span)
        assert all(opcodes.GROUP_FIRST <= c <= opcodes.GROUP_LAST for c in span)
    # Every code point of U+E100..U+EFFE is assigned, reserved or unassigned: nothing is left out.
    covered = assigned | {c for b in TABLE["reserved"] + TABLE["unassigned"]
                          for c in range(cp(b["first"]), cp(b["last"]) + 1)}
    assert covered == set(range(0xE100, opcodes.GROUP_LAST + 1))


def test_error_kinds_match_the_table():
    assert [e["kind"] for e in TABLE["errors"]] == list(ERROR_KINDS)
    assert TABLE["error_precedence"]["order"] == ["bad-count", "bad-range", "position-out-of-range"]


def test_versions_agree():
    import importlib.metadata
    assert TABLE["spec_version"] == functok.SPEC_VERSION
    assert importlib.metadata.version("functok") == functok.__version__
