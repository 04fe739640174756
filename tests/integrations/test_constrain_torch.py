"""FunctokLogitsProcessor in ``transformers``' own ``generate``: beam search, sampling, batches.

A tiny GPT-2 built from a config (one layer, 16 dimensions, random weights, nothing
downloaded), over a functok tokenizer wrapped by ``functok.integrations.transformers``, a batch
of prompts of different lengths (left-padded with the wrapper's added pad token). A second
processor before ours pushes the eos id up, so that rows end at different steps and
``generate`` pads them. Needs torch: CI installs its CPU wheel for this file alone, in a venv
of its own (scripts/test.sh, docs/constrain.md); skipped without it.
"""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
wrapper_module = pytest.importorskip("functok.integrations.transformers")

from functok.constrain import FunctokLogitsProcessor  # noqa: E402
from fixtures.constrain_cases import ALPHABET, check_rows, train  # noqa: E402


class LikesToStop(transformers.LogitsProcessor):
    """Raises the eos id's score, and the format tokens': a model that would stop anywhere and
    writes instructions often, so that rows end at different steps, and differ in state."""

    def __init__(self, wrapper, by: float) -> None:
        self.eos, self.by = wrapper.eos_token_id, by
        self.format_ids = FunctokLogitsProcessor(wrapper).constraint.format_ids

    def __call__(self, input_ids, scores):
        scores = scores.clone()
        scores[:, self.eos] += self.by
        scores[:, self.format_ids] += 2.0
        return scores


@pytest.fixture(scope="module", params=[("<eos>",), ()], ids=["functok eos", "added eos"])
def wrapper(request):
    rng = random.Random(7)
    tok = train(["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 30))) for _ in range(150)],
                special=request.param)
    return wrapper_module.FunctokTokenizer(functok_tokenizer=tok)


class SameAsAfresh(transformers.LogitsProcessor):
    """After ours: each row's scores are -inf exactly where its ids, read afresh, forbid."""

    def __init__(self, processor) -> None:
        self.processor = processor

    def __call__(self, input_ids, scores):
        constraint, eos = self.processor.constraint, self.processor.end_token_ids
        for row, row_scores in zip(input_ids.tolist(), scores.tolist()):
            ids = row[self.processor.prompt_length:]
            if any(i in eos for i in ids):
                continue  # ended: not masked
            state = constraint.allowed(ids)
            fresh = set(state.allowed_ids()) | (set(eos) if state.end_allowed else set())
            assert {i for i, v in enumerate(row_scores) if v != float("-inf")} == fresh, ids
        return scores


def tiny_model(wrapper, seed: int):
    torch.manual_seed(seed)
    config = transformers.GPT2Config(vocab_size=len(wrapper), n_layer=1, n_embd=16, n_head=2, n_positions=128,
                                     bos_token_id=wrapper.eos_token_id, eos_token_id=wrapper.eos_token_id,
                                     pad_token_id=wrapper.pad_token_id)
    return transformers.GPT2LMHeadModel(config).eval()


def check(wrapper, processor, rows) -> int:
    """Every row after the prompt, up to its eos, decodes strictly (an unfinished one once
    ``finish`` closes it). Returns how many rows ended."""
    return check_rows(wrapper.functok, processor, rows, processor.prompt_length, wrapper.eos_token_id,
                      wrapper.pad_token_id)


@pytest.mark.parametrize("options", [dict(num_beams=3, num_return_sequences=3, do_sample=False),
                                     dict(num_beams=1, num_return_sequences=2, do_sample=True),
                                     dict(num_beams=2, num_return_sequences=2, do_sample=True)],
                         ids=["beam search", "sampling", "beam sampling"])
@pytest.mark.parametrize("seed", range(4))
def test_generate_with_the_processor(wrapper, options, seed):
    prompts = ["Hello", "ab \u00e9 AB World ABC", "x"]
    batch = wrapper(prompts, padding=True, padding_side="left", return_tensors="pt")
    length = batch["input_ids"].shape[1]
    processor = FunctokLogitsProcessor(wrapper, prompt_length=length)
    processors = transformers.LogitsProcessorList([LikesToStop(wrapper, 2.0 + seed), processor,
                                                   SameAsAfresh(processor)])
    torch.manual_seed(seed)
    out = tiny_model(wrapper, seed).generate(
        **batch, logits_processor=processors, max_new_tokens=24, pad_token_id=wrapper.pad_token_id,
        eos_token_id=wrapper.eos_token_id, **options)
    check(wrapper, processor, out.tolist())


def test_rows_end_at_different_steps(wrapper):
    """The case of item 13, in the real loop: some rows end and are padded while others go on."""
    prompts = ["Hello", "ab \u00e9 AB World ABC", "x", "AB"]
    batch = wrapper(prompts, padding=True, padding_side="left", return_tensors="pt")
    length = batch["input_ids"].shape[1]
    ended = 0
    for seed in range(6):
        processor = FunctokLogitsProcessor(wrapper, prompt_length=length)
        processors = transformers.LogitsProcessorList([LikesToStop(wrapper, 3.0), processor])
        torch.manual_seed(seed)
        out = tiny_model(wrapper, seed).generate(
            **batch, logits_processor=processors, max_new_tokens=24, do_sample=True,
            pad_token_id=wrapper.pad_token_id, eos_token_id=wrapper.eos_token_id).tolist()
        padded = [row for row in out if row[-1] == wrapper.pad_token_id]
        ended += check(wrapper, processor, out) if padded and len(padded) < len(out) else 0
    assert ended  # some batch had an ended, padded row while another row went on
