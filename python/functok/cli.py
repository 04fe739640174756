"""The ``functok`` command line: ``encode``, ``decode`` and ``inspect`` here; the other
subcommands live in their own modules (:mod:`functok.commands`, :mod:`functok.conformance.cli`),
listed in :data:`COMMANDS` and imported only when they run.

Input comes from arguments, files or stdin; files and stdin are read as strict UTF-8 in chunks
cut at safe piece boundaries (:mod:`functok.chunks`), so memory stays flat on large files and
the output equals that of processing the whole text at once. Bad input gets one line on stderr
and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from importlib import resources
from typing import Collection, Iterator, NamedTuple

from . import SPEC_VERSION, __version__
from .chunks import InputError, read_utf8, stream_chunks, text_chunks
from .decoding import DEFAULT_MAX_OUTPUT
from .encoding import DEFAULT_PROFILE, PROFILES, pieces
from .engine import backend, decode, encode
from .errors import FormatError
from .grammar import SURROGATE_FIRST, SURROGATE_LAST, has_repeat

class Command(NamedTuple):
    module: str  # adds the subcommand's parser with ``add_command(subparsers)``
    help: str  # the line ``functok --help`` shows; the module's own parser says the same


# Subcommands in modules of their own, which may need optional dependencies: a module is imported
# only when its command is run, so that ``import functok`` and ``functok --help`` load none.
COMMANDS: dict[str, Command] = {
    "demo": Command("functok.commands.demo", "serve the web demo on this machine"),
    "conformance": Command("functok.conformance.cli",
                           "run the conformance vectors against functok or another program"),
    "conformance-server": Command("functok.conformance.cli",
                                  "answer conformance protocol requests on stdin/stdout"),
    "tsr": Command("functok.commands.tsr", "token saving rate of optimal segmentation over greedy BPE"),
    "compare": Command("functok.commands.compare.command",
                       "vocabulary at merge exhaustion and chars/token, baseline vs Functionalizer"),
    "docs": Command("functok.commands.docs",
                    "preview the documentation site (mkdocs serve), or build it with --build"),
    "train": Command("functok.commands.train",
                     "train a functok tokenizer on .txt/.jsonl(.gz), .parquet and .arrow files and folders"),
    "tokenize": Command("functok.commands.tokenize",
                        "tokenize a corpus into datatrove token shards, on all cores (needs functok[corpus])"),
}

EXIT_BAD_INPUT = 2


def escape_private_use(text: str) -> str:
    """Write private-use code points (and lone surrogates) as \\uXXXX so a terminal shows them."""
    return "".join(
        f"\\u{ord(c):04x}" if 0xE000 <= ord(c) <= 0xF8FF or SURROGATE_FIRST <= ord(c) <= SURROGATE_LAST
        else f"\\U{ord(c):08x}" if ord(c) >= 0xF0000 else c
        for c in text)


def unescape(text: str) -> str:
    """Turn \\uXXXX and \\UXXXXXXXX escapes back into code points (input to ``decode``)."""
    return re.sub(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})",
                  lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


def _sample() -> str:
    return resources.files("functok").joinpath("data/sample.txt").read_text(encoding="utf-8")


def _inputs(args: argparse.Namespace, *, default_sample: bool = False) -> Iterator[tuple[str, Iterator[str]]]:
    """(name, blocks of text) for each input: TEXT arguments, then --file paths ('-' is stdin)."""
    for text in args.text:
        yield "argument", iter([text])
    for path in args.file:
        if path == "-":
            yield "<stdin>", read_utf8(sys.stdin.buffer, "<stdin>")
        else:
            try:
                handle = open(path, "rb")
            except OSError as error:
                raise InputError(f"{path}: cannot read: {error.strerror}") from None
            yield path, _closing(handle, path)
    if not args.text and not args.file:
        if default_sample:
            yield "built-in sample", iter([_sample()])
        else:
            yield "<stdin>", read_utf8(sys.stdin.buffer, "<stdin>")


def _closing(handle, name: str) -> Iterator[str]:
    with handle:
        yield from read_utf8(handle, name)


def _write(text: str, args: argparse.Namespace) -> None:
    sys.stdout.write(escape_private_use(text) if args.escape else text)


# --- encode --------------------------------------------------------------------------------

def _cmd_encode(args: argparse.Namespace) -> int:
    for name, blocks in _inputs(args):
        for offset, chunk in text_chunks(blocks):
            try:
                _write(encode(chunk, normalize=args.normalize, splitter=args.splitter, profile=args.profile), args)
            except FormatError as error:
                raise FormatError(error.kind, error.offset + offset, f"{name}: {error.message}") from None
    return 0


# --- decode --------------------------------------------------------------------------------

def decode_blocks(blocks: Iterator[str], *, errors: str = "strict",
                  max_output: int | None = None) -> Iterator[str]:
    """Decode a stream given in blocks, chunk by chunk; yield each chunk's text.

    With ``max_output=None`` each chunk is one ``decode`` call with the default limit (2**26
    code points through repeats per chunk), so a large file is not stopped at 2**26 code points
    (spec 12.2). With a number, the limit counts the whole output as ``decode`` of the whole
    stream would: each chunk gets what the earlier chunks left. A :class:`FormatError` carries
    its offset in the whole stream.
    """
    whole_output = max_output is not None
    written = 0
    for offset, chunk in stream_chunks(blocks, past_repeats=not whole_output):
        limit = _chunk_limit(chunk, max_output - written) if whole_output else DEFAULT_MAX_OUTPUT
        try:
            text = decode(chunk, errors=errors, max_output=limit)
        except FormatError as error:
            message = error.message
            if error.kind == "output-too-large" and whole_output:  # not the chunk's own figures
                message = f"a repeat would take the output past max_output {max_output}"
            raise FormatError(error.kind, error.offset + offset, message) from None
        written += len(text)
        yield text


def _chunk_limit(chunk: str, remaining: int) -> int:
    """The limit for one chunk: what remains, or anything as large where no repeat can see it.

    Without a repeat a chunk never meets the limit, and at most one code point comes out per code
    point in; a limit that large keeps ``decode`` on its fast path once the budget is spent.
    """
    if has_repeat(chunk):
        return max(0, remaining)
    return max(remaining, len(chunk))


def _cmd_decode(args: argparse.Namespace) -> int:
    for name, blocks in _inputs(args):
        if args.unescape:
            blocks = iter([unescape("".join(blocks))])
        try:
            for text in decode_blocks(blocks, errors=args.errors, max_output=args.max_output):
                sys.stdout.write(text)
        except FormatError as error:
            raise FormatError(error.kind, error.offset, f"{name}: {error.message}") from None
    return 0


def _max_output(value: str) -> int:
    """``--max-output``: a non-negative integer, or a usage error (exit status 2)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {number}")
    return number


# --- inspect -------------------------------------------------------------------------------

def _show(text: str) -> str:
    return repr(escape_private_use(text))


def _cmd_inspect(args: argparse.Namespace) -> int:
    for name, blocks in _inputs(args, default_sample=True):
        print(f"# {name}: splitter={args.splitter} normalize={args.normalize} profile={args.profile} "
              f"(functok {__version__}, format {SPEC_VERSION})")
        print(f"{'offsets':>13}  {'piece':<22} {'instructions':<34} base")
        total_chars = total_stream = total_instr = 0
        exact = True
        for offset, chunk in text_chunks(blocks):
            found = pieces(chunk, normalize=args.normalize, splitter=args.splitter, profile=args.profile)
            for piece in found:
                ins = " ".join(map(str, piece.instructions))
                span = f"{piece.start + offset}-{piece.end + offset}"
                print(f"{span:>13}  {_show(piece.text):<22} {ins:<34} {_show(piece.base)}")
                total_instr += len(piece.instructions)
            stream = "".join(p.encoded for p in found)
            expected = "".join(p.text for p in found)
            exact = exact and decode(stream) == expected
            total_chars += len(expected)
            total_stream += len(stream)
        print(f"# {total_chars} code points -> stream of {total_stream} code points "
              f"with {total_instr} instructions; round trip: {'exact' if exact else 'FAILED'}")
        if not exact:
            return 1
    return 0


# --- wiring --------------------------------------------------------------------------------

def _add_input_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("text", nargs="*", help=f"{what} given on the command line")
    parser.add_argument("-f", "--file", action="append", default=[],
                        help="read from this file ('-' for stdin); may be repeated")


def normalization(value: str) -> str | None:
    """``--normalize``'s value as the codec takes it: ``"nfc"``, or ``"none"`` as None."""
    value = value.lower()
    if value not in ("nfc", "none"):
        raise argparse.ArgumentTypeError(f"invalid choice: {value!r} (choose from 'nfc', 'none')")
    return None if value == "none" else value


def _add_codec_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--splitter", choices=("llama3", "paper"), default="llama3")
    parser.add_argument("--normalize", type=normalization, default="nfc", metavar="{nfc,none}")
    parser.add_argument("--profile", choices=tuple(PROFILES), default=DEFAULT_PROFILE,
                        help=f"the encoder profile (spec 6.6; default: {DEFAULT_PROFILE}): paper is the "
                             f"1.0 encoder, compact leaves repeats literal and writes runs of "
                             f"capitals as UPPERCASE")


# What `functok --version` calls the path that runs (functok.backend()).
_PATH_NAMES = {"native": "C core", "wasm": "C core in WebAssembly", "pure": "pure Python"}


def build_parser(load: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand.

    ``load`` names the commands of :data:`COMMANDS` whose modules are imported to add their
    real parsers (None: all of them); every other one is listed by its name and help only.
    """
    parser = argparse.ArgumentParser(
        prog="functok", description="The Functionalizer format: a lossless text codec for tokenizers.")
    parser.add_argument("--version", action="version",
                        version=f"functok {__version__} (format {SPEC_VERSION}, {_PATH_NAMES[backend()]})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("encode", help="encode text to a stream")
    _add_input_options(p, "text")
    _add_codec_options(p)
    p.add_argument("--escape", action="store_true", help="print private-use code points as \\uXXXX")
    p.set_defaults(func=_cmd_encode)

    p = sub.add_parser("decode", help="decode a stream to text")
    _add_input_options(p, "stream")
    p.add_argument("--errors", choices=("strict", "replace"), default="strict")
    p.add_argument("--max-output", type=_max_output, default=None, metavar="N",
                   help="stop repeats from taking the output of an input past N code points, "
                        "counted over the whole output as functok.decode(max_output=N) does; "
                        "without this option the limit is 2**26 per chunk (chunks of about "
                        "1 MB), so a large file is never stopped for its length")
    p.add_argument("--unescape", action="store_true", help="read \\uXXXX escapes in the input")
    p.set_defaults(func=_cmd_decode)

    p = sub.add_parser("inspect", help="show each piece's instructions and base, and the round trip "
                                       "(with no input: a built-in multilingual sample)")
    _add_input_options(p, "text")
    _add_codec_options(p)
    p.set_defaults(func=_cmd_inspect)

    _add_commands(sub, COMMANDS if load is None else load)
    return parser


def _add_commands(sub, load: Collection[str]) -> None:
    """Add the subcommands of :data:`COMMANDS`: those in ``load`` from their modules (each module
    once, with all its commands), the others as a name and a help line."""
    modules = {COMMANDS[name].module for name in load if name in COMMANDS}
    added: set[str] = set()
    for name, command in COMMANDS.items():  # in this order, as ``functok --help`` lists them
        if command.module not in modules:
            sub.add_parser(name, help=command.help)
        elif command.module not in added:
            importlib.import_module(command.module).add_command(sub)
            added.add(command.module)


def _command_of(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs: its first word that is no option (the top-level options,
    ``--help`` and ``--version``, take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # the stream is UTF-8 whatever the locale says
            stream.reconfigure(encoding="utf-8")
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(load=[command] if (command := _command_of(argv)) else [])
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return args.func(args)
    except InputError as error:
        print(f"functok: {error}", file=sys.stderr)
    except FormatError as error:
        print(f"functok: {error.kind} at code point {error.offset}: {error.message}", file=sys.stderr)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
