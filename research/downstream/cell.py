"""One (protocol, variant, seed) cell: train the fixed GPT, score it on the held-out text.

Training: random windows of the training stream (a seeded generator), AdamW, a linear warm-up
then a linear decay to zero at the run's last step, scored once at the end. A run is one of:

* **equal tokens** (the grid's cell): TRAIN_TOKENS tokens, the same for every variant;
* **equal bytes**: the tokens that cover the UTF-8 bytes the baseline covers in TRAIN_TOKENS
  tokens (TRAIN_TOKENS x the baseline's bytes/token / the variant's bytes/token), its own run
  with its own decay. run_grid.py makes it only where that differs from TRAIN_TOKENS by more
  than SAME_BYTES; otherwise the equal-tokens run stands for it.

(A first version kept the learning rate constant and scored one run at both points: 7 steps
apart, the same run's score moved by up to 6%, more than any difference between tokenizers; see
FINDINGS.md.)

Scoring: the evaluation stream cut into non-overlapping windows of the context length; every
token predicted from the tokens before it in its window. Bits per UTF-8 byte = the summed loss
(nats / ln 2) of every token that is not a document separator / the evaluation text's UTF-8
bytes. The loss is also summed by token kind (kinds.py) and by unit class (prepare.py).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import torch
import torch.nn.functional as F

from model import GPT, SHAPE

TRAIN_TOKENS = 655_360  # 640 steps of 8 x 128 tokens
BATCH = 8
LR, WARMUP, WEIGHT_DECAY, CLIP = 2e-3, 40, 0.1, 1.0
SAME_BYTES = 0.01  # an equal-bytes run differing from the equal-tokens run by less is not made


def _batch(stream: torch.Tensor, gen: torch.Generator, context: int) -> tuple[torch.Tensor, torch.Tensor]:
    starts = torch.randint(0, len(stream) - context - 1, (BATCH,), generator=gen)
    rows = torch.stack([stream[s:s + context + 1] for s in starts.tolist()]).long()
    return rows[:, :-1], rows[:, 1:]


@torch.no_grad()
def score(model: GPT, data: dict, meta: dict) -> dict:
    model.eval()
    ids, kind, cls = data["eval"].long(), data["eval_kind"].long(), data["eval_class"].long()
    context = SHAPE["context"]
    by_kind = torch.zeros(len(meta["kinds"]), dtype=torch.float64)
    kind_n = torch.zeros(len(meta["kinds"]), dtype=torch.long)
    by_class = torch.zeros(len(meta["classes"]), dtype=torch.float64)
    total = 0.0
    for s in range(0, len(ids) - 1, context):
        x, y = ids[s:s + context], ids[s + 1:s + context + 1]
        x = x[:len(y)]
        loss = F.cross_entropy(model(x[None])[0], y, reduction="none").double()
        k, c = kind[s + 1:s + 1 + len(y)], cls[s + 1:s + 1 + len(y)]
        real = c >= 0  # not a separator
        total += loss[real].sum().item()
        by_kind.index_add_(0, k[real], loss[real])
        kind_n.index_add_(0, k[real], torch.ones_like(k[real]))
        by_class.index_add_(0, c[real], loss[real])
    model.train()
    ln2, nbytes = math.log(2), meta["eval_bytes"]
    return {
        "bits_per_byte": total / ln2 / nbytes,
        "bits": total / ln2,
        "by_kind": {name: {"tokens": int(kind_n[i]), "bits": by_kind[i].item() / ln2,
                           "bits_per_byte": by_kind[i].item() / ln2 / nbytes}
                    for i, name in enumerate(meta["kinds"]) if kind_n[i]},
        "by_class": {name: {"bits": by_class[i].item() / ln2, "bytes": meta["class_bytes"][name],
                            "bits_per_byte": by_class[i].item() / ln2 / meta["class_bytes"][name]}
                     for i, name in enumerate(meta["classes"]) if meta["class_bytes"].get(name)},
    }


def bytes_ratio(meta: dict, variant: str) -> float:
    """The variant's tokens per training byte against the baseline's."""
    return meta["variants"]["baseline"]["train_bytes_per_token"] / meta["variants"][variant]["train_bytes_per_token"]


def run_cell(cache: Path, variant: str, seed: int, point: str = "equal_tokens", scale: int = 1) -> dict:
    """One cell; ``scale`` multiplies the training tokens (the follow-ups' learning curve: 2x, 4x),
    with the same warm-up and a decay to zero at the longer run's last step."""
    torch.set_num_threads(1)
    meta = json.loads((cache / "meta.json").read_text())
    data = torch.load(cache / f"{variant}.pt")
    ratio = bytes_ratio(meta, variant)
    step_tokens = BATCH * SHAPE["context"]
    target = TRAIN_TOKENS * scale
    steps = target // step_tokens if point == "equal_tokens" else round(target * ratio / step_tokens)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = GPT(meta["budget"] + 1, **SHAPE)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, betas=(0.9, 0.95), weight_decay=WEIGHT_DECAY)
    started = time.monotonic()
    curve = []
    for step in range(1, steps + 1):
        for g in opt.param_groups:
            g["lr"] = LR * min(step / WARMUP, (steps - step + 1) / (steps - WARMUP + 1))
        x, y = _batch(data["train"], gen, SHAPE["context"])
        loss = F.cross_entropy(model(x).reshape(-1, meta["budget"] + 1), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        opt.step()
        if step % 40 == 0:
            curve.append([step, round(loss.item(), 4)])
    scored = dict(score(model, data, meta), step=steps, train_tokens=steps * step_tokens,
                  train_bytes=steps * step_tokens * meta["variants"][variant]["train_bytes_per_token"])
    return {"protocol": meta["protocol"], "variant": variant, "seed": seed, "point": point, "shape": SHAPE,
            "parameters": sum(p.numel() for p in model.parameters()),
            "optimizer": {"lr": LR, "warmup": WARMUP, "weight_decay": WEIGHT_DECAY, "clip": CLIP, "batch": BATCH,
                          "schedule": "linear warm-up, then linear decay to 0 at the last step"},
            "train_tokens_target": target, "train_scale": scale, "bytes_ratio": ratio, point: scored,
            "curve": curve, "seconds": round(time.monotonic() - started, 1)}
