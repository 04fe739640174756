"""How many threads torch should use for the study's cells on this machine: 40 training steps
of the study's model (random ids, the 8,001-entry vocabulary) at 1 and 2 threads, alternating,
milliseconds per step. Not a score: the cells run a fixed number of steps whatever their speed.

    cd research/downstream && nice -n 19 ../../.venv-torch/bin/python bench_threads.py
"""

import time

import torch
import torch.nn.functional as F

from model import GPT, SHAPE
V = 8001
def bench(n, steps=40):
    torch.set_num_threads(n)
    torch.manual_seed(0)
    m = GPT(V, **SHAPE); opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    x = torch.randint(0, V, (8, 128)); y = torch.randint(0, V, (8, 128))
    t = time.monotonic()
    for _ in range(steps):
        loss = F.cross_entropy(m(x).reshape(-1, V), y.reshape(-1)); opt.zero_grad(); loss.backward(); opt.step()
    return (time.monotonic() - t) / steps
for n in (1, 2, 1, 2):
    print(n, f"{bench(n)*1000:.1f} ms/step", flush=True)
