"""The scale study's GPT: pre-norm blocks, causal attention through torch's
``scaled_dot_product_attention`` (flash kernels on a GPU), GELU MLP, learned positions, output
layer tied to the embedding. Every variant at a budget gets the same vocabulary (budget + the
document separator), so the same parameter count.

SIZES names the shapes; the name is the non-embedding parameter count (12 x layers x width^2).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

SIZES = {
    "tiny": {"layers": 2, "width": 64, "heads": 2, "context": 64},  # --tiny: the same code path on a CPU
    "25m": {"layers": 8, "width": 512, "heads": 8, "context": 1024},
    "50m": {"layers": 8, "width": 704, "heads": 11, "context": 1024},
    "100m": {"layers": 12, "width": 832, "heads": 13, "context": 1024},
}


class Block(nn.Module):
    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        b, n, w = h.shape
        q, k, v = self.qkv(self.norm1(h)).view(b, n, 3, self.heads, w // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        h = h + self.proj(a.transpose(1, 2).reshape(b, n, w))
        return h + self.mlp(self.norm2(h))


class GPT(nn.Module):
    def __init__(self, vocab: int, layers: int, width: int, heads: int, context: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Embedding(context, width)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(width)
        for p in self.parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.02)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.embed(ids) + self.position.weight[:ids.shape[1]]
        for block in self.blocks:
            h = block(h)
        return self.norm(h) @ self.embed.weight.T


def non_embedding_parameters(model: GPT) -> int:
    return sum(p.numel() for name, p in model.named_parameters() if not name.startswith(("embed", "position")))
