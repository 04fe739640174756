"""Optimal segmentation (spec 10): the fewest tokens per pre-token.

A pre-token is a sequence of *symbols*: characters for a character vocabulary with byte
fallback (functok's own tokenizers), bytes for a byte-level vocabulary (GPT-2's alphabet, a
tiktoken rank file). A *candidate token* is an ordinary vocabulary token: never a special
token and never a byte-fallback token ``<0xXX>``. A symbol that is not itself a candidate
token has one fallback edge of length one whose cost is the number of tokens it falls back to
(its UTF-8 bytes with byte fallback), so byte-fallback tokens serve only symbols missing from
the vocabulary.

The dynamic programme runs right to left: ``cost[i]`` is the fewest tokens for ``s[i:]``.
Choosing, from the left, the longest token ``t`` at ``i`` with ``1 + cost[i + len(t)] ==
cost[i]`` gives the ``leftmost-longest`` segmentation (the first token as long as possible
among optimal segmentations, recursively). ``prefer-greedy`` returns the greedy BPE
segmentation when it already has ``cost[0]`` tokens, and ``leftmost-longest`` otherwise.

Complexity: from each position the DP walks a trie of the tokens as far as the text matches a
token prefix, so the work is O(len(s) x the longest matching prefix), bounded by the longest
token, with no dependence on the vocabulary size. :func:`brute_force` is the readable oracle the
tests compare against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

__all__ = ["TIE_BREAKS", "Segmenter", "brute_force"]

TIE_BREAKS = ("leftmost-longest", "prefer-greedy")
_NONE = 1 << 62  # the cost of a suffix that no tokens spell

Symbols = str | bytes  # one symbol per character, or per byte
Fallback = Callable[[Symbols], list[int]]


class Segmenter:
    """Minimum-token segmentation over a fixed set of candidate tokens.

    ``tokens`` maps each candidate token (a ``str`` of characters, or ``bytes``) to its id.
    ``fallback(symbol)`` gives the ids for a one-symbol string that is not a candidate token;
    without it such a symbol makes the pre-token unsegmentable (``ValueError``).

    >>> seg = Segmenter({"a": 0, "b": 1, "ab": 2, "ba": 3, "aba": 4, "bab": 5})
    >>> seg.segment("ababa")  # aba|ba: two tokens, the first as long as possible
    [4, 3]
    >>> seg.count("ababa")
    2
    """

    def __init__(self, tokens: Mapping[Symbols, int], *, fallback: Fallback | None = None) -> None:
        self.tokens = dict(tokens)
        self.fallback = fallback
        # A trie: each node maps a symbol (a 1-character str, or a byte as int) to the entry
        # [child node, id of the token ending there or None]; one lookup per symbol.
        root: dict = {}
        for token, tid in self.tokens.items():
            node, entry = root, None
            for symbol in token:
                entry = node.get(symbol)
                if entry is None:
                    entry = node[symbol] = [{}, None]
                node = entry[0]
            if entry is not None:
                entry[1] = tid
        self._trie = root
        self._fallback_cache: dict[Symbols, list[int]] = {}

    # -- the dynamic programme -------------------------------------------------------------

    def _costs(self, s: Symbols) -> tuple[list[int], list[int], list[int]]:
        """``cost[i]`` (fewest tokens for s[i:]; ``_NONE`` if there is no way), ``length[i]``
        (the longest first token achieving it; 0 = the fallback edge of the symbol at i) and
        ``first[i]`` (that token's id)."""
        n = len(s)
        cost = [_NONE] * (n + 1)
        cost[n] = 0
        length = [0] * (n + 1)
        first = [0] * (n + 1)
        root = self._trie
        for i in range(n - 1, -1, -1):
            best = _NONE
            pick = pick_id = 0
            entry = root.get(s[i])
            if entry is None or entry[1] is None:
                # the symbol is not a token: its fallback edge (length one, so any token
                # of equal cost is longer and wins the tie)
                fb = self._fallback_ids(s[i : i + 1])
                if fb is not None:
                    best = cost[i + 1] + len(fb)
            j = i + 1
            while entry is not None:
                node, tid = entry
                if tid is not None:
                    c = cost[j] + 1
                    if c <= best:  # ties go to the longer token: j grows
                        best = c
                        pick = j - i
                        pick_id = tid
                if j == n:
                    break
                entry = node.get(s[j])
                j += 1
            cost[i] = best
            length[i] = pick
            first[i] = pick_id
        return cost, length, first

    def _fallback_ids(self, symbol: Symbols) -> list[int] | None:
        if self.fallback is None:
            return None
        ids = self._fallback_cache.get(symbol)
        if ids is None:
            ids = self._fallback_cache[symbol] = list(self.fallback(symbol))
        return ids

    def count(self, s: Symbols) -> int:
        """The fewest tokens that spell ``s``."""
        if s in self.tokens:
            return 1
        cost = self._costs(s)[0][0]
        if cost >= _NONE:
            raise ValueError(f"no segmentation of {s[:40]!r}: a symbol has no token")
        return cost

    def segment(
        self,
        s: Symbols,
        *,
        tie_break: str = "leftmost-longest",
        greedy: Sequence[int] | None = None,
    ) -> list[int]:
        """The ids of an optimal segmentation of ``s`` under ``tie_break``.

        ``prefer-greedy`` needs ``greedy``, the greedy BPE ids of the same pre-token.
        """
        if tie_break == "prefer-greedy":
            if greedy is None:
                raise ValueError("tie_break='prefer-greedy' needs the greedy ids")
            ids = self.segment(s)
            return list(greedy) if len(greedy) == len(ids) else ids
        if tie_break != "leftmost-longest":
            raise ValueError(f"unknown tie_break {tie_break!r}; expected one of {TIE_BREAKS}")
        return self.leftmost_longest(s)

    def leftmost_longest(self, s: Symbols) -> list[int]:
        """``segment(s)`` with the default tie-break."""
        whole = self.tokens.get(s)
        if whole is not None:  # one token: nothing is shorter, and it is the longest first token
            return [whole]
        cost, length, first = self._costs(s)
        if cost[0] >= _NONE:
            raise ValueError(f"no segmentation of {s[:40]!r}: a symbol has no token")
        ids: list[int] = []
        i, n = 0, len(s)
        while i < n:
            if length[i]:
                ids.append(first[i])
                i += length[i]
            else:
                ids.extend(self._fallback_ids(s[i : i + 1]) or ())
                i += 1
        return ids


def brute_force(
    s: Symbols, tokens: Mapping[Symbols, int], fallback: Fallback | None = None
) -> list[list[int]]:
    """Every segmentation of ``s`` with the fewest tokens, in leftmost-longest order.

    The oracle for :class:`Segmenter`: it enumerates all segmentations (exponential; small
    inputs only). The first one returned is the ``leftmost-longest`` answer.
    """
    results: list[tuple[list[int], list[int]]] = []  # (ids, edge lengths)

    def walk(i: int, ids: list[int], lengths: list[int]) -> None:
        if i == len(s):
            results.append((list(ids), list(lengths)))
            return
        for j in range(i + 1, len(s) + 1):
            tid = tokens.get(s[i:j])
            if tid is not None:
                walk(j, ids + [tid], lengths + [j - i])
        if fallback is not None and s[i : i + 1] not in tokens:
            walk(i + 1, ids + list(fallback(s[i : i + 1])), lengths + [1])

    walk(0, [], [])
    if not results:
        return []
    fewest = min(len(ids) for ids, _ in results)
    best = [(ids, lengths) for ids, lengths in results if len(ids) == fewest]
    # leftmost-longest: compare the edge lengths left to right, longer first
    best.sort(key=lambda r: [-n for n in r[1]])
    return [ids for ids, _ in best]

