"""The Python half of wasm/functok.mjs: turns functok's answers into plain JSON for JavaScript.

functok.mjs loads this file into Pyodide next to the functok wheel and calls ``call(op, args)``
with a JSON string; the answer is a JSON string too.  JSON keeps the boundary simple: no
PyProxy objects leak into JavaScript, and the same function runs unchanged under CPython, which
is how the cross-runtime tests compare the two interpreters.

Answers are ``{"ok": value}`` or ``{"error": {"type", "message", "kind", "offset"}}``.  A
FormatError keeps its spec ``kind`` and code point ``offset`` so that JavaScript can rebuild it.

The codec's answers come from :mod:`functok.conformance.ops`, the functions that also answer
the conformance vectors, so that the two cannot drift apart; a request is their ``options``.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import functok
from functok.conformance import ops
from functok.normalize import nfc

# Tokenizers loaded through load_tokenizer(), by handle; JavaScript keeps only the number.
_TOKENIZERS: dict[int, Any] = {}


def _codec_options(args: dict[str, Any], *names: str) -> dict[str, Any]:
    """Keyword options from a request, passing on only those the caller set (functok keeps
    its own default for the others).

    JSON.stringify drops undefined members and keeps null ones, so ``normalize: null`` from
    JavaScript arrives as None (NFC off) while a missing option keeps functok's default.
    """
    return {name: args[name] for name in names if name in args}


# The full shape, instructions as {name, args, label}: what the web demo shows.
piece_to_json = ops.piece_to_json


def encode(args: dict[str, Any]) -> str:
    return ops.encode(args["text"], args)


def decode(args: dict[str, Any]) -> str:
    return ops.decode(args["stream"], args)


def pieces(args: dict[str, Any]) -> list[dict[str, Any]]:
    return [piece_to_json(piece) for piece in functok.pieces(args["text"], **ops.codec_options(args))]


def pretokens(args: dict[str, Any]) -> list[str]:
    return ops.pretokens(args["text"], args)


def split(args: dict[str, Any]) -> list[str]:
    return ops.split(args["text"], args)


def inspect(args: dict[str, Any]) -> dict[str, Any]:
    """Everything a reader wants to see about one text: pieces, stream and the round trip."""
    text = args["text"]
    stream = ops.encode(text, args)
    decoded = functok.decode(stream)
    normalized = text if ops.codec_options(args)["normalize"] is None else nfc(text)
    return {
        "stream": stream,
        "pieces": pieces(args),
        "pretokens": ops.pretokens(text, args),
        "decoded": decoded,
        "roundtrip": decoded == normalized,
    }


def load_tokenizer(args: dict[str, Any]) -> dict[str, Any]:
    """Loads the single JSON file that Tokenizer.save writes; answers a handle and its facts."""
    from functok.tokenizer import Tokenizer  # imported late: the codec alone does not need it

    tokenizer = Tokenizer.from_str(args["json"])
    handle = len(_TOKENIZERS) + 1
    _TOKENIZERS[handle] = tokenizer
    return {"handle": handle, "vocab_size": tokenizer.vocab_size}


def tokenizer_encode(args: dict[str, Any]) -> dict[str, Any]:
    tokenizer = _TOKENIZERS[args["handle"]]
    options = _codec_options(args, "segmentation", "tie_break")
    encoding = tokenizer.encode(args["text"], **options)
    return {
        "ids": list(encoding.ids),
        "tokens": list(encoding.tokens),
        "offsets": [list(pair) for pair in encoding.offsets],
    }


def tokenizer_decode(args: dict[str, Any]) -> str:
    tokenizer = _TOKENIZERS[args["handle"]]
    return tokenizer.decode(args["ids"], **_codec_options(args, "errors", "skip_special_tokens"))


def conformance(args: dict[str, Any]) -> dict[str, Any]:
    """Runs the vector files in a folder through the suite's own in-process runner."""
    # Imported late: only the tests need the runner.
    from functok.conformance import InProcessTransport, handle, load_suite, run_suite

    report = run_suite(load_suite(args["directory"]), InProcessTransport(handle))
    data = report.to_json()
    return {
        "summary_line": report.summary(),
        "counts": data["summary"],
        "spec_version": data["spec_version"],
        "suite_version": data["suite_version"],
        "implementation": data["implementation"],
        "not_passed": [result for result in data["results"] if result["status"] != "passed"],
    }


OPS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "encode": encode,
    "decode": decode,
    "pieces": pieces,
    "pretokens": pretokens,
    "split": split,
    "inspect": inspect,
    "load_tokenizer": load_tokenizer,
    "tokenizer_encode": tokenizer_encode,
    "tokenizer_decode": tokenizer_decode,
    "conformance": conformance,
}


def error_to_json(error: Exception) -> dict[str, Any]:
    return {
        "type": type(error).__name__,
        "message": str(error),
        "kind": getattr(error, "kind", None),
        "offset": getattr(error, "offset", None),
    }


# Text in, text out: encode and decode skip JSON on their hot path (see text_call).
TEXT_OPS: dict[str, Callable[..., str]] = {"encode": functok.encode, "decode": functok.decode}


def text_call(op: str, text: str, options: str) -> str | dict[str, Any]:
    """encode or decode with the text passed as it is: a str answer, or an error dict.

    JavaScript receives a str as a string and anything else as a proxy, which is how it tells
    the two apart without wrapping megabytes of stream in JSON.
    """
    try:
        return TEXT_OPS[op](text, **json.loads(options))
    except Exception as error:  # noqa: BLE001 - the JavaScript side rethrows it as an Error
        return error_to_json(error)


def call(op: str, request: str) -> str:
    """Runs one operation; every Python exception becomes an error answer, never a crash."""
    try:
        answer: dict[str, Any] = {"ok": OPS[op](json.loads(request))}
    except Exception as error:  # noqa: BLE001 - the JavaScript side rethrows it as an Error
        answer = {"error": error_to_json(error)}
    return json.dumps(answer, ensure_ascii=False)
