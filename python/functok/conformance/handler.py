"""The reference implementation's side of the protocol: one pure function, `handle`.

`handle(request) -> response` answers one protocol message (conformance/PROTOCOL.md) by calling
functok in-process. The JSON-lines server and the in-process runner are thin transports around
it, and it needs no subprocess or thread, so it also runs under Pyodide.
"""

from __future__ import annotations

import traceback

import functok

PROTOCOL_VERSION = "1.1.0"
OPS = ("encode", "decode", "pieces", "pretokens", "split", "segment")


def handle(request: dict) -> dict | None:
    """Answer a `start` or `run` request; `stop` has no answer (None)."""
    command = request.get("cmd")
    if command == "start":
        return _start()
    if command == "run":
        return _run(request)
    if command == "stop":
        return None
    return {"errored": f"unknown command {command!r}"}


def _start() -> dict:
    return {
        "protocol_version": PROTOCOL_VERSION,
        "implementation": {"name": "functok", "version": functok.__version__, "language": "python"},
        "spec_versions": [functok.SPEC_VERSION],
        "ops": list(OPS),
    }


def _run(request: dict) -> dict:
    seq = request.get("seq")
    vector = request.get("vector") or {}
    if vector.get("op") not in OPS:  # a newer suite's operation: decline, do not fail
        return {"seq": seq, "skipped": f"op {vector.get('op')!r} is not implemented"}
    try:
        return {"seq": seq, "result": run_case(vector)}
    except functok.FormatError as error:
        return {"seq": seq, "result": {"error": {"kind": error.kind, "offset": error.offset}}}
    except Exception as error:  # an answer, not a crash: the runner reports it as errored
        return {"seq": seq, "errored": f"{type(error).__name__}: {error}",
                "context": {"traceback": traceback.format_exc(limit=5)}}


def run_case(vector: dict) -> dict:
    """Carry out one case with functok; FormatError propagates to the caller."""
    op, text, options = vector["op"], vector["input"], vector.get("options", {})
    normalize = options.get("normalize", "nfc")
    splitter = options.get("splitter", "llama3")
    # The encoder profile and its overrides (protocol 1.1.0, spec 6.6); decode takes none.
    encoder = {"profile": options.get("profile", "paper"), "fold": options.get("fold"),
               "case": options.get("case")}
    if op == "encode":
        return {"output": functok.encode(text, normalize=normalize, splitter=splitter, **encoder)}
    if op == "decode":
        return {"output": functok.decode(text, errors=options.get("errors", "strict"),
                                         max_output=options.get("max_output", 2 ** 26))}
    if op == "pieces":
        return {"output": [_piece(p) for p in functok.pieces(text, normalize=normalize, splitter=splitter,
                                                             **encoder)]}
    if op == "pretokens":
        return {"output": functok.pretokens(text, normalize=normalize, splitter=splitter,
                                            split_operators=options.get("split_operators", True), **encoder)}
    if op == "split":
        return {"output": functok.split(text, splitter=splitter)}
    if op == "segment":
        from . import ops  # imported late: the codec's ops do not need the tokenizer
        return {"output": ops.segment(text, options)}
    raise ValueError(f"unknown op {op!r}")


def _piece(piece) -> dict:
    return {
        "text": piece.text,
        "start": piece.start,
        "end": piece.end,
        "instructions": [str(i) for i in piece.instructions],
        "base": piece.base,
        "encoded": piece.encoded,
        "slot_starts": list(piece.slot_starts),
    }
