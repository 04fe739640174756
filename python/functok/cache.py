"""The one bounded-cache policy: the encoder's, the decoder's and the tokenizer's caches use it.

A cache is a plain ``dict``; :func:`remember` stores into it and keeps it within
:data:`CACHE_LIMIT` entries. What is cached never changes a result, only how fast it comes.
"""

from __future__ import annotations

from itertools import islice

__all__ = ["CACHE_LIMIT", "remember"]

CACHE_LIMIT = 1 << 18  # entries per cache: a 20 MB corpus's distinct pieces (or groups with their text) fit


def remember(cache: dict, key, value) -> None:
    """Store ``key`` in ``cache``; when it is full, drop the older half first.

    dicts keep insertion order, so the first keys are the oldest. Dropping half at a time
    keeps the cost amortized O(1) and memory bounded however long the input.
    """
    if len(cache) >= CACHE_LIMIT:
        for old in list(islice(cache, CACHE_LIMIT // 2)):
            del cache[old]
    cache[key] = value
