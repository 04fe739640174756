"""Where each id of a :class:`FunctokTokenizer` encoding comes from: the character spans and the
words behind ``BatchEncoding.word_ids()``, ``char_to_token()``, ``token_to_chars()``... which
transformers reads from a ``tokenizers.Encoding``. :class:`FunctokEncoding` has that interface,
built from functok's offsets.

**Words.** A text's words are the codec's pieces (spec 1, "Piece": what the splitter cuts, such
as ``" world"`` or ``","``, before the pieces become pre-tokens), and each added token in the text
is a word of its own. Words given already split (``is_split_into_words=True``) are the caller's
words: the text is the words one after the other, each after a space with ``add_prefix_space``
(see :meth:`FunctokTokenizer._encoded_words`), and the space put before a word is part of it. A token belongs to the word its first character is in (a token never spans two
pieces, except when ``fuse`` joins pieces into one pre-token; where NFC merges the characters of
two pieces, the first piece has the tokens).

Offsets, words and tokens are computed when first asked for, so that encoding without them
costs nothing more.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import NamedTuple

from ...encoding import pieces as codec_pieces
from ...tokenizer import Encoding, Tokenizer

Span = tuple[int, int]


class Stretch(NamedTuple):
    """The ids of a stretch of text and their offsets in it (a :class:`functok.Encoding` has both)."""

    ids: list[int]
    offsets: list[Span]


class EncodedText:
    """One text as :class:`FunctokTokenizer` encodes it: ``runs`` are its stretches, each
    ``(start, end, what)`` where ``what`` is an added token's id or the :class:`functok.Encoding`
    (or :class:`Stretch`) of that stretch. ``split_words``: for words the caller gave split,
    each word's ``(owned, start, end)``: its characters are ``start:end``, and from ``owned`` on
    (a space put before it) its tokens are its own."""

    def __init__(self, tokenizer: Tokenizer, text: str, runs: list[tuple[int, int, int | Encoding | Stretch]],
                 split_words: list[tuple[int, int, int]] | None = None) -> None:
        self._tokenizer = tokenizer
        self._text = text
        self._runs = runs
        self._split_words = split_words
        self.ids = [i for _, _, what in runs for i in ([what] if isinstance(what, int) else what.ids)]

    @cached_property
    def offsets(self) -> list[Span]:
        out: list[Span] = []
        for start, end, what in self._runs:
            if isinstance(what, int):
                out.append((start, end))
            else:
                out.extend((a + start, b + start) for a, b in what.offsets)
        return out

    @cached_property
    def word_spans(self) -> list[Span]:
        """The span of each word in the text."""
        if self._split_words is not None:
            return [(start, end) for _, start, end in self._split_words]
        pre = self._tokenizer.pre_tokenizer
        spans: list[Span] = []
        for start, end, what in self._runs:
            if isinstance(what, int):
                spans.append((start, end))
                continue
            for piece in codec_pieces(self._text[start:end], normalize=pre.normalize, splitter=pre.splitter,
                                      profile=pre.profile):
                spans.append((piece.start + start, piece.end + start))
        return spans

    @cached_property
    def words(self) -> list[int]:
        """The word of each id: the word its first character is in. A word's own span starts at
        its first character, or at the space put before it for words given split. Tokens come in
        the order of their words, so each word is looked for from the last one on: where NFC
        merged the characters of two pieces into one span (spec 4.4), both report it, and its
        tokens go to the first."""
        if self._split_words is not None:
            starts = [owned for owned, _, _ in self._split_words]
        else:
            starts = [a for a, _ in self.word_spans]
        ends = [b for _, b in self.word_spans]
        out: list[int] = []
        word = 0
        for a, _ in self.offsets:
            while word < len(starts) and not starts[word] <= a < ends[word] and starts[word] <= a:
                word += 1
            if word == len(starts) or starts[word] > a:  # in no word from here on: the word it starts in
                word = max(bisect_right(starts, a) - 1, 0)
            out.append(word)
        return out


class FunctokEncoding:
    """The ``tokenizers.Encoding`` interface of one row of a :class:`FunctokTokenizer` batch.

    ``layout[k]`` says where id ``k`` of the row comes from: ``(sequence, index)``, the index-th
    id of the row's first (0) or second (1) text, or None for an id the tokenizer put there
    (special tokens of ``special_tokens_pattern``, padding): those have no word, no sequence and
    offsets ``(0, 0)``. Offsets count in the row's own text (the first or the second)."""

    def __init__(self, ids: Sequence[int], layout: list[tuple[int, int] | None], texts: Sequence[EncodedText],
                 tokens_of: Callable[[list[int]], list[str]]) -> None:
        self.ids = list(ids)
        self._layout = layout
        self._texts = texts
        self._tokens_of = tokens_of

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return f"FunctokEncoding(num_tokens={len(self.ids)})"

    def padded(self, ids: Sequence[int], side: str) -> FunctokEncoding:
        """This row padded to ``ids`` (the padded row) on ``side``."""
        fill: list[tuple[int, int] | None] = [None] * (len(ids) - len(self._layout))
        layout = self._layout if not fill else fill + self._layout if side == "left" else self._layout + fill
        return FunctokEncoding(ids, layout, self._texts, self._tokens_of)

    @property
    def n_sequences(self) -> int:
        return len(self._texts)

    @cached_property
    def tokens(self) -> list[str]:
        return self._tokens_of(self.ids)

    @cached_property
    def sequence_ids(self) -> list[int | None]:
        return [None if place is None else place[0] for place in self._layout]

    @cached_property
    def offsets(self) -> list[Span]:
        return [(0, 0) if place is None else self._texts[place[0]].offsets[place[1]] for place in self._layout]

    @cached_property
    def word_ids(self) -> list[int | None]:
        return [None if place is None else self._texts[place[0]].words[place[1]] for place in self._layout]

    def token_to_sequence(self, token_index: int) -> int | None:
        return self.sequence_ids[token_index] if 0 <= token_index < len(self) else None

    def token_to_word(self, token_index: int) -> int | None:
        return self.word_ids[token_index] if 0 <= token_index < len(self) else None

    def token_to_chars(self, token_index: int) -> Span | None:
        if self.token_to_sequence(token_index) is None:
            return None
        return self.offsets[token_index]

    def char_to_token(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The first token of the sequence whose span holds the character."""
        for k, (sequence, (a, b)) in enumerate(zip(self.sequence_ids, self.offsets)):
            if sequence == sequence_index and a <= char_pos < b:
                return k
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0) -> int | None:
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.word_ids[token]

    def word_to_tokens(self, word_index: int, sequence_index: int = 0) -> Span | None:
        """The tokens of the word, ``(first, last + 1)``; None if none is in the row."""
        found = [k for k, (sequence, word) in enumerate(zip(self.sequence_ids, self.word_ids))
                 if sequence == sequence_index and word == word_index]
        return (found[0], found[-1] + 1) if found else None

    def word_to_chars(self, word_index: int, sequence_index: int = 0) -> Span | None:
        """The characters of the word that its tokens in the row cover (all of it, unless
        truncation cut some), without the space before a word given split."""
        tokens = self.word_to_tokens(word_index, sequence_index)
        if tokens is None:
            return None
        spans = self.offsets[tokens[0] : tokens[1]]
        first, last = self._texts[sequence_index].word_spans[word_index]
        return max(first, min(a for a, _ in spans)), min(last, max(b for _, b in spans))
