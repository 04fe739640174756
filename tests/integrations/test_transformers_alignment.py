"""BatchEncoding alignment for FunctokTokenizer: word_ids, char_to_token,
token_to_chars, token_to_word... from functok's offsets; words are the codec's pieces, or the
caller's words with is_split_into_words=True."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import functok

transformers = pytest.importorskip("transformers")
from fixtures.transformers_cases import TEXT, TEXTS, fusion_modes, train  # noqa: E402

from functok.integrations.transformers import FunctokTokenizer  # noqa: E402

NO_ADDED = TEXT.filter(lambda t: "<|" not in t)


@pytest.fixture(scope="module")
def hf() -> FunctokTokenizer:
    """Specials around each text, so that some ids have no word and no characters."""
    return FunctokTokenizer(functok_tokenizer=train(), special_tokens_pattern="bos_eos")


@pytest.fixture(scope="module")
def hf_exact() -> FunctokTokenizer:
    return FunctokTokenizer(functok_tokenizer=train(normalize=None))


@pytest.fixture(scope="module")
def hf_spaced(hf_exact) -> FunctokTokenizer:
    """As transformers' byte-level tokenizers are used for words given split: add_prefix_space=True."""
    return FunctokTokenizer(functok_tokenizer=hf_exact.functok, add_prefix_space=True)


def piece_spans(hf, text: str) -> list[tuple[int, int]]:
    pre = hf.functok.pre_tokenizer
    return [(p.start, p.end) for p in functok.pieces(text, normalize=pre.normalize, splitter=pre.splitter,
                                                     profile=pre.profile)]


@given(NO_ADDED)
def test_alignment_agrees_with_the_offsets(hf, text):
    enc = hf(text, return_offsets_mapping=True)
    offsets, n = enc["offset_mapping"], len(enc["input_ids"])
    assert enc.sequence_ids() == [None] + [0] * (n - 2) + [None]
    for k in range(n):  # token_to_chars is the offsets (None for bos and eos)
        span = enc.token_to_chars(k)
        assert (tuple(span) if span is not None else None) == (None if k in (0, n - 1) else offsets[k])
    for c in range(len(text)):  # every character maps to the first token whose span holds it
        t = enc.char_to_token(c)
        holders = [k for k in range(1, n - 1) if offsets[k][0] <= c < offsets[k][1]]
        assert holders and t == holders[0]
        assert enc.char_to_word(c) == enc.token_to_word(t)
    pieces = piece_spans(hf, text)
    words = enc.word_ids()
    assert words[0] is None and words[-1] is None
    for k in range(1, n - 1):  # each token's word is the piece its first character is in
        w = words[k]
        assert w == enc.token_to_word(k) and pieces[w][0] <= offsets[k][0] < max(pieces[w][1], pieces[w][0] + 1)
    for w in set(words) - {None}:
        first, last = enc.word_to_tokens(w)
        assert set(words[first:last]) == {w}
        start, end = enc.word_to_chars(w)
        assert pieces[w][0] <= start <= end <= pieces[w][1]


@given(st.lists(NO_ADDED, min_size=1, max_size=4), st.sampled_from(["right", "left"]), st.booleans())
def test_a_padded_batch_aligns_each_row(hf, texts, side, tensors):
    batch = hf(texts, padding=True, padding_side=side, return_tensors="np" if tensors else None)
    for i, text in enumerate(texts):
        own = hf(text)
        pad = [None] * (len(batch["input_ids"][i]) - len(own["input_ids"]))
        assert batch.word_ids(i) == (own.word_ids() + pad if side == "right" else pad + own.word_ids())
        assert batch.sequence_ids(i) == (own.sequence_ids() + pad if side == "right" else pad + own.sequence_ids())
        assert batch.tokens(i) == hf.convert_ids_to_tokens(list(map(int, batch["input_ids"][i])))
        shift = len(pad) if side == "left" else 0
        for c in range(len(text)):
            assert batch.char_to_token(i, c) == own.char_to_token(c) + shift


@pytest.mark.parametrize("side", ["right", "left"])
def test_truncation_keeps_each_tokens_word(hf, side):
    tokenizer = FunctokTokenizer(functok_tokenizer=hf.functok, special_tokens_pattern="bos_eos", truncation_side=side)
    for text in TEXTS:
        whole, cut = tokenizer(text), tokenizer(text, truncation=True, max_length=6)
        inner = whole.word_ids()[1:-1]
        assert cut.word_ids() == [None] + (inner[:4] if side == "right" else inner[-4:]) + [None]


def test_a_pair_has_two_sequences(hf):
    enc = hf("Hello wörld", "HI there", return_offsets_mapping=True)
    sequences = enc.sequence_ids()
    second = sequences.index(1)
    assert enc.n_sequences == 2 and sequences.count(None) == 3  # [bos] a [eos] b [eos]
    assert enc.char_to_token(0, sequence_index=1) == second
    assert enc.token_to_chars(second) == (0, 1) and enc.word_ids()[second] == 0  # offsets and words restart


def test_added_tokens_in_the_text_are_words(hf):
    enc = hf("ab<|pad|>cd")
    words = enc.word_ids()
    pad_at = enc["input_ids"].index(hf.pad_token_id)
    assert words[pad_at] == 1 and enc.token_to_chars(pad_at) == (2, 9) and words[-2] == 2


def test_ids_given_have_no_alignment(hf):
    with pytest.raises(ValueError, match="not available"):
        hf([[5, 6, 7]]).word_ids()


# --- words given split (item 15) -----------------------------------------------------------

WORD = st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True)


@given(st.lists(WORD, max_size=6))
def test_split_words_are_the_caller_words(hf_spaced, words):
    hf = hf_spaced
    enc = hf(words, is_split_into_words=True, return_offsets_mapping=True)
    ids = enc["input_ids"]
    joined = "".join(" " + w for w in words)
    assert ids == hf(joined)["input_ids"] and hf.decode(ids) == joined  # a space before every word
    assert enc.word_ids() == sorted(enc.word_ids()) and set(enc.word_ids()) == set(range(len(words)))
    at = 0
    for k, word in enumerate(words):
        first, last = enc.word_to_tokens(k)
        assert hf.decode(ids[first:last]) == " " + word  # the word's tokens spell it, space and all
        assert enc.word_to_chars(k) == (at + 1, at + 1 + len(word))  # without the space
        at += 1 + len(word)


@given(st.lists(st.text(max_size=6), min_size=1, max_size=5))
def test_any_split_words_decode_with_spaces(hf_spaced, words):
    """Any words (empty, or spaces, or private use): each word's tokens are its own, and spell it
    with the space put before it (none before an empty word or one that starts with a space)."""
    hf = hf_spaced
    if any("<|" in w for w in words):
        return
    enc = hf(words, is_split_into_words=True)
    spaced = [w if w == "" or w.startswith(" ") else " " + w for w in words]
    assert hf.decode(enc["input_ids"]) == "".join(spaced)
    assert enc.word_ids() == sorted(enc.word_ids())
    for k, word in enumerate(spaced):
        tokens = enc.word_to_tokens(k)
        assert (tokens is None) == (word == "")
        if tokens is not None:
            assert hf.decode(enc["input_ids"][tokens[0]:tokens[1]]) == word


def test_a_batch_and_a_pair_of_split_words(hf_spaced):
    batch = hf_spaced([["Hello", "World"], ["hi"]], is_split_into_words=True, padding=True)
    assert hf_spaced.batch_decode(batch["input_ids"], skip_special_tokens=True) == [" Hello World", " hi"]
    assert batch.word_ids(1)[-1] is None and set(batch.word_ids(1)) == {0, None}
    pair = hf_spaced(["a", "b"], ["c"], is_split_into_words=True)
    assert hf_spaced.decode(pair["input_ids"]) == " a b c" and pair.sequence_ids()[-1] == 1


def test_without_add_prefix_space_split_words_are_joined(hf_exact):
    """GPT-2's tokenizer with its default add_prefix_space=False: each word as it is, and no
    token spans two words."""
    enc = hf_exact(["Hello", "World", " x"], is_split_into_words=True)
    assert hf_exact.decode(enc["input_ids"]) == "HelloWorld x"
    assert enc["input_ids"] == sum((hf_exact(w)["input_ids"] for w in ["Hello", "World", " x"]), [])
    assert hf_exact("Hello")["input_ids"] == hf_exact.functok.encode("Hello").ids  # text: never a space put before


def test_split_words_follow_transformers_byte_level_tokenizers():
    """GPT-2's tokenizer with add_prefix_space=True: words split are the ids of the text with a
    space before each word; built offline from a byte vocabulary."""
    from transformers import GPT2Tokenizer
    from transformers.models.clvp.tokenization_clvp import bytes_to_unicode

    gpt2 = GPT2Tokenizer(vocab={c: i for i, c in enumerate(bytes_to_unicode().values())}, merges=[],
                         add_prefix_space=True)
    words = ["hello", "World"]
    assert gpt2(words, is_split_into_words=True)["input_ids"] == gpt2(" hello World")["input_ids"]
    assert gpt2(words, is_split_into_words=True).word_ids() == [0] * 6 + [1] * 6


def test_two_pieces_in_one_nfc_span(hf):
    """':U' + two graves: NFC makes 'Ù' + grave, two pieces that both report the span (1, 4)
    (spec 4.4). Tokens keep the order of their pieces: all go to the first."""
    enc = hf(":U\u0300\u0300", return_offsets_mapping=True)
    assert piece_spans(hf, ":U\u0300\u0300") == [(0, 4), (1, 4)]
    assert enc.word_ids()[1:-1] == [0] * (len(enc["input_ids"]) - 2)
    assert enc.word_to_tokens(1) is None


@pytest.mark.parametrize("mode", fusion_modes(), ids=lambda m: "-".join(f"{k}={v}" for k, v in m.items()))
def test_every_pre_token_mode_aligns(mode):
    """With fuse, a pre-token (and a token) can hold several pieces: its word is its first's."""
    hf = FunctokTokenizer(functok_tokenizer=train(**mode))
    for text in TEXTS:
        enc = hf(text, return_offsets_mapping=True)
        offsets, words, pieces = enc["offset_mapping"], enc.word_ids(), piece_spans(hf, text)
        assert words == sorted(words)
        assert all(pieces[w][0] <= a < pieces[w][1] for w, (a, _) in zip(words, offsets))
        for c in range(len(text)):  # (functok's offsets can miss a space under fuse="all": then None)
            holders = [k for k, (a, b) in enumerate(offsets) if a <= c < b]
            assert enc.char_to_token(c) == (holders[0] if holders else None)


def test_assistant_tokens_mask_reads_the_alignment(hf_exact):
    """apply_chat_template(return_assistant_tokens_mask=True) reads encodings[i].offsets."""
    template = ("{% for m in messages %}{% if m.role == 'assistant' %}{% generation %}{{ m.content }}"
                "{% endgeneration %}{% else %}{{ m.content }}{% endif %}{{ eos_token }}{% endfor %}")
    chat = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello wörld"}]
    out = hf_exact.apply_chat_template(chat, chat_template=template, return_assistant_tokens_mask=True,
                                       return_dict=True)
    kept = [i for i, m in zip(out["input_ids"], out["assistant_masks"]) if m]
    assert hf_exact.decode(kept) == "Hello wörld"
