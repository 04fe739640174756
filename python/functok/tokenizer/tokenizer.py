"""The :class:`Tokenizer`: a functok tokenizer file put to work.

Its encode path, step by step (each step a named object of this package):

1. **special tokens**: the text is cut at the allowed special tokens
   (:class:`~functok.tokenizer.special_tokens.SpecialTokens`);
2. **codec pre-tokens**: each stretch becomes the codec's pre-tokens, spec 9
   (:class:`~functok.tokenizer.codec_pretokenizer.CodecPreTokenizer`);
3. **segmentation**: each pre-token becomes ids, by greedy BPE or optimal segmentation, spec 10
   (:class:`~functok.tokenizer.vocabulary.Vocabulary`). Greedy ids come faster, and the same, from
   the engine where it has them (:mod:`functok.engine`): functok's C core runs steps 2 and 3
   of a greedy encode (:func:`functok.engine.greedy_encoder`);
4. the **ids**, with their offsets on demand (:class:`~functok.tokenizer.offsets.Encoding`).

Decoding goes back: ids -> the stream -> :func:`functok.decode`
(:func:`~functok.tokenizer.decoding.decode_ids`, :class:`~functok.tokenizer.stream.DecodeStream`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..decoding import DEFAULT_MAX_OUTPUT
from ..errors import FormatError
from .. import engine
from ..pretokenize import fuse_mode
from . import train as training
from .bpe_model import build_bpe
from .codec_pretokenizer import CodecPreTokenizer
from .decoding import TokenTable, decode_ids
from .file_reader import parse_json, read_json
from .offsets import Encoding
from .segment import TIE_BREAKS
from .special_tokens import SpecialTokens
from .tokenizer_file import ALPHABET, FORMAT_VERSION, check_functok_model, check_header, file_parts, file_text, fuse_of
from .tokenizer_file import spec_version as implemented_spec_version
from .vocabulary import SEGMENTATIONS, Vocabulary

__all__ = ["Tokenizer"]


class Tokenizer:
    """A BPE tokenizer over the Functionalizer stream; see :mod:`functok.tokenizer`.

    Its parts are public: ``pre_tokenizer`` (the codec's pre-tokens), ``special`` (the special
    tokens), ``vocabulary`` (ids of a pre-token) and ``token_table`` (what each id stands for).
    """

    def __init__(
        self,
        hf_tokenizer: dict,
        *,
        splitter: str = "llama3",
        normalize: str | None = "nfc",
        split_operators: bool = True,
        profile: str = "paper",
        fuse: str | None = None,
        spec_version: str | None = None,
        source: str = "<dict>",
    ) -> None:
        """``source`` names the tokenizer's origin (its file) in a :class:`TokenizerFileError`.
        ``profile`` is the encoder profile of the pre-tokens (:data:`functok.PROFILES`, spec 6.6)
        and ``fuse`` their rule (:data:`functok.FUSE_MODES`, spec 9; without it
        ``split_operators`` picks ``"none"`` or ``"all"``), both recorded in the file (spec 14.2)."""
        fuse = fuse_mode(fuse, split_operators)
        split_operators = fuse != "all"
        self.header = check_header(
            {
                "format_version": FORMAT_VERSION,
                "spec_version": spec_version or implemented_spec_version(),
                "splitter": splitter,
                "normalize": normalize,
                "split_operators": bool(split_operators),
                "profile": profile,
                "fuse": fuse,
                "alphabet": ALPHABET,
            },
            source,
        )
        self.splitter = splitter
        self.normalize = normalize
        self.split_operators = split_operators
        self.fuse = fuse
        self.profile = profile
        self.hf_json = hf_tokenizer
        checked = check_functok_model(hf_tokenizer, source)
        self._vocab: dict[str, int] = dict(checked.vocab)
        self._merges = checked.merges
        self._id_to_token = checked.id_to_token
        self.special_tokens = checked.special_tokens
        self.special = SpecialTokens(self.special_tokens)
        self.token_table = TokenTable(self._vocab, self._id_to_token, self.special_tokens)
        self.pre_tokenizer = CodecPreTokenizer(normalize=normalize, splitter=splitter,
                                               fuse=fuse, profile=profile)
        self.vocabulary = Vocabulary(
            name="functok",
            tokens=self._vocab,
            special_tokens=self.special_tokens,
            model=build_bpe(checked, source, "$.tokenizer", byte_fallback=True),
            pre_tokenizer=self.pre_tokenizer,
        )
        # The engine's greedy encoder, built on first use where the engine has one (False:
        # never; see fast_path).
        self._native: Any = None if engine.compiles_tokenizers() else False

    # -- training ------------------------------------------------------------------------

    @classmethod
    def train(
        cls,
        files_or_iterator: training.Corpus,
        *,
        vocab_size: int,
        splitter: str = "llama3",
        normalize: str | None = "nfc",
        split_operators: bool | None = None,
        profile: str = training.DEFAULT_PROFILE,
        fuse: str | None = None,
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
        call raises ``ValueError``.

        ``profile`` is the encoder profile of the pre-tokens (:data:`functok.PROFILES`) and
        ``fuse`` how a piece's group meets its base (:data:`functok.FUSE_MODES`, spec 9):
        ``"none"`` shares every base, ``"all"`` learns each cased or marked piece on its own,
        ``"frequent"`` shares every base and spends part of the budget on merges that join the
        frequent groups to their base or to the text before them (:mod:`functok.tokenizer.fusion`). The
        defaults, ``"compact"`` and ``"frequent"``, are the best measured at equal budget
        (docs/concepts.md, "Choosing a profile and a fuse mode"). ``split_operators`` is the 1.0
        spelling of ``fuse`` (True: ``"none"``, False: ``"all"``). Needs ``pip install 'functok[train]'``.
        """
        if fuse is None and split_operators is None:
            fuse = training.DEFAULT_FUSE
        else:  # fuse wins; split_operators alone names "none" or "all"
            fuse = fuse_mode(fuse, split_operators is not False)
        check_header({"format_version": FORMAT_VERSION, "spec_version": implemented_spec_version(),
                      "splitter": splitter, "normalize": normalize, "split_operators": fuse != "all",
                      "profile": profile, "fuse": fuse}, "<train>")
        trained = training.train_bpe(
            files_or_iterator, vocab_size=vocab_size, splitter=splitter, normalize=normalize,
            fuse=fuse, profile=profile, min_frequency=min_frequency,
            special_tokens=special_tokens, limit_alphabet=limit_alphabet, show_progress=show_progress,
        )
        return cls(trained, splitter=splitter, normalize=normalize, fuse=fuse, profile=profile)

    # -- the file ------------------------------------------------------------------------

    def to_str(self, *, indent: int | None = None) -> str:
        """The tokenizer file: ``{"functok": header, "tokenizer": <HF tokenizer.json>}``."""
        return file_text(self.header, self.hf_json, indent=indent)

    def save(self, path: str | os.PathLike) -> None:
        Path(path).write_text(self.to_str(), encoding="utf-8")

    @classmethod
    def from_str(cls, text: str, *, source: str = "<string>") -> Tokenizer:
        """A tokenizer from the text of its file; ``source`` names it in errors. Any fault is a
        :class:`TokenizerFileError` (a ``ValueError``) naming the file and the JSON path."""
        return cls.from_data(parse_json(text, source), source)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> Tokenizer:
        return cls.from_data(read_json(path), str(path))

    @classmethod
    def from_data(cls, data: Any, source: str) -> Tokenizer:
        """A tokenizer from its parsed file (the JSON value); ``source`` names it in errors."""
        header, hf = file_parts(data, source)
        return cls(
            hf,
            splitter=header["splitter"],
            normalize=header["normalize"],
            fuse=fuse_of(header),
            profile=header.get("profile", "paper"),
            spec_version=header["spec_version"],
            source=source,
        )

    def __reduce__(self):  # pickle (multiprocessing) through the file format, without caches
        return (Tokenizer.from_str, (self.to_str(),))

    def __repr__(self) -> str:
        h = self.header
        return (f"Tokenizer(vocab_size={self.vocab_size}, splitter={h['splitter']!r}, "
                f"normalize={h['normalize']!r}, profile={h['profile']!r}, fuse={h['fuse']!r})")

    # -- vocabulary ----------------------------------------------------------------------

    @property
    def fast_path(self) -> bool:
        """Whether greedy ids may come from the engine's compiled code (:mod:`functok.engine`),
        the same ids as the pure-Python BPE, faster: functok's C core encodes greedily where it
        runs, and fills the greedy cache that ``tie_break="prefer-greedy"`` and offsets read.
        Set it to False for the pure-Python BPE alone, the reference and the path Pyodide runs;
        it is False wherever the pure engine runs (``FUNCTOK_PURE=1``, or no C core built)."""
        return self._native is not False

    @fast_path.setter
    def fast_path(self, allowed: bool) -> None:
        if not allowed:
            self._native = False
        elif self._native is False and engine.compiles_tokenizers():
            self._native = None  # built again on first use

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._id_to_token.get(id)

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Debug helper: each pre-token with the span of the original text it comes from."""
        return [(p, span) for p, span, _ in self.pre_tokenizer.spans(text)]

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
        parts = self.special.split(text, allowed_special, disallowed_special)  # 1. special tokens
        ids: list[int] = []
        at = 0  # where the part starts in the text: a FormatError's offset counts from there (14.4)
        for part in parts:
            if isinstance(part, int):
                ids.append(part)
                at += len(self.special.text_of[part])
                continue
            try:
                ids.extend(self._encode_ordinary(part, options))
            except FormatError as exc:
                raise FormatError(exc.kind, exc.offset + at, exc.message) from None
            at += len(part)
        return Encoding(self, text, parts, ids, options)

    def encode_batch(self, texts: Iterable[str], *, num_threads: int | None = None, **options) -> list[Encoding]:
        """``[self.encode(t, **options) for t in texts]``, on ``num_threads`` threads (default:
        the CPUs, at most 8) where the C core encodes (greedy segmentation), as tiktoken's
        ``encode_batch`` does: each thread encodes chunks of neighbouring texts, each chunk in
        one call into the C core with the GIL released, on the cache all threads share
        (:meth:`_encode_batch_native`). The first text that fails raises its error, as
        ``encode`` would. Elsewhere one thread: the pure path's caches are shared Python dicts."""
        texts = list(texts)
        if num_threads is None:
            num_threads = min(8, os.cpu_count() or 1)
        if num_threads < 1:
            raise ValueError(f"num_threads must be at least 1, got {num_threads}")
        greedy = options.get("segmentation", "greedy") == "greedy"
        native = self._native_encoder() if greedy else None
        if len(texts) < 2 or native is None:
            return [self.encode(t, **options) for t in texts]
        return self._encode_batch_native(native, texts, num_threads, options)

    def _encode_batch_native(self, native, texts: list[str], num_threads: int, options: dict) -> list[Encoding]:
        """encode_batch on the C core's threads: the same Encodings, and the same first error.
        The texts go in chunks of neighbours (:func:`_chunks`) to lanes, one thread each: a
        thread holds the GIL only to cut its chunk at special tokens and to make its Encodings,
        while the others encode theirs in the C core with the GIL released."""
        allowed = options.pop("allowed_special", frozenset())
        disallowed = options.pop("disallowed_special", "all")
        self.encode("", **options)  # the options checked as encode checks them
        lanes = _Lanes(_chunks(texts), num_threads)

        def encode_chunk(chunk: range, lane: int) -> list[Encoding]:
            return self._encode_chunk(native, texts[chunk.start : chunk.stop], lane, allowed, disallowed, options)

        results = lanes.run(encode_chunk)
        for result in results:  # the first text that failed, in the texts' order
            if isinstance(result, BaseException):
                raise result
        return [encoding for result in results for encoding in result]

    def _encode_chunk(self, native, texts: list[str], lane: int, allowed, disallowed, options: dict) -> list[Encoding]:
        """The Encodings of a few texts, their stretches encoded by one call into the C core."""
        cut: list[list[str | int]] = []
        refused: Exception | None = None  # a special token's error, raised after the texts before it
        for text in texts:
            try:
                cut.append(self.special.split(text, allowed, disallowed))  # 1. special tokens
            except (TypeError, ValueError) as exc:
                refused = exc
                break
        found = iter(native.encode_many([p for parts in cut for p in parts if isinstance(p, str)], lane))
        encoding_options = {"segmentation": "greedy", "tie_break": options.get("tie_break", "leftmost-longest"),
                            "reachable_only": options.get("reachable_only", False)}
        out = []
        for text, parts in zip(texts, cut):
            ids = [part if isinstance(part, int) else next(found) for part in parts]  # 2. and 3.
            if None in ids:  # the core refused a stretch (a lone surrogate, or no memory): encode
                out.append(self.encode(text, allowed_special=allowed, disallowed_special=disallowed, **options))
                continue  # raises the error, with its offset in the text
            out.append(Encoding(self, text, parts, _joined(ids), encoding_options))
        if refused is not None:
            raise refused
        return out

    def _encode_ordinary(self, text: str, options: dict) -> list[int]:
        native = self._native_encoder() if options["segmentation"] == "greedy" else None
        if native is not None:
            return native.encode(text)  # 2. and 3. in the C core
        pretokens = self.pre_tokenizer(text)  # 2. codec pre-tokens
        if options["segmentation"] == "greedy" or options["tie_break"] == "prefer-greedy":
            self.fill_greedy_cache(pretokens)
        return self.vocabulary.encode_pretokens(pretokens, **options)  # 3. segmentation

    def fill_greedy_cache(self, pretokens: list[str]) -> None:
        """Put the greedy ids of the pre-tokens not cached yet into the vocabulary's cache from a
        compiled path, where there is one (:attr:`fast_path`): the C core's BPE. The same ids as
        the pure-Python BPE (tests prove it); the optimal segmenter's ``prefer-greedy`` and
        :attr:`Encoding.offsets` read them. On the pure engine the BPE fills the cache as it goes."""
        native = self._native_encoder()
        if native is None:
            return
        misses = self.vocabulary.greedy_misses(pretokens)
        if misses:
            self.vocabulary.remember_greedy(misses, native.pretoken_ids(misses))

    def clear_caches(self) -> None:
        """Forget every cached segmentation, the C core's too (benchmarks meet input cold)."""
        self.vocabulary.clear_caches()
        if self._native:
            self._native.clear_caches()

    def _native_encoder(self):
        if self._native is None:
            self._native = engine.greedy_encoder(self.vocabulary.model, self.pre_tokenizer) or False
        return self._native or None

    # -- decoding ------------------------------------------------------------------------

    def decode(
        self,
        ids: Iterable[int],
        *,
        errors: str = "strict",
        skip_special_tokens: bool = False,
        max_output: int = DEFAULT_MAX_OUTPUT,
    ) -> str:
        """The text of ``ids``: tokens -> stream -> :func:`functok.decode`.

        Byte-fallback tokens are joined into UTF-8 first. Special tokens end the stream before
        them: each stretch between special tokens is decoded on its own (with ``max_output``
        for each). ``errors="replace"`` never raises: it writes U+FFFD for invalid UTF-8 and
        unknown ids and decodes the stream leniently. ``errors="strict"`` raises the first
        error in id order (the rule :class:`DecodeStream` follows too): an unknown id
        (:class:`UnknownTokenIdError`, a ``ValueError``), invalid UTF-8 in byte-fallback
        tokens (:class:`ByteFallbackError`, a ``UnicodeDecodeError``), or the stream's first
        error (spec 8.2) as a :class:`TokenFormatError` (a :class:`functok.FormatError`)
        attributed to the id holding its code point. Each has ``id_index``; the stream is
        the one ``errors="replace"`` reads, so an error in a group can win over an unknown id
        in its text.
        """
        return decode_ids(self.token_table, ids, errors=errors, skip_special_tokens=skip_special_tokens,
                          max_output=max_output)

    def decode_batch(self, batch: Iterable[Iterable[int]], **options) -> list[str]:
        return [self.decode(ids, **options) for ids in batch]


_CHUNK = 1 << 16  # code points of text per chunk of encode_batch: a few GIL hand-overs per 100 KB


def _chunks(texts: list[str]) -> list[range]:
    """The texts in chunks of neighbours (indexes), each about _CHUNK code points or one text."""
    chunks, start, size = [], 0, 0
    for k, text in enumerate(texts):
        size += len(text)
        if size >= _CHUNK:
            chunks.append(range(start, k + 1))
            start, size = k + 1, 0
    if start < len(texts):
        chunks.append(range(start, len(texts)))
    return chunks


class _Lanes:
    """Chunks of work shared out to threads, one lane each: lane k takes the chunks of its share
    (the k-th of about equal size, neighbours together) from the front, then, its share done,
    the last chunk of the share with most left, so that no thread idles while another has work.
    A lane keeps its working memory in the C core (``encode_many``'s lane); the cache of ids per
    pre-token is the encoder's, shared by all lanes."""

    def __init__(self, chunks: list[range], lanes: int) -> None:
        import threading  # here: `import functok` stays as quick
        from collections import deque

        self.chunks = chunks
        n, lanes = len(chunks), max(1, min(lanes, len(chunks)))
        self.shares = [deque(range(k * n // lanes, (k + 1) * n // lanes)) for k in range(lanes)]
        self.lock = threading.Lock()

    def take(self, lane: int) -> int | None:
        """The next chunk for lane to work, or None when every chunk is taken."""
        with self.lock:
            if self.shares[lane]:
                return self.shares[lane].popleft()
            most = max(self.shares, key=len)
            return most.pop() if most else None

    def run(self, work) -> list:
        """``work(chunk, lane)`` of every chunk, in the chunks' order: its result or its error."""
        results: list = [None] * len(self.chunks)

        def lane_work(lane: int) -> None:
            while (k := self.take(lane)) is not None:
                try:
                    results[k] = work(self.chunks[k], lane)
                except Exception as exc:  # raised by encode_batch, first in the texts' order
                    results[k] = exc

        # Plain threads, not concurrent.futures: importing that (and the logging it imports)
        # costs some 13 ms of CPU, which the first batch of a process would pay (measured).
        import threading

        stopped: list[BaseException] = []  # what ended a helper early (KeyboardInterrupt...)

        def helper(lane: int) -> None:
            try:
                lane_work(lane)
            except BaseException as exc:
                stopped.append(exc)

        helpers = [threading.Thread(target=helper, args=(lane,), daemon=True) for lane in range(1, len(self.shares))]
        for thread in helpers:
            thread.start()
        try:
            lane_work(0)
        finally:
            for thread in helpers:
                thread.join()
        if stopped:
            raise stopped[0]
        return results


def _joined(parts: list) -> list[int]:
    """The ids of a text's parts (a list of ids per stretch, a special token's id) in one list."""
    if len(parts) == 1 and isinstance(parts[0], list):
        return parts[0]
    ids: list[int] = []
    for part in parts:
        if isinstance(part, int):
            ids.append(part)
        else:
            ids.extend(part)
    return ids
