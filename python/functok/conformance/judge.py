"""Judging one answer against a vector: exact equality on code points (conformance/INTERPRETING.md).

Pure functions, no I/O: a verdict is `None` for a pass or a one-line message saying what differs.
"""

from __future__ import annotations

import json

PIECE_FIELDS = ("text", "start", "end", "instructions", "base", "encoded", "slot_starts")


def show(value) -> str:
    """A value as ASCII JSON, so private-use and combining characters are visible as \\uXXXX."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 300 else text[:297] + "..."


def judge_output(test: dict, result: dict) -> str | None:
    """A vector with `expected`: the answer must be an output equal to it."""
    if "error" in result:
        return f"expected output {show(test['expected'])}, got error {show(result['error'])}"
    if "output" not in result:
        return f"answer has neither output nor error: {show(result)}"
    got, expected = result["output"], test["expected"]
    if test["op"] == "pieces":
        return _judge_pieces(expected, got)
    if got != expected:
        return f"expected {show(expected)}, got {show(got)}"
    return None


def _judge_pieces(expected: list[dict], got) -> str | None:
    """Pieces are compared field by field on the fields the vector states; extra fields are ignored."""
    if not isinstance(got, list) or len(got) != len(expected):
        count = len(got) if isinstance(got, list) else "not a list"
        return f"expected {len(expected)} pieces, got {count}: {show(got)}"
    for index, (want, have) in enumerate(zip(expected, got)):
        if not isinstance(have, dict):
            return f"piece {index}: expected an object, got {show(have)}"
        for name in PIECE_FIELDS:
            if name in want and have.get(name) != want[name]:
                return f"piece {index} {name}: expected {show(want[name])}, got {show(have.get(name))}"
    return None


def judge_error(test: dict, result: dict) -> str | None:
    """A negative vector, strict run: the answer must be an error of that kind at that offset."""
    want = test["error"]
    if "error" not in result:
        return f"expected error {want['kind']} at {want['offset']}, got output {show(result.get('output'))}"
    got = result["error"]
    if not isinstance(got, dict) or got.get("kind") != want["kind"] or got.get("offset") != want["offset"]:
        return f"expected error {want['kind']} at {want['offset']}, got {show(got)}"
    return None


def judge_lenient(test: dict, result: dict) -> str | None:
    """A negative decode vector, run with errors="replace": the output must equal `lenient`."""
    if "error" in result:
        return f"lenient run: expected {show(test['lenient'])}, got error {show(result['error'])}"
    if result.get("output") != test["lenient"]:
        return f"lenient run: expected {show(test['lenient'])}, got {show(result.get('output'))}"
    return None


JUDGES = {"output": judge_output, "strict": judge_error, "lenient": judge_lenient}


def judge(test: dict, check: str, result: dict) -> str | None:
    return JUDGES[check](test, result)
