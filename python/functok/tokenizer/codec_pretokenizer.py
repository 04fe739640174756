"""The second step of the tokenizer's encode path (after :mod:`.special_tokens`): the codec's
pre-tokens of each stretch of text (spec 9), each with the span of the text it comes from.

>>> codec = CodecPreTokenizer(normalize="nfc", splitter="llama3", fuse="none")
>>> codec("Hello")
['\\ue100\\ue000', 'hello']
>>> [(p, span) for p, span, _ in codec.spans("Hello")]
[('\\ue100\\ue000', (0, 1)), ('hello', (0, 5))]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..encoding import pieces as codec_pieces
from ..opcodes import ESCAPE_CHAR
from .. import engine
from ..pretokenize import FUSE_MODES, chained

__all__ = ["CodecPreTokenizer", "Span"]

Span = tuple[int, int]  # (start, end) code points of the original text


class CodecPreTokenizer:
    """The codec's pre-tokens of text (:func:`functok.pretokens` with these settings): call it
    with a text for its pre-tokens, or use :meth:`spans` for where each comes from. ``fuse`` is
    the rule as :func:`functok.pretokenize.fuse_mode` resolved it (the tokenizer does, once)."""

    def __init__(self, *, normalize: str | None, splitter: str, fuse: str,
                 profile: str = "paper") -> None:
        if fuse not in FUSE_MODES:
            raise ValueError(f"unknown fuse mode {fuse!r}: expected one of {FUSE_MODES}")
        self.normalize = normalize
        self.splitter = splitter
        self.fuse = fuse
        self.profile = profile

    def __call__(self, text: str) -> list[str]:
        return engine.pretokens_by(self.fuse, text, normalize=self.normalize, splitter=self.splitter,
                                   profile=self.profile)

    def spans(self, text: str, base: int = 0) -> Iterator[tuple[str, Span, list[Span]]]:
        """Each pre-token of ``text``, its span in the original text (shifted by ``base``), and
        the span of each of its code points (an instruction's code points span the characters
        it changes). A pre-token's span covers every code point's span (an instruction's slot
        may start after its base's leading space)."""
        for pretoken, char_spans in self._pretoken_spans(text, base):
            span = (min(a for a, _ in char_spans), max(b for _, b in char_spans))
            yield pretoken, span, char_spans

    def _pretoken_spans(self, text: str, base: int) -> Iterator[tuple[str, list[Span]]]:
        """Each pre-token with the spans of its code points, by the rule of spec 9."""
        pieces = self._piece_spans(text, base)
        if self.fuse == "none":
            for parts, spans in pieces:
                at = 0
                for p in parts:
                    yield p, spans[at : at + len(p)]
                    at += len(p)
            return
        groups = ([p] for p in pieces) if self.fuse == "all" else chained(pieces, lambda p: len(p[0]) > 1)
        for group in groups:  # "all": each piece; "frequent": each chain (9.4)
            yield "".join(s for parts, _ in group for s in parts), [s for _, spans in group for s in spans]

    def _piece_spans(self, text: str, base: int) -> Iterator[tuple[list[str], list[Span]]]:
        """Each piece's pre-tokens under ``fuse="none"`` (its instructions, then its base) with
        the spans of their code points."""
        to_start, to_end = self._original_positions(text)
        position = 0
        for piece in codec_pieces(text, normalize=self.normalize, splitter=self.splitter,
                                  profile=self.profile):
            cuts = [position + c for c in piece.slot_starts] + [position + len(piece.text)]
            slot_spans = [(base + to_start[a], base + to_end[b]) for a, b in zip(cuts, cuts[1:])]
            yield _code_point_spans(piece, slot_spans)
            position += len(piece.text)

    def _original_positions(self, text: str) -> tuple[Sequence[int], Sequence[int]]:
        """For each position of the normalized text, the original position a span starting
        (first) or ending (second) there maps to (spec 4.4)."""
        from ..normalize import nfc_with_offsets

        identity: Sequence[int] = range(len(text) + 1)
        if self.normalize != "nfc":
            return identity, identity
        _, offsets = nfc_with_offsets(text)
        if offsets is None:
            return identity, identity
        # NFC maps every character of a span it changed to the span's start; an end inside
        # such a span is taken to the span's end, so spans never shrink.
        ends = list(offsets)
        for k in range(len(ends) - 2, 0, -1):
            if offsets[k] == offsets[k - 1]:
                ends[k] = ends[k + 1]
        return offsets, ends


def _code_point_spans(piece, slot_spans: list[Span]) -> tuple[list[str], list[Span]]:
    """A piece's pre-tokens (instructions, then the base) and, for each of their code points,
    the span of original text it stands for: an instruction's code points span the slots it
    changes (a MULTIREPEAT its whole unit, an UPPERCASE its whole range), a base code point its slot (both code points of an
    escape pair the same slot)."""
    parts: list[str] = []
    spans: list[Span] = []
    for ins in piece.instructions:
        first = ins.args[0]
        last = ins.args[1] - 1 if ins.name in ("MULTIREPEAT", "UPPERCASE") else first
        code = ins.code
        parts.append(code)
        spans.extend([(slot_spans[first][0], slot_spans[last][1])] * len(code))
    slot = 0
    escaped = False
    for ch in piece.base:
        spans.append(slot_spans[slot])
        if ch == ESCAPE_CHAR and not escaped:
            escaped = True
            continue
        escaped = False
        slot += 1
    parts.append(piece.base)
    return parts, spans
