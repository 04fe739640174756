"""Training a functok tokenizer (``Tokenizer.train``): Hugging Face ``tokenizers``' BPE trainer
on the codec's pre-tokens, with our choice of alphabet and the 256 byte-fallback tokens.

Ids of the result: the special tokens first (0, 1, ...), then the 256 byte tokens, then the
trained alphabet and merges in the trainer's order. When the corpus has more distinct
characters than ``vocab_size`` leaves room for, the most frequent are kept (ties: the smaller
code point) and the rarest are written with byte-fallback tokens.

**Bounds.** ``vocab_size`` is at most :data:`MAX_VOCAB_SIZE` (2**24): the trainer reserves about
66 bytes per entry before it reads a word, and past what memory holds it aborts the interpreter
(2**32 asked for 283 GB); 2**24 is some 60 times the largest vocabularies in use, and its ids fit
the tokenizer file's range (0 to 2**32 - 1, spec 14.3) and ``functok tokenize``'s uint32 shards.
``min_frequency`` is from 0 to 2**64 - 1 (the trainer counts in 64 bits), ``limit_alphabet`` at
least 0, and special tokens are non-empty text (spec 14.3). Anything else is a ValueError naming
the argument and the limit.

Counting the pre-tokens, and the forms the counts take, are :mod:`.pretoken_counts`'s.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import re
import tempfile
import warnings
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from pathlib import Path

from .. import engine as seam
from .bpe import BYTE_TOKENS
from .fusion import ChainTable, add_fusion_merges
from .memory import release_freed_memory
from .pretoken_counts import (MAX_COUNT, CountOptions, PackedCounts, PackedPretokenCounts, PretokenCounts,
                              bounded_chain_table, bounded_counts, count_texts_packed, separator_for)
from .tokenizer_file import with_byte_tokens

__all__ = ["Corpus", "DEFAULT_FUSE", "DEFAULT_PROFILE", "MAX_MIN_FREQUENCY", "MAX_VOCAB_SIZE", "SpilledCounts",
           "alphabet_room", "check_training_options", "kept_alphabet", "separated_texts", "train_bpe", "train_counts"]

Corpus = str | os.PathLike | Sequence[str | os.PathLike] | Iterable[str]
"""A path, a list/tuple of paths (read as UTF-8), or any other iterable of texts. ``train_bpe``
also takes a corpus's :class:`PretokenCounts`."""


DEFAULT_PROFILE = "compact"
DEFAULT_FUSE = "frequent"
"""``Tokenizer.train``'s defaults: the pair with the fewest held-out tokens at equal budget in
``functok compare``'s equal-budget table (docs/concepts.md). Files record theirs."""

MAX_VOCAB_SIZE = 1 << 24  # see the module: the trainer's reservation, far past any vocabulary in use
MAX_MIN_FREQUENCY = MAX_COUNT  # the trainer counts in u64, as the counts are kept


def train_bpe(
    corpus: Corpus,
    *,
    vocab_size: int,
    splitter: str,
    normalize: str | None,
    fuse: str,
    profile: str = "paper",
    min_frequency: int = 0,
    special_tokens: Sequence[str] = (),
    limit_alphabet: int | None = None,
    show_progress: bool = True,
) -> dict:
    """The trained ``tokenizer.json`` (a dict, byte tokens in place) of a functok tokenizer
    with these settings; the arguments are those of ``Tokenizer.train``. Under
    ``fuse="frequent"`` BPE trains on the ``"none"`` pre-tokens and :mod:`.fusion` appends the
    fusion merges."""
    special_tokens = list(dict.fromkeys(special_tokens))
    check_training_options(vocab_size=vocab_size, min_frequency=min_frequency, limit_alphabet=limit_alphabet,
                           special_tokens=special_tokens)
    room = alphabet_room(vocab_size, special_tokens)
    options = CountOptions(normalize=normalize, splitter=splitter, fuse=fuse, profile=profile)
    if isinstance(corpus, (PretokenCounts, PackedPretokenCounts)):
        if corpus.options != options:
            raise ValueError(f"the counts were made with {corpus.options}, not {options}")
        words, chains = corpus.take()
    else:
        words, chains = count_texts_packed(_texts(corpus), options).take()
    words = bounded_counts(words)
    alphabet = kept_alphabet(words, room if limit_alphabet is None else min(limit_alphabet, room))
    # While the trainer runs, its own tables are the peak of the process; the counts, which the
    # fusion step reads afterwards, wait in an anonymous temporary file (SpilledCounts), and the
    # trainer's texts stream from it: held in memory, flat, they were some 110 MB on 407 MB of code.
    packed = words if isinstance(words, PackedCounts) else PackedCounts(words)
    table = None if chains is None else bounded_chain_table(chains)
    del words, chains
    with _Spill(packed, table) as spilled:
        del packed, table
        gc.collect()  # the counting left cycles behind (some 30 MB on 20 MB of code)
        release_freed_memory()
        trained = train_counts(spilled.counts, vocab_size - 256, alphabet=alphabet, min_frequency=min_frequency,
                               special_tokens=special_tokens, show_progress=show_progress)
        release_freed_memory()
        packed = chain_table = None
        if spilled.has_chains:  # the fusion step reads the pre-tokens' counts twice: back in memory
            packed, chain_table = spilled.counts.loaded(), spilled.chain_table()
    if chain_table is not None:
        trained = add_fusion_merges(trained, packed, chain_table, vocab_size, min_frequency=min_frequency,
                                    compiled=seam.fusion_merges)
    return with_byte_tokens(trained, special_tokens)


class SpilledCounts:
    """:class:`PackedCounts` written to a file (its counts, then its UTF-8) and read from there:
    :meth:`items` streams them a block at a time, :meth:`loaded` reads them back whole. The file
    is the caller's to close (:class:`_Spill`)."""

    BLOCK = 1 << 20  # bytes read at a time (a multiple of 8: whole counts)

    def __init__(self, packed: PackedCounts, file) -> None:
        self.separator, self.longest, self.characters = packed.separator, packed.longest, packed.characters
        self._file, self._length = file, len(packed.counts)
        self._counts_at = file.tell()
        file.write(packed.counts)  # in this machine's byte order: only this process reads it back
        self._data_at = file.tell()
        file.write(packed.data)
        self._end = file.tell()

    def __len__(self) -> int:
        return self._length

    def items(self) -> Iterator[tuple[str, int]]:
        return zip(self._keys(), self._counts()) if self._length else iter(())

    def loaded(self) -> PackedCounts:
        """The counts back in memory, as :class:`PackedCounts`."""
        return PackedCounts.from_core(self.separator, self._read(self._data_at, self._end),
                                      self._read(self._counts_at, self._data_at), self.longest, self.characters)

    def _keys(self) -> Iterator[str]:
        cut = self.separator.encode("utf-8")
        tail = b""
        for block in self._blocks(self._data_at, self._end):
            pieces = (tail + block).split(cut)  # a separator cut by the block's end stays in the tail
            tail = pieces.pop()
            for piece in pieces:
                yield piece.decode("utf-8", "surrogatepass")
        yield tail.decode("utf-8", "surrogatepass")

    def _counts(self) -> Iterator[int]:
        for block in self._blocks(self._counts_at, self._data_at):
            yield from array("Q", block)

    def _blocks(self, start: int, end: int) -> Iterator[bytes]:
        for at in range(start, end, self.BLOCK):
            yield self._read(at, min(end, at + self.BLOCK))

    def _read(self, start: int, end: int) -> bytes:
        # seek and read, not os.pread: the standard library has no pread on Windows
        self._file.seek(start)
        data = self._file.read(end - start)
        if len(data) != end - start:
            raise OSError(f"the temporary file of the counts ends at byte {start + len(data)}, before {end}")
        return data


class _Spill:
    """What waits while the trainer runs: the pre-tokens' counts (``counts``) and the chains'
    table. They go to an anonymous temporary file (``tempfile.TemporaryFile`` in the system's
    temporary folder: no name on disk, so it is gone when closed or when the process ends, however
    it ends); where that folder cannot take them (missing, read-only, full), they stay in memory,
    with a warning. Use it in a ``with`` block: the file is closed on the way out, error or not."""

    def __init__(self, packed: PackedCounts, table: ChainTable | None) -> None:
        self.has_chains = table is not None
        self._file = None
        try:
            self._file = tempfile.TemporaryFile(prefix="functok-counts-")
            self.counts: PackedCounts | SpilledCounts = SpilledCounts(packed, self._file)
            self._chains_at = self._file.tell()
            if table is not None:  # pickled: its segments' strings and flat arrays, no object per chain
                pickle.dump(table, self._file, pickle.HIGHEST_PROTOCOL)
                self._file.flush()
            self._table = None
        except OSError as error:
            self.close()
            self.counts, self._table = packed, table
            warnings.warn(f"training holds its counts in memory: the temporary folder cannot take them ({error})",
                          RuntimeWarning, stacklevel=2)

    def chain_table(self) -> ChainTable | None:
        if self._file is None or not self.has_chains:
            return self._table
        self._file.seek(self._chains_at)
        return pickle.load(self._file)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> _Spill:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_training_options(*, vocab_size: object, min_frequency: object = 0, limit_alphabet: object = None,
                           special_tokens: Sequence[object] = (), spell=lambda name: name) -> None:
    """ValueError naming the first argument out of its bounds (see the module), as ``spell``
    writes its name (the command line: ``--vocab-size``); the floor of ``vocab_size``, which
    depends on the special tokens, is checked where the room is counted."""
    for name, value, low, high in (("vocab_size", vocab_size, None, MAX_VOCAB_SIZE),
                                   ("min_frequency", min_frequency, 0, MAX_MIN_FREQUENCY),
                                   ("limit_alphabet", limit_alphabet, 0, None)):
        if value is None and name == "limit_alphabet":
            continue
        if type(value) is not int:
            raise ValueError(f"{spell(name)} must be a whole number, got {value!r}")
        if low is not None and value < low:
            raise ValueError(f"{spell(name)} {value} is below the minimum, {low}")
        if high is not None and value > high:
            raise ValueError(f"{spell(name)} {value:,} is over the maximum, {high:,} ({_WHY_MAXIMUM[name]})")
    for token in special_tokens:
        if not isinstance(token, str) or not token:
            raise ValueError(f"{spell('special_tokens')} {token!r}: special tokens are non-empty strings (spec 14.3)")
        if _SURROGATE.search(token):
            raise ValueError(f"{spell('special_tokens')} {token!r} holds a lone surrogate, which is not text "
                             f"(spec 14.3)")


_WHY_MAXIMUM = {"vocab_size": "2**24; the trainer reserves memory for every entry up front",
                "min_frequency": "2**64 - 1; the trainer counts in 64 bits"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def train_counts(counts: Counter[str] | PackedCounts | SpilledCounts, trainer_size: int, *,
                 alphabet: list[str] | None = None,
                 min_frequency: int = 0, special_tokens: Sequence[str] = (),
                 show_progress: bool = False, byte_fallback: bool = True) -> dict:
    """Hugging Face's ``BpeTrainer`` on pre-token counts, to ``trainer_size`` entries (special
    tokens, alphabet and merges; the byte tokens come later): its ``tokenizer.json`` as a dict.
    ``alphabet`` None keeps every character. Each pre-token is one word to a tokenizer with
    no normalizer, as often as it occurs (many to a sequence, cut apart by the pre-tokenizer), so
    the trainer's word counts are exactly ``counts``. ``byte_fallback`` is only the flag the model records (functok compare's
    paper protocol records False): the trainer learns the same merges either way."""
    try:
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import models, pre_tokenizers, trainers
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("training needs `tokenizers`: pip install 'functok[train]'") from exc
    trainer = trainers.BpeTrainer(
        vocab_size=trainer_size,
        min_frequency=min_frequency,
        special_tokens=list(special_tokens),
        show_progress=show_progress,
        # Our choice of characters, exactly: the trainer's own limit_alphabet breaks ties
        # in hash order, so it would train a different tokenizer on each run.
        **({} if alphabet is None else {"initial_alphabet": alphabet, "limit_alphabet": len(alphabet)}),
    )
    hf = HFTokenizer(models.BPE(byte_fallback=byte_fallback))  # no normalizer
    separator = counts.separator if isinstance(counts, (PackedCounts, SpilledCounts)) else separator_for(counts)
    # Each sequence is many pre-tokens joined by a character none of them holds, which the
    # pre-tokenizer cuts out again: the trainer counts exactly the same words. One pre-token per
    # sequence cost the trainer a sequence's overhead (a string taken from Python, a normalized
    # string, a hash map merged) per occurrence, which was most of the training's time.
    hf.pre_tokenizer = pre_tokenizers.Split(separator, behavior="removed")
    hf.train_from_iterator(separated_texts(counts, separator), trainer)
    trained = json.loads(hf.to_str())
    trained["pre_tokenizer"] = None  # the codec makes the pre-tokens; the separator was only transport
    return trained


def separated_texts(counts: Counter[str] | PackedCounts | SpilledCounts, separator: str,
                    size: int = 1 << 14) -> Iterator[str]:
    """Each pre-token as often as it occurred, joined by ``separator`` into texts of about
    ``size`` code points (a frequent pre-token's run cut across several), in ``counts``' order.

    >>> list(separated_texts(Counter({"ab": 3, "c": 1}), "|", 6))
    ['ab|ab', 'ab|c']
    """
    batch: list[str] = []
    length = 0
    for word, n in counts.items():
        step = len(word) + 1
        while n:
            take = min(n, max(1, (size - length) // step))
            batch.append(separator.join(repeat(word, take)))
            length += take * step
            n -= take
            if length >= size:
                yield separator.join(batch)
                batch, length = [], 0
    if batch:
        yield separator.join(batch)


def _texts(source) -> Iterator[str]:
    """Texts from a path, a list/tuple of paths, or an iterable of texts."""
    if isinstance(source, (str, os.PathLike)):
        source = [source]
    if isinstance(source, (list, tuple)):
        for path in source:
            if not Path(path).is_file():
                raise FileNotFoundError(
                    f"{path!r} is not a file (a list is read as file paths; pass iter(texts) "
                    f"to train on strings)"
                )
            yield Path(path).read_text(encoding="utf-8")
        return
    for text in source:
        if not isinstance(text, str):
            raise TypeError(f"expected texts (str), got {type(text).__name__}")
        yield text


def kept_alphabet(counts: Counter[str], limit: int) -> list[str] | None:
    """The ``limit`` most frequent characters (ties: the smaller code point), or None when all
    fit. Frequencies count every occurrence, as the trainer's do."""
    characters = counts.characters if isinstance(counts, PackedCounts) else None
    if (len(set("".join(counts))) if characters is None else characters) <= limit:
        return None
    by_count: dict[int, list[str]] = {}
    for word, n in counts.items():
        by_count.setdefault(n, []).append(word)
    frequency: Counter[str] = Counter()
    for n, words in by_count.items():  # one C-speed count per distinct word frequency
        for ch, k in Counter("".join(words)).items():
            frequency[ch] += k * n
    ranked = sorted(frequency, key=lambda ch: (-frequency[ch], ord(ch)))
    return sorted(ranked[:limit])


def alphabet_room(vocab_size: int, special_tokens: list[str]) -> int:
    """The characters that fit beside the 256 byte tokens and the special tokens (without
    this limit the trainer keeps every character it sees, whatever ``vocab_size`` says)."""
    byte_tokens = [t for t in special_tokens if t in BYTE_TOKENS]
    if byte_tokens:
        raise ValueError(f"special token {byte_tokens[0]} is a byte-fallback token; its id would decode "
                         f"as the byte")
    floor = 256 + len(special_tokens) + 1
    if type(vocab_size) is not int or vocab_size < floor:
        raise ValueError(f"vocab_size {vocab_size!r} leaves no room for the alphabet: the floor is {floor}: "
                         f"256 byte-fallback tokens, {len(special_tokens)} special tokens and one trained token")
    return vocab_size - 256 - len(special_tokens)
