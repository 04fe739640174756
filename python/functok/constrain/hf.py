"""The ``transformers`` adapter: :class:`FunctokLogitsProcessor`.

It follows ``transformers``' ``LogitsProcessor`` protocol (called with ``input_ids`` of shape
``(batch, length)`` and ``scores`` of shape ``(batch, vocab)``, returns the scores), so it goes
into a ``LogitsProcessorList`` for ``model.generate``. It imports neither ``transformers`` nor
``torch``: a torch tensor is recognised by its methods and masked with ``masked_fill`` (torch is
imported only then), a numpy array with numpy. The constraint itself is
:class:`~functok.constrain.Constraint`, tested without torch.

A row is known by its ids, not by its place in the batch: beam search reorders the rows every
step (row r is the r-th best continuation, grown from any row of the step before), so the
state of a row is looked up by a digest of its ids, and read from the state of the same ids
one shorter (the row of the previous call it grew from), as ``transformers``' own processors
read each row afresh from its ids.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from hashlib import blake2b

from ..cache import remember
from .masks import Constraint, State
from .sampling import constraint_for, mask_bits

__all__ = ["FunctokLogitsProcessor"]

_UNSEEN = object()


class FunctokLogitsProcessor:
    """Sets to ``-inf`` the score of every id that would make the sequence undecodable.

    ``tokenizer``: a :class:`functok.Tokenizer`, a :class:`Constraint`, or a ``FunctokTokenizer``
    (``functok.integrations.transformers``; its eos token then ends the sequence).

    ``prompt_length``: the ids of each row before it are not constrained, as ``transformers``'
    processors take the prompt's length (``inputs["input_ids"].shape[1]``: the prompts of a
    batch padded to one length). None: the whole row is, prompt included, which must then be a
    valid beginning; ids at the start of a row that end the sequence are left padding, skipped.

    ``end_token_ids``: ids that end the sequence (the constraint's eos, and a wrapper's eos, are
    among them), allowed where the sequence may end; they may lie outside the functok vocabulary
    (a wrapper's added eos token). Once a row has read one, it has ended: ``generate`` pads it,
    and nothing after the end is masked.
    """

    def __init__(self, tokenizer, *, prompt_length: int | None = None, mode: str = "exact",
                 end_token_ids: Iterable[int] = ()) -> None:
        end_token_ids = tuple(end_token_ids)
        inner = getattr(tokenizer, "functok", None)  # a FunctokTokenizer (functok.integrations.transformers)
        if inner is not None and hasattr(inner, "token_table"):
            eos = getattr(tokenizer, "eos_token_id", None)
            if eos is not None:
                end_token_ids += (eos,)  # the wrapper's eos: functok's own, or one added after the vocabulary
            tokenizer = inner
        self.constraint: Constraint = constraint_for(tokenizer, mode)
        if self.constraint.eos_token_id is not None:
            end_token_ids += (self.constraint.eos_token_id,)
        self.prompt_length = prompt_length
        self.end_token_ids = tuple(dict.fromkeys(end_token_ids))
        self._ends = frozenset(self.end_token_ids)
        # digest of the ids a row has read -> its state (None: the row has ended), cache.py's bound
        self._states: dict[bytes, State | None] = {}

    def read_ids(self, ids: list[int]) -> list[int]:
        """The ids of a row that the constraint reads: after the prompt, or after left padding."""
        if self.prompt_length is not None:
            return ids[self.prompt_length:]
        skip = 0
        while skip < len(ids) and ids[skip] in self._ends:
            skip += 1
        return ids[skip:]

    def state(self, ids: list[int]) -> State | None:
        """The state of a row after ``ids`` (all its ids so far), or None once it has ended.

        Found by the digest of the ids read; else stepped from the state of the ids one shorter
        (a row of the previous call); else read from the start. Raises
        :class:`~functok.constrain.DisallowedTokenError` for an id its mask did not allow.
        """
        read = self.read_ids(ids)
        digest = blake2b(array("q", read[:-1]).tobytes(), digest_size=16)
        shorter = digest.copy().digest()
        digest.update(array("q", read[-1:]).tobytes())
        key = digest.digest()
        state = self._states.get(key, _UNSEEN)
        if state is not _UNSEEN:
            return state
        before = self._states.get(shorter, _UNSEEN) if read else _UNSEEN
        if before is _UNSEEN:
            state = self.constraint.start()
            for i in read:
                state = self._step(state, i)
        else:
            state = self._step(before, read[-1])
        # Kept without its mask (a vocabulary's worth of bits): the next call steps from it.
        remember(self._states, key, None if state is None else State(self.constraint, state.cursor, state.length))
        return state

    def _step(self, state: State | None, id: int) -> State | None:
        """The state after ``id``: None (ended) after an end id where the end is allowed, and
        for ever after."""
        if state is None or (id in self._ends and state.end_allowed):
            return None
        return state.advance(id)

    def allowed(self, ids: list[int], width: int):
        """A numpy bool array of ``width``: the ids allowed next in a row after ``ids``."""
        import numpy as np

        state = self.state(ids)
        if state is None:
            return np.ones(width, dtype=bool)  # ended: generate pads it, whatever the scores say
        size = self.constraint.vocab_size
        bits = mask_bits(np, state)
        out = np.zeros(width, dtype=bool)
        out[: min(width, size)] = bits[:width].astype(bool)
        if state.end_allowed:
            for i in self.end_token_ids:  # a wrapper's, outside the functok vocabulary
                if 0 <= i < width:
                    out[i] = True
        return out

    def __call__(self, input_ids, scores):
        import numpy as np

        rows = input_ids.tolist()
        width = scores.shape[-1]
        allowed = np.stack([self.allowed(ids, width) for ids in rows])
        if hasattr(scores, "masked_fill"):  # a torch tensor: import torch only now
            import torch

            blocked = torch.from_numpy(~allowed).to(scores.device)
            return scores.masked_fill(blocked, float("-inf"))
        out = np.array(scores, copy=True)
        out[~allowed] = -np.inf
        return out
