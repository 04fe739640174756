"""The fixed small GPT of the study: the same shape for every variant at a budget.

A pre-norm causal transformer (torch's TransformerEncoderLayer with a causal mask), learned
positions, the output layer tied to the embedding. Every variant gets the same vocabulary size
(the budget plus the document separator), so the parameter count is identical.
"""

from __future__ import annotations

import torch
from torch import nn

SHAPE = {"layers": 2, "width": 128, "heads": 4, "context": 128}


class GPT(nn.Module):
    def __init__(self, vocab: int, layers: int, width: int, heads: int, context: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Embedding(context, width)
        layer = nn.TransformerEncoderLayer(width, heads, 4 * width, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(width)
        nn.init.normal_(self.embed.weight, std=0.02)
        nn.init.normal_(self.position.weight, std=0.02)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        n = ids.shape[1]
        h = self.embed(ids) + self.position.weight[:n]
        mask = nn.Transformer.generate_square_subsequent_mask(n)
        h = self.blocks(h, mask=mask, is_causal=True)
        return self.norm(h) @ self.embed.weight.T
