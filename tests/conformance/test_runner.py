"""The conformance runner in-process: the reference passes every vector, and the runner's
judging, selection, report and exit status behave as conformance/README.md says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from functok.conformance import InProcessTransport, handle, load_suite, run_suite, suite_from_documents
from functok.conformance.__main__ import main as module_main
from functok.conformance.judge import judge
from functok.conformance.runner import HandshakeError
from functok.conformance.vectors import DEFAULT_OPTIONS, cases, default_vectors_dir, select

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "conformance" / "vectors"


def test_default_vectors_dir_is_the_checkout():
    assert default_vectors_dir() == VECTORS


def test_reference_passes_every_vector_in_process():
    suite = load_suite(VECTORS)
    report = run_suite(suite, InProcessTransport(handle))
    failures = [f"{r.id}: {r.message}" for r in report.results if r.status != "passed"]
    assert not failures, "\n".join(failures[:20])
    assert report.count("passed") == len(suite.vectors) >= 400


# --- judging -------------------------------------------------------------------------------

def test_judge_output_is_exact_code_point_equality():
    test = {"id": "t", "op": "decode", "input": "x", "expected": "\u00e9"}
    assert judge(test, "output", {"output": "\u00e9"}) is None
    assert "expected" in judge(test, "output", {"output": "e\u0301"})  # no normalization
    assert "got error" in judge(test, "output", {"error": {"kind": "bad-count", "offset": 0}})


def test_judge_error_needs_kind_and_offset():
    test = {"id": "t", "op": "decode", "input": "x", "error": {"kind": "bad-count", "offset": 3},
            "lenient": "a"}
    assert judge(test, "strict", {"error": {"kind": "bad-count", "offset": 3}}) is None
    assert judge(test, "strict", {"error": {"kind": "bad-count", "offset": 2}}) is not None
    assert judge(test, "strict", {"error": {"kind": "bad-range", "offset": 3}}) is not None
    assert judge(test, "strict", {"output": "a"}) is not None
    assert judge(test, "lenient", {"output": "a"}) is None
    assert judge(test, "lenient", {"output": "b"}) is not None


def test_judge_pieces_compares_the_stated_fields_only():
    test = {"id": "t", "op": "pieces", "input": "A",
            "expected": [{"text": "A", "start": 0, "end": 1, "instructions": ["CAPITALIZE(0)"], "base": "a"}]}
    piece = {"text": "A", "start": 0, "end": 1, "instructions": ["CAPITALIZE(0)"], "base": "a",
             "encoded": "\ue100\ue000a", "slot_starts": [0]}
    assert judge(test, "output", {"output": [piece]}) is None
    assert "end" in judge(test, "output", {"output": [{**piece, "end": 2}]})
    assert "pieces" in judge(test, "output", {"output": [piece, piece]})


def test_negative_decode_vector_has_a_lenient_case():
    test = {"id": "t", "op": "decode", "input": "\uefff", "error": {"kind": "escape-at-end", "offset": 0},
            "lenient": ""}
    (check1, strict), (check2, lenient) = cases(test)
    assert (check1, check2) == ("strict", "lenient")
    assert strict["options"] == DEFAULT_OPTIONS
    assert lenient["options"]["errors"] == "replace"
    assert set(strict) == {"id", "op", "input", "options"}  # expectations are not sent


def test_encode_error_vector_has_no_lenient_case():
    test = {"id": "t", "op": "encode", "input": "\ud800", "error": {"kind": "lone-surrogate", "offset": 0}}
    assert [check for check, _ in cases(test)] == ["strict"]


# --- a fake implementation, to see the runner fail -------------------------------------------

DOC = {"spec_version": "1.0.0", "suite_version": "1.0.0", "area": "mini", "tests": [
    {"id": "mini-enc", "description": "d", "op": "encode", "input": "A", "expected": "\ue100\ue000a",
     "spec": ["6"]},
    {"id": "mini-dec", "description": "d", "op": "decode", "input": "\ue100\ue000a", "expected": "A",
     "spec": ["7"]},
    {"id": "mini-err", "description": "d", "op": "decode", "input": "\uefff",
     "error": {"kind": "escape-at-end", "offset": 0}, "lenient": "", "spec": ["7"]},
]}


def fake(answers: dict, start: dict | None = None):
    """A handle that answers each vector id from a table."""
    def handle_(request):
        if request["cmd"] == "start":
            return start or {"protocol_version": "1.0.0", "implementation": {"name": "fake"},
                             "spec_versions": ["1.0.0"]}
        if request["cmd"] == "run":
            vector = request["vector"]
            key = (vector["id"], vector["options"]["errors"])
            return {"seq": request["seq"], **answers[key]}
        return None
    return handle_


GOOD = {
    ("mini-enc", "strict"): {"result": {"output": "\ue100\ue000a"}},
    ("mini-dec", "strict"): {"result": {"output": "A"}},
    ("mini-err", "strict"): {"result": {"error": {"kind": "escape-at-end", "offset": 0}}},
    ("mini-err", "replace"): {"result": {"output": ""}},
}


def test_fake_that_answers_right_passes():
    report = run_suite(suite_from_documents([DOC]), InProcessTransport(fake(GOOD)))
    assert report.summary() == "vectors: 3 passed, 0 failed, 0 skipped"
    assert report.ok


def test_wrong_lenient_output_fails_the_vector():
    answers = {**GOOD, ("mini-err", "replace"): {"result": {"output": "\uefff"}}}
    report = run_suite(suite_from_documents([DOC]), InProcessTransport(fake(answers)))
    failed = [r for r in report.results if r.status == "failed"]
    assert [r.id for r in failed] == ["mini-err"] and "lenient" in failed[0].message
    assert not report.ok


def test_skipped_and_errored_answers():
    answers = {**GOOD, ("mini-enc", "strict"): {"skipped": "no encoder yet"},
               ("mini-dec", "strict"): {"errored": "boom"}}
    report = run_suite(suite_from_documents([DOC]), InProcessTransport(fake(answers)))
    statuses = {r.id: (r.status, r.message) for r in report.results}
    assert statuses["mini-enc"] == ("skipped", "no encoder yet")
    assert statuses["mini-dec"] == ("failed", "errored: boom")
    assert report.summary() == "vectors: 1 passed, 1 failed, 1 skipped"


def test_ops_the_implementation_lacks_are_skipped_without_asking():
    start = {"protocol_version": "1.0.0", "implementation": {"name": "fake"}, "spec_versions": ["1.0.0"],
             "ops": ["decode"]}
    report = run_suite(suite_from_documents([DOC]), InProcessTransport(fake(GOOD, start)))
    assert {r.id: r.status for r in report.results}["mini-enc"] == "skipped"


@pytest.mark.parametrize("start", [
    {"protocol_version": "2.0.0", "implementation": {"name": "f"}, "spec_versions": ["1.0.0"]},
    {"protocol_version": "1.0.0", "implementation": {"name": "f"}, "spec_versions": ["2.0.0"]},
    {"protocol_version": "1.0.0", "implementation": {"name": "f"}, "spec_versions": []},
])
def test_handshake_refuses_incompatible_versions(start):
    with pytest.raises(HandshakeError):
        run_suite(suite_from_documents([DOC]), InProcessTransport(fake(GOOD, start)))


def test_newer_minor_spec_version_covers_the_suite():
    start = {"protocol_version": "1.0.0", "implementation": {"name": "f"}, "spec_versions": ["1.3.0"]}
    assert run_suite(suite_from_documents([DOC]), InProcessTransport(fake(GOOD, start))).ok


def test_run_and_skip_globs():
    suite = load_suite(VECTORS)
    chosen, skipped = select(suite.vectors, ["paper-*"], ["paper-0[12]*"])
    assert {v.id for v in chosen} == {"paper-03", "paper-03-dec", "paper-04", "paper-04-dec",
                                      "paper-05", "paper-05-dec"}
    assert {v.id for v in skipped} == {"paper-01", "paper-01-dec", "paper-02", "paper-02-dec"}


# --- the command line ------------------------------------------------------------------------

def test_module_cli_summary_json_report_and_exit_status(tmp_path, capsys):
    report_path = tmp_path / "report.json"
    status = module_main(["--run", "paper-*", "--skip", "paper-05*", "--json", str(report_path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[-1] == "vectors: 8 passed, 0 failed, 2 skipped"
    report = json.loads(report_path.read_text())
    assert report["summary"] == {"passed": 8, "failed": 0, "skipped": 2}
    assert {r["id"] for r in report["results"] if r["status"] == "skipped"} == {"paper-05", "paper-05-dec"}


def test_cli_exit_status_is_non_zero_on_a_failure(tmp_path, capsys):
    """A vector directory with one deliberately wrong vector: the runner reports it and exits 1."""
    wrong = {**DOC, "tests": [{**DOC["tests"][0], "expected": "wrong"}]}
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    status = module_main(["--vectors", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0].startswith("functok ") and ": 1 vectors of suite" in out[0]
    assert out[1].startswith("FAIL mini-enc (wrong.json): expected")
    assert out[-1] == "vectors: 0 passed, 1 failed, 0 skipped"


def test_cli_missing_vectors_dir_is_a_clear_error(tmp_path, capsys):
    assert module_main(["--vectors", str(tmp_path / "nope")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_functok_conformance_subcommand_is_registered():
    done = subprocess.run([sys.executable, "-m", "functok.cli", "conformance", "--run", "paper-01"],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "vectors: 1 passed, 0 failed, 0 skipped"


def test_in_process_run_needs_no_subprocess_or_thread():
    """Pyodide has neither: the in-process path must not import them."""
    code = ("import sys\n"
            "import functok.conformance as c\n"
            "suite = c.load_suite()\n"
            "suite.vectors = suite.vectors[:50]\n"
            "report = c.run_suite(suite, c.InProcessTransport(c.handle))\n"
            "assert report.ok, report.summary()\n"
            "print(sorted(m for m in ('subprocess', 'threading', 'queue') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_reference_handle_declines_an_unknown_op():
    answer = handle({"cmd": "run", "seq": 3, "vector": {"id": "x", "op": "frobnicate", "input": "a", "options": {}}})
    assert answer == {"seq": 3, "skipped": "op 'frobnicate' is not implemented"}


# --- the tokenizer's ops (spec 14, protocol 1.2.0) ---------------------------------------------

def tokenizer_vector(vector_id: str) -> dict:
    (vector,) = [v.test for v in load_suite(VECTORS).vectors if v.id == vector_id]
    return vector


def test_detokenize_errors_report_the_id_index_not_the_stream_offset():
    """dtok-24: CAPITALIZE(9) spelled in bytes is at stream offset 5 but at id index 1."""
    vector = tokenizer_vector("dtok-24")
    (strict, _), (lenient, replace) = cases(vector)
    assert (strict, lenient) == ("strict", "lenient") and replace["options"]["errors"] == "replace"
    answer = handle({"cmd": "run", "seq": 1, "vector": cases(vector)[0][1]})
    assert answer["result"] == {"error": {"kind": "position-out-of-range", "offset": 1}}


@pytest.mark.parametrize(("vector_id", "kind"), [("dtok-15", "unknown-id"), ("dtok-19", "invalid-bytes")])
def test_detokenize_names_the_tokenizer_error_kinds(vector_id, kind):
    vector = tokenizer_vector(vector_id)
    answer = handle({"cmd": "run", "seq": 1, "vector": cases(vector)[0][1]})
    assert answer["result"] == {"error": vector["error"]} and vector["error"]["kind"] == kind


def test_tokenize_answers_ids():
    vector = tokenizer_vector("tok-02")
    answer = handle({"cmd": "run", "seq": 1, "vector": cases(vector)[0][1]})
    assert answer["result"]["output"] == vector["expected"]
    assert all(type(i) is int for i in vector["expected"])


def test_a_claimed_profile_skips_the_other_profiles_encoder_vectors():
    """Protocol 1.2.0 `profiles`: a paper-only implementation is not sent compact or fold/case
    vectors of the encoder, nor tokenize vectors of a compact tokenizer; decode vectors still go."""
    suite = load_suite(VECTORS)
    from functok import SPEC_VERSION
    from functok.conformance.handler import PROTOCOL_VERSION

    start = {"protocol_version": PROTOCOL_VERSION, "implementation": {"name": "paper-only"},
             "spec_versions": [SPEC_VERSION], "profiles": ["paper"]}

    def handle_(request):
        return start if request["cmd"] == "start" else handle(request)

    report = run_suite(suite, InProcessTransport(handle_))
    skipped = {r.id for r in report.results if r.status == "skipped"}
    assert report.ok and {"spec-upper-word", "tok-23", "tok-25", "prof-02"} <= skipped
    assert not skipped & {"prof-01", "upper-dec-01", "tok-02", "dtok-11", "paper-01"}


def test_reference_handle_reports_format_errors_as_results():
    answer = handle({"cmd": "run", "seq": 1, "vector": {"id": "x", "op": "decode", "input": "ab\uefff",
                                                          "options": dict(DEFAULT_OPTIONS)}})
    assert answer == {"seq": 1, "result": {"error": {"kind": "escape-at-end", "offset": 2}}}
