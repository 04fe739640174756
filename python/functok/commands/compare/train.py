"""What ``functok compare`` trains and counts: the variants (one way each of cutting text into
pre-tokens), Hugging Face BPE trained on pre-token counts, the vocabulary's statistics and
growth, and held-out token counts. :mod:`.compare` runs them over corpora and reports.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...encoding import FEATURES
from ...engine import pretokens as codec_pretokens
from ...normalize import nfc
from ...opcodes import GROUP_FIRST, GROUP_LAST
from ...splitting import split
from ...tokenizer.bpe import merge_pair

__all__ = ["BASELINE", "BYTE_TOKENS", "EXHAUSTION_VOCAB_SIZE", "FUNCTIONALIZER", "SPECIAL_TOKENS", "VARIANTS",
           "Variant", "count_pretokens", "fill_greedy_cache", "instruction_tokens", "token_count", "train_as_the_paper",
           "vocabulary_for", "vocabulary_stats", "with_byte_fallback"]

EXHAUSTION_VOCAB_SIZE = 4_096_000  # the paper's budget: far more than any corpus can fill
# Five special tokens, as in the paper; spelled so that no corpus contains them.
SPECIAL_TOKENS = tuple(f"<|functok-special-{k}|>" for k in range(5))
BYTE_TOKENS = 256  # the byte-fallback tokens every tokenizer here carries for lossless ids
_GROUP_FIRST, _GROUP_LAST = chr(GROUP_FIRST), chr(GROUP_LAST)  # opcodes and arguments (spec 2)


# --- Variants: one way of cutting text into pre-tokens ------------------------------------


@dataclass(frozen=True)
class Variant:
    key: str  # the name in report.json
    label: str  # the name in the tables
    features: frozenset[str] | None  # None: the baseline (no codec)
    split_operators: bool = True

    def pretokenize(self, splitter: str) -> Callable[[str], list[str]]:
        if self.features is None:
            return lambda text: split(nfc(text), splitter=splitter)
        features, split_operators = self.features, self.split_operators
        return lambda text: codec_pretokens(
            text, splitter=splitter, split_operators=split_operators, features=features)


BASELINE = Variant("baseline", "baseline (NFC + split)", None)
FUNCTIONALIZER = Variant("functionalizer", "Functionalizer (paper)", FEATURES)
VARIANTS = (
    BASELINE,
    FUNCTIONALIZER,
    Variant("case", "ablation: case only", frozenset({"case"})),
    Variant("marks", "ablation: marks only", frozenset({"marks"})),
    Variant("repeat", "ablation: repeats only", frozenset({"repeat"})),
    Variant("none", "ablation: no feature", frozenset()),
    Variant("joined", "split_operators=false", FEATURES, split_operators=False),
)


# --- Progress ------------------------------------------------------------------------------


def _progress(items: Iterable, *, total: int, desc: str, enabled: bool) -> Iterable:
    """tqdm over ``items`` when installed and stderr is a terminal; else ``items`` unchanged."""
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, total=total, desc=desc, unit="doc", file=sys.stderr, leave=False, disable=None)


# --- Training ------------------------------------------------------------------------------


def count_pretokens(texts: Sequence[str], pretokenize: Callable[[str], list[str]], *,
                    desc: str = "pre-tokens", progress: bool = False) -> Counter:
    counts: Counter = Counter()
    for text in _progress(texts, total=len(texts), desc=desc, enabled=progress):
        counts.update(pretokenize(text))
    return counts


def train_as_the_paper(counts: Counter, *, vocab_size: int, progress: bool = False) -> dict:
    """The paper's training on pre-token counts (its 5 special tokens, every character, byte
    fallback off, ``min_frequency`` 0): :func:`functok.tokenizer.train.train_counts`, the trainer
    ``Tokenizer.train`` uses, with those settings. Its ``tokenizer.json`` as a dict."""
    from ...tokenizer.train import train_counts

    return train_counts(counts, vocab_size, special_tokens=SPECIAL_TOKENS, show_progress=progress,
                        byte_fallback=False)


def vocabulary_stats(trained: dict, counts: Counter) -> dict[str, Any]:
    """The vocabulary's parts, and the growth curve: after k merges, how big the vocabulary
    is and what share of the training pre-tokens (occurrences) are already one token."""
    vocab: dict[str, int] = trained["model"]["vocab"]
    merges = [merge_pair(m) for m in trained["model"]["merges"]]
    specials = sum(1 for t in SPECIAL_TOKENS if t in vocab)
    alphabet = sum(1 for t in vocab if len(t) == 1 and t not in SPECIAL_TOKENS)
    made_at: dict[str, int] = {}  # token -> the 1-based merge that first made it
    for k, (a, b) in enumerate(merges, 1):
        made_at.setdefault(a + b, k)
    whole = {p: made_at.get(p, 0 if len(p) == 1 else None) for p in counts}
    missing = sum(1 for k in whole.values() if k is None)
    return {
        "vocabulary": len(vocab),
        "special_tokens": specials,
        "alphabet": alphabet,
        "merges": len(merges),
        "merged_tokens": len(made_at),  # several merges may make the same token
        "pretokens_not_in_vocabulary": missing,
        "growth": _growth(made_at, whole, counts, specials + alphabet, len(merges)),
    }


def _growth(made_at: dict[str, int], whole: dict, counts: Counter, start: int, merges: int,
            points: int = 200) -> list[list[float]]:
    """[merges, vocabulary, share of pre-token occurrences that are one token] at ~points
    evenly spaced merge counts (and at exhaustion)."""
    new_at = Counter(made_at.values())  # merges that made a new token, by merge number
    covered_at: Counter = Counter()
    for p, k in whole.items():
        if k is not None:
            covered_at[k] += counts[p]
    total = sum(counts.values()) or 1
    step = max(1, merges // points)
    out, vocab, covered = [], start, covered_at[0]
    for k in range(0, merges + 1):
        vocab += new_at[k] if k else 0
        covered += covered_at[k] if k else 0
        if k % step == 0 or k == merges:
            out.append([k, vocab, round(covered / total, 6)])
    return out


# --- Held-out encoding ----------------------------------------------------------------------


def with_byte_fallback(trained: dict) -> dict:
    """The trained tokenizer.json as :class:`functok.Tokenizer` stores it: byte fallback on,
    the 256 byte tokens after the special tokens (``functok.tokenizer`` does this)."""
    from ...tokenizer.tokenizer_file import with_byte_tokens

    return with_byte_tokens(trained, list(SPECIAL_TOKENS))


def vocabulary_for(trained: dict, variant: Variant, splitter: str):
    """A :class:`functok.tokenizer.vocabulary.Vocabulary` (greedy BPE and optimal DP) over ``variant``'s
    pre-tokens. The Functionalizer goes through :class:`functok.Tokenizer` itself."""
    from ...tokenizer import Tokenizer
    from ...tokenizer.external import load_hf

    full = with_byte_fallback(trained)
    if variant == FUNCTIONALIZER:
        return Tokenizer(full, splitter=splitter).vocabulary
    return load_hf(full, pre_tokenizer=variant.pretokenize(splitter))


def fill_greedy_cache(vocabulary, pretokens: Iterable[str], trained_full: dict) -> None:
    """Greedy ids of many distinct pre-tokens through ``tokenizers`` at once (the same ids as
    the pure-Python BPE, which ``functok.tokenizer`` tests); the rest of the work is cached."""
    from tokenizers import Tokenizer as HFTokenizer

    hf = HFTokenizer.from_str(json.dumps(dict(trained_full, added_tokens=[])))
    misses = vocabulary.greedy_misses(pretokens)
    vocabulary.remember_greedy(misses, [enc.ids for enc in hf.encode_batch(misses, add_special_tokens=False)])


def token_count(vocabulary, counts: Counter, segmentation: str = "greedy") -> int:
    return sum(len(vocabulary.ids(p, segmentation=segmentation)) * n for p, n in counts.items())


def instruction_tokens(vocabulary, counts: Counter) -> int:
    """Greedy tokens spent on instruction pre-tokens (with split_operators, an instruction is
    its own pre-token and starts with an opcode; a base never starts with a group code point,
    since a private-use character in text is escaped with U+EFFF)."""
    return sum(len(vocabulary.ids(p)) * n for p, n in counts.items() if _GROUP_FIRST <= p[0] <= _GROUP_LAST)
