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

import bisect
import codecs
import functools
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

from .bpe import byte_fallback_token
from .decode import DEFAULT_MAX_OUTPUT, ERRORS, check_max_output
from .decode import decode as decode_stream
from .encode import pieces as codec_pieces
from .encode import pretokens as codec_pretokens
from .errors import FormatError
from .loading import (
    BPEModel,
    Checker,
    TokenizerFileError,
    build_bpe,
    check_bpe,
    describe,
    field,
    parse_json,
    read_text,
)
from .opcodes import ARGUMENT_FIRST, ARGUMENT_LAST, ESCAPE_CHAR, MULTIREPEAT, OPCODES, REPEAT
from .segment import TIE_BREAKS
from .split import SPLITTERS
from .vocab import Vocabulary, reachable_by_merges

__all__ = ["FORMAT_VERSION", "ByteFallbackError", "DecodeStream", "Encoding", "TokenFormatError",
           "Tokenizer", "TokenizerFileError", "UnknownTokenIdError"]

FORMAT_VERSION = 1  # of the tokenizer file; the loader refuses any other
ALPHABET = "characters+byte-fallback"
SEGMENTATIONS = ("greedy", "optimal")
_HF_BATCH_MIN = 64  # cache misses below this are cheaper in pure Python than a call into Rust


def _spec_version() -> str:
    from . import SPEC_VERSION

    return SPEC_VERSION


# --- The tokenizer file -------------------------------------------------------------------


def _check_header(header: Any, file: str = "<dict>") -> dict:
    """Refuse a tokenizer file this functok cannot read, saying why (spec 11.2): every failure
    is a :class:`TokenizerFileError` naming ``file`` and the header's JSON path."""
    c = Checker(file)
    at = "$.functok"
    if not isinstance(header, dict):
        c.fail(at, f"not a functok tokenizer file: expected the header object, got {describe(header)}")
    version = header.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        c.fail(field(at, "format_version"), f"functok tokenizer file format version {json.dumps(version)} "
                                            f"is not supported: expected {FORMAT_VERSION}, the version "
                                            f"this functok reads")
    _check_spec_version(c, header.get("spec_version"), field(at, "spec_version"))
    c.get(header, at, "splitter", f"one of {SPLITTERS} (unknown splitter)", lambda v: v in SPLITTERS)
    c.get(header, at, "normalize", '"nfc" or null (unknown normalization)', lambda v: v in ("nfc", None))
    c.get(header, at, "split_operators", "true or false", lambda v: isinstance(v, bool))
    c.get(header, at, "alphabet", f"{ALPHABET!r} (unknown alphabet)", lambda v: v == ALPHABET, default=ALPHABET)
    return header


def _check_spec_version(c: Checker, theirs: Any, where: str) -> None:
    ours = _spec_version()
    mine = tuple(int(x) for x in ours.split("."))
    saved = tuple(map(int, theirs.split("."))) if isinstance(theirs, str) and _VERSION.match(theirs) else ()
    # Same MAJOR, and no newer MINOR: a newer minor may assign code points we do not know.
    if len(saved) != 3 or saved[0] != mine[0] or saved[1] > mine[1]:
        shown = theirs if isinstance(theirs, str) and len(theirs) < 40 else describe(theirs)
        c.fail(where, f"tokenizer was saved for format spec_version {shown}; this functok implements "
                      f"spec_version {ours}: expected {mine[0]}.0.0 up to {ours}")


_VERSION = re.compile(r"[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}\Z")
# Fields of tokenizer.json that would make the `tokenizers` fast path give other ids than
# functok's own BPE: functok makes the pre-tokens, and its BPE has no dropout, unknown token,
# subword prefix or suffix.
_NULL_FIELDS = ("normalizer", "pre_tokenizer", "post_processor", "decoder", "truncation", "padding")
_NULL_MODEL_FIELDS = ("dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix")


def _check_functok_model(hf: Any, file: str) -> BPEModel:
    """The ``tokenizer`` part of a functok file: a BPE ``tokenizer.json`` with byte fallback
    and all 256 byte tokens, and nothing that would change its ids on the fast path."""
    root = "$.tokenizer"
    checked = check_bpe(hf, file, root, added_in_vocab=True)
    c, at = Checker(file), field(root, "model")
    c.get(checked.model, at, "byte_fallback", "true: a functok tokenizer's BPE model must have byte_fallback",
          lambda v: v is True)
    c.absent_or_null(hf, root, _NULL_FIELDS, "functok makes the pre-tokens and ids itself")
    c.absent_or_null(checked.model, at, _NULL_MODEL_FIELDS, "functok's BPE has none")
    c.get(checked.model, at, "ignore_merges", "false", lambda v: v is False, default=False)
    bytes_ = {byte_fallback_token(b) for b in range(256)}
    missing = sorted(bytes_ - checked.vocab.keys())
    if missing:
        c.fail(field(at, "vocab"), f"the vocabulary lacks byte-fallback tokens, e.g. {missing[0]}: expected "
                                   f"all 256, <0x00> to <0xFF>, or ids would not be lossless")
    for k, token in enumerate(checked.special_tokens):
        if token in bytes_:  # its id would decode as the byte, not as the special token's text
            c.fail(f"{field(root, 'added_tokens')}[{k}]", f"expected a special token, got the byte token {token}")
    return checked


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
        source: str = "<dict>",
    ) -> None:
        """``source`` names the tokenizer's origin (its file) in a :class:`TokenizerFileError`."""
        self.header = _check_header(
            {
                "format_version": FORMAT_VERSION,
                "spec_version": spec_version or _spec_version(),
                "splitter": splitter,
                "normalize": normalize,
                "split_operators": bool(split_operators),
                "alphabet": ALPHABET,
            },
            source,
        )
        self.splitter = splitter
        self.normalize = normalize
        self.split_operators = bool(split_operators)
        self.hf_json = hf_tokenizer
        checked = _check_functok_model(hf_tokenizer, source)
        self._vocab: dict[str, int] = dict(checked.vocab)
        self._merges = checked.merges
        self._id_to_token = checked.id_to_token
        self.special_tokens = checked.special_tokens
        self._special_ids = {i: t for t, i in self.special_tokens.items()}
        self._byte_of = {self._vocab[byte_fallback_token(b)]: b for b in range(256)}
        self._bpe = build_bpe(checked, source, "$.tokenizer", byte_fallback=True)
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
        limit_alphabet: int | None = None,
        show_progress: bool = True,
    ) -> Tokenizer:
        """Train BPE (Hugging Face ``tokenizers``) on the codec's pre-tokens.

        ``files_or_iterator``: a path or a list/tuple of paths (read as UTF-8), or any other
        iterable of texts (``iter(list_of_texts)`` for texts held in a list).
        ``vocab_size`` counts everything: special tokens, the 256 byte tokens, the alphabet
        and the merges. The result has exactly ``vocab_size`` tokens, or fewer when the corpus
        runs out of merges (or ``min_frequency`` stops them), never more: when the corpus has
        more distinct characters than there is room for, the most frequent are kept and the
        rarest are written with byte-fallback tokens (still lossless). ``limit_alphabet`` keeps
        at most that many characters, leaving the rest of the room to merges. The floor is
        257 plus the special tokens (256 byte tokens and one trained token); below it the
        call raises ``ValueError``. Needs ``pip install 'functok[train]'``.
        """
        try:
            from tokenizers import Tokenizer as HFTokenizer
            from tokenizers import models, trainers
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("training needs `tokenizers`: pip install 'functok[train]'") from exc
        special_tokens = list(dict.fromkeys(special_tokens))
        room = _alphabet_room(vocab_size, special_tokens)
        counts = _pretoken_counts(_texts(files_or_iterator), normalize, splitter, split_operators)
        alphabet = _kept_alphabet(counts, room if limit_alphabet is None else max(0, min(limit_alphabet, room)))
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size - 256,  # the trainer's count: specials, alphabet, merges
            min_frequency=min_frequency,
            special_tokens=special_tokens,
            show_progress=show_progress,
            # Our choice of characters, exactly: the trainer's own limit_alphabet breaks ties
            # in hash order, so it would train a different tokenizer on each run.
            **({} if alphabet is None else {"initial_alphabet": alphabet, "limit_alphabet": len(alphabet)}),
        )
        hf = HFTokenizer(models.BPE(byte_fallback=True))  # no normalizer, no pre-tokenizer:
        # every sequence we yield is one pre-token, i.e. one BPE word
        hf.train_from_iterator(_word_batches(counts), trainer)
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
    def from_str(cls, text: str, *, source: str = "<string>") -> Tokenizer:
        """A tokenizer from the text of its file; ``source`` names it in errors. Any fault is a
        :class:`TokenizerFileError` (a ``ValueError``) naming the file and the JSON path."""
        return cls._from_data(parse_json(text, source), source)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> Tokenizer:
        return cls.from_str(read_text(path), source=str(path))

    @classmethod
    def _from_data(cls, data: Any, source: str) -> Tokenizer:
        if not isinstance(data, dict) or "functok" not in data or "tokenizer" not in data:
            raise TokenizerFileError(source, "$", f"not a functok tokenizer file: expected an object with "
                                                  f"the keys \"functok\" and \"tokenizer\", got {describe(data)}")
        h = _check_header(data["functok"], source)
        return cls(
            data["tokenizer"],
            splitter=h["splitter"],
            normalize=h["normalize"],
            split_operators=h["split_operators"],
            spec_version=h["spec_version"],
            source=source,
        )

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

    def decode(
        self,
        ids: Iterable[int],
        *,
        errors: str = "strict",
        skip_special_tokens: bool = False,
        max_output: int = DEFAULT_MAX_OUTPUT,
    ) -> str:
        """The text of ``ids``: tokens -> op stream -> :func:`functok.decode`.

        Byte-fallback tokens are joined into UTF-8 first. Special tokens end the stream before
        them: each stretch between special tokens is decoded on its own (with ``max_output``
        for each). ``errors="replace"`` never raises: it writes U+FFFD for invalid UTF-8 and
        unknown ids and decodes the op stream leniently. ``errors="strict"`` raises the first
        error in id order (the rule :class:`DecodeStream` follows too): an unknown id
        (:class:`UnknownTokenIdError`, a ``ValueError``), invalid UTF-8 in byte-fallback
        tokens (:class:`ByteFallbackError`, a ``UnicodeDecodeError``), or the op stream's first
        error (spec 8.2) as a :class:`TokenFormatError` (a :class:`functok.FormatError`)
        attributed to the id holding its code point. Each has ``id_index``; the op stream is
        the one ``errors="replace"`` reads, so an error in a group can win over an unknown id
        in its text.
        """
        if errors not in ERRORS:
            raise ValueError(f"errors must be one of {ERRORS}, not {errors!r}")
        if not isinstance(ids, Sequence):
            ids = list(ids)  # an error's id is found by reading its stretch again
        strict = errors == "strict"
        out: list[str] = []
        tokens: list[str] = []  # the current stretch's op stream
        run = bytearray()  # byte-fallback tokens waiting to be read as UTF-8
        run_start = stretch_start = 0
        first_error: UnknownTokenIdError | ByteFallbackError | None = None  # of this stretch's ids
        byte_of, special_of, token_of = self._byte_of, self._special_ids, self._id_to_token
        for index, i in enumerate(ids):
            byte = byte_of.get(i)
            if byte is not None:
                if not run:
                    run_start = index
                run.append(byte)
                continue
            if run:
                first_error = _read_bytes(run, run_start, tokens, strict, first_error)
            special = special_of.get(i)
            if special is None:
                token = token_of.get(i)
                if token is None:
                    if strict and first_error is None:
                        first_error = UnknownTokenIdError(i, index)
                    token = "\ufffd"
                tokens.append(token)
                continue
            out.append(self._decode_stretch(ids, stretch_start, tokens, first_error, errors, max_output))
            tokens.clear()
            first_error = None
            stretch_start = index + 1
            if not skip_special_tokens:
                out.append(special)
        if run:
            first_error = _read_bytes(run, run_start, tokens, strict, first_error)
        out.append(self._decode_stretch(ids, stretch_start, tokens, first_error, errors, max_output))
        return "".join(out)

    def _decode_stretch(self, ids: Sequence[int], start: int, tokens: list[str], first_error,
                        errors: str, max_output: int) -> str:
        """Decode the op stream of ids[start:...]; in strict mode raise its first error in id order."""
        try:
            text = decode_stream("".join(tokens), errors=errors, max_output=max_output)
        except FormatError as e:
            index = _index_of_offset(self, ids, start, e.offset)
            if first_error is None or index < first_error.id_index:
                raise TokenFormatError(e.kind, e.offset, e.message, index) from None
            raise first_error from None
        if first_error is not None:
            raise first_error
        return text

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


class TokenFormatError(FormatError):
    """A :class:`FormatError` in the op stream of token ids.

    ``offset`` counts code points of the op stream since the last special token (as
    :func:`functok.decode` would report it for that stretch), ``id_index`` is the position,
    in the ids, of the id that holds the offending code point (for a code point spelled by
    byte-fallback tokens: the first byte of its UTF-8 sequence).
    """

    def __init__(self, kind: str, offset: int, message: str, id_index: int) -> None:
        super().__init__(kind, offset, message)
        self.id_index = id_index

    def __str__(self) -> str:
        return f"{super().__str__()} (id at index {self.id_index})"

    def __reduce__(self):
        return (TokenFormatError, (self.kind, self.offset, self.message, self.id_index))


class UnknownTokenIdError(ValueError):
    """An id that is not in the vocabulary; ``id_index`` is its position in the ids."""

    def __init__(self, id: int, id_index: int) -> None:
        super().__init__(f"unknown token id {id} (at index {id_index})")
        self.id = id
        self.id_index = id_index

    def __reduce__(self):
        return (UnknownTokenIdError, (self.id, self.id_index))


class ByteFallbackError(UnicodeDecodeError):
    """Byte-fallback tokens that are not UTF-8.

    ``object`` holds the bad bytes (``start`` 0, ``end`` their length) and ``id_index`` the
    position, in the ids, of the first of them.
    """

    def __init__(self, bad: bytes, reason: str, id_index: int) -> None:
        super().__init__("utf-8", bad, 0, len(bad), reason)
        self.id_index = id_index

    def __str__(self) -> str:
        return f"{super().__str__()} (byte-fallback id at index {self.id_index})"

    def __reduce__(self):
        return (ByteFallbackError, (self.object, self.reason, self.id_index))


_IdError = TokenFormatError | UnknownTokenIdError | ByteFallbackError


def _utf8_error(data: bytes, first_index: int) -> ByteFallbackError:
    """The first UTF-8 error of ``data``, whose first byte is the id at ``first_index``."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ByteFallbackError(data[e.start : e.end], e.reason, first_index + e.start)
    raise AssertionError(f"{data!r} is valid UTF-8")


class _IdReader:
    """Ids to op-stream code points, the one way both decoders read them.

    A token id gives its token, an unknown id U+FFFD, byte-fallback ids their UTF-8 (U+FFFD
    for invalid bytes, as ``bytes.decode(errors="replace")``). Each piece of code points comes
    with the index of the id it is attributed to: a code point spelled in bytes belongs to the
    first byte of its sequence. The first error of the ids (strict mode) is kept in ``error``.
    """

    def __init__(self, tokenizer: Tokenizer, strict: bool) -> None:
        self._byte_of = tokenizer._byte_of
        self._token_of = tokenizer._id_to_token
        self._strict = strict
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._last_byte = 0  # index of the last byte-fallback id read
        self.error: UnknownTokenIdError | ByteFallbackError | None = None

    def read(self, id: int, index: int) -> list[tuple[str, int]]:
        byte = self._byte_of.get(id)
        if byte is not None:
            return self._byte(byte, index)
        pieces = self.end_bytes()
        token = self._token_of.get(id)
        if token is None:
            self._fail(lambda: UnknownTokenIdError(id, index))
            token = "\ufffd"
        pieces.append((token, index))
        return pieces

    @property
    def in_bytes(self) -> bool:
        """Is a UTF-8 sequence of byte-fallback ids unfinished?"""
        return bool(self._utf8.getstate()[0])

    def end_bytes(self) -> list[tuple[str, int]]:
        """A run of byte-fallback ids has ended: an unfinished sequence is U+FFFD."""
        buffered = self._utf8.getstate()[0]
        if not buffered:
            return []
        first = self._last_byte - len(buffered) + 1
        self._fail(lambda: _utf8_error(buffered, first))
        return [(self._utf8.decode(b"", final=True), first)]

    def _byte(self, byte: int, index: int) -> list[tuple[str, int]]:
        buffered = self._utf8.getstate()[0]
        chars = self._utf8.decode(bytes((byte,)))
        self._last_byte = index
        if not chars:
            return []
        # The output is the sequence the buffered bytes began (or their U+FFFD), then at
        # most one code point of this byte alone (ASCII, or U+FFFD for a byte that cannot
        # start a sequence).
        first = index - len(buffered)
        if "\ufffd" in chars and not (buffered == b"\xef\xbf" and byte == 0xBD):  # not U+FFFD itself
            self._fail(lambda: _utf8_error(buffered + bytes((byte,)), first))
        if len(chars) == 2:
            return [(chars[0], first), (chars[1], index)]
        return [(chars, first)]

    def _fail(self, error: Callable[[], UnknownTokenIdError | ByteFallbackError]) -> None:
        if self._strict and self.error is None:
            self.error = error()


def _read_bytes(run: bytearray, first_index: int, tokens: list[str], strict: bool, first_error):
    """Append a run of byte-fallback tokens as UTF-8 to ``tokens`` (U+FFFD for invalid bytes);
    return the stretch's first id error, this run's if it is the first."""
    try:
        tokens.append(run.decode("utf-8", "strict" if strict else "replace"))
    except UnicodeDecodeError:
        if first_error is None:
            first_error = _utf8_error(bytes(run), first_index)
        tokens.append(run.decode("utf-8", "replace"))
    run.clear()
    return first_error


def _index_of_offset(tokenizer: Tokenizer, ids: Sequence[int], start: int, offset: int) -> int:
    """The index of the id holding code point ``offset`` of the stretch that starts at ids[start]."""
    reader = _IdReader(tokenizer, strict=False)
    position = 0
    for index in range(start, len(ids)):
        for chars, at in reader.read(ids[index], index):
            position += len(chars)
            if offset < position:
                return at
    for chars, at in reader.end_bytes():
        position += len(chars)
        if offset < position:
            return at
    raise AssertionError(f"offset {offset} is past the stretch")


class DecodeStream:
    """Incremental decoding for generation: ``step(id)`` returns the text that has become final
    (or None), ``finish()`` the rest once the ids end. The concatenation equals
    :meth:`Tokenizer.decode` of the same ids (same ``errors`` and ``max_output``), and a
    strict stream raises the same error as :meth:`Tokenizer.decode`.

    >>> tok = Tokenizer.train(iter(["Hello world"] * 3), vocab_size=300, show_progress=False)
    >>> stream = DecodeStream(tok)
    >>> [stream.step(i) for i in tok.encode("Hi you").ids] + [stream.finish()]
    [None, 'H', 'i', ' ', 'y', 'o', 'u', '']

    **What is final.** Text before any group is literal. A group's instructions are known
    once its text starts, and a slot of that text (a code point or an escape pair) is final
    once the instructions can no longer change it or what comes before it:

    * without a repeat that grows the text (count 2 or more), every slot is final as it
      arrives;
    * with one, the slots before the smallest such repeat's start are final as they arrive.
      The rest depends on the repeats: their expansion needs every slot their ranges name
      (``reach`` slots), and whether they fit ``max_output`` (spec 7.8) depends on every slot
      of the group's text, up to the next group.

      - ``errors="strict"`` emits the group's text as soon as its first ``reach`` slots are
        in, expanded, and the slots after them as they arrive: if a repeat turns out not to
        fit, the stream raises anyway (at the next group or ``finish()``).
      - ``errors="replace"`` holds the text from that start on until the next group or the
        end, or until the output is so long that no growing repeat of the group can fit any
        more (the limit has then dropped them all, and the text is final as it arrives).
        Before all ``reach`` slots are in, "can fit" counts each missing slot as one code
        point.

    Both modes check the limit incrementally, so a stream costs time linear in its length.

    **Errors** (strict mode): both this class and :meth:`Tokenizer.decode` raise the first
    error *in id order*: an unknown id (:class:`UnknownTokenIdError`, a ``ValueError``),
    byte-fallback ids that are not UTF-8 (:class:`ByteFallbackError`, a
    ``UnicodeDecodeError``), or the op stream's first error (spec 8.2) as a
    :class:`TokenFormatError` (a :class:`functok.FormatError`), attributed to the id that
    holds its code point. Each has ``id_index``, the position of that id in the ids; a
    ``TokenFormatError``'s ``offset`` counts code points of the op stream since the last
    special token. The op stream is read as ``errors="replace"`` reads it (U+FFFD for an
    unknown id or invalid bytes), so an error in a group can come before, and win over, an
    id error in its text. The stream raises as soon as the winner is certain: an id error
    waits while the group it falls in could still report an earlier error.

    >>> stream = DecodeStream(tok)
    >>> [stream.step(i) for i in tok.encode("Hi").ids]
    [None, 'H', 'i']
    >>> stream.step(10**9)  # CAPITALIZE(0) has its slot: nothing open can raise before this id
    Traceback (most recent call last):
    ...
    functok.tokenizer.UnknownTokenIdError: unknown token id 1000000000 (at index 3)
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
        self._reader = _IdReader(tokenizer, strict=errors == "strict")
        self._stretch = _Stretch(errors == "strict", self.max_output)
        self._index = 0  # ids taken so far: the index of the next one

    def step(self, id: int) -> str | None:
        """Take one id; return the text that has become final, or None."""
        index = self._index
        self._index += 1
        special = self.tokenizer._special_ids.get(id)
        if special is not None:
            out = self._feed(self._reader.end_bytes()) + self._end_stretch()
            if not self.skip_special_tokens:
                out += special
            return out or None
        token = self.tokenizer._id_to_token.get(id)
        if token is not None and not self._reader.in_bytes and id not in self.tokenizer._byte_of:
            return self._stretch.feed(token, index) or None  # the common case, in short
        return self._feed(self._reader.read(id, index)) or None

    def finish(self) -> str:
        """The ids have ended: return the rest of the text (raises on errors in strict mode)."""
        return self._feed(self._reader.end_bytes()) + self._end_stretch()

    def _feed(self, pieces: list[tuple[str, int]]) -> str:
        stretch = self._stretch
        out = "".join([stretch.feed(chars, index) for chars, index in pieces]) if pieces else ""
        if self._reader.error is not None:
            error, self._reader.error = self._reader.error, None
            stretch.id_error(error)
        return out

    def _end_stretch(self) -> str:
        out = self._stretch.end()
        self._stretch = _Stretch(self.errors == "strict", self.max_output)
        return out


# Text with no group: code points outside U+E000..U+EFFF, and escape pairs. An escape with
# nothing after it yet is not matched (it waits for its code point).
_LITERAL = re.compile(r"(?:[^\ue000-\uefff]++|\uefff[\s\S])*+")  # possessive: no stack per code point
_GROUP_RUN = re.compile("[\ue000-\ueffe]*")
_NEEDS_CARE = re.compile("[\ud800-\udfff\ue000-\uefff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SLOT = re.compile("\uefff[\\s\\S]|[\\s\\S]")


def _literal_length(stream: str, start: int) -> int:
    """Length of the text of ``stream`` from ``start`` with no group and no unpaired escape."""
    return _LITERAL.match(stream, start).end() - start


def _slot_list(text: str) -> list[str]:
    """The slots of a text of complete slots: code points, and escape pairs."""
    return _SLOT.findall(text) if ESCAPE_CHAR in text else list(text)


def _literal(text: str) -> str:
    """The decoding of text outside any group's reach (escapes undone, surrogates U+FFFD)."""
    return decode_stream(text, errors="replace")


class _Unit:
    """A group and the text after it, as far as they have arrived."""

    def __init__(self, offset: int) -> None:
        self.offset = offset  # of the group, in the stretch
        self.in_group = True  # still reading the group (its text has not started)
        self._chunks: list[str] = []
        self.length = 0  # of the group so far
        self.id_starts: list[int] = []  # group offset where each id's code points begin
        self.ids: list[int] = []  # and that id's index
        self.text_error: TokenFormatError | None = None  # the first error in the text

    def add_group(self, chars: str, index: int) -> None:
        self.id_starts.append(self.length)
        self.ids.append(index)
        self._chunks.append(chars)
        self.length += len(chars)

    def close_group(self) -> None:
        """The text starts: read the group's instructions (spec 7.2)."""
        self.in_group = False
        self.group = "".join(self._chunks)
        self._chunks = []
        info = _group_info(self.group)
        self.marks_at, self.growing, self.has_repeat, self.reach, self.clean = info
        self.hold_from = min((s for s, _, _ in self.growing), default=self.reach)
        # Each slot is at least one code point: a lower bound on any growing repeat's growth.
        self.least_growth = min(((c - 1) * (e - s) for s, e, c in self.growing), default=0)
        self.head: list[str] = []  # the raw first `reach` slots
        self.slot_out: list[str] = []  # their decodings without repeats
        self.size = 0  # code points of slot_out
        self.final = 0  # slots of slot_out returned so far
        self.emitted = 0  # code points of the head's decoding returned so far
        self.tail = 0  # code points after the head (each slot is one, literal)
        self.held: list[str] = []  # their text, while a repeat may still change the head
        self.head_out: str | None = None  # the head's decoding once known (strict mode)
        self.failed = False  # strict mode: the head's decoding raised
        self.settled = not self.growing  # no growing repeat can apply any more (or there is none)

    def group_index(self, offset: int) -> int:
        """The index of the id holding code point ``offset`` of the group."""
        return self.ids[bisect.bisect_right(self.id_starts, offset) - 1]

    def slot_output(self, slot: int, raw: str) -> str:
        ops = self.marks_at.get(slot)
        if ops is None:
            return _literal(raw)
        # The slot alone, with its instructions moved to slot 0: case and marks act on one slot.
        return decode_stream("".join(chr(op) + "\ue000" for op in ops) + raw, errors="replace")


@functools.lru_cache(maxsize=4096)
def _group_info(group: str) -> tuple[dict[int, list[int]], list[tuple[int, int, int]], bool, int, bool]:
    """What a group does to its text, as spec 7.2 parses it: (slot -> its case and diacritic
    opcodes, (start, end, count) of each repeat that grows the text, has it a repeat, how many
    slots its instructions name, does it parse without error). Read-only: it is shared."""
    marks_at: dict[int, list[int]] = {}
    growing: list[tuple[int, int, int]] = []
    has_repeat = False
    reach = 0
    clean = True
    i = 0
    while i < len(group):
        info = OPCODES.get(ord(group[i]))
        if info is None:  # a stray argument or an unknown opcode
            clean = False
            i += 1
            continue
        j = i + 1
        while j < len(group) and j - i <= info.arity and ord(group[j]) <= ARGUMENT_LAST:
            j += 1
        opcode, args = ord(group[i]), tuple(ord(c) - ARGUMENT_FIRST for c in group[i + 1 : j])
        i = j
        if len(args) < info.arity:
            clean = False  # truncated
        elif opcode == REPEAT or opcode == MULTIREPEAT:
            has_repeat = True
            start, end, count = (args[0], args[0] + 1, args[1]) if opcode == REPEAT else args
            reach = max(reach, end, start + 1)  # a bad range names slots too
            if count >= 2 and end > start:
                growing.append((start, end, count))
        else:
            marks_at.setdefault(args[0], []).append(opcode)
            reach = max(reach, args[0] + 1)
    return marks_at, growing, has_repeat, reach, clean


class _Stretch:
    """One stretch of the op stream (between special tokens), decoded as its code points arrive.

    The output is text0, then each unit (a group and its text). A unit's decoding is its
    first ``reach`` slots decoded with the group (the head), then the rest literally; its
    size counts toward ``max_output`` through ``before``, the output of the stretch so far.
    """

    def __init__(self, strict: bool, max_output: int) -> None:
        self.strict = strict
        self.max_output = max_output
        self.offset = 0  # code points of the stretch read so far
        self.before = 0  # output code points of text0 and the finished units
        self.unit: _Unit | None = None  # None while in text0
        self.escape: tuple[int, int] | None = None  # (offset, id index) of an unpaired ESCAPE
        self.pending: _IdError | None = None  # strict: the first error known so far
        self._out: list[str] = []

    # -- reading code points

    def feed(self, chars: str, index: int) -> str:
        unit = self.unit
        if self.escape is None and not _NEEDS_CARE.search(chars):  # plain text, no group
            if unit is None:
                self.offset += len(chars)
                self.before += len(chars)
                return chars if self.pending is None else ""
            if not unit.in_group and len(unit.head) == unit.reach:  # the unit's tail
                self.offset += len(chars)
                unit.tail += len(chars)
                self._tail(unit, chars)
                out = "".join(self._out)
                self._out.clear()
                return out
        pos = 0
        while pos < len(chars):
            unit = self.unit
            if unit is not None and unit.in_group:
                end = _GROUP_RUN.match(chars, pos).end()
                if end > pos:
                    unit.add_group(chars[pos:end], index)
                    self.offset += end - pos
                    pos = end
                if pos == len(chars):
                    break  # the group may go on
                unit.close_group()
            if self.escape is not None:  # the code point after an ESCAPE is escaped
                self.escape = None
                self._text(ESCAPE_CHAR + chars[pos], self.offset - 1, index)
                self.offset += 1
                pos += 1
                continue
            end = pos + _literal_length(chars, pos)
            if end > pos:
                self._text(chars[pos:end], self.offset, index)
                self.offset += end - pos
                pos = end
            if pos == len(chars):
                break
            if chars[pos] == ESCAPE_CHAR:  # the last code point: it waits for the next one
                self.escape = (self.offset, index)
                self.offset += 1
                break
            self._end_unit()  # a group starts
            self.unit = _Unit(self.offset)
        self._raise_if_certain()
        out = "".join(self._out)
        self._out.clear()
        return out

    def id_error(self, error: UnknownTokenIdError | ByteFallbackError) -> None:
        self._candidate(error)
        self._raise_if_certain()

    def end(self) -> str:
        if self.escape is not None and self.strict:
            offset, index = self.escape
            self._text_error("escape-at-end", offset, index, "ESCAPE is the last code point")
        self._end_unit()
        out = "".join(self._out)
        self._out.clear()
        return out

    # -- text

    def _text(self, text: str, offset: int, index: int) -> None:
        """Complete slots of text0 or of the unit's text, from code point ``offset``."""
        if self.strict:
            surrogate = _SURROGATE.search(text)
            if surrogate:
                self._text_error("lone-surrogate", offset + surrogate.start(), index,
                                 f"U+{ord(surrogate.group()):04X} is a surrogate")
        unit = self.unit
        if unit is None:  # text0
            out = _literal(text)
            self.before += len(out)
            self._emit(out)
            return
        missing = unit.reach - len(unit.head)
        if missing > 0:
            slots = _slot_list(text)
            for raw in slots[:missing]:
                out = unit.slot_output(len(unit.head), raw)
                unit.head.append(raw)
                unit.slot_out.append(out)
                unit.size += len(out)
            if len(unit.head) == unit.reach:
                self._head_complete(unit)
            text = "".join(slots[missing:]) if len(slots) > missing else ""
        self._emit_head(unit)
        if text:
            out = _literal(text)
            unit.tail += len(out)
            self._tail(unit, out)

    def _head_complete(self, unit: _Unit) -> None:
        """The text holds every slot the group names."""
        if unit.settled:
            return
        if self.strict:
            try:
                unit.head_out = self._decode_head(unit, "strict")
            except FormatError:
                unit.failed = True  # the unit raises at its end; nothing more of it is final
            return
        # The exact growth of each growing repeat on the slots as they are (spec 7.7): with
        # none applied before it, a repeat sees the original slots.
        starts = [0]
        for out in unit.slot_out:
            starts.append(starts[-1] + len(out))
        unit.least_growth = min((c - 1) * (starts[e] - starts[s]) for s, e, c in unit.growing)

    def _tail(self, unit: _Unit, out: str) -> None:
        """Text after the head: literal, final once the head is."""
        if not unit.settled and not self.strict:
            self._settle(unit)
        if unit.settled or unit.head_out is not None:
            self._emit(out)
        elif not self.strict:
            unit.held.append(out)

    def _settle(self, unit: _Unit) -> None:
        """Lenient mode: has the output grown past what any growing repeat could still fit in?"""
        if self.before + unit.size + unit.tail + unit.least_growth > self.max_output:
            unit.settled = True  # spec 7.8 drops every growing repeat, whatever follows
            self._emit_head(unit)
            self._emit("".join(unit.held))
            unit.held = []

    def _emit_head(self, unit: _Unit) -> None:
        """Return what has become final of the head's decoding."""
        if not unit.settled and not self.strict:
            self._settle(unit)
        if unit.head_out is not None:  # strict: the head's decoding, repeats applied
            self._emit(unit.head_out[unit.emitted :])
            unit.emitted = len(unit.head_out)
            return
        final = len(unit.slot_out) if unit.settled else min(len(unit.slot_out), unit.hold_from)
        if final > unit.final:
            out = "".join(unit.slot_out[unit.final : final])
            unit.final = final
            unit.emitted += len(out)
            self._emit(out)

    def _emit(self, out: str) -> None:
        if out and self.pending is None:  # strict: once an error is certain, nothing is final
            self._out.append(out)

    # -- the end of a unit

    def _end_unit(self) -> None:
        """The unit is complete (a group starts, or the stretch ends): return the rest of it."""
        unit = self.unit
        if unit is None:
            self._raise_pending()
            return
        if unit.in_group:
            unit.close_group()  # a dangling group (spec 7.3)
        if self.strict and not (unit.clean and not unit.has_repeat and len(unit.head) == unit.reach):
            try:
                head = self._decode_head(unit, "strict")
            except FormatError as e:
                self._candidate(self._unit_error(unit, e))
                head = ""
        elif unit.settled:  # (in strict mode: no repeat, and every slot the group names is in)
            head = "".join(unit.slot_out)
        else:
            head = self._decode_head(unit, "replace")
        self._emit(head[unit.emitted :])
        self._emit("".join(unit.held))
        self.before += len(head) + unit.tail
        self.unit = None
        self._raise_pending()

    def _decode_head(self, unit: _Unit, errors: str) -> str:
        # The tail's code points count toward the limit (spec 7.8) as the text after the head.
        budget = max(0, self.max_output - self.before - unit.tail)
        return decode_stream(unit.group + "".join(unit.head), errors=errors, max_output=budget)

    def _unit_error(self, unit: _Unit, e: FormatError) -> TokenFormatError:
        if e.offset >= len(unit.group):  # in the head's text: its first surrogate
            assert unit.text_error is not None and unit.text_error.offset == unit.offset + e.offset
            return unit.text_error
        return TokenFormatError(e.kind, unit.offset + e.offset, e.message, unit.group_index(e.offset))

    # -- errors (strict mode)

    def _text_error(self, kind: str, offset: int, index: int, message: str) -> None:
        error = TokenFormatError(kind, offset, message, index)
        unit = self.unit
        if unit is not None and unit.text_error is None:
            unit.text_error = error
        self._candidate(error)

    def _candidate(self, error: _IdError) -> None:
        pending = self.pending
        if pending is None or _error_order(error) < _error_order(pending):
            self.pending = error

    def _raise_pending(self) -> None:
        if self.pending is not None:
            raise self.pending

    def _raise_if_certain(self) -> None:
        """Raise the pending error once nothing still open can report an earlier one."""
        if self.pending is None:
            return
        unit = self.unit
        if unit is None:
            raise self.pending
        if unit.in_group or unit.has_repeat or len(unit.head) < unit.reach:
            return  # the group's errors are not known yet (repeats: not until its text ends)
        # Without repeats, the group's errors are known once its text holds every slot it names.
        try:
            self._decode_head(unit, "strict")
        except FormatError as e:
            self._candidate(self._unit_error(unit, e))
        raise self.pending


def _error_order(error: _IdError) -> tuple[int, int]:
    return error.id_index, getattr(error, "offset", -1)


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


def _pretoken_counts(texts: Iterable[str], normalize, splitter, split_operators) -> Counter[str]:
    """How often each pre-token (a BPE word) occurs: what the trainer counts, counted first so
    that the alphabet can be chosen before training."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(codec_pretokens(text, normalize=normalize, splitter=splitter, split_operators=split_operators))
    return counts


def _kept_alphabet(counts: Counter[str], limit: int) -> list[str] | None:
    """The ``limit`` most frequent characters (ties: the smaller code point), or None when all
    fit. Frequencies count every occurrence, as the trainer's do."""
    if len(set("".join(counts))) <= limit:
        return None
    by_count: dict[int, list[str]] = {}
    for word, n in counts.items():
        by_count.setdefault(n, []).append(word)
    frequency: Counter[str] = Counter()
    for n, words in by_count.items():  # one C-speed count per distinct word frequency
        for ch, k in Counter("".join(words)).items():
            frequency[ch] += k * n
    ranked = sorted(frequency, key=lambda ch: (-frequency[ch], ord(ch)))
    return sorted(ranked[:limit])


def _word_batches(counts: Counter[str], size: int = 8192) -> Iterator[list[str]]:
    """Each pre-token as often as it occurred, in lists of about ``size``."""
    batch: list[str] = []
    for word, n in counts.items():
        while n:
            take = min(n, size - len(batch))
            batch.extend(repeat(word, take))
            n -= take
            if len(batch) >= size:
                yield batch
                batch = []
    if batch:
        yield batch


def _alphabet_room(vocab_size: int, special_tokens: list[str]) -> int:
    """The characters that fit beside the 256 byte tokens and the special tokens (without
    this limit the trainer keeps every character it sees, whatever ``vocab_size`` says)."""
    byte_tokens = [t for t in special_tokens if t in _BYTE_TOKENS]
    if byte_tokens:
        raise ValueError(f"special token {byte_tokens[0]} is a byte-fallback token; its id would decode "
                         f"as the byte")
    floor = 256 + len(special_tokens) + 1
    if type(vocab_size) is not int or vocab_size < floor:
        raise ValueError(f"vocab_size {vocab_size!r} leaves no room for the alphabet: the floor is {floor}: "
                         f"256 byte-fallback tokens, {len(special_tokens)} special tokens and one trained token")
    return vocab_size - 256 - len(special_tokens)


_BYTE_TOKENS = frozenset(byte_fallback_token(b) for b in range(256))


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
