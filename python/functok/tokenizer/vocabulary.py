"""A vocabulary: a merge model's tokens, its pre-tokenizer, and both segmentations over them.

A :class:`Vocabulary` answers "which ids spell this pre-token?" under greedy BPE or under
optimal segmentation (spec 10), for functok's own tokenizers and for production vocabularies
alike (:mod:`functok.tokenizer.external` loads a ``tokenizer.json`` or a tiktoken file). It is
built from three explicit parts, each with one contract:

* the **merge model** (:class:`~functok.tokenizer.bpe.BPE` or
  :class:`~functok.tokenizer.bpe.TiktokenBPE`): ``tokenize(symbols)`` gives the greedy ids,
  ``reachable()`` the tokens its merges can build, ``byte_fallback`` says whether a symbol
  missing from the vocabulary becomes its UTF-8 byte tokens;
* the **pre-tokenizer** (:data:`PreTokenizer`): a function from text to its pre-tokens;
* the **symbol space** (:class:`SymbolSpace`, spec 10.1): how a pre-token is spelled in the
  model's symbols, and which text it stands for.

The candidate tokens of optimal segmentation never include special (added) tokens or
byte-fallback tokens, and can be restricted to the tokens reachable by the merges. Ids are
cached once, per pre-token and per mode, under the policy of :mod:`functok.cache`.

>>> from functok.tokenizer.bpe import BPE
>>> bpe = BPE({"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4, "abc": 5}, [("b", "c"), ("a", "b"), ("ab", "c")])
>>> v = Vocabulary(name="toy", tokens=bpe.vocab, special_tokens={}, model=bpe, pre_tokenizer=str.split)
>>> v.encode("abc ab"), v.encode("abc ab", segmentation="optimal")  # b|c merges first: a|bc
([0, 3, 4], [5, 4])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from ..cache import remember
from .. import engine
from .bpe import BYTE_TOKENS, byte_fallback_token, reachable_by_merges
from .segment import TIE_BREAKS, Segmenter

__all__ = ["CHARACTERS", "SEGMENTATIONS", "MergeModel", "PreTokenizer", "SymbolSpace", "Vocabulary",
           "reachable_by_merges"]

SEGMENTATIONS = ("greedy", "optimal")

PreTokenizer = Callable[[str], Sequence[Any]]
"""A function from text to its pre-tokens, in order (each non-empty, spelled as the vocabulary's
tokens are: GPT-2's byte alphabet for a byte-level ``tokenizer.json``, text otherwise)."""


class MergeModel(Protocol):
    """What a vocabulary needs of its BPE: :class:`functok.tokenizer.bpe.BPE` and
    :class:`functok.tokenizer.bpe.TiktokenBPE` are the two."""

    byte_fallback: bool

    def tokenize(self, symbols: Any) -> list[int]: ...

    def reachable(self) -> set: ...


class SymbolSpace:
    """How a vocabulary's pre-tokens are spelled in its model's symbols (spec 10.1).

    ``alphabet`` is ``"characters"`` (one symbol per code point) or ``"byte-level"`` (one
    symbol per byte). :meth:`spell` gives the symbols of a pre-token (what the merge model and
    the segmenter read) and :meth:`text` the text it stands for (for word lengths). This base
    class spells a pre-token as it is: character vocabularies, and byte-level ones whose
    pre-tokens are already written in their byte alphabet.
    """

    spells_as_is = True  # spell() is the identity: the hot path skips the call

    def __init__(self, alphabet: str = "characters") -> None:
        self.alphabet = alphabet

    def spell(self, pretoken: Any) -> Any:
        return pretoken

    def text(self, pretoken: Any) -> str:
        return pretoken


CHARACTERS = SymbolSpace("characters")


class Vocabulary:
    """A BPE vocabulary with its pre-tokenizer, its greedy BPE and its optimal segmenter.

    ``tokens`` is every model token (special ones included) with its id, ``special_tokens``
    the added tokens; ``model``, ``pre_tokenizer`` and ``symbols`` are described in the module
    docstring.
    """

    def __init__(
        self,
        *,
        name: str,
        tokens: Mapping,
        special_tokens: Mapping[str, int],
        model: MergeModel,
        pre_tokenizer: PreTokenizer,
        symbols: SymbolSpace = CHARACTERS,
    ) -> None:
        self.name = name
        self.tokens = dict(tokens)
        self.special_tokens = dict(special_tokens)
        self.model = model
        self.pre_tokenizer = pre_tokenizer
        self.symbols = symbols
        self._segmenters: dict[bool, Segmenter] = {}
        self._modes: dict[tuple, tuple[dict, Callable]] = {}

    @property
    def alphabet(self) -> str:
        """``"byte-level"`` or ``"characters"``."""
        return self.symbols.alphabet

    @property
    def byte_fallback(self) -> bool:
        return self.model.byte_fallback

    def __len__(self) -> int:
        return len(self.tokens)

    def pre_tokenize(self, text: str) -> Sequence[Any]:
        """The pre-tokens of ``text``, from the vocabulary's pre-tokenizer."""
        return self.pre_tokenizer(text)

    def to_text(self, pretoken: Any) -> str:
        """The text a pre-token stands for."""
        return self.symbols.text(pretoken)

    # -- the candidate tokens of spec 10 ----------------------------------------------------

    def candidates(self, *, reachable_only: bool = False) -> dict:
        """The DP's tokens: no special tokens, no byte-fallback tokens."""
        special = set(self.special_tokens.values())
        byte_tokens = BYTE_TOKENS if self.byte_fallback else frozenset()
        out = {t: i for t, i in self.tokens.items() if i not in special and t not in byte_tokens}
        if reachable_only:
            keep = self.model.reachable()
            out = {t: i for t, i in out.items() if t in keep}
        return out

    def segmenter(self, *, reachable_only: bool = False) -> Segmenter:
        """The optimal segmenter over :meth:`candidates`: the engine's
        (:func:`functok.engine.segmenter`, the C core's: same methods, ids and errors), else the
        pure reference."""
        seg = self._segmenters.get(reachable_only)
        if seg is None:
            seg = self._segmenters[reachable_only] = self._new_segmenter(reachable_only)
        return seg

    def _new_segmenter(self, reachable_only: bool) -> Segmenter:
        candidates = self.candidates(reachable_only=reachable_only)
        fallback = self._byte_fallback_ids if self.byte_fallback else None
        byte_ids = [self.tokens.get(byte_fallback_token(b)) for b in range(256)] if fallback else None
        return engine.segmenter(candidates, byte_ids, fallback) or Segmenter(candidates, fallback=fallback)

    def _byte_fallback_ids(self, symbol: str) -> list[int]:
        ids = [self.tokens.get(byte_fallback_token(b)) for b in symbol.encode("utf-8")]
        if None in ids:
            raise ValueError(f"{symbol!r} is not in the vocabulary and has no byte fallback")
        return ids  # type: ignore[return-value]

    # -- ids ---------------------------------------------------------------------------------

    def ids(self, pretoken, *, segmentation: str = "greedy", tie_break: str = "leftmost-longest",
            reachable_only: bool = False) -> list[int]:
        """The ids of one pre-token."""
        return self.encode_pretokens((pretoken,), segmentation=segmentation, tie_break=tie_break,
                                     reachable_only=reachable_only)

    def encode(self, text: str, *, segmentation: str = "greedy", tie_break: str = "leftmost-longest",
               reachable_only: bool = False) -> list[int]:
        """All ids of ``text``: the ids of its pre-tokens, concatenated."""
        return self.encode_pretokens(self.pre_tokenize(text), segmentation=segmentation, tie_break=tie_break,
                                     reachable_only=reachable_only)

    def encode_pretokens(self, pretokens: Iterable, *, segmentation: str = "greedy",
                         tie_break: str = "leftmost-longest", reachable_only: bool = False) -> list[int]:
        """The ids of each pre-token, concatenated (cached per pre-token and mode)."""
        cache, compute = self._mode(segmentation, tie_break, reachable_only)
        get = cache.get
        out: list[int] = []
        extend = out.extend
        for pretoken in pretokens:  # the hot loop: mostly cache hits
            found = get(pretoken)
            if found is None:
                found = compute(pretoken)
                remember(cache, pretoken, found)
            extend(found)
        return out

    def greedy_misses(self, pretokens: Iterable) -> list:
        """The distinct pre-tokens whose greedy ids are not cached yet, in order."""
        cache = self._mode("greedy", "", False)[0]
        return list(dict.fromkeys(p for p in pretokens if p not in cache))

    def remember_greedy(self, pretokens: Iterable, ids: Iterable[list[int]]) -> None:
        """Cache the greedy ids of ``pretokens`` computed elsewhere (``tokenizers``' batch
        encoding, say): they must be the ids the merge model gives."""
        cache = self._mode("greedy", "", False)[0]
        for pretoken, found in zip(pretokens, ids):
            remember(cache, pretoken, found)

    def clear_caches(self) -> None:
        """Forget every cached segmentation (benchmarks meet input cold)."""
        self._modes.clear()

    def _mode(self, segmentation: str, tie_break: str, reachable_only: bool) -> tuple[dict, Callable]:
        """The cache of one mode and the function that fills it."""
        if segmentation == "greedy":  # one greedy cache whatever the DP options
            tie_break, reachable_only = "", False
        key = (segmentation, tie_break, reachable_only)
        mode = self._modes.get(key)
        if mode is None:
            mode = self._modes[key] = ({}, self._computer(*key))
        return mode

    def _computer(self, segmentation: str, tie_break: str, reachable_only: bool) -> Callable:
        spell = self.symbols.spell
        as_is = self.symbols.spells_as_is
        if segmentation == "greedy":
            greedy = self.model.tokenize
            return greedy if as_is else lambda p: greedy(spell(p))
        if segmentation != "optimal":
            raise ValueError(f"unknown segmentation {segmentation!r}; expected greedy or optimal")
        seg = self.segmenter(reachable_only=reachable_only)
        if tie_break == "leftmost-longest":
            best = seg.leftmost_longest
            return best if as_is else lambda p: best(spell(p))
        if tie_break == "prefer-greedy":
            return lambda p: seg.segment(spell(p), tie_break=tie_break, greedy=self.ids(p))
        raise ValueError(f"unknown tie_break {tie_break!r}; expected one of {TIE_BREAKS}")
