"""Token saving rate (spec 10.4): how many fewer tokens optimal segmentation spends than greedy BPE.

TSR = (G - O) / G, where G and O are the token counts of greedy BPE and of optimal
segmentation on the same pre-tokens with the same vocabulary. It is reported for the whole
corpus and per word-length bucket (the pre-token's length in code points). ``functok tsr``
(:mod:`functok.commands.tsr`) is the command around :func:`measure`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .vocabulary import Vocabulary

__all__ = ["BUCKETS", "Bucket", "Report", "measure"]

# (label, shortest, longest) in code points; the edges are not normative
BUCKETS = (("1", 1, 1), ("2", 2, 2), ("3-4", 3, 4), ("5-8", 5, 8), ("9-16", 9, 16), ("17+", 17, None))


@dataclass
class Bucket:
    bucket: str
    pretokens: int = 0
    greedy: int = 0
    optimal: int = 0

    @property
    def tsr(self) -> float:
        return (self.greedy - self.optimal) / self.greedy if self.greedy else 0.0


@dataclass
class Report:
    vocab: str
    alphabet: str
    vocab_size: int
    reachable_only: bool
    files: int = 0
    characters: int = 0
    pretokens: int = 0
    greedy: int = 0
    optimal: int = 0
    changed: int = 0  # pre-token occurrences whose optimal count is below greedy's
    buckets: list[Bucket] = field(default_factory=lambda: [Bucket(label) for label, _, _ in BUCKETS])

    @property
    def tsr(self) -> float:
        return (self.greedy - self.optimal) / self.greedy if self.greedy else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tsr": self.tsr}
        out.update(asdict(self))
        out["buckets"] = [dict(asdict(b), tsr=b.tsr) for b in self.buckets]
        return out


def _bucket_index(length: int) -> int:
    for k, (_, low, high) in enumerate(BUCKETS):
        if length >= low and (high is None or length <= high):
            return k
    return 0  # length 0 does not occur: pre-tokens are never empty


def measure(
    vocabulary: Vocabulary,
    texts: Iterable[str],
    *,
    reachable_only: bool = False,
    report: Report | None = None,
) -> Report:
    """Count greedy and optimal tokens of every pre-token of ``texts``.

    >>> from functok.tokenizer.external import load_hf
    >>> v = load_hf({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4,
    ...     "abc": 5}, "merges": [["b", "c"], ["a", "b"], ["ab", "c"]]}}, pre_tokenizer=str.split)
    >>> r = measure(v, ["abc abc ab"])
    >>> (r.greedy, r.optimal, round(r.tsr, 3))
    (5, 3, 0.4)
    """
    if report is None:
        report = Report(vocabulary.name, vocabulary.alphabet, len(vocabulary), reachable_only)
    for text in texts:
        report.characters += len(text)
        counts = Counter(vocabulary.pre_tokenize(text))  # each distinct pre-token once
        for pretoken, times in counts.items():
            greedy = len(vocabulary.ids(pretoken))
            optimal = len(vocabulary.ids(pretoken, segmentation="optimal", reachable_only=reachable_only))
            bucket = report.buckets[_bucket_index(len(vocabulary.to_text(pretoken)))]
            for target in (report, bucket):
                target.pretokens += times
                target.greedy += greedy * times
                target.optimal += optimal * times
            if optimal < greedy:
                report.changed += times
    return report
