"""The scale study's tokenizers (trained at prepare time, as ``functok compare`` trains its
equal-budget rows) and token streams (made at run time, on every core, through functok's C core
where the installed functok has it).

Variants: ``baseline`` (NFC + paper splitter), ``paper_split`` and ``compact_frequent`` (rows
of compare's table) and ``inline_case`` (research/downstream/variants.py's capcode-like
stream). A stream is every document's greedy ids, each followed by the separator id (the budget).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from functok.commands.compare import budgets
from functok.tokenizer.tokenizer_file import with_byte_tokens
from functok.tokenizer.fusion import ChainCounter, add_fusion_merges, greedy_tokens

sys.path.append(str(Path(__file__).resolve().parent.parent / "downstream"))  # after scale/: its names win
import variants as research_variants  # noqa: E402  (inline_case: research's own pre-tokenizer)

SPLITTER = "paper"
VARIANTS = ("baseline", "compact_frequent", "paper_split", "inline_case")


def _row(key: str):
    if key in research_variants.VARIANTS:
        return research_variants.VARIANTS[key]
    return next(v for v in budgets.BUDGET_VARIANTS if v.key == key)


def pretokenize(key: str):
    return _row(key).pretokenize(SPLITTER)


def _count(key: str, texts: list[str], chains: ChainCounter | None = None) -> Counter:
    return budgets.pretoken_counts(_row(key), SPLITTER, texts, chains)


def train(key: str, texts: list[str], budget: int) -> dict:
    """The variant's tokenizer at ``budget`` (a tokenizer.json dict without the byte tokens)."""
    if key == "compact_frequent":  # compare's rule: the compact split training plus fusion merges
        chains = ChainCounter()
        counts = _count("compact_split", texts, chains)
        fused = add_fusion_merges(budgets.train_at_budget(counts, budget), counts, chains.chains, budget)
        if budgets.size(fused) < budget:
            raise ValueError(f"{key}: the merges ran out before {budget:,} entries")
        return fused
    counts = _count(key, texts)
    return budgets.truncate(budgets.train_at_budget(counts, budget), budget)


_WORKER: dict = {}


def _init(key: str, model: dict) -> None:
    _WORKER.update(make=pretokenize(key), model=model,
                   vocab=with_byte_tokens(model, [])["model"]["vocab"])


def _ids(docs: list[str]) -> list[np.ndarray]:
    make, model, vocab = _WORKER["make"], _WORKER["model"], _WORKER["vocab"]
    pre = [make(d) for d in docs]
    tokens = greedy_tokens(model, {p for doc in pre for p in doc})
    return [np.array([vocab[t] for p in doc for t in tokens[p]], dtype=np.int32) for doc in pre]


def _context():
    """fork (cheap) unless this process holds a CUDA context, which a forked child must not
    inherit: then spawn (each worker imports its modules again, a few seconds)."""
    torch = sys.modules.get("torch")
    return multiprocessing.get_context("spawn" if torch is not None and torch.cuda.is_initialized() else "fork")


def stream(key: str, model: dict, docs: list[str], budget: int, workers: int | None = None) -> np.ndarray:
    """The documents' ids joined, each followed by the separator (id ``budget``), made on
    ``workers`` processes (default: every core but one)."""
    workers = workers or max(1, (os.cpu_count() or 2) - 1)
    chunk = max(1, len(docs) // (workers * 8))
    parts = [docs[k:k + chunk] for k in range(0, len(docs), chunk)]
    out: list[np.ndarray] = []
    separator = np.array([budget], dtype=np.int32)
    with ProcessPoolExecutor(workers, mp_context=_context(), initializer=_init, initargs=(key, model)) as pool:
        for ids in pool.map(_ids, parts):
            for doc in ids:
                out.extend((doc, separator))
    dtype = np.uint16 if budget < 2**16 else np.int32
    return np.concatenate(out).astype(dtype) if out else np.zeros(0, dtype)


def backend() -> str:
    """Which functok core makes the pre-tokens: "native" (the C core) or "python"."""
    import functok

    return functok.backend() if callable(functok.backend) else str(functok.backend)


def text_of(key: str, model: dict, ids: np.ndarray) -> str:
    """The text a stream of one document stands for (the check that a stream is lossless): the
    tokens' strings joined (byte-fallback runs decoded as UTF-8), then the variant's decoder."""
    import functok

    strings = {i: t for t, i in with_byte_tokens(model, [])["model"]["vocab"].items()}
    out, pending = [], bytearray()
    for i in ids.tolist():
        t = strings[i]
        if len(t) == 6 and t.startswith("<0x") and t.endswith(">"):
            pending.append(int(t[3:5], 16))
            continue
        if pending:
            out.append(pending.decode("utf-8"))
            pending.clear()
        out.append(t)
    if pending:
        out.append(pending.decode("utf-8"))
    stream_text = "".join(out)
    if key == "baseline":
        return stream_text
    if key == "inline_case":
        return research_variants.decode_inline(stream_text)
    return functok.decode(stream_text)
