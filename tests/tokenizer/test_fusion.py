"""fuse="frequent" (spec 9.4): context chains as pre-tokens, and the fusion merges that
Tokenizer.train appends (functok.tokenizer.fusion)."""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import functok
from functok import FUSE_MODES, Tokenizer, encode, pieces, pretokens
from functok.tokenizer.errors import TokenizerFileError
from functok.tokenizer.fusion import ChainCounter, fusion_merges
from functok.tokenizer.codec_pretokenizer import CodecPreTokenizer

pytest.importorskip("tokenizers")

CAP0, CAP1 = "\ue100\ue000", "\ue100\ue001"
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
WORDS = st.lists(st.sampled_from(["the", "The", "THE", "self", "Self", "x", ".", ", ", "  ", "\n",
                                  "école", "École", "MAX_SIZE", "assertEqual", "aaaa", "é"]), max_size=12)


def _chains_from_pieces(text, **options):
    """Spec 9.4 restated from pieces: a piece with instructions joins the chain before it."""
    out = []
    for p in pieces(text, **options):
        if out and p.instructions:
            out[-1] += p.encoded
        else:
            out.append(p.encoded)
    return out


@settings(max_examples=200, deadline=None)
@given(st.one_of(TEXT, WORDS.map("".join)), st.sampled_from(sorted(functok.PROFILES)))
def test_every_rule_concatenates_to_the_stream(text, profile):
    for fuse in FUSE_MODES:
        found = pretokens(text, fuse=fuse, profile=profile)
        assert "".join(found) == encode(text, profile=profile)
        assert all(found)
    assert pretokens(text, fuse="frequent", profile=profile) == _chains_from_pieces(text, profile=profile)
    assert pretokens(text, fuse="none") == pretokens(text, split_operators=True)
    assert pretokens(text, fuse="all") == pretokens(text, split_operators=False)


@settings(max_examples=100, deadline=None)
@given(st.one_of(TEXT, WORDS.map("".join)))
def test_chain_spans_cover_their_pieces(text):
    codec = CodecPreTokenizer(normalize="nfc", splitter="llama3", fuse="frequent", profile="compact")
    spans = list(codec.spans(text))
    assert [p for p, _, _ in spans] == codec(text)
    for p, (start, end), char_spans in spans:
        assert len(char_spans) == len(p)
        assert all(start <= a <= b <= end for a, b in char_spans)


def test_unknown_fuse_mode_is_refused():
    with pytest.raises(ValueError, match="unknown fuse mode 'some'"):
        pretokens("x", fuse="some")


# --- fusion merges by hand -----------------------------------------------------------------


def test_a_fusion_merge_never_joins_two_pieces_text():
    # One chain: "x" + CAPITALIZE(1) + " hello", seen 10 times; tokens are the segments.
    chains = Counter({("x", CAP1, " hello"): 10})
    tokens = {s: [s] for s in ("x", CAP1, " hello")}
    # Both boundaries count 10; the tie goes to the smaller pair ("x" < U+E100). After it,
    # "x"+CAP1 next to " hello" would hold two pieces' text: no second merge.
    assert fusion_merges(chains, tokens, limit=5, min_count=1) == [("x", CAP1)]


def test_fusion_merges_are_greedy_by_count_and_stop_at_min_count():
    chains = Counter({(CAP0, "the"): 7, ("a", CAP1, " the"): 3, (CAP0, "of"): 2})
    tokens = {s: [s] for segs in chains for s in segs}
    assert fusion_merges(chains, tokens, limit=10, min_count=3) == [(CAP0, "the"), ("a", CAP1)]
    assert fusion_merges(chains, tokens, limit=1, min_count=1) == [(CAP0, "the")]


def test_no_merge_inside_a_segment_or_with_a_byte_token():
    chains = Counter({(CAP0, "ab"): 5, ("q", CAP1, "c"): 5})
    tokens = {CAP0: [CAP0], "ab": ["a", "b"], "q": ["<0x71>"], CAP1: [CAP1], "c": ["c"]}
    # a|b is inside one base; <0x71> is a byte-fallback token: neither may fuse.
    assert fusion_merges(chains, tokens, limit=10, min_count=1) == [(CAP0, "a"), (CAP1, "c")]


def test_chain_counter_keeps_chains_with_a_boundary():
    counter = ChainCounter()
    counter.update(pretokens("see Hello, you. Hi", fuse="none"))
    assert counter.chains == Counter({("see", CAP1, " hello"): 1, (".", CAP1, " hi"): 1})


# --- trained tokenizers --------------------------------------------------------------------

CORPUS = [
    "The cat sat. The Cat sat! THE CAT SAT? the cat sat, said Émile to the École.\n"
    "    def assertEqual(self, First, second): return MAX_SIZE\n" * 3,
    "Hello World. Hello world. HELLO WORLD. hello World.\n" * 4,
    "Über alles: Ärger, ärger, ÄRGER. Crème brûlée, CRÈME BRÛLÉE.\n" * 2,
] * 8


@pytest.fixture(scope="module")
def frequent():
    return Tokenizer.train(iter(CORPUS), vocab_size=360, profile="compact", fuse="frequent",
                           show_progress=False)


def _text_runs(token: str) -> int:
    """Runs of text (not instruction code points) in a token of a corpus without private use."""
    kinds = ["I" if "\ue000" <= ch <= "\ueffe" else "T" for ch in token]
    return "".join(kinds).replace("I", " ").split().__len__()


def test_frequent_fills_the_budget_with_fusion_merges(frequent):
    split = Tokenizer.train(iter(CORPUS), vocab_size=360, profile="compact", fuse="none", show_progress=False)
    assert frequent.vocab_size == split.vocab_size == 360
    fused = [t for t in frequent.get_vocab() if t not in split.get_vocab()]
    assert fused, "the K rule added no fusion merge on a corpus full of repeated capitals"
    assert all(any("\ue000" <= ch <= "\ueffe" for ch in t) for t in fused)
    assert all(_text_runs(t) <= 1 for t in frequent.get_vocab()), "a token holds two pieces' text"
    text = "The Cat said: Hello World."
    assert len(frequent.encode(text).ids) < len(split.encode(text).ids)


@settings(max_examples=60, deadline=None)
@given(st.one_of(TEXT, WORDS.map("".join)))
def test_frequent_round_trips_and_paths_agree(frequent, text):
    greedy = frequent.encode(text)
    assert frequent.decode(greedy.ids) == functok.normalize.nfc(text)
    optimal = frequent.encode(text, segmentation="optimal")
    assert len(optimal.ids) <= len(greedy.ids)
    assert frequent.decode(optimal.ids) == functok.normalize.nfc(text)
    pure = Tokenizer.from_str(frequent.to_str())
    pure.fast_path = False  # the pure-Python BPE: the ids Pyodide gives
    assert pure.encode(text).ids == greedy.ids


def test_when_split_merges_run_out_fusion_merges_take_the_room():
    split = Tokenizer.train(iter(CORPUS), vocab_size=460, profile="compact", fuse="none", show_progress=False)
    fused = Tokenizer.train(iter(CORPUS), vocab_size=460, profile="compact", fuse="frequent", show_progress=False)
    assert split.vocab_size < 460  # the corpus runs out of merges
    assert split.vocab_size < fused.vocab_size <= 460
    assert set(split.get_vocab()) < set(fused.get_vocab())


def test_the_file_records_fuse_and_refuses_what_it_does_not_know(frequent):
    data = json.loads(frequent.to_str())
    assert data["functok"]["fuse"] == "frequent" and data["functok"]["split_operators"] is True
    again = Tokenizer.from_str(frequent.to_str())
    assert again.fuse == "frequent" and again.encode("The Cat").ids == frequent.encode("The Cat").ids
    for fuse, split, message in [("sometimes", True, "unknown fuse mode"),
                                 ("all", True, "contradicts split_operators"),
                                 ("frequent", False, "contradicts split_operators")]:
        bad = dict(data, functok=dict(data["functok"], fuse=fuse, split_operators=split))
        with pytest.raises(TokenizerFileError, match=message):
            Tokenizer.from_str(json.dumps(bad))
    old = dict(data, functok={k: v for k, v in data["functok"].items() if k != "fuse"})
    assert Tokenizer.from_str(json.dumps(old)).fuse == "none"  # a 1.1 file: split_operators says


def test_split_operators_still_trains_the_1_0_modes():
    tok = Tokenizer.train(iter(CORPUS[:3]), vocab_size=300, split_operators=False, profile="paper",
                          show_progress=False)
    assert tok.fuse == "all" and tok.split_operators is False


def test_near_exhaustion_the_budget_is_still_filled():
    """On pydoc's help topics the split training runs out at about 8,600 entries; at 8,000 the K
    rule asks for more fusion merges than the coarser segmentation offers, and the room left
    goes back to split merges (functok compare showed it as "ran out")."""
    from pydoc_data.topics import topics

    tok = Tokenizer.train(iter(topics.values()), vocab_size=8000, profile="compact", fuse="frequent",
                          show_progress=False)
    assert tok.vocab_size == 8000
