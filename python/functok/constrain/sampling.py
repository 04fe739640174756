"""Sampling under a :class:`~functok.constrain.Constraint`, with no framework.

:func:`sample` draws one id from a model's next-token logits (a plain list, or anything numpy
reads; numpy is used when it is installed, never required) among the ids the constraint allows.
:func:`generate` runs the loop, and :func:`finish` closes a sequence that must stop: it adds the
fewest ids it finds that let the sequence end (a group's pending slots, an unfinished UTF-8
sequence, a bare ESCAPE), so that a length limit never cuts a stream where it cannot decode.
"""

from __future__ import annotations

import math
import numbers
import random
import weakref
from collections.abc import Callable, Sequence

from .automaton import AFTER_ESCAPE, IN_GROUP, IN_INSTRUCTION, IN_TEXT
from .masks import Constraint, State

__all__ = ["check_options", "constraint_for", "finish", "generate", "mask_bits", "sample"]

_CONSTRAINTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def constraint_for(tokenizer_or_constraint, mode: str = "exact") -> Constraint:
    """A :class:`Constraint` for a tokenizer (built once per tokenizer and mode, then reused)."""
    if isinstance(tokenizer_or_constraint, Constraint):
        return tokenizer_or_constraint
    per_mode = _CONSTRAINTS.setdefault(tokenizer_or_constraint, {})
    if mode not in per_mode:
        per_mode[mode] = Constraint(tokenizer_or_constraint, mode=mode)
    return per_mode[mode]


def mask_bits(np, state: State):
    """:meth:`State.bitmask` as a numpy array of 0s and 1s, one per id of the vocabulary."""
    raw = np.frombuffer(state.bitmask(), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[: state.constraint.vocab_size]


def _numpy():
    try:
        import numpy
    except ImportError:  # optional: plain lists work without it
        return None
    return numpy


def check_options(temperature, top_k) -> None:
    """ValueError, naming the argument, unless ``temperature`` is a finite number >= 0 and
    ``top_k`` None or an integer >= 1 (the list and the numpy paths then agree)."""
    if (not isinstance(temperature, numbers.Real) or isinstance(temperature, bool)
            or not 0 <= temperature < math.inf):  # NaN fails both comparisons
        raise ValueError(f"temperature must be a finite number >= 0 (0: the best allowed id), not {temperature!r}")
    if top_k is not None and (not isinstance(top_k, numbers.Integral) or isinstance(top_k, bool) or top_k < 1):
        raise ValueError(f"top_k must be None or an integer >= 1 (the k best allowed ids), not {top_k!r}")


def sample(tokenizer, next_logits: Sequence[float], *, state: State | None = None, ids: Sequence[int] = (),
           temperature: float = 1.0, top_k: int | None = None, rng: random.Random | None = None,
           mode: str = "exact") -> int | None:
    """One id drawn from ``next_logits`` among the ids allowed after ``state`` (or after ``ids``).

    ``tokenizer`` is a :class:`functok.Tokenizer` or a :class:`Constraint`. ``temperature`` 0
    takes the best allowed id; ``top_k`` keeps the k best allowed ids (at least 1; None: all;
    a bad value of either is a ValueError that names it). Returns None when no id
    is allowed but the sequence may end (a tokenizer without an end-of-sequence token). Logits
    past the end of the vocabulary are ignored; missing ones count as ``-inf``.

    >>> from functok import Tokenizer
    >>> tok = Tokenizer.train(iter(["Hello World"] * 4), vocab_size=300, profile="compact", fuse="none",
    ...                       special_tokens=("<eos>",), show_progress=False)
    >>> constraint = Constraint(tok, eos_token_id="<eos>")
    >>> logits = [0.0] * tok.vocab_size
    >>> logits[constraint.eos_token_id] = 100.0                 # the model wants to stop ...
    >>> state = constraint.start().advance(tok.token_to_id("\\ue100\\ue000"))   # CAPITALIZE(0)
    >>> sample(constraint, logits, state=state, temperature=0) == constraint.eos_token_id
    False
    >>> sample(constraint, logits, state=constraint.start(), temperature=0) == constraint.eos_token_id
    True
    """
    check_options(temperature, top_k)
    top_k = None if top_k is None else int(top_k)
    constraint = constraint_for(tokenizer, mode)
    if state is None:
        state = constraint.allowed(ids)
    rng = rng or random.Random()
    np = _numpy()
    if np is not None and not isinstance(next_logits, list):
        return _sample_numpy(np, state, next_logits, temperature, top_k, rng)
    allowed = [i for i in state.allowed_ids() if i < len(next_logits)]
    if not allowed:
        return None
    scored = [(float(next_logits[i]), i) for i in allowed]
    scored = [(v, i) for v, i in scored if v != -math.inf] or scored
    if temperature == 0:
        return max(scored)[1]
    if top_k is not None:
        scored = sorted(scored, reverse=True)[:top_k]
    top = max(v for v, _ in scored)
    weights = [math.exp((v - top) / temperature) for v, _ in scored]
    return rng.choices([i for _, i in scored], weights=weights)[0]


def _sample_numpy(np, state: State, next_logits, temperature: float, top_k: int | None,
                  rng: random.Random) -> int | None:
    logits = np.asarray(next_logits, dtype=np.float64).reshape(-1)
    size = state.constraint.vocab_size
    bits = mask_bits(np, state)
    scores = np.full(size, -np.inf)
    scores[: min(size, logits.size)] = logits[:size]
    allowed = np.flatnonzero(bits)
    if allowed.size == 0:
        return None
    values = scores[allowed]
    if np.isneginf(values).all():
        values = np.zeros_like(values)
    if temperature == 0:
        return int(allowed[int(np.argmax(values))])
    if top_k is not None and top_k < values.size:
        keep = np.argpartition(values, -top_k)[-top_k:]
        allowed, values = allowed[keep], values[keep]
    weights = np.exp((values - values.max()) / temperature)
    cumulative = np.cumsum(weights)
    return int(allowed[min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")),
                           allowed.size - 1)])


def _distance(state: State) -> int:
    """A rough count of ids still needed before the sequence may end (smaller is closer)."""
    cursor = state.cursor
    steps = 1 if cursor.pend else 0
    steps += {IN_TEXT: 0, AFTER_ESCAPE: 1, IN_GROUP: 1, IN_INSTRUCTION: 1 + len(cursor.bounds) - len(cursor.args)}[cursor.where]
    group = cursor.group
    if cursor.where in (IN_TEXT, AFTER_ESCAPE):
        owed = cursor.owing()
    else:
        owed = group.min_n if group is not None and cursor.exact else 1
    return steps + -(-owed // max(state.constraint.longest, 1))


def finish(state: State, *, limit: int = 600) -> list[int]:
    """Ids that take ``state`` to one where the sequence may end (none if it already may).

    Greedy: each step takes the allowed id whose state is closest to an end (ties: the id that
    adds most slots, then the lowest id). ``limit`` bounds the ids added.
    """
    constraint = state.constraint
    added: list[int] = []
    while not state.end_allowed:
        if len(added) >= limit:
            raise RuntimeError(f"no end found within {limit} ids")
        best = None
        for i in state.allowed_ids():
            if i in constraint.special_ids:
                continue
            nxt = state.advance(i)
            rank = (_distance(nxt), -len(constraint.token_of.get(i, "")), i)
            if best is None or rank < best[0]:
                best = (rank, i, nxt)
        if best is None:
            raise RuntimeError("no allowed id leads to an end")
        added.append(best[1])
        state = best[2]
    return added


def generate(tokenizer, next_logits: Callable[[list[int]], Sequence[float]], *, max_new_tokens: int,
             prompt: Sequence[int] = (), temperature: float = 1.0, top_k: int | None = None,
             rng: random.Random | None = None, mode: str = "exact", close: bool = True) -> list[int]:
    """Sample up to ``max_new_tokens`` ids after ``prompt`` (``next_logits(ids)`` gives the
    logits for the next one), stopping at the end-of-sequence id; then, with ``close``, add the
    ids :func:`finish` finds so that the result decodes. Returns the new ids."""
    check_options(temperature, top_k)
    constraint = constraint_for(tokenizer, mode)
    state = constraint.allowed(prompt)
    ids = list(prompt)
    rng = rng or random.Random()
    for _ in range(max_new_tokens):
        nxt = sample(constraint, next_logits(ids), state=state, temperature=temperature, top_k=top_k, rng=rng)
        if nxt is None or nxt == constraint.eos_token_id:
            break
        state = state.advance(nxt)
        ids.append(nxt)
    if close:
        ids += finish(state)
    return ids[len(prompt):]
