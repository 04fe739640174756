"""Counting a corpus's pre-tokens for training (``Tokenizer.train``, ``functok train``): how
often each pre-token of spec 9 occurs and, under ``fuse="frequent"``, each chain of spec 9.4.

The counts take one of two forms: dicts (:class:`PretokenCounts`, the pure path's) or the C
core's flat form (:class:`PackedPretokenCounts`: the pre-tokens' UTF-8 in one string and their
counts in an array, :class:`PackedCounts`; the chains as a :class:`~.fusion.ChainTable`), which
never makes a Python object per pre-token. Shards counted apart (``--workers``, a datatrove
pipeline) add up to the same counts in either form (:func:`add_up_counts`).

**Long pre-tokens.** The trainer's time on one word grows with the square of its length (each
merge moves the rest of the word), so one giant pre-token (a line of ``ab`` repeated, a base64
blob) stalled training. For counting only, a pre-token longer than :data:`MAX_TRAINING_PRETOKEN`
code points is cut into pieces of that length, and a ``fuse="frequent"`` chain (spec 9.4) into
runs of segments that long: training time is then linear in the length of a line. Nothing is
lost: the cut pieces hold every character (the alphabet is the same), and the trained tokenizer
encodes any pre-token, however long, losslessly; it only learns no token longer than the cut.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..engine import core as native, core_arguments as native_arguments
from ..pretokenize import FUSE_MODES
from ..pretokenize import pretokens as codec_pretokens
from .fusion import ChainCounter, ChainTable

__all__ = ["MAX_COUNT", "MAX_TRAINING_PRETOKEN", "CountOptions", "PackedCounts", "PackedPretokenCounts", "PretokenCounts",
           "add_up_counts", "bounded_chain_table", "bounded_chains", "bounded_counts", "count_texts", "count_texts_packed", "counts_in_core",
           "pure_pretoken_counts", "separator_for"]


MAX_TRAINING_PRETOKEN = 1_000  # code points; longer pre-tokens are cut for counting (see the module)
MAX_COUNT = (1 << 64) - 1  # a count, as the C core and the trainer keep it (u64)


class PackedCounts:
    """Pre-token counts in two flat objects: the pre-tokens joined by a character none of them
    holds (:func:`separator_for`), in UTF-8, and their counts in an array, in the same order.

    >>> packed = PackedCounts(Counter({"ab": 3, "ç": 1}))
    >>> list(packed.items())
    [('ab', 3), ('ç', 1)]
    """

    def __init__(self, counts: Counter[str]) -> None:
        self.separator = separator_for(counts)
        # UTF-8 finds the separator's bytes only where it stands (no character's bytes hold
        # another's); "surrogatepass": an iterable of texts may hold what a file cannot
        self.data = self.separator.join(counts).encode("utf-8", "surrogatepass")
        self.counts = array("Q", counts.values())
        self.longest: int | None = None  # the longest pre-token's length, and the distinct
        self.characters: int | None = None  # characters, where the C core counted them

    @classmethod
    def from_core(cls, separator: str, data: bytes, counts: bytes, longest: int, characters: int) -> PackedCounts:
        """The C core's packed counts (``count_pretokens_packed``), with no Python object per pre-token."""
        packed = cls.__new__(cls)
        packed.separator, packed.data = separator, data
        packed.counts = array("Q")
        packed.counts.frombytes(counts)
        packed.longest, packed.characters = longest, characters
        return packed

    def __len__(self) -> int:
        return len(self.counts)

    def loaded(self) -> PackedCounts:
        """These counts in memory (they are: see :meth:`SpilledCounts.loaded`)."""
        return self

    def items(self) -> Iterator[tuple[str, int]]:
        cut = self.separator.encode("utf-8")
        start = 0
        for n in self.counts:
            end = self.data.find(cut, start)
            end = len(self.data) if end < 0 else end
            yield self.data[start:end].decode("utf-8", "surrogatepass"), n
            start = end + len(cut)



@dataclass(frozen=True)
class CountOptions:
    """The options that make a corpus's pre-tokens (``Tokenizer.train``'s names): counts made
    under one set train only a tokenizer with the same."""

    normalize: str | None
    splitter: str
    fuse: str
    profile: str



@dataclass
class PretokenCounts:
    """What training counts before the trainer runs: how often each pre-token occurs (under
    ``fuse="frequent"``, each ``"none"`` pre-token) and, under ``"frequent"``, each chain of spec
    9.4 (a tuple of its segments; else None), keys in the order first seen. ``train_bpe`` takes
    it in place of a corpus, which is how counts made in several processes (``functok train
    --workers``) or by a datatrove pipeline train the same tokenizer as one process's."""

    words: Counter[str]
    chains: Counter[tuple[str, ...]] | None
    options: CountOptions

    def update(self, other: PretokenCounts) -> None:
        """Adds ``other``'s counts (a later shard: its new keys come after these)."""
        if other.options != self.options:
            raise ValueError(f"cannot add counts made with {other.options} to counts made with {self.options}")
        self.words.update(other.words)
        if self.chains is not None and other.chains is not None:
            self.chains.update(other.chains)

    def take(self) -> tuple[Counter[str], Counter[tuple[str, ...]] | None]:
        """The counts, handed over: this object is empty afterwards (``train_bpe`` takes the
        counts it is given, so that it can free them while the trainer runs)."""
        words, chains = self.words, self.chains
        self.words, self.chains = Counter(), None if chains is None else Counter()
        return words, chains

    def pruned(self, min_count: int) -> PretokenCounts:
        """These counts without the pre-tokens and chains seen fewer than ``min_count`` times."""
        if min_count <= 1:
            return self
        words = Counter({w: n for w, n in self.words.items() if n >= min_count})
        chains = None if self.chains is None else Counter({c: n for c, n in self.chains.items() if n >= min_count})
        return PretokenCounts(words, chains, self.options)



@dataclass
class PackedPretokenCounts:
    """:class:`PretokenCounts` in flat form, as the C core hands them back: the pre-tokens'
    :class:`PackedCounts` and the chains' :class:`~.fusion.ChainTable` (under ``fuse="frequent"``;
    else None). ``train_bpe`` takes it as it takes :class:`PretokenCounts`, and trains the same
    tokenizer; the counts never become a Python object per pre-token or chain (at 400 MB of code,
    those dicts were the peak of counting)."""

    words: PackedCounts
    chains: ChainTable | None
    options: CountOptions

    def unpacked(self) -> PretokenCounts:
        """The same counts as a :class:`PretokenCounts` (dicts, keys in the same order)."""
        chains = None if self.chains is None else self.chains.chains()
        return PretokenCounts(Counter(dict(self.words.items())), chains, self.options)

    def take(self) -> tuple[PackedCounts, ChainTable | None]:
        """The counts, handed over (this object holds none afterwards)."""
        words, chains = self.words, self.chains
        self.words, self.chains = PackedCounts(Counter()), None
        return words, chains



def count_texts_packed(texts: Iterable[str], options: CountOptions, *, min_count: int = 1
                       ) -> PretokenCounts | PackedPretokenCounts:
    """:func:`count_texts`, without what was counted fewer than ``min_count`` times, in flat form
    where the C core counts (else as :func:`count_texts` and :meth:`PretokenCounts.pruned`)."""
    if native is None:
        return count_texts(texts, options).pruned(min_count)
    frequent = options.fuse == "frequent"
    arguments = native_arguments("", normalize=options.normalize, splitter=options.splitter,
                                 profile=options.profile)[1:]
    fuse = FUSE_MODES.index("none" if frequent else options.fuse)
    return _from_core(native.count_pretokens_packed(texts, *arguments, fuse, frequent, max(1, min_count)), options)



def counts_in_core() -> bool:
    """Whether the C core counts (and adds up) pre-tokens here, in flat form."""
    return native is not None



def add_up_counts(shards: Iterable[PretokenCounts | PackedPretokenCounts]) -> PretokenCounts | PackedPretokenCounts:
    """The sum of shards' counts, added in the order given (keys in the order first seen, shard
    after shard), each shard freed once added. Flat shards (the C core's) are added in the C core,
    with no Python object per pre-token or chain; ValueError where the shards' options differ."""
    shards = iter(shards)
    first = next(shards, None)
    if first is None:
        raise ValueError("no counts to add up")
    options = first.options

    def same_options(shard):
        if shard.options != options:
            raise ValueError(f"cannot add counts made with {shard.options} to counts made with {options}")
        return shard

    if isinstance(first, PretokenCounts):
        for shard in shards:
            first.update(same_options(shard))
        if max(first.words.values(), default=0) > MAX_COUNT or (
                first.chains and max(first.chains.values()) > MAX_COUNT):
            raise OverflowError("a count passes 2**64 - 1 in the merge")  # as the C core's merge says
        return first
    frequent = first.chains is not None

    def flat(shard):  # each shard's words and chains as the C core's merge reads them, then let go
        words, table = same_options(shard).take()
        chains = None if table is None else (table.segments, table.chain_segments, table.chain_starts, table.counts)
        return (words.separator, words.data, words.counts), chains

    def flat_shards():
        yield flat(first)
        yield from map(flat, shards)

    return _from_core(native.merge_packed_counts(flat_shards(), frequent), options)



def _from_core(packed: tuple, options: CountOptions) -> PackedPretokenCounts:
    words, chains = packed
    return PackedPretokenCounts(PackedCounts.from_core(*words), None if chains is None else ChainTable.from_core(*chains),
                                options)



def bounded_chain_table(chains: Counter[tuple[str, ...]] | ChainTable) -> ChainTable:
    """:func:`bounded_chains`'s chains as a :class:`~.fusion.ChainTable` (a table from the C core is
    unpacked only where a chain is too long)."""
    if isinstance(chains, ChainTable):
        if chains.longest is not None and chains.longest <= MAX_TRAINING_PRETOKEN:
            return chains
        chains = chains.chains()
    return ChainTable(bounded_chains(chains))



def count_texts(texts: Iterable[str], options: CountOptions) -> PretokenCounts:
    """The pre-token (and chain) counts of texts, in one process."""
    chains = ChainCounter() if options.fuse == "frequent" else None
    words = _pretoken_counts(texts, options.normalize, options.splitter, "none" if chains else options.fuse,
                             options.profile, chains)
    return PretokenCounts(words, None if chains is None else chains.chains, options)



def bounded_counts(counts: Counter[str], limit: int = MAX_TRAINING_PRETOKEN) -> Counter[str]:
    """``counts`` with each pre-token longer than ``limit`` code points cut into pieces of
    ``limit`` (the last shorter), each counted as often as the pre-token: what the trainer sees.

    >>> bounded_counts(Counter({"abcde": 2, "ab": 1}), 2)
    Counter({'ab': 3, 'cd': 2, 'e': 2})
    """
    if isinstance(counts, PackedCounts):  # the C core's: unpacked only where a pre-token is too long
        if counts.longest is not None and counts.longest <= limit:
            return counts
        counts = Counter(dict(counts.items()))
    if all(len(word) <= limit for word in counts):
        return counts
    bounded: Counter[str] = Counter()
    for word, n in counts.items():
        for k in range(0, len(word), limit):
            bounded[word[k:k + limit]] += n
    return bounded



def bounded_chains(chains: Counter[tuple[str, ...]], limit: int = MAX_TRAINING_PRETOKEN
                   ) -> Counter[tuple[str, ...]]:
    """The chains (tuples of segments) with each one longer than ``limit`` code points cut
    into runs of whole segments of at most ``limit`` (a longer segment cut as a pre-token is);
    runs of one segment, which hold no boundary a fusion merge could join, are left out.

    >>> bounded_chains(Counter({("ab", "c", "de", "f", "ghijk"): 1}), 3)
    Counter({('ab', 'c'): 1, ('de', 'f'): 1})
    """
    if all(sum(map(len, chain)) <= limit for chain in chains):
        return chains
    bounded: Counter[tuple[str, ...]] = Counter()
    for chain, n in chains.items():
        if sum(map(len, chain)) <= limit:
            bounded[chain] += n
            continue
        for run in _runs(chain, limit):
            if len(run) > 1:
                bounded[run] += n
    return bounded



def _runs(chain: tuple[str, ...], limit: int) -> Iterator[tuple[str, ...]]:
    """Consecutive runs of ``chain``'s segments (long ones cut first), each at most ``limit``."""
    run: list[str] = []
    length = 0
    for segment in chain:
        for k in range(0, len(segment), limit):
            piece = segment[k:k + limit]
            if run and length + len(piece) > limit:
                yield tuple(run)
                run, length = [], 0
            run.append(piece)
            length += len(piece)
    if run:
        yield tuple(run)



def separator_for(counts: Counter[str]) -> str:
    """The first character (from U+0001 up) that no pre-token holds."""
    present = set("".join(counts))
    return next(chr(c) for c in range(1, 0x110000) if chr(c) not in present and not 0xD800 <= c <= 0xDFFF)



def _pretoken_counts(texts: Iterable[str], normalize, splitter, fuse: str, profile: str = "paper",
                     chains: ChainCounter | None = None) -> Counter[str]:
    """How often each pre-token (a BPE word) occurs: what the trainer counts, counted first so
    that the alphabet can be chosen before training; ``chains`` counts the chains too. The C
    core counts them when it is built (the same counts, keys in the same order: the order first
    seen, which is the order the trainer is fed)."""
    if native is not None:
        return _native_pretoken_counts(texts, normalize, splitter, fuse, profile, chains)
    return pure_pretoken_counts(texts, normalize, splitter, fuse, profile, chains)



def _native_pretoken_counts(texts: Iterable[str], normalize, splitter, fuse: str, profile: str,
                            chains: ChainCounter | None) -> Counter[str]:
    options = native_arguments("", normalize=normalize, splitter=splitter, profile=profile)[1:]
    counts: Counter[str] = Counter()
    native.count_pretokens(texts, *options, FUSE_MODES.index(fuse), counts, None if chains is None else chains.chains)
    return counts



def pure_pretoken_counts(texts: Iterable[str], normalize, splitter, fuse: str, profile: str = "paper",
                         chains: ChainCounter | None = None) -> Counter[str]:
    """:func:`_pretoken_counts` in Python: the reference that the C core's counts match."""
    counts: Counter[str] = Counter()
    for text in texts:
        if not isinstance(text, str):  # the C core's words, so that both paths say the same
            raise TypeError(f"expected texts (str), got {type(text).__name__}")
        found = codec_pretokens(text, normalize=normalize, splitter=splitter, fuse=fuse, profile=profile)
        counts.update(found)
        if chains is not None:
            chains.update(found)
    return counts

