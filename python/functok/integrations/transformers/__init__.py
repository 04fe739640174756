"""A functok tokenizer as a Hugging Face ``transformers`` tokenizer (``pip install 'functok[hf]'``).

:class:`FunctokTokenizer` is a ``PreTrainedTokenizer`` (transformers 5's Python backend) around a
:class:`functok.Tokenizer`: the ids are functok's, the text of ids is :meth:`functok.Tokenizer.decode`'s,
and ``save_pretrained`` writes the functok tokenizer file (``functok.json``) beside the usual
``tokenizer_config.json``. Importing this module registers the class with ``AutoTokenizer``
(:func:`register`); a saved folder also carries a one-line ``tokenization_functok.py`` so that
``AutoTokenizer.from_pretrained(folder, trust_remote_code=True)`` finds it without that import.

>>> import functok
>>> tok = functok.Tokenizer.train(iter(["Hello hello HELLO"] * 3), vocab_size=300, profile="compact",
...                               fuse="frequent", show_progress=False)
>>> hf = FunctokTokenizer(functok_tokenizer=tok)
>>> batch = hf(["Hello", "Hi"], padding=True)
>>> batch["input_ids"][0] == tok.encode("Hello").ids + [hf.pad_token_id] * 2, batch["attention_mask"]
(True, [[1, 0, 0], [1, 1, 1]])
>>> hf.batch_decode(batch["input_ids"], skip_special_tokens=True)
['Hello', 'Hi']
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from transformers import AutoTokenizer, PreTrainedConfig, PreTrainedTokenizer
from transformers.tokenization_utils_base import BatchEncoding, PaddingStrategy, TruncationStrategy

from ...tokenizer import Tokenizer, TokenizerFileError
from .alignment import EncodedText, FunctokEncoding, Stretch
from .streaming import _ID_ERRORS, FunctokDecodeStream, FunctokStreamer, _counted_from

__all__ = ["FUNCTOK_FILE", "AddedTokenMismatch", "FunctokConfig", "FunctokDecodeStream", "FunctokStreamer",
           "FunctokTokenizer", "register"]

FUNCTOK_FILE = "functok.json"  # not tokenizer.json: AutoTokenizer would read that as a `tokenizers` file
SHIM_MODULE = "tokenization_functok"

# The role of a special token a functok tokenizer was trained with, recognized by its text.
ROLE_NAMES = {
    "bos_token": ("<s>", "<bos>", "<|bos|>", "<|begin_of_text|>", "<|startoftext|>", "[BOS]"),
    "eos_token": ("</s>", "<eos>", "<|eos|>", "<|endoftext|>", "<|end_of_text|>", "[EOS]"),
    "unk_token": ("<unk>", "<|unk|>", "[UNK]"),
    "pad_token": ("<pad>", "<|pad|>", "[PAD]"),
}
# What the wrapper adds at the end of the vocabulary for a role the functok tokenizer has no token for.
ADDED_NAMES = {"bos_token": "<|bos|>", "eos_token": "<|eos|>", "unk_token": "<|unk|>", "pad_token": "<|pad|>"}


class AddedTokenMismatch(ValueError):
    """An added token that contradicts the functok tokenizer: ``where`` in the
    ``added_tokens_decoder`` (a JSON path), ``problem`` what was expected there. Loading a saved
    folder raises it as a :class:`functok.TokenizerFileError` of ``tokenizer_config.json``."""

    def __init__(self, where: str, problem: str) -> None:
        self.where, self.problem = where, problem
        super().__init__(f"added_tokens_decoder: {where}: {problem}")

    def __reduce__(self):
        return (AddedTokenMismatch, (self.where, self.problem))


class FunctokConfig(PreTrainedConfig):
    """The config class :func:`register` files :class:`FunctokTokenizer` under
    (``AutoTokenizer.register`` takes one). It is no model's config: ``AutoTokenizer`` finds the
    tokenizer by the ``tokenizer_class`` of ``tokenizer_config.json``, whatever the model."""

    model_type = "functok"


class FunctokTokenizer(PreTrainedTokenizer):
    """A :class:`functok.Tokenizer` with the ``transformers`` tokenizer API.

    Build it from a tokenizer (``FunctokTokenizer(functok_tokenizer=tok)``) or from the file of
    one (``FunctokTokenizer("tokenizer.json")``); reload a saved folder with ``from_pretrained``.

    **Ids.** Ids below ``vocab_size`` are the functok tokenizer's own; decoding gives the text back
    exactly (the codec's normalization of it, NFC by default). ``len(self)`` also counts the added
    special tokens.

    **Special tokens.** Each of bos, eos, unk and pad is, in this order: the token passed in
    (``bos_token=...``); else a special token of the functok tokenizer whose text names the role
    (``<s>``, ``</s>``, ``<|endoftext|>``, ``<pad>``, ``<unk>``... see ``ROLE_NAMES``; ``None``
    passed in means none); else a new
    token (``<|bos|>``, ``<|eos|>``, ``<|unk|>``, ``<|pad|>``) added *after* the vocabulary, at ids
    ``vocab_size``, ``vocab_size + 1``... in the order bos, eos, unk, pad. The functok tokenizer
    never needs unk (a character it lacks is written in byte-fallback tokens); ``transformers``
    uses it for a token string it does not know. Every special token of the functok tokenizer is
    a special token here too. ``special_tokens_pattern`` says which ones ``add_special_tokens``
    puts around a sequence: ``"none"`` (the default, so that decode(encode(text)) is the text),
    ``"bos"``, ``"eos"`` or ``"bos_eos"``.

    **Overridden for the Python backend** (transformers 5 has no offsets path there): the encoding
    of a text (``_encode_plus``: functok encodes the text between added tokens, so that
    normalization and pre-tokens are functok's, and ``return_offsets_mapping=True`` gives the
    offsets of :attr:`functok.Encoding.offsets`, ``(0, 0)`` for added special and pad tokens, and
    survives truncation and padding on either side; the ``BatchEncoding`` has ``word_ids()``,
    ``char_to_token()``... from them: :mod:`.alignment`), ``_pad``
    (pads the offsets) and ``_decode``
    (:meth:`functok.Tokenizer.decode` between added tokens; ``errors="replace"`` by default, so a
    malformed stream a model wrote decodes leniently; pass ``errors="strict"`` to raise).

    **Spaces put before text** (``add_prefix_space``), exactly as GPT-2's tokenizer (its
    ``ByteLevel`` pre-tokenizer) with the same setting. False (the default, and GPT-2's): texts
    are encoded as they are, so that decode(encode(text)) is the text; words given split
    (``is_split_into_words=True``) are encoded one after the other as they are, no token spanning
    two. True: every stretch of text between added tokens (of a text, of each text of a pair, of
    each word given split) that is not empty and does not start with a space is encoded after
    one, and decodes with it; offsets stay in the caller's text (the space spans the first
    character). Token classification wants True, as with GPT-2's and RoBERTa's tokenizers.
    """

    vocab_files_names = {"functok_file": FUNCTOK_FILE}
    model_input_names = ["input_ids", "attention_mask"]

    def __init__(self, functok_file: str | os.PathLike | None = None, *,
                 functok_tokenizer: Tokenizer | None = None, special_tokens_pattern: str = "none",
                 clean_up_tokenization_spaces: bool = False, add_prefix_space: bool = False,
                 **kwargs: Any) -> None:
        if isinstance(functok_file, Tokenizer) and functok_tokenizer is None:  # passed by position
            functok_file, functok_tokenizer = None, functok_file
        if (functok_file is None) == (functok_tokenizer is None):
            raise ValueError("pass a functok tokenizer file or functok_tokenizer=, exactly one of them")
        self.functok = functok_tokenizer if functok_tokenizer is not None else Tokenizer.from_file(functok_file)
        self.add_prefix_space = bool(add_prefix_space)
        self._functok_specials = dict(self.functok.special_tokens)
        self._check_added_tokens(kwargs.get("added_tokens_decoder") or {})
        for role in ADDED_NAMES:
            if role not in kwargs:  # an explicit None means no such token
                kwargs[role] = self._default_token(role)
        kwargs.setdefault("auto_map", {"AutoTokenizer": [f"{SHIM_MODULE}.FunctokTokenizer", None]})
        super().__init__(special_tokens_pattern=special_tokens_pattern,
                         clean_up_tokenization_spaces=clean_up_tokenization_spaces, **kwargs)
        self._auto_map = self.init_kwargs["auto_map"]
        # Saved, and reloaded. Every argument is in init_kwargs, as transformers' own tests ask:
        # the tokenizer object as None (save_pretrained writes its file, which is functok_file).
        self.init_kwargs.update(special_tokens_pattern=special_tokens_pattern, add_prefix_space=self.add_prefix_space,
                                functok_file=None if functok_file is None else os.fspath(functok_file),
                                functok_tokenizer=None)
        # The functok tokenizer's other special tokens are special here too: cut out of text,
        # skipped by skip_special_tokens.
        self._add_tokens(sorted(set(self._functok_specials) - set(self.all_special_tokens),
                                key=self._functok_specials.get), special_tokens=True)

    @classmethod
    def _from_pretrained(cls, resolved_vocab_files, *args, **kwargs):
        """The backend's loading, and an added token that contradicts the functok file named as
        an error of ``tokenizer_config.json``."""
        config_file = resolved_vocab_files.get("tokenizer_config_file")
        try:
            return super()._from_pretrained(resolved_vocab_files, *args, **kwargs)
        except AddedTokenMismatch as error:
            raise TokenizerFileError(str(config_file), error.where, error.problem) from None

    def _check_added_tokens(self, added: dict) -> None:
        """Refuse an added token (of a saved ``added_tokens_decoder``) whose id is a functok
        token's with another text, or whose text is a functok token's with another id: its
        ids would decode as another text (a pad that skip_special_tokens leaves in)."""
        for id, token in added.items():
            text = str(token)
            where = f"$.added_tokens_decoder[{json.dumps(str(id))}]"
            own_text, own_id = self.functok.id_to_token(int(id)), self.functok.token_to_id(text)
            if int(id) < 0:
                raise AddedTokenMismatch(where, f"expected an id of at least 0, got {id}")
            if own_text is not None and own_text != text:
                raise AddedTokenMismatch(where, f"expected {own_text!r}, the functok token with this id, "
                                                f"got {text!r}")
            if own_id is not None and own_id != int(id):
                raise AddedTokenMismatch(where, f"expected the id {own_id} of the functok token {text!r}")

    @classmethod
    def register_for_auto_class(cls, auto_class: str = "AutoTokenizer") -> None:
        """Nothing to do: transformers calls this after loading the class as remote code, so
        that the next ``save_pretrained`` copies the class's module into the folder. functok's
        module is installed, not copied: each save writes the one-line shim (``save_vocabulary``)
        that ``auto_map`` names, and this module registered the class on import."""
        if auto_class != "AutoTokenizer":
            raise ValueError(f"FunctokTokenizer registers with AutoTokenizer, not {auto_class}")

    def _breaks_stream(self, id: int) -> bool:
        """Is ``id`` an added token outside the functok vocabulary? Such a token ends the stream."""
        return id in self._added_tokens_decoder and self.functok.id_to_token(id) is None

    def _default_token(self, role: str) -> str:
        for name in ROLE_NAMES[role]:
            if name in self._functok_specials:
                return name
        return ADDED_NAMES[role]

    # -- the vocabulary -------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        """The functok tokenizer's tokens (``len(self)`` adds the added tokens)."""
        return self.functok.vocab_size

    def get_vocab(self) -> dict[str, int]:
        vocab = self.functok.get_vocab()
        vocab.update(self._added_tokens_encoder)
        return vocab

    def _tokenize(self, text: str, **kwargs: Any) -> list[str]:
        # Added tokens are already cut out of `text`: a special token's text left in it is text.
        return self.functok.encode(self._spaced(text), disallowed_special=()).tokens

    def _convert_token_to_id(self, token: str) -> int:
        id = self.functok.token_to_id(token)
        return self.unk_token_id if id is None else id

    def _convert_id_to_token(self, index: int) -> str:
        token = self.functok.id_to_token(index)
        return self.unk_token if token is None else token

    def convert_tokens_to_string(self, tokens: list[str]) -> str:
        return self._decode(self.convert_tokens_to_ids(tokens))

    def save_vocabulary(self, save_directory: str, filename_prefix: str | None = None) -> tuple[str, ...]:
        """The functok tokenizer file, and the one-line module ``auto_map`` names."""
        folder = Path(save_directory)
        path = folder / ((f"{filename_prefix}-" if filename_prefix else "") + FUNCTOK_FILE)
        self.functok.save(path)
        shim = folder / f"{SHIM_MODULE}.py"
        shim.write_text("# Written by functok's FunctokTokenizer.save_pretrained: AutoTokenizer's auto_map\n"
                        "# loads the class from here with trust_remote_code=True (pip install 'functok[hf]').\n"
                        "from functok.integrations.transformers import FunctokTokenizer  # noqa: F401\n",
                        encoding="utf-8")
        return (str(path), str(shim))

    # -- encoding -------------------------------------------------------------------------

    def ids_and_offsets(self, text: str, *, split_special_tokens: bool = False,
                        offsets: bool = True) -> tuple[list[int], list[tuple[int, int]] | None]:
        """The ids of ``text`` and the span of the text each comes from (None with
        ``offsets=False``, which saves their cost): functok encodes each stretch between added
        tokens (all of it with ``split_special_tokens=True``)."""
        encoded = self._encoded_text(text, split_special_tokens)
        return encoded.ids, encoded.offsets if offsets else None

    def _spaced(self, stretch: str) -> str:
        """A stretch of text between added tokens as it is encoded: with ``add_prefix_space``, a
        space before it unless it is empty or starts with one (what the ``ByteLevel``
        pre-tokenizer of GPT-2's tokenizer does to each stretch)."""
        return " " + stretch if self.add_prefix_space and stretch and not stretch.startswith(" ") else stretch

    def _parts(self, text: str, split_special_tokens: bool) -> list[tuple[str, int | None]]:
        """``text`` cut at the added tokens: each part, and its id if it is one."""
        if split_special_tokens:
            return [(text, None)] if text else []
        return [(part, self._added_tokens_encoder.get(part)) for part in self.tokens_trie.split(text) if part]

    def _stretch(self, stretch: str) -> Stretch:
        """The ids and offsets of a stretch of text (offsets in ``stretch``: a space put before
        it spans its first character, as in a ``tokenizers`` encoding)."""
        spaced = self._spaced(stretch)
        encoding = self.functok.encode(spaced, disallowed_special=())
        if len(spaced) == len(stretch):
            return Stretch(encoding.ids, encoding.offsets)
        return Stretch(encoding.ids, [(max(a - 1, 0), max(b - 1, 1)) for a, b in encoding.offsets])

    def _encoded_text(self, text: str, split_special_tokens: bool) -> EncodedText:
        """A text's ids (functok's for each stretch between added tokens) and their offsets in it."""
        if not isinstance(text, str):
            raise TypeError(f"expected str, not {type(text).__name__}")
        runs = []
        start = 0
        for part, added in self._parts(text, split_special_tokens):
            runs.append((start, start + len(part), added if added is not None else self._stretch(part)))
            start += len(part)
        return EncodedText(self.functok, text, runs)

    def _encoded_words(self, words: Sequence[str], split_special_tokens: bool) -> EncodedText:
        """Words given already split, as GPT-2's tokenizer takes them: each stretch of each word
        (between added tokens) is encoded on its own, after a space with ``add_prefix_space``
        (unless it starts with one), so that no token spans two words. The text of the ids is
        the words so spaced, one after the other; offsets count in it; the caller's words are
        the words of the alignment, each with the space put before it."""
        runs, spans, pieces = [], [], []
        at = 0
        for word in words:
            owned, first = at, None  # where the word's stretch starts (a space put before it), its first character
            for part, added in self._parts(word, split_special_tokens):
                text = part if added is not None else self._spaced(part)
                what = added if added is not None else self.functok.encode(text, disallowed_special=())
                if first is None:
                    first = at + len(text) - len(part)
                runs.append((at, at + len(text), what))
                pieces.append(text)
                at += len(text)
            spans.append((owned, at if first is None else first, at))
        return EncodedText(self.functok, "".join(pieces), runs, spans)

    def _encode_plus(self, text, text_pair=None, add_special_tokens: bool = True,
                     padding_strategy: PaddingStrategy = PaddingStrategy.DO_NOT_PAD,
                     truncation_strategy: TruncationStrategy = TruncationStrategy.DO_NOT_TRUNCATE,
                     max_length: int | None = None, stride: int = 0, is_split_into_words: bool = False,
                     pad_to_multiple_of: int | None = None, padding_side: str | None = None,
                     return_tensors=None, return_token_type_ids: bool | None = None,
                     return_attention_mask: bool | None = None, return_overflowing_tokens: bool = False,
                     return_special_tokens_mask: bool = False, return_offsets_mapping: bool = False,
                     return_length: bool = False, verbose: bool = True, **kwargs: Any) -> BatchEncoding:
        """One text, or words given split (or a pair of them), here; a batch goes to the Python
        backend, which calls this for each row, and so do ids and a sanitized chat."""
        split_special_tokens = kwargs.pop("split_special_tokens", self.split_special_tokens)
        rows = kwargs.pop("_functok_rows", None)  # a batch's rows, collected for their alignment
        options = dict(add_special_tokens=add_special_tokens, padding_strategy=padding_strategy,
                       truncation_strategy=truncation_strategy, max_length=max_length, stride=stride,
                       pad_to_multiple_of=pad_to_multiple_of, padding_side=padding_side,
                       return_tensors=return_tensors, return_token_type_ids=return_token_type_ids,
                       return_attention_mask=return_attention_mask,
                       return_overflowing_tokens=return_overflowing_tokens,
                       return_special_tokens_mask=return_special_tokens_mask, return_length=return_length,
                       verbose=verbose)
        backend = dict(is_split_into_words=is_split_into_words, return_offsets_mapping=return_offsets_mapping,
                       split_special_tokens=split_special_tokens, **options, **kwargs)
        if _is_batch(text, is_split_into_words):
            return self._encode_batch(text, text_pair, backend)
        first, second = (None if t is None else self._source(t, is_split_into_words, split_special_tokens, kwargs)
                         for t in (text, text_pair))
        if first is None or (text_pair is not None and second is None):  # ids, or a sanitized chat
            if return_offsets_mapping:
                raise NotImplementedError("return_offsets_mapping needs text (str) or words, not ids "
                                          "(nor a chat with sanitize_control_tokens=True)")
            return super()._encode_plus(text, text_pair, **backend)
        encoded = self._prepare_with_offsets(first, second, return_offsets_mapping, options)
        if rows is not None:
            rows.append(encoded.encodings[0])
        return encoded

    def _source(self, text, is_split_into_words: bool, split_special_tokens: bool, kwargs: dict):
        """The :class:`EncodedText` of a text or of words, or None for what the backend encodes."""
        if kwargs.get("sanitize_control_tokens"):
            return None
        if isinstance(text, str):  # a one-word row of a batch comes as its word (the backend's unwrapping)
            return self._encoded_words([text], split_special_tokens) if is_split_into_words else \
                self._encoded_text(text, split_special_tokens)
        if is_split_into_words and isinstance(text, (list, tuple)) and all(isinstance(w, str) for w in text):
            return self._encoded_words(text, split_special_tokens)
        return None

    def _encode_batch(self, text, text_pair, backend: dict) -> BatchEncoding:
        """The backend's batch, and the alignment of its rows, padded as they were."""
        rows: list[FunctokEncoding] = []
        batch = super()._encode_plus(text, text_pair, _functok_rows=rows, **backend)
        ids = batch["input_ids"]
        if len(rows) != len(text) or len(ids) != len(rows):  # some rows were ids: no alignment
            return batch
        side = backend["padding_side"] or self.padding_side
        encodings = [row.padded(list(map(int, padded)), side) for row, padded in zip(rows, ids)]
        return BatchEncoding(batch.data, encoding=encodings, n_sequences=encodings[0].n_sequences if encodings else None)

    def _prepare_with_offsets(self, first: EncodedText, second: EncodedText | None, return_offsets_mapping: bool,
                              options: dict) -> BatchEncoding:
        """``prepare_for_model`` (special tokens, truncation, padding) with each id's origin
        carried along: it is run on markers (-1, -2, ...: negative, so never a token id) in
        place of the ids, so that whatever it keeps, drops or adds, each kept marker names the
        id it stands for (its text, offsets and word), and every other id was added (offsets
        ``(0, 0)``, no word)."""
        texts = [first] if second is None else [first, second]
        ids = [i for t in texts for i in t.ids]
        markers = [-1 - k for k in range(len(ids))]
        n = len(first.ids)
        prepared = self.prepare_for_model(
            markers[:n], pair_ids=markers[n:] if second is not None else None,
            add_special_tokens=options["add_special_tokens"], padding=PaddingStrategy.DO_NOT_PAD.value,
            truncation=options["truncation_strategy"].value, max_length=options["max_length"],
            stride=options["stride"],
            return_token_type_ids=options["return_token_type_ids"], return_attention_mask=False,
            return_overflowing_tokens=options["return_overflowing_tokens"],
            return_special_tokens_mask=options["return_special_tokens_mask"], verbose=options["verbose"])
        encoded = dict(prepared)
        sequence = encoded["input_ids"]
        encoded["input_ids"] = [ids[-1 - m] if m < 0 else m for m in sequence]
        layout = [None if m >= 0 else (0, -1 - m) if -1 - m < n else (1, -1 - m - n) for m in sequence]
        if options["return_tensors"]:  # as the backend: no tensor of overflowing tokens (nor of their count)
            encoded.pop("overflowing_tokens", None)
            encoded.pop("num_truncated_tokens", None)
        if "overflowing_tokens" in encoded:
            encoded["overflowing_tokens"] = [ids[-1 - m] if m < 0 else m for m in encoded["overflowing_tokens"]]
        if return_offsets_mapping:
            offsets = [t.offsets for t in texts]
            encoded["offset_mapping"] = [(0, 0) if p is None else offsets[p[0]][p[1]] for p in layout]
        unpadded = encoded["input_ids"]
        strategy, mask = options["padding_strategy"], options["return_attention_mask"]
        if mask is None:  # as prepare_for_model: a mask, empty for an empty text, if the model takes one
            mask = "attention_mask" in self.model_input_names
        if strategy != PaddingStrategy.DO_NOT_PAD or mask:
            encoded = self.pad(encoded, padding=strategy.value, max_length=options["max_length"],
                               pad_to_multiple_of=options["pad_to_multiple_of"],
                               padding_side=options["padding_side"], return_attention_mask=mask)
        if options["return_length"]:
            encoded["length"] = len(encoded["input_ids"])
        row = FunctokEncoding(unpadded, layout, texts, self.convert_ids_to_tokens)
        row = row.padded(list(encoded["input_ids"]), options["padding_side"] or self.padding_side)
        return BatchEncoding(dict(encoded), encoding=[row], tensor_type=options["return_tensors"],
                             prepend_batch_axis=True)

    def _pad(self, encoded_inputs, max_length=None, padding_strategy=PaddingStrategy.DO_NOT_PAD,
             pad_to_multiple_of=None, padding_side=None, return_attention_mask=None) -> dict:
        """The backend's padding, and ``(0, 0)`` offsets for the pad tokens."""
        offsets = encoded_inputs.pop("offset_mapping", None) if isinstance(encoded_inputs, dict) else None
        padded = super()._pad(encoded_inputs, max_length=max_length, padding_strategy=padding_strategy,
                              pad_to_multiple_of=pad_to_multiple_of, padding_side=padding_side,
                              return_attention_mask=return_attention_mask)
        if offsets is not None:
            fill = [(0, 0)] * (len(padded[self.model_input_names[0]]) - len(offsets))
            side = padding_side or self.padding_side
            padded["offset_mapping"] = fill + list(offsets) if side == "left" else list(offsets) + fill
        return padded

    # -- decoding -------------------------------------------------------------------------

    def _decode(self, token_ids: int | Sequence[int], skip_special_tokens: bool = False,
                clean_up_tokenization_spaces: bool | None = None, errors: str = "replace",
                **kwargs: Any) -> str:
        """:meth:`functok.Tokenizer.decode` of the ids between added tokens (which end a stretch
        of the stream, as functok's own special tokens do), and each added token's text unless it
        is special and ``skip_special_tokens`` is true."""
        ids = [token_ids] if isinstance(token_ids, int) else list(map(int, token_ids))
        out: list[str] = []
        start = 0  # of the run of ids functok decodes next
        for index in [k for k, id in enumerate(ids) if self._breaks_stream(id)] + [len(ids)]:
            try:
                out.append(self.functok.decode(ids[start:index], errors=errors,
                                               skip_special_tokens=skip_special_tokens))
            except _ID_ERRORS as error:
                raise _counted_from(error, start) from None
            start = index + 1
            token = self._added_tokens_decoder.get(ids[index]) if index < len(ids) else None
            if token is not None and not (skip_special_tokens and token.special):
                out.append(token.content)
        text = "".join(out)
        if clean_up_tokenization_spaces is None:
            clean_up_tokenization_spaces = self.clean_up_tokenization_spaces
        return self.clean_up_tokenization(text) if clean_up_tokenization_spaces else text

    def decode_stream(self, *, skip_special_tokens: bool = False, errors: str = "replace") -> FunctokDecodeStream:
        """A :class:`FunctokDecodeStream`: the text of ids as they arrive (generation)."""
        return FunctokDecodeStream(self, skip_special_tokens=skip_special_tokens, errors=errors)


def _is_batch(text, is_split_into_words: bool) -> bool:
    """Is this a batch (the Python backend's test), each row of which comes back to ``_encode_plus``?"""
    if not isinstance(text, (list, tuple)):
        return False
    if not text:
        return not is_split_into_words
    return isinstance(text[0], (list, tuple)) or (not is_split_into_words and isinstance(text[0], str))


def register() -> None:
    """Register :class:`FunctokTokenizer` with ``AutoTokenizer`` (done on import; idempotent), so
    that ``AutoTokenizer.from_pretrained(folder)`` loads a saved folder whose
    ``tokenizer_config.json`` names it, whatever the model's config."""
    AutoTokenizer.register(FunctokConfig, tokenizer_class=FunctokTokenizer, exist_ok=True)


register()
