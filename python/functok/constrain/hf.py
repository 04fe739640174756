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

from collections.abc import Iterable
from hashlib import sha256

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
    valid beginning; ids at the start of a row that end the sequence (or a wrapper's pad id) are
    left padding, skipped.

    ``end_token_ids``: ids that end the sequence (the constraint's eos, and a wrapper's eos, are
    among them), allowed where the sequence may end; they may lie outside the functok vocabulary
    (a wrapper's added eos token). Once a row has read one, it has ended: ``generate`` pads it,
    and nothing after the end is masked.
    """

    def __init__(self, tokenizer, *, prompt_length: int | None = None, mode: str = "exact",
                 end_token_ids: Iterable[int] = ()) -> None:
        if prompt_length is not None and (not isinstance(prompt_length, int) or isinstance(prompt_length, bool)
                                          or prompt_length < 0):
            raise ValueError(f"prompt_length must be None or an integer >= 0, not {prompt_length!r}")
        end_token_ids, padding = tuple(end_token_ids), ()
        inner = getattr(tokenizer, "functok", None)  # a FunctokTokenizer (functok.integrations.transformers)
        if inner is not None and hasattr(inner, "token_table"):
            eos = getattr(tokenizer, "eos_token_id", None)
            if eos is not None:
                end_token_ids += (eos,)  # the wrapper's eos: functok's own, or one added after the vocabulary
            if getattr(tokenizer, "pad_token_id", None) is not None:
                padding = (tokenizer.pad_token_id,)
            tokenizer = inner
        self.constraint: Constraint = constraint_for(tokenizer, mode)
        if self.constraint.eos_token_id is not None:
            end_token_ids += (self.constraint.eos_token_id,)
        self.prompt_length = prompt_length
        self.end_token_ids = tuple(dict.fromkeys(end_token_ids))
        self._ends = frozenset(self.end_token_ids)
        self._padding = self._ends | frozenset(padding)  # what left padding may be made of
        # digest of the ids a row has read -> its state (None: the row has ended), cache.py's bound
        self._states: dict[bytes, State | None] = {}

    def read_ids(self, ids):
        """The ids of a row that the constraint reads (an int64 numpy array): after the prompt,
        or after the left padding (leading end or pad ids) when there is no ``prompt_length``."""
        import numpy as np

        row = np.ascontiguousarray(ids, dtype=np.int64)
        if self.prompt_length is not None:
            return row[self.prompt_length:]
        skip = 0
        while skip < row.size and int(row[skip]) in self._padding:
            skip += 1
        return row[skip:]

    def state(self, ids) -> State | None:
        """The state of a row after ``ids`` (all its ids so far), or None once it has ended.

        Found by the digest of the ids read; else stepped from the state of the ids one shorter
        (a row of the previous call); else read from the start. Raises
        :class:`~functok.constrain.DisallowedTokenError` for an id its mask did not allow (its
        ``index`` counts from the first id read).
        """
        read = self.read_ids(ids)
        digest = sha256(read[:-1])  # the int64s' bytes (no Python ints made); SHA-256 is the fastest here
        shorter = digest.copy().digest()
        digest.update(read[-1:])
        key = digest.digest()
        state = self._states.get(key, _UNSEEN)
        if state is not _UNSEEN:
            return state
        before = self._states.get(shorter, _UNSEEN) if read.size else _UNSEEN
        if before is _UNSEEN:
            state = self.constraint.start()
            for i in read.tolist():
                state = self._step(state, i)
        else:
            state = self._step(before, int(read[-1]))
        # Kept without its mask (a vocabulary's worth of bits): the next call steps from it.
        remember(self._states, key, None if state is None else State(self.constraint, state.cursor, state.length))
        return state

    def _step(self, state: State | None, id: int) -> State | None:
        """The state after ``id``: None (ended) after an end id where the end is allowed, and
        for ever after."""
        if state is None or (id in self._ends and state.end_allowed):
            return None
        return state.advance(id)

    def allowed(self, ids, width: int):
        """A numpy bool array of ``width``: the ids allowed next in a row after ``ids``."""
        import numpy as np

        out = np.empty(width, dtype=bool)
        self._fill(out, ids)
        return out

    def _fill(self, out, ids) -> None:
        """Set ``out`` (a bool row of the model's width) to the ids allowed after ``ids``."""
        import numpy as np

        state = self.state(ids)
        if state is None:
            out[:] = True  # ended: generate pads it, whatever the scores say
            return
        width, size = out.size, self.constraint.vocab_size
        out[: min(width, size)] = mask_bits(np, state)[:width]  # 0s and 1s, cast to bool
        out[size:] = False
        if state.end_allowed:
            for i in self.end_token_ids:  # a wrapper's, outside the functok vocabulary
                if 0 <= i < width:
                    out[i] = True

    def __call__(self, input_ids, scores):
        import numpy as np

        rows = np.asarray(input_ids.cpu() if hasattr(input_ids, "cpu") else input_ids, dtype=np.int64)
        width = scores.shape[-1]
        allowed = np.empty((len(rows), width), dtype=bool)
        for out, ids in zip(allowed, rows):
            self._fill(out, ids)
        if hasattr(scores, "masked_fill"):  # a torch tensor: import torch only now
            import torch

            blocked = torch.from_numpy(~allowed).to(scores.device)
            return scores.masked_fill(blocked, float("-inf"))
        out = np.array(scores, copy=True)
        out[~allowed] = -np.inf
        return out
