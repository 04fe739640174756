"""Running the suite: send each vector's cases through a transport, judge, count, report.

Pure apart from the transport and the `print` callback, so it runs in-process under Pyodide too.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Callable

from ..versions import covers
from .handler import PROTOCOL_VERSION
from .judge import judge
from .transport import TransportFailure
from .vectors import Suite, Vector, cases, select


class HandshakeError(Exception):
    """The implementation cannot be checked against this suite (protocol or spec version)."""


@dataclass
class Result:
    id: str
    file: str
    status: str  # "passed", "failed" or "skipped"
    message: str | None = None


@dataclass
class Report:
    protocol_version: str
    spec_version: str
    suite_version: str
    implementation: dict
    results: list[Result] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def ok(self) -> bool:
        return self.count("failed") == 0

    def summary(self) -> str:
        return (f"vectors: {self.count('passed')} passed, {self.count('failed')} failed, "
                f"{self.count('skipped')} skipped")

    def to_json(self) -> dict:
        data = asdict(self)
        data["summary"] = {s: self.count(s) for s in ("passed", "failed", "skipped")}
        return data


def check_handshake(answer: dict, suite: Suite) -> None:
    """The program's `start` answer: same protocol MAJOR, and a spec version that covers the suite's."""
    if "errored" in answer:
        raise HandshakeError(f"the implementation could not start: {answer['errored']}")
    theirs = str(answer.get("protocol_version", ""))
    if theirs.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
        raise HandshakeError(f"the implementation speaks protocol {theirs or '(none)'}, "
                             f"this runner speaks {PROTOCOL_VERSION}")
    supported = answer.get("spec_versions") or []
    for wanted in sorted(suite.spec_versions):
        if not any(covers(v, wanted) for v in supported):
            raise HandshakeError(f"the vectors target spec {wanted}; the implementation "
                                 f"supports {', '.join(supported) or 'none'}")


def run_suite(suite: Suite, transport, *, run: list[str] | None = None, skip: list[str] | None = None,
              timeout: float | None = None, emit: Callable[[str], None] = lambda line: None,
              verbose: bool = False) -> Report:
    """Start the implementation, run every selected vector, stop it; `emit` receives one line per failure."""
    answer = transport.start()
    check_handshake(answer, suite)
    report = Report(PROTOCOL_VERSION, ",".join(sorted(suite.spec_versions)),
                    ",".join(sorted(suite.suite_versions)), answer.get("implementation", {}))
    ops = set(answer["ops"]) if answer.get("ops") else None
    profiles = set(answer["profiles"]) if answer.get("profiles") else None  # protocol 1.2.0
    chosen, skipped = select(suite.vectors, run, skip)
    emit(_header(report, len(chosen), suite))
    for vector in skipped:
        report.results.append(Result(vector.id, vector.file, "skipped", "--skip"))
    try:
        for vector in chosen:
            result = run_vector(vector, transport, timeout, ops, profiles)
            report.results.append(result)
            if result.status == "failed" or verbose:
                emit(_line(result))
    finally:
        transport.close()
    return report


def run_vector(vector: Vector, transport, timeout: float | None, ops: set[str] | None,
               profiles: set[str] | None = None) -> Result:
    test = vector.test
    if ops is not None and test["op"] not in ops:
        return Result(vector.id, vector.file, "skipped", f"op {test['op']} not implemented")
    unclaimed = unclaimed_encoder(test, profiles)
    if unclaimed:
        return Result(vector.id, vector.file, "skipped", unclaimed)
    for check, case in cases(test):
        try:
            answer = transport.request(case, timeout)
        except TransportFailure as failure:
            transport.restart()
            return Result(vector.id, vector.file, "failed", f"{failure} (the implementation was restarted)")
        if "skipped" in answer:
            return Result(vector.id, vector.file, "skipped", str(answer["skipped"] or "skipped"))
        if "errored" in answer:
            return Result(vector.id, vector.file, "failed", f"errored: {answer['errored']}")
        if not isinstance(answer.get("result"), dict):
            return Result(vector.id, vector.file, "failed", f"answer has no result object: {json.dumps(answer)[:200]}")
        message = judge(test, check, answer["result"])
        if message is not None:
            return Result(vector.id, vector.file, "failed", message)
    return Result(vector.id, vector.file, "passed")


def unclaimed_encoder(test: dict, profiles: set[str] | None) -> str | None:
    """Why a vector needs an encoder the implementation does not claim (its `start` answer's
    `profiles`, PROTOCOL.md 1.2.0), or None. Decoding takes no profile, so only the encoder's ops
    and `tokenize` (whose tokenizer names a profile) are concerned."""
    if profiles is None:
        return None
    options = test.get("options", {})
    if test["op"] in ("encode", "pieces", "pretokens"):
        if "fold" in options or "case" in options:
            return "states fold or case: the implementation claims profiles only"
        profile = options.get("profile", "paper")
    elif test["op"] == "tokenize":
        header = options.get("tokenizer", {}).get("functok", {})
        profile = header.get("profile", "paper") if isinstance(header, dict) else "paper"
    else:
        return None
    return None if profile in profiles else f"profile {profile} not claimed"


def _header(report: Report, count: int, suite: Suite) -> str:
    implementation = report.implementation
    where = f" from {suite.directory}" if suite.directory else ""
    return (f"{implementation.get('name', '?')} {implementation.get('version', '')}".rstrip()
            + f": {count} vectors of suite {report.suite_version} (spec {report.spec_version}){where}")


def _line(result: Result) -> str:
    label = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[result.status]
    detail = f": {result.message}" if result.message else ""
    return f"{label} {result.id} ({result.file}){detail}"
