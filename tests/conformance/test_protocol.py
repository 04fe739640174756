"""The runner against programs over the JSON-lines protocol: the reference server passes the whole
suite, a broken adapter fails exactly where it is broken, a hanging one times out and is restarted,
and every message on the wire matches conformance/schema/protocol.schema.json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

import functok
from functok.conformance import load_suite
from functok.conformance.vectors import cases

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
PROTOCOL_SCHEMA = REPO / "conformance" / "schema" / "protocol.schema.json"
SERVER = f'"{sys.executable}" -m functok.cli conformance-server'


def run_runner(*args: str, tmp_path: Path) -> tuple[int, list[str], dict]:
    report_path = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "functok.conformance", "--json", str(report_path), *args],
                          capture_output=True, text=True, cwd=REPO, timeout=900)
    report = json.loads(report_path.read_text()) if report_path.exists() else {}
    return done.returncode, done.stdout.splitlines(), report


def test_reference_server_passes_the_whole_suite(tmp_path):
    status, out, report = run_runner("--command", SERVER, tmp_path=tmp_path)
    total = len(load_suite().vectors)
    assert out[-1] == f"vectors: {total} passed, 0 failed, 0 skipped", "\n".join(out[-20:])
    assert status == 0
    assert report["implementation"]["name"] == {"pure": "functok", "native": "functok (C core)"}[functok.backend()]


def decode_outputs_that_lose_a_code_point() -> set[str]:
    """The vectors the broken adapter must fail: every decode whose checked output is non-empty
    (dropping the last code point of "" changes nothing)."""
    broken = set()
    for vector in load_suite().vectors:
        test = vector.test
        if test["op"] != "decode":
            continue
        if test.get("expected") or test.get("lenient"):
            broken.add(vector.id)
    return broken


def test_broken_adapter_fails_exactly_its_broken_answers(tmp_path):
    command = f'"{sys.executable}" "{FIXTURES / "broken_adapter.py"}"'
    status, out, report = run_runner("--command", command, tmp_path=tmp_path)
    failed = {r["id"] for r in report["results"] if r["status"] == "failed"}
    expected = decode_outputs_that_lose_a_code_point()
    assert len(expected) > 100
    assert failed == expected
    assert status == 1
    assert out[-1] == (f"vectors: {report['summary']['passed']} passed, {len(expected)} failed, 0 skipped")
    assert out[0].startswith("functok ")  # the header names the implementation
    assert all(line.startswith("FAIL ") for line in out[1:len(expected) + 1])


def test_hanging_adapter_times_out_and_is_restarted(tmp_path):
    command = f'"{sys.executable}" "{FIXTURES / "broken_adapter_hang.py"}" paper-02'
    status, out, report = run_runner("--command", command, "--run", "paper-*", "--timeout", "3",
                                     tmp_path=tmp_path)
    results = {r["id"]: r for r in report["results"]}
    assert results["paper-02"]["status"] == "failed"
    assert "timed out after 3s" in results["paper-02"]["message"]
    assert "restarted" in results["paper-02"]["message"]
    others = {i: r["status"] for i, r in results.items() if i != "paper-02"}
    assert set(others.values()) == {"passed"} and len(others) == 9
    assert status == 1 and out[-1] == "vectors: 9 passed, 1 failed, 0 skipped"


def test_a_program_that_cannot_start_is_a_clear_error(tmp_path):
    status, out, _ = run_runner("--command", "/nonexistent/program", tmp_path=tmp_path)
    assert status == 2


def test_server_messages_match_the_protocol_schema():
    """Drive the reference server by hand with one case of every op and check both directions."""
    validator = Draft202012Validator(json.loads(PROTOCOL_SCHEMA.read_text(encoding="utf-8")))
    requests = [{"cmd": "start", "protocol_version": "1.0.0"}]
    seen_ops = set()
    for vector in load_suite().vectors:
        for _, case in cases(vector.test):
            if (case["op"], "error" in vector.test) not in seen_ops:
                seen_ops.add((case["op"], "error" in vector.test))
                requests.append({"cmd": "run", "seq": len(requests), "vector": case})
    requests.append({"cmd": "stop"})
    for request in requests:
        assert validator.is_valid(request), request
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([sys.executable, "-m", "functok.cli", "conformance-server"], input=lines,
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    assert len(answers) == len(requests) - 1  # stop has no answer
    for answer in answers:
        errors = list(validator.iter_errors(answer))
        assert not errors, (answer, errors[0].message)
    assert [a.get("seq") for a in answers[1:]] == list(range(1, len(answers)))


def test_readme_minimal_adapter_works(tmp_path):
    """The adapter printed in conformance/README.md, pointed at functok, passes what it implements
    and skips the rest."""
    import re
    readme = (REPO / "conformance" / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", readme, re.DOTALL).group(1)
    adapter = tmp_path / "adapter.py"
    adapter.write_text(code.replace("import mytok", "import functok as mytok"), encoding="utf-8")
    status, out, report = run_runner("--command", f'"{sys.executable}" "{adapter}"',
                                     "--run", "paper-*", "--run", "split-0*", "--run", "err-escend-*",
                                     tmp_path=tmp_path)
    assert status == 0, out[-5:]
    assert report["summary"]["failed"] == 0
    assert report["summary"]["passed"] == 10 + 4  # paper encode/decode pairs, escape-at-end vectors
    assert report["summary"]["skipped"] == 9      # split-01 .. split-09: not implemented there
