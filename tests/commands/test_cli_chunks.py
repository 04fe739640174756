"""Chunked processing on the command line: a file larger than memory is decoded in chunks.

* Chunks cut by :mod:`functok.chunks` decode (and encode) exactly like the whole input, for any
  block boundaries, including cuts inside long group-free text.
* ``functok decode --max-output N`` counts the whole output, as ``functok.decode`` does; without
  the option the limit is per chunk.
* The chunker's memory is bounded by a block plus the longest stretch without a cut, not by the
  input: deterministic ``tracemalloc`` peaks. (Time is in bench/python/scaling.py.)
"""

from __future__ import annotations

import sys
import tracemalloc
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import FormatError, decode, encode
from functok import chunks as chunks_module
from functok.chunks import stream_chunks, text_chunks
from conftest import blocks_of
from functok.cli import decode_blocks, main




def outcome(fn, *args, **kwargs):
    """(text, None) or (None, (kind, offset)): what a decode gives, as one comparable value."""
    try:
        return "".join(fn(*args, **kwargs)), None
    except FormatError as error:
        return None, (error.kind, error.offset)


# Streams that hit every cut kind: long group-free runs (past a group's 256-slot reach), groups
# with and without repeats, escapes (also of ESCAPE and of group code points), surrogates, and
# broken groups (stray arguments, unknown opcodes, truncated instructions, bad counts).
stream_parts = st.one_of(
    st.sampled_from(["a", "b", "Z", " ", "\n", "é", "\ud800", "\U0001f600", "\uefff"]),
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "y ", "\uefff\ue000", "\uefff\uefff"]),
              st.integers(1, 700)),
    st.sampled_from(["\ue100\ue000", "\ue100\ue0ff", "\ue102\ue001", "\ue200\ue000\ue003",
                     "\ue200\ue000\ue0ff", "\ue201\ue000\ue002\ue0ff", "\ue200\ue0fe\ue002",
                     "\ue200\ue000\ue000", "\ue005", "\ue300", "\ue200\ue001"]),
)
streams = st.lists(stream_parts, max_size=40).map("".join)
block_sizes = st.lists(st.integers(1, 900), max_size=40)


search_spans = st.sampled_from([1, 2, 5, chunks_module.SEARCH_SPAN])


@given(streams, block_sizes, st.sampled_from(["strict", "replace"]), search_spans)
def test_stream_chunks_decode_like_the_whole(stream, sizes, errors, span):
    """Per chunk with the default limit (the CLI's default) equals one decode of the whole."""
    with patch.object(chunks_module, "SEARCH_SPAN", span):  # small spans: the search widens
        chunks = list(stream_chunks(blocks_of(stream, sizes)))
        chunked = outcome(decode_blocks, blocks_of(stream, sizes), errors=errors)
    assert "".join(c for _, c in chunks) == stream
    assert all(stream[offset:offset + len(c)] == c for offset, c in chunks)
    assert chunked == outcome(decode, stream, errors=errors)


@given(streams, block_sizes, st.sampled_from(["strict", "replace"]), st.integers(-300, 100), search_spans)
def test_max_output_counts_the_whole_output(stream, sizes, errors, shift, span):
    """With a given max_output the chunks together decode exactly as the whole stream does."""
    max_output = max(0, len(decode(stream, errors="replace")) + shift)  # near where repeats stop
    with patch.object(chunks_module, "SEARCH_SPAN", span):
        chunked = outcome(decode_blocks, blocks_of(stream, sizes), errors=errors, max_output=max_output)
    assert chunked == outcome(decode, stream, errors=errors, max_output=max_output)


cjk_and_words = st.lists(st.sampled_from(["漢字", "かな", " word", "\n", "Ab", " ", "e\u0301", "!"]),
                         max_size=300).map("".join)


@given(cjk_and_words, st.lists(st.integers(1, 50), max_size=60), search_spans)
def test_text_chunks_encode_like_the_whole(text, sizes, span):
    with patch.object(chunks_module, "SEARCH_SPAN", span):
        chunks = list(text_chunks(blocks_of(text, sizes)))
    assert "".join(c for _, c in chunks) == text
    assert all(text[offset:offset + len(c)] == c for offset, c in chunks)
    assert "".join(encode(c) for _, c in chunks) == encode(text)


# --- --max-output on the command line -------------------------------------------------------

SPEC_EXAMPLE = "abc\\ue200\\ue000\\ue008x"  # REPEAT(0,8) "x" after "abc": 11 code points


def test_max_output_stops_the_whole_output(capsys):
    """The spec's example: the library raises output-too-large at 3; so does the CLI."""
    with pytest.raises(FormatError) as raised:
        decode("abc\ue200\ue000\ue008x", max_output=10)
    assert (raised.value.kind, raised.value.offset) == ("output-too-large", 3)
    assert main(["decode", "--max-output", "10", "--unescape", SPEC_EXAMPLE]) == 2
    out, err = capsys.readouterr()
    assert out == "abc"  # the chunk before the group, decoded before the error was found
    assert err.startswith("functok: output-too-large at code point 3: ")
    assert "max_output 10" in err


def test_max_output_lenient_and_at_the_limit(capsys):
    assert main(["decode", "--errors", "replace", "--max-output", "10", "--unescape", SPEC_EXAMPLE]) == 0
    assert capsys.readouterr().out == decode("abc\ue200\ue000\ue008x", max_output=10, errors="replace") == "abcx"
    assert main(["decode", "--max-output", "11", "--unescape", SPEC_EXAMPLE]) == 0
    assert capsys.readouterr().out == "abc" + "x" * 8


def test_default_limit_is_per_chunk(monkeypatch):
    """Without --max-output each chunk gets the default limit (here made 1,000 to keep it small)."""
    monkeypatch.setattr("functok.cli.DEFAULT_MAX_OUTPUT", 1000)
    piece = "\ue200\ue000\ue0ffa\n"  # REPEAT(0,255) "a\n": 256 code points
    stream = piece * 6
    with pytest.raises(FormatError):
        decode(stream, max_output=1000)
    assert "".join(decode_blocks(blocks_of(stream, [len(piece)] * 6))) == ("a" * 255 + "\n") * 6
    with pytest.raises(FormatError):
        "".join(decode_blocks(blocks_of(stream, [len(piece)] * 6), max_output=1000))


def test_max_output_over_many_chunks():
    """The budget left by earlier chunks passes on: the error is found in a later chunk."""
    stream = "".join(f"\ue200\ue000\ue00a{c}" + "." * 600 for c in "abcdefghij")  # 10 x 609
    blocks = list(blocks_of(stream, [300] * 40))
    assert len(list(stream_chunks(iter(blocks), past_repeats=False))) > 5
    with pytest.raises(FormatError) as raised:
        list(decode_blocks(iter(blocks), max_output=3000))
    assert (raised.value.kind, raised.value.offset) == ("output-too-large", 4 * 604)
    assert "".join(decode_blocks(iter(blocks), max_output=3000, errors="replace")) == \
        decode(stream, max_output=3000, errors="replace")


@pytest.mark.parametrize("value", ["-1", "1.5", "ten", ""])
def test_max_output_must_be_a_non_negative_integer(value, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["decode", "--max-output", value, "x"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --max-output: expected a non-negative integer, not " in err
    assert "Traceback" not in err


def test_help_states_both_rules(capsys):
    with pytest.raises(SystemExit):
        main(["decode", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "counted over the whole output" in help_text and "2**26 per chunk" in help_text


# --- memory: the chunker holds a block plus the longest stretch without a cut ----------------

BLOCK = 1 << 20  # code points per block, as the CLI reads about 1 MB at a time


def lazy_blocks(head: str, unit: str, total: int):
    """``head``, then ``unit`` repeated to ``total`` code points, made one block at a time."""
    yield head
    for _ in range(total // BLOCK):
        yield unit * (BLOCK // len(unit))  # a fresh string per block, as a file read gives


def chunker_peak(chunks) -> int:
    tracemalloc.start()
    try:
        for _ in chunks:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# A stream with no group and an escaped U+E000 every 1,000 code points (the input);
# then the text of one long group, with and without a repeat.
GROUP_FREE = ("", "\uefff\ue000" + "lorem ipsum " * 83)
AFTER_CAPITALIZE = ("\ue100\ue000", "lorem ipsum ")
AFTER_REPEAT = ("\ue200\ue000\ue005s", "lorem ipsum ")


@pytest.mark.parametrize("head, unit", [GROUP_FREE, AFTER_CAPITALIZE, AFTER_REPEAT])
def test_stream_chunker_memory_is_bounded(head, unit):
    """20 blocks of 1M code points: the peak is a few blocks, whatever the input's length."""
    block_bytes = sys.getsizeof(unit * (BLOCK // len(unit)))
    peak = chunker_peak(stream_chunks(lazy_blocks(head, unit, 20 * BLOCK)))
    assert peak < 5 * block_bytes, (peak, block_bytes)


def test_whole_output_chunker_memory_is_bounded_without_repeats():
    """Counting the whole output, text after a group without a repeat is still cut."""
    head, unit = AFTER_CAPITALIZE
    block_bytes = sys.getsizeof(unit * (BLOCK // len(unit)))
    peak = chunker_peak(stream_chunks(lazy_blocks(head, unit, 20 * BLOCK), past_repeats=False))
    assert peak < 5 * block_bytes, (peak, block_bytes)
