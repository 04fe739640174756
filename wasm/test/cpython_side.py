"""The CPython half of the cross-runtime tests.

Reads one JSON request on stdin and writes one JSON answer on stdout.  It calls functok through
the same functok_bridge.call() that Pyodide runs, so the only difference between the two sides
is the interpreter (CPython 3.11 with Unicode 14 here, Pyodide's 3.14 with Unicode 16 there).

Tasks:
  runtime          the interpreter's own Unicode data, to show that the two sides differ
  calls            answers of functok_bridge.call for a list of {op, args}
  digests          SHA-256 per document of the stream, the pieces, the token ids and the decoded text
  errors           strict error (kind, offset) and lenient output for each stream
  train_tokenizer  trains a small functok.Tokenizer and answers the JSON that save() writes
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import functok_bridge


def ask(op: str, **args: Any) -> Any:
    answer = json.loads(functok_bridge.call(op, json.dumps(args)))
    if "error" in answer:
        raise RuntimeError(f"{op} failed in CPython: {answer['error']}")
    return answer["ok"]


def digest(value: Any) -> str:
    """SHA-256 of compact JSON: the same bytes as JavaScript's JSON.stringify for these values."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def document_digests(text: str, options: dict[str, Any], handle: int | None) -> dict[str, str]:
    """Stream and pieces digests; with a tokenizer handle, the ids under both segmentations."""
    if handle is None:
        stream = ask("encode", text=text, **options)
        return {
            "stream": digest(stream),
            "pieces": digest(ask("pieces", text=text, **options)),
            "decoded": digest(ask("decode", stream=stream)),
        }
    ids = {segmentation: ask("tokenizer_encode", handle=handle, text=text, segmentation=segmentation)["ids"]
           for segmentation in ("greedy", "optimal")}
    return {
        **{f"ids_{segmentation}": digest(found) for segmentation, found in ids.items()},
        "decoded": digest(ask("tokenizer_decode", handle=handle, ids=ids["greedy"])),
    }


def digests(request: dict[str, Any]) -> dict[str, Any]:
    handle = None
    if request.get("tokenizer"):
        handle = ask("load_tokenizer", json=request["tokenizer"])["handle"]
    options = request.get("options", {})
    return {
        "python": sys.version,
        "documents": {
            doc["name"]: document_digests(doc["text"], options, handle) for doc in request["documents"]
        },
    }


def runtime(request: dict[str, Any]) -> dict[str, Any]:
    import unicodedata

    return {"unidata_version": unicodedata.unidata_version, "probes": [c.upper() for c in request["probes"]]}


def calls(request: dict[str, Any]) -> list[Any]:
    return [json.loads(functok_bridge.call(c["op"], json.dumps(c["args"]))) for c in request["calls"]]


def errors(request: dict[str, Any]) -> list[dict[str, Any]]:
    answers = []
    for case in request["cases"]:
        strict = json.loads(functok_bridge.call("decode", json.dumps(case)))
        lenient = ask("decode", **{**case, "errors": "replace"})
        answers.append({"error": strict.get("error"), "lenient": lenient})
    return answers


def train_tokenizer(request: dict[str, Any]) -> dict[str, Any]:
    from functok.tokenizer import Tokenizer

    tokenizer = Tokenizer.train(
        iter(request["texts"]), vocab_size=request["vocab_size"], show_progress=False
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tokenizer.json"
        tokenizer.save(str(path))
        return {"json": path.read_text(encoding="utf-8")}


TASKS = {"runtime": runtime, "calls": calls, "digests": digests, "errors": errors, "train_tokenizer": train_tokenizer}


def main() -> None:
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    answer = TASKS[request["task"]](request)
    sys.stdout.buffer.write(json.dumps(answer, ensure_ascii=False).encode("utf-8"))


if __name__ == "__main__":
    main()
