"""Memory of functok.decode on hostile streams, as tracemalloc peaks.

What is measured: the traced peak of what one ``decode`` call allocates (the stream is built
before tracing starts, so it is not counted), against the size of its input plus its output.
Sizes are in bytes as CPython stores a string: its code points times 1, 2 or 4, as its widest
code point requires. The bound is 4x that sum: memory linear in what the call reads and writes,
whatever the stream holds. Most streams are 1M-2M code
points (long groups 64K): enough for a per-code-point cost to stand out above any fixed one.
"""

from __future__ import annotations

import tracemalloc

import pytest

from functok import FormatError, decode, encode
from functok.decoding_cache import clear_caches

N = 1 << 20


def stored_size(text: str) -> int:
    """Bytes of the string's code points as CPython stores them (1, 2 or 4 each)."""
    widest = ord(max(text)) if text else 0
    return len(text) * (1 if widest < 0x100 else 2 if widest < 0x10000 else 4)


def traced_peak(stream: str, **options) -> tuple[int, str]:
    """(peak bytes allocated during decode, its output; "" where it raised FormatError)."""
    clear_caches()  # a cold start: the caches' entries count as well
    tracemalloc.start()
    try:
        out = decode(stream, **options)
    except FormatError:
        out = ""
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak, out


# (name, stream, decode options, expected output or None where strict decoding raises)
HOSTILE = [
    # item 1: the careful path (an escape, a surrogate, an error, or a repeat past max_output)
    ("escape-then-text", "\uefff\ue000" + "lorem ipsum " * (N // 6), {}, "\ue000" + "lorem ipsum " * (N // 6)),
    ("repeat-over-max-output", "\ue200\ue000\ue003" + "a" * (2 * N), {"max_output": 2 * N}, None),
    ("lenient-over-max-output", "\ue200\ue000\ue003" + "a" * (2 * N), {"max_output": 2 * N, "errors": "replace"},
     "a" * (2 * N)),
    ("lenient-surrogates", "a\ud800" * (N // 2), {"errors": "replace"}, "a\ufffd" * (N // 2)),
    # item 2: an error object per bad code point
    ("lenient-stray-arguments", "\ue000" * N + "a", {"errors": "replace"}, "a"),
    ("strict-stray-arguments", "\ue000" * N + "a", {}, None),
    ("lenient-unknown-opcodes", "\ue300" * N + "a", {"errors": "replace"}, "a"),
    # item 3: a text holding an escape, split into one string per code point
    ("group-escape-cjk", "\ue100\ue000\uefff\ue000" + "\u4e2d" * (2 * N), {}, "\ue000" + "\u4e2d" * (2 * N)),
    # one long group: its instructions are read one at a time (smaller: tracing slows them)
    ("long-group-of-capitalize", "\ue100\ue000" * (N // 32) + "a", {}, "A"),
    ("long-group-of-repeats", "\ue200\ue000\ue001" * (N // 48) + "a", {}, "a"),
    ("long-group-of-marks", "\ue102\ue000" * (N // 32) + "a", {}, "a" + "\u0301" * (N // 32)),
    # the fast path: the list of short units
    ("fast-path-short-units", encode("A " * (N // 2)), {}, "A " * (N // 2)),
]


@pytest.mark.parametrize("stream, options, expected", [case[1:] for case in HOSTILE],
                         ids=[case[0] for case in HOSTILE])
def test_peak_memory_is_within_4x_input_plus_output(stream, options, expected):
    peak, out = traced_peak(stream, **options)
    assert out == (expected or "")
    budget = 4 * (stored_size(stream) + stored_size(out))
    assert peak <= budget, f"peak {peak:,} bytes > 4 x (input + output) = {budget:,}"


def test_strict_stops_at_the_first_unit_with_an_error():
    # A stray argument at offset 0, then a million code points of well-formed units that hold
    # an escape (the careful path): strict decoding need not decode any of them.
    stream = "\ue000a" + "\ue100\ue000b\uefff\ue000" * (N // 5)
    peak, out = traced_peak(stream)
    assert out == ""
    assert peak <= stored_size(stream) // 16, f"peak {peak:,} bytes: the whole stream was decoded"
