"""The functok tokenizer: the codec's pre-tokens, BPE ids, and lossless decoding.

A :class:`Tokenizer` is trained with Hugging Face ``tokenizers`` on the codec's pre-tokens
(:func:`functok.pretokens`), saved as one JSON file, and used with either segmentation:

* ``greedy``: BPE merges, identical ids with or without ``tokenizers`` installed
  (:mod:`functok.tokenizer.bpe` is the pure-Python path; the C core, where :mod:`functok.engine`
  runs it, is faster);
* ``optimal``: the fewest tokens per pre-token (:mod:`functok.tokenizer.segment`, spec 10).

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
>>> enc.tokens[:2]  # CAPITALIZE(0) fused with its base, and an unseen comma as its byte
['\\ue100\\ue000hello', '<0x2C>']
>>> [("Hello, wörld"[a:b]) for a, b in enc.offsets[:2]]
['Hello', ',']

The default ``fuse="frequent"`` learned ``CAPITALIZE(0)`` + ``hello`` as one token and keeps
``hello`` as the shared base of every other form; ``fuse="none"`` would give the three tokens
``CAPITALIZE(0)``, ``hello``, ``<0x2C>``.

The modules, in the order of the encode path and back (spec sections in brackets):
:mod:`.tokenizer` (:class:`Tokenizer`, the encode path step by step), :mod:`.special_tokens` (the
text cut at special tokens), :mod:`.codec_pretokenizer` (the codec's pre-tokens of each stretch
and their spans; 9, 4.4), :mod:`.vocabulary` (ids of
a pre-token, one cache; 10), :mod:`.bpe` (greedy BPE), :mod:`.segment` (optimal segmentation;
10), :mod:`.offsets` (:class:`Encoding`), :mod:`.decoding` (ids -> stream -> text; 14.6),
:mod:`.stream` (:class:`DecodeStream`), :mod:`.file_reader` (every read of a tokenizer's files:
bytes, UTF-8, JSON, tiktoken rank lines), :mod:`.tokenizer_file` (the functok tokenizer file, its
header and embedded ``tokenizer.json``; 14.1-14.3), :mod:`.bpe_model` (a ``tokenizer.json``'s BPE
model), :mod:`.json_checks` (checking parsed JSON, each fault named by its JSON path), :mod:`.errors`, :mod:`.train` (``Tokenizer.train``), :mod:`.memory` (what
training frees, handed back), :mod:`.fusion` (the fusion merges of ``fuse="frequent"``; 9.4), :mod:`.external`
(external vocabularies; 10.1) and :mod:`.tsr` (token saving rate; 10.4).
"""

from .bpe import byte_fallback_token as byte_fallback_token
from .errors import ByteFallbackError as ByteFallbackError
from .errors import TokenFormatError as TokenFormatError
from .errors import TokenizerFileError as TokenizerFileError
from .errors import UnknownTokenIdError as UnknownTokenIdError
from .tokenizer_file import FORMAT_VERSION as FORMAT_VERSION
from .tokenizer import Tokenizer as Tokenizer
from .offsets import Encoding as Encoding
from .stream import DecodeStream as DecodeStream

__all__ = ["FORMAT_VERSION", "ByteFallbackError", "DecodeStream", "Encoding", "TokenFormatError",
           "Tokenizer", "TokenizerFileError", "UnknownTokenIdError", "byte_fallback_token"]
