"""The conformance ops, one plain function each: what functok answers for a vector's op.

Every op takes the vector's ``input`` and ``options`` and returns its ``output``
(conformance/PROTOCOL.md); an option left out has the default the schemas give, which is
functok's own default. Two callers share these functions, so that CPython and Pyodide answer
the same way: the protocol handler (:func:`functok.conformance.handle`, through :data:`OPS`)
and the Pyodide bridge (``wasm/functok_bridge.py``), which passes its request as ``options``.

A piece is written as JSON once, by :func:`piece_to_json`, in the bridge's full shape; the
``pieces`` op answers the vectors' shape, which writes each instruction as its label only.

>>> OPS["encode"]("Héllo", {})
'\\ue102\\ue001\\ue100\\ue000hello'
>>> pieces("Hello", {})[0]["instructions"]
['CAPITALIZE(0)']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..decoding import DEFAULT_MAX_OUTPUT
from ..encoding import Piece
from ..encoding import pieces as _pieces
from ..engine import decode as _decode
from ..engine import encode as _encode
from ..engine import pretokens as _pretokens
from ..splitting import split as _split

__all__ = ["OPS", "IdError", "codec_options", "decode", "detokenize", "encode", "piece_to_json", "pieces",
           "pretokens", "segment", "split", "tokenize"]


def codec_options(options: Mapping) -> dict[str, Any]:
    """The encoder's keyword options from a vector's (or the bridge's) ``options``.

    ``normalize: null`` turns NFC off; a missing option keeps the default. ``profile`` (default
    ``"paper"``), and ``fold`` and ``case`` when given, choose the encoder (spec 6.6, protocol
    1.1.0); a missing or null ``fold`` or ``case`` is the profile's.
    """
    return {"normalize": options.get("normalize", "nfc"), "splitter": options.get("splitter", "llama3"),
            "profile": options.get("profile", "paper"), "fold": options.get("fold"),
            "case": options.get("case")}


def encode(text: str, options: Mapping) -> str:
    """The ``encode`` op (spec 6): the stream of ``text``."""
    return _encode(text, **codec_options(options))


def decode(stream: str, options: Mapping) -> str:
    """The ``decode`` op (spec 7, 8): the text of ``stream``; a malformed one raises FormatError."""
    return _decode(stream, errors=options.get("errors", "strict"),
                   max_output=options.get("max_output", DEFAULT_MAX_OUTPUT))


def piece_to_json(piece: Piece) -> dict[str, Any]:
    """A Piece as a plain object; each instruction has its ``name``, ``args`` and ``label``,
    the readable form (e.g. ``ACUTE(1)``)."""
    return {
        "text": piece.text,
        "start": piece.start,
        "end": piece.end,
        "instructions": [
            {"name": ins.name, "args": list(ins.args), "label": str(ins)} for ins in piece.instructions
        ],
        "base": piece.base,
        "encoded": piece.encoded,
        "slot_starts": list(piece.slot_starts),
    }


def pieces(text: str, options: Mapping) -> list[dict[str, Any]]:
    """The ``pieces`` op: each piece as :func:`piece_to_json` writes it, with each instruction
    as its label only (the shape of the vectors)."""
    out = []
    for piece in _pieces(text, **codec_options(options)):
        data = piece_to_json(piece)
        data["instructions"] = [ins["label"] for ins in data["instructions"]]
        out.append(data)
    return out


def pretokens(text: str, options: Mapping) -> list[str]:
    """The ``pretokens`` op (spec 9): the pieces' encodings, cut for the tokenizer."""
    return _pretokens(text, **codec_options(options), split_operators=options.get("split_operators", True),
                      fuse=options.get("fuse"))


def split(text: str, options: Mapping) -> list[str]:
    """The ``split`` op (spec 5): the splitter's pieces of ``text``, with no normalization."""
    return _split(text, splitter=options.get("splitter", "llama3"))


def segment(pretoken: str, options: Mapping) -> list[str]:
    """The ``segment`` op (spec 10): the tokens of an optimal segmentation of one pre-token.

    ``options``: ``tokens`` (the vocabulary; id = index), ``merges`` (pairs, for greedy BPE
    and reachability), ``special_tokens``, ``byte_fallback`` (adds ``<0x00>``..``<0xFF>``),
    ``tie_break`` and ``reachable_only``. The vocabulary goes through the same loader as a
    Hugging Face ``tokenizer.json``.

    >>> segment("abc", {"tokens": ["a", "b", "c", "ab", "abc"], "merges": [["a", "b"]]})
    ['abc']
    """
    # Imported here: the codec's ops do not need the tokenizer.
    from ..tokenizer.bpe import byte_fallback_token
    from ..tokenizer.external import load_hf

    tokens = list(options["tokens"])
    if options.get("byte_fallback"):
        tokens += [byte_fallback_token(b) for b in range(256) if byte_fallback_token(b) not in tokens]
    vocab = {t: i for i, t in enumerate(tokens)}
    special = [{"content": t, "id": vocab[t]} for t in options.get("special_tokens", ())]
    model = {
        "type": "BPE",
        "vocab": vocab,
        "merges": [list(m) for m in options.get("merges", ())],
        "byte_fallback": bool(options.get("byte_fallback")),
    }
    vocabulary = load_hf({"model": model, "added_tokens": special})
    ids = vocabulary.ids(
        pretoken,
        segmentation="optimal",
        tie_break=options.get("tie_break", "leftmost-longest"),
        reachable_only=bool(options.get("reachable_only")),
    )
    return [tokens[i] for i in ids]


class IdError(Exception):
    """A ``detokenize`` failure as the protocol reports it: a ``kind`` (a format error's, or
    ``unknown-id`` / ``invalid-bytes``, spec 14.7) and an ``offset`` that is the id index."""

    def __init__(self, kind: str, offset: int) -> None:
        super().__init__(f"{kind} at id index {offset}")
        self.kind = kind
        self.offset = offset


def _tokenizer(options: Mapping):
    """The vector's inline tokenizer file (spec 14), loaded as ``Tokenizer.from_file`` would."""
    from ..tokenizer import Tokenizer  # the codec's ops do not need the tokenizer

    return Tokenizer.from_data(options["tokenizer"], "<vector tokenizer>")


def _special(value: Any, default: Any) -> Any:
    """``allowed_special`` / ``disallowed_special``: ``"all"`` or a list of special tokens."""
    if value is None:
        return default
    return value if value == "all" else frozenset(value)


def tokenize(text: str, options: Mapping) -> list[int]:
    """The ``tokenize`` op (spec 14.4): the ids of ``text`` under the inline tokenizer.

    ``options``: ``tokenizer`` (the file), ``segmentation``, ``tie_break``, ``reachable_only``,
    ``allowed_special`` and ``disallowed_special`` (each ``"all"`` or a list)."""
    encoding = _tokenizer(options).encode(
        text,
        segmentation=options.get("segmentation", "greedy"),
        tie_break=options.get("tie_break", "leftmost-longest"),
        reachable_only=bool(options.get("reachable_only")),
        allowed_special=_special(options.get("allowed_special"), frozenset()),
        disallowed_special=_special(options.get("disallowed_special"), "all"),
    )
    return list(encoding.ids)


def detokenize(ids: list[int], options: Mapping) -> str:
    """The ``detokenize`` op (spec 14.6): the text of ``ids``; a failure is an :class:`IdError`
    whose offset is the index of the id at fault."""
    from ..tokenizer import ByteFallbackError, TokenFormatError, UnknownTokenIdError

    tokenizer = _tokenizer(options)
    try:
        return tokenizer.decode(ids, errors=options.get("errors", "strict"),
                                skip_special_tokens=bool(options.get("skip_special_tokens")),
                                max_output=options.get("max_output", DEFAULT_MAX_OUTPUT))
    except TokenFormatError as e:
        raise IdError(e.kind, e.id_index) from None
    except UnknownTokenIdError as e:
        raise IdError("unknown-id", e.id_index) from None
    except ByteFallbackError as e:
        raise IdError("invalid-bytes", e.id_index) from None


# Every op of the protocol, in the order the handshake lists them.
OPS: dict[str, Callable[[str, Mapping], Any]] = {
    "encode": encode,
    "decode": decode,
    "pieces": pieces,
    "pretokens": pretokens,
    "split": split,
    "segment": segment,
    "tokenize": tokenize,
    "detokenize": detokenize,
}
