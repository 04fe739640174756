"""functok.Tokenizer: training, the file, lossless ids, offsets, special tokens, streaming."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import functok
from functok.normalize import nfc
from functok.tokenizer import FORMAT_VERSION, DecodeStream, Tokenizer

from conftest import udhr_files
from fixtures.trained import model_ids, need_tokenizers, stdlib_texts, stdlib_tokenizer, udhr_texts

SEGMENTATIONS = [
    {"segmentation": "greedy"},
    {"segmentation": "optimal"},
    {"segmentation": "optimal", "tie_break": "prefer-greedy"},
    {"segmentation": "optimal", "reachable_only": True},
]


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    need_tokenizers()
    return stdlib_tokenizer()


@pytest.fixture(scope="module")
def raw_tok() -> Tokenizer:
    """No normalization, operators joined to their base: the other two settings."""
    need_tokenizers()
    train, _ = stdlib_texts()
    return Tokenizer.train(iter(train[:20]), vocab_size=1500, normalize=None,
                           split_operators=False, profile="paper", show_progress=False)


# --- the file -----------------------------------------------------------------------------


def test_save_and_load_give_the_same_ids(tok, tmp_path):
    path = tmp_path / "tok.json"
    tok.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == ["functok", "tokenizer"]
    assert data["functok"] == {
        "format_version": FORMAT_VERSION, "spec_version": functok.SPEC_VERSION,
        "splitter": "llama3", "normalize": "nfc", "split_operators": True, "profile": "paper",
        "fuse": "none", "alphabet": "characters+byte-fallback"}
    loaded = Tokenizer.from_file(path)
    text = "Hello, World! Ünïcødé  ####  abcabcabc\n"
    for options in SEGMENTATIONS:
        assert loaded.encode(text, **options).ids == tok.encode(text, **options).ids
    assert loaded.vocab_size == tok.vocab_size == 6000
    assert Tokenizer.from_str(tok.to_str()).get_vocab() == tok.get_vocab()


def test_pickle_for_multiprocessing(tok):
    import pickle

    tok.encode("warm the caches", segmentation="optimal")
    clone = pickle.loads(pickle.dumps(tok))
    assert clone.encode("Hello wörld").ids == tok.encode("Hello wörld").ids
    assert repr(clone) == repr(tok)


def test_the_inner_file_is_a_working_hf_tokenizer(tok):
    tokenizers = need_tokenizers()
    hf = tokenizers.Tokenizer.from_str(json.dumps(tok.hf_json))
    pretokens = tok.vocabulary.pre_tokenize("Hello World")
    assert [hf.encode(p, add_special_tokens=False).ids for p in pretokens] == [
        tok.vocabulary.ids(p) for p in pretokens]


_MAJOR, _MINOR, _ = functok.SPEC_VERSION.split(".")
NEXT_MINOR = f"{_MAJOR}.{int(_MINOR) + 1}.0"


@pytest.mark.parametrize("change, message", [
    ({"format_version": 2}, "format version 2 is not supported"),
    ({"spec_version": "2.0.0"}, "spec_version 2.0.0"),
    ({"spec_version": NEXT_MINOR}, f"spec_version {NEXT_MINOR}"),  # a MINOR newer than ours
    ({"spec_version": "one"}, "spec_version one"),
    ({"splitter": "gpt2"}, "unknown splitter"),
    ({"normalize": "nfkc"}, "unknown normalization"),
    ({"profile": "fast"}, "unknown profile"),
])
def test_loader_refuses_what_it_does_not_know(tok, change, message):
    data = json.loads(tok.to_str())
    data["functok"].update(change)
    with pytest.raises(ValueError, match=message):
        Tokenizer.from_str(json.dumps(data))


def test_loader_refuses_a_plain_hf_file(tok):
    with pytest.raises(ValueError, match="not a functok tokenizer file"):
        Tokenizer.from_str(json.dumps(tok.hf_json))


def test_loader_refuses_a_vocabulary_that_is_not_lossless(tok):
    data = json.loads(tok.to_str())
    del data["tokenizer"]["model"]["vocab"]["<0x80>"]
    with pytest.raises(ValueError, match="lacks byte-fallback tokens"):
        Tokenizer.from_str(json.dumps(data))
    data["tokenizer"]["model"]["byte_fallback"] = False
    with pytest.raises(ValueError, match="byte_fallback"):
        Tokenizer.from_str(json.dumps(data))


# --- training -----------------------------------------------------------------------------


def test_train_from_files(tmp_path):
    need_tokenizers()
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("Hello hello HELLO\n" * 20, encoding="utf-8")
    b.write_text("Wörld wörld\n" * 20, encoding="utf-8")
    t = Tokenizer.train([a, b], vocab_size=400, special_tokens=["<s>"], show_progress=False)
    assert t.token_to_id("<s>") == 0
    assert t.token_to_id("<0x00>") == 1 and t.token_to_id("<0xFF>") == 256
    assert t.token_to_id("hello") is not None and t.token_to_id("world") is not None
    assert t.id_to_token(t.token_to_id("hello")) == "hello"
    assert t.vocab_size <= 400
    with pytest.raises(FileNotFoundError, match="iter"):
        Tokenizer.train(["not a file at all"], vocab_size=400, show_progress=False)
    with pytest.raises(ValueError, match="no room"):
        Tokenizer.train([a], vocab_size=256, show_progress=False)


def test_min_frequency_limits_merges():
    need_tokenizers()
    texts = ["common common common rare"] * 3
    low = Tokenizer.train(iter(texts), vocab_size=1000, show_progress=False)
    high = Tokenizer.train(iter(texts), vocab_size=1000, min_frequency=5, show_progress=False)
    assert low.token_to_id(" rare") is not None and high.token_to_id(" rare") is None
    assert high.token_to_id(" common") is not None


# --- nothing is lost ----------------------------------------------------------------------


@pytest.mark.parametrize("options", SEGMENTATIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_udhr_round_trips_with_a_code_only_tokenizer(tok, options):
    # every translation for the two segmentations; every 8th for the other options
    texts = udhr_texts()[:: 1 if len(options) == 1 else 8]
    unseen = set()
    for text in texts:
        ids = tok.encode(text, **options).ids
        assert tok.decode(ids) == nfc(text)
        unseen.update(c for c in nfc(text) if tok.token_to_id(c) is None)
    assert len(unseen) > 500  # most characters were never seen in training


@given(st.text(st.characters(codec="utf-8"), max_size=80))
def test_any_text_round_trips(text):
    need_tokenizers()
    t = stdlib_tokenizer()
    for options in SEGMENTATIONS[:3]:
        ids = t.encode(text, disallowed_special=(), **options).ids
        assert t.decode(ids) == nfc(text)


@given(st.text(st.characters(codec="utf-8"), max_size=80))
def test_any_text_round_trips_without_normalization(raw_tok, text):
    for options in SEGMENTATIONS[:2]:
        assert raw_tok.decode(raw_tok.encode(text, **options).ids) == text


def test_optimal_never_needs_more_tokens(tok):
    _, held_out = stdlib_texts()
    greedy = optimal = 0
    for text in held_out[:10]:
        greedy += len(tok.encode(text).ids)
        optimal += len(tok.encode(text, segmentation="optimal").ids)
    assert optimal < greedy


def test_lone_surrogate_is_refused(tok):
    with pytest.raises(functok.FormatError) as info:
        tok.encode("ab\ud800")
    assert info.value.kind == "lone-surrogate" and info.value.offset == 2


def test_batches(tok):
    texts = ["Hello", "wörld", ""]
    encs = tok.encode_batch(texts, segmentation="optimal")
    assert [e.ids for e in encs] == [tok.encode(t, segmentation="optimal").ids for t in texts]
    assert tok.decode_batch([e.ids for e in encs]) == texts


def test_unknown_options_are_refused(tok):
    with pytest.raises(ValueError, match="segmentation"):
        tok.encode("x", segmentation="fast")
    with pytest.raises(ValueError, match="tie_break"):
        tok.encode("x", segmentation="optimal", tie_break="random")


# --- special tokens -----------------------------------------------------------------------


def test_special_tokens_as_tiktoken_does(tok):
    text = "a<|endoftext|>b"
    with pytest.raises(ValueError, match="allowed_special"):
        tok.encode(text)
    eot = tok.token_to_id("<|endoftext|>")
    ids = tok.encode(text, allowed_special={"<|endoftext|>"}).ids
    assert ids.count(eot) == 1
    assert tok.decode(ids) == text
    assert tok.decode(ids, skip_special_tokens=True) == "ab"
    stream = DecodeStream(tok, skip_special_tokens=True)
    assert "".join(stream.step(i) or "" for i in ids) + stream.finish() == "ab"
    assert tok.encode(text, allowed_special="all").ids == ids
    plain = tok.encode(text, disallowed_special=()).ids
    assert eot not in plain and tok.decode(plain) == text
    with pytest.raises(ValueError, match="not special tokens"):
        tok.encode(text, allowed_special={"<nope>"})


def test_groups_do_not_cross_special_tokens(tok):
    """The codec runs on each stretch between special tokens; so does decoding."""
    text = "HELLO<pad>World"
    ids = tok.encode(text, allowed_special="all").ids
    assert tok.decode(ids) == text


# --- offsets ------------------------------------------------------------------------------


def _spans(tok, text, **options):
    enc = tok.encode(text, **options)
    return [(t, text[a:b]) for t, (a, b) in zip(enc.tokens, enc.offsets)]


@pytest.fixture(scope="module")
def accents() -> Tokenizer:
    need_tokenizers()
    return Tokenizer.train(iter(["Héllo wörld, élan café HÉLLO"] * 20), vocab_size=400,
                           profile="paper", fuse="none", show_progress=False)


def test_instruction_tokens_point_at_what_they_change(accents):
    spans = _spans(accents, "Héllo")
    assert spans == [("\ue102\ue001", "é"), ("\ue100\ue000", "H"), ("hello", "Héllo")]
    assert accents.encode("Héllo", segmentation="optimal").ids == accents.encode("Héllo").ids


def test_offsets_go_through_nfc(accents):
    text = "He\u0301llo"  # decomposed: NFC makes it 5 code points, the original has 6
    spans = _spans(accents, text)
    assert spans == [("\ue102\ue001", "e\u0301"), ("\ue100\ue000", "H"), ("hello", text)]


def test_offsets_of_repeats_special_and_byte_tokens(tok):
    text = "x######<pad>漢"
    spans = _spans(tok, text, allowed_special="all")
    assert ("\ue200\ue000\ue006", "######") in spans  # REPEAT(0,6) covers the whole run
    assert ("<pad>", "<pad>") in spans
    assert [s for t, s in spans if t.startswith("<0x")] == ["漢", "漢", "漢"]


@given(st.text(st.characters(codec="utf-8"), max_size=60))
def test_offsets_cover_the_text(text):
    """Every span lies in the text and every code point of the text is some token's."""
    need_tokenizers()
    t = stdlib_tokenizer()
    enc = t.encode(text, disallowed_special=(), segmentation="optimal")
    assert len(enc.offsets) == len(enc.ids)
    covered = set()
    for a, b in enc.offsets:
        assert 0 <= a < b <= len(text)
        covered.update(range(a, b))
    assert covered == set(range(len(text)))


def test_pre_tokenize_str(tok):
    assert tok.pre_tokenize_str("Hi you") == [("\ue100\ue000", (0, 1)), ("hi", (0, 2)), (" you", (2, 6))]


# --- streaming ----------------------------------------------------------------------------


def _stream_all(tok, ids, errors):
    stream = DecodeStream(tok, errors=errors)
    emitted = []
    for i in ids:
        piece = stream.step(i)
        assert piece != ""  # nothing to say is None
        emitted.append(piece or "")
    emitted.append(stream.finish())
    return emitted


def _outcome(fn):
    try:
        return fn()
    except ValueError as e:
        return type(e)


@given(model_ids())
def test_streaming_equals_batch_for_every_prefix(ids):
    need_tokenizers()
    t = stdlib_tokenizer()
    for errors in ("replace", "strict"):
        for k in range(len(ids) + 1):
            full = _outcome(lambda: t.decode(ids[:k], errors=errors))
            streamed = _outcome(lambda: _stream_all(t, ids[:k], errors))
            if isinstance(full, str):
                assert isinstance(streamed, list) and "".join(streamed) == full
            else:  # strict mode only: both raise (UTF-8 or format errors may come in either order)
                assert errors == "strict" and not isinstance(streamed, list)
        full = _outcome(lambda: t.decode(ids, errors=errors))
        if isinstance(full, str):
            # text once returned is final: what has been emitted is a prefix of the end result
            emitted = ""
            for piece in _stream_all(t, ids, errors):
                emitted += piece
                assert full.startswith(emitted)


def test_streaming_emits_early(tok):
    ids = tok.encode("Hello world, this is fine").ids
    stream = DecodeStream(tok)
    outputs = [stream.step(i) for i in ids]
    assert outputs[1] is not None  # 'hello' after CAPITALIZE(0) is final at once
    assert "".join(o or "" for o in outputs) + stream.finish() == "Hello world, this is fine"


def test_streaming_copes_with_anything_in_replace_mode(tok):
    stream = DecodeStream(tok, errors="replace")
    junk = [tok.token_to_id("\ue200"), tok.token_to_id("\ue000"), 10**9, tok.token_to_id("<0xC3>")]
    out = "".join(stream.step(i) or "" for i in junk) + stream.finish()
    assert out == tok.decode(junk, errors="replace")
    with pytest.raises(ValueError):
        tok.decode([10**9])


def test_docstring_examples_run():
    """The examples in the public docstrings are real outputs."""
    import doctest

    import importlib
    import pkgutil

    import functok.tokenizer

    need_tokenizers()  # the tokenizer examples train one
    names = ["functok.tokenizer", "functok.commands.tsr", "functok.conformance.ops"]
    names += [f"functok.tokenizer.{m.name}" for m in pkgutil.iter_modules(functok.tokenizer.__path__)]
    for module in map(importlib.import_module, names):
        result = doctest.testmod(module)
        assert result.failed == 0, f"{module.__name__}: {result}"


def test_streaming_a_long_text_after_a_repeat(tok):
    """Strict mode returns the text after a repeat at once; lenient mode holds it while
    max_output could still drop the repeat (here: until the end)."""
    ids = tok.encode("aaaa").ids + [tok.token_to_id("b")] * 50_000
    strict = DecodeStream(tok)
    out = [strict.step(i) for i in ids]
    assert out[-50_000:] == ["b"] * 50_000
    assert "".join(o or "" for o in out) + strict.finish() == "aaaa" + "b" * 50_000 == tok.decode(ids)
    lenient = DecodeStream(tok, errors="replace")
    out = [lenient.step(i) for i in ids]
    assert set(out[-50_000:]) == {None}
    assert "".join(o or "" for o in out) + lenient.finish() == tok.decode(ids, errors="replace")


# --- every engine on a shipped tokenizer file (no `tokenizers` needed: the browser's case) ------

SMALL = Path(__file__).parents[1] / "fixtures" / "tokenizer-small.json"


@pytest.fixture(scope="module")
def small(engine) -> Tokenizer:
    """The shipped small tokenizer, made on the engine that runs (the ``engine`` fixture)."""
    return Tokenizer.from_file(SMALL)


def test_small_fixture_loads(small):
    assert small.vocab_size == 1500 and small.special_tokens == {"<|endoftext|>": 0}


@given(st.text(st.characters(codec="utf-8"), max_size=100))
def test_round_trip_on_every_engine(engine, text):
    t = Tokenizer.from_file(SMALL)
    for fast_path in (True, False):  # the engine's compiled parts where it has them, and the BPE alone
        t.fast_path = fast_path
        for segmentation in ("greedy", "optimal"):
            ids = t.encode(text, segmentation=segmentation, disallowed_special=()).ids
            assert t.decode(ids) == nfc(text)
            stream = DecodeStream(t)
            assert "".join(stream.step(i) or "" for i in ids) + stream.finish() == nfc(text)


def test_udhr_sample_round_trips_and_optimal_is_shorter(small):
    texts = [p.read_text(encoding="utf-8") for p in udhr_files()[::25]]
    greedy = optimal = 0
    for text in texts:
        g = small.encode(text).ids
        o = small.encode(text, segmentation="optimal").ids
        assert small.decode(g) == small.decode(o) == nfc(text)
        greedy, optimal = greedy + len(g), optimal + len(o)
    assert optimal < greedy


def test_the_pure_python_bpe_equals_the_fast_path(small):
    pure = Tokenizer.from_file(SMALL)
    pure.fast_path = False  # the pure-Python BPE, whatever the engine
    texts = [p.read_text(encoding="utf-8") for p in udhr_files()[::40]]
    texts.append(Path(__file__).read_text(encoding="utf-8"))
    for text in texts:
        assert pure.encode(text, disallowed_special=()).ids == small.encode(text, disallowed_special=()).ids


def test_fast_path_is_a_switch_and_functok_pure_turns_it_off(engine):
    import importlib.util
    import os
    import subprocess
    import sys

    t = Tokenizer.from_file(SMALL)
    t.fast_path = False
    assert t.fast_path is False and t._native_encoder() is None  # never built
    t.fast_path = True
    assert t.fast_path is (engine.name == "native")  # the pure engine has no compiled path
    built = importlib.util.find_spec("functok._native") is not None
    code = f"from functok import Tokenizer; print(Tokenizer.from_file({str(SMALL)!r}).fast_path)"
    for value, expected in (("1", "False"), ("", str(built))):
        env = dict(os.environ, FUNCTOK_PURE=value, PYTHONPATH=str(Path(__file__).parents[2] / "python"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert out.stdout.strip() == expected
