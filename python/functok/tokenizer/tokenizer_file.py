"""The functok tokenizer file (spec 14.1 to 14.3): ``{"functok": header, "tokenizer": tokenizer.json}``.

The header says how the codec makes the pre-tokens (``splitter``, ``normalize``,
``split_operators``, since spec 1.1.0 ``profile`` (absent means ``"paper"``), and since 1.2.0
``fuse`` (absent means what ``split_operators`` says)) and which
versions wrote it (``format_version`` of this file, ``spec_version`` of the format); the ``tokenizer`` part is a Hugging Face BPE ``tokenizer.json``
with byte fallback and all 256 byte tokens. A file this functok cannot read is refused with a
:class:`TokenizerFileError` that names the file and the JSON path, saying why.

>>> check_header({"format_version": 1, "spec_version": "1.0.0", "splitter": "llama3",
...               "normalize": "nfc", "split_operators": True})["splitter"]
'llama3'
>>> check_header({"format_version": 2}, "t.json")
Traceback (most recent call last):
...
functok.tokenizer.errors.TokenizerFileError: t.json: $.functok.format_version: functok tokenizer file format version 2 is not supported: expected 1, the version this functok reads
"""

from __future__ import annotations

import json
from typing import Any

from ..encoding import DEFAULT_PROFILE, PROFILES
from ..pretokenize import FUSE_MODES, fuse_mode
from ..splitting import SPLITTERS
from ..versions import covers
from .bpe import BYTE_TOKENS, byte_fallback_token, merge_pair
from .errors import TokenizerFileError
from .bpe_model import BPEModel, check_bpe
from .json_checks import Checker, as_int, describe, field

__all__ = ["ALPHABET", "FORMAT_VERSION", "check_functok_model", "check_header", "file_parts", "file_text",
           "fuse_of", "spec_version", "with_byte_tokens"]

FORMAT_VERSION = 1  # of the tokenizer file; the loader refuses any other
ALPHABET = "characters+byte-fallback"

# Fields of tokenizer.json that would make the `tokenizers` fast path give other ids than
# functok's own BPE: functok makes the pre-tokens, and its BPE has no dropout, unknown token,
# subword prefix or suffix.
_NULL_FIELDS = ("normalizer", "pre_tokenizer", "post_processor", "decoder", "truncation", "padding")
_NULL_MODEL_FIELDS = ("dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix")


def spec_version() -> str:
    """The format version this functok implements (:data:`functok.SPEC_VERSION`)."""
    from .. import SPEC_VERSION  # at call time: functok/__init__ imports this package

    return SPEC_VERSION


def check_header(header: Any, file: str = "<dict>") -> dict:
    """Refuse a tokenizer file this functok cannot read, saying why (spec 11.2): every failure
    is a :class:`TokenizerFileError` naming ``file`` and the header's JSON path. Returns the
    header (``alphabet`` may be missing: it has one value)."""
    c = Checker(file)
    at = "$.functok"
    if not isinstance(header, dict):
        c.fail(at, f"not a functok tokenizer file: expected the header object, got {describe(header)}")
    version = header.get("format_version")
    if as_int(version) != FORMAT_VERSION:  # spec 14.1: 1, 1.0 and 1e0 alike; true is no number
        c.fail(field(at, "format_version"), f"functok tokenizer file format version {json.dumps(version)} "
                                            f"is not supported: expected {FORMAT_VERSION}, the version "
                                            f"this functok reads")
    _check_spec_version(c, header.get("spec_version"), field(at, "spec_version"))
    c.get(header, at, "splitter", f"one of {SPLITTERS} (unknown splitter)", lambda v: v in SPLITTERS)
    c.get(header, at, "normalize", '"nfc" or null (unknown normalization)', lambda v: v in ("nfc", None))
    split = c.get(header, at, "split_operators", "true or false", lambda v: isinstance(v, bool))
    _check_fuse(c, header, at, split)
    # Spec 11.2: a file without a profile (every 1.0 file) is "paper"; an unknown one is refused.
    c.get(header, at, "profile", f"one of {tuple(PROFILES)} (unknown profile)",
          lambda v: isinstance(v, str) and v in PROFILES, default=DEFAULT_PROFILE)
    c.get(header, at, "alphabet", f"{ALPHABET!r} (unknown alphabet)", lambda v: v == ALPHABET, default=ALPHABET)
    return header


def _check_fuse(c: Checker, header: dict, at: str, split_operators: bool) -> None:
    """Spec 14.2: ``fuse`` (since 1.2.0) names the pre-token rule; a file without it (every
    older file) has the rule its ``split_operators`` names, and a file with both must agree."""
    fuse = c.get(header, at, "fuse", f"one of {FUSE_MODES} (unknown fuse mode)",
                 lambda v: isinstance(v, str) and v in FUSE_MODES, default=None)
    if fuse is not None and (fuse != "all") != split_operators:
        c.fail(field(at, "fuse"), f"fuse {fuse!r} contradicts split_operators {json.dumps(split_operators)}: "
                                  f"expected split_operators false for \"all\" and true otherwise")


def fuse_of(header: dict) -> str:
    """The pre-token rule a checked header records (spec 9, 14.2)."""
    return header.get("fuse") or fuse_mode(None, header["split_operators"])


def _check_spec_version(c: Checker, theirs: Any, where: str) -> None:
    ours = spec_version()
    # Same MAJOR, and no newer MINOR: a newer minor may assign code points we do not know.
    if not covers(ours, theirs):
        shown = theirs if isinstance(theirs, str) and len(theirs) < 40 else describe(theirs)
        c.fail(where, f"tokenizer was saved for format spec_version {shown}; this functok implements "
                      f"spec_version {ours}: expected {ours.split('.')[0]}.0.0 up to {ours}")


def check_functok_model(hf: Any, file: str) -> BPEModel:
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
    missing = sorted(BYTE_TOKENS - checked.vocab.keys())
    if missing:
        c.fail(field(at, "vocab"), f"the vocabulary lacks byte-fallback tokens, e.g. {missing[0]}: expected "
                                   f"all 256, <0x00> to <0xFF>, or ids would not be lossless")
    for k, token in enumerate(checked.special_tokens):
        if token in BYTE_TOKENS:  # its id would decode as the byte, not as the special token's text
            c.fail(f"{field(root, 'added_tokens')}[{k}]", f"expected a special token, got the byte token {token}")
    return checked


def file_parts(data: Any, source: str) -> tuple[dict, Any]:
    """The checked header and the (not yet checked) ``tokenizer`` part of a parsed file."""
    if not isinstance(data, dict) or "functok" not in data or "tokenizer" not in data:
        raise TokenizerFileError(source, "$", f"not a functok tokenizer file: expected an object with "
                                              f"the keys \"functok\" and \"tokenizer\", got {describe(data)}")
    return check_header(data["functok"], source), data["tokenizer"]


def file_text(header: dict, hf_json: dict, *, indent: int | None = None) -> str:
    """The tokenizer file's text."""
    # never NaN or Infinity, which are not JSON (spec 14.1): a ValueError instead
    return json.dumps({"functok": header, "tokenizer": hf_json}, ensure_ascii=False, indent=indent, allow_nan=False)


def with_byte_tokens(trained: dict, special_tokens: list[str]) -> dict:
    """A trained ``tokenizer.json`` (a dict) as a functok tokenizer stores it: byte fallback on,
    the 256 byte-fallback tokens after the special tokens, no pipeline of its own."""
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
            merges=[list(merge_pair(m)) for m in model["merges"]],
        ),
    }
