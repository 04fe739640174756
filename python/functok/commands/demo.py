"""``functok demo``: serves the web demo and the wasm bundle with the standard library's server.

The page (``web-demo/``) runs functok itself in the browser through Pyodide, from the bundle that
``npm ci && npm run build`` writes to ``wasm/dist/``.  The server binds to 127.0.0.1 by default
and serves only the files the page needs, from a checkout of the repository; nothing in it or
in the page reaches outside the machine.

    functok demo [--port N] [--host H] [--root PATH]
    python -m functok.commands.demo [--port N]          # the same, without the CLI
"""

from __future__ import annotations

import argparse
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Sequence

from . import run_alone

# URL prefixes the page uses, relative to the repository root; anything else is a 404.
SERVED_PREFIXES = ("/web-demo/", "/wasm/dist/", "/spec/opcodes.json")
PAGE = "/web-demo/"


def find_root(start: Path | None = None) -> Path | None:
    """The checkout holding web-demo/: above this module (editable install) or the cwd."""
    candidates = [Path(__file__).resolve().parent, Path.cwd().resolve()] if start is None else [start]
    for candidate in candidates:
        for folder in (candidate, *candidate.parents):
            if (folder / "web-demo" / "index.html").is_file():
                return folder
    return None


class DemoHandler(SimpleHTTPRequestHandler):
    """Serves SERVED_PREFIXES from the root, with the MIME types ES modules and wasm need."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".py": "text/plain; charset=utf-8",
    }

    def do_GET(self) -> None:  # noqa: N802 - the http.server naming
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self.send_response(302)
            self.send_header("Location", PAGE)
            self.end_headers()
            return
        if not path.startswith(SERVED_PREFIXES) or "/.." in path:
            self.send_error(404, "Not part of the demo")
            return
        super().do_GET()

    def end_headers(self) -> None:
        # The page and the bundle change with every build; never serve a stale copy.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 8000, *, verbose: bool = False) -> ThreadingHTTPServer:
    handler = functools.partial(DemoHandler, directory=str(root))
    server = ThreadingHTTPServer((host, port), handler)
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve() if args.root else find_root()
    if root is None or not (root / "web-demo" / "index.html").is_file():
        print("functok demo: cannot find web-demo/; run it from a checkout or pass --root", file=sys.stderr)
        return 2
    if not (root / "wasm" / "dist" / "functok.mjs").is_file():
        print(f"functok demo: {root / 'wasm' / 'dist'} is not built; run `npm ci && npm run build` in {root}",
              file=sys.stderr)
        return 2
    server = make_server(root, args.host, args.port, verbose=args.verbose)
    host, port = server.server_address[:2]
    print(f"functok demo: http://{host}:{port}{PAGE}  (serving {root}; Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    parser.add_argument("--root", help="the repository checkout to serve (default: found automatically)")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    parser.set_defaults(func=run)


def add_command(subparsers: Any) -> None:
    configure(subparsers.add_parser("demo", help="serve the web demo on this machine",
                                    description="Serve the web demo and the wasm bundle locally."))


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("functok demo", "Serve the web demo locally.", configure, argv)


if __name__ == "__main__":
    sys.exit(main())
