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

from ..encode import pretokens as codec_pretokens
from .bpe import BYTE_TOKENS, byte_fallback_token, merge_pair

__all__ = ["Corpus", "train_bpe", "with_byte_tokens"]

Corpus = str | os.PathLike | Sequence[str | os.PathLike] | Iterable[str]
"""A path, a list/tuple of paths (read as UTF-8), or any other iterable of texts."""


def train_bpe(
    corpus: Corpus,
    *,
    vocab_size: int,
    splitter: str,
    normalize: str | None,
    split_operators: bool,
    profile: str = "paper",
    min_frequency: int = 0,
    special_tokens: Sequence[str] = (),
    limit_alphabet: int | None = None,
    show_progress: bool = True,
) -> dict:
    """The trained ``tokenizer.json`` (a dict, byte tokens in place) of a functok tokenizer
    with these settings; the arguments are those of ``Tokenizer.train``."""
    try:
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import models, trainers
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("training needs `tokenizers`: pip install 'functok[train]'") from exc
    special_tokens = list(dict.fromkeys(special_tokens))
    room = _alphabet_room(vocab_size, special_tokens)
    counts = _pretoken_counts(_texts(corpus), normalize, splitter, split_operators, profile)
    alphabet = kept_alphabet(counts, room if limit_alphabet is None else max(0, min(limit_alphabet, room)))
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - 256,  # the trainer's count: specials, alphabet, merges
        min_frequency=min_frequency,
        special_tokens=special_tokens,
        show_progress=show_progress,
        # Our choice of characters, exactly: the trainer's own limit_alphabet breaks ties
        # in hash order, so it would train a different tokenizer on each run.
        **({} if alphabet is None else {"initial_alphabet": alphabet, "limit_alphabet": len(alphabet)}),
    )
    hf = HFTokenizer(models.BPE(byte_fallback=True))  # no normalizer, no pre-tokenizer:
    # every sequence we yield is one pre-token, i.e. one BPE word
    hf.train_from_iterator(word_batches(counts), trainer)
    return with_byte_tokens(json.loads(hf.to_str()), special_tokens)


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


def _pretoken_counts(texts: Iterable[str], normalize, splitter, split_operators,
                     profile: str = "paper") -> Counter[str]:
    """How often each pre-token (a BPE word) occurs: what the trainer counts, counted first so
    that the alphabet can be chosen before training."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(codec_pretokens(text, normalize=normalize, splitter=splitter, split_operators=split_operators,
                                      profile=profile))
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


def with_byte_tokens(trained: dict, special_tokens: list[str]) -> dict:
    """A trained ``tokenizer.json`` (a dict) as a functok tokenizer stores it: byte fallback on,
    the 256 byte-fallback tokens after the special tokens, no pipeline of its own."""
    model = trained["model"]
    ordered = sorted(model["vocab"].items(), key=lambda kv: kv[1])
    specials = [t for t, _ in ordered if t in special_tokens]
    rest = [t for t, _ in ordered if t not in special_tokens]
    byte_tokens = [byte_fallback_token(b) for b in range(256)]
    clash = set(byte_tokens) & set(rest)
    if clash:
        raise ValueError(f"trained tokens collide with byte-fallback tokens: {sorted(clash)[:5]}")
    vocab = {t: i for i, t in enumerate(specials + byte_tokens + rest)}
    added = [dict(a, id=vocab[a["content"]]) for a in trained.get("added_tokens") or ()]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": None,  # the functok codec makes the pre-tokens
        "post_processor": None,
        "decoder": None,
        "model": dict(
            model,
            byte_fallback=True,
            unk_token=None,
            ignore_merges=False,
            vocab=vocab,
            merges=[list(merge_pair(m)) for m in model["merges"]],
        ),
    }
