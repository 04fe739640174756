"""The ``transformers`` adapter: :class:`FunctokLogitsProcessor`.

It follows ``transformers``' ``LogitsProcessor`` protocol (called with ``input_ids`` of shape
``(batch, length)`` and ``scores`` of shape ``(batch, vocab)``, returns the scores), so it goes
into a ``LogitsProcessorList`` for ``model.generate``. It imports neither ``transformers`` nor
``torch``: a torch tensor is recognised by its methods and masked with ``masked_fill`` (torch is
imported only then), a numpy array with numpy. The constraint itself is
:class:`~functok.constrain.Constraint`, tested without torch.
"""

from __future__ import annotations

from collections.abc import Iterable

from .masks import Constraint, State
from .sampling import constraint_for, mask_bits

__all__ = ["FunctokLogitsProcessor"]


class FunctokLogitsProcessor:
    """Sets to ``-inf`` the score of every id that would make the sequence undecodable.

    ``tokenizer``: a :class:`functok.Tokenizer`, a :class:`Constraint`, or a ``FunctokTokenizer``
    (``functok.integrations.transformers``; its eos token then ends the sequence). ``prompt_length``:
    the ids of each row before it are not constrained (None: the whole row is, prompt included,
    which must then be a valid beginning). ``end_token_ids``: ids outside the functok vocabulary
    that end the sequence (a wrapper's added eos token), allowed where the sequence may end.
    Rows are followed incrementally: each call reads only the ids added since the last one.
    """

    def __init__(self, tokenizer, *, prompt_length: int | None = None, mode: str = "exact",
                 end_token_ids: Iterable[int] = ()) -> None:
        end_token_ids = tuple(end_token_ids)
        inner = getattr(tokenizer, "functok", None)  # a FunctokTokenizer (functok.integrations.transformers)
        if inner is not None and hasattr(inner, "token_table"):
            eos = getattr(tokenizer, "eos_token_id", None)
            if eos is not None and inner.id_to_token(eos) is None:
                end_token_ids += (eos,)  # the wrapper's own eos, added after the vocabulary
            tokenizer = inner
        self.constraint: Constraint = constraint_for(tokenizer, mode)
        self.prompt_length = prompt_length
        self.end_token_ids = end_token_ids
        self._rows: dict[int, tuple[int, State]] = {}  # row -> (ids read, state)

    def state(self, row: int, ids: list[int]) -> State:
        """The state of ``row`` after ``ids`` (its ids so far), read incrementally."""
        start = self.prompt_length or 0
        read, state = self._rows.get(row, (start, None))
        if state is None or read > len(ids):
            read, state = start, self.constraint.start()
        for i in ids[read:]:
            state = state.advance(i)
        self._rows[row] = (len(ids), state)
        return state

    def allowed(self, row: int, ids: list[int], width: int):
        """A numpy bool array of ``width``: the ids allowed next in ``row``."""
        import numpy as np

        state = self.state(row, ids)
        size = self.constraint.vocab_size
        bits = mask_bits(np, state)
        out = np.zeros(width, dtype=bool)
        out[: min(width, size)] = bits[:width].astype(bool)
        if state.end_allowed:
            for i in self.end_token_ids:
                if i < width:
                    out[i] = True
        return out

    def __call__(self, input_ids, scores):
        import numpy as np

        rows = input_ids.tolist()
        width = scores.shape[-1]
        allowed = np.stack([self.allowed(r, ids, width) for r, ids in enumerate(rows)])
        if hasattr(scores, "masked_fill"):  # a torch tensor: import torch only now
            import torch

            blocked = torch.from_numpy(~allowed).to(scores.device)
            return scores.masked_fill(blocked, float("-inf"))
        out = np.array(scores, copy=True)
        out[~allowed] = -np.inf
        return out
