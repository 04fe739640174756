"""Training a functok tokenizer (``Tokenizer.train``): Hugging Face ``tokenizers``' BPE trainer
on the codec's pre-tokens, with our choice of alphabet and the 256 byte-fallback tokens.

Ids of the result: the special tokens first (0, 1, ...), then the 256 byte tokens, then the
trained alphabet and merges in the trainer's order. When the corpus has more distinct
characters than ``vocab_size`` leaves room for, the most frequent are kept (ties: the smaller
code point) and the rarest are written with byte-fallback tokens.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from pathlib import Path

from ..pretokenize import pretokens as codec_pretokens
from .bpe import BYTE_TOKENS
from .file import with_byte_tokens
from .fusion import ChainCounter, add_fusion_merges

__all__ = ["Corpus", "DEFAULT_FUSE", "DEFAULT_PROFILE", "train_bpe", "train_counts", "with_byte_tokens"]

Corpus = str | os.PathLike | Sequence[str | os.PathLike] | Iterable[str]
"""A path, a list/tuple of paths (read as UTF-8), or any other iterable of texts."""


DEFAULT_PROFILE = "compact"
DEFAULT_FUSE = "frequent"
"""``Tokenizer.train``'s defaults: the pair with the fewest held-out tokens at equal budget in
``functok compare``'s equal-budget table (docs/concepts.md). Files record theirs."""


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
    room = _alphabet_room(vocab_size, special_tokens)
    chains = ChainCounter() if fuse == "frequent" else None
    counts = _pretoken_counts(_texts(corpus), normalize, splitter, "none" if chains else fuse, profile, chains)
    alphabet = kept_alphabet(counts, room if limit_alphabet is None else max(0, min(limit_alphabet, room)))
    trained = train_counts(counts, vocab_size - 256, alphabet=alphabet, min_frequency=min_frequency,
                           special_tokens=special_tokens, show_progress=show_progress)
    if chains is not None:
        trained = add_fusion_merges(trained, counts, chains.chains, vocab_size, min_frequency=min_frequency)
    return with_byte_tokens(trained, special_tokens)


def train_counts(counts: Counter[str], trainer_size: int, *, alphabet: list[str] | None = None,
                 min_frequency: int = 0, special_tokens: Sequence[str] = (),
                 show_progress: bool = False) -> dict:
    """Hugging Face's ``BpeTrainer`` on pre-token counts, to ``trainer_size`` entries (special
    tokens, alphabet and merges; the byte tokens come later): its ``tokenizer.json`` as a dict.
    ``alphabet`` None keeps every character."""
    try:
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import models, trainers
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
    hf = HFTokenizer(models.BPE(byte_fallback=True))  # no normalizer, no pre-tokenizer:
    # every sequence we yield is one pre-token, i.e. one BPE word
    hf.train_from_iterator(word_batches(counts), trainer)
    return json.loads(hf.to_str())


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


def _pretoken_counts(texts: Iterable[str], normalize, splitter, fuse: str, profile: str = "paper",
                     chains: ChainCounter | None = None) -> Counter[str]:
    """How often each pre-token (a BPE word) occurs: what the trainer counts, counted first so
    that the alphabet can be chosen before training; ``chains`` counts the chains too."""
    counts: Counter[str] = Counter()
    for text in texts:
        found = codec_pretokens(text, normalize=normalize, splitter=splitter, fuse=fuse, profile=profile)
        counts.update(found)
        if chains is not None:
            chains.update(found)
    return counts


def kept_alphabet(counts: Counter[str], limit: int) -> list[str] | None:
    """The ``limit`` most frequent characters (ties: the smaller code point), or None when all
    fit. Frequencies count every occurrence, as the trainer's do."""
    if len(set("".join(counts))) <= limit:
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


def word_batches(counts: Counter[str], size: int = 8192) -> Iterator[list[str]]:
    """Each pre-token as often as it occurred, in lists of about ``size``."""
    batch: list[str] = []
    for word, n in counts.items():
        while n:
            take = min(n, size - len(batch))
            batch.extend(repeat(word, take))
            n -= take
            if len(batch) >= size:
                yield batch
                batch = []
    if batch:
        yield batch


def _alphabet_room(vocab_size: int, special_tokens: list[str]) -> int:
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
