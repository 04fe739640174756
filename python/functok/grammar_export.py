"""The stream grammar (spec 7.1, 7.2) written out for guided-decoding engines.

    python -m functok.grammar_export           # write the files
    python -m functok.grammar_export --check   # exit 1 if a file is stale (tests/constrain/test_grammar_export.py)

Three files say the same thing in three syntaxes: a regular expression (``stream.regex``, the
syntax of Rust's ``regex`` crate that outlines-core, xgrammar and vLLM's guided regex read, and
that Python's ``re`` reads too), a Lark grammar (``stream.lark``, for llguidance) and a GBNF
grammar (``stream.gbnf``, for llama.cpp). They are written to ``spec/grammar/``, the one
committed copy; a built package ships them as ``functok/data/grammar/``, which setup.py copies
from ``spec/grammar/`` when the package is built, so that ``pip install functok`` has them
(:func:`grammar_text` reads them back: from the checkout's ``spec/grammar/`` in a checkout or an
editable install, from the package's copy otherwise).

They accept exactly the *syntactically well-formed* streams: ``text0 (group text)*`` where every
group is a run of assigned opcodes, each with its argument count (spec 2.2), ``count >= 1`` (7.7,
``bad-count``) and ``end > start`` (7.4, 7.7, ``bad-range``); every group has a slot after it
(7.3, no ``dangling-group``); every ESCAPE has a code point after it (7.1, no
``escape-at-end``). A stream they accept can still fail to decode in two ways that they leave
out, on purpose:

* *positions against the base* (``position-out-of-range``, 7.4 and 7.7): a position must be a
  slot of the text that follows the group, a count that is only known once the text has been
  read. A regular language can express it (positions are at most 255), but only by counting up
  to 256 slots for every group, which multiplies the automaton by 256 per pending requirement;
* *the output limit* (``output-too-large``, 7.8), which depends on the decoder's ``max_output``
  and on every repeat before.

:class:`functok.constrain.Constraint` checks both, exactly (its ``mode="syntax"`` is what these
files express). The argument ranges come from ``spec/opcodes.json`` (read from the repository
when it is there, from :mod:`functok.opcodes` otherwise; ``tests/codec/test_opcodes.py`` keeps the two
equal) and the code point classes from :mod:`functok.grammar`.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from .grammar import FORMAT_CLASS
from .opcodes import ARGUMENT_FIRST, ARGUMENT_LAST, ESCAPE, GROUP_FIRST, GROUP_LAST, OPCODES

__all__ = ["FORMATS", "Instruction", "check", "grammar_text", "instructions", "render", "write"]

FORMATS = ("regex", "lark", "gbnf")
GENERATOR = "python -m functok.grammar_export"
REPO = Path(__file__).resolve().parents[2]
SPEC_TABLE = REPO / "spec" / "opcodes.json"
SPEC_DIR = REPO / "spec" / "grammar"  # the committed files, in a checkout
PACKAGE_FOLDER = ("data", "grammar")  # where a built package carries its copy (setup.py)

LEFT_OUT = """\
What it leaves out, on purpose: positions against the base (position-out-of-range, spec 7.4
and 7.7: a position must be a slot of the text after its group, a count only known once that
text has been read; a regular grammar could count up to 256 slots per group, at 256 times the
size) and the output limit (output-too-large, 7.8: it depends on max_output and on every
repeat before). functok.constrain.Constraint checks both, exactly; its mode="syntax" is what
this file expresses. Streams are sequences of Unicode scalar values (UTF-8): no surrogates."""


class Instruction(NamedTuple):
    """An assigned opcode and its arguments' names and lowest values, as the grammar sees them."""

    opcode: int
    name: str
    args: tuple[str, ...]


def instructions(table: dict | None = None) -> list[Instruction]:
    """The assigned opcodes, in code point order, from ``spec/opcodes.json`` (or ``table``)."""
    if table is None and SPEC_TABLE.is_file():
        table = json.loads(SPEC_TABLE.read_text(encoding="utf-8"))
    if table is None:  # an installed package: the constants mirror the table
        return sorted(Instruction(op, info.name, info.args) for op, info in OPCODES.items())
    out = []
    for entry in table["opcodes"]:
        for arg in entry["args"]:  # the grammar narrows 0..255 by the decoder's rules only
            assert (arg["min"], arg["max"]) == (0, ARGUMENT_LAST - ARGUMENT_FIRST), arg
        out.append(Instruction(int(entry["code_point"][2:], 16), entry["name"],
                               tuple(a["name"] for a in entry["args"])))
    return sorted(out)


# -- the pieces, as (regex, lark, gbnf) spellings of one code point class ---------------------

def _u(cp: int) -> str:
    return f"\\u{cp:04X}"


def _class(first: int, last: int, negate: bool = False) -> str:
    body = _u(first) if first == last else f"{_u(first)}-{_u(last)}"
    return f"[{'^' if negate else ''}{body}]"


ARGUMENT = _class(ARGUMENT_FIRST, ARGUMENT_LAST)
COUNT = _class(ARGUMENT_FIRST + 1, ARGUMENT_LAST)  # bad-count: a count is at least 1
# A text code point: anything outside U+E000..U+EFFF (grammar.FORMAT_CLASS).
assert FORMAT_CLASS == f"{chr(GROUP_FIRST)}-{chr(ESCAPE)}"
PLAIN = _class(GROUP_FIRST, ESCAPE, negate=True)


def _range_pairs() -> str:
    """``start end`` with ``end > start`` (bad-range): one branch per start, 0..254."""
    last = ARGUMENT_LAST
    return "|".join(f"{_u(s)}{_class(s + 1, last)}" for s in range(ARGUMENT_FIRST, last))


def _arg_pattern(names: tuple[str, ...]) -> str:
    """The arguments of one instruction as a regular expression."""
    out, i = [], 0
    while i < len(names):
        if names[i] == "start" and i + 1 < len(names) and names[i + 1] == "end":
            out.append(f"(?:{_range_pairs()})")
            i += 2
            continue
        out.append(COUNT if names[i] == "count" else ARGUMENT)
        i += 1
    return "".join(out)


def _runs(codes: list[int]) -> list[tuple[int, int]]:
    """Consecutive code points as (first, last) runs."""
    runs: list[tuple[int, int]] = []
    for c in codes:
        if runs and runs[-1][1] == c - 1:
            runs[-1] = (runs[-1][0], c)
        else:
            runs.append((c, c))
    return runs


def _instruction_branches(table: list[Instruction]) -> list[tuple[str, str]]:
    """(name, regex) per instruction shape: opcodes with the same arguments share a class."""
    shapes: dict[tuple[str, ...], list[int]] = {}
    names: dict[tuple[str, ...], list[str]] = {}
    for ins in table:
        shapes.setdefault(ins.args, []).append(ins.opcode)
        names.setdefault(ins.args, []).append(ins.name)
    out = []
    for args, codes in shapes.items():
        opcode = "|".join(_class(a, b) if a != b else _u(a) for a, b in _runs(codes))
        opcode = opcode if len(_runs(codes)) == 1 else f"(?:{opcode})"
        label = "_".join(names[args]) if len(codes) <= 2 else f"{names[args][0]}..{names[args][-1]}"
        out.append((label, opcode + _arg_pattern(args)))
    return out


SLOT = f"(?:{PLAIN}|{_u(ESCAPE)}(?s:.))"


def _header(fmt: str, comment: str) -> str:
    lines = [f"generated by `{GENERATOR}` from spec/opcodes.json and functok.grammar: do not edit",
             f"The Functionalizer stream grammar (spec 7.1, 7.2) as {fmt}: text0 (group text)*,",
             "every instruction with its argument count, count >= 1, end > start, no group at",
             "the end (dangling-group), no ESCAPE at the end (escape-at-end)."]
    lines += LEFT_OUT.splitlines()
    return "".join(f"{comment} {line}".rstrip() + "\n" for line in lines)


def render_regex(table: list[Instruction]) -> str:
    """The whole grammar as one regular expression (anchored at both ends by the engines)."""
    instruction = "|".join(rx for _, rx in _instruction_branches(table))
    return f"{SLOT}*(?:(?:{instruction})+{SLOT}+)*"


def render(fmt: str, table: list[Instruction] | None = None) -> str:
    """The text of one grammar file, header included."""
    table = instructions() if table is None else table
    if fmt == "regex":
        # A regex file has no comment syntax every engine reads: the header lines come before
        # it, each starting with "#", and the pattern is the file's last line.
        return _header("a regular expression (Rust regex / Python re syntax; last line)", "#") + render_regex(table) + "\n"
    branches = _instruction_branches(table)
    if fmt == "lark":
        # One terminal built from named terminals: llguidance inlines them into one lexeme (a
        # lexer choosing between a text lexeme and group lexemes at every code point is slower
        # and, at token boundaries, less exact).
        names = [_lark_name(label) for label, _ in branches]
        lark = [
            "start: STREAM",
            "STREAM: SLOT* (GROUP SLOT+)*",
            "GROUP: INSTRUCTION+",
            "INSTRUCTION: " + " | ".join(names),
            f"SLOT: /{PLAIN}/ | /{_u(ESCAPE)}(?s:.)/",
            *(f"{name}: /{rx}/" for name, (_, rx) in zip(names, branches)),
        ]
        return _header("a Lark grammar (llguidance)", "//") + "\n".join(lark) + "\n"
    if fmt == "gbnf":
        gbnf = [
            "root ::= stream",
            "stream ::= slot* (group slot+)*",
            "group ::= instruction+",
            "instruction ::= " + " | ".join(_gbnf_rule_name(label) for label, _ in branches),
            # any code point after ESCAPE, newline included (GBNF's "." may not take one everywhere)
            f'slot ::= {PLAIN} | "{_u(ESCAPE)}" ([^{_u(ESCAPE)}] | "{_u(ESCAPE)}")',
        ]
        gbnf += [f"{_gbnf_rule_name(label)} ::= {_gbnf(rx)}" for label, rx in branches]
        return _header("a GBNF grammar (llama.cpp)", "#") + "\n".join(gbnf) + "\n"
    raise ValueError(f"unknown grammar format {fmt!r}; expected one of {FORMATS}")


def _lark_name(label: str) -> str:
    return label.upper().replace("..", "_TO_")


def _gbnf_rule_name(label: str) -> str:
    return label.lower().replace("..", "-to-").replace("_", "-")


def _gbnf(rx: str) -> str:
    """A regex of this module's shapes (classes, \\uXXXX literals, (?:a|b) groups) in GBNF."""
    out, i = [], 0
    while i < len(rx):
        if rx.startswith("(?:", i):
            out.append("(")
            i += 3
        elif rx[i] == "[":
            j = rx.index("]", i)
            out.append(rx[i:j + 1])
            i = j + 1
        elif rx[i] == "|":
            out.append(" | ")
            i += 1
        elif rx[i] == ")":
            out.append(")")
            i += 1
        elif rx.startswith("\\u", i):
            out.append(f'"{rx[i:i + 6]}"')
            i += 6
        else:
            raise AssertionError(f"no GBNF spelling for {rx[i:]!r}")
    return " ".join(out).replace("( ", "(").replace(" )", ")").replace("  |  ", " | ")


def regex_pattern(text: str) -> str:
    """The pattern of a ``stream.regex`` file: its last line (the others are # comments)."""
    return text.rstrip("\n").rsplit("\n", 1)[-1]


def grammar_text(fmt: str) -> str:
    """A shipped grammar file's text (``fmt`` one of :data:`FORMATS`); for ``"regex"``, the
    pattern alone, ready for an engine.

    >>> import re
    >>> bool(re.fullmatch(grammar_text("regex"), "\\ue100\\ue000hello"))
    True
    >>> bool(re.fullmatch(grammar_text("regex"), "hello\\ue100\\ue000"))  # a dangling group
    False
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown grammar format {fmt!r}; expected one of {FORMATS}")
    in_checkout = SPEC_DIR / f"stream.{fmt}"
    shipped = in_checkout if in_checkout.is_file() else \
        resources.files("functok").joinpath(*PACKAGE_FOLDER, f"stream.{fmt}")
    text = shipped.read_text(encoding="utf-8")
    return regex_pattern(text) if fmt == "regex" else text


def write() -> list[Path]:
    """Write every grammar file into ``spec/grammar/``; return their paths."""
    SPEC_DIR.mkdir(parents=True, exist_ok=True)
    paths = [SPEC_DIR / f"stream.{fmt}" for fmt in FORMATS]
    for fmt, path in zip(FORMATS, paths):
        path.write_text(render(fmt), encoding="utf-8")
    return paths


def check() -> list[Path]:
    """The grammar files that are missing or differ from what :func:`write` would write."""
    paths = [SPEC_DIR / f"stream.{fmt}" for fmt in FORMATS]
    return [path for fmt, path in zip(FORMATS, paths)
            if not path.is_file() or path.read_text(encoding="utf-8") != render(fmt)]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not SPEC_TABLE.is_file():
        print(f"{GENERATOR} writes spec/grammar/ of a checkout, and {REPO} is not one", file=sys.stderr)
        return 2
    if argv == ["--check"]:
        stale = check()
        for path in stale:
            print(f"stale: {path} (run {GENERATOR})", file=sys.stderr)
        return 1 if stale else 0
    if argv:
        print(f"usage: {GENERATOR} [--check]", file=sys.stderr)
        return 2
    for path in write():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
