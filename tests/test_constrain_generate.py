"""functok.constrain in generation loops: beam search, batches whose rows end, sampling options.

``transformers``' loops do three things to a logits processor that a single walk does not
(``generation/utils.py``): beam search reorders the rows every step (row r is the best
continuations' r-th, grown from whichever row it came from); sampling pads a row that has
ended (``next * unfinished + pad * (1 - unfinished)``), so it goes on growing after its end
id; and a batch of prompts of different lengths is padded on the left. The stand-in loops
here do exactly that to the processor's input, in numpy (torch is not installed in CI); the
test at the end runs ``transformers``' own ``generate`` with a tiny random model when torch is
there.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

import functok  # noqa: E402
from functok.constrain import Constraint, FunctokLogitsProcessor, generate, sample  # noqa: E402
from functok.constrain.sampling import finish  # noqa: E402

from test_constrain import ALPHABET, train  # noqa: E402


@pytest.fixture(scope="module")
def tok() -> functok.Tokenizer:
    rng = random.Random(20)
    return train(["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 30))) for _ in range(150)])


def masks_of(processor, rows, width):
    out = processor(np.array(rows), np.zeros((len(rows), width)))
    return [list(np.flatnonzero(~np.isneginf(row))) for row in out]


def test_rows_swapped_between_calls_keep_their_own_state(tok):
    """Item 12: beam search reorders rows. Row 0 was [CAPITALIZE(0)], row 1 [a]; next call they
    come swapped and one id longer. Each row's mask is the one its own ids give."""
    processor = FunctokLogitsProcessor(tok)
    c = processor.constraint
    cap, a, eos = tok.token_to_id("\ue100\ue000"), tok.token_to_id("a"), tok.special_tokens["<eos>"]
    width = c.vocab_size
    masks_of(processor, [[cap], [a]], width)
    rows = [[a, eos], [cap, a]]  # <eos> is allowed after [a], not after [CAPITALIZE(0)]
    assert masks_of(processor, rows, width) == [c.allowed(r).allowed_ids() for r in rows]
    stray = tok.token_to_id("\ue000")  # an argument with no opcode
    assert stray is not None
    rows = [[cap, a, a], [cap, a, stray]]  # both grown from row 1
    with pytest.raises(functok.constrain.DisallowedTokenError):
        c.allowed(rows[1])
    with pytest.raises(functok.constrain.DisallowedTokenError):
        processor(np.array(rows), np.zeros((2, width)))  # a row off its mask is an error still


@pytest.mark.parametrize("end_inside", [True, False])
def test_a_finished_row_is_padded_and_stays_finished(tok, end_inside):
    """Item 13: once a row has its end id, generate appends pad after it; that row is not
    constrained any more (pad, or anything, is fine), and the other rows still are."""
    c = Constraint(tok)
    eos = tok.special_tokens["<eos>"] if end_inside else c.vocab_size  # functok's, or a wrapper's
    pad = c.vocab_size + 1  # a wrapper's added pad token, outside the functok vocabulary
    processor = FunctokLogitsProcessor(tok, prompt_length=1, end_token_ids=[eos])
    cap, a = tok.token_to_id("\ue100\ue000"), tok.token_to_id("a")
    width = c.vocab_size + 2
    rows = [[a, a], [a, cap]]
    masks_of(processor, rows, width)
    rows = [[a, a, eos], [a, cap, a]]
    masks = masks_of(processor, rows, width)
    assert masks[1] == c.allowed([cap, a]).allowed_ids() + ([eos] if not end_inside else [])
    for _ in range(3):
        rows = [rows[0] + [pad], rows[1] + [a]]
        masks = masks_of(processor, rows, width)
        assert masks[0] == list(range(width))  # finished: nothing masked
        assert masks[1] == [i for i in range(width) if processor.allowed(rows[1], width)[i]]


@pytest.mark.parametrize("logits", ["list", "numpy"])
@pytest.mark.parametrize("option, value", [("top_k", 0), ("top_k", -1), ("top_k", 1.5), ("top_k", True),
                                           ("temperature", -1), ("temperature", float("nan")),
                                           ("temperature", float("inf")), ("temperature", "1")])
def test_bad_sampling_options_are_named(tok, logits, option, value):
    """Item 14: the same ValueError, naming the argument, on the list and the numpy path."""
    scores = [0.0] * tok.vocab_size
    scores = scores if logits == "list" else np.array(scores)
    c = Constraint(tok)
    with pytest.raises(ValueError, match=option):
        sample(c, scores, state=c.start(), **{option: value})
    with pytest.raises(ValueError, match=option):
        generate(c, lambda ids: scores, max_new_tokens=0, **{option: value})


def test_good_sampling_options_still_work(tok):
    c = Constraint(tok)
    state = c.start()
    scores = [random.Random(i).gauss(0, 1) for i in range(tok.vocab_size)]
    for logits in (scores, np.array(scores)):
        assert sample(c, logits, state=state, top_k=1) == sample(c, logits, state=state, temperature=0)
        assert state.allows(sample(c, logits, state=state, top_k=np.int64(3), temperature=np.float32(0.5)))
