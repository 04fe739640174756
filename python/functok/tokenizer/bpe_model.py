"""A ``tokenizer.json``'s BPE model, checked so that each fault is a :class:`TokenizerFileError`
naming its place (a merge of unknown tokens, two tokens with one id, ...), and functok's BPE
built from it. The functok tokenizer file embeds one (spec 14.3,
:mod:`functok.tokenizer.tokenizer_file`); :mod:`functok.tokenizer.external` loads one on its own.

``conformance/schema/tokenizer-file.schema.json`` describes the same shape for readers.

>>> try:
...     check_bpe({"model": []}, "t.json", "$")
... except TokenizerFileError as e:
...     print(e)
t.json: $.model: expected an object, got a list
"""

from __future__ import annotations

from itertools import chain
from typing import Any, NamedTuple, NoReturn

from .bpe import BPE
from .errors import TokenizerFileError
from .json_checks import ID, MAX_ID, Checker, as_int, describe, entry, field, is_id, is_object, shown

__all__ = ["BPEModel", "build_bpe", "check_bpe"]


class BPEModel(NamedTuple):
    """The checked parts of a ``tokenizer.json``: ``model`` is its ``"model"`` object."""

    model: dict
    vocab: dict[str, int]
    merges: list[tuple[str, str]]
    special_tokens: dict[str, int]
    id_to_token: dict[int, str]


def check_bpe(data: Any, file: str, root: str, *, added_in_vocab: bool = False) -> BPEModel:
    """Check the BPE parts of a ``tokenizer.json`` found at JSON path ``root`` of ``file``:
    an object ``model`` with a ``vocab`` of unique ids, ``merges`` of two strings, and
    ``added_tokens`` with ids of their own (vocabulary tokens, when ``added_in_vocab``).
    :func:`build_bpe` checks the merges' tokens."""
    c = Checker(file)
    if not isinstance(data, dict):
        c.fail(root, f"expected an object (a tokenizer.json), got {describe(data)}")
    model = c.object(data, root, "model")
    at = field(root, "model")
    c.get(model, at, "type", '"BPE"', lambda v: v == "BPE", default="BPE")
    vocab, id_to_token = _check_vocab(c, model, at)
    merges = _check_merges(c, model, at, vocab)
    specials = _check_added_tokens(c, data, root, vocab, id_to_token, added_in_vocab)
    return BPEModel(model, vocab, merges, specials, id_to_token)


def _check_vocab(c: Checker, model: dict, at: str) -> tuple[dict[str, int], dict[int, str]]:
    """The vocabulary and its inverse: whole-number ids in range (spec 14.1: ``5.0`` is ``5``),
    each once."""
    vocab = c.get(model, at, "vocab", "an object (token to id)", is_object)
    ids = vocab.values()
    # The usual case, in C loops (types first: a list or an object cannot be a dict key);
    # else find and name the first fault.
    if not ids or (set(map(type, ids)) == {int} and min(ids) >= 0 and max(ids) < MAX_ID):
        id_to_token = dict(zip(ids, vocab))
        if len(id_to_token) == len(vocab):
            return vocab, id_to_token
    where = field(at, "vocab")
    token_of: dict[int, str] = {}
    for token, i in vocab.items():
        if not is_id(i):
            c.fail(entry(where, token), f"expected {ID}, got {describe(i)}")
        other = token_of.setdefault(as_int(i), token)
        if other != token:
            c.fail(entry(where, token), f"expected a unique id, got {as_int(i)}, the id of {shown(other)}")
    # every id is a whole number in range, some written as floats (5.0): the ids are integers
    return {token: as_int(i) for token, i in vocab.items()}, token_of


def _check_merges(c: Checker, model: dict, at: str, vocab: dict[str, int]) -> list[tuple[str, str]]:
    """The merges as pairs of strings. That both are tokens, and their concatenation too, is
    checked by :func:`build_bpe`, whose BPE looks each one up anyway."""
    merges = c.get(model, at, "merges", "a list of merges", lambda v: isinstance(v, list))
    try:  # the usual case, in C loops; any fault is found (and named) below
        pairs = [tuple(m) if type(m) is list else tuple(m.split(" ")) for m in merges]
        if not pairs or (set(map(len, pairs)) == {2} and set(map(type, chain.from_iterable(pairs))) == {str}):
            return pairs
    except (AttributeError, TypeError):  # a merge that is neither a list nor a string
        pass
    _locate_bad_merge(c, field(at, "merges"), merges, vocab)


def build_bpe(checked: BPEModel, file: str, root: str, **options) -> BPE:
    """functok's BPE of a checked model (``options`` go to :class:`functok.tokenizer.bpe.BPE`); a merge
    of tokens that are not in the vocabulary is a :class:`TokenizerFileError` naming it."""
    try:
        return BPE(checked.vocab, checked.merges, **options)
    except KeyError:
        where = field(field(root, "model"), "merges")
        _locate_bad_merge(Checker(file), where, checked.model["merges"], checked.vocab)


def _locate_bad_merge(c: Checker, where: str, merges: list, vocab: dict[str, int]) -> NoReturn:
    for k, merge in enumerate(merges):
        _check_merge(c, f"{where}[{k}]", merge, vocab)
    raise AssertionError("unreachable: a quick check failed, so a merge is at fault")


def _check_merge(c: Checker, here: str, merge: Any, vocab: dict[str, int]) -> None:
    if isinstance(merge, str) and merge.count(" ") == 1:
        pair = tuple(merge.split(" "))
    elif isinstance(merge, list) and len(merge) == 2 and all(isinstance(t, str) for t in merge):
        pair = tuple(merge)
    else:
        c.fail(here, f'expected a merge, "left right" or ["left", "right"], got {describe(merge)}')
    for side, token in enumerate(pair):
        if token not in vocab:
            c.fail(f"{here}[{side}]" if isinstance(merge, list) else here,
                   f"expected a token of the vocabulary, got {describe(token)}")
    if pair[0] + pair[1] not in vocab:
        c.fail(here, f"expected a merge whose result is a token, but {shown(pair[0] + pair[1])} is not in "
                     f"the vocabulary")


def _check_added_tokens(c: Checker, data: dict, root: str, vocab: dict[str, int], id_to_token: dict[int, str],
                        in_vocab: bool) -> dict[str, int]:
    """Each added token once, with the vocabulary's id for it. A token missing from the
    vocabulary (as Llama 3's specials are) is refused when ``in_vocab``, else it needs an id
    no vocabulary token has."""
    added = c.get(data, root, "added_tokens", "a list of tokens", lambda v: v is None or isinstance(v, list),
                  default=None)
    where = field(root, "added_tokens")
    specials: dict[str, int] = {}
    ids: set[int] = set()
    for k, token in enumerate(added or ()):
        here = f"{where}[{k}]"
        if not isinstance(token, dict):
            c.fail(here, f"expected an object with content and id, got {describe(token)}")
        content = c.get(token, here, "content", "a non-empty string", lambda v: isinstance(v, str) and v != "")
        i = as_int(c.get(token, here, "id", ID, is_id))
        if content in vocab or in_vocab:
            if vocab.get(content) != i:
                c.fail(field(here, "id"), f"expected the vocabulary's id of {shown(content)} "
                                          f"({vocab.get(content, 'none: it is not in the vocabulary')}), got {i}")
        elif i in id_to_token:
            c.fail(field(here, "id"), f"expected an id no vocabulary token has, got {i}, the id of "
                                      f"{shown(id_to_token[i])}")
        if content in specials:
            c.fail(here, f"expected each added token once, got {shown(content)} again")
        if i in ids:
            c.fail(field(here, "id"), f"expected a unique id, got {i} again")
        specials[content] = i
        ids.add(i)
    return specials
