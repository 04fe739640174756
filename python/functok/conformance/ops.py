"""The conformance ops, one function each: what functok answers for a vector's op.

The handler (``handle``) calls these; each takes the vector's ``input`` and ``options`` and
returns the ``output`` (conformance/PROTOCOL.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..tokenizer.bpe import byte_fallback_token
from ..tokenizer.external import load_hf

__all__ = ["segment"]


def segment(pretoken: str, options: Mapping) -> list[str]:
    """The ``segment`` op (spec 10): the tokens of an optimal segmentation of one pre-token.

    ``options``: ``tokens`` (the vocabulary; id = index), ``merges`` (pairs, for greedy BPE
    and reachability), ``special_tokens``, ``byte_fallback`` (adds ``<0x00>``..``<0xFF>``),
    ``tie_break`` and ``reachable_only``. The vocabulary goes through the same loader as a
    Hugging Face ``tokenizer.json``.

    >>> segment("abc", {"tokens": ["a", "b", "c", "ab", "abc"], "merges": [["a", "b"]]})
    ['abc']
    """
    tokens = list(options["tokens"])
    if options.get("byte_fallback"):
        tokens += [byte_fallback_token(b) for b in range(256) if byte_fallback_token(b) not in tokens]
    vocab = {t: i for i, t in enumerate(tokens)}
    special = [{"content": t, "id": vocab[t]} for t in options.get("special_tokens", ())]
    model = {
        "type": "BPE",
        "vocab": vocab,
        "merges": [list(m) for m in options.get("merges", ())],
        "byte_fallback": bool(options.get("byte_fallback")),
    }
    vocabulary = load_hf({"model": model, "added_tokens": special})
    ids = vocabulary.ids(
        pretoken,
        segmentation="optimal",
        tie_break=options.get("tie_break", "leftmost-longest"),
        reachable_only=bool(options.get("reachable_only")),
    )
    return [tokens[i] for i in ids]
