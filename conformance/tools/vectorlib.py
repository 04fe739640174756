"""Helpers the vector sources use to declare tests in a readable form.

A source module (conformance/tools/sources/<area>.py) defines AREA, TITLE and a function
`declare(v: Collector)` that calls the methods below. Expected streams are written in the
notation of assemble.py and turned into code points here; nothing here calls functok.
"""

from __future__ import annotations

import unicodedata2

from assemble import assemble, instruction_text

# Symbolic clause names -> clause numbers of spec/SPEC.md. Sources cite the names, so that a
# renumbering of the spec is one edit here; a lint test checks every number exists in the spec.
CLAUSES: dict[str, str] = {
    "terms": "1.1",
    "codepoints": "2.1",
    "chardata": "3.2",
    "casepairs": "3.3",
    "decompositions": "3.4",
    "nfc-modes": "4.1",
    "nfc": "4.2",
    "surrogates": "4.3",
    "offsets": "4.4",
    "split-llama3": "5.1",
    "split-paper": "5.1",
    "contractions": "5.2",
    "split": "5.3",
    "encode": "6",
    "fold": "6.1",
    "marks-case": "6.2",
    "slots": "6.2",
    "escape": "6.3",
    "serialize": "6.4",
    "pieces": "6.5",
    "decode-groups": "7.1",
    "decode-parse": "7.2",
    "dangling": "7.3",
    "decode-positions": "7.4",
    "decode-case": "7.5",
    "decode-marks": "7.6",
    "decode-repeat": "7.7",
    "output-limit": "7.8",
    "decode": "7.9",
    "errors": "8.1",
    "strict": "8.2",
    "lenient": "8.3",
    "encode-errors": "8.4",
    "pretokens": "9.1",
    "pretokens-joined": "9.2",
    "pretokens-invariant": "9.3",
}

DEFAULT_OPTIONS = {"normalize": "nfc", "splitter": "llama3", "split_operators": True,
                   "errors": "strict", "max_output": 2 ** 26}


def _clauses(spec: list[str] | str) -> list[str]:
    names = [spec] if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for name in names:
        clause = CLAUSES.get(name, name)  # a literal clause number passes through
        if clause not in out:
            out.append(clause)
    return out


def _options(options: dict | None) -> dict:
    options = dict(options or {})
    for key in options:
        if key not in DEFAULT_OPTIONS:
            raise ValueError(f"unknown option {key!r}")
    return options


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
        dec_options = {k: v for k, v in options.items() if k == "splitter"}
        self._add({"id": id + "-dec", "description": "decode: " + description, "op": "decode",
                   "input": assemble(stream), "options": dec_options, "expected": target,
                   "roundtrip": True, "spec": _clauses(["decode", *([spec] if isinstance(spec, str) else spec)])})

    # -- decode ------------------------------------------------------------------------
    def decode(self, id: str, description: str, stream: str, text: str, *, spec,
               roundtrip: bool, options: dict | None = None) -> None:
        """A decode vector; roundtrip=False marks a well-formed but non-canonical stream."""
        self._add({"id": id, "description": description, "op": "decode", "input": assemble(stream),
                   "options": _options(options), "expected": text, "roundtrip": roundtrip,
                   "spec": _clauses(spec)})

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
