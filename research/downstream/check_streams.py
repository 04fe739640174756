"""Check that the prepared streams are what functok.Tokenizer itself gives: for each codec
variant, every evaluation document's ids equal ``Tokenizer(...).encode(text).ids`` and decode
back to its NFC text; the baseline's ids decode (byte fallback joined) to the NFC text too.

    cd research/downstream && PYTHONPATH=../../python \\
        ../../.venv-torch/bin/python check_streams.py udhr-languages   # or: remedy (remedy.py's stream)
"""

from __future__ import annotations

import json
import sys

import torch

from functok import Tokenizer
from functok.normalize import nfc

import prepare
import protocols

SETTINGS = {"paper_split": {"profile": "paper", "fuse": "none"},
            "compact_frequent": {"profile": "compact", "fuse": "frequent"}}


def documents(stream: torch.Tensor) -> list[list[int]]:
    out, doc = [], []
    for i in stream.tolist():
        if i == prepare.SEPARATOR:
            out.append(doc)
            doc = []
        else:
            doc.append(i)
    return out


def baseline_text(ids: list[int], strings: list[str]) -> str:
    raw = bytearray()
    for i in ids:
        raw.extend(bytes([i]) if i < 256 else strings[i].encode())
    return raw.decode("utf-8")


def check(name: str) -> int:
    cache = prepare.prepare(name)
    texts = protocols.PROTOCOLS[name]().evaluation
    bad = 0
    for key in prepare.VARIANT_KEYS:
        hf = json.loads((cache / f"{key}.tokenizer.json").read_text())
        docs = documents(torch.load(cache / f"{key}.pt")["eval"])
        assert len(docs) == len(texts), (key, len(docs), len(texts))
        if key == "baseline":
            strings = prepare._strings(hf["model"]["vocab"])
            wrong = sum(baseline_text(ids, strings) != nfc(t) for ids, t in zip(docs, texts))
        else:
            tok = Tokenizer(hf, splitter=prepare.SPLITTER, **SETTINGS[key])
            wrong = sum(tok.encode(t, disallowed_special=()).ids != ids or tok.decode(ids) != nfc(t)
                        for ids, t in zip(docs, texts))
        print(f"{name}: {key}: {len(docs) - wrong} of {len(docs)} documents exact")
        bad += wrong
    return 1 if bad else 0


def check_remedy() -> int:
    """remedy.py's stream (``Tokenizer`` has no ``features`` option): each evaluation
    document's tokens join to ``functok.encode(text, features=...)`` and decode to its NFC text."""
    import remedy
    from functok import decode, encode

    cache = remedy.prepare_remedy()
    texts = protocols.PROTOCOLS[remedy.PROTOCOL]().evaluation
    hf = json.loads((cache / f"{remedy.REMEDY}.tokenizer.json").read_text())
    strings = prepare._strings(hf["model"]["vocab"])
    docs = documents(torch.load(cache / f"{remedy.REMEDY}.pt")["eval"])
    assert len(docs) == len(texts), (len(docs), len(texts))
    wrong = 0
    for ids, t in zip(docs, texts):
        stream = baseline_text(ids, strings)
        wrong += stream != encode(t, splitter=prepare.SPLITTER, profile="compact", features=remedy.REMEDY_FEATURES) \
            or decode(stream) != nfc(t)
    print(f"{remedy.PROTOCOL}: {remedy.REMEDY}: {len(docs) - wrong} of {len(docs)} documents exact")
    return 1 if wrong else 0


if __name__ == "__main__":
    names = sys.argv[1:] or ["udhr-languages"]
    sys.exit(max(check_remedy() if n == "remedy" else check(n) for n in names))
