"""The functok tokenizer: the codec's pre-tokens, BPE ids, and lossless decoding.

A :class:`Tokenizer` is trained with Hugging Face ``tokenizers`` on the codec's pre-tokens
(:func:`functok.pretokens`), saved as one JSON file, and used with either segmentation:

* ``greedy``: BPE merges, identical ids with or without ``tokenizers`` installed
  (:mod:`functok.bpe` is the pure-Python path; ``tokenizers`` fills the cache faster);
* ``optimal``: the fewest tokens per pre-token (:mod:`functok.segment`).

**Symbols and lossless ids.** The BPE is *character-level with byte fallback*, as in the
paper (one symbol per code point, so an instruction code point is one symbol) plus the 256
tokens ``<0x00>``..``<0xFF>``: a character the training data never showed is written as the
tokens of its UTF-8 bytes, so ``decode(encode(x).ids)`` is the codec's normalization of ``x``
for every string. Byte-fallback tokens serve only characters missing from the vocabulary.

Ids: the special tokens first (0, 1, ...), then the 256 byte tokens, then the trained alphabet
and merges in the trainer's order.

>>> tok = Tokenizer.train(iter(["Hello hello HELLO"] * 3), vocab_size=300, show_progress=False)
>>> enc = tok.encode("Hello, wörld")
>>> tok.decode(enc.ids)
'Hello, wörld'
>>> enc.tokens[:3]  # CAPITALIZE(0), the base, and an unseen comma as its byte
['\\ue100\\ue000', 'hello', '<0x2C>']
>>> [("Hello, wörld"[a:b]) for a, b in enc.offsets[:3]]
['H', 'Hello', ',']
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .bpe import BPE, byte_fallback_token
from .decode import DEFAULT_MAX_OUTPUT, ERRORS, check_max_output
from .decode import decode as decode_stream
from .encode import pieces as codec_pieces
from .encode import pretokens as codec_pretokens
from .errors import FormatError
from .opcodes import ESCAPE_CHAR, GROUP_FIRST, GROUP_LAST, MULTIREPEAT, REPEAT
from .segment import TIE_BREAKS
from .split import SPLITTERS
from .vocab import Vocabulary, reachable_by_merges

__all__ = ["FORMAT_VERSION", "DecodeStream", "Encoding", "Tokenizer"]

FORMAT_VERSION = 1  # of the tokenizer file; the loader refuses any other
ALPHABET = "characters+byte-fallback"
SEGMENTATIONS = ("greedy", "optimal")
_HF_BATCH_MIN = 64  # cache misses below this are cheaper in pure Python than a call into Rust


def _spec_version() -> str:
    from . import SPEC_VERSION

    return SPEC_VERSION


# --- The tokenizer file -------------------------------------------------------------------


def _check_header(header: Any) -> dict:
    """Refuse a tokenizer file this functok cannot read, saying why."""
    if not isinstance(header, dict):
        raise ValueError("not a functok tokenizer file: no 'functok' header object")
    version = header.get("format_version")
    if version != FORMAT_VERSION:
        raise ValueError(
            f"functok tokenizer file format version {version!r} is not supported: this functok "
            f"reads version {FORMAT_VERSION}"
        )
    ours = _spec_version()
    theirs = str(header.get("spec_version"))
    mine = tuple(int(x) for x in ours.split("."))
    try:
        saved = tuple(int(x) for x in theirs.split("."))
    except ValueError:
        saved = ()
    # Same MAJOR, and no newer MINOR: a newer minor may assign code points we do not know.
    if len(saved) != 3 or saved[0] != mine[0] or saved[1] > mine[1]:
        raise ValueError(
            f"tokenizer was saved for format spec_version {theirs}; this functok implements "
            f"spec_version {ours} and reads {mine[0]}.0.0 up to {ours}"
        )
    if header.get("splitter") not in SPLITTERS:
        raise ValueError(f"unknown splitter {header.get('splitter')!r}; known: {SPLITTERS}")
    if header.get("normalize") not in ("nfc", None):
        raise ValueError(f"unknown normalization {header.get('normalize')!r}")
    if header.get("alphabet", ALPHABET) != ALPHABET:
        raise ValueError(f"unknown alphabet {header.get('alphabet')!r}; expected {ALPHABET!r}")
    return header


class Tokenizer:
    """A BPE tokenizer over the Functionalizer op stream; see the module docstring."""

    def __init__(
        self,
        hf_tokenizer: dict,
        *,
        splitter: str = "llama3",
        normalize: str | None = "nfc",
        split_operators: bool = True,
        spec_version: str | None = None,
    ) -> None:
        self.header = _check_header(
            {
                "format_version": FORMAT_VERSION,
                "spec_version": spec_version or _spec_version(),
                "splitter": splitter,
                "normalize": normalize,
                "split_operators": bool(split_operators),
                "alphabet": ALPHABET,
            }
        )
        self.splitter = splitter
        self.normalize = normalize
        self.split_operators = bool(split_operators)
        self.hf_json = hf_tokenizer
        model = hf_tokenizer["model"]
        if not model.get("byte_fallback"):
            raise ValueError("a functok tokenizer's BPE model must have byte_fallback")
        self._vocab: dict[str, int] = dict(model["vocab"])
        self._merges = [tuple(m) if not isinstance(m, str) else tuple(m.split(" ", 1)) for m in model["merges"]]
        self._id_to_token = {i: t for t, i in self._vocab.items()}
        self.special_tokens = {t["content"]: t["id"] for t in hf_tokenizer.get("added_tokens") or ()}
        self._special_ids = {i: t for t, i in self.special_tokens.items()}
        missing = [byte_fallback_token(b) for b in range(256) if byte_fallback_token(b) not in self._vocab]
        if missing:
            raise ValueError(f"the vocabulary lacks byte-fallback tokens, e.g. {missing[0]}: ids "
                             f"would not be lossless")
        self._byte_of = {self._vocab[byte_fallback_token(b)]: b for b in range(256)}
        self._bpe = BPE(self._vocab, self._merges, byte_fallback=True)
        self.vocabulary = Vocabulary(
            name="functok",
            alphabet="characters",
            tokens=self._vocab,
            special_tokens=self.special_tokens,
            greedy=self._bpe.tokenize,
            pre_tokenize=self._pretokens,
            reachable=self._reachable,
            byte_fallback=True,
        )
        self._special_re = _alternation(self.special_tokens)
        self._hf: Any = None  # the Rust fast path, built on first use if installed

    # -- training ------------------------------------------------------------------------

    @classmethod
    def train(
        cls,
        files_or_iterator: str | os.PathLike | Sequence[str | os.PathLike] | Iterable[str],
        *,
        vocab_size: int,
        splitter: str = "llama3",
        normalize: str | None = "nfc",
        split_operators: bool = True,
        min_frequency: int = 0,
        special_tokens: Sequence[str] = (),
        show_progress: bool = True,
    ) -> Tokenizer:
        """Train BPE (Hugging Face ``tokenizers``) on the codec's pre-tokens.

        ``files_or_iterator``: a path or a list/tuple of paths (read as UTF-8), or any other
        iterable of texts (``iter(list_of_texts)`` for texts held in a list).
        ``vocab_size`` counts everything: special tokens, the 256 byte tokens, the alphabet
        and the merges. Needs ``pip install 'functok[train]'``.
        """
        try:
            from tokenizers import Tokenizer as HFTokenizer
            from tokenizers import models, trainers
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("training needs `tokenizers`: pip install 'functok[train]'") from exc
        special_tokens = list(special_tokens)
        budget = vocab_size - 256
        if budget <= len(special_tokens):
            raise ValueError(f"vocab_size {vocab_size} leaves no room beside the 256 byte tokens")
        trainer = trainers.BpeTrainer(
            vocab_size=budget,
            min_frequency=min_frequency,
            special_tokens=special_tokens,
            show_progress=show_progress,
        )
        hf = HFTokenizer(models.BPE(byte_fallback=True))  # no normalizer, no pre-tokenizer:
        # every sequence we yield is one pre-token, i.e. one BPE word

        def batches() -> Iterator[list[str]]:
            batch: list[str] = []
            for text in _texts(files_or_iterator):
                batch.extend(
                    codec_pretokens(
                        text, normalize=normalize, splitter=splitter, split_operators=split_operators
                    )
                )
                if len(batch) >= 8192:
                    yield batch
                    batch = []
            if batch:
                yield batch

        hf.train_from_iterator(batches(), trainer)
        trained = json.loads(hf.to_str())
        return cls(
            _with_byte_tokens(trained, special_tokens),
            splitter=splitter,
            normalize=normalize,
            split_operators=split_operators,
        )

    # -- the file ------------------------------------------------------------------------

    def to_str(self, *, indent: int | None = None) -> str:
        """The tokenizer file: ``{"functok": header, "tokenizer": <HF tokenizer.json>}``."""
        return json.dumps({"functok": self.header, "tokenizer": self.hf_json}, ensure_ascii=False, indent=indent)

    def save(self, path: str | os.PathLike) -> None:
        Path(path).write_text(self.to_str(), encoding="utf-8")

    @classmethod
    def from_str(cls, text: str) -> Tokenizer:
        data = json.loads(text)
        if not isinstance(data, dict) or "functok" not in data or "tokenizer" not in data:
            raise ValueError("not a functok tokenizer file: expected the keys 'functok' and 'tokenizer'")
        h = _check_header(data["functok"])
        return cls(
            data["tokenizer"],
            splitter=h["splitter"],
            normalize=h["normalize"],
            split_operators=h["split_operators"],
            spec_version=h["spec_version"],
        )

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> Tokenizer:
        return cls.from_str(Path(path).read_text(encoding="utf-8"))

    def __reduce__(self):  # pickle (multiprocessing) through the file format, without caches
        return (Tokenizer.from_str, (self.to_str(),))

    def __repr__(self) -> str:
        h = self.header
        return (f"Tokenizer(vocab_size={self.vocab_size}, splitter={h['splitter']!r}, "
                f"normalize={h['normalize']!r}, split_operators={h['split_operators']})")

    # -- vocabulary ----------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._id_to_token.get(id)

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    def _pretokens(self, text: str) -> list[str]:
        return codec_pretokens(
            text, normalize=self.normalize, splitter=self.splitter, split_operators=self.split_operators
        )

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Debug helper: each pre-token with the span of the original text it comes from."""
        return [(p, span) for p, span, _ in self._pretoken_spans(text, 0)]

    def _reachable(self) -> set[str]:
        return reachable_by_merges(self._vocab, self._merges)

    # -- encoding ------------------------------------------------------------------------

    def encode(
        self,
        text: str,
        *,
        segmentation: str = "greedy",
        tie_break: str = "leftmost-longest",
        reachable_only: bool = False,
        allowed_special: str | Iterable[str] = frozenset(),
        disallowed_special: str | Iterable[str] = "all",
    ) -> Encoding:
        """Encode ``text`` to ids.

        ``segmentation``: ``"greedy"`` (BPE merges) or ``"optimal"`` (fewest tokens per
        pre-token, ties broken by ``tie_break``: ``"leftmost-longest"`` or
        ``"prefer-greedy"``; ``reachable_only`` uses only tokens the merges can build).
        Special tokens, as in tiktoken: their text raises ``ValueError`` unless it is in
        ``allowed_special`` (then it becomes the special token) or ``disallowed_special`` is
        ``()`` (then it is ordinary text). The codec normalizes each stretch between allowed
        special tokens on its own.
        """
        if segmentation not in SEGMENTATIONS:
            raise ValueError(f"unknown segmentation {segmentation!r}; expected one of {SEGMENTATIONS}")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown tie_break {tie_break!r}; expected one of {TIE_BREAKS}")
        options = {"segmentation": segmentation, "tie_break": tie_break, "reachable_only": reachable_only}
        parts = self._split_special(text, allowed_special, disallowed_special)
        ids: list[int] = []
        for part in parts:
            if isinstance(part, int):
                ids.append(part)
            else:
                ids.extend(self._encode_ordinary(part, options))
        return Encoding(self, text, parts, ids, options)

    def encode_batch(self, texts: Iterable[str], **options) -> list[Encoding]:
        return [self.encode(t, **options) for t in texts]

    def _encode_ordinary(self, text: str, options: dict) -> list[int]:
        pretokens = self._pretokens(text)
        needs_greedy = options["segmentation"] == "greedy" or options["tie_break"] == "prefer-greedy"
        if needs_greedy and self._hf is not False and len(pretokens) >= _HF_BATCH_MIN:
            self._fill_greedy_cache(pretokens)
        return self.vocabulary.encode_pretokens(pretokens, **options)

    def _fill_greedy_cache(self, pretokens: list[str]) -> None:
        """The fast path: ``tokenizers`` computes the greedy ids of many unseen pre-tokens at
        once. (It gives the same ids as the pure-Python BPE; tests prove it.)"""
        cache = self.vocabulary._cache("greedy", "", False)
        misses = list({p: None for p in pretokens if p not in cache})
        if len(misses) < _HF_BATCH_MIN:
            return
        hf = self._hf_tokenizer()
        if hf is None:
            return
        for p, enc in zip(misses, hf.encode_batch(misses, add_special_tokens=False)):
            cache[p] = enc.ids

    def _hf_tokenizer(self):
        if self._hf is None:
            try:
                from tokenizers import Tokenizer as HFTokenizer
            except ImportError:
                self._hf = False
                return None
            # Without the added tokens: special-token text inside a pre-token is ordinary text.
            plain = dict(self.hf_json, added_tokens=[])
            self._hf = HFTokenizer.from_str(json.dumps(plain))
        return self._hf or None

    def _split_special(self, text: str, allowed, disallowed) -> list[str | int]:
        """The text cut at allowed special tokens: strings and special ids, in order."""
        if not isinstance(text, str):
            raise TypeError(f"expected str, not {type(text).__name__}")
        if self._special_re is None:
            return [text] if text else []
        allowed = set(self.special_tokens) if allowed == "all" else set(allowed)
        unknown = allowed - set(self.special_tokens)
        if unknown:
            raise ValueError(f"not special tokens of this tokenizer: {sorted(unknown)}")
        disallowed = set(self.special_tokens) - allowed if disallowed == "all" else set(disallowed)
        parts: list[str | int] = []
        start = 0
        for m in self._special_re.finditer(text):
            token = m.group()
            if token in disallowed:
                raise ValueError(
                    f"text contains the special token {token!r} at {m.start()}: pass "
                    f"allowed_special={{{token!r}}} to encode it as the special token, or "
                    f"disallowed_special=() to encode it as ordinary text"
                )
            if token in allowed:
                if m.start() > start:
                    parts.append(text[start : m.start()])
                parts.append(self.special_tokens[token])
                start = m.end()
        if start < len(text):
            parts.append(text[start:])
        return parts

    # -- offsets (computed on demand by Encoding.offsets) --------------------------------

    def _pretoken_spans(self, text: str, base: int) -> Iterator[tuple[str, tuple[int, int], list]]:
        """Each pre-token of ``text``, its span in the original text, and the span of each of
        its code points (an instruction's code points span the characters it changes)."""
        from .normalize import nfc_with_offsets

        to_start: Sequence[int] = range(len(text) + 1)
        to_end = to_start
        if self.normalize == "nfc":
            normalized, offsets = nfc_with_offsets(text)
            if offsets is not None:
                # NFC maps every character of a span it changed to the span's start; an end
                # inside such a span is taken to the span's end, so spans never shrink.
                to_start = offsets
                ends = list(offsets)
                for k in range(len(ends) - 2, 0, -1):
                    if offsets[k] == offsets[k - 1]:
                        ends[k] = ends[k + 1]
                to_end = ends
        position = 0
        for piece in codec_pieces(text, normalize=self.normalize, splitter=self.splitter):
            cuts = [position + c for c in piece.slot_starts] + [position + len(piece.text)]
            slot_spans = [(base + to_start[a], base + to_end[b]) for a, b in zip(cuts, cuts[1:])]
            parts, spans = _code_point_spans(piece, slot_spans)
            pretokens = parts if self.split_operators else ["".join(parts)]
            at = 0
            for p in pretokens:
                char_spans = spans[at : at + len(p)]
                at += len(p)
                yield p, (char_spans[0][0], char_spans[-1][1]), char_spans
            position += len(piece.text)

    def _token_offsets(self, text: str, base: int, options: dict) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for pretoken, _, char_spans in self._pretoken_spans(text, base):
            ch = 0  # code point of the pre-token where the next token starts
            pending = 0  # UTF-8 bytes still owed to the current code point (byte fallback)
            for i in self.vocabulary.ids(pretoken, **options):
                byte = self._byte_of.get(i)
                if byte is None:
                    n = len(self._id_to_token[i])
                    out.append((char_spans[ch][0], char_spans[ch + n - 1][1]))
                    ch += n
                    continue
                out.append(char_spans[ch])
                if pending == 0:
                    pending = _utf8_length(byte)
                pending -= 1
                if pending == 0:
                    ch += 1
        return out

    # -- decoding ------------------------------------------------------------------------

    def decode(self, ids: Iterable[int], *, errors: str = "strict", skip_special_tokens: bool = False) -> str:
        """The text of ``ids``: tokens -> op stream -> :func:`functok.decode`.

        Byte-fallback tokens are joined into UTF-8 first. ``errors="strict"`` raises
        :class:`functok.FormatError` on a malformed stream (``UnicodeDecodeError`` on invalid
        UTF-8, ``ValueError`` on an unknown id); ``errors="replace"`` never raises: it decodes
        leniently, writes U+FFFD for invalid UTF-8 and unknown ids. Special tokens end the
        stream before them: each stretch between special tokens is decoded on its own.
        """
        if errors not in ERRORS:
            raise ValueError(f"errors must be one of {ERRORS}, not {errors!r}")
        out: list[str] = []
        tokens: list[str] = []  # the current stretch's op stream
        run = bytearray()  # byte-fallback tokens waiting to be read as UTF-8

        def flush_bytes() -> None:
            if run:
                tokens.append(run.decode("utf-8", errors))
                run.clear()

        for i in ids:
            byte = self._byte_of.get(i)
            if byte is not None:
                run.append(byte)
                continue
            flush_bytes()
            special = self._special_ids.get(i)
            if special is None:
                token = self._id_to_token.get(i)
                if token is None:
                    if errors == "strict":
                        raise ValueError(f"unknown token id {i}")
                    token = "\ufffd"
                tokens.append(token)
                continue
            out.append(decode_stream("".join(tokens), errors=errors))
            tokens.clear()
            if not skip_special_tokens:
                out.append(special)
        flush_bytes()
        out.append(decode_stream("".join(tokens), errors=errors))
        return "".join(out)

    def decode_batch(self, batch: Iterable[Iterable[int]], **options) -> list[str]:
        return [self.decode(ids, **options) for ids in batch]


class Encoding:
    """The result of :meth:`Tokenizer.encode`: ``ids``, ``tokens`` and ``offsets``.

    ``offsets[k]`` is the (start, end) code point span, in the original text, of what token
    ``k`` spells: for a base token the characters it covers (through NFC), for an instruction
    token the characters the instruction changes, for a special token its own text.
    """

    def __init__(self, tokenizer: Tokenizer, text: str, parts: list, ids: list[int], options: dict):
        self.ids = ids
        self._tokenizer = tokenizer
        self._text = text
        self._parts = parts
        self._options = options
        self._offsets: list[tuple[int, int]] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return f"Encoding(num_tokens={len(self.ids)}, ids={self.ids[:8]}{'...' if len(self.ids) > 8 else ''})"

    @property
    def tokens(self) -> list[str]:
        return [self._tokenizer.id_to_token(i) for i in self.ids]

    @property
    def offsets(self) -> list[tuple[int, int]]:
        if self._offsets is None:
            out: list[tuple[int, int]] = []
            base = 0
            for part in self._parts:
                if isinstance(part, int):
                    size = len(self._tokenizer._special_ids[part])
                    out.append((base, base + size))
                else:
                    size = len(part)
                    out.extend(self._tokenizer._token_offsets(part, base, self._options))
                base += size
            assert len(out) == len(self.ids)
            self._offsets = out
        return self._offsets


# --- streaming decode ---------------------------------------------------------------------


def _is_group(ch: str) -> bool:
    return GROUP_FIRST <= ord(ch) <= GROUP_LAST


class DecodeStream:
    """Incremental decoding for generation: ``step(id)`` returns the text that has become final
    (or None), ``finish()`` the rest once the ids end. The concatenation equals
    :meth:`Tokenizer.decode` of the same ids (same ``errors``).

    What is final: text before any group is literal; a group's instructions are known once
    its text starts; a slot of the group's text is final once the instructions cannot change
    it any more. Without repeats that is every complete slot, and once every instruction
    position is a slot already seen, the rest of the text is literal. With a repeat, slots
    before the smallest argument are final and the rest waits for the next group (a repeat's
    expansion, and whether it fits ``max_output``, depends on the slots after it).

    >>> tok = Tokenizer.train(iter(["Hello world"] * 3), vocab_size=300, show_progress=False)
    >>> stream = DecodeStream(tok)
    >>> [stream.step(i) for i in tok.encode("Hi you").ids] + [stream.finish()]
    [None, 'H', 'i', ' ', 'y', 'o', 'u', '']
    """

    def __init__(
        self,
        tokenizer: Tokenizer,
        *,
        errors: str = "strict",
        skip_special_tokens: bool = False,
        max_output: int = DEFAULT_MAX_OUTPUT,
    ) -> None:
        if errors not in ERRORS:
            raise ValueError(f"errors must be one of {ERRORS}, not {errors!r}")
        self.tokenizer = tokenizer
        self.errors = errors
        self.skip_special_tokens = skip_special_tokens
        self.max_output = check_max_output(max_output)
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors=errors)
        self._pending = ""  # op stream not yet turned into final text
        self._in_group = False  # does _pending start with a group (else: literal text)
        self._emitted = 0  # output of _pending already returned (partial slots)
        self._scanned = 0  # _pending[:_scanned] holds no group after the first (slot boundary)
        self._offset = 0  # stream code points before _pending (for error offsets)
        self._output = 0  # code points output so far in this stretch (for max_output)

    def step(self, id: int) -> str | None:
        """Take one id; return the text that has become final, or None."""
        tok = self.tokenizer
        special = tok._special_ids.get(id)
        if special is not None:
            out = self._end_stretch()
            if not self.skip_special_tokens:
                out += special
            return out or None
        byte = tok._byte_of.get(id)
        if byte is not None:
            chars = self._utf8.decode(bytes((byte,)))
        else:
            chars = self._utf8.decode(b"", final=True)
            token = tok.id_to_token(id)
            if token is None:
                if self.errors == "strict":
                    raise ValueError(f"unknown token id {id}")
                token = "\ufffd"
            chars += token
        self._pending += chars
        return self._advance() or None

    def finish(self) -> str:
        """The ids have ended: return the rest of the text (raises on errors in strict mode)."""
        return self._end_stretch()

    # -- internals -----------------------------------------------------------------------

    def _end_stretch(self) -> str:
        self._pending += self._utf8.decode(b"", final=True)
        out = self._advance()
        out += self._decode(self._pending)[self._emitted :] if self._pending else ""
        self._pending, self._in_group, self._emitted, self._scanned = "", False, 0, 0
        self._offset = self._output = 0
        return out

    def _decode(self, stream: str, errors: str | None = None) -> str:
        try:
            return decode_stream(
                stream, errors=errors or self.errors, max_output=max(0, self.max_output - self._output)
            )
        except FormatError as e:  # report the offset in the whole stretch of the stream
            raise FormatError(e.kind, e.offset + self._offset, e.message) from None

    def _take(self, size: int, text: str) -> str:
        """``_pending[:size]`` is done and its decoding is ``text``: return the new part."""
        out = text[self._emitted :]
        self._pending = self._pending[size:]
        self._offset += size
        self._output += len(text)
        self._emitted = 0
        self._scanned = 0
        return out

    def _advance(self) -> str:
        out = []
        while self._pending:
            if not self._in_group:
                size = _literal_length(self._pending, 0)
                if size:
                    out.append(self._take(size, self._decode(self._pending[:size])))
                if not self._pending or not _is_group(self._pending[0]):
                    break  # all consumed, or an escape waiting for its code point
                self._in_group = True
            group = _group_length(self._pending)
            if group == len(self._pending):
                break  # the group may still grow
            # The group's text so far; only what arrived since the last step is scanned.
            end = max(group, self._scanned)
            end += _literal_length(self._pending, end)
            if end < len(self._pending) and _is_group(self._pending[end]):  # text complete
                out.append(self._take(end, self._decode(self._pending[:end])))
                continue
            self._scanned = end
            head = self._pending[group : min(end, group + 2 * _SLOT_CAP)]
            slots = len(head) - head.count(ESCAPE_CHAR)  # an escape pair is one slot
            final, positions = _final_slots(self._pending[:group], slots)
            if slots and final == slots and positions <= slots and not self._has_repeat(group):
                # every instruction has its slot: the rest of this text is literal
                out.append(self._take(end, self._decode(self._pending[:end])))
                self._in_group = False
                continue
            if final:
                prefix = group + _slots_size(self._pending, group, final)
                partial = self._decode(self._pending[:prefix], errors="replace")
                out.append(partial[self._emitted :])
                self._emitted = len(partial)
            break
        return "".join(out)

    def _has_repeat(self, group: int) -> bool:
        return any(ord(c) in (REPEAT, MULTIREPEAT) for c in self._pending[:group])


# Text with no group: code points outside U+E000..U+EFFF, and escape pairs. An escape with
# nothing after it yet is not matched (it waits for its code point).
_LITERAL = re.compile(r"(?:[^\ue000-\uefff]++|\uefff[\s\S])*+")  # possessive: no stack per code point
_SLOT_CAP = 257  # more slots than any argument can name: enough to decide on any group


def _literal_length(stream: str, start: int) -> int:
    """Length of the text of ``stream`` from ``start`` with no group and no unpaired escape."""
    return _LITERAL.match(stream, start).end() - start


def _group_length(stream: str) -> int:
    i = 0
    while i < len(stream) and _is_group(stream[i]):
        i += 1
    return i


def _slots_size(stream: str, start: int, slots: int) -> int:
    i = start
    for _ in range(slots):
        i += 2 if stream[i] == ESCAPE_CHAR else 1
    return i - start


def _final_slots(group: str, slots: int) -> tuple[int, int]:
    """(slots that cannot change any more, 1 + the largest argument in the group).

    Only a repeat reaches beyond its own slot, and it starts at one of the group's arguments,
    so slots below the smallest argument are final whatever comes later.
    """
    args = [ord(c) - GROUP_FIRST for c in group if ord(c) <= GROUP_FIRST + 255]
    if not args:
        return slots, 0
    if any(ord(c) in (REPEAT, MULTIREPEAT) for c in group):
        return min(slots, min(args)), max(args) + 1
    return slots, max(args) + 1


# --- helpers ------------------------------------------------------------------------------


def _code_point_spans(piece, slot_spans: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """A piece's pre-tokens (instructions, then the base) and, for each of their code points,
    the span of original text it stands for: an instruction's code points span the slots it
    changes (a MULTIREPEAT its whole unit), a base code point its slot (both code points of an
    escape pair the same slot)."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    for ins in piece.instructions:
        first = ins.args[0]
        last = ins.args[1] - 1 if ins.name == "MULTIREPEAT" else first
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


def _alternation(tokens: Iterable[str]) -> re.Pattern | None:
    tokens = sorted(tokens, key=len, reverse=True)  # longest first, as tiktoken matches
    return re.compile("|".join(map(re.escape, tokens))) if tokens else None


def _utf8_length(lead: int) -> int:
    """Bytes in the UTF-8 sequence a lead byte starts (1 for a stray continuation byte)."""
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1


def _texts(source) -> Iterator[str]:
    """Texts from a path, a list/tuple of paths, or an iterable of texts."""
    if isinstance(source, (str, os.PathLike)):
        source = [source]
    if isinstance(source, (list, tuple)):
        for path in source:
            if not Path(path).is_file():
                raise FileNotFoundError(
                    f"{path!r} is not a file (a list is read as file paths; pass iter(texts) "
                    f"to train on strings)"
                )
            yield Path(path).read_text(encoding="utf-8")
        return
    for text in source:
        if not isinstance(text, str):
            raise TypeError(f"expected texts (str), got {type(text).__name__}")
        yield text


def _with_byte_tokens(trained: dict, special_tokens: list[str]) -> dict:
    """The trained tokenizer.json with the 256 byte-fallback tokens after the specials."""
    model = trained["model"]
    ordered = sorted(model["vocab"].items(), key=lambda kv: kv[1])
    specials = [t for t, _ in ordered if t in special_tokens]
    rest = [t for t, _ in ordered if t not in special_tokens]
    byte_tokens = [byte_fallback_token(b) for b in range(256)]
    clash = set(byte_tokens) & set(rest)
    if clash:
        raise ValueError(f"trained tokens collide with byte-fallback tokens: {sorted(clash)[:5]}")
    vocab = {t: i for i, t in enumerate(specials + byte_tokens + rest)}
    added = [dict(a, id=vocab[a["content"]]) for a in trained.get("added_tokens") or ()]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": None,  # the functok codec makes the pre-tokens
        "post_processor": None,
        "decoder": None,
        "model": dict(
            model,
            byte_fallback=True,
            unk_token=None,
            ignore_merges=False,
            vocab=vocab,
            merges=[list(m) if not isinstance(m, str) else m.split(" ", 1) for m in model["merges"]],
        ),
    }
