"""functok.constrain: its masks are the strict decoder's, step by step, on tokenizers trained here.

The ground truth is ``Tokenizer.decode`` (strict). For random tokenizers trained in the test on
random text full of format code points, and random walks through their ids:

* the mask equals "try every id with the constraint's own reader" (the precomputed classes
  change nothing);
* an id after which the ids decode strictly is always allowed (nothing decodable is masked);
* the end is allowed exactly where the ids decode strictly;
* whatever is sampled under the mask, closed with ``finish``, decodes strictly.
"""

from __future__ import annotations

import random
import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import functok
from functok.constrain import Constraint, DisallowedTokenError, FunctokLogitsProcessor, generate, sample
from functok.constrain.sampling import finish

from fixtures.constrain_cases import ALPHABET, train


FUSE = st.sampled_from(["none", "all", "frequent"])


def decodes(tok: functok.Tokenizer, ids: list[int], max_output: int) -> bool:
    try:
        tok.decode(ids, max_output=max_output)
    except (ValueError, UnicodeDecodeError):  # every decode error is one of these
        return False
    return True


def walk_and_check(tok: functok.Tokenizer, rng: random.Random, steps: int, max_output: int) -> list[int]:
    """A random walk under the exact mask, checking each step against the strict decoder."""
    constraint = Constraint(tok, max_output=max_output, eos_token_id="<eos>")
    state, ids = constraint.start(), []
    for _ in range(steps):
        mask = state.mask()
        brute = sum(1 << i for i in range(constraint.vocab_size) if constraint._advance(state.cursor, i))
        if state.end_allowed:
            brute |= constraint.special_mask
        assert mask == brute, ids
        for i in range(constraint.vocab_size):
            if i not in constraint.special_ids and decodes(tok, ids + [i], max_output):
                assert mask >> i & 1, (ids, i, tok.id_to_token(i))
        assert state.end_allowed == decodes(tok, ids, max_output), ids
        nxt = sample(constraint, [rng.gauss(0, 2) for _ in range(constraint.vocab_size)], state=state, rng=rng)
        if nxt is None or nxt in constraint.special_ids:
            break
        state, ids = state.advance(nxt), ids + [nxt]
    ids += finish(state)
    assert decodes(tok, ids, max_output), ids
    return ids


@settings(max_examples=8)
@given(texts=st.lists(st.text(ALPHABET, min_size=1, max_size=30), min_size=5, max_size=60),
       seed=st.integers(0, 2**32 - 1), fuse=FUSE)
def test_masks_are_the_strict_decoders(texts, seed, fuse):
    """Every fuse mode: instructions apart from their bases, joined with them, or fused where
    frequent (then tokens mix groups and text: the constraint's lead masks and complex tokens)."""
    tok = train(texts, fuse=fuse)
    walk_and_check(tok, random.Random(seed), steps=25, max_output=2**26)


@settings(max_examples=6)
@given(texts=st.lists(st.text(ALPHABET, min_size=1, max_size=30), min_size=5, max_size=40),
       seed=st.integers(0, 2**32 - 1), max_output=st.sampled_from([0, 3, 20, 300]), fuse=FUSE)
def test_masks_keep_the_output_limit(texts, seed, max_output, fuse):
    tok = train(texts, fuse=fuse)
    walk_and_check(tok, random.Random(seed), steps=20, max_output=max_output)


@pytest.fixture(scope="module")
def tok() -> functok.Tokenizer:
    rng = random.Random(15)
    return train(["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 30))) for _ in range(150)])


@settings(max_examples=60)
@given(text=st.text(ALPHABET + "ÀÉ_xyz" + "\U0001f600", max_size=80))
def test_every_encoding_is_allowed_step_by_step(tok, text):
    ids = tok.encode(text).ids
    state = Constraint(tok).start()
    for i in ids:
        assert state.allows(i), (text, ids)
        state = state.advance(i)
    assert state.end_allowed


def test_the_exact_mask_is_within_the_syntax_mask(tok):
    exact, syntax = Constraint(tok), Constraint(tok, mode="syntax")
    rng = random.Random(3)
    for _ in range(20):
        a, b, ids = exact.start(), syntax.start(), []
        for _ in range(20):
            assert a.mask() & ~b.mask() == 0, ids
            choice = rng.choice(a.allowed_ids())
            a, b, ids = a.advance(choice), b.advance(choice), ids + [choice]


def test_what_each_state_forbids(tok):
    c = Constraint(tok, eos_token_id="<eos>")
    eos = tok.special_tokens["<eos>"]
    cap = tok.token_to_id("\ue100\ue000")  # CAPITALIZE(0)
    assert cap is not None
    opened = c.start().advance(cap)
    assert not opened.end_allowed and not opened.allows(eos)  # a group at the end: dangling
    assert opened.allows(tok.token_to_id("a"))
    lead = next(i for i, b in c.byte_of.items() if b == 0xC3)
    half = c.start().advance(lead)  # half of a UTF-8 sequence
    assert not half.end_allowed and half.allowed_ids() == sorted(
        i for i, b in c.byte_of.items() if 0x80 <= b <= 0xBF)
    escape = c.start().advance(next(i for i, b in c.byte_of.items() if b == 0xEE)) \
        .advance(next(i for i, b in c.byte_of.items() if b == 0xBF)) \
        .advance(next(i for i, b in c.byte_of.items() if b == 0xBF))  # ESCAPE, spelled in bytes
    assert not escape.end_allowed
    with pytest.raises(DisallowedTokenError):
        c.start().advance(c.vocab_size + 5)  # an unknown id
    stray = tok.token_to_id("\ue000")
    assert stray is not None  # the fixture's vocabulary has it: the check below must run
    assert not c.start().allows(stray)  # an argument with no opcode
    assert c.start().end_allowed and c.start().allows(eos)


def test_positions_need_their_slots():
    tok = train(["Abc Abc ABC xY"] * 5)
    c = Constraint(tok)
    upper = tok.token_to_id("\ue110\ue000\ue003")  # UPPERCASE(0, 3): three slots needed
    assert upper is not None
    state = c.start().advance(upper).advance(tok.token_to_id("a"))
    assert not state.end_allowed  # one slot of three
    assert not state.allows(upper)  # a new group would end the text too soon
    state = state.advance(tok.token_to_id("b")).advance(tok.token_to_id("c"))
    assert state.end_allowed and state.allows(upper)
    ids = [upper] + [tok.token_to_id(ch) for ch in "abc"]
    assert c.allowed(ids).end_allowed and tok.decode(ids) == "ABC"


def test_bitmask_layout(tok):
    state = Constraint(tok).start().advance(tok.token_to_id("\ue100\ue000"))
    raw = state.bitmask()
    assert len(raw) == (state.constraint.vocab_size + 7) // 8
    assert [i for i in range(state.constraint.vocab_size) if raw[i // 8] >> (i % 8) & 1] == state.allowed_ids()


def test_sample_with_plain_lists_and_numpy(tok):
    np = pytest.importorskip("numpy")
    c = Constraint(tok, eos_token_id="<eos>")
    state = c.start().advance(tok.token_to_id("\ue100\ue000"))
    logits = [0.0] * c.vocab_size
    logits[c.eos_token_id] = 50.0  # the best id is not allowed here: the group would dangle
    best_allowed = tok.token_to_id("a")
    logits[best_allowed] = 10.0
    assert sample(c, logits, state=state, temperature=0) == best_allowed
    assert sample(c, np.array(logits), state=state, temperature=0) == best_allowed
    rng = random.Random(0)
    for draw in (sample(c, logits, state=state, rng=rng, top_k=3) for _ in range(20)):
        assert state.allows(draw)
    for draw in (sample(c, np.array(logits), state=state, rng=rng) for _ in range(20)):
        assert state.allows(draw)
    assert sample(tok, logits, ids=[tok.token_to_id("\ue100\ue000")], temperature=0) == best_allowed
    assert sample(c, logits, state=c.start(), temperature=0) == c.eos_token_id  # the end is fine here


def test_generate_always_decodes(tok):
    rng = random.Random(1)
    for _ in range(10):
        ids = generate(tok, lambda ids: [rng.gauss(0, 3) for _ in range(tok.vocab_size)], max_new_tokens=24, rng=rng)
        tok.decode(ids)  # strict: raises if not


class FakeTensor:
    """Enough of a torch tensor for the adapter: tolist, shape, masked_fill."""

    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self.shape = (len(self.rows), len(self.rows[0]))
        self.device = "cpu"

    def tolist(self):
        return [list(r) for r in self.rows]

    def masked_fill(self, blocked, value):
        return FakeTensor([[value if b else v for v, b in zip(row, brow)] for row, brow in zip(self.rows, blocked.tolist())])


def test_logits_processor(tok, monkeypatch):
    np = pytest.importorskip("numpy")
    processor = FunctokLogitsProcessor(tok, end_token_ids=[tok.vocab_size])  # an eos the wrapper added
    cap = tok.token_to_id("\ue100\ue000")
    width = tok.vocab_size + 4  # a model's padded vocabulary
    ids = np.array([[cap], [tok.token_to_id("a")]])
    out = processor(ids, np.zeros((2, width)))
    assert np.isneginf(out[0, tok.vocab_size]) and not np.isneginf(out[1, tok.vocab_size])
    assert np.isneginf(out[:, tok.vocab_size + 1:]).all()
    allowed_after_cap = processor.constraint.start().advance(cap).allowed_ids()
    assert list(np.flatnonzero(~np.isneginf(out[0]))) == allowed_after_cap
    # The same through a torch-like tensor, with a stand-in torch module (torch is not installed).
    fake_torch = types.SimpleNamespace(from_numpy=lambda a: types.SimpleNamespace(to=lambda device: a))
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    ids2 = np.array([[cap, tok.token_to_id("a")], [tok.token_to_id("a"), cap]])
    tensor_out = processor(ids2, FakeTensor(np.zeros((2, width))))
    assert [v != float("-inf") for v in tensor_out.rows[0]] == list(processor.allowed(ids2[0].tolist(), width))


# Pieces of streams: whole instructions, text, escape pairs, and lone format code points.
UNITS = ["\ue100\ue000", "\ue102\ue001", "\ue110\ue000\ue002", "\ue200\ue000\ue003", "\ue201\ue000\ue002\ue002",
         "\ue200\ue001\ue0ff", "a", "B", " ", "\u00e9", "ab", "\uefff\ue100", "\uefff", "\ue000", "\ue100", "\ue0ff"]


@settings(max_examples=150)
@given(stream=st.lists(st.sampled_from(UNITS), max_size=8).map("".join), split=st.booleans(),
       max_output=st.sampled_from([4, 2**26]))
def test_every_decodable_sequence_is_allowed_at_every_step(tok, stream, split, max_output):
    """Streams written with tokens where the vocabulary has them, or entirely in byte-fallback
    ids (every code point as its UTF-8 bytes): if the ids decode strictly, each step of them
    was allowed and the end too; if not, some step or the end was refused."""
    byte_id = {b: i for i, b in Constraint(tok).byte_of.items()}
    ids: list[int] = []
    for ch in stream:
        token = None if split else tok.token_to_id(ch)
        ids += [token] if token is not None else [byte_id[b] for b in ch.encode("utf-8")]
    state, refused = Constraint(tok, max_output=max_output).start(), False
    for i in ids:
        if not state.allows(i):
            refused = True
            break
        state = state.advance(i)
    refused = refused or not state.end_allowed
    assert refused != decodes(tok, ids, max_output), (stream, ids)


def test_the_layout_holds():
    """constrain sits above the tokenizer: the tokenizer never imports it, nor does functok."""
    import subprocess
    from pathlib import Path

    package = Path(functok.__file__).parent
    for path in (package / "tokenizer").glob("*.py"):
        assert "constrain" not in path.read_text(encoding="utf-8"), path
    code = "import sys, functok; print(sorted(m for m in sys.modules if 'constrain' in m or m in ('torch', 'transformers')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(package.parent)}).stdout.strip()
    assert out == "[]"
    code = "import sys, functok.constrain; print(sorted(m for m in sys.modules if m in ('torch', 'transformers')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(package.parent)}).stdout.strip()
    assert out == "[]"


def test_docstring_examples():
    import doctest

    from functok.constrain import automaton, hf, masks, sampling

    for module in (automaton, masks, sampling, hf):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
        # automaton and hf have no examples; the others' must run (a test that ran none passes)
        assert result.attempted > 0 or module in (automaton, hf), module.__name__


def test_logits_processor_takes_the_transformers_wrapper(tok):
    np = pytest.importorskip("numpy")
    wrapper_module = pytest.importorskip("functok.integrations.transformers")
    wrapper = wrapper_module.FunctokTokenizer(functok_tokenizer=tok)
    processor = FunctokLogitsProcessor(wrapper)
    assert processor.constraint.tokenizer is tok
    width = len(wrapper)
    cap = tok.token_to_id("\ue100\ue000")
    out = processor(np.array([[cap], [tok.token_to_id("a")]]), np.zeros((2, width)))
    eos = wrapper.eos_token_id  # the functok tokenizer's <eos> here; with none, one the wrapper adds
    assert np.isneginf(out[0, eos]) and not np.isneginf(out[1, eos])
    bare = wrapper_module.FunctokTokenizer(functok_tokenizer=train(["Hello World"] * 4, special=()))
    assert bare.functok.id_to_token(bare.eos_token_id) is None  # added after the vocabulary
    processor = FunctokLogitsProcessor(bare)
    cap = bare.functok.token_to_id("\ue100\ue000")
    out = processor(np.array([[cap], [bare.functok.token_to_id("a")]]), np.zeros((2, len(bare))))
    assert np.isneginf(out[0, bare.eos_token_id]) and not np.isneginf(out[1, bare.eos_token_id])
