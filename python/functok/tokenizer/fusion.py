"""Training for ``fuse="frequent"`` (spec 9.4): context fusion merges.

A tokenizer that splits every instruction from its base (``fuse="none"``) shares every base, but
pays one token or more per instruction; one that keeps each piece whole (``"all"``) pays nothing
per instruction but learns ``Hello``, ``HELLO`` and ``hello`` as three entries. ``"frequent"`` is
the hybrid (research/equal-budget/FINDINGS.md, stage 4, the best scheme measured):

1. the pre-tokens are **chains**: a piece with a group is joined to the pre-token before it
   (``functok.pretokenize.context_chains``);
2. BPE is first trained as for ``"none"`` (every instruction its own pre-token, so every merge
   stays inside one instruction or one base), to ``budget - K`` entries;
3. then K **fusion merges** are appended, chosen greedily by how often they occur in the
   training chains: each joins two symbols across a segment boundary (instruction|instruction,
   instruction|base, or the text before a group with the group), and no result holds the text of
   two pieces. So a frequent ``CAPITALIZE(0)`` + ``the`` or ``.`` + ``CAPITALIZE(1)`` costs no
   extra token, while every base stays one shared entry;
4. **K** follows the training counts (the "K rule", measured in ``research/equal-budget/
   krule_eval.py``): a fusion merge is worth its entry while it occurs at least as often as the
   tokens made by the last 200 merges of the split training at the full budget.

The result is an ordinary BPE model (merges by rank): greedy, optimal segmentation, the
``tokenizers`` fast path and Pyodide need nothing new, since the split merges can never cross a
segment boundary and every fusion merge ranks after them.
"""

from __future__ import annotations

import heapq
import json
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Optional

from ..pretokenize import chained, has_group
from .bpe import BYTE_TOKENS, merge_pair
from .tokenizer_file import with_byte_tokens
from .memory import release_freed_memory

__all__ = ["ChainCounter", "ChainTable", "MARGINAL_MERGES", "Segmentation", "add_fusion_merges", "fusion_merges",
           "greedy_segmentation", "greedy_tokens", "merges_of", "table_fusion_merges", "truncate"]

MARGINAL_MERGES = 200  # the last split merges whose tokens' use prices an entry (the K rule)
_INSTRUCTION = -1  # owner of a symbol made of instructions only
_UNMERGEABLE = -2  # a byte-fallback token: not text a fusion token could hold


class ChainCounter:
    """Counts the chains (spec 9.4) of texts from their ``fuse="none"`` pre-tokens: each chain
    as the tuple of its segments (instructions and bases), only chains of two or more segments
    (a lone base has no boundary a fusion merge could join)."""

    def __init__(self) -> None:
        self.chains: Counter[tuple[str, ...]] = Counter()

    def update(self, split_pretokens: Iterable[str]) -> None:
        for chain in chained(_pieces(split_pretokens), lambda piece: len(piece) > 1):
            if len(chain) > 1 or len(chain[0]) > 1:
                self.chains[tuple(segment for piece in chain for segment in piece)] += 1


def _pieces(split_pretokens: Iterable[str]) -> Iterator[list[str]]:
    """The pieces back from their ``fuse="none"`` pre-tokens: each its instructions, then its base."""
    piece: list[str] = []
    for p in split_pretokens:
        piece.append(p)
        if not has_group(p):  # a base ends its piece
            yield piece
            piece = []


# --- The split model: truncation and its segmentation ---------------------------------------


def merges_of(trained: dict) -> list[tuple[str, str]]:
    """A trainer's merges as pairs, whichever of the two forms it wrote."""
    return [merge_pair(m) for m in trained["model"]["merges"]]


def truncate(trained: dict, budget: int) -> dict | None:
    """A trainer's ``tokenizer.json`` (a dict, byte tokens not yet added) cut to ``budget``
    entries, the 256 byte tokens included: the entries with id < budget - 256, and the merges
    before the first whose result lies beyond. BPE training is greedy, so this is exactly the
    training at that budget (research/equal-budget/FINDINGS.md, Q1). None when the training has
    fewer entries (its merges ran out before this budget)."""
    n = budget - len(BYTE_TOKENS)
    vocab = trained["model"]["vocab"]
    if len(vocab) < n:
        return None
    keep = []
    for a, b in merges_of(trained):
        if vocab[a + b] >= n:
            break
        keep.append([a, b])
    model = dict(trained["model"], vocab={t: i for t, i in vocab.items() if i < n}, merges=keep)
    return dict(trained, model=model)


def greedy_tokens(trained: dict, words: Iterable[str]) -> dict[str, list[str]]:
    """Each distinct pre-token's token strings under ``trained``'s greedy BPE (by ``tokenizers``,
    the ids :class:`functok.Tokenizer` gives too; byte-fallback tokens keep their ``<0xNN>``
    names)."""
    from tokenizers import Tokenizer as HFTokenizer

    hf = HFTokenizer.from_str(json.dumps(with_byte_tokens(trained, [])))
    words = list(words)
    out = {}
    shared: dict[str, str] = {}  # one string per token, not one per use: fewer than the vocabulary
    for k in range(0, len(words), 20_000):
        chunk = words[k:k + 20_000]
        for word, enc in zip(chunk, hf.encode_batch(chunk, add_special_tokens=False)):
            out[word] = [shared.setdefault(t, t) for t in enc.tokens]
    del hf
    release_freed_memory()  # the encoder's threads' arenas: some 100 MB on 20 MB of code
    return out


class Segmentation:
    """Greedy segmentations of words in flat form: ``tokens`` the token strings by id (distinct),
    word ``k``'s token ids ``ids[starts[k]:starts[k + 1]]``. A dict of lists of strings, one list
    per word, cost some 150 bytes a word more (1.7 GB for the chains' segments of 400 MB of code)."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.ids = array("i")
        self.starts = array("q", [0])

    def add(self, ids: Iterable[int]) -> None:
        self.ids.extend(ids)
        self.starts.append(len(self.ids))

    def __len__(self) -> int:
        return len(self.starts) - 1

    def token_strings(self, k: int) -> list[str]:
        """Word ``k``'s tokens as strings."""
        return [self.tokens[i] for i in self.ids[self.starts[k]:self.starts[k + 1]]]

    def unmergeable(self) -> bytes:
        """One flag per token: 1 for a byte-fallback token (no fusion merge joins one)."""
        return bytes(t in BYTE_TOKENS for t in self.tokens)


def greedy_segmentation(trained: dict, words: Iterable[str]) -> Segmentation:
    """:func:`greedy_tokens` in flat form: the words' token ids, in ``words``' order, under
    ``trained``'s greedy BPE with the byte tokens in place (``tokens`` its whole vocabulary)."""
    from tokenizers import Tokenizer as HFTokenizer

    model = with_byte_tokens(trained, [])
    vocab = model["model"]["vocab"]
    tokens = [""] * len(vocab)
    for token, i in vocab.items():  # with_byte_tokens numbers them 0, 1, ... in order
        tokens[i] = token
    hf = HFTokenizer.from_str(json.dumps(model))
    del model, vocab
    out = Segmentation(tokens)
    chunk: list[str] = []
    for word in words:
        chunk.append(word)
        if len(chunk) == 20_000:
            _segment_into(out, hf, chunk)
            chunk = []
    _segment_into(out, hf, chunk)
    del hf
    release_freed_memory()  # the encoder's threads' arenas (see greedy_tokens)
    return out


def _segment_into(out: Segmentation, hf, words: list[str]) -> None:
    for enc in hf.encode_batch(words, add_special_tokens=False) if words else ():
        out.add(enc.ids)


def _last_tokens(trained: dict) -> set[str]:
    """The tokens made by the last :data:`MARGINAL_MERGES` merges."""
    return {a + b for a, b in merges_of(trained)[-MARGINAL_MERGES:]}


def _holding_any(words: Iterable[str], tokens: set[str], skip: set[str]) -> list[str]:
    """The words (not in ``skip``) that hold one of ``tokens`` as a substring, sorted."""
    if not tokens:
        return []
    holds = re.compile("|".join(map(re.escape, sorted(tokens)))).search
    return sorted(w for w in words if w not in skip and holds(w))


def _marginal_use(trained: dict, split_counts, words: list[str], segmentation: Segmentation) -> float:
    """The K rule's price of an entry: the mean use, in the training pre-tokens, of the tokens
    made by the last :data:`MARGINAL_MERGES` merges. ``segmentation`` segments ``words``, which hold
    every pre-token that holds one of them as a substring (the others hold none)."""
    last = _last_tokens(trained)
    if not last:
        return float("inf")
    last_ids = {i for i, t in enumerate(segmentation.tokens) if t in last}
    ids, starts = segmentation.ids, segmentation.starts
    holding = {}  # only the words whose segmentation holds a last token: their tokens' ids
    for k, word in enumerate(words):
        found = [i for i in ids[starts[k]:starts[k + 1]] if i in last_ids]
        if found:
            holding[word] = found
    use: Counter[int] = Counter()
    for word, n in split_counts.items():
        for i in holding.get(word, ()):
            use[i] += n
    return sum(use[i] for i in last_ids) / len(last)


# --- The fusion merges ---------------------------------------------------------------------


class _Word:
    """One distinct chain as BPE symbols: each symbol's owner (the index of the piece whose text
    it holds, :data:`_INSTRUCTION` or :data:`_UNMERGEABLE`) and, between neighbours, whether a
    segment boundary lies there (only those may fuse)."""

    __slots__ = ("syms", "owner", "cross", "n")

    def __init__(self, segments: tuple[str, ...], tokens: dict[str, list[str]], n: int) -> None:
        self.syms: list[str] = []
        self.owner: list[int] = []
        self.cross: list[bool] = []
        self.n = n
        piece = 0
        for seg in segments:
            instruction = has_group(seg)
            if not instruction:
                piece += 1
            for k, t in enumerate(tokens[seg]):
                if self.syms:
                    self.cross.append(k == 0)
                self.syms.append(t)
                self.owner.append(_UNMERGEABLE if t in BYTE_TOKENS else _INSTRUCTION if instruction else piece)

    def _legal(self, i: int) -> bool:
        a, b = self.owner[i], self.owner[i + 1]
        return self.cross[i] and a != _UNMERGEABLE and b != _UNMERGEABLE and (a < 0 or b < 0 or a == b)

    def pairs(self) -> list[tuple[str, str]]:
        """The legal pairs, one per position (a pair may repeat)."""
        s = self.syms
        return [(s[i], s[i + 1]) for i in range(len(s) - 1) if self._legal(i)]

    def merge(self, a: str, b: str, k: int, changed: dict, where: dict) -> None:
        """Apply the merge (a, b) left to right, as BPE does, adding to ``changed`` how the
        count of each neighbouring pair moves, and word ``k`` to ``where`` of each new pair."""
        s, n, i = self.syms, self.n, 0
        while i < len(s) - 1:
            if s[i] == a and s[i + 1] == b and self._legal(i):
                if i > 0 and self._legal(i - 1):
                    changed[(s[i - 1], a)] -= n
                if i + 2 < len(s) and self._legal(i + 1):
                    changed[(b, s[i + 2])] -= n
                changed[(a, b)] -= n
                s[i : i + 2] = [a + b]
                self.owner[i : i + 2] = [max(self.owner[i], self.owner[i + 1])]
                del self.cross[i]
                for j in (i - 1, i):  # the pairs the new symbol makes with its neighbours
                    if 0 <= j < len(s) - 1 and self._legal(j):
                        pair = (s[j], s[j + 1])
                        changed[pair] += n
                        _note(where[pair], k)
            i += 1


def _note(words: list[int], k: int) -> None:
    """Lists word ``k`` under a pair, unless it was the last listed (a word meets a pair at each
    of its positions, one after the other)."""
    if not words or words[-1] != k:
        words.append(k)


def fusion_merges(chains: Counter[tuple[str, ...]], tokens: dict[str, list[str]], *, limit: int,
                  min_count: float) -> list[tuple[str, str]]:
    """Up to ``limit`` fusion merges, the most frequent legal pair first (ties: the smaller pair
    of strings), each applied to the chains before the next is counted; it stops when the best
    pair occurs fewer than ``min_count`` times."""
    words = [_Word(segs, tokens, n) for segs, n in chains.items()]
    count: dict[tuple[str, str], int] = defaultdict(int)
    # Each pair's words in a list, not a set: a list of one costs a quarter of a set of one, and
    # there are as many as distinct pairs. A word listed twice (it gained the pair again in a
    # later merge) is merged twice; the second time it holds no (a, b) and does nothing.
    where: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, w in enumerate(words):
        for p in w.pairs():
            count[p] += w.n
            _note(where[p], k)
    heap = [(-c, a, b) for (a, b), c in count.items()]
    heapq.heapify(heap)
    merges: list[tuple[str, str]] = []
    while heap and len(merges) < limit:
        c, a, b = heapq.heappop(heap)
        if count.get((a, b), 0) != -c:
            continue  # stale: the count changed and was pushed again
        if -c < min_count:
            break
        merges.append((a, b))
        changed: dict[tuple[str, str], int] = defaultdict(int)
        for k in where.pop((a, b)):  # may list words that lost the pair: they do nothing
            words[k].merge(a, b, k, changed, where)
        for p, d in changed.items():
            if d:
                count[p] += d
                if count[p] > 0:
                    heapq.heappush(heap, (-count[p], *p))
                else:
                    del count[p]
        count.pop((a, b), None)
    return merges


class ChainTable:
    """The chains in flat form: ``segments`` their distinct segments, with a flag each in
    ``instruction`` (1: an instruction); chain ``k``'s segments' indices
    ``chain_segments[chain_starts[k]:chain_starts[k + 1]]``, and it occurs ``counts[k]`` times."""

    def __init__(self, chains: Counter[tuple[str, ...]]) -> None:
        self.segments = sorted({seg for segs in chains for seg in segs})
        self.instruction = bytes(has_group(seg) for seg in self.segments)
        index = {seg: k for k, seg in enumerate(self.segments)}
        self.chain_segments = array("i")
        self.chain_starts = array("q", [0])
        self.counts = array("Q")
        for segs, n in chains.items():
            self.chain_segments.extend(index[seg] for seg in segs)
            self.chain_starts.append(len(self.chain_segments))
            self.counts.append(n)

    longest: int | None = None  # the longest chain's length in code points, where the C core counted it

    @classmethod
    def from_core(cls, segments: list[str], chain_segments: bytes, chain_starts: bytes, counts: bytes,
                  longest: int) -> ChainTable:
        """The C core's table (``count_pretokens_packed``): the segments in the order first seen."""
        table = cls(Counter())
        table.segments = segments
        table.instruction = bytes(has_group(seg) for seg in segments)
        table.chain_segments.frombytes(chain_segments)
        table.chain_starts = array("q")
        table.chain_starts.frombytes(chain_starts)
        table.counts.frombytes(counts)
        table.longest = longest
        return table

    def __len__(self) -> int:
        return len(self.counts)

    def items(self) -> Iterator[tuple[tuple[str, ...], int]]:
        """Each chain (the tuple of its segments) and its count, in order, one at a time: as a
        Counter of chains gives them, without holding them all."""
        starts, segs = self.chain_starts, self.chain_segments
        for k, n in enumerate(self.counts):
            yield tuple(self.segments[j] for j in segs[starts[k]:starts[k + 1]]), n

    def chains(self) -> Counter[tuple[str, ...]]:
        """The chains back as a Counter of tuples of segments (what :func:`fusion_merges` reads)."""
        out: Counter[tuple[str, ...]] = Counter()
        for chain, n in self.items():
            out[chain] += n
        return out


CompiledMerges = Callable[[ChainTable, Segmentation, int, float], Optional[list]]
"""A compiled :func:`fusion_merges` on the flat forms (``(table, segmentation, limit,
min_count)``, the segmentation's first words being the table's segments), giving the same
merges, or None where it has none or the input is past its range: then the reference runs."""


def _no_compiled(table: ChainTable, segmentation: Segmentation, limit: int, min_count: float) -> None:
    return None


def table_fusion_merges(table: ChainTable, segmentation: Segmentation, *, limit: int, min_count: float,
                        compiled: CompiledMerges = _no_compiled) -> list[tuple[str, str]]:
    """:func:`fusion_merges` on the flat forms: ``compiled``'s merges, or the reference's on the
    chains and segmentation rebuilt as a Counter and a dict where it gives none."""
    found = compiled(table, segmentation, limit, min_count)
    if found is not None:
        return found
    tokens = {seg: segmentation.token_strings(k) for k, seg in enumerate(table.segments)}
    return fusion_merges(table.chains(), tokens, limit=limit, min_count=min_count)


def _with_merges(split: dict, merges: list[tuple[str, str]]) -> dict:
    """The split model with fusion merges appended: their results take the next ids."""
    vocab = dict(split["model"]["vocab"])
    next_id = max(vocab.values(), default=-1) + 1
    for a, b in merges:
        if a + b not in vocab:
            vocab[a + b] = next_id
            next_id += 1
    model = dict(split["model"], vocab=vocab, merges=[[a, b] for a, b in merges_of(split) + merges])
    return dict(split, model=model)


def add_fusion_merges(trained: dict, split_counts, chains: Counter[tuple[str, ...]] | ChainTable,
                      budget: int, *, min_frequency: int = 0, compiled: CompiledMerges = _no_compiled) -> dict:
    """A ``fuse="frequent"`` model of ``budget`` entries (byte tokens included) from a split
    training (``fuse="none"`` pre-tokens ``split_counts``: a Counter, or anything whose
    ``items()`` gives each pre-token and its count, such as ``pretoken_counts.PackedCounts``; read
    twice) at ``budget`` or more, and the
    training chains (a Counter of tuples of segments, or their :class:`ChainTable`). K is fixed by the K rule at the full budget (the merges that occur at least
    as often as :func:`_marginal_use`); the split model is cut to ``budget - K`` and K fusion
    merges are chosen on its segmentation. When the split training ran out of merges before
    ``budget``, the room left goes to fusion merges instead. ``compiled`` chooses the merges
    where it can (see :data:`CompiledMerges`); the result is the same either way."""
    # Only two sets of pre-tokens are ever segmented: the chains' segments (the fusion merges
    # read them) and, for the K rule's price, the pre-tokens that hold a token of the last merges
    # (a token is a substring of every pre-token whose segmentation holds it; the others add
    # nothing to its use). Segmenting every distinct pre-token, twice, was most of the step.
    # The chains and segmentations stay in flat form (a Python object per chain and per token
    # list cost several times the merges' own tables).
    table = chains if isinstance(chains, ChainTable) else ChainTable(chains)
    del chains
    segments = table.segments
    floor = max(1, min_frequency)
    full = truncate(trained, budget)
    if full is None:  # the corpus ran out of split merges: fill what is left
        room = budget - len(BYTE_TOKENS) - len(trained["model"]["vocab"])
        segmentation = greedy_segmentation(trained, segments)
        return _with_merges(trained, table_fusion_merges(table, segmentation, limit=room, min_count=floor,
                                                         compiled=compiled))
    priced = _holding_any((word for word, _ in split_counts.items()), _last_tokens(full), skip=set(segments))
    segmentation = greedy_segmentation(full, segments + priced)
    price = max(floor, _marginal_use(full, split_counts, segments + priced, segmentation))
    del priced
    k = len(table_fusion_merges(table, segmentation, limit=len(merges_of(full)), min_count=price,
                                compiled=compiled))
    if k == 0:
        return full
    del segmentation  # before the next segmentation is built, not after: the two would be held at once
    segmentation = greedy_segmentation(truncate(trained, budget - k), segments)
    merges = table_fusion_merges(table, segmentation, limit=k, min_count=floor, compiled=compiled)
    # On the coarser segmentation the chains may offer fewer than k merges: the room they leave
    # goes back to split merges (their tokens include every token of the shorter cut).
    new = len({a + b for a, b in merges} - full["model"]["vocab"].keys())
    return _with_merges(truncate(trained, budget - new), merges)
