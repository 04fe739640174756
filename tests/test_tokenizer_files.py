"""Bad tokenizer files: every fault is one TokenizerFileError naming the file, the place in it
(a JSON path or a line) and what was expected; `functok tsr` exits 2 with that one line."""

from __future__ import annotations

import base64
import copy
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

FIXTURE = Path(__file__).parent / "fixtures" / "tokenizer-small.json"
SCHEMA = Path(__file__).resolve().parents[1] / "conformance" / "schema" / "tokenizer-file.schema.json"
BYTES = {f"<0x{b:02X}>": b for b in range(256)}


def functok_file() -> dict:
    """A small, valid functok tokenizer file, made by hand (no training needed)."""
    vocab = {"<s>": 0} | {token: 1 + b for token, b in BYTES.items()}
    for token in ("a", "b", "ab", "\ue000", "\ue100", "\ue100\ue000"):
        vocab[token] = len(vocab)
    return {
        "functok": {"format_version": 1, "spec_version": functok.SPEC_VERSION, "splitter": "llama3",
                    "normalize": "nfc", "split_operators": True, "alphabet": "characters+byte-fallback"},
        "tokenizer": {
            "version": "1.0", "truncation": None, "padding": None, "normalizer": None,
            "pre_tokenizer": None, "post_processor": None, "decoder": None,
            "added_tokens": [{"id": 0, "content": "<s>", "special": True}],
            "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                      "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": True,
                      "ignore_merges": False, "vocab": vocab, "merges": [["a", "b"], "\ue100 \ue000"]},
        },
    }


def hf_file() -> dict:
    """A small, valid Hugging Face tokenizer.json (byte fallback, no pre-tokenizer)."""
    return copy.deepcopy(functok_file()["tokenizer"])


def tiktoken_lines() -> list[str]:
    ranks = [bytes((b,)) for b in range(256)] + [b"ab", b"abc"]
    return [f"{base64.b64encode(t).decode()} {r}" for r, t in enumerate(ranks)]


def changed(make, path: tuple, value) -> str:
    """The JSON of ``make()`` with the value at ``path`` replaced (or deleted, for DELETE)."""
    data = make()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(data)


DELETE = object()
T, M = ("tokenizer",), ("tokenizer", "model")
_good = json.dumps(functok_file())

# (case id, file name, content, the place the message must name)
FUNCTOK_CASES = [
    ("truncated", "t.json", _good[: len(_good) // 2], "line 1 column"),
    ("empty", "t.json", "", "empty file"),
    ("blank", "t.json", " \n", "empty file"),
    ("list", "t.json", "[]", (": $: ", "got a list")),
    ("null", "t.json", "null", (": $: ", "got null")),
    ("string", "t.json", '"hello"', (": $: ", 'got the string "hello"')),
    ("unknown version", "t.json", changed(functok_file, ("functok", "format_version"), 2),
     "$.functok.format_version"),
    ("version true", "t.json", changed(functok_file, ("functok", "format_version"), True),
     "$.functok.format_version"),
    ("header a list", "t.json", changed(functok_file, ("functok",), []), "$.functok"),
    ("no split_operators", "t.json", changed(functok_file, ("functok", "split_operators"), DELETE),
     "$.functok.split_operators"),
    ("spec_version a number", "t.json", changed(functok_file, ("functok", "spec_version"), 1),
     "$.functok.spec_version"),
    ("tokenizer {}", "t.json", changed(functok_file, T, {}), "$.tokenizer.model"),
    ("tokenizer a list", "t.json", changed(functok_file, T, []), "$.tokenizer"),
    ("model []", "t.json", changed(functok_file, M, []), "$.tokenizer.model"),
    ("model WordPiece", "t.json", changed(functok_file, M + ("type",), "WordPiece"), "$.tokenizer.model.type"),
    ("vocab a list", "t.json", changed(functok_file, M + ("vocab",), ["a", "b"]), "$.tokenizer.model.vocab"),
    ("string id", "t.json", changed(functok_file, M + ("vocab", "a"), "257"), '$.tokenizer.model.vocab["a"]'),
    ("bool id", "t.json", changed(functok_file, M + ("vocab", "a"), True), '$.tokenizer.model.vocab["a"]'),
    ("negative id", "t.json", changed(functok_file, M + ("vocab", "a"), -1), '$.tokenizer.model.vocab["a"]'),
    ("huge id", "t.json", changed(functok_file, M + ("vocab", "a"), 2**40), '$.tokenizer.model.vocab["a"]'),
    ("duplicate id", "t.json", changed(functok_file, M + ("vocab", "a"), 0), '$.tokenizer.model.vocab["a"]'),
    ("no byte token", "t.json", changed(functok_file, M + ("vocab", "<0x80>"), DELETE),
     "$.tokenizer.model.vocab"),
    ("no byte_fallback", "t.json", changed(functok_file, M + ("byte_fallback",), DELETE),
     "$.tokenizer.model.byte_fallback"),
    ("dropout", "t.json", changed(functok_file, M + ("dropout",), 0.1), "$.tokenizer.model.dropout"),
    ("a pre_tokenizer", "t.json", changed(functok_file, T + ("pre_tokenizer",), {"type": "Whitespace"}),
     "$.tokenizer.pre_tokenizer"),
    ("merges an object", "t.json", changed(functok_file, M + ("merges",), {}), "$.tokenizer.model.merges"),
    ("integer merges", "t.json", changed(functok_file, M + ("merges",), [1, 2]), "$.tokenizer.model.merges[0]"),
    ("merge of 3", "t.json", changed(functok_file, M + ("merges",), [["a", "b", "c"]]),
     "$.tokenizer.model.merges[0]"),
    ("merge without a space", "t.json", changed(functok_file, M + ("merges",), ["ab"]),
     "$.tokenizer.model.merges[0]"),
    ("merge of unknown tokens", "t.json", changed(functok_file, M + ("merges",), [["a", "b"], ["zz", "qq"]]),
     "$.tokenizer.model.merges[1][0]"),
    ("merge of unknown tokens, string form", "t.json", changed(functok_file, M + ("merges",), ["zz b"]),
     "$.tokenizer.model.merges[0]"),
    ("merge result unknown", "t.json", changed(functok_file, M + ("merges",), [["b", "a"]]),
     "$.tokenizer.model.merges[0]"),
    ("added tokens an object", "t.json", changed(functok_file, T + ("added_tokens",), {}),
     "$.tokenizer.added_tokens"),
    ("added token id mismatch", "t.json", changed(functok_file, T + ("added_tokens",), [{"id": 5, "content": "<s>"}]),
     "$.tokenizer.added_tokens[0].id"),
    ("added token not in vocab", "t.json", changed(functok_file, T + ("added_tokens",), [{"id": 0, "content": "<x>"}]),
     "$.tokenizer.added_tokens[0].id"),
    ("added token without content", "t.json", changed(functok_file, T + ("added_tokens",), [{"id": 0}]),
     "$.tokenizer.added_tokens[0].content"),
    ("added byte token", "t.json", changed(functok_file, T + ("added_tokens",), [{"id": 1, "content": "<0x00>"}]),
     "$.tokenizer.added_tokens[0]"),
    ("duplicate key", "t.json", _good.replace('"a": 257', '"a": 257, "a": 258'), 'the key "a" twice'),
    ("huge number", "t.json", _good.replace('"a": 257', '"a": ' + "9" * 5000), "digits"),
    ("deep nesting, unclosed", "t.json", "[" * 100_000, "nested"),
    ("deep nesting, closed", "t.json", '{"functok": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
]

HF_CASES = [
    ("hf list", "hf.json", "[]", (": $: expected an object", "got a list")),
    ("hf string", "hf.json", '"hello"', (": $: expected an object", 'got the string "hello"')),
    ("hf no model", "hf.json", changed(hf_file, ("model",), DELETE), "$.model"),
    ("hf model a string", "hf.json", changed(hf_file, ("model",), "BPE"), "$.model"),
    ("hf WordPiece", "hf.json", changed(hf_file, ("model", "type"), "WordPiece"), "$.model.type"),
    ("hf vocab a list", "hf.json", changed(hf_file, ("model", "vocab"), []), "$.model.vocab"),
    ("hf string id", "hf.json", changed(hf_file, ("model", "vocab", "ab"), "3"), '$.model.vocab["ab"]'),
    ("hf duplicate id", "hf.json", changed(hf_file, ("model", "vocab", "ab"), 0), '$.model.vocab["ab"]'),
    ("hf no merges", "hf.json", changed(hf_file, ("model", "merges"), DELETE), "$.model.merges"),
    ("hf integer merges", "hf.json", changed(hf_file, ("model", "merges"), [7]), "$.model.merges[0]"),
    ("hf merge of unknown tokens", "hf.json", changed(hf_file, ("model", "merges"), [["x", "y"]]),
     "$.model.merges[0][0]"),
    ("hf unknown unk_token", "hf.json", changed(hf_file, ("model", "unk_token"), "<unk>"), "$.model.unk_token"),
    ("hf subword prefix", "hf.json", changed(hf_file, ("model", "continuing_subword_prefix"), "##"),
     "$.model.continuing_subword_prefix"),
    ("hf added tokens a string", "hf.json", changed(hf_file, ("added_tokens",), "x"), "$.added_tokens"),
    ("hf added token on a vocabulary id", "hf.json",
     changed(hf_file, ("added_tokens",), [{"id": 5, "content": "<new>"}]), ("$.added_tokens[0].id", "<0x04>")),
    ("hf added tokens with one id", "hf.json",
     changed(hf_file, ("added_tokens",), [{"id": 900, "content": "<a>"}, {"id": 900, "content": "<b>"}]),
     "$.added_tokens[1].id"),
    ("hf deep nesting", "hf.json", '{"a": ' * 50_000, "nested"),
]

_lines = tiktoken_lines()
TIKTOKEN_CASES = [
    ("tiktoken empty", "r.tiktoken", "", "empty file"),
    ("tiktoken blank lines", "r.tiktoken", "\n\n", "empty file"),
    ("tiktoken bad base64", "r.tiktoken", "\n".join(_lines + ["!!notbase64 258"]), ("line 259", "not base64")),
    ("tiktoken bad padding", "r.tiktoken", "\n".join(_lines + ["YQ 258"]), ("line 259", "not base64")),
    ("tiktoken bad rank", "r.tiktoken", "\n".join(_lines + ["YWJjZA== x"]), ("line 259", 'rank from 0 to 4294967295, got "x"')),
    ("tiktoken negative rank", "r.tiktoken", "\n".join(_lines + ["YWJjZA== -3"]), ("line 259", 'got "-3"')),
    ("tiktoken huge rank", "r.tiktoken", "\n".join(_lines + ["YWJjZA== " + "9" * 5000]), ("line 259", "rank from 0")),
    ("tiktoken duplicate rank", "r.tiktoken", "\n".join(_lines + ["YWJjZA== 257"]), ("line 259", "unique rank, got 257, the rank of line 258")),
    ("tiktoken duplicate token", "r.tiktoken", "\n".join(_lines + ["YWI= 300"]), ("line 259", "b'ab' again (line 257)")),
    ("tiktoken three fields", "r.tiktoken", "\n".join(_lines + ["YWJjZA== 258 x"]), ("line 259", "3 fields")),
    ("tiktoken one field", "r.tiktoken", "\n".join(["YWJjZA=="] + _lines), "line 1"),
    ("tiktoken missing a byte", "r.tiktoken", "\n".join(_lines[1:]), "byte 0x00"),
    ("tiktoken a JSON file", "r.tiktoken", _good, "line 1"),
]

BAD_BYTES = [
    ("not UTF-8", "t.json", b'{"functok": "\xff"}', "expected UTF-8"),
    ("UTF-16", "t.json", '{"functok": 1}'.encode("utf-16"), "expected UTF-8"),
    ("tiktoken binary", "r.tiktoken", b"\xff\xfe\x00 1\n", "line 1"),
]

ALL_CASES = FUNCTOK_CASES + HF_CASES + TIKTOKEN_CASES + BAD_BYTES


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def assert_names(error: TokenizerFileError, path: Path, where: str | tuple[str, ...]) -> None:
    message = str(error)
    assert message.startswith(f"{path}: "), message
    assert all(part in message for part in (where if isinstance(where, tuple) else (where,))), message
    assert "\n" not in message and len(message) < 400, message


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
    with pytest.raises(TokenizerFileError) as info:
        load_vocabulary(path)
    assert_names(info.value, path, where)
    assert isinstance(info.value, ValueError) and info.value.file == str(path)
    if name.endswith(".json") and "hf" not in case[0]:
        with pytest.raises(TokenizerFileError) as info:
            Tokenizer.from_file(path)
        assert_names(info.value, path, where)


@pytest.mark.parametrize("case", HF_CASES, ids=[c[0] for c in HF_CASES])
def test_load_hf_names_the_file_too(tmp_path, case):
    _, name, content, where = case
    path = write(tmp_path, name, content)
    with pytest.raises(TokenizerFileError) as info:
        load_hf(path)
    assert_names(info.value, path, where)


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
    vocab = load_vocabulary(path)
    with pytest.raises(TokenizerFileError) as info:
        vocab.pre_tokenize("ab")
    assert_names(info.value, path, "$: `tokenizers` cannot read it")


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


SCHEMA_CASES = [c for c in FUNCTOK_CASES if c[0] not in {
    # what a schema cannot say: syntax, uniqueness of values, merges of vocabulary tokens,
    # the 256 byte tokens, ids that agree across objects
    "truncated", "empty", "blank", "duplicate key", "huge number", "deep nesting, unclosed",
    "deep nesting, closed", "duplicate id", "no byte token", "merge of unknown tokens",
    "merge of unknown tokens, string form", "merge result unknown", "added token id mismatch",
    "added token not in vocab", "added byte token"}]


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
