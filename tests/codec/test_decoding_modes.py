"""Strict and lenient decoding without a list of every error (so that a stream full of errors
costs no more memory than a clean one), and the check of ``max_output``.

Spec 8.2 defines strict decoding as: run the lenient decoder, collect every error, raise the
one with the smallest offset (then precedence). The decoder no longer works that way (lenient
mode records nothing; strict mode keeps one error and stops after its unit), so the oracle
here is that definition taken literally: a careful-decoder run that records every error in a
list, and ``errors.first_error`` over it. The recording run shares the decoder's detection
code, which the conformance vectors and tests/codec/test_decoding_errors.py check on their own; what
this file checks is that keeping one error and stopping early choose the same one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import DecodeStream, FormatError, Tokenizer, decode
from functok.cli import main
from functok.decoding import DEFAULT_MAX_OUTPUT, _Decoder, check_max_output
from functok.errors import first_error

from conftest import assert_decode_error


def recorded(stream: str, max_output: int = DEFAULT_MAX_OUTPUT) -> tuple[str, list[FormatError]]:
    """The lenient output and every error the lenient decoder acts on (spec 8.2's collection)."""
    found: list[FormatError] = []
    return _Decoder(stream, max_output, found).run(), found


# (stream, max_output, strict error kind, its offset, lenient output); worked out from spec 7-8
BAD_STREAMS = [
    ("\ue000" * 1000 + "a", None, "stray-argument", 0, "a"),
    ("ab" + "\ue300" * 5 + "c", None, "unknown-opcode", 2, "abc"),
    ("\ue10e\ue000\ue000x", None, "unknown-opcode", 0, "x"),            # then two stray arguments
    ("a\ue100\ue009bc\ue000\ue000d", None, "position-out-of-range", 1, "abcd"),  # a later unit errs too
    ("\ue201\ue000\ue003\ue002\ue000ab", None, "position-out-of-range", 0, "ab"),  # found after the stray at 4
    # REPEAT(1,3) at 0 applies first (larger start), then REPEAT(0,3) at 3 would pass 4
    ("\ue200\ue001\ue003\ue200\ue000\ue003ab", 4, "output-too-large", 3, "abbb"),
    # REPEAT(0,3) at 0 fails only once REPEAT(1,3) at 3 has grown the list: found after it
    ("\ue200\ue000\ue003\ue200\ue001\ue003ab", 5, "output-too-large", 0, "abbb"),
    ("a\ue000\ue100\ue000", None, "stray-argument", 1, "a"),           # then a dangling group at 2
    ("x\ue100\ue005ab\ud800", None, "position-out-of-range", 1, "xab\ufffd"),
    ("a\ud800b\udfff", None, "lone-surrogate", 1, "a\ufffdb\ufffd"),
    ("\ue100\ue000b\ue000" * 3 + "\ue100", None, "stray-argument", 3, "BBB"),  # a dangling group at the end
]


@pytest.mark.parametrize("stream, max_output, kind, offset, lenient", BAD_STREAMS)
def test_strict_raises_the_first_error_and_lenient_drops_what_it_must(stream, max_output, kind, offset, lenient):
    limits = assert_decode_error(stream, kind, offset, lenient, max_output)
    out, found = recorded(stream, **limits)
    assert out == lenient
    assert (first_error(found).kind, first_error(found).offset) == (kind, offset)


def test_a_recording_run_still_lists_each_bad_code_point():
    # spec 8.1: each code point of a run that starts no instruction is its own error
    _, found = recorded("\ue000\ue300\ue000\ue10ea")
    assert [(e.kind, e.offset) for e in found] == [
        ("stray-argument", 0), ("unknown-opcode", 1), ("stray-argument", 2), ("unknown-opcode", 3)]


# Private-use soup with long runs of one atom, so that runs of bad code points, long groups and
# several units with errors all occur.
atoms = st.one_of(
    st.integers(0xE000, 0xE006).map(chr),
    st.sampled_from(["\ue100", "\ue102", "\ue10e", "\ue200", "\ue201", "\ue300", "\ueffe"]),
    st.sampled_from(["a", "B", " ", "\u0301", "\ud800", "\uefff\ue000", "\uefffx", "\uefff"]),
)
runs = st.tuples(atoms, st.integers(1, 6)).map(lambda pair: pair[0] * pair[1])
streams = st.lists(st.one_of(atoms, runs), max_size=30).map("".join)


@given(streams, st.one_of(st.none(), st.integers(0, 40)))
def test_strict_raises_what_spec_8_2_chooses_from_every_error(stream, max_output):
    limits = {} if max_output is None else {"max_output": max_output}
    out, found = recorded(stream, **limits)
    assert decode(stream, errors="replace", **limits) == out
    if not found:
        assert decode(stream, **limits) == out
        return
    expected = first_error(found)
    with pytest.raises(FormatError) as info:
        decode(stream, **limits)
    assert (info.value.kind, info.value.offset) == (expected.kind, expected.offset)


# --- max_output (spec 7.8: a non-negative integer) ----------------------------------------

NOT_INTEGERS = [None, 2.5, 10.0, True, False, "10"]
STREAMS = ["abc", "\ue100\ue000abc", "\ue200\ue000\ue002a"]  # plain, fast path, a repeat


@pytest.mark.parametrize("value", NOT_INTEGERS)
@pytest.mark.parametrize("errors", ["strict", "replace"])
@pytest.mark.parametrize("stream", STREAMS)
def test_max_output_that_is_no_integer_is_a_type_error(stream, errors, value):
    with pytest.raises(TypeError, match="max_output"):
        decode(stream, errors=errors, max_output=value)


@pytest.mark.parametrize("errors", ["strict", "replace"])
@pytest.mark.parametrize("stream", STREAMS)
def test_negative_max_output_is_a_value_error(stream, errors):
    with pytest.raises(ValueError, match="max_output"):
        decode(stream, errors=errors, max_output=-1)


def test_max_output_zero_allows_text_but_no_repeat():
    assert decode("abc", max_output=0) == "abc"
    assert decode("\ue200\ue000\ue002a", errors="replace", max_output=0) == "a"
    assert check_max_output(2**70) == 2**70


@pytest.fixture(scope="module")
def small_tokenizer() -> Tokenizer:
    return Tokenizer.from_file(Path(__file__).parents[1] / "fixtures" / "tokenizer-small.json")


@pytest.mark.parametrize("value, error", [(-1, ValueError), (None, TypeError), (True, TypeError), (3.0, TypeError)])
def test_decode_stream_checks_max_output(small_tokenizer, value, error):
    with pytest.raises(error, match="max_output"):
        DecodeStream(small_tokenizer, max_output=value)


@pytest.mark.parametrize("value", ["-1", "2.5", "many"])
def test_cli_bad_max_output_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as info:
        main(["decode", f"--max-output={value}", "abc"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--max-output" in err and "Traceback" not in err
