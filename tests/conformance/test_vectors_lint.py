"""Lint of the conformance vectors: schema, ids, escapes, descriptions, coverage, versions, and
that the generated files are exactly what their generators write."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import functok

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = REPO / "conformance"
VECTORS = CONFORMANCE / "vectors"
SCHEMA = CONFORMANCE / "schema" / "vectors.schema.json"
PROTOCOL_SCHEMA = CONFORMANCE / "schema" / "protocol.schema.json"
SPEC_MD = REPO / "spec" / "SPEC.md"
OPCODES = REPO / "spec" / "opcodes.json"
VECTOR_FILES = sorted(VECTORS.glob("*.json"))

# The 13 marks, whatever else the table says: these are the combining marks the vectors use most.
MARKS = {0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0307, 0x0308, 0x030A, 0x030B, 0x030C,
         0x0326, 0x0327, 0x0328}


def documents() -> list[tuple[Path, dict]]:
    return [(path, json.loads(path.read_text(encoding="utf-8"))) for path in VECTOR_FILES]


def all_tests() -> list[dict]:
    return [test for _, doc in documents() for test in doc["tests"]]


def test_schemas_are_valid_draft_2020_12():
    for path in (SCHEMA, PROTOCOL_SCHEMA):
        Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: p.name)
def test_vector_file_matches_schema(path):
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    errors = sorted(validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))), key=str)
    assert not errors, "\n".join(f"{list(e.path)}: {e.message[:200]}" for e in errors[:5])


def test_schema_rejects_what_it_should():
    """The schema can fail: unknown keys, a bad op, an error without lenient, a long description."""
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    good = {"id": "x-1", "description": "d", "op": "decode", "input": "", "expected": "", "spec": ["7.1"]}
    document = {"spec_version": "1.0.0", "suite_version": "1.0.0", "area": "x", "tests": [good]}
    assert validator.is_valid(document)
    bad_tests = [
        {**good, "extra": 1},
        {**good, "op": "frobnicate"},
        {**good, "description": "x" * 70},
        {k: v for k, v in good.items() if k != "expected"} | {"error": {"kind": "bad-count", "offset": 0}},
        {**good, "options": {"normalise": "nfc"}},
        {**good, "op": "encode", "roundtrip": False},
        {**good, "op": "split", "expected": "not a list"},
    ]
    for bad in bad_tests:
        assert not validator.is_valid({**document, "tests": [bad]}), bad


def test_at_least_400_vectors():
    assert len(all_tests()) >= 400


def test_ids_are_unique_across_the_suite():
    ids = [t["id"] for t in all_tests()]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: p.name)
def test_no_raw_private_use_or_combining_characters(path):
    """The files are written with \\uXXXX escapes for private use and combining marks (in fact
    they are pure ASCII, which implies it)."""
    text = path.read_text(encoding="utf-8")
    offenders = [c for c in text if 0xE000 <= ord(c) <= 0xF8FF or ord(c) >= 0xF0000
                 or unicodedata.combining(c) or ord(c) in MARKS or unicodedata.category(c) == "Mn"]
    assert not offenders, f"raw characters: {sorted({f'U+{ord(c):04X}' for c in offenders})}"


def test_descriptions_are_short_and_say_no_should():
    for test in all_tests():
        description = test["description"]
        assert len(description) < 70, test["id"]
        assert not re.search(r"\bshould\b", description, re.IGNORECASE), test["id"]


# The tokenizer's own error kinds (spec 14.7): detokenize only, not format errors.
TOKENIZER_KINDS = {"unknown-id", "invalid-bytes"}


def test_every_error_kind_has_a_vector():
    kinds = {e["kind"] for e in json.loads(OPCODES.read_text(encoding="utf-8"))["errors"]}
    covered = {t["error"]["kind"] for t in all_tests() if "error" in t}
    assert kinds - covered == set()
    assert covered - kinds - TOKENIZER_KINDS == set(), "a vector names an error kind that spec/opcodes.json lacks"
    detokenize = {t["error"]["kind"] for t in all_tests() if "error" in t and t["op"] == "detokenize"}
    assert TOKENIZER_KINDS <= detokenize
    others = {t["error"]["kind"] for t in all_tests() if "error" in t and t["op"] != "detokenize"}
    assert not others & TOKENIZER_KINDS, "only detokenize reports the tokenizer's kinds"
    spec = SPEC_MD.read_text(encoding="utf-8")
    assert all(f"`{kind}`" in spec for kind in TOKENIZER_KINDS)


def test_every_opcode_and_mark_is_exercised():
    """Every assigned opcode appears in some encode output or decode input."""
    table = json.loads(OPCODES.read_text(encoding="utf-8"))
    streams = "".join(t["expected"] for t in all_tests() if t["op"] == "encode" and "expected" in t)
    streams += "".join(t["input"] for t in all_tests() if t["op"] == "decode")
    for op in table["opcodes"] + [table["escape"]]:
        assert chr(int(op["code_point"][2:], 16)) in streams, op["name"]


def spec_clause_numbers() -> set[str]:
    headings = re.findall(r"^#{2,3} (\d+(?:\.\d+)?) ", SPEC_MD.read_text(encoding="utf-8"), re.MULTILINE)
    return set(headings)


def test_spec_references_name_existing_clauses():
    clauses = spec_clause_numbers()
    missing = sorted({f"{t['id']}: {ref}" for t in all_tests() for ref in t["spec"] if ref not in clauses})
    assert not missing, missing[:10]


def test_the_documents_list_every_op_of_the_schema():
    """README.md, PROTOCOL.md and INTERPRETING.md name the same ops as the schema and the handler."""
    from functok.conformance.handler import OPS

    ops = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]["op"]["enum"]
    assert list(OPS) == ops
    for name, marker in (("README.md", "`op` is "), ("PROTOCOL.md", "| `op` |"), ("INTERPRETING.md", "| `op` |")):
        lines = (CONFORMANCE / name).read_text(encoding="utf-8").splitlines()
        line = next(line for line in lines if marker in line)
        assert [op for op in ops if f"`{op}`" not in line] == [], name


def test_sources_cite_clauses_by_the_spec_anchors_only():
    """The vector sources name clauses by SPEC.md's anchors; nothing else is a clause name."""
    sys.path.insert(0, str(CONFORMANCE / "tools"))
    import vectorlib

    anchors = dict(re.findall(r'^<a id="([a-z0-9-]+)"></a>\n#{2,3} (\d+(?:\.\d+)?) ',
                              SPEC_MD.read_text(encoding="utf-8"), re.MULTILINE))
    assert vectorlib.CLAUSES == anchors
    cited = vectorlib._clauses(["encode-fold", "terms-definitions", "chardata-classes"])
    assert cited == ["6.1", "1.1", "3.2"]
    for not_an_anchor in ("fold", "marks-case", "slots", "dangling", "6.1"):
        with pytest.raises(ValueError):
            vectorlib._clauses([not_an_anchor])


def test_versions_agree_everywhere():
    """spec/opcodes.json, functok.SPEC_VERSION, the spec header and every vector file."""
    sys.path.insert(0, str(CONFORMANCE / "tools"))
    from extract_spec_examples import spec_header_version

    opcodes_version = json.loads(OPCODES.read_text(encoding="utf-8"))["spec_version"]
    header = spec_header_version(SPEC_MD.read_text(encoding="utf-8"))
    assert opcodes_version == functok.SPEC_VERSION == header
    for path, document in documents():
        assert document["spec_version"] == functok.SPEC_VERSION, path.name


def test_suite_version_is_one_and_in_the_changelog():
    versions = {doc["suite_version"] for _, doc in documents()}
    assert len(versions) == 1
    (version,) = versions
    changelog = (CONFORMANCE / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(version)}\b", changelog, re.MULTILINE)


@pytest.mark.parametrize("tool", ["build_vectors.py", "extract_spec_examples.py"])
def test_generated_vector_files_are_up_to_date(tool):
    """Regenerating the vectors (from the sources, and from spec/SPEC.md) changes nothing."""
    done = subprocess.run([sys.executable, str(CONFORMANCE / "tools" / tool), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_spec_example_is_in_the_suite():
    blocks = re.findall(r"^```functok-example\s*\n(.*?)^```", SPEC_MD.read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    examples = json.loads((VECTORS / "spec-examples.json").read_text(encoding="utf-8"))["tests"]
    assert [json.loads(b)["id"] for b in blocks] == [t["id"] for t in examples]


HAND_WRITTEN = {"segment.json"}  # written directly as JSON, no generator


def test_generated_files_name_their_generator():
    for path in VECTOR_FILES:
        first_line = path.read_text(encoding="utf-8").splitlines()[0]
        if path.name in HAND_WRITTEN:
            assert "Hand-written" in first_line, path.name
        else:
            assert "GENERATED by conformance/tools/" in first_line, path.name


# Spec examples whose `roundtrip` flag is missing although the stream is not canonical; reported
# to the spec writer (the fix is `"roundtrip": false` in the example).
def test_roundtrip_flags_agree_with_the_reference_encoder():
    """A decode vector without roundtrip:false holds a canonical stream, one with it does not.

    This checks the suite's own claims with the reference encoder; a failure means the vector's
    flag or the encoder is wrong, to be settled by the spec.
    """
    wrong = []
    for test in all_tests():
        if test["op"] != "decode" or "expected" not in test:
            continue
        options = test.get("options", {})
        encoder = {k: options[k] for k in ("splitter", "profile", "fold", "case") if k in options}
        canonical = functok.encode(test["expected"], normalize=None, **encoder) == test["input"]
        if canonical != test.get("roundtrip", True):
            wrong.append(test["id"])
    assert not wrong


def test_encode_vectors_have_decode_twins():
    """INTERPRETING.md promises an <id>-dec twin for every hand-written encode vector."""
    tests = {t["id"]: t for t in all_tests()}
    for test in tests.values():
        if test["op"] == "encode" and "expected" in test and not test["id"].startswith("spec-"):
            twin = tests.get(test["id"] + "-dec")
            assert twin is not None and twin["input"] == test["expected"], test["id"]


def test_pretokens_vectors_join_to_the_stream():
    """Spec 9.3: the pre-tokens concatenate to encode(x); checked against the reference encoder."""
    for test in all_tests():
        if test["op"] == "pretokens" and "expected" in test:
            options = test.get("options", {})
            encoder = {k: options[k] for k in ("splitter", "profile", "fold", "case") if k in options}
            stream = functok.encode(test["input"], normalize=options.get("normalize", "nfc"), **encoder)
            assert "".join(test["expected"]) == stream, test["id"]
            assert all(test["expected"]), f"{test['id']}: empty pre-token"


def test_inline_tokenizer_files_match_the_tokenizer_file_schema():
    """Every tokenize/detokenize vector carries a whole functok tokenizer file (spec 14.1)."""
    validator = Draft202012Validator(json.loads((CONFORMANCE / "schema" / "tokenizer-file.schema.json")
                                                .read_text(encoding="utf-8")))
    files = [t["options"]["tokenizer"] for t in all_tests() if t["op"] in ("tokenize", "detokenize")]
    assert len(files) >= 50
    for file in {json.dumps(f, sort_keys=True): f for f in files}.values():
        errors = sorted(validator.iter_errors(file), key=str)
        assert not errors, errors[0].message[:200]
        vocab = file["tokenizer"]["model"]["vocab"]
        assert all(f"<0x{b:02X}>" in vocab for b in range(256))  # spec 14.3: all 256 byte tokens
