"""The command line: inputs, chunked processing equal to whole-text processing, bad input."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import decode, encode
from functok.chunks import InputError, read_utf8, stream_chunks, text_chunks
from functok.cli import escape_private_use, main, unescape

from conftest import blocks_of, read_text_or_none, stdlib_sources


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "functok.cli", *args], input=stdin,
                          capture_output=True, timeout=300)


def test_encode_argument_and_escape(capsys):
    assert main(["encode", "--escape", "Héllo"]) == 0
    assert capsys.readouterr().out == "\\ue102\\ue001\\ue100\\ue000hello"


def test_encode_and_inspect_take_a_profile(capsys):
    assert encode("HELLO   x", profile="compact") != encode("HELLO   x")  # so the option shows
    assert main(["encode", "--escape", "--profile", "compact", "HELLO   x"]) == 0
    assert capsys.readouterr().out == escape_private_use(encode("HELLO   x", profile="compact"))
    assert main(["inspect", "--profile", "compact", "MAX_SIZE"]) == 0
    shown = capsys.readouterr().out
    assert "profile=compact" in shown and "UPPERCASE(0,3)" in shown and "round trip: exact" in shown
    with pytest.raises(SystemExit) as exit:
        main(["encode", "--profile", "tiny", "x"])
    assert exit.value.code == 2


def test_encode_and_decode_through_stdin():
    text = "Ünïcödé, ÇA VA? Sooooo good!!!\n\tdef f(): pass\n"
    encoded = run_cli("encode", stdin=text.encode())
    assert encoded.returncode == 0, encoded.stderr
    assert encoded.stdout.decode() == encode(text)
    decoded = run_cli("decode", stdin=encoded.stdout)
    assert decoded.returncode == 0 and decoded.stdout.decode() == text


def test_decode_unescape(capsys):
    assert main(["decode", "--unescape", "\\ue100\\ue000hello"]) == 0
    assert capsys.readouterr().out == "Hello"
    assert unescape(escape_private_use("a\ue000\U000f0001b")) == "a\ue000\U000f0001b"


def test_inspect_default_sample_round_trips():
    result = run_cli("inspect")
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "ACUTE(1) CAPITALIZE(0)" in out and "round trip: exact" in out


def test_invalid_utf8_names_the_byte_offset(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes("héllo ".encode() + b"\xff rest")
    result = run_cli("encode", "-f", str(bad))
    assert result.returncode != 0
    assert result.stderr.decode().strip() == f"functok: {bad}: invalid UTF-8 at byte 7 (b'\\xff re')"


def test_invalid_utf8_offset_across_blocks():
    data = ("é" * 10).encode() + b"\xc3(" + b"tail"  # a broken sequence at byte 20
    with pytest.raises(InputError, match="at byte 20"):
        list(read_utf8(io.BytesIO(data), "x", chunk_bytes=3))


def test_truncated_utf8_at_the_end():
    with pytest.raises(InputError, match="at byte 3"):
        list(read_utf8(io.BytesIO(b"abc\xe2\x82"), "x", chunk_bytes=2))


def test_missing_file():
    result = run_cli("encode", "-f", "/nonexistent/file.txt")
    assert result.returncode != 0 and b"cannot read" in result.stderr


def test_malformed_stream_names_kind_and_offset():
    result = run_cli("decode", stdin="ab\ue000cd".encode())
    assert result.returncode != 0
    assert result.stderr.decode().startswith("functok: stray-argument at code point 2:")
    lenient = run_cli("decode", "--errors", "replace", stdin="ab\ue000cd".encode())
    assert lenient.returncode == 0 and lenient.stdout.decode() == "abcd"


# --- chunking ------------------------------------------------------------------------------



sample_text = st.lists(st.sampled_from(list("ab AB\n\t.é\u0301'Ss1") + ["\ue000", "ǅ", "  ", "\n\n", "Sss"]), max_size=150).map("".join)


@given(sample_text, st.lists(st.integers(1, 40), max_size=30), st.sampled_from([None, "nfc"]))
def test_text_chunks_encode_like_the_whole(text, sizes, normalize):
    chunked = "".join(encode(chunk, normalize=normalize) for _, chunk in text_chunks(blocks_of(text, sizes)))
    assert chunked == encode(text, normalize=normalize)


@given(sample_text, st.lists(st.integers(1, 40), max_size=30))
def test_stream_chunks_decode_like_the_whole(text, sizes):
    stream = encode(text, normalize=None)
    chunks = list(stream_chunks(blocks_of(stream, sizes)))
    assert "".join(c for _, c in chunks) == stream
    assert "".join(decode(c) for _, c in chunks) == text
    assert all(stream[offset:offset + len(c)] == c for offset, c in chunks)


def _encode_file_peak(path, out_path) -> int:
    """Run `functok encode -f path > out_path` in a child; return its peak RSS in bytes."""
    report_peak = ("import resource, sys; from functok.cli import main; rc = main(sys.argv[1:]); "
                   "sys.stderr.write(f'peak={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}'); "
                   "sys.exit(rc)")
    with open(out_path, "wb") as sink:
        result = subprocess.run([sys.executable, "-c", report_peak, "encode", "-f", str(path)],
                                stdout=sink, stderr=subprocess.PIPE, timeout=600)
    assert result.returncode == 0, result.stderr
    return int(result.stderr.decode().rpartition("peak=")[2]) * 1024


def test_large_file_memory_stays_flat(tmp_path):
    """Encoding a ~40 MB file peaks at about the same memory as a ~3 MB one."""
    corpus = "".join(filter(None, (read_text_or_none(p) for p in stdlib_sources()[:200])))
    small, big = tmp_path / "small.txt", tmp_path / "big.txt"
    small.write_text(corpus, encoding="utf-8")
    with open(big, "w", encoding="utf-8") as out:
        while out.tell() < 40_000_000:
            out.write(corpus)
    growth = os.path.getsize(big) - os.path.getsize(small)
    small_peak = _encode_file_peak(small, tmp_path / "small.stream")
    big_peak = _encode_file_peak(big, tmp_path / "big.stream")
    assert big_peak - small_peak < growth / 5, (small_peak, big_peak, growth)
    # and the output is the whole text's encoding
    assert (tmp_path / "big.stream").read_text(encoding="utf-8") == encode(big.read_text(encoding="utf-8"))


# The modules of the commands in functok.cli.COMMANDS, and what they may import.
COMMAND_MODULES = ("functok.commands", "functok.conformance")


def loaded_command_modules(code: str) -> list[str]:
    """The command modules in sys.modules after running ``code`` in a fresh interpreter."""
    check = (f"import sys\n{code}\n"
             f"print(sorted(m for m in sys.modules if m.startswith({COMMAND_MODULES!r})))")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])


def test_import_and_help_load_no_command_module():
    assert loaded_command_modules("import functok") == []
    help_run = ("from functok.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert loaded_command_modules(help_run) == []


def test_a_command_loads_only_its_own_module():
    run = ("from functok.cli import main\ntry:\n    main(['docs', '--help'])\nexcept SystemExit:\n    pass")
    assert loaded_command_modules(run) == ["functok.commands", "functok.commands.docs"]


def test_the_help_lines_of_commands_are_their_modules():
    import argparse

    from functok.cli import COMMANDS, build_parser

    for load in (None, []):  # the modules' own parsers, and the lines listed without them
        parser = build_parser(load=load)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {choice.dest: choice.help for choice in sub._choices_actions}
        assert {name: helps[name] for name in COMMANDS} == {n: c.help for n, c in COMMANDS.items()}
