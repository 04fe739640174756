"""Greedy BPE merges in pure Python, giving the same ids as the Rust implementations.

Two merge rules exist in the wild and both are here:

* :class:`BPE` is Hugging Face ``tokenizers``' ``BPE`` model (``model.rs``): a word starts as
  one symbol per character (byte-fallback tokens ``<0xXX>`` for characters missing from the
  vocabulary), then the pair with the lowest *merge index* is merged, leftmost first, until no
  listed pair is left. It is a line-by-line port of ``Word::merge_all``, including its
  priority queue and its check for stale queue entries, so that vocabularies with several merges
  producing the same token still give identical ids.
* :class:`TiktokenBPE` is tiktoken's ``_byte_pair_merge``: bytes start as single-byte parts and
  the adjacent pair whose *concatenation has the lowest rank* is merged, leftmost first.

Neither needs ``tokenizers`` or ``tiktoken``: this is the path that runs in the browser. Neither
caches: :class:`functok.tokenizer.vocabulary.Vocabulary` keeps the one cache of ids per
pre-token (natural text repeats its words), under :mod:`functok.cache`'s policy.

Both have the same interface, the *merge model* a vocabulary is built on: ``tokenize(word)``
(the greedy ids of one pre-token), ``reachable()`` (the tokens its merges can build) and
``byte_fallback`` (does a symbol missing from the vocabulary become its UTF-8 byte tokens).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

__all__ = ["BPE", "BYTE_TOKENS", "TiktokenBPE", "byte_fallback_token", "merge_pair", "reachable_by_merges"]

_PAIR_SHIFT = 32  # pair keys are (left id << 32) | right id: int keys hash faster than tuples


def byte_fallback_token(byte: int) -> str:
    """The byte-fallback token for one byte, spelled as ``tokenizers`` spells it: ``<0xE2>``."""
    return f"<0x{byte:02X}>"


BYTE_TOKENS = frozenset(byte_fallback_token(b) for b in range(256))
"""The 256 byte-fallback tokens ``<0x00>``..``<0xFF>``."""


def merge_pair(merge: list[str] | str) -> tuple[str, str]:
    """A merge as the trainer writes it in ``tokenizer.json``: ``["left", "right"]``, or the older
    ``"left right"``. (Files from elsewhere are read, and checked, by
    :mod:`functok.tokenizer.file_reader` and :mod:`functok.tokenizer.bpe_model`.)

    >>> merge_pair(["h", "e"]), merge_pair("h e")
    (('h', 'e'), ('h', 'e'))
    """
    return tuple(merge.split(" ", 1)) if isinstance(merge, str) else tuple(merge)


def reachable_by_merges(vocab: Mapping[str, int], merges: Iterable[tuple[str, str]]) -> set[str]:
    """The tokens the merges can build: the one-symbol tokens, then every merge of two
    reachable tokens, to a fixed point (a trained merge list needs one pass)."""
    merges = list(merges)
    out = {t for t in vocab if len(t) == 1}
    grew = True
    while grew:
        before = len(out)
        out.update(a + b for a, b in merges if a in out and b in out)
        grew = len(out) > before
    return out & set(vocab)


class BPE:
    """Hugging Face ``tokenizers`` BPE merges, without ``tokenizers``.

    >>> bpe = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])
    >>> bpe.tokenize("abba")
    [2, 1, 0]
    """

    def __init__(
        self,
        vocab: Mapping[str, int],
        merges: Iterable[tuple[str, str]],
        *,
        byte_fallback: bool = False,
        unk_token: str | None = None,
        fuse_unk: bool = False,
        ignore_merges: bool = False,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
    ) -> None:
        self.vocab = dict(vocab)
        self.byte_fallback = byte_fallback
        self.unk_token = unk_token
        self.fuse_unk = fuse_unk
        self.ignore_merges = ignore_merges
        self.prefix = continuing_subword_prefix or ""
        self.suffix = end_of_word_suffix or ""
        # pair key -> (rank, new id). Later duplicates overwrite earlier ones, as Rust's
        # HashMap::from_iter does.
        self.merges: dict[int, tuple[int, int]] = {}
        self.merge_list = list(merges)  # as given: what reachable() reads
        cut = len(self.prefix)
        for rank, (left, right) in enumerate(self.merge_list):
            new_token = left + right[cut:]
            key = (self.vocab[left] << _PAIR_SHIFT) | self.vocab[right]
            self.merges[key] = (rank, self.vocab[new_token])
        self._bytes = (
            [self.vocab.get(byte_fallback_token(b)) for b in range(256)] if byte_fallback else None
        )

    def tokenize(self, word: str) -> list[int]:
        """The ids of one pre-token (a "word" in ``tokenizers``' terms)."""
        if not word:
            return []
        if self.ignore_merges:
            whole = self.vocab.get(word)
            if whole is not None:
                return [whole]
        return _merge_all(self._symbols(word), self.merges)

    def reachable(self) -> set[str]:
        """The tokens the merges can build (:func:`reachable_by_merges`)."""
        return reachable_by_merges(self.vocab, self.merge_list)

    def _symbols(self, word: str) -> list[int]:
        """One symbol per character, as ``BPE::merge_word`` builds the word before merging."""
        if not (self.prefix or self.suffix or self.unk_token):
            get = self.vocab.get
            out = []
            for ch in word:
                i = get(ch)
                if i is not None:
                    out.append(i)
                else:
                    out.extend(self._fallback(ch))
            return out
        return self._symbols_general(word)

    def _fallback(self, s: str) -> list[int]:
        """Byte-fallback ids for a string missing from the vocabulary; [] when impossible."""
        if self._bytes is None:
            return []
        ids = [self._bytes[b] for b in s.encode("utf-8")]
        return [] if None in ids else ids  # type: ignore[return-value]

    def _symbols_general(self, word: str) -> list[int]:
        # The full rule of merge_word: prefix on non-first characters, suffix on the last,
        # unknown characters become unk (fused when fuse_unk), and a pending unk is only
        # flushed by the next known character or the end (byte fallback does not flush it).
        out: list[int] = []
        unk: list[int] | None = None  # [unk id] while an unk is pending
        last = len(word) - 1
        for i, ch in enumerate(word):
            s = (self.prefix if i else "") + ch + (self.suffix if i == last else "")
            known = self.vocab.get(s)
            if known is not None:
                if unk is not None:
                    out.extend(unk)
                    unk = None
                out.append(known)
                continue
            fallback = self._fallback(s)
            if fallback:
                out.extend(fallback)
                continue
            if self.unk_token is not None:
                unk_id = self.vocab[self.unk_token]
                if unk is not None and not self.fuse_unk:
                    out.extend(unk)
                unk = [unk_id]
        if unk is not None:
            out.extend(unk)
        return out


def _merge_all(symbols: list[int], merges: dict[int, tuple[int, int]]) -> list[int]:
    """``Word::merge_all``: merge the lowest (rank, position) pair until none is listed.

    Symbols form a linked list; the queue may hold stale entries, which are skipped when the
    symbol is gone or the pair there no longer produces the queued token.
    """
    n = len(symbols)
    if n < 2:
        return symbols
    sym = symbols
    get = merges.get
    queue = []
    for pos in range(n - 1):
        m = get((sym[pos] << _PAIR_SHIFT) | sym[pos + 1])
        if m is not None:
            queue.append((m[0], pos, m[1]))
    if not queue:
        return sym
    heapq.heapify(queue)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    alive = [True] * n
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        _rank, pos, new_id = pop(queue)
        if not alive[pos]:
            continue
        right = nxt[pos]
        if right == -1:
            continue
        m = get((sym[pos] << _PAIR_SHIFT) | sym[right])
        if m is None or m[1] != new_id:
            continue  # stale entry
        sym[pos] = new_id
        alive[right] = False
        after = nxt[right]
        nxt[pos] = after
        if after != -1:
            prv[after] = pos
        before = prv[pos]
        if before >= 0:
            m = get((sym[before] << _PAIR_SHIFT) | new_id)
            if m is not None:
                push(queue, (m[0], before, m[1]))
        if after != -1:
            m = get((new_id << _PAIR_SHIFT) | sym[after])
            if m is not None:
                push(queue, (m[0], pos, m[1]))
    return [s for s, keep in zip(sym, alive) if keep]


class TiktokenBPE:
    """tiktoken's byte-pair merge over a rank table (``bytes -> rank``; the rank is the id).

    >>> TiktokenBPE({b"a": 0, b"b": 1, b"ab": 2}).tokenize(b"abba")
    [2, 1, 0]
    """

    byte_fallback = False  # every byte is a token: nothing falls back

    def __init__(self, ranks: Mapping[bytes, int]) -> None:
        self.ranks = dict(ranks)

    def tokenize(self, piece: bytes) -> list[int]:
        """The ids of one pre-token's bytes."""
        whole = self.ranks.get(piece)
        if whole is not None:  # tiktoken returns a piece that is a token as that token
            return [whole]
        return [self.ranks[part] for part in self._parts(piece)]

    def reachable(self) -> set[bytes]:
        """The tokens the merges can build. tiktoken has no merge list: a token is reachable
        when it is one byte or joins two reachable tokens (its parts always exist when it was
        trained by merging)."""
        out: set[bytes] = set()
        for token in sorted(self.ranks, key=len):
            if len(token) == 1 or any(token[:k] in out and token[k:] in out for k in range(1, len(token))):
                out.add(token)
        return out

    def _parts(self, piece: bytes) -> list[bytes]:
        # Port of _byte_pair_merge: `starts` are part boundaries, `rank[i]` the rank of the
        # pair starting at part i (parts i and i+1 joined); merge the minimum, leftmost.
        never = 1 << 62
        get = self.ranks.get
        starts = list(range(len(piece) + 1))
        rank = [get(piece[i : i + 2], never) for i in range(len(piece) - 1)]
        while rank:
            best = min(rank)
            if best == never:
                break
            i = rank.index(best)  # leftmost minimum
            del starts[i + 1]
            del rank[i]
            if i < len(rank):
                rank[i] = get(piece[starts[i] : starts[i + 2]], never)
            if i > 0:
                rank[i - 1] = get(piece[starts[i - 1] : starts[i + 1]], never)
        return [piece[a:b] for a, b in zip(starts, starts[1:])]
