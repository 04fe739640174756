"""Helpers the vector sources use to declare tests in a readable form.

A source module (conformance/tools/sources/<area>.py) defines AREA, TITLE and a function
`declare(v: Collector)` that calls the methods below. Expected streams are written in the
notation of assemble.py and turned into code points here; nothing here calls functok.
"""

from __future__ import annotations

import re
from pathlib import Path

import unicodedata2

from assemble import assemble, instruction_text

SPEC_MD = Path(__file__).resolve().parents[2] / "spec" / "SPEC.md"


def spec_anchors(spec_text: str) -> dict[str, str]:
    """Anchor -> clause number, from the `<a id="...">` line above each numbered heading.

    Sources cite clauses by the spec's own anchors (stable within a MAJOR, like the numbers);
    the vectors state the numbers, which the schema requires.
    """
    found = re.findall(r'^<a id="([a-z0-9-]+)"></a>\n#{2,3} (\d+(?:\.\d+)?) ', spec_text, re.MULTILINE)
    return dict(found)


CLAUSES: dict[str, str] = spec_anchors(SPEC_MD.read_text(encoding="utf-8"))

DEFAULT_OPTIONS = {"normalize": "nfc", "splitter": "llama3", "split_operators": True,
                   "errors": "strict", "max_output": 2 ** 26,
                   "profile": "paper", "fold": None, "case": None,  # fold, case: the profile's (6.6)
                   "fuse": None}  # fuse: the rule split_operators names (9)

# The encoder options a decode vector keeps from its encode twin: they say which encoder emits
# the stream (the `roundtrip` flag), and decode ignores them.
ENCODER_OPTIONS = ("splitter", "profile", "fold", "case")

# The options of tokenize and detokenize (spec 14, suite 2.3.0), with their defaults.
TOKENIZER_OPTIONS = {"tokenizer": None, "segmentation": "greedy", "tie_break": "leftmost-longest",
                     "reachable_only": False, "allowed_special": (), "disallowed_special": "all",
                     "skip_special_tokens": False}


def _clauses(spec: list[str] | str) -> list[str]:
    names = [spec] if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for name in names:
        if name not in CLAUSES:
            raise ValueError(f"{name!r} is not an anchor of a numbered clause of spec/SPEC.md")
        clause = CLAUSES[name]
        if clause not in out:
            out.append(clause)
    return out


def _options(options: dict | None) -> dict:
    options = dict(options or {})
    for key in options:
        if key not in DEFAULT_OPTIONS and key not in TOKENIZER_OPTIONS:
            raise ValueError(f"unknown option {key!r}")
    return options


def _with_row_keywords(table: dict, row: list[dict]) -> dict:
    """The table's keyword arguments, updated by the row's own dict where it has one."""
    if len(row) > 1:
        raise ValueError(f"a table row ends with at most one dict of keywords: {row!r}")
    return {**table, **(row[0] if row else {})}


def nfc(text: str) -> str:
    """NFC at the pinned Unicode version (unicodedata2), an oracle independent of functok."""
    return unicodedata2.normalize("NFC", text)


class Collector:
    """Accumulates the tests of one vector file, in declaration order."""

    def __init__(self) -> None:
        self.tests: list[dict] = []

    def _add(self, test: dict) -> None:
        if len(test["description"]) >= 70:
            raise ValueError(f"{test['id']}: description is 70 characters or longer")
        self.tests.append(test)

    # -- encode ------------------------------------------------------------------------
    def encode(self, id: str, description: str, text: str, stream: str, *, spec,
               options: dict | None = None, mirror: bool = True, decoded: str | None = None) -> None:
        """An encode vector; with mirror, also `<id>-dec`: its stream decodes back.

        The decoded text is the input itself (normalize off, or input already NFC) or the
        `decoded` argument, which is checked against unicodedata2's NFC.
        """
        options = _options(options)
        self._add({"id": id, "description": description, "op": "encode", "input": text,
                   "options": options, "expected": assemble(stream), "spec": _clauses(spec)})
        if not mirror:
            return
        normalize = options.get("normalize", "nfc")
        if normalize == "nfc":
            if decoded is None and nfc(text) != text:
                raise ValueError(f"{id}: input is not NFC; give decoded=")
            target = nfc(text)
            if decoded is not None and decoded != target:
                raise ValueError(f"{id}: decoded {decoded!r} is not NFC(input) {target!r}")
        else:
            target = text if decoded is None else decoded
            if target != text:
                raise ValueError(f"{id}: with normalize off the stream decodes to the input")
        dec_options = {k: v for k, v in options.items() if k in ENCODER_OPTIONS}
        self._add({"id": id + "-dec", "description": "decode: " + description, "op": "decode",
                   "input": assemble(stream), "options": dec_options, "expected": target,
                   "roundtrip": True,
                   "spec": _clauses(["decode-procedure", *([spec] if isinstance(spec, str) else spec)])})

    # -- decode ------------------------------------------------------------------------
    def decode(self, id: str, description: str, stream: str, text: str, *, spec,
               roundtrip: bool, options: dict | None = None) -> None:
        """A decode vector; roundtrip=False marks a well-formed but non-canonical stream."""
        self._add({"id": id, "description": description, "op": "decode", "input": assemble(stream),
                   "options": _options(options), "expected": text, "roundtrip": roundtrip,
                   "spec": _clauses(spec)})

    # -- tables of encode and decode vectors -------------------------------------------
    # A family of vectors that cite the same clauses reads best as a table, one row a vector.
    # A row's clauses column names the clauses it cites beyond the table's (spec anchors,
    # separated by spaces, "" for none); a dict after it holds the keyword arguments the row
    # adds (decoded=, options=), which take precedence over the table's.
    def encodes(self, spec: list[str], rows: list[tuple], **keywords) -> None:
        """encode() per row: (id, description, text, stream, clauses[, keywords])."""
        for id, description, text, stream, clauses, *own in rows:
            self.encode(id, description, text, stream, spec=[*spec, *clauses.split()],
                        **_with_row_keywords(keywords, own))

    def decodes(self, spec: list[str], rows: list[tuple], **keywords) -> None:
        """decode() per row: (id, description, stream, text, roundtrip, clauses[, keywords])."""
        for id, description, stream, text, roundtrip, clauses, *own in rows:
            self.decode(id, description, stream, text, roundtrip=roundtrip,
                        spec=[*spec, *clauses.split()], **_with_row_keywords(keywords, own))

    # -- errors ------------------------------------------------------------------------
    def error(self, id: str, description: str, op: str, input: str, kind: str, offset: int,
              lenient, *, spec, options: dict | None = None) -> None:
        """A negative vector. For decode, input and lenient are stream notation / text;
        for other ops input is text and lenient is None (they have no lenient mode)."""
        test = {"id": id, "description": description, "op": op, "input": input,
                "options": _options(options), "error": {"kind": kind, "offset": offset}}
        if op == "decode":
            test["input"] = assemble(input)
            test["lenient"] = lenient
        elif lenient is not None:
            raise ValueError(f"{id}: only decode has a lenient mode")
        test["spec"] = _clauses(spec)
        self._add(test)

    # -- pieces, pretokens, split ------------------------------------------------------
    def pieces(self, id: str, description: str, text: str, pieces: list[tuple], *, spec,
               options: dict | None = None) -> None:
        """pieces: (text, start, end, "INSTR(..) INSTR(..)", base-notation[, slot_starts]) per piece.

        `encoded` is the group then the base, assembled from the same notation (spec 6.5)."""
        expected = []
        for text_, start, end, instrs, base, *slot_starts in pieces:
            piece = {"text": text_, "start": start, "end": end, "instructions": instruction_text(instrs),
                     "base": assemble(base), "encoded": assemble(instrs + " " + base)}
            if slot_starts:
                piece["slot_starts"] = list(slot_starts[0])
            expected.append(piece)
        for piece in expected:
            if not 0 <= piece["start"] <= piece["end"] <= len(text):
                raise ValueError(f"{id}: offsets out of the input")
        self._add({"id": id, "description": description, "op": "pieces", "input": text,
                   "options": _options(options), "expected": expected, "spec": _clauses(spec)})

    def pretokens(self, id: str, description: str, text: str, tokens: list[str], *, spec,
                  options: dict | None = None) -> None:
        """tokens: one stream-notation string per pre-token."""
        self._add({"id": id, "description": description, "op": "pretokens", "input": text,
                   "options": _options(options), "expected": [assemble(t) for t in tokens],
                   "spec": _clauses(spec)})

    # -- tokenize, detokenize (spec 14) -------------------------------------------------
    def tokenize(self, id: str, description: str, text: str, ids: list[int], *, spec, options: dict) -> None:
        """tokenize: the ids of ``text``; ``options`` hold the inline ``tokenizer`` file."""
        if "tokenizer" not in options:
            raise ValueError(f"{id}: a tokenize vector carries its tokenizer")
        self._add({"id": id, "description": description, "op": "tokenize", "input": text,
                   "options": _options(options), "expected": list(ids), "spec": _clauses(spec)})

    def detokenize(self, id: str, description: str, ids: list[int], text: str | None, *, spec, options: dict,
                   error: tuple[str, int] | None = None, lenient: str | None = None) -> None:
        """detokenize: the text of ``ids``, or (``error``) the kind and id index a strict decoder
        reports and the ``lenient`` text of errors="replace"."""
        if "tokenizer" not in options:
            raise ValueError(f"{id}: a detokenize vector carries its tokenizer")
        test = {"id": id, "description": description, "op": "detokenize", "input": list(ids),
                "options": _options(options)}
        if error is None:
            if text is None or lenient is not None:
                raise ValueError(f"{id}: a positive detokenize vector has a text and no lenient output")
            test["expected"] = text
        else:
            if text is not None or lenient is None:
                raise ValueError(f"{id}: a negative detokenize vector has a lenient output and no text")
            kind, offset = error
            if not 0 <= offset < len(ids):
                raise ValueError(f"{id}: the error's id index is not an index of the ids")
            test["error"] = {"kind": kind, "offset": offset}
            test["lenient"] = lenient
        test["spec"] = _clauses(spec)
        self._add(test)

    def split(self, id: str, description: str, text: str, parts: list[str], *, spec,
              options: dict | None = None) -> None:
        if "".join(parts) != text:
            raise ValueError(f"{id}: split parts do not concatenate to the input")
        self._add({"id": id, "description": description, "op": "split", "input": text,
                   "options": _options(options), "expected": list(parts), "spec": _clauses(spec)})


def full_decomposition(char: str) -> str:
    """The full canonical decomposition, from unicodedata2 (an oracle independent of functok)."""
    return unicodedata2.normalize("NFD", char)


def check_decomposes(char: str, base: str, marks: str) -> None:
    """Guard a hand-written table row: char == base + marks under NFD and composes back."""
    if full_decomposition(char) != base + marks or nfc(base + marks) != char:
        raise ValueError(f"U+{ord(char):04X} does not decompose to {base!r} + {marks!r} and back")
