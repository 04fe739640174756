"""The pure engine's decoder: :func:`functok.decoding.decode` behind a cache of decoded groups.

A stream of real text repeats its groups, so here each error-free group and the head of its
text is decoded once, by the reference decoder's own :meth:`~functok.decoding._Decoder._apply_group`,
and cached; a stream of repeated tokens then costs one dictionary lookup per group. Wherever a
question comes up (an error, a dangling group, an escape, a lone surrogate, output past
``max_output``) the stream goes to the reference decoder whole, so the text and the errors are
the reference's (tests/codec/test_decoding_*.py run both). :mod:`functok.engine` runs this module on the
pure engine; the C core has its own decoder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import decoding as reference
from .cache import remember
from .decoding import DEFAULT_MAX_OUTPUT, _Decoder, _slots, check_decode_arguments
from .grammar import FORMAT_CLASS, GROUP_CLASS, GROUP_START, NEEDS_DECODING, SURROGATE, group_end
from .opcodes import ESCAPE_CHAR, MULTIREPEAT, UPPERCASE

__all__ = ["clear_caches", "decode"]


def decode(stream: str, *, errors: str = "strict", max_output: int = DEFAULT_MAX_OUTPUT) -> str:
    """:func:`functok.decoding.decode`, the same text and errors, with error-free groups cached."""
    max_output = check_decode_arguments(stream, errors, max_output)
    if not NEEDS_DECODING.search(stream):
        return stream  # plain text is its own decoding
    if ESCAPE_CHAR not in stream and not SURROGATE.search(stream):
        out = _decode_cached(stream, max_output)
        if out is not None:
            return out
    return reference.decode(stream, errors=errors, max_output=max_output)


decode.__doc__ = reference.decode.__doc__


class _Malformed(Exception):
    """A group or its text has an error: the fast path gives up and the careful path takes over."""


class _GroupTextCache(dict):
    """(group, head of its text) -> decoded head, computed on a miss; a hit is one lookup."""

    def __missing__(self, group_text: tuple[str, str]) -> str:
        group, text = group_text
        # A text may grow by _FAST_EXPANSION code points at most here (marks add fewer than
        # its group's length): a bigger repeat is left to the careful path, so the fast path's
        # memory stays within a batch of max_output.
        decoder = _Decoder(group, len(group) + len(text) + _FAST_EXPANSION, strict=True)
        head, tail = _slots(text, 0, len(text))
        out = "".join(decoder._apply_group(0, len(group), head, tail, 0))
        if decoder.first is not None:
            raise _Malformed
        remember(self, group_text, out)
        return out


_RANGED = (MULTIREPEAT, UPPERCASE)  # instructions whose arguments are a range [start, end)


class _ReachCache(dict):
    """group -> how many slots of its text it can touch (or _Malformed if it does not parse).

    CAPITALIZE and mark instructions touch slot pos; a repeat and an UPPERCASE, slots
    [start, end) (one with a bad range at least slot start). Expansions only
    copy slots, so the first ``reach`` slots of the list as it stands always come from the
    text's first ``reach`` slots: decoding that head and appending the rest is exact.
    """

    def __missing__(self, group: str) -> int:
        decoder = _Decoder(group, DEFAULT_MAX_OUTPUT, strict=True)
        reach = max((max(ins.args[0] + 1, ins.args[1]) if ins.opcode in _RANGED else ins.args[0] + 1
                     for ins in decoder._parse(0, len(group))), default=0)
        if decoder.first is not None:
            raise _Malformed
        remember(self, group, reach)
        return reach


_group_text_cache = _GroupTextCache()
_reach_cache = _ReachCache()


def clear_caches() -> None:
    """Forget every cached group (benchmarks use this for a cold start)."""
    for cache in (_group_text_cache, _reach_cache, _group_head_cache):
        cache.clear()
_FAST_EXPANSION = 1024  # code points a repeat may add to one group's text on the fast path
_FAST_BATCH = 1024  # groups decoded between two checks of max_output


_SHORT_HEAD = 12  # text code points that travel with their group on the fastest path
# A group with up to 12 code points of its text (the fast path sees no ESCAPE).
_GROUP_WITH_HEAD = re.compile(f"([{GROUP_CLASS}]+[^{FORMAT_CLASS}]{{0,{_SHORT_HEAD}}})")


class _GroupHeadCache(dict):
    """group + up to 12 code points of its text -> their decoding.

    None where the group reaches past the 12 code points it came with: the caller then
    decodes that group with the rest of its text.
    """

    def __missing__(self, group_head: str) -> str | None:
        end = group_end(group_head)
        group, head = group_head[:end], group_head[end:]
        if not head:
            raise _Malformed  # a dangling group
        if _reach_cache[group] > len(head) == _SHORT_HEAD:
            return None
        out = _group_text_cache[group, head]
        remember(self, group_head, out)
        return out


_group_head_cache = _GroupHeadCache()


def _decode_cached(stream: str, max_output: int) -> str | None:
    """The fast path: every group with the first 12 code points of its text in one key.

    Returns None where the careful path must decide: an error, a dangling group, or output
    past ``max_output``. The stream is decoded a block at a time (see :func:`_blocks`), so
    that the list of its parts, about 25 bytes per code point, never covers the whole input.
    """
    out: list[str] = []
    size = 0
    try:
        for block in _blocks(stream):
            decoded = _decode_cached_block(block, max_output - size)
            if decoded is None:
                return None
            out.append(decoded)
            size += len(decoded)
    except _Malformed:
        return None
    return "".join(out)


_FAST_BLOCK = 1 << 16  # stream code points per block of the fast path


def _blocks(stream: str) -> Iterator[str]:
    """The stream in slices of about _FAST_BLOCK code points, each cut just before a group, so
    that every group keeps all its text (a short stream is one block, and no copy)."""
    start = 0
    while start < len(stream):
        cut = GROUP_START.search(stream, start + _FAST_BLOCK)
        end = cut.start() if cut else len(stream)
        yield stream[start:end]
        start = end


def _decode_cached_block(stream: str, max_output: int) -> str | None:
    """Decode one block on the fast path, or None past ``max_output`` (raises _Malformed).

    ``re.split`` keeps each group together with the head of its text, so decoding is a cached
    lookup per group through C-level ``map``, with the text between heads copied as it is
    (a group that reaches further is decoded with its whole text).
    """
    parts = _GROUP_WITH_HEAD.split(stream)
    size = 0
    for batch in range(1, len(parts), 2 * _FAST_BATCH):
        end = batch + 2 * _FAST_BATCH
        decoded = list(map(_group_head_cache.__getitem__, parts[batch:end:2]))
        if None in decoded:
            _decode_long_reach(parts, batch, decoded)
        parts[batch:end:2] = decoded
        size += sum(map(len, decoded))
        if size > max_output:
            return None  # a repeat may be the one that crosses max_output
    out = "".join(parts)
    return out if len(out) <= max_output else None


def _decode_long_reach(parts: list[str], batch: int, decoded: list[str | None]) -> None:
    """Decode the groups of a batch that reach past their head, with all their text.

    The text of the group in ``parts[k]`` goes on in ``parts[k + 1]`` (up to the next group),
    so that part is decoded with the group (and emptied).
    """
    for i, out in enumerate(decoded):
        if out is None:
            k = batch + 2 * i
            group_head = parts[k]
            end = group_end(group_head)
            decoded[i] = _decode_group_text(group_head[:end], group_head[end:] + parts[k + 1])
            parts[k + 1] = ""


def _decode_group_text(group: str, text: str) -> str:
    """A well-formed group and its whole text (no escape pair): its first ``reach`` slots
    decoded with the group, and the rest as it is."""
    reach = _reach_cache[group]
    if len(text) <= reach:
        return _group_text_cache[group, text]
    return _group_text_cache[group, text[:reach]] + text[reach:]


