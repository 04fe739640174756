"""`functok conformance` (the runner) and `functok conformance-server` (the reference over the protocol)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

EXIT_FAILURES = 1
EXIT_CANNOT_RUN = 2


def add_command(subparsers) -> None:
    runner = subparsers.add_parser(
        "conformance", help="run the conformance vectors against functok or another program",
        description="Run conformance/vectors against the in-process reference (default) or a program "
                    "that speaks the protocol of conformance/PROTOCOL.md.")
    add_runner_arguments(runner)
    runner.set_defaults(func=run_command)
    server = subparsers.add_parser(
        "conformance-server", help="answer conformance protocol requests on stdin/stdout",
        description="The reference implementation as a conformance protocol program (JSON lines). "
                    "It runs on the C core where that is built (the handshake names the core), "
                    "on the pure-Python reference under FUNCTOK_PURE=1.")
    server.add_argument("--require-native", action="store_true",
                        help="exit 2 unless the C core runs, so that a run meant for it cannot check the pure path")
    server.set_defaults(func=serve_command)


def add_runner_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--command", metavar="PROGRAM",
                        help='the implementation to check, e.g. "node my-adapter.js" (default: in-process functok)')
    parser.add_argument("--vectors", metavar="DIR", type=Path,
                        help="directory of vector files (default: the checkout's conformance/vectors)")
    parser.add_argument("--run", metavar="GLOB", action="append",
                        help="run only vectors whose id matches (repeatable), e.g. 'err-*'")
    parser.add_argument("--skip", metavar="GLOB", action="append",
                        help="report vectors whose id matches as skipped (repeatable)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=10.0,
                        help="per-vector time limit for --command (default 10)")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write a JSON report here")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every vector, not only failures")


def run_command(args: argparse.Namespace) -> int:
    from .runner import HandshakeError, run_suite
    from .transport import InProcessTransport, TransportFailure
    from .vectors import VectorsNotFound, load_suite

    try:
        suite = load_suite(args.vectors)
    except (VectorsNotFound, OSError, ValueError, KeyError) as error:
        print(f"functok conformance: {error}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    if args.command:
        from .transport import CommandTransport
        transport = CommandTransport(shlex.split(args.command))
    else:
        from .handler import handle
        transport = InProcessTransport(handle)
    try:
        report = run_suite(suite, transport, run=args.run, skip=args.skip, timeout=args.timeout,
                           emit=print, verbose=args.verbose)
    except (HandshakeError, TransportFailure) as error:
        print(f"functok conformance: {error}", file=sys.stderr)
        transport.close()
        return EXIT_CANNOT_RUN
    if args.json:
        args.json.write_text(json.dumps(report.to_json(), ensure_ascii=True, indent=1) + "\n", encoding="utf-8")
    print(report.summary())
    return 0 if report.ok else EXIT_FAILURES


def serve_command(args: argparse.Namespace) -> int:
    from ..engine import backend
    from .server import main
    if args.require_native and backend() != "native":
        print("functok conformance-server: --require-native, but the C core is not built or FUNCTOK_PURE=1 is set",
              file=sys.stderr)
        return EXIT_CANNOT_RUN
    return main()
