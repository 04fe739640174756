"""The pure-Python path on a shipped tokenizer file: no `tokenizers` needed (the browser)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok.normalize import nfc
from functok.tokenizer import DecodeStream, Tokenizer

from conftest import udhr_files

FIXTURE = Path(__file__).parent / "fixtures" / "tokenizer-small.json"


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    t = Tokenizer.from_file(FIXTURE)
    t.fast_path = False  # never take the `tokenizers` fast path, even where it is installed
    return t


def test_fixture_loads(tok):
    assert tok.vocab_size == 1500 and tok.special_tokens == {"<|endoftext|>": 0}


@given(st.text(st.characters(codec="utf-8"), max_size=100))
def test_round_trip_pure_python(text):
    t = Tokenizer.from_file(FIXTURE)
    t.fast_path = False
    for segmentation in ("greedy", "optimal"):
        ids = t.encode(text, segmentation=segmentation, disallowed_special=()).ids
        assert t.decode(ids) == nfc(text)
        stream = DecodeStream(t)
        assert "".join(stream.step(i) or "" for i in ids) + stream.finish() == nfc(text)


def test_udhr_sample_round_trips_and_optimal_is_shorter(tok):
    texts = [p.read_text(encoding="utf-8") for p in udhr_files()[::25]]
    greedy = optimal = 0
    for text in texts:
        g = tok.encode(text).ids
        o = tok.encode(text, segmentation="optimal").ids
        assert tok.decode(g) == tok.decode(o) == nfc(text)
        greedy, optimal = greedy + len(g), optimal + len(o)
    assert optimal < greedy


def test_pure_python_equals_the_fast_path(tok):
    pytest.importorskip("tokenizers")
    fast = Tokenizer.from_file(FIXTURE)
    texts = [p.read_text(encoding="utf-8") for p in udhr_files()[::40]]
    texts.append(Path(__file__).read_text(encoding="utf-8"))
    for text in texts:
        assert tok.encode(text, disallowed_special=()).ids == fast.encode(text, disallowed_special=()).ids


def test_fast_path_is_a_switch_and_functok_pure_turns_it_off():
    import os
    import subprocess
    import sys

    t = Tokenizer.from_file(FIXTURE)
    t.fast_path = False
    assert t.fast_path is False and t._hf_tokenizer() is None  # never built
    t.fast_path = True
    assert t.fast_path is True
    code = f"from functok import Tokenizer; print(Tokenizer.from_file({str(FIXTURE)!r}).fast_path)"
    for value, expected in (("1", "False"), ("", "True")):
        env = dict(os.environ, FUNCTOK_PURE=value, PYTHONPATH=str(Path(__file__).parents[1] / "python"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert out.stdout.strip() == expected
