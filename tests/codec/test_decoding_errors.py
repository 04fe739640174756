"""Each error kind at the offset the spec gives, the precedence between errors, and the
lenient decoder's guarantees. Expected values are worked out by hand from spec section 8."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import ERROR_KINDS, FormatError, decode

from conftest import assert_decode_error


# (stream, kind, offset, lenient output, max_output)
ONE_ERROR = [
    ("\ue10ea", "unknown-opcode", 0, "a", None),                  # reserved U+E10E
    ("x\ue300a", "unknown-opcode", 1, "xa", None),                 # unassigned U+E300
    ("\ue200\ue000a", "truncated-instruction", 0, "a", None),      # REPEAT with one argument
    ("\ue201\ue000\ue002", "truncated-instruction", 0, "", None),  # ... and nothing after it
    ("\ue000a", "stray-argument", 0, "a", None),
    ("\ue100\ue005ab", "position-out-of-range", 0, "ab", None),    # CAPITALIZE(5) on 2 slots
    ("\ue201\ue000\ue003\ue002ab", "position-out-of-range", 0, "ab", None),  # slots [0,3) of 2
    ("\ue200\ue000\ue000a", "bad-count", 0, "a", None),
    ("\ue201\ue001\ue001\ue003ab", "bad-range", 0, "ab", None),
    ("a\ue100\ue000", "dangling-group", 1, "a", None),
    ("ab\uefff", "escape-at-end", 2, "ab", None),
    ("\ue200\ue000\ue0ffa", "output-too-large", 0, "a", 100),
    ("a\ud800b", "lone-surrogate", 1, "a\ufffdb", None),
]


@pytest.mark.parametrize("stream, kind, offset, lenient, max_output", ONE_ERROR)
def test_each_error_kind(stream, kind, offset, lenient, max_output):
    assert_decode_error(stream, kind, offset, lenient, max_output)


def test_every_kind_is_covered():
    # (tests/codec/test_opcodes.py checks ERROR_KINDS against spec/opcodes.json)
    assert {kind for _, kind, *_ in ONE_ERROR} == set(ERROR_KINDS)


@pytest.mark.parametrize("stream, kind, offset", [
    ("\ue000\ue10ex", "stray-argument", 0),                    # smallest offset wins
    ("\ue10e\ue000x", "unknown-opcode", 0),                    # its argument is stray at 1
    ("\ue201\ue001\ue001\ue000ab", "bad-count", 0),            # same offset: bad-count first
    ("\ue201\ue005\ue001\ue001ab", "bad-range", 0),            # bad-range before position
    ("\ue100\ue009ab\ue000", "position-out-of-range", 0),      # before the stray argument at 4
    ("\ue100\ue100\ue000a", "truncated-instruction", 0),       # the next opcode ends the first
    ("ab\ue100\ue000\uefff", "dangling-group", 2),             # escape-at-end is at 4
])
def test_precedence(stream, kind, offset):
    with pytest.raises(FormatError) as info:
        decode(stream)
    assert (info.value.kind, info.value.offset) == (kind, offset)


def test_lenient_applies_every_action():
    # stray (dropped), CAPITALIZE(0) kept, unknown opcode dropped, then text.
    assert decode("\ue000\ue100\ue000\ue10eabc", errors="replace") == "Abc"
    # a truncated CAPITALIZE before a good one: the good one still applies
    assert decode("\ue100\ue100\ue001ab", errors="replace") == "aB"


def test_hostile_stacked_repeats_stop_at_max_output():
    # 10,000 code points of MULTIREPEAT(0,255,255) over 255 slots: each one adds 64,770 copies,
    # about 160 million in all, which max_output (2**26 by default) cuts short.
    stream = "\ue201\ue000\ue0ff\ue0ff" * 2500 + "x" * 255
    with pytest.raises(FormatError) as info:
        decode(stream)
    assert info.value.kind == "output-too-large"
    out = decode(stream, errors="replace", max_output=1_000_000)
    assert 900_000 < len(out) <= 1_000_000 and set(out) == {"x"}


def test_repeats_past_slot_255_keep_their_order():
    # REPEAT(1,255) pushes b's past slot 255, then MULTIREPEAT(0,2,2) copies slots 0 and 1.
    assert decode("\ue200\ue001\ue0ff\ue201\ue000\ue002\ue002abc") == "ab" * 2 + "b" * 254 + "c"


def test_marks_outside_the_table_render_literally():
    assert decode("\ue102\ue000q") == "q\u0301"                        # ACUTE on q
    assert decode("\ue102\ue000\ue105\ue000u") == "u\u0301\u0308"      # non-canonical order: no composition
    assert decode("\ue105\ue000\ue102\ue000u") == "ǘ"
    assert decode("\ue102\ue000\uefff\ue000") == "\ue000\u0301"        # a mark on an escaped slot


# --- the lenient decoder's guarantees ------------------------------------------------------

ESCAPED = "\ueabc"  # the one private-use code point the soup below writes only escaped
soup_atoms = st.one_of(
    st.integers(0xE000, 0xE0FF).map(chr),
    st.sampled_from(["\ue100", "\ue101", "\ue10d", "\ue10e", "\ue110", "\ue111", "\ue200", "\ue201",
                     "\ue300", "\ueffe"]),
    st.sampled_from(["a", "B", ",", " ", "\n", "\u0301", "\ud800", "\uefff" + ESCAPED, "\uefff" + "x"]),
)
soup = st.lists(soup_atoms, max_size=40).map("".join)


@given(soup, st.one_of(st.none(), st.integers(0, 300)))
def test_lenient_never_raises_and_leaks_no_instruction(stream, max_output):
    limits = {} if max_output is None else {"max_output": max_output}
    out = decode(stream, errors="replace", **limits)
    leaked = {c for c in out if 0xE000 <= ord(c) <= 0xEFFF} - {ESCAPED}
    assert not leaked
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in out)


@given(st.text(max_size=40))
def test_lenient_never_raises_on_any_string(stream):
    decode(stream, errors="replace")


@given(soup)
def test_strict_raises_exactly_when_lenient_acted(stream):
    try:
        strict = decode(stream)
    except FormatError as error:
        assert error.kind in ERROR_KINDS
        assert 0 <= error.offset < len(stream)
    else:
        assert strict == decode(stream, errors="replace")


# --- the fast paths agree with the careful decoder -----------------------------------------

fast_atoms = st.one_of(
    st.sampled_from(["\ue100", "\ue102", "\ue10d", "\ue110", "\ue200", "\ue201", "\ue10e"]),
    st.integers(0xE000, 0xE00C).map(chr),          # small arguments, so positions often fit
    st.sampled_from(["a", "B", "é", " ", "\n", "xyzxyzxyzxyz", "q" * 20]),
    # groups that reach past the 12 code points the fastest path keeps with them
    st.sampled_from(["\ue100\ue00e", "\ue102\ue00d", "\ue200\ue00d\ue003", "\ue201\ue00c\ue00f\ue002",
                     "\ue110\ue002\ue00f"]),  # UPPERCASE(2, 15)
)


@given(st.lists(fast_atoms, max_size=30).map("".join), st.integers(0, 400))
def test_fast_path_equals_the_careful_decoder(stream, max_output):
    """Where the fast path answers, it gives exactly what the careful decoder gives error-free."""
    import importlib
    d = importlib.import_module("functok.decoding")
    fast = importlib.import_module("functok.decoding_cache")
    found: list[FormatError] = []
    careful = d._Decoder(stream, max_output, found).run()
    out = fast._decode_cached(stream, max_output)
    if out is not None:
        assert not found and out == careful
