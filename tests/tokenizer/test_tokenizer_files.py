"""Bad tokenizer files: every fault is one TokenizerFileError naming the file, the place in it
(a JSON path or a line) and what was expected; `functok tsr` exits 2 with that one line."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import functok
from functok import Tokenizer, TokenizerFileError
from functok.cli import main
from functok.tokenizer.external import load_hf, load_vocabulary, read_tiktoken_ranks

from fixtures.tokenizer_cases import CASES, DELETE, M, TEXTS, T, changed, content_bytes, from_fixture, functok_file
from fixtures.tokenizer_cases import hf_file, text as fixture_text, tiktoken_lines

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tokenizer-small.json"
SCHEMA = Path(__file__).resolve().parents[2] / "conformance" / "schema" / "tokenizer-file.schema.json"
SHARED = Path(__file__).resolve().parents[2] / "js" / "test" / "fixtures" / "tokenizer-files.json"
_good = json.dumps(functok_file())

# The shared cases (tests/fixtures/tokenizer_cases.py): (case id, file name, content, place named)
REFUSED = [c for c in CASES if c.verdict == "refuse"]
ACCEPTED = [c for c in CASES if c.verdict == "accept"]
ALL_CASES = [(c.id, c.name, c.content, c.where) for c in REFUSED]
FUNCTOK_CASES = [c for c in ALL_CASES if c[1] == "t.json"]
HF_CASES = [c for c in ALL_CASES if c[1] == "hf.json"]


def write(tmp_path: Path, name: str, content: str | bytes | list) -> Path:
    path = tmp_path / name
    path.write_bytes(content_bytes(content))
    return path


def assert_names(error: TokenizerFileError, path: Path, where: str | tuple[str, ...]) -> None:
    message = str(error)
    assert message.startswith(f"{path}: "), message
    assert all(part in message for part in (where if isinstance(where, tuple) else (where,))), message
    assert "\n" not in message and len(message) < 400, message


def assert_refused(load, path: Path, where: str | tuple[str, ...]) -> TokenizerFileError:
    """``load(path)`` raises a TokenizerFileError that names the file and ``where``: the error."""
    with pytest.raises(TokenizerFileError) as info:
        load(path)
    assert_names(info.value, path, where)
    return info.value


# --- the library --------------------------------------------------------------------------


def test_the_good_files_load(tmp_path):
    tok = Tokenizer.from_str(_good)
    assert tok.decode(tok.encode("ab").ids) == "ab"
    assert tok.vocab_size == 1 + 256 + 6
    assert len(load_hf(hf_file())) == 263
    beyond = dict(hf_file(), added_tokens=[{"id": 1000, "content": "<|begin_of_text|>"}])  # as Llama 3's
    assert load_hf(beyond).special_tokens == {"<|begin_of_text|>": 1000}
    assert len(load_vocabulary(write(tmp_path, "hf.json", json.dumps(hf_file())))) == 263
    assert len(read_tiktoken_ranks(write(tmp_path, "r.tiktoken", "\n".join(tiktoken_lines()) + "\n"))) == 258
    assert Tokenizer.from_file(FIXTURE).vocab_size == 1500


@pytest.mark.parametrize("case", ALL_CASES, ids=[c[0] for c in ALL_CASES])
def test_a_bad_file_is_one_error_naming_file_and_place(tmp_path, case):
    _, name, content, where = case
    path = write(tmp_path, name, content)
    error = assert_refused(load_vocabulary, path, where)
    assert isinstance(error, ValueError) and error.file == str(path)
    if name.endswith(".json") and "hf" not in case[0]:
        assert_refused(Tokenizer.from_file, path, where)


@pytest.mark.parametrize("case", HF_CASES, ids=[c[0] for c in HF_CASES])
def test_load_hf_names_the_file_too(tmp_path, case):
    _, name, content, where = case
    assert_refused(load_hf, write(tmp_path, name, content), where)


# --- the shared cases: what both loaders accept (js/test/tokenizer-files.test.mjs too) -------


def test_the_shared_fixture_is_fresh():
    """js/test/fixtures/tokenizer-files.json is what tests/fixtures/tokenizer_cases.py writes,
    and it spells every case's bytes."""
    assert SHARED.read_text(encoding="utf-8") == fixture_text(), "run python tests/fixtures/tokenizer_cases.py"
    shared = json.loads(SHARED.read_text(encoding="utf-8"))
    for case, written in zip(CASES, shared["cases"], strict=True):
        assert from_fixture(written, shared["bases"]) == content_bytes(case.content), case.id


@pytest.mark.parametrize("case", ACCEPTED, ids=[c.id for c in ACCEPTED])
def test_an_accepted_file_loads_and_gives_integer_ids(tmp_path, case):
    if case.name == "hf.json":
        pytest.importorskip("tokenizers")  # the file's own normalizer and pre-tokenizer
    path = write(tmp_path, case.name, case.content)
    vocabulary = load_vocabulary(path)
    for text in TEXTS:
        ids = vocabulary.encode(text)
        assert all(type(i) is int for i in ids), (text, ids)
    if case.name == "t.json":
        tok = Tokenizer.from_file(path)
        assert all(type(i) is int for i in tok.encode(" ".join(TEXTS)).ids)
        assert tok.decode(tok.encode("ab a").ids) == "ab a"
        if "in an ignored member" not in case.id:  # 1e400 (infinite) is no number JSON can write
            assert Tokenizer.from_str(tok.to_str()).encode("ab b").ids == tok.encode("ab b").ids
        else:
            with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
                tok.to_str()


MIXED = json.dumps(hf_file()["model"]["merges"][1])


def _parts_set(case) -> bool:
    """Is ``case`` the small tokenizer.json with a normalizer, pre-tokenizer or decoder set?"""
    text = "" if isinstance(case.content, bytes) else content_bytes(case.content).decode()
    nulls = ('"normalizer": null', '"pre_tokenizer": null', '"decoder": null')
    return case.name == "hf.json" and '"model": {"type": "BPE"' in text and not all(n in text for n in nulls)


HF_PARTS = [c for c in CASES if _parts_set(c)]


@pytest.mark.parametrize("case", HF_PARTS, ids=[c.id for c in HF_PARTS])
def test_a_normalizer_or_pre_tokenizer_is_refused_where_tokenizers_refuses_it(case):
    """The verdicts of the shared cases on a tokenizer.json's normalizer, pre-tokenizer and
    decoder are those of Hugging Face `tokenizers` itself (a file functok loads must load there too)."""
    tokenizers = pytest.importorskip("tokenizers")
    added = json.dumps(hf_file()["added_tokens"])  # `tokenizers` wants more members in each
    text = content_bytes(case.content).decode()
    assert added in text
    try:
        # and one form of merges (`tokenizers` refuses the two forms mixed, which spec 14.3 allows)
        tokenizers.Tokenizer.from_str(text.replace(added, "[]").replace(MIXED, '["\\ue100", "\\ue000"]'))
        verdict = "accept"
    except Exception:
        verdict = "refuse"
    assert verdict == case.verdict


def test_a_parsed_tokenizer_json_is_checked_at_load_too():
    """load_hf of a dict: Sequences 3,000 deep and a Metaspace replacement "" are refused at
    load, one TokenizerFileError each (spec 14.8), as the JS loader refuses them."""
    pytest.importorskip("tokenizers")
    deep: dict = {"type": "NFC"}
    for _ in range(3000):
        deep = {"type": "Sequence", "normalizers": [deep]}
    for part, value in [("normalizer", deep), ("pre_tokenizer", {"type": "Metaspace", "replacement": ""})]:
        with pytest.raises(TokenizerFileError, match=r"^tokenizer\.json: \$: `tokenizers` cannot read"):
            load_hf(dict(hf_file(), **{part: value}))


def test_from_str_without_a_file_says_string():
    with pytest.raises(TokenizerFileError, match=r"^<string>: \$\.tokenizer\.model: expected an object"):
        Tokenizer.from_str(changed(functok_file, M, []))
    with pytest.raises(TokenizerFileError, match=r"^my\.json: line 1"):
        Tokenizer.from_str("{", source="my.json")


def test_a_file_holding_a_json_string_is_not_read_as_a_path(tmp_path):
    (tmp_path / "hello").write_text("not a tokenizer")  # what the old loader would have opened
    path = write(tmp_path, "t.json", '"hello"')
    with pytest.raises(TokenizerFileError) as info:
        load_vocabulary(path)
    assert "No such file" not in str(info.value) and "the string \"hello\"" in str(info.value)


def test_missing_file_and_directory_name_the_path(tmp_path):
    for path in (tmp_path / "absent.json", tmp_path, tmp_path / "absent.tiktoken"):
        with pytest.raises(TokenizerFileError, match="cannot read the file") as info:
            load_vocabulary(path)
        assert info.value.file == str(path)
    with pytest.raises(TokenizerFileError):
        Tokenizer.from_file(tmp_path / "absent.json")


def test_duplicate_ids_are_refused_not_decoded_as_the_other_token():
    """Before: "a" given the id of "<s>" loaded, and decode(encode("a").ids) returned '<s>'."""
    data = functok_file()
    data["tokenizer"]["model"]["vocab"]["a"] = 0
    with pytest.raises(TokenizerFileError, match=r'vocab\["a"\]: expected a unique id, got 0, the id of "<s>"'):
        Tokenizer.from_str(json.dumps(data))


def test_the_error_has_fields_and_pickles():
    with pytest.raises(TokenizerFileError) as info:
        Tokenizer.from_str(changed(functok_file, M + ("vocab", "a"), "257"))
    e = info.value
    assert (e.file, e.where) == ("<string>", '$.tokenizer.model.vocab["a"]')
    assert e.problem == 'expected an integer id from 0 to 4294967295, got the string "257"'
    again = pickle.loads(pickle.dumps(e))
    assert (type(again), str(again), again.where) == (TokenizerFileError, str(e), e.where)


def test_a_pre_tokenizer_tokenizers_cannot_read_is_a_file_error(tmp_path):
    pytest.importorskip("tokenizers")
    data = hf_file()
    data["pre_tokenizer"] = {"type": "NoSuchPreTokenizer"}
    path = write(tmp_path, "hf.json", json.dumps(data))
    # at load, not at the first encode
    assert_refused(load_vocabulary, path, "$: `tokenizers` cannot read its normalizer or pre-tokenizer")


# --- the JSON Schema (documentation; the loader itself checks with the standard library) ---


def _schema():
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_good_files_match_the_schema(tmp_path):
    validator = _schema()
    saved = write(tmp_path, "saved.json", Tokenizer.from_str(_good).to_str())
    for path in (FIXTURE, saved):
        errors = list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        assert not errors, [e.message for e in errors[:3]]
    assert validator.is_valid(functok_file())


SCHEMA_CASES = [c for c in FUNCTOK_CASES if isinstance(c[2], str) and c[0] not in {
    # what a schema cannot say: syntax, uniqueness of values, merges of vocabulary tokens,
    # the 256 byte tokens, ids that agree across objects, RFC 8259's numbers
    "truncated", "empty", "blank", "duplicate key", "huge number", "duplicate id", "no byte token",
    "merge of unknown tokens", "merge of unknown tokens, string form", "merge result unknown",
    "added token id mismatch", "added token not in vocab", "added byte token", "duplicate id, one written 0.0",
    "NaN in an ignored member", "-Infinity in an ignored member"}]


@pytest.mark.parametrize("case", SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES])
def test_the_schema_refuses_the_structural_cases(case):
    assert not _schema().is_valid(json.loads(case[2]))


# --- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES, ids=[c[0] for c in ALL_CASES])
def test_tsr_exits_2_with_one_line(tmp_path, capsys, case):
    _, name, content, where = case
    path = write(tmp_path, name, content)
    corpus = write(tmp_path, "corpus.txt", "ab abc\n")
    assert main(["tsr", "--vocab", str(path), "--corpus", str(corpus), "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"functok tsr: {path}: "), captured.err
    assert all(part in captured.err for part in (where if isinstance(where, tuple) else (where,))), captured.err
    assert captured.err.count("\n") == 1, captured.err


def test_tsr_in_a_process_prints_no_traceback(tmp_path):
    corpus = write(tmp_path, "corpus.txt", "ab abc\n")
    for name, content in [("t.json", changed(functok_file, M, [])), ("deep.json", "[" * 100_000),
                          ("r.tiktoken", "!! 0\n")]:
        path = write(tmp_path, name, content)
        run = subprocess.run([sys.executable, "-m", "functok.cli", "tsr", "--vocab", str(path), "--corpus",
                              str(corpus)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
        assert run.stderr.startswith(f"functok tsr: {path}: ")
