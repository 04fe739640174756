"""functok.integrations.transformers: a functok tokenizer as a transformers 5 tokenizer.

Runs without torch (transformers tokenizes without it). Each tokenizer is trained here, on a few
sentences, with every option passed explicitly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import functok
from functok.normalize import nfc

transformers = pytest.importorskip("transformers")
from fixtures.transformers_cases import TEXT, TEXTS, fusion_modes, train  # noqa: E402
from functok.integrations.transformers import (  # noqa: E402
    ADDED_NAMES,
    FUNCTOK_FILE,
    FunctokDecodeStream,
    FunctokTokenizer,
)

PROMPTS = ["Hello", "HELLO wörld!!!", "", "naïve café   ", "getValue(MAX)", "Ü日本"]


# --- special tokens ------------------------------------------------------------------------

def test_a_tokenizer_may_be_passed_by_position(tok, hf):
    assert FunctokTokenizer(tok)("Hello World")["input_ids"] == hf("Hello World")["input_ids"]
    with pytest.raises(ValueError, match="exactly one"):
        FunctokTokenizer()


def test_missing_special_tokens_are_added_after_the_vocabulary(tok, hf):
    v = tok.vocab_size
    assert hf.vocab_size == v and len(hf) == v + 4
    roles = ["bos_token", "eos_token", "unk_token", "pad_token"]
    assert [getattr(hf, r) for r in roles] == [ADDED_NAMES[r] for r in roles]
    assert [getattr(hf, f"{r}_id") for r in roles] == [v, v + 1, v + 2, v + 3]
    assert hf.convert_tokens_to_ids("no such token") == hf.unk_token_id
    assert hf.get_vocab() == {**tok.get_vocab(), **{ADDED_NAMES[r]: v + k for k, r in enumerate(roles)}}


def test_the_functok_tokenizers_own_special_tokens_are_used():
    tok = train(special_tokens=["<s>", "</s>", "<pad>", "<|sep|>"])
    hf = FunctokTokenizer(functok_tokenizer=tok)
    assert (hf.bos_token_id, hf.eos_token_id, hf.pad_token_id) == (0, 1, 2)
    assert (hf.unk_token, hf.unk_token_id) == ("<|unk|>", tok.vocab_size)  # the only one added
    assert "<|sep|>" in hf.all_special_tokens and len(hf) == tok.vocab_size + 1
    ids = hf("a<|sep|>b")["input_ids"]
    assert ids == tok.encode("a<|sep|>b", allowed_special="all").ids and 3 in ids
    assert hf.decode(ids, skip_special_tokens=True) == "ab"


def test_special_tokens_passed_in_win():
    hf = FunctokTokenizer(functok_tokenizer=train(special_tokens=["<s>"]), bos_token="<|go|>", pad_token="<s>")
    assert hf.bos_token == "<|go|>" and hf.pad_token_id == 0


def test_special_token_text_is_the_special_token_unless_split(hf, tok):
    ids = hf("ab<|eos|>Cd")["input_ids"]
    assert ids == tok.encode("ab").ids + [hf.eos_token_id] + tok.encode("Cd").ids
    assert hf("ab<|eos|>Cd", split_special_tokens=True)["input_ids"] == tok.encode("ab<|eos|>Cd").ids


@pytest.mark.parametrize("pattern,before,after", [("none", [], []), ("bos", ["bos"], []), ("eos", [], ["eos"]),
                                                  ("bos_eos", ["bos"], ["eos"])])
def test_special_tokens_pattern(tok, pattern, before, after, tmp_path):
    hf = FunctokTokenizer(functok_tokenizer=tok, special_tokens_pattern=pattern)
    ids = tok.encode("Hello").ids
    ends = [[getattr(hf, f"{r}_token_id") for r in side] for side in (before, after)]
    assert hf("Hello")["input_ids"] == ends[0] + ids + ends[1]
    assert hf("Hello", add_special_tokens=False)["input_ids"] == ids
    hf.save_pretrained(tmp_path)
    assert FunctokTokenizer.from_pretrained(tmp_path)("Hello")["input_ids"] == ends[0] + ids + ends[1]


# --- saving and loading --------------------------------------------------------------------

def test_save_pretrained_writes_the_functok_file_and_the_configs(hf, tok, tmp_path):
    files = hf.save_pretrained(tmp_path)
    assert {os.path.basename(f) for f in files} >= {"tokenizer_config.json", FUNCTOK_FILE}
    assert (tmp_path / FUNCTOK_FILE).read_text(encoding="utf-8") == tok.to_str()
    config = json.loads((tmp_path / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert config["tokenizer_class"] == "FunctokTokenizer"
    assert config["auto_map"]["AutoTokenizer"][0] == "tokenization_functok.FunctokTokenizer"
    assert not (tmp_path / "tokenizer.json").exists()  # AutoTokenizer would take it for a `tokenizers` file


@pytest.mark.parametrize("loader", ["class", "auto"])
def test_reload_gives_the_same_tokenizer(hf, tmp_path, loader):
    hf.save_pretrained(tmp_path)
    load = FunctokTokenizer.from_pretrained if loader == "class" else transformers.AutoTokenizer.from_pretrained
    back = load(str(tmp_path))
    assert type(back) is FunctokTokenizer
    assert back.get_vocab() == hf.get_vocab() and back.all_special_ids == hf.all_special_ids
    assert back.special_tokens_map == hf.special_tokens_map
    assert back(TEXTS, padding=True)["input_ids"] == hf(TEXTS, padding=True)["input_ids"]


def test_auto_tokenizer_in_a_model_folder(hf, tmp_path):
    """A model's config.json beside the tokenizer: AutoTokenizer still goes by tokenizer_class."""
    hf.save_pretrained(tmp_path)
    transformers.GPT2Config(n_layer=1, n_embd=8, n_head=1, vocab_size=len(hf)).save_pretrained(tmp_path)
    assert type(transformers.AutoTokenizer.from_pretrained(tmp_path)) is FunctokTokenizer


def test_auto_tokenizer_with_remote_code_needs_no_import(hf, tmp_path):
    """Without importing functok.integrations.transformers, the folder's auto_map finds the class."""
    hf.save_pretrained(tmp_path / "tok")
    code = ("import sys; from transformers import AutoTokenizer; "
            "t = AutoTokenizer.from_pretrained(sys.argv[1], trust_remote_code=True); "
            "t.save_pretrained(sys.argv[1] + '-again'); "  # a save after a remote-code load copies no module
            "t = AutoTokenizer.from_pretrained(sys.argv[1] + '-again', trust_remote_code=True); "
            "print(type(t).__module__, type(t).__name__, t.decode(t('Hello wörld')['input_ids']))")
    env = {**os.environ, "HF_MODULES_CACHE": str(tmp_path / "modules"), "HF_HUB_OFFLINE": "1",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "tok")], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.stdout.split() == ["functok.integrations.transformers", "FunctokTokenizer", "Hello", "wörld"], done.stderr
    assert sorted(p.name for p in (tmp_path / "tok-again").iterdir()) == sorted(p.name for p in (tmp_path / "tok").iterdir())


def test_importing_functok_imports_no_integration():
    code = ("import sys, functok, functok.integrations; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('transformers', 'torch') or 'integrations.' in m))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.stdout.strip() == "[]", done.stderr


def test_one_source_of_the_tokenizer():
    with pytest.raises(ValueError, match="exactly one"):
        FunctokTokenizer()


# --- batches: padding, truncation, masks, tensors, offsets ----------------------------------

@pytest.mark.parametrize("side", ["right", "left"])
def test_batch_padding(hf, tok, side):
    batch = hf(TEXTS, padding=True, padding_side=side)
    longest = max(len(tok.encode(t).ids) for t in TEXTS)
    for text, ids, mask in zip(TEXTS, batch["input_ids"], batch["attention_mask"]):
        own = tok.encode(text).ids
        pad = [hf.pad_token_id] * (longest - len(own))
        assert ids == (own + pad if side == "right" else pad + own)
        assert mask == ([1] * len(own) + [0] * len(pad) if side == "right" else [0] * len(pad) + [1] * len(own))


def test_numpy_tensors_and_max_length_padding(hf, tok):
    batch = hf(TEXTS[:2], padding="max_length", max_length=64, return_tensors="np", return_offsets_mapping=True)
    assert batch["input_ids"].shape == batch["attention_mask"].shape == (2, 64)
    assert batch["offset_mapping"].shape == (2, 64, 2)
    assert np.issubdtype(batch["input_ids"].dtype, np.integer)
    own = tok.encode(TEXTS[0]).ids
    assert batch["input_ids"][0, : len(own)].tolist() == own
    assert batch["attention_mask"][0].sum() == len(own)
    single = hf(TEXTS[0], return_tensors="np")
    assert single["input_ids"].tolist() == [own]


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("pattern", ["none", "bos_eos"])
def test_truncation(tok, side, pattern):
    hf = FunctokTokenizer(functok_tokenizer=tok, special_tokens_pattern=pattern, truncation_side=side)
    ends = ([hf.bos_token_id], [hf.eos_token_id]) if pattern == "bos_eos" else ([], [])
    keep = 5 - len(ends[0]) - len(ends[1])
    batch = hf(TEXTS, truncation=True, max_length=5, return_offsets_mapping=True)
    for text, ids, offsets in zip(TEXTS, batch["input_ids"], batch["offset_mapping"]):
        encoding = tok.encode(text)
        kept = slice(None, keep) if side == "right" else slice(len(encoding.ids) - keep, None)
        assert ids == ends[0] + encoding.ids[kept] + ends[1]
        assert offsets == [(0, 0)] * len(ends[0]) + encoding.offsets[kept] + [(0, 0)] * len(ends[1])


def test_overflowing_tokens_are_ids(hf, tok):
    out = hf(TEXTS[0], truncation=True, max_length=4, return_overflowing_tokens=True)
    ids = tok.encode(TEXTS[0]).ids
    assert out["input_ids"] == ids[:4] and out["overflowing_tokens"] == ids[4:]


@pytest.mark.parametrize("side", ["right", "left"])
def test_offsets_are_functoks_offsets(hf, tok, side):
    texts = TEXTS + ["x<|eos|>Yz"]
    batch = hf(texts, padding=True, padding_side=side, return_offsets_mapping=True)
    for text, ids, offsets in zip(texts, batch["input_ids"], batch["offset_mapping"]):
        encoding = tok.encode(text, allowed_special="all") if "<|" not in text else None
        if encoding is None:  # an added special token in the text: its own span
            expected = tok.encode("x").offsets + [(1, 8)] + [(a + 8, b + 8) for a, b in tok.encode("Yz").offsets]
        else:
            expected = encoding.offsets
        pad = [(0, 0)] * (len(ids) - len(expected))
        assert offsets == (expected + pad if side == "right" else pad + expected)


def test_offsets_of_a_pair(hf, tok):
    out = hf("Hello", "WÖRLD", return_offsets_mapping=True)
    assert out["input_ids"] == tok.encode("Hello").ids + tok.encode("WÖRLD").ids
    assert out["offset_mapping"] == tok.encode("Hello").offsets + tok.encode("WÖRLD").offsets


def test_offsets_need_text(hf):
    with pytest.raises(NotImplementedError, match="offsets"):
        hf([[5, 6, 7]], return_offsets_mapping=True)
    assert hf([[5, 6, 7]])["input_ids"] == [[5, 6, 7]]  # ids pass through


def test_tokenize_and_tokens_to_string(hf, tok):
    tokens = hf.tokenize("Hello wörld<|eos|>")
    assert tokens == tok.encode("Hello wörld").tokens + ["<|eos|>"]
    assert hf.convert_tokens_to_string(tokens) == "Hello wörld<|eos|>"


# --- decoding ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", fusion_modes(), ids=lambda m: "-".join(f"{k}={v}" for k, v in m.items()))
def test_every_pre_token_mode_round_trips(mode):
    hf = FunctokTokenizer(functok_tokenizer=train(**mode))
    batch = hf(TEXTS, padding=True, return_offsets_mapping=True)
    assert hf.batch_decode(batch["input_ids"], skip_special_tokens=True) == [nfc(t) for t in TEXTS]
    for text, ids, offsets in zip(TEXTS, batch["input_ids"], batch["offset_mapping"]):
        n = len(hf.functok.encode(text).ids)
        assert ids[:n] == hf.functok.encode(text).ids and offsets[:n] == hf.functok.encode(text).offsets


@pytest.fixture(scope="module")
def hf_exact() -> FunctokTokenizer:
    """A tokenizer without normalization: decode(encode(text)) is the text itself."""
    return FunctokTokenizer(functok_tokenizer=train(normalize=None))


@pytest.fixture(scope="module")
def hf_exact_bos_eos(hf_exact) -> FunctokTokenizer:
    return FunctokTokenizer(functok_tokenizer=hf_exact.functok, special_tokens_pattern="bos_eos")


@given(TEXT)
def test_decode_of_encode_is_the_text(hf_exact, hf, text):
    assert hf_exact.decode(hf_exact(text)["input_ids"]) == text
    assert hf.decode(hf(text)["input_ids"]) == nfc(text)


@given(st.lists(st.text(max_size=20).filter(lambda t: "<|" not in t), min_size=1, max_size=4),
       st.sampled_from(["right", "left"]))
def test_batch_decode_of_a_padded_batch(hf_exact_bos_eos, texts, side):
    """(Special tokens' text in the text is the special token, which skip_special_tokens drops.)"""
    hf = hf_exact_bos_eos
    batch = hf(texts, padding=True, padding_side=side, return_tensors="np")
    assert hf.batch_decode(batch["input_ids"], skip_special_tokens=True) == texts
    width = len(batch["input_ids"][0])
    shown = []
    for t in texts:
        pads = "<|pad|>" * (width - len(hf(t)["input_ids"]))
        shown.append(("" if side == "right" else pads) + "<|bos|>" + t + "<|eos|>" + (pads if side == "right" else ""))
    assert hf.batch_decode(batch["input_ids"]) == shown


def test_decode_of_a_malformed_stream(hf, tok):
    capitalize = tok.token_to_id("\ue100\ue000")  # CAPITALIZE(0)
    assert capitalize is not None
    ids = [capitalize]  # a group at the end: dangling (spec 7.3)
    assert hf.decode(ids) == ""  # lenient by default: the group is dropped
    with pytest.raises(functok.TokenFormatError):
        hf.decode(ids, errors="strict")
    assert hf.decode([10**6]) == "\ufffd"
    with pytest.raises(functok.UnknownTokenIdError):
        hf.decode([10**6], errors="strict")


def test_an_added_token_ends_the_stream(hf, tok):
    """An added special token ends the stream, as functok's own special tokens do: a group
    before it cannot reach the text after it."""
    capitalize = tok.token_to_id("\ue100\ue000")
    ids = [capitalize, hf.eos_token_id] + tok.encode("hello").ids
    assert hf.decode(ids) == "<|eos|>hello"
    assert hf.decode(ids, skip_special_tokens=True) == "hello"


# --- streaming -----------------------------------------------------------------------------

@given(st.sampled_from(PROMPTS), TEXT, st.booleans(), st.sampled_from(["strict", "replace"]))
def test_decode_stream_with_a_prefill(hf, prompt, generated, skip, errors):
    """prefill(prompt) + step(each generated id) + finish() is the decoding of all the ids."""
    prompt_ids = hf(prompt)["input_ids"]
    generated_ids = hf(generated)["input_ids"] + [hf.eos_token_id] + hf("Ok")["input_ids"]
    stream = hf.decode_stream(skip_special_tokens=skip, errors=errors)
    assert isinstance(stream, FunctokDecodeStream)
    head = stream.prefill(prompt_ids)
    assert nfc(prompt).startswith(head)
    tail = "".join(stream.step(i) or "" for i in generated_ids) + stream.finish()
    assert head + tail == hf.decode(prompt_ids + generated_ids, skip_special_tokens=skip, errors=errors)


def test_decode_stream_returns_text_as_it_becomes_final(hf):
    stream = hf.decode_stream()
    outs = [stream.step(i) for i in hf("Hi")["input_ids"]]
    assert outs[0] is None  # CAPITALIZE(0) alone: nothing is final yet
    assert "".join(o or "" for o in outs) == "Hi"
    assert stream.step(hf.eos_token_id) == "<|eos|>"
    assert stream.finish() == ""


def test_streamer_as_generate_calls_it(hf):
    """generate() puts the prompt (shape [1, n]), then one id per step (shape [1]), then ends."""
    from functok.integrations.transformers import FunctokStreamer

    prompt, generated = hf("Hello")["input_ids"], hf(" WÖRLD!!! ok")["input_ids"] + [hf.eos_token_id]
    for skip_prompt in (True, False):
        shown: list[str] = []
        streamer = FunctokStreamer(hf, skip_prompt=skip_prompt, on_text=shown.append)
        streamer.put(np.array([prompt]))
        for id in generated:
            streamer.put(np.array([id]))
        streamer.end()
        assert "".join(shown) == ("" if skip_prompt else "Hello") + " WÖRLD!!! ok"
        assert all(shown)
    with pytest.raises(ValueError, match="one sequence"):
        FunctokStreamer(hf).put(np.array([prompt, prompt]))


def test_strict_errors_count_ids_from_the_first(hf, tok):
    """The id_index of an error is its position in all the ids, added tokens included."""
    capitalize = tok.token_to_id("\ue100\ue000")
    hi = tok.encode("hi").ids
    cases = [(hi + [capitalize], functok.TokenFormatError, len(hi)),
             ([hf.bos_token_id] + hi + [hf.eos_token_id, capitalize], functok.TokenFormatError, len(hi) + 2),
             ([hf.bos_token_id, hf.eos_token_id, 10**6], functok.UnknownTokenIdError, 2),
             ([hf.bos_token_id] + hi + [tok.token_to_id("<0xC3>")], functok.ByteFallbackError, len(hi) + 1)]
    for ids, error, index in cases:
        with pytest.raises(error) as raised:
            hf.decode(ids, errors="strict")
        assert raised.value.id_index == index, ids
        stream = hf.decode_stream(errors="strict")
        with pytest.raises(error) as raised:
            stream.prefill(ids)
            stream.finish()
        assert raised.value.id_index == index, ids


def test_tokens_added_later_decode_as_their_text(tok):
    hf = FunctokTokenizer(functok_tokenizer=tok)
    assert hf.add_tokens(["<tool>"]) == 1 and hf.add_special_tokens({"sep_token": "<|sep|>"}) == 1
    ids = hf("Hi<tool>Yo<|sep|>")["input_ids"]
    assert ids[-1] == hf.sep_token_id and hf.convert_tokens_to_ids("<tool>") in ids
    assert hf.decode(ids) == "Hi<tool>Yo<|sep|>"
    assert hf.decode(ids, skip_special_tokens=True) == "Hi<tool>Yo"  # <tool> is not special


def test_from_a_functok_file_and_through_pickle(tok, tmp_path):
    import pickle

    tok.save(tmp_path / "tok.json")
    hf = FunctokTokenizer(tmp_path / "tok.json")
    assert hf("Hello wörld")["input_ids"] == tok.encode("Hello wörld").ids
    back = pickle.loads(pickle.dumps(hf))  # datasets' map(num_proc=...) sends the tokenizer to workers
    options = {"padding": True, "return_offsets_mapping": True}
    assert back(TEXTS, **options) == hf(TEXTS, **options)


@given(TEXT, TEXT, TEXT)
def test_a_prefill_can_start_after_the_prompts_last_special_token(hf, before, after, generated):
    """A special token ends the stream: the prompt before it changes nothing that follows."""
    tail = hf(after)["input_ids"]
    prompt = hf(before)["input_ids"] + [hf.eos_token_id] + tail
    outputs = []
    for prefill in (prompt, tail):
        stream = hf.decode_stream()
        stream.prefill(prefill)
        outputs.append([stream.step(i) for i in hf(generated)["input_ids"]] + [stream.finish()])
    assert outputs[0] == outputs[1]


def test_language_modeling_collator(tok):
    """transformers' collator pads with the wrapper and labels the pads -100 (numpy, no torch)."""
    hf = FunctokTokenizer(functok_tokenizer=tok, special_tokens_pattern="bos_eos")
    collate = transformers.DataCollatorForLanguageModeling(hf, mlm=False, return_tensors="np")
    batch = collate([hf(t) for t in TEXTS])
    for text, ids, labels in zip(TEXTS, batch["input_ids"].tolist(), batch["labels"].tolist()):
        own = [hf.bos_token_id] + tok.encode(text).ids + [hf.eos_token_id]
        assert ids == own + [hf.pad_token_id] * (len(ids) - len(own))
        assert labels == own + [-100] * (len(ids) - len(own))


@pytest.mark.parametrize("strategy", ["longest_first", "only_first", "only_second"])
@pytest.mark.parametrize("max_length", [12, 20, 30])
def test_offsets_of_a_truncated_pair(tok, strategy, max_length):
    """The ids are what the backend makes of functok's ids, and each kept id keeps its offsets."""
    hf = FunctokTokenizer(functok_tokenizer=tok, special_tokens_pattern="bos_eos")
    first, second = tok.encode(TEXTS[0]), tok.encode(TEXTS[1])
    out = hf(TEXTS[0], TEXTS[1], truncation=strategy, max_length=max_length, return_offsets_mapping=True)
    ids, offsets = out["input_ids"], out["offset_mapping"]
    assert ids == hf.prepare_for_model(first.ids, second.ids, truncation=strategy, max_length=max_length)["input_ids"]
    cut = ids.index(hf.eos_token_id)  # [bos] first [eos] second [eos]
    for kept_ids, kept_offsets, encoding in [(ids[1:cut], offsets[1:cut], first),
                                             (ids[cut + 1 : -1], offsets[cut + 1 : -1], second)]:
        assert kept_ids == encoding.ids[: len(kept_ids)]
        assert kept_offsets == encoding.offsets[: len(kept_ids)]
    assert offsets[0] == offsets[cut] == offsets[-1] == (0, 0)


def test_the_modules_examples():
    import doctest

    import functok.integrations.transformers as module

    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0, result
