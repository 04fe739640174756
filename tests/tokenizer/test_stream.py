"""DecodeStream against Tokenizer.decode, on the shipped small tokenizer.
from conftest import damaged

One rule for both: the concatenation of what the stream returns is ``Tokenizer.decode`` of the
same ids, in both modes and for every ``max_output``; in strict mode both raise the same error
(the first in id order), with the same type, ``offset`` and ``id_index``. Strict mode returns
the text after a repeat as it arrives; lenient mode holds only what ``max_output`` can still
change.
"""

from __future__ import annotations

import pickle
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import damaged
from functok import FormatError
from functok.tokenizer import (
    ByteFallbackError,
    DecodeStream,
    TokenFormatError,
    Tokenizer,
    UnknownTokenIdError,
)

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tokenizer-small.json"
TOK = Tokenizer.from_file(FIXTURE)
TOK.fast_path = False
LIMITS = [0, 1, 2, 3, 5, 8, 13, 30, 60, 2**26]
# The same vocabulary with the profile compact (spec 6.6): its ids decode exactly as TOK's.
TOK_COMPACT = Tokenizer(TOK.hf_json, splitter=TOK.splitter, normalize=TOK.normalize,
                        split_operators=TOK.split_operators, profile="compact")
TOK_COMPACT.fast_path = False


def _byte_ids(text: str) -> list[int]:
    return [TOK.token_to_id(f"<0x{b:02X}>") for b in text.encode("utf-8", "surrogatepass")]


def _units() -> list[list[int]]:
    """Id runs a model might emit: instructions, arguments, text, bytes, specials, junk."""
    tokens = ["\ue100", "\ue101", "\ue102", "\ue105", "\ue200", "\ue000", "\ue001", "\ue002",
              "\ue003", "\ue005", "\ue008", "\ue200\ue000", "\ue200\ue001", "\ue100\ue000",
              "\ue100\ue001", "a", "o", "s", "ab", " he", "llo", " ", "\n", "<|endoftext|>"]
    units = [[TOK.token_to_id(t)] for t in tokens]
    assert all(u[0] is not None for u in units), tokens
    for text in ("\ue201", "\uefff", "\ue0ff", "\ue300", "\ue0ff\ue0ff", "é", "漢",
                 "\ue201\ue000\ue002\ue003",  # MULTIREPEAT(0, 2, 3)
                 "\ue201\ue002\ue000\ue0ff",  # MULTIREPEAT(2, 0, 255): a bad range
                 "\ue200\ue000\ue000",  # REPEAT(0, 0): a bad count
                 "\ue200\ue002\ue0ff",  # REPEAT(2, 255)
                 "\ue110", "\ue110\ue000\ue002",  # UPPERCASE; UPPERCASE(0, 2)
                 "\ue110\ue001\ue005",  # UPPERCASE(1, 5): often past the slots
                 "\ue110\ue002\ue001",  # UPPERCASE(2, 1): a bad range
                 "\ue110\ue000\ue001\ue100\ue000"):  # UPPERCASE(0, 1) CAPITALIZE(0)
        units.append(_byte_ids(text))  # not in the vocabulary: spelled in bytes
    for raw in (b"\xee", b"\x80", b"\xbf", b"\xff", b"\xc3", b"\xe2\x82", b"\xef\xbf\xbd"):
        units.append([TOK.token_to_id(f"<0x{b:02X}>") for b in raw])  # partial or invalid UTF-8
    units.append([TOK.vocab_size + 7])  # an unknown id
    return units


UNITS = _units()


@st.composite
def model_ids(draw) -> list[int]:
    pool = st.one_of(st.sampled_from(UNITS), st.sampled_from(UNITS),
                     st.integers(0, TOK.vocab_size + 2).map(lambda i: [i]))
    if draw(st.booleans()):
        return [i for unit in draw(st.lists(pool, max_size=24)) for i in unit]
    # a real encoding (repeats, case, marks over several tokens), perhaps damaged
    text = draw(st.text("sSoOaAbBéÉ #\n\ue000\ue100", max_size=24))
    tokenizer = draw(st.sampled_from([TOK, TOK_COMPACT]))  # compact: UPPERCASE, no repeats
    ids = tokenizer.encode(text, segmentation=draw(st.sampled_from(["greedy", "optimal"])),
                           disallowed_special=()).ids
    return damaged(draw, ids, pool, 3)


def _error(e: Exception) -> tuple:
    """Everything an error says, but its message."""
    return (type(e), getattr(e, "kind", None), getattr(e, "offset", None), e.id_index,
            getattr(e, "id", None), getattr(e, "object", None), getattr(e, "reason", None))


def _decoded(ids, errors, max_output):
    try:
        return TOK.decode(ids, errors=errors, max_output=max_output)
    except ValueError as e:
        return _error(e)


def _streamed(ids, errors, max_output):
    """The stream's outcome; checks on the way that nothing returned is ever taken back."""
    stream = DecodeStream(TOK, errors=errors, max_output=max_output)
    pieces = []
    try:
        for i in ids:
            piece = stream.step(i)
            assert piece != ""  # nothing new is None
            pieces.append(piece or "")
        pieces.append(stream.finish())
    except ValueError as e:
        return _error(e)
    return "".join(pieces)


@given(model_ids(), st.sampled_from(LIMITS))
def test_stream_equals_decode_for_every_prefix(ids, max_output):
    for errors in ("strict", "replace"):
        for k in range(len(ids) + 1):
            expected = _decoded(ids[:k], errors, max_output)
            assert _streamed(ids[:k], errors, max_output) == expected, (errors, k)
            if errors == "replace":
                assert isinstance(expected, str)  # lenient mode never raises
        full = _decoded(ids, errors, max_output)
        if isinstance(full, str):  # what a step returns is final: a prefix of the end result
            stream = DecodeStream(TOK, errors=errors, max_output=max_output)
            emitted = ""
            for i in ids:
                emitted += stream.step(i) or ""
                assert full.startswith(emitted)


# --- item 9: one error rule -----------------------------------------------------------------


def _both_raise(ids) -> Exception:
    with pytest.raises(ValueError) as batch:
        TOK.decode(ids)
    stream = DecodeStream(TOK)
    with pytest.raises(ValueError) as streamed:
        for i in ids:
            stream.step(i)
        stream.finish()
    assert _error(streamed.value) == _error(batch.value)
    return batch.value


def test_the_issue_example_raises_the_same_error_in_both():
    error = _both_raise([20, 268, 46, 130, 51, 136])  # 0x81 is not a UTF-8 start byte
    assert isinstance(error, ByteFallbackError) and isinstance(error, UnicodeDecodeError)
    assert (error.id_index, error.object, error.reason) == (3, b"\x81", "invalid start byte")


def test_an_error_in_a_group_comes_before_an_unknown_id_in_its_text():
    cap5 = [TOK.token_to_id("\ue100"), TOK.token_to_id("\ue005")]  # CAPITALIZE(5)
    text = [TOK.token_to_id("a"), TOK.token_to_id("o")]
    unknown = TOK.vocab_size + 1
    # the unknown id is a slot (U+FFFD) of CAPITALIZE(5)'s text, which still has only 3 slots
    error = _both_raise(cap5 + text + [unknown])
    assert isinstance(error, TokenFormatError) and isinstance(error, FormatError)
    assert (error.kind, error.offset, error.id_index) == ("position-out-of-range", 0, 0)
    # with 3 more slots the group is fine, and the unknown id is the first error
    error = _both_raise(cap5 + text + [unknown] + text + text)
    assert isinstance(error, UnknownTokenIdError) and (error.id, error.id_index) == (unknown, 4)
    # an unknown id before any group is raised at once: nothing open can come before it
    stream = DecodeStream(TOK)
    stream.step(text[0])
    with pytest.raises(UnknownTokenIdError):
        stream.step(unknown)


def test_a_format_error_names_the_byte_that_starts_its_code_point():
    ids = [TOK.token_to_id("a")] + _byte_ids("\ue0ff") + [TOK.token_to_id("a")]  # stray argument
    error = _both_raise(ids)
    assert (error.kind, error.offset, error.id_index) == ("stray-argument", 1, 1)


def test_errors_pickle_with_their_id_index():
    errors = [TokenFormatError("stray-argument", 3, "x", 7), UnknownTokenIdError(99, 4),
              ByteFallbackError(b"\xff", "invalid start byte", 2)]
    for error in errors:
        assert _error(pickle.loads(pickle.dumps(error))) == _error(error)


# --- item 4: early and linear ----------------------------------------------------------------


def _repeat_then_text(n: int) -> list[int]:
    """"Sooooo" (REPEAT(1,5) in its group) and then n tokens of text after the repeat."""
    ids = TOK.encode("Sooooo" + " hello" * n).ids
    assert TOK.id_to_token(ids[0]) == "\ue200\ue001"
    return ids


def test_strict_mode_returns_the_text_after_a_repeat_as_it_arrives():
    ids = _repeat_then_text(50)
    stream = DecodeStream(TOK)
    out = [stream.step(i) for i in ids]
    assert "".join(o or "" for o in out) == TOK.decode(ids)  # all of it before finish()
    assert stream.finish() == ""


def test_lenient_mode_holds_only_what_max_output_can_still_change():
    ids = _repeat_then_text(50)
    # With room for the repeat, its text waits: a longer text could still drop it.
    stream = DecodeStream(TOK, errors="replace")
    out = [stream.step(i) for i in ids]
    assert set(out[4:]) == {None}
    assert "".join(o or "" for o in out) + stream.finish() == TOK.decode(ids, errors="replace")
    # Once the output is too long for the repeat (it grows the text by 4), nothing can bring it
    # back: the text is final, and it comes as it arrives.
    stream = DecodeStream(TOK, errors="replace", max_output=30)
    out = [stream.step(i) for i in ids]
    expected = TOK.decode(ids, errors="replace", max_output=30)
    assert expected.startswith("So hello")  # the repeat was dropped
    assert "".join(o or "" for o in out) == expected and stream.finish() == ""
    assert all(o is not None for o in out[15:])


def _stream_peak(ids: list[int]) -> int:
    stream = DecodeStream(TOK)
    tracemalloc.start()
    for i in ids:
        stream.step(i)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_strict_mode_keeps_no_text_after_a_repeat():
    """What strict mode has returned it forgets: its memory does not grow with the text."""
    small, large = _repeat_then_text(5_000), _repeat_then_text(20_000)
    _stream_peak(small)  # warm the decoder's caches
    assert _stream_peak(large) < 2 * _stream_peak(small) < 64_000
