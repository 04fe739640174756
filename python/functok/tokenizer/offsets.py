"""The result of encoding (:class:`Encoding`) and where each token comes from in the text.

Offsets are computed on demand from the span of each code point of the codec's pre-tokens: each
token covers the spans of the code points it spells. Where the C core encodes, one pass of the
engine gives those spans (``GreedyEncoder.spans``) and the encoding's own ids are laid over them
(:func:`engine_token_offsets`); the pure path makes the pre-tokens again with their spans
(:meth:`functok.tokenizer.codec_pretokenizer.CodecPreTokenizer.spans`) and their ids
(:func:`token_offsets`), the reference the tests hold the engine to.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

from .decoding import TokenTable
from .codec_pretokenizer import CodecPreTokenizer, Span
from .vocabulary import Vocabulary

__all__ = ["Encoding", "engine_token_offsets", "token_offsets"]


class Encoding:
    """The result of :meth:`Tokenizer.encode`: ``ids``, ``tokens`` and ``offsets``.

    ``offsets[k]`` is the (start, end) code point span, in the original text, of what token
    ``k`` spells: for a base token the characters it covers (through NFC), for an instruction
    token the characters the instruction changes, for a special token its own text.
    """

    def __init__(self, tokenizer, text: str, parts: list, ids: list[int], options: dict):
        """``parts``: the text cut at special tokens (strings and special ids); ``options``:
        the segmentation options the ids were made with."""
        self.ids = ids
        self._tokenizer = tokenizer
        self._text = text
        self._parts = parts
        self._options = options
        self._offsets: list[Span] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return f"Encoding(num_tokens={len(self.ids)}, ids={self.ids[:8]}{'...' if len(self.ids) > 8 else ''})"

    @property
    def tokens(self) -> list[str]:
        return [self._tokenizer.id_to_token(i) for i in self.ids]

    @property
    def offsets(self) -> list[Span]:
        if self._offsets is None:
            tok = self._tokenizer
            # The engine's own pre-token spans where it has them (the C core in CPython); the wasm
            # build has no spans pass, so there the pure pre-tokenizer's spans serve, as on the pure path.
            encoder = tok._native_encoder()  # None on the pure path
            engine = encoder if hasattr(encoder, "spans") else None
            out: list[Span] = []
            base = 0
            for part in self._parts:
                if isinstance(part, int):
                    size = len(tok.token_table.special[part])
                    out.append((base, base + size))
                elif engine is not None:
                    size = len(part)
                    out.extend(engine_token_offsets(engine, tok.token_table, part, base, self.ids, len(out)))
                else:
                    size = len(part)
                    if self._options["segmentation"] == "greedy" or self._options["tie_break"] == "prefer-greedy":
                        tok.fill_greedy_cache(tok.pre_tokenizer(part))  # the ids, from a compiled path
                    out.extend(token_offsets(tok.pre_tokenizer, tok.vocabulary, tok.token_table, part, base,
                                             self._options))
                base += size
            assert len(out) == len(self.ids)
            self._offsets = out
        return self._offsets


def engine_token_offsets(engine, table: TokenTable, text: str, base: int, ids: list[int], at: int) -> list[Span]:
    """The span of each token of ``text`` (a stretch between special tokens that starts at
    ``base``), its ids being ``ids[at:]`` up to the stretch's end: the C core gives the span of
    each code point of the stretch's pre-tokens, one after the other, and the tokens spell them
    in order."""
    starts, ends = engine.spans(text)
    out: list[Span] = []
    if not starts:
        return out
    for first, last, complete in _code_points_spelled(islice(ids, at, None), table):
        out.append((base + starts[first], base + ends[last]))
        if complete and last == len(starts) - 1:
            break  # the stretch's last code point: the next id belongs to what follows
    return out


def token_offsets(pre_tokenizer: CodecPreTokenizer, vocabulary: Vocabulary, table: TokenTable, text: str,
                  base: int, options: dict) -> list[Span]:
    """The span of each token of ``text`` (a stretch between special tokens that starts at
    ``base``), encoded with ``options``."""
    out: list[Span] = []
    for pretoken, _, char_spans in pre_tokenizer.spans(text, base):
        for first, last, _ in _code_points_spelled(vocabulary.ids(pretoken, **options), table):
            out.append((char_spans[first][0], char_spans[last][1]))
    return out


def _code_points_spelled(ids: Iterable[int], table: TokenTable) -> Iterator[tuple[int, int, bool]]:
    """For each token of ``ids`` in turn: the first and last code point it spells, counted from
    the first token's, and whether that last code point is complete. An ordinary token spells
    whole code points; a byte-fallback token spells one UTF-8 byte of a code point, which is
    complete with its last byte."""
    ch = 0  # the code point where the next token starts
    pending = 0  # UTF-8 bytes still owed to the current code point (byte fallback)
    for i in ids:
        byte = table.byte.get(i)
        if byte is None:
            n = len(table.token[i])
            yield ch, ch + n - 1, True
            ch += n
            continue
        if pending == 0:
            pending = _utf8_length(byte)
        pending -= 1
        yield ch, ch, pending == 0
        if pending == 0:
            ch += 1


def _utf8_length(lead: int) -> int:
    """Bytes in the UTF-8 sequence a lead byte starts (1 for a stray continuation byte)."""
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1
