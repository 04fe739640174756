"""The fusion merges of training (spec 9.4) on every engine: the flat forms (``ChainTable``,
``Segmentation``) through the engine's compiled merges give exactly the reference's merges
(``fusion_merges`` on a Counter and a dict), ties, limit, ``min_count``, byte-fallback tokens and
owner rules included; hostile input stays bounded."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import engine as seam
from functok.tokenizer.fusion import ChainTable, Segmentation, fusion_merges, table_fusion_merges

CAP0, CAP1 = "\ue100\ue000", "\ue100\ue001"
# Tokens: text of either kind (the merges never look inside a token, only at its string), and
# byte-fallback tokens, which no fusion merge may join.
TOKENS = ["a", "b", "ab", "ba", "aa", " ", "é", "\U0001f600", CAP0, CAP1, "\ue100", "\ue000", "<0x61>", "<0xFF>"]
SEGMENTS = ["x", "y", "xy", " z", "w", CAP0, CAP1, "\ue200\ue003"]  # the last three are instructions


@st.composite
def fusion_inputs(draw):
    segments = draw(st.lists(st.sampled_from(SEGMENTS), min_size=1, unique=True))
    tokens = {seg: draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=4)) for seg in segments}
    chains = Counter()
    for _ in range(draw(st.integers(1, 12))):
        chain = tuple(draw(st.lists(st.sampled_from(segments), min_size=1, max_size=7)))
        chains[chain] += draw(st.integers(1, 6))
    limit = draw(st.integers(0, 25))
    min_count = draw(st.sampled_from([0, 1, 2, 3, 2.5, 7, -1.5, float("nan")]))
    return chains, tokens, limit, min_count


def flat(chains: Counter, tokens: dict, extra_words: int = 0) -> tuple[ChainTable, Segmentation]:
    """The flat forms of a Counter of chains and a dict segmentation (with words after the
    table's segments, as the pricing adds)."""
    table = ChainTable(chains)
    names = sorted({t for seg in table.segments for t in tokens[seg]} | {"<0x00>", "zz"})
    ids = {t: i for i, t in enumerate(names)}
    segmentation = Segmentation(names)
    for seg in table.segments:
        segmentation.add(ids[t] for t in tokens[seg])
    for _ in range(extra_words):
        segmentation.add([ids["zz"], ids["<0x00>"]])
    return table, segmentation


@given(fusion_inputs(), st.integers(0, 2))
def test_every_engine_merges_as_the_reference(engine, case, extra):
    chains, tokens, limit, min_count = case
    expected = fusion_merges(chains, tokens, limit=limit, min_count=min_count)
    table, segmentation = flat(chains, tokens, extra)
    assert table.chains() == chains
    got = table_fusion_merges(table, segmentation, limit=limit, min_count=min_count, compiled=seam.fusion_merges)
    assert got == expected
    if engine.name == "native":  # the core's own merges, not the reference run behind it
        assert seam.fusion_merges(table, segmentation, limit, min_count) == expected


def test_ties_go_to_the_smaller_pair_of_strings(engine):
    # Every pair counts 4: the order is by the strings (code points), not by the token ids.
    chains = Counter({("w", CAP1): 4, ("x", CAP0): 4, ("y", "\ue200\ue003"): 4})
    tokens = {s: [s] for segs in chains for s in segs}
    table = ChainTable(chains)
    names = sorted(tokens, reverse=True)  # ids in the opposite order of the strings
    segmentation = Segmentation(names)
    for seg in table.segments:
        segmentation.add([names.index(seg)])
    got = table_fusion_merges(table, segmentation, limit=10, min_count=1, compiled=seam.fusion_merges)
    assert got == [("w", CAP1), ("x", CAP0), ("y", "\ue200\ue003")] == fusion_merges(chains, tokens, limit=10,
                                                                                     min_count=1)


def test_a_merge_that_remakes_an_existing_token_counts_with_it(engine):
    # "a" + CAP0 is merged first; a second merge then makes the token "a" + CAP0 + "b" twice over:
    # once from ("a" + CAP0, "b"), the tokens being compared by their strings, not their origin.
    chains = Counter({("x", CAP0, "y"): 9, ("w", CAP0, "y"): 2})
    tokens = {"x": ["a"], CAP0: [CAP0], "y": ["b"], "w": ["a" + CAP0]}
    table, segmentation = flat(chains, tokens)
    expected = fusion_merges(chains, tokens, limit=10, min_count=1)
    assert table_fusion_merges(table, segmentation, limit=10, min_count=1, compiled=seam.fusion_merges) == expected


def test_counts_past_64_bits_fall_back_to_the_reference(engine):
    chains = Counter({("x", CAP0): 2**63, ("w", CAP0): 2**63, ("y", CAP1): 5})
    tokens = {"x": ["a"], "w": ["a"], "y": ["b"], CAP0: [CAP0], CAP1: [CAP1]}
    table, segmentation = flat(chains, tokens)
    expected = fusion_merges(chains, tokens, limit=10, min_count=1)
    assert expected[0] == ("a", CAP0)  # counted 2**64 times
    assert table_fusion_merges(table, segmentation, limit=10, min_count=1, compiled=seam.fusion_merges) == expected
    assert table_fusion_merges(table, segmentation, limit=10, min_count=2**70, compiled=seam.fusion_merges) == []


def test_the_core_refuses_indices_out_of_range():
    core = seam._core_module
    if core is None:
        pytest.skip("the C core is not built")
    from array import array
    args = (["a", CAP0], b"\0\0", array("i", [0, 5]), array("q", [0, 1, 2]), b"\0\1", array("i", [0, 1]),
            array("q", [0, 2]), array("Q", [3]), 10, 1)
    with pytest.raises(ValueError, match="out of range"):
        core.fusion_merges(*args)
    with pytest.raises(ValueError, match="lengths do not agree"):
        core.fusion_merges(*args[:2], args[2], array("q", [0, 1]), *args[4:])
    with pytest.raises(ValueError, match="out of range"):  # a count of 0
        core.fusion_merges(*args[:2], array("i", [0, 1]), *args[3:7], array("Q", [0]), 10, 1)


def test_hostile_chains_stay_bounded():
    """A chain of 200,000 segments whose merges each make the next pair (every symbol an
    instruction, so any two may join), and 100,000 distinct pairs: linear in the symbols."""
    core = seam._core_module
    if core is None:
        pytest.skip("the C core is not built")
    from array import array
    n = 200_000
    tokens = [CAP0] + [f"\ue100{chr(0x10000 + k)}" for k in range(100_000)]
    segmentation = Segmentation(tokens)
    segmentation.add([0])
    for k in range(1, 100_001):
        segmentation.add([k])
    table = ChainTable(Counter())
    table.segments = [CAP0] + tokens[1:]
    table.instruction = bytes([1]) * len(table.segments)
    long_chain = [0] * n
    distinct = [j for k in range(1, 100_001) for j in (k, 0)]
    table.chain_segments = array("i", long_chain + distinct)
    table.chain_starts = array("q", [0, n, n + len(distinct)])
    table.counts = array("Q", [1, 1])
    merges = seam.fusion_merges(table, segmentation, 64, 1)
    if seam.current.name == "pure":
        assert merges is None
        return
    # (CAP0, CAP0) first (199,999 times), then its doubles, and so on: each merge halves the chain.
    assert merges[0] == (CAP0, CAP0)
    assert merges[1] == (CAP0 * 2, CAP0 * 2)
    assert len(merges) == 64
