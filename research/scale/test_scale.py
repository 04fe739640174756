"""The scale study's smoke test: the GPU command's own code path, with --device cpu --tiny, end
to end (prepare a tiny pack from installed sources, tokenize, train, score), and every stream
decodes back to its documents. Needs torch (the torch lane).

    .venv-torch/bin/python -m pytest -q -p no:cacheprovider research/scale/test_scale.py
"""

from __future__ import annotations

import json
import lzma
import math
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import prepare_pack  # noqa: E402
import run  # noqa: E402
import streams  # noqa: E402

CORPORA = ("code", "prose")  # the UDHR is left out to keep the smoke test short


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    pack, out, cache = (tmp_path_factory.mktemp(name) for name in ("pack", "out", "streams"))
    assert prepare_pack.main(["--tiny", "--pack", str(pack), "--corpora", *CORPORA]) == 0
    assert run.main(["--pack", str(pack), "--out", str(out), "--device", "cpu", "--tiny", "--workers", "2",
                     "--cache", str(cache), "--corpora", *CORPORA]) == 0
    return pack, out, cache


def test_every_cell_scores(tiny):
    pack, out, _ = tiny
    for corpus in CORPORA:
        for key in streams.VARIANTS:
            result = json.loads((out / f"tiny.{corpus}.{key}.seed0.json").read_text())
            assert math.isfinite(result["bits_per_byte"]) and 0 < result["bits_per_byte"] < 16, result
            assert result["train_tokens"] >= run.TINY_TOKENS - run.TRAIN["batch"] * 64
    assert json.loads((out / "environment.json").read_text())["functok_core"] in ("native", "python")


def test_streams_decode_to_their_documents(tiny):
    pack, _, cache = tiny
    from functok.normalize import nfc

    budget = json.loads((pack / "manifest.json").read_text())["budget"]
    for corpus in CORPORA:
        docs = json.loads(lzma.decompress((pack / f"{corpus}.eval.json.xz").read_bytes()))
        for key in streams.VARIANTS:
            model = json.loads(lzma.decompress((pack / "tokenizers" / f"{corpus}.{key}.json.xz").read_bytes()))
            ids = np.load(cache / "tiny" / f"{corpus}.{key}.eval.npy")
            cuts = np.flatnonzero(ids == budget)
            assert len(cuts) == len(docs)
            starts = np.concatenate([[0], cuts[:-1] + 1])
            for doc, a, b in zip(docs, starts, cuts):
                assert streams.text_of(key, model, ids[a:b]) == nfc(doc), (corpus, key)
