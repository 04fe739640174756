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

from fixtures.constrain_cases import ALPHABET, check_rows, train  # noqa: E402


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


# -- the stand-in loops: what transformers' generate does to a processor's input


def log_softmax(x):
    x = x - x.max(axis=-1, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=-1, keepdims=True))


def left_padded(prompts: list[list[int]], pad: int) -> list[list[int]]:
    """A batch of prompts padded on the left to one length, as a decoder-only model takes them."""
    length = max(map(len, prompts))
    return [[pad] * (length - len(p)) + p for p in prompts]


def beam_search(processor, prompts, *, num_beams, steps, width, eos, pad, rng):
    """``_beam_search``: the rows are the running beams of every prompt (each prompt
    ``num_beams`` times at first, all but the first beam at -1e9); each step the 2k best
    continuations over all of a prompt's beams are kept, those ending in eos among the first
    k are finished, and the k best of the rest (ended ones at -1e9) are the next rows, in
    score order: a row goes wherever its score puts it. Returns (finished, running)."""
    k = num_beams
    rows = [row for row in left_padded(prompts, pad) for _ in range(k)]
    running = np.zeros((len(prompts), k))
    running[:, 1:] = -1e9
    finished = []
    for _ in range(steps):
        logits = rng.normal(0, 3, size=(len(rows), width))
        logits[:, eos] += 3  # a model that likes to stop: rows end, and are padded or finished
        scores = processor(np.array(rows), log_softmax(logits))
        total = scores.reshape(len(prompts), k, width) + running[:, :, None]
        next_rows, running = [], np.zeros_like(running)
        for b in range(len(prompts)):
            flat = total[b].reshape(-1)
            top = np.argsort(-flat, kind="stable")[: 2 * k]
            candidates = [(flat[t], rows[b * k + t // width] + [int(t % width)]) for t in top]
            ended = [ids[-1] == eos for _, ids in candidates]
            assert all(np.isfinite(s) for s, _ in candidates[:k])  # the k best follow the masks
            finished += [ids for (s, ids), e in zip(candidates[:k], ended[:k]) if e]
            penalised = np.array([s - 1e9 * e for (s, _), e in zip(candidates, ended)])
            for j, c in enumerate(np.argsort(-penalised, kind="stable")[:k]):
                next_rows.append(candidates[c][1])
                running[b, j] = penalised[c]
        rows = next_rows
    return finished, rows


def sample_loop(processor, prompts, *, steps, width, eos, pad, rng):
    """``_sample``: one id per row from the processed scores; a row that has drawn eos gets
    pad from then on (``next * unfinished + pad * (1 - unfinished)``); stop when all ended."""
    rows = left_padded(prompts, pad)
    unfinished = np.ones(len(rows), dtype=bool)
    for _ in range(steps):
        logits = rng.normal(0, 3, size=(len(rows), width))
        logits[:, eos] += 3
        scores = processor(np.array(rows), logits)
        probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
        drawn = [int(rng.choice(width, p=p / p.sum())) for p in probs]
        drawn = np.where(unfinished, drawn, pad)
        rows = [row + [int(i)] for row, i in zip(rows, drawn)]
        unfinished &= drawn != eos
        if not unfinished.any():
            break
    return rows


CONFIGS = [("functok eos, pad = eos", True, None), ("added eos and pad", False, 1),
           ("functok eos, pad = eos, whole rows read", True, "whole")]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), config=st.sampled_from(CONFIGS), batch=st.integers(2, 3),
       num_beams=st.integers(2, 4), texts=st.lists(st.text(ALPHABET, min_size=1, max_size=12), min_size=3, max_size=3))
def test_standin_beam_search_and_sampling_never_raise(tok, seed, config, batch, num_beams, texts):
    """Over seeds: prompts of different lengths, left-padded; beam search reorders the rows
    each step, sampling pads the ended ones. The processor never raises, every finished
    sequence decodes strictly, every running one once closed."""
    _, inside, pad_offset = config
    size = Constraint(tok).vocab_size
    eos = tok.special_tokens["<eos>"] if inside else size
    pad = eos if pad_offset is None or pad_offset == "whole" else size + pad_offset
    width = size + 4  # a model's padded vocabulary: two added ids, two unused
    prompts = [tok.encode(t * (i + 1)).ids for i, t in enumerate(texts[:batch])]
    length = max(map(len, prompts))
    start = 0 if pad_offset == "whole" else length
    rng = np.random.default_rng(seed)
    processor = FunctokLogitsProcessor(tok, prompt_length=None if start == 0 else length, end_token_ids=[eos])
    finished, running = beam_search(processor, prompts, num_beams=num_beams, steps=10, width=width,
                                    eos=eos, pad=pad, rng=rng)
    check_rows(tok, processor, finished + running, start, eos, pad)
    processor = FunctokLogitsProcessor(tok, prompt_length=None if start == 0 else length, end_token_ids=[eos])
    rows = sample_loop(processor, prompts + prompts, steps=12, width=width, eos=eos, pad=pad, rng=rng)
    check_rows(tok, processor, rows, start, eos, pad)


class Recorder(FunctokLogitsProcessor):
    """The processor, keeping the rows of every call."""

    def __call__(self, input_ids, scores):
        self.calls = getattr(self, "calls", []) + [input_ids.tolist()]
        return super().__call__(input_ids, scores)


def test_the_standin_loops_reach_what_they_test(tok):
    """On fixed seeds, the loops do what the test above relies on: a row that did not grow from
    the row at its place before, finished beams, ended rows padded while others go on."""
    size = Constraint(tok).vocab_size
    eos, pad = size, size + 1
    prompts = [tok.encode("ab Ab").ids, tok.encode("\u00e9").ids]
    length = max(map(len, prompts))
    processor = Recorder(tok, prompt_length=length, end_token_ids=[eos])
    finished, running = beam_search(processor, prompts, num_beams=3, steps=10, width=size + 2, eos=eos,
                                    pad=pad, rng=np.random.default_rng(0))
    assert finished and check_rows(tok, processor, finished, length, eos, pad) == len(finished)
    calls = processor.calls
    assert any(now[:-1] != before for old, new in zip(calls, calls[1:]) for before, now in zip(old, new))
    processor = Recorder(tok, prompt_length=length, end_token_ids=[eos])
    rows = sample_loop(processor, prompts * 2, steps=12, width=size + 2, eos=eos, pad=pad,
                       rng=np.random.default_rng(1))
    assert any(row[-1] == pad for row in processor.calls[-1]), processor.calls[-1]
    assert check_rows(tok, processor, rows, length, eos, pad) < len(rows)  # some went on


def test_the_row_cache_is_bounded_and_a_row_is_read_again_when_evicted(tok, monkeypatch):
    """The states live in one cache with the project's bound (functok.cache); a row whose
    shorter ids were evicted is read from its start, with the same mask."""
    import functok.cache

    monkeypatch.setattr(functok.cache, "CACHE_LIMIT", 6)
    processor = FunctokLogitsProcessor(tok, prompt_length=1)
    c, rng = processor.constraint, random.Random(4)
    rows = [[0], [0], [0]]  # a prompt of one id, then nothing yet
    for _ in range(12):
        masks = masks_of(processor, rows, c.vocab_size)
        assert len(processor._states) <= 6
        assert masks == [c.allowed(row[1:]).allowed_ids() for row in rows]
        parents = [rng.randrange(3) for _ in rows]  # beam search: any row may grow from any
        rows = [rows[p] + [rng.choice(masks[p])] for p in parents]


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_a_bad_prompt_length_is_named(tok, bad):
    with pytest.raises(ValueError, match="prompt_length"):
        FunctokLogitsProcessor(tok, prompt_length=bad)


def test_whole_rows_skip_a_wrappers_left_padding(tok):
    """Without prompt_length, a batch left-padded with the wrapper's pad token (added after the
    vocabulary) is read from each row's first id after the padding."""
    wrapper_module = pytest.importorskip("functok.integrations.transformers")
    wrapper = wrapper_module.FunctokTokenizer(functok_tokenizer=tok)
    processor = FunctokLogitsProcessor(wrapper)
    assert wrapper.pad_token_id >= processor.constraint.vocab_size  # added: the functok ids lack it
    batch = wrapper(["ab Ab", "\u00e9"], padding=True, padding_side="left")["input_ids"]
    cap = tok.token_to_id("\ue100\ue000")
    rows = [row + [cap] for row in batch]
    masks = masks_of(processor, rows, len(wrapper))
    c = processor.constraint
    assert masks == [c.allowed([i for i in row if i != wrapper.pad_token_id]).allowed_ids() for row in rows]
