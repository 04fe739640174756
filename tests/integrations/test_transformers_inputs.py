"""FunctokTokenizer on the inputs that transformers' callers give: words given already split, special
tokens set to None, tensors with overflowing tokens, chat templates with user text sanitized,
a tampered saved folder, the empty text. Each as transformers 5's own backends do it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import functok

transformers = pytest.importorskip("transformers")
from fixtures.transformers_cases import TEXTS, train  # noqa: E402 (the tok and hf fixtures: integrations/conftest.py)

from functok.integrations.transformers import ADDED_NAMES, FunctokTokenizer  # noqa: E402

ROLES = list(ADDED_NAMES)


# --- 16. None means no such token ----------------------------------------------------------

@pytest.mark.parametrize("role", ROLES)
def test_a_special_token_passed_as_none_is_none(tok, role, tmp_path):
    hf = FunctokTokenizer(functok_tokenizer=tok, **{role: None})
    assert getattr(hf, role) is None and getattr(hf, f"{role}_id") is None
    others = [r for r in ROLES if r != role]
    assert [getattr(hf, f"{r}_id") for r in others] == list(range(tok.vocab_size, tok.vocab_size + 3))
    hf.save_pretrained(tmp_path)  # and it stays None through a save
    assert getattr(FunctokTokenizer.from_pretrained(tmp_path), role) is None


@pytest.mark.parametrize("role", ROLES)
def test_from_pretrained_with_a_special_token_none(hf, role, tmp_path):
    hf.save_pretrained(tmp_path)
    for load in (FunctokTokenizer.from_pretrained, transformers.AutoTokenizer.from_pretrained):
        back = load(tmp_path, **{role: None})
        assert getattr(back, role) is None
        assert back("Hello wörld")["input_ids"] == hf("Hello wörld")["input_ids"]


def test_no_pad_token_cannot_pad(tok):
    hf = FunctokTokenizer(functok_tokenizer=tok, pad_token=None)
    with pytest.raises(ValueError, match="padding token"):
        hf(TEXTS, padding=True)


# --- 17. tensors: no overflowing tokens, as the backend -----------------------------------

@pytest.mark.parametrize("batch", [False, True])
def test_tensors_leave_out_the_overflowing_tokens(hf, batch):
    text = "hello world " * 10
    options = dict(max_length=6, truncation=True, return_overflowing_tokens=True)
    out = hf([text] if batch else text, return_tensors="np", **options)
    assert set(out) == {"input_ids", "attention_mask"} and out["input_ids"].shape == (1, 6)
    plain = hf(text, **options)  # without tensors, they are there
    assert plain["overflowing_tokens"] == hf(text)["input_ids"][6:]
    assert plain["num_truncated_tokens"] == len(plain["overflowing_tokens"])


# --- 18. sanitize_control_tokens -----------------------------------------------------------

TEMPLATE = "{% for m in messages %}{{ m.role }}: {{ m.content }}{{ eos_token }}{% endfor %}"


@pytest.mark.parametrize("batch", [False, True])
def test_sanitized_chat_encodes_users_control_tokens_as_text(hf, tok, batch):
    chat = [{"role": "user", "content": "hi <|eos|> there <|pad|>"}]
    options = dict(chat_template=TEMPLATE, sanitize_control_tokens=True, return_dict=True)
    out = hf.apply_chat_template([chat, chat] if batch else chat, **options)
    ids = out["input_ids"][0] if batch else out["input_ids"]
    assert ids.count(hf.eos_token_id) == 1 and ids[-1] == hf.eos_token_id  # the template's own
    assert hf.pad_token_id not in ids
    assert hf.decode(ids) == "user: hi <|eos|> there <|pad|><|eos|>"  # no private-use markers
    assert hf.decode(ids, skip_special_tokens=True) == "user: hi <|eos|> there <|pad|>"
    unsanitized = hf.apply_chat_template(chat, chat_template=TEMPLATE, return_dict=True)["input_ids"]
    assert unsanitized.count(hf.eos_token_id) == 2  # the injection the option prevents


@given(st.text(max_size=30))
def test_sanitized_chat_decodes_to_the_users_text(hf_exact, content):
    """Whatever the user writes, its text comes back, and only the template's eos is special."""
    hf = hf_exact
    chat = [{"role": "user", "content": content}]
    ids = hf.apply_chat_template(chat, chat_template=TEMPLATE, sanitize_control_tokens=True)["input_ids"]
    clean = content.replace("\U000f0000", "").replace("\U000f0001", "")  # markers the backend drops
    assert hf.decode(ids) == f"user: {clean}<|eos|>"
    assert [i for i in ids if i >= hf.vocab_size] == [hf.eos_token_id]


@pytest.fixture(scope="module")
def hf_exact() -> FunctokTokenizer:
    return FunctokTokenizer(functok_tokenizer=train(normalize=None))


# --- 20. the empty text --------------------------------------------------------------------

def test_the_empty_text_has_an_empty_mask(hf):
    assert dict(hf("")) == {"input_ids": [], "attention_mask": []}
    assert dict(hf("", return_attention_mask=False)) == {"input_ids": []}
    assert dict(hf(["", "Hi"]))["attention_mask"][0] == []


# --- 19. a tampered saved folder -----------------------------------------------------------

def tamper(folder, change) -> None:
    path = folder / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    change(config["added_tokens_decoder"])
    path.write_text(json.dumps(config), encoding="utf-8")


def move(decoder, text: str, id: int) -> None:
    old = next(k for k, v in decoder.items() if v["content"] == text)
    decoder[str(id)] = decoder.pop(old)


@pytest.mark.parametrize("case", ["pad-at-a", "eos-at-a-functok-special", "functok-special-moved"])
def test_a_tampered_added_token_is_refused(tmp_path, case):
    tok = train(special_tokens=["<s>"])
    FunctokTokenizer(functok_tokenizer=tok).save_pretrained(tmp_path)
    a = tok.token_to_id("a")
    change = {"pad-at-a": lambda d: move(d, "<|pad|>", a),
              "eos-at-a-functok-special": lambda d: move(d, "<|eos|>", 0),
              "functok-special-moved": lambda d: move(d, "<s>", tok.vocab_size + 9)}[case]
    tamper(tmp_path, change)
    for load in (FunctokTokenizer.from_pretrained, transformers.AutoTokenizer.from_pretrained):
        with pytest.raises(functok.TokenizerFileError) as raised:
            load(tmp_path)
        assert raised.value.file.endswith("tokenizer_config.json") and "added_tokens_decoder" in raised.value.where


def test_an_untampered_folder_with_added_tokens_loads(tok, tmp_path):
    hf = FunctokTokenizer(functok_tokenizer=tok)
    hf.add_tokens(["<tool>", "hello"])  # "hello" is a functok token: added at its own id
    hf.save_pretrained(tmp_path)
    back = FunctokTokenizer.from_pretrained(tmp_path)
    assert back.get_vocab() == hf.get_vocab()


def test_a_mismatched_added_token_passed_in_is_refused(tok):
    with pytest.raises(ValueError, match="added_tokens_decoder"):
        FunctokTokenizer(functok_tokenizer=tok,
                         added_tokens_decoder={tok.token_to_id("a"): transformers.AddedToken("<|pad|>", special=True)})
