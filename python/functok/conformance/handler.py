"""The reference implementation's side of the protocol: one pure function, `handle`.

`handle(request) -> response` answers one protocol message (conformance/PROTOCOL.md) by calling
functok in-process, through :mod:`functok.conformance.ops`. The JSON-lines server and the in-process runner are thin transports around
it, and it needs no subprocess or thread, so it also runs under Pyodide.
"""

from __future__ import annotations

import traceback

import functok

from . import ops

PROTOCOL_VERSION = "1.2.0"
OPS = tuple(ops.OPS)  # the ops this implementation answers, as the handshake lists them


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
        "implementation": _implementation(),
        "spec_versions": [functok.SPEC_VERSION],
        "ops": list(OPS),
    }


def _implementation() -> dict:
    """Who answers: the reference, on its C core where that is built (``core``: ``"native"``, the
    suite's third implementation; ``"wasm"``, the same core in WebAssembly under Pyodide) or on
    the pure-Python path (``"pure"``, the spec's executable form)."""
    core = functok.backend()
    name = {"pure": "functok", "native": "functok (C core)", "wasm": "functok (C core in WebAssembly)"}[core]
    return {"name": name, "version": functok.__version__, "language": "python" if core == "pure" else "c",
            "core": core}


def _run(request: dict) -> dict:
    seq = request.get("seq")
    vector = request.get("vector") or {}
    if vector.get("op") not in OPS:  # a newer suite's operation: decline, do not fail
        return {"seq": seq, "skipped": f"op {vector.get('op')!r} is not implemented"}
    try:
        return {"seq": seq, "result": run_case(vector)}
    except (functok.FormatError, ops.IdError) as error:  # IdError: detokenize, offset = id index
        return {"seq": seq, "result": {"error": {"kind": error.kind, "offset": error.offset}}}
    except Exception as error:  # an answer, not a crash: the runner reports it as errored
        return {"seq": seq, "errored": f"{type(error).__name__}: {error}",
                "context": {"traceback": traceback.format_exc(limit=5)}}


def run_case(vector: dict) -> dict:
    """Carry out one case with functok (:mod:`functok.conformance.ops`); FormatError propagates."""
    op = vector["op"]
    if op not in ops.OPS:
        raise ValueError(f"unknown op {op!r}")
    return {"output": ops.OPS[op](vector["input"], vector.get("options", {}))}
