"""The scale study, one command: tokenize the pack's corpora (every core, functok's C core), then
train and score a GPT per cell (size x seed x corpus x variant, in that priority), one result
file per cell, stopping before a cell that would not fit the time budget.

    python research/scale/run.py --pack research/scale/pack --out "$OUT" --check          # environment + one short cell
    python research/scale/run.py --pack research/scale/pack --out "$OUT" --time-budget 480
    python research/scale/run.py --pack /tmp/tiny-pack --out /tmp/tiny-out --device cpu --tiny   # the same path, minutes

Each cell: random windows of the training stream (a seeded generator), AdamW, linear warm-up
then linear decay to zero at the last step, ``--train-tokens`` tokens (the same for every
variant: equal tokens, as research/downstream's grid), scored once at the end in bits per UTF-8
byte of the held-out documents (every token but the document separators).
"""

from __future__ import annotations

import argparse
import json
import lzma
import math
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import streams  # noqa: E402
from gpt import GPT, SIZES, non_embedding_parameters  # noqa: E402

TRAIN = {"tokens": 50_000_000, "batch": 32, "lr": {"25m": 1e-3, "50m": 8e-4, "100m": 6e-4, "tiny": 3e-3},
         "warmup": 0.05, "weight_decay": 0.1, "clip": 1.0}
TINY_TOKENS = 16_384  # 8 steps of 32 x 64: the path, in seconds
CHECK_TOKENS = 2_000_000  # --check's short cell
CORPORA = ("code", "udhr", "prose")


def read_xz(path: Path):
    return json.loads(lzma.decompress(path.read_bytes()))


def environment(device: str) -> dict:
    import functok

    env = {"python": platform.python_version(), "torch": torch.__version__, "device": device,
           "cores": os.cpu_count(), "functok": functok.__version__, "functok_core": streams.backend()}
    if device == "cuda":
        env.update(gpu=torch.cuda.get_device_name(), gpu_memory_gib=round(torch.cuda.get_device_properties(0).total_memory / 2**30, 1))
    try:
        env["commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True).stdout.strip()
    except OSError:
        env["commit"] = ""
    return env


class Streams:
    """Token streams by (corpus, variant, part), kept in ``cache``. ``prefetch`` makes them in
    a background thread, in the order the cells need them, so that tokenizing (on the CPU cores)
    overlaps training (on the GPU)."""

    def __init__(self, pack: Path, cache: Path, workers: int | None) -> None:
        self.pack, self.cache, self.workers = pack, cache, workers
        self.manifest = json.loads((pack / "manifest.json").read_text())
        self.budget = self.manifest["budget"]
        self.seconds: dict[str, float] = {}
        self._background = ThreadPoolExecutor(1)
        self._made: dict[str, Future] = {}

    def prefetch(self, corpus: str, key: str, part: str) -> None:
        name = f"{corpus}.{key}.{part}"
        if name not in self._made:
            self._made[name] = self._background.submit(self._make, corpus, key, part)

    def get(self, corpus: str, key: str, part: str) -> np.ndarray:
        self.prefetch(corpus, key, part)
        return np.load(self._made[f"{corpus}.{key}.{part}"].result())

    def close(self) -> None:
        self._background.shutdown(wait=False, cancel_futures=True)

    def _make(self, corpus: str, key: str, part: str) -> Path:
        path = self.cache / f"{corpus}.{key}.{part}.npy"
        if not path.exists():
            started = time.monotonic()
            model = read_xz(self.pack / "tokenizers" / f"{corpus}.{key}.json.xz")
            docs = read_xz(self.pack / f"{corpus}.{part}.json.xz")
            ids = streams.stream(key, model, docs, self.budget, self.workers)
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(path, ids)
            self.seconds[path.stem] = round(time.monotonic() - started, 1)
            print(f"  tokenized {corpus} {key} {part}: {len(ids):,} tokens ({self.seconds[path.stem]} s)", flush=True)
        return path


def _lr(step: int, steps: int, peak: float, warmup: int) -> float:
    return peak * min(step / warmup, (steps - step + 1) / max(1, steps - warmup + 1))


@torch.no_grad()
def score(model: GPT, ids: torch.Tensor, separator: int, context: int, nbytes: int, autocast) -> float:
    """Bits per UTF-8 byte: the summed loss of every token that is not a separator."""
    model.eval()
    total = 0.0
    n = (len(ids) - 1) // context * context
    x, y = ids[:n].view(-1, context), ids[1:n + 1].view(-1, context)
    for k in range(0, len(x), 16):
        with autocast:
            logits = model(x[k:k + 16])
        loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), y[k:k + 16].reshape(-1), reduction="none")
        total += loss[y[k:k + 16].reshape(-1) != separator].double().sum().item()
    tail = ids[n:]  # the last partial window
    if len(tail) > 1:
        with autocast:
            logits = model(tail[None, :-1])[0]
        loss = F.cross_entropy(logits.float(), tail[1:], reduction="none")
        total += loss[tail[1:] != separator].double().sum().item()
    model.train()
    return total / math.log(2) / nbytes


def run_cell(train_ids: np.ndarray, eval_ids: np.ndarray, eval_bytes: int, budget: int, size: str, seed: int,
             tokens: int, device: str, compile_it: bool) -> dict:
    shape = SIZES[size]
    context, batch = shape["context"], TRAIN["batch"]
    steps = max(1, tokens // (batch * context))
    warmup = max(1, round(TRAIN["warmup"] * steps))
    torch.manual_seed(seed)
    gen = torch.Generator(device=device).manual_seed(seed)
    model = GPT(budget + 1, **shape).to(device)
    run = torch.compile(model) if compile_it else model
    peak = TRAIN["lr"][size]
    opt = torch.optim.AdamW(model.parameters(), lr=peak, betas=(0.9, 0.95), weight_decay=TRAIN["weight_decay"],
                            fused=device == "cuda")
    autocast = torch.autocast("cuda", dtype=torch.bfloat16) if device == "cuda" else torch.autocast("cpu", enabled=False)
    stream = torch.from_numpy(train_ids.astype(np.int64)).to(device)
    offsets = torch.arange(context + 1, device=device)
    curve = []
    if device == "cuda":
        torch.cuda.synchronize()
    started = time.monotonic()
    for step in range(1, steps + 1):
        for g in opt.param_groups:
            g["lr"] = _lr(step, steps, peak, warmup)
        starts = torch.randint(0, len(stream) - context - 1, (batch, 1), generator=gen, device=device)
        rows = stream[starts + offsets]
        with autocast:
            logits = run(rows[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, budget + 1), rows[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), TRAIN["clip"])
        opt.step()
        if step % max(1, steps // 50) == 0 or step == steps:
            curve.append([step, round(loss.item(), 4)])
    if device == "cuda":
        torch.cuda.synchronize()
    trained = time.monotonic() - started
    evaluation = torch.from_numpy(eval_ids.astype(np.int64)).to(device)
    bpb = score(model, evaluation, budget, context, eval_bytes, autocast)
    return {"size": size, "shape": shape, "parameters": sum(p.numel() for p in model.parameters()),
            "non_embedding_parameters": non_embedding_parameters(model), "seed": seed, "steps": steps,
            "train_tokens": steps * batch * context, "train_stream_tokens": len(train_ids),
            "epochs": round(steps * batch * context / len(train_ids), 3), "eval_tokens": len(eval_ids),
            "eval_bytes": eval_bytes, "bits_per_byte": bpb, "train_seconds": round(trained, 1),
            "tokens_per_second": round(steps * batch * context / trained), "curve": curve,
            "optimizer": {k: v for k, v in TRAIN.items() if k != "tokens"} | {"lr": peak, "warmup_steps": warmup},
            "compiled": compile_it}


def cells(args) -> list[tuple[str, int, str, str]]:
    out = [(size, seed, corpus, key) for size in args.sizes for seed in args.seeds for corpus in args.corpora
           for key in args.variants]
    return out[:1] if args.check else out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", type=Path, default=HERE / "pack")
    parser.add_argument("--out", type=Path, required=True, help="one result file per cell, and environment.json")
    parser.add_argument("--cache", type=Path, default=HERE / "cache" / "streams",
                        help="token streams, kept between runs (an ignored folder: a warm machine keeps it)")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--tiny", action="store_true", help="the tiny GPT and a few thousand tokens: the path, not the answer")
    parser.add_argument("--check", action="store_true", help="the environment and one short cell")
    parser.add_argument("--sizes", nargs="*", default=["25m"], choices=[s for s in SIZES if s != "tiny"])
    parser.add_argument("--seeds", nargs="*", type=int, default=[0])
    parser.add_argument("--corpora", nargs="*", default=list(CORPORA), choices=CORPORA)
    parser.add_argument("--variants", nargs="*", default=list(streams.VARIANTS), choices=streams.VARIANTS)
    parser.add_argument("--train-tokens", type=int, help=f"per cell ({TRAIN['tokens']:,} by default)")
    parser.add_argument("--time-budget", type=float, help="seconds: no cell starts that would end past it")
    parser.add_argument("--workers", type=int, help="tokenizing processes (default: every core but one, which feeds the GPU)")
    parser.add_argument("--compile", action="store_true", help="torch.compile the model (not measured yet)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.tiny:
        args.sizes = ["tiny"]
    tokens = args.train_tokens or (TINY_TOKENS if args.tiny else CHECK_TOKENS if args.check else TRAIN["tokens"])
    if args.device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    args.out.mkdir(parents=True, exist_ok=True)
    env = environment(args.device)
    env["pack_commit"] = json.loads((args.pack / "manifest.json").read_text()).get("commit")
    (args.out / "environment.json").write_text(json.dumps(env, indent=1) + "\n")
    print("environment:", json.dumps(env), flush=True)
    data = Streams(args.pack, args.cache / ("tiny" if args.tiny else "full"), args.workers)
    args.corpora = [c for c in args.corpora if c in data.manifest["corpora"]]
    per_token = None  # seconds per training token, measured on the first cell
    todo = cells(args)
    for _, _, corpus, key in todo:
        for part in ("eval", "train"):
            data.prefetch(corpus, key, part)
    for size, seed, corpus, key in todo:
        path = args.out / f"{size}.{corpus}.{key}.seed{seed}.json"
        if path.exists():
            continue
        train_ids, eval_ids = data.get(corpus, key, "train"), data.get(corpus, key, "eval")
        if args.time_budget and per_token is not None:
            left = args.time_budget - (time.monotonic() - started)
            if per_token * tokens * 1.15 > left:
                print(f"stop: {left:.0f} s left, a cell takes about {per_token * tokens:.0f} s", flush=True)
                break
        result = run_cell(train_ids, eval_ids, data.manifest["corpora"][corpus]["eval_bytes"], data.budget, size,
                          seed, tokens, args.device, args.compile)
        per_token = result["train_seconds"] / result["train_tokens"]
        result.update(corpus=corpus, variant=key, budget=data.budget, environment=env,
                      tokenize_seconds={k: v for k, v in data.seconds.items() if k.startswith(f"{corpus}.{key}.")})
        path.write_text(json.dumps(result, indent=1) + "\n")
        print(f"{size} {corpus} {key} seed {seed}: {result['bits_per_byte']:.4f} bits/byte, {result['train_tokens']:,} "
              f"tokens ({result['epochs']} epochs) in {result['train_seconds']} s, {result['tokens_per_second']:,} tokens/s",
              flush=True)
    data.close()
    print(f"done in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
