"""Pre-tokens (spec 9): the strings a BPE trainer or tokenizer sees, made from the encoder's
pieces (:mod:`functok.encoding`) under one of three rules, :data:`FUSE_MODES`: split (9.1), whole
(9.2) or context chains (9.4).

>>> pretokens("Hello world", fuse="none")
['\\ue100\\ue000', 'hello', ' world']
"""

from __future__ import annotations

from itertools import chain
from typing import Callable, Iterable, Iterator, TypeVar

from .encoding import DEFAULT_PROFILE, FEATURES, analyse_piece, encoded_pieces, map_pieces
from .opcodes import GROUP_FIRST, GROUP_LAST

__all__ = ["FUSE_MODES", "chained", "context_chains", "fuse_mode", "has_group", "piece_pretokens",
           "pretokens", "pretokens_by"]

T = TypeVar("T")

FUSE_MODES = ("none", "all", "frequent")
"""How a piece's group and base become pre-tokens (spec 9): ``"none"`` splits them,
``"all"`` keeps each piece whole, ``"frequent"`` joins a piece that has a group to the pre-token
before it (context chains; a tokenizer trained so fuses the frequent combinations by merges)."""


def pretokens(text: str, *, normalize: str | None = "nfc", splitter: str = "llama3",
              split_operators: bool = True, fuse: str | None = None, profile: str = DEFAULT_PROFILE,
              fold: str | None = None, case: str | None = None,
              features: Iterable[str] = FEATURES) -> list[str]:
    """The pre-tokens that BPE sees (spec section 9); they concatenate to ``encode(text)``.

    ``fuse`` (:data:`FUSE_MODES`) names the rule; without it, ``split_operators`` picks
    ``"none"`` (True) or ``"all"`` (False).

    >>> pretokens("Hello")
    ['\\ue100\\ue000', 'hello']
    >>> pretokens("Hello", split_operators=False)
    ['\\ue100\\ue000hello']
    >>> pretokens("see Hello, World", fuse="frequent")
    ['see\\ue100\\ue001 hello', ',\\ue100\\ue001 world']
    """
    return pretokens_by(fuse_mode(fuse, split_operators), text, normalize=normalize,
                        splitter=splitter, profile=profile, fold=fold, case=case, features=features)


def pretokens_by(mode: str, text: str, **options) -> list[str]:
    """:func:`pretokens` under a rule already resolved by :func:`fuse_mode` (the tokenizer
    resolves its rule once, when it is made). ``options`` as :func:`functok.encode`."""
    if mode == "none":  # 9.1
        return list(chain.from_iterable(map_pieces(piece_pretokens, text, **options)))
    encoded = encoded_pieces(text, **options)
    return encoded if mode == "all" else context_chains(encoded)  # 9.2, 9.4


def piece_pretokens(piece: str, features: frozenset[str] = FEATURES, fold: str = "all",
                    case: str = "capitalize") -> tuple[str, ...]:
    """The pre-tokens of one piece under ``fuse="none"`` (spec 9.1): one per instruction, then
    the base."""
    enc = analyse_piece(piece, features, fold, case)
    return tuple(i.code for i in enc.instructions) + (enc.base,)


def fuse_mode(fuse: str | None, split_operators: bool = True) -> str:
    """The pre-token rule of spec 9: ``fuse`` when given, else ``split_operators``'s."""
    if fuse is None:
        return "none" if split_operators else "all"
    if fuse not in FUSE_MODES:
        raise ValueError(f"unknown fuse mode {fuse!r}: expected one of {FUSE_MODES}")
    return fuse


def has_group(encoded_piece: str) -> bool:
    """Whether an encoded piece starts with an instruction (its base's own private-use code
    points are escaped, so they start with ESCAPE, outside the group range)."""
    return bool(encoded_piece) and _GROUP_FIRST <= encoded_piece[0] <= _GROUP_LAST


def chained(pieces: Iterable[T], grouped: Callable[[T], bool]) -> Iterator[list[T]]:
    """Spec 9.4 on pieces in any form: each chain as the list of its pieces. A piece for which
    ``grouped`` is true joins the chain before it; any other piece starts one."""
    chain: list[T] = []
    for piece in pieces:
        if chain and not grouped(piece):
            yield chain
            chain = []
        chain.append(piece)
    if chain:
        yield chain


def context_chains(encoded_pieces: Iterable[str]) -> list[str]:
    """Spec 9.4 on encoded pieces: the pre-tokens. The same rule as :func:`chained`, written out
    because it runs once per piece on the tokenizer's encode path."""
    out: list[str] = []
    tail: list[str] | None = None  # the last chain's parts, once it has two (joined at its end:
    # += on a long chain would be quadratic)
    first, last = _GROUP_FIRST, _GROUP_LAST
    for enc in encoded_pieces:
        if out and first <= enc[0] <= last:  # has_group, inline: this loop runs once per piece
            if tail is None:
                tail = [out[-1]]
            tail.append(enc)
        else:
            if tail is not None:
                out[-1] = "".join(tail)
                tail = None
            out.append(enc)
    if tail is not None:
        out[-1] = "".join(tail)
    return out


_GROUP_FIRST, _GROUP_LAST = chr(GROUP_FIRST), chr(GROUP_LAST)
