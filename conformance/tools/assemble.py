"""A tiny assembler for streams, written for the conformance vector sources.

It knows only the code point table in spec/opcodes.json, never functok's encoder or
decoder: the vectors' expected streams are written by hand in this notation, so that a
vector states what the spec says rather than what the code happens to do.

Notation (tokens separated by spaces):

    CAPITALIZE(0)        an opcode with its arguments (names from spec/opcodes.json)
    REPEAT(0,255)        several arguments, comma separated
    ESCAPE               the escape code point U+EFFF
    ARG(7)               a bare argument code point, U+E000 + 7 (a stray argument)
    OPCODE(REPEAT)       an opcode alone, without arguments (truncated instructions)
    U+E110               any single code point, by its number
    "hello"              literal text; Python string escapes (\\u0301, \\n, \\") apply
    "ab"*3               literal text repeated

Example: assemble('ACUTE(1) CAPITALIZE(0) "hello"') == "\\ue102\\ue001\\ue100\\ue000hello".
"""

from __future__ import annotations

import ast
import json
import re
from functools import lru_cache
from pathlib import Path

OPCODES_JSON = Path(__file__).resolve().parents[2] / "spec" / "opcodes.json"

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<text>"(?:[^"\\]|\\.)*")(?:\*(?P<times>\d+))?   # "text" or "text"*N
      | (?P<cp>U\+[0-9A-Fa-f]{4,6})                         # U+XXXX
      | OPCODE\((?P<bare>[A-Z_]+)\)                          # an opcode without its arguments
      | (?P<name>[A-Z_]+)(?:\((?P<args>[0-9,\s]*)\))?       # NAME or NAME(1,2)
    )""",
    re.VERBOSE,
)


def _code_point(spec: str) -> int:
    return int(spec[2:], 16)


@lru_cache(maxsize=1)
def opcode_table() -> dict[str, tuple[int, int]]:
    """name -> (code point, argument count), read from spec/opcodes.json."""
    data = json.loads(OPCODES_JSON.read_text(encoding="utf-8"))
    table = {op["name"]: (_code_point(op["code_point"]), len(op["args"])) for op in data["opcodes"]}
    table[data["escape"]["name"]] = (_code_point(data["escape"]["code_point"]), 0)
    return table


ARGUMENT_BASE = 0xE000


def assemble(source: str) -> str:
    """Turn the readable notation into the code points of a stream."""
    out: list[str] = []
    pos = 0
    source = source.strip()
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read stream notation at {source[pos:pos + 20]!r}")
        pos = m.end()
        if m["text"] is not None:
            out.append(ast.literal_eval(m["text"]) * int(m["times"] or 1))
        elif m["cp"] is not None:
            out.append(chr(_code_point(m["cp"])))
        elif m["bare"] is not None:
            out.append(chr(opcode_table()[m["bare"]][0]))
        else:
            out.append(_instruction(m["name"], m["args"]))
        while pos < len(source) and source[pos].isspace():
            pos += 1
    return "".join(out)


def _instruction(name: str, args_text: str | None) -> str:
    args = [int(a) for a in args_text.split(",")] if args_text and args_text.strip() else []
    if any(not 0 <= a <= 255 for a in args):
        raise ValueError(f"{name}{tuple(args)}: an argument is 0..255")
    if name == "ARG":
        if len(args) != 1:
            raise ValueError("ARG takes exactly one value")
        return chr(ARGUMENT_BASE + args[0])
    table = opcode_table()
    if name not in table:
        raise ValueError(f"unknown instruction name {name!r} (not in spec/opcodes.json)")
    code_point, arity = table[name]
    if len(args) != arity and args_text is not None:
        raise ValueError(f"{name} takes {arity} arguments, got {len(args)}")
    if arity and args_text is None:
        raise ValueError(f"{name} needs its arguments in parentheses")
    return chr(code_point) + "".join(chr(ARGUMENT_BASE + a) for a in args)


def instruction_text(source: str) -> list[str]:
    """Split notation like 'ACUTE(1) CAPITALIZE(0)' into ['ACUTE(1)', 'CAPITALIZE(0)'].

    Used for the `instructions` field of `pieces` vectors, which lists instructions in
    the same notation; assembling each one checks that the name and arity exist.
    """
    items = re.findall(r"[A-Z_]+\([0-9,\s]*\)", source)
    for item in items:
        assemble(item)
    return [re.sub(r"\s+", "", item) for item in items]
