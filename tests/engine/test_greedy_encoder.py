"""The C core's greedy encode (native/core/bpe.c, vocab.c, tokenizer.c; functok._native.GreedyEncoder)
against the pure-Python reference: ``Tokenizer.encode`` gives the same ids, or the same error (type,
kind, offset), on arbitrary and real text, under every profile and fuse mode, on random BPE
vocabularies (several merges making one token, byte fallback), with special tokens, and on hostile
input; ``encode_batch`` on threads gives ``encode``'s results.

The pure path is a tokenizer with ``fast_path = False`` (the pure-Python BPE; its pre-tokens come
from the codec, whose native path tests/engine/test_codec.py holds to the pure one). Where a C compiler
exists the core is built by `pip install`; CI has one, so there a missing core is a failure.
"""

from __future__ import annotations

import importlib
import itertools
import os
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import random_bpe, read_text_or_none, stdlib_sources, udhr_files, native_or_skip
from fixtures.trained import stdlib_tokenizer

from functok.errors import FormatError
from functok.tokenizer.bpe import TiktokenBPE
from functok.tokenizer.external import CompiledTiktokenBPE, find_gpt2_tiktoken, load_tiktoken, read_tiktoken_ranks
from functok.tokenizer import Tokenizer
from functok.tokenizer import tokenizer as model_module
from functok.tokenizer.bpe import BYTE_TOKENS, byte_fallback_token




@pytest.fixture(scope="module")
def native():
    module = native_or_skip()
    if importlib.import_module("functok.engine").core is None:
        pytest.skip("FUNCTOK_PURE=1: the pure path runs")
    return module


PROFILES, FUSES = ("paper", "compact"), ("none", "all", "frequent")
HEADERS = [dict(profile=p, fuse=f, normalize=n, splitter=s)
           for p, f, n, s in itertools.product(PROFILES, FUSES, ("nfc", None), ("llama3", "paper"))]


def pair(hf: dict, **header) -> tuple[Tokenizer, Tokenizer]:
    """(native, pure): two tokenizers of one file, the second on the pure-Python BPE."""
    fast, pure = Tokenizer(hf, **header), Tokenizer(hf, **header)
    pure.fast_path = False
    return fast, pure


def outcome(tok: Tokenizer, text, **options):
    """encode's ids, or its error as (type, kind, offset) or (type, message)."""
    try:
        return tok.encode(text, **options).ids
    except FormatError as error:
        return (FormatError, error.kind, error.offset, error.message)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))


def same(fast: Tokenizer, pure: Tokenizer, text, **options) -> None:
    assert outcome(fast, text, **options) == outcome(pure, text, **options)
    assert fast._native is not False and pure._native is False


@pytest.fixture(scope="module")
def trained(native):
    """A tokenizer trained on standard library source (6000 tokens, two special tokens)."""
    return stdlib_tokenizer()


@pytest.fixture(scope="module")
def pairs(trained):
    """(native, pure) for the trained vocabulary under every header: its ids need not suit the
    header's pre-tokens to compare the two paths."""
    return [pair(trained.hf_json, **h) for h in HEADERS]


# Text that reaches every branch: all planes, private use (escaped), marks, capitals, digits,
# runs, special tokens' text, and lone surrogates (an error).
ALPHABET = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from("aAbBéÉ\u0301\u0308\u0327\u0323\u031b ooOO\t\n\r  123٣\ue000\ue100\uefff\uf8ff'sSﬁǅẞİ"),
    st.sampled_from(["def ", "self", "return", "<|endoftext|>", "<pad>", "\U0001F600", "\U000F0000"]),
    st.characters(min_codepoint=0x300, max_codepoint=0x36F),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xAC20),
)
TEXT = st.lists(ALPHABET, max_size=40).map("".join)
SURROGATE_TEXT = st.lists(st.one_of(ALPHABET, st.sampled_from("\ud800\udfff")), max_size=20).map("".join)
SPECIALS = st.sampled_from([
    dict(), dict(allowed_special="all"), dict(disallowed_special=()),
    dict(allowed_special={"<pad>"}), dict(allowed_special={"<pad>"}, disallowed_special=()),
])


@given(TEXT, st.integers(0, len(HEADERS) - 1), SPECIALS)
def test_hypothesis_text_gives_the_pure_ids(pairs, text, header, specials):
    same(*pairs[header], text, **specials)


@given(SURROGATE_TEXT, st.integers(0, len(HEADERS) - 1), SPECIALS)
def test_lone_surrogates_are_the_same_error(pairs, text, header, specials):
    same(*pairs[header], text, **specials)


# Text that NFC changes (recomposes, reorders, maps singletons) among every plane, marks and
# private use: the offsets' hardest case, where a span of the text maps to many code points.
NFC_CHANGING = st.sampled_from([
    "a\u0328\u0301", "e\u0301", "E\u0301\u0301", "\u1100\u1161\u11a8", "A\u030a", "\u212b", "\u0344",
    "\U0001D15E", "\uf900", "\u0958", "o\u0308\u0304", "\u1e0b\u0323", "\U000F0000\u0301", "\ue000\u0301",
    "\U0001F600\u0301", "\u0301", "\u00c5\u0327", "AAAA\u0301", "abab\u0308ab",
])
OFFSET_TEXT = st.lists(st.one_of(ALPHABET, NFC_CHANGING), max_size=30).map("".join)
ENCODE_OPTIONS = st.sampled_from([
    dict(), dict(segmentation="optimal"), dict(segmentation="optimal", tie_break="prefer-greedy"),
])
NEVER_REFUSED = st.sampled_from([
    dict(allowed_special="all"), dict(disallowed_special=()), dict(allowed_special={"<pad>"}, disallowed_special=()),
])


@given(OFFSET_TEXT, st.integers(0, len(HEADERS) - 1), NEVER_REFUSED, ENCODE_OPTIONS)
def test_hypothesis_offsets_from_the_engine_are_the_pure_offsets(pairs, text, header, specials, options):
    """Encoding.offsets from the C core's spans (one pass) equal the pure path's (the codec's
    pre-tokens made again in Python, with NFC's offsets), under every header."""
    fast, pure = pairs[header]
    ours, reference = fast.encode(text, **specials, **options), pure.encode(text, **specials, **options)
    assert ours.ids == reference.ids
    assert ours.offsets == reference.offsets


def test_offsets_come_from_the_engine(pairs, monkeypatch):
    """Where the core encodes, offsets never run the pure pre-tokenizer."""
    fast, pure = pairs[0]
    expected = pure.encode("Héllo WORLD a\u0328\u0301z").offsets
    monkeypatch.setattr(type(fast.pre_tokenizer), "spans", lambda *a: pytest.fail("the pure path ran"))
    assert fast.encode("Héllo WORLD a\u0328\u0301z").offsets == expected


def test_a_surrogate_after_a_special_token_is_named_in_the_whole_text(pairs):
    fast, pure = pairs[0]
    text = "ab <|endoftext|> cd \udc00"
    assert outcome(fast, text, allowed_special="all") == (FormatError, "lone-surrogate", 20,
                                                          "U+DC00 is a surrogate, not a Unicode scalar value")
    same(fast, pure, text, allowed_special="all")


def corpus_texts() -> list[str]:
    texts = [t for t in map(read_text_or_none, stdlib_sources()[1::60]) if t]
    texts += [t for t in map(read_text_or_none, udhr_files()[::12]) if t]
    return texts


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("fuse", FUSES)
def test_the_corpora_give_the_pure_ids(trained, profile, fuse):
    fast, pure = pair(trained.hf_json, profile=profile, fuse=fuse)
    for text in corpus_texts():
        same(fast, pure, text)


# --- random vocabularies ---------------------------------------------------------------------


def functok_json(vocab: dict[str, int], merges: list, specials: tuple[str, ...] = ()) -> dict:
    """A functok tokenizer's ``tokenizer`` part: ``vocab`` with the 256 byte tokens and
    ``specials`` added after it."""
    vocab = dict(vocab)
    for token in [*sorted(BYTE_TOKENS), *specials]:
        vocab.setdefault(token, len(vocab))
    return {"added_tokens": [{"id": vocab[t], "content": t, "special": True} for t in specials],
            "model": {"type": "BPE", "byte_fallback": True, "vocab": vocab, "merges": [list(m) for m in merges]}}


@st.composite
def random_vocabularies(draw):
    """conftest's random BPE over 'abc' (a merge listed twice, several merges making one token),
    with merges of byte tokens (é is C3 A9: its bytes merge, or not) and ids moved anywhere below 2**32."""
    vocab, merges = draw(random_bpe(max_merges=25))
    if draw(st.booleans()):
        vocab["<0xC3>"], vocab["<0xA9>"] = len(vocab), len(vocab) + 1
        vocab["<0xC3><0xA9>"] = len(vocab)
        merges.insert(draw(st.integers(0, len(merges))), ("<0xC3>", "<0xA9>"))
    hf = functok_json(vocab, merges, ("<s>",))
    if draw(st.booleans()):
        moved = draw(st.lists(st.integers(0, 2**32 - 1), min_size=len(hf["model"]["vocab"]),
                              max_size=len(hf["model"]["vocab"]), unique=True))
        hf["model"]["vocab"] = dict(zip(hf["model"]["vocab"], moved))
        hf["added_tokens"][0]["id"] = hf["model"]["vocab"]["<s>"]
    return hf


@given(random_vocabularies(), st.lists(st.sampled_from(["a", "b", "c", "é", "x", " ", "A", "<s>", "\u0301"]),
                                       max_size=60).map("".join),
       st.sampled_from(PROFILES), st.sampled_from(FUSES))
def test_random_vocabularies_give_the_pure_ids(native, hf, text, profile, fuse):
    same(*pair(hf, profile=profile, fuse=fuse), text, allowed_special="all")


@given(st.text(st.sampled_from("abc"), min_size=1, max_size=300))
def test_long_words_of_a_random_vocabulary_give_the_pure_ids(native, word):
    """One pre-token of many symbols: the queue holds stale entries, and overlapping pairs of one
    rank (in "aaa", the leftmost merges)."""
    # In "abc", b|c merges first, so the queued a|b (rank 1) is stale when popped: a|bc makes abc.
    merges = [("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c"), ("abc", "abc"), ("c", "c"), ("cc", "cc"),
              ("b", "b"), ("a", "a"), ("aa", "aa"), ("bb", "a"), ("b", "bc")]
    vocab = {t: i for i, t in enumerate(dict.fromkeys(["a", "b", "c", *(x + y for x, y in merges)]))}
    same(*pair(functok_json(vocab, merges), profile="compact"), word)  # compact: runs stay (no REPEAT)


def test_a_character_without_a_token_falls_back_to_its_bytes(native):
    merges = [(byte_fallback_token(0xF0), byte_fallback_token(0x9F))]
    vocab = {"a": 0, "<0xF0>": 1, "<0x9F>": 2, "<0xF0><0x9F>": 3}
    fast, pure = pair(functok_json(vocab, merges))
    text = "a\U0001F600a\u00e9\ue000"
    same(fast, pure, text)
    tokens = fast.encode(text).tokens
    at = tokens.index("<0xF0><0x9F>")  # U+1F600 is F0 9F 98 80, its first two bytes merged
    assert tokens[at + 1:at + 3] == ["<0x98>", "<0x80>"]


@given(TEXT, st.integers(0, len(HEADERS) - 1), st.sampled_from(["greedy", "optimal"]))
def test_offsets_and_prefer_greedy_read_the_pure_ids(pairs, text, header, segmentation):
    """The C core's BPE of given pre-tokens (GreedyEncoder.pretoken_ids) fills the greedy cache
    that Encoding.offsets and the optimal segmenter's prefer-greedy tie-break read."""
    fast, pure = pairs[header]
    options = dict(segmentation=segmentation, tie_break="prefer-greedy", disallowed_special=())
    try:
        expected = pure.encode(text, **options)
    except FormatError:
        return
    found = fast.encode(text, **options)
    assert found.ids == expected.ids and found.offsets == expected.offsets
    pretokens = fast.pre_tokenizer(text)
    assert fast._native_encoder().pretoken_ids(pretokens) == [pure.vocabulary.model.tokenize(p) for p in pretokens]


# --- hostile input ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "a" * 200_000, "ab" * 100_000, "\ue000" * 50_000, "\U000F0000\u0301" * 30_000, " " * 200_000,
    "A" * 50_000 + "b", "1" * 100_000, "é\u0323" * 50_000, "".join(map(chr, range(0xE000, 0xF900))) * 3,
])
def test_hostile_text_gives_the_pure_ids(trained, text):
    for profile, fuse in (("paper", "none"), ("compact", "frequent")):
        same(*pair(trained.hf_json, profile=profile, fuse=fuse), text)


def test_a_pretoken_of_a_million_code_points_is_encoded(trained):
    """Bounded work: one pre-token of 1M private-use code points (each escaped, each byte
    fallback); the pure path is checked on a tenth of it above."""
    fast, _ = pair(trained.hf_json, profile="compact", fuse="all")
    text = "".join(chr(0xF0000 + k % 0xFFFD) for k in range(1_000_000))
    ids = fast.encode(text).ids
    assert len(ids) >= 4_000_000 and fast.decode(ids) == text


# --- threads ------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_threads", [1, 2])
def test_encode_batch_gives_encode(trained, num_threads):
    texts = corpus_texts()[:30] + ["", "x", "<|endoftext|>"]
    fast, pure = pair(trained.hf_json, profile="compact", fuse="frequent")
    batch = fast.encode_batch(texts, num_threads=num_threads, disallowed_special=())
    assert [e.ids for e in batch] == [pure.encode(t, disallowed_special=()).ids for t in texts]
    assert [e.ids for e in pure.encode_batch(texts, num_threads=num_threads, disallowed_special=())] == \
        [e.ids for e in batch]
    optimal = dict(segmentation="optimal", tie_break="prefer-greedy", disallowed_special=())  # one thread
    assert [e.ids for e in fast.encode_batch(texts[:5], num_threads=num_threads, **optimal)] == \
        [pure.encode(t, **optimal).ids for t in texts[:5]]


def test_encode_batch_raises_the_first_error_in_order(trained):
    fast, pure = pair(trained.hf_json)
    texts = ["fine", "bad \ud800", "also bad <|endoftext|>"]
    for tok in (fast, pure):
        with pytest.raises(FormatError, match="surrogate"):
            tok.encode_batch(texts, num_threads=2)
    with pytest.raises(ValueError, match="num_threads"):
        fast.encode_batch(texts, num_threads=0)


COMPACT_FREQUENT = next(k for k, h in enumerate(HEADERS) if h["profile"] == "compact" and h["fuse"] == "frequent")


def batch_outcome(tok: Tokenizer, texts: list[str], num_threads: int, **options):
    """encode_batch's ids and offsets, or its error as outcome gives it."""
    try:
        return [(e.ids, e.offsets) for e in tok.encode_batch(texts, num_threads=num_threads, **options)]
    except FormatError as error:
        return (FormatError, error.kind, error.offset, error.message)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))


def one_by_one(tok: Tokenizer, texts: list[str], **options):
    """What encode_batch must give: encode's results in order, or the first text's error."""
    found = []
    for text in texts:
        result = outcome(tok, text, **options)
        if isinstance(result, tuple):
            return result
        found.append((result, tok.encode(text, **options).offsets))
    return found


def test_encode_batch_in_chunks_on_lanes_gives_encode(pairs, monkeypatch):
    """Texts cut into chunks (one text each, a few, all of them) on 2 and 3 lanes, stealing from
    one another: encode's ids, with special tokens allowed."""
    texts = corpus_texts()[:8] + ["", "x <|endoftext|> y", "<pad>"] + corpus_texts()[20:24]
    fast, _ = pairs[COMPACT_FREQUENT]
    expected = [fast.encode(t, allowed_special="all").ids for t in texts]  # encode: the pure ids, above
    for chunk in (1, 3000, 1 << 16):
        monkeypatch.setattr(model_module, "_CHUNK", chunk)
        for num_threads in (2, 3):
            batch = fast.encode_batch(texts, num_threads=num_threads, allowed_special="all")
            assert [e.ids for e in batch] == expected


@given(st.lists(st.one_of(TEXT, SURROGATE_TEXT), max_size=8), SPECIALS, st.integers(1, 40))
def test_hypothesis_encode_batch_gives_the_first_error_in_order(pairs, texts, specials, chunk):
    """Random texts, a lone surrogate or a disallowed special token in some: encode_batch on
    threads gives encode's ids and offsets, or the error of the first text that fails."""
    fast, pure = pairs[COMPACT_FREQUENT]
    saved = model_module._CHUNK
    model_module._CHUNK = chunk  # chunks of a text or a few: several lanes
    try:
        assert batch_outcome(fast, texts, 2, **specials) == one_by_one(pure, texts, **specials)
    finally:
        model_module._CHUNK = saved


def test_encode_many_refuses_what_encode_refuses(trained):
    native = pair(trained.hf_json)[0]._native_encoder()
    assert native.encode_many(["ab", "a\ud800", ""], 3) == [native.encode("ab"), None, []]
    with pytest.raises(TypeError):
        native.encode_many(["ab", 3], 0)
    with pytest.raises(ValueError):
        native.encode_many(["ab"], -1)


def test_threads_sharing_one_encoder_get_the_pure_ids(trained):
    texts = corpus_texts()[:12]
    fast, pure = pair(trained.hf_json, profile="compact", fuse="frequent")
    expected = [pure.encode(t).ids for t in texts]
    found: dict[int, list] = {}

    def work(k: int) -> None:
        found[k] = [fast.encode(t).ids for t in texts[k % 3:] + texts[:k % 3]]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, ids in found.items():
        assert ids == expected[k % 3:] + expected[:k % 3]


@pytest.mark.parametrize("cache_limit", [2, 5000, 1 << 18])
def test_threads_sharing_one_cache_get_the_ids_of_one_thread(trained, monkeypatch, cache_limit):
    """8 threads encode the same texts on one encoder at once, each in a lane of its own and from
    another text on, while one of them forgets the cache between rounds: the cache they share
    (bind_shared_cache.c: read without a lock, filled under one) gives the ids of one thread,
    with its generations replaced all the time (cache_limit 2), its tables grown and replaced
    (5000), or neither (the default)."""
    texts = corpus_texts()[:16] + [t[k:k + 300] for t in corpus_texts()[:4] for k in range(0, 6000, 300)]
    expected = [pair(trained.hf_json, profile="compact", fuse="frequent")[0].encode(t).ids for t in texts]
    monkeypatch.setattr(importlib.import_module("functok.engine"), "CACHE_LIMIT", cache_limit)
    native = pair(trained.hf_json, profile="compact", fuse="frequent")[0]._native_encoder()
    found: dict[int, list] = {}
    start = threading.Barrier(8)

    def work(k: int) -> None:
        order = list(range(k, len(texts))) + list(range(k))
        start.wait()
        for round in range(3):
            if k == 0 and round:
                native.clear_caches()
            ids = native.encode_many([texts[i] for i in order], k)
            found[k, round] = [ids[order.index(i)] for i in range(len(texts))]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(found) == 24 and all(ids == expected for ids in found.values())


def test_fast_path_false_is_the_pure_python_bpe(trained):
    fast, pure = pair(trained.hf_json)
    assert fast.fast_path and not pure.fast_path
    fast.encode("x")
    assert type(fast._native).__name__ == "GreedyEncoder" and pure._native is False
    pure.fast_path = True
    assert pure.encode("def x").ids == fast.encode("def x").ids and pure._native
    fast.clear_caches()  # the C core's cache too: the same ids, computed again
    assert fast.encode("def x").ids == pure.encode("def x").ids


# --- tiktoken's rule ------------------------------------------------------------------------------


@st.composite
def rank_tables(draw) -> dict[bytes, int]:
    """Ranks over the bytes a, b, c (one sometimes missing: a KeyError), and joined strings of
    them in random order, some not reachable by merging: tiktoken's rule meets every case."""
    singles = [b for b in (b"a", b"b", b"c") if b != b"c" or draw(st.booleans())]
    joined = draw(st.lists(st.text("abc", min_size=2, max_size=4).map(str.encode), max_size=30, unique=True))
    tokens = list(dict.fromkeys(singles + joined))
    order = draw(st.permutations(range(len(tokens))))
    return {t: order[k] for k, t in enumerate(tokens)}


def merged(model, piece: bytes):
    try:
        return model.tokenize(piece)
    except KeyError as error:
        return (KeyError, error.args)


@given(rank_tables(), st.lists(st.binary(max_size=0) | st.text("abc", max_size=200).map(str.encode), max_size=8))
def test_tiktoken_merges_are_the_pure_ones(native, ranks, pieces):
    compiled, pure = CompiledTiktokenBPE(ranks), TiktokenBPE(ranks)
    for piece in pieces:
        assert merged(compiled, piece) == merged(pure, piece)


def test_a_stale_tiktoken_pair_is_skipped(native):
    """In "babc", b|c (3) merges first, so the queued a|b (4) is stale: a|bc is abc (10), and b|a
    (6) merges next."""
    ranks = {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"ab": 4, b"ba": 6, b"abc": 10}
    assert CompiledTiktokenBPE(ranks).tokenize(b"babc") == TiktokenBPE(ranks).tokenize(b"babc") == [6, 3]


def test_gpt2_ranks_through_functok_give_the_pure_ids(native):
    path = find_gpt2_tiktoken()
    if path is None:
        pytest.skip("the GPT-2 rank file is not here (tests/tokenizer/test_bpe.py says where it comes from)")
    compiled = load_tiktoken(path, pattern="gpt2")
    assert isinstance(compiled.model, CompiledTiktokenBPE)
    pure = TiktokenBPE(read_tiktoken_ranks(path))
    for text in corpus_texts()[:20] + ["\U0001F600" * 300, "\ue000 x" * 1000]:
        for piece in set(compiled.pre_tokenize(text)):
            assert compiled.model.tokenize(piece.encode()) == pure.tokenize(piece.encode())
