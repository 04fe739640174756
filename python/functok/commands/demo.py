"""``functok demo``: serves the web demo on this machine with the standard library's server.

The page runs on functok for JavaScript (``js/src``, plain ES modules with no build step), so it
needs nothing from npm. Its files come from a checkout of the repository when there is one
(found above this module, in the current directory, or given with ``--root``), and otherwise
from the copy that ships inside this package, ``functok/data/web/``, which the package build
writes (setup.py runs ``web-demo/copy_to_package.py``; nothing of it is committed). An editable
install has no copy: the checkout above the module is found and served. Both have the same
layout: ``web-demo/``, ``js/src/`` and ``spec/opcodes.json``.

Two things are optional and never on the page's critical path:

- the check against the Python reference loads Pyodide from ``wasm/dist/`` (``npm run build``
  in a checkout, or ``--wasm DIR``); without it the page says how to build it;
- the demo tokenizer, ``/demo-tokenizer.json``: the bundle's copy, or else one trained here on
  first request (about 2 s, needs the ``train`` extra), on the standard library's source.

The server binds to 127.0.0.1 by default and serves nothing else; nothing in it or in the page
reaches outside the machine.

    functok demo [--port N] [--host H] [--root PATH] [--wasm DIR]
    python -m functok.commands.demo [--port N]          # the same, without the CLI
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import sysconfig
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from . import command_functions

# URL prefixes of the page's own files, relative to a root (a checkout or the packaged copy).
PAGE_PREFIXES = ("/web-demo/", "/js/src/", "/spec/opcodes.json")
WASM_PREFIX = "/wasm/dist/"
TOKENIZER_PATH = "/demo-tokenizer.json"
PAGE = "/web-demo/"
PACKAGED_ROOT = Path(__file__).resolve().parents[1] / "data" / "web"
# What to run for the Python reference, from a checkout (the page says the same).
BUILD_WASM = ".venv/bin/pip install '.[wasm]' && npm ci && npm run build"


def find_root(start: Path | None = None) -> Path | None:
    """The checkout holding web-demo/: above this module (editable install) or the cwd."""
    candidates = [Path(__file__).resolve().parent, Path.cwd().resolve()] if start is None else [start]
    for candidate in candidates:
        for folder in (candidate, *candidate.parents):
            if (folder / "web-demo" / "index.html").is_file() and (folder / "js" / "src").is_dir():
                return folder
    return None


def stdlib_texts(max_chars: int) -> list[str]:
    """The standard library's top-level modules in name order, up to max_chars code points:
    text every machine with Python has, with no download."""
    texts: list[str] = []
    total = 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text[: max_chars - total])
        total += len(texts[-1])
        if total >= max_chars:
            break
    return texts


def train_demo_tokenizer(vocab_size: int = 8000, max_chars: int = 2_000_000) -> str:
    """The demo tokenizer as the JSON text of a tokenizer file (Tokenizer.to_str), marked generated.

    Raises ImportError without the ``train`` extra.
    """
    from functok.tokenizer import Tokenizer  # imported late: only the tokenizer route needs it

    texts = stdlib_texts(max_chars)
    tokenizer = Tokenizer.train(iter(texts), vocab_size=vocab_size, show_progress=False)
    document = json.loads(tokenizer.to_str())
    # Generated files say so first; loaders read only the "functok" and "tokenizer" keys.
    return json.dumps({"generated_by": "functok.commands.demo.train_demo_tokenizer; do not edit", **document},
                      ensure_ascii=False)


class DemoTokenizer:
    """The demo tokenizer's bytes: the bundle's file, or trained once, on first request."""

    def __init__(self, wasm: Path | None) -> None:
        self.bundled = wasm / "demo-tokenizer.json" if wasm else None
        self.lock = threading.Lock()
        self.data: bytes | None = None
        self.missing: str | None = None

    def get(self) -> bytes | None:
        with self.lock:
            if self.data is None and self.missing is None:
                if self.bundled and self.bundled.is_file():
                    self.data = self.bundled.read_bytes()
                else:
                    try:
                        self.data = train_demo_tokenizer().encode("utf-8")
                    except ImportError as error:
                        self.missing = f"the demo tokenizer needs the train extra (pip install 'functok[train]'): {error}"
            return self.data


class DemoHandler(SimpleHTTPRequestHandler):
    """Serves the page's files from the root and the bundle from the wasm folder, with the MIME
    types ES modules and wasm need; anything else is a 404."""

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
    # Keep-alive, and every write sent at once: with Nagle's algorithm, a response written in two
    # parts (headers, then the file) waited ~40 ms for the browser's delayed ACK, per module.
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def __init__(self, *args: Any, root: Path, wasm: Path | None, tokenizer: DemoTokenizer, **kwargs: Any) -> None:
        self.root, self.wasm, self.tokenizer = root, wasm, tokenizer
        super().__init__(*args, directory=str(root), **kwargs)

    def do_GET(self) -> None:  # noqa: N802 - the http.server naming
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self.send_response(302)
            self.send_header("Location", PAGE)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif "/.." in path:
            self.send_error(404, "Not part of the demo")
        elif path == TOKENIZER_PATH:
            self.send_tokenizer()
        elif path.startswith(WASM_PREFIX) and self.wasm is not None:
            self.directory = str(self.wasm)
            self.path = "/" + self.path[len(WASM_PREFIX):]
            super().do_GET()
        elif path.startswith(PAGE_PREFIXES):
            super().do_GET()
        else:
            self.send_error(404, "Not part of the demo")

    def send_tokenizer(self) -> None:
        data = self.tokenizer.get()
        if data is None:
            self.send_error(404, self.tokenizer.missing)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def list_directory(self, path: Any) -> None:
        # A folder without index.html is not part of the page.
        self.send_error(404, "Not part of the demo")

    def end_headers(self) -> None:
        # The page and the bundle change with every build; never serve a stale copy.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


class DemoServer(ThreadingHTTPServer):
    """A browser closing a kept-alive connection is ordinary, not an error worth a traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 8000, *, wasm: Path | None = None,
                verbose: bool = False) -> ThreadingHTTPServer:
    """A server for the page under ``root`` and, when given, the Pyodide bundle in ``wasm``."""
    handler = functools.partial(DemoHandler, root=root, wasm=wasm, tokenizer=DemoTokenizer(wasm))
    server = DemoServer((host, port), handler)
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def choose_folders(args: argparse.Namespace) -> tuple[Path, Path | None]:
    """The root of the page's files and the bundle folder (None when there is none)."""
    root = Path(args.root).resolve() if args.root else (find_root() or PACKAGED_ROOT)
    wasm = Path(args.wasm).resolve() if args.wasm else root / "wasm" / "dist"
    return root, wasm if (wasm / "bundle.json").is_file() else None


def run(args: argparse.Namespace) -> int:
    root, wasm = choose_folders(args)
    if not (root / "web-demo" / "index.html").is_file():
        print(f"functok demo: {root} has no web-demo/index.html; pass a checkout of functok with --root",
              file=sys.stderr)
        return 2
    if args.wasm and wasm is None:
        print(f"functok demo: {args.wasm} has no bundle.json; build it with `{BUILD_WASM}` in a checkout",
              file=sys.stderr)
        return 2
    server = make_server(root, args.host, args.port, wasm=wasm, verbose=args.verbose)
    host, port = server.server_address[:2]
    print(f"functok demo: http://{host}:{port}{PAGE}  (serving {root}; Ctrl-C stops)", flush=True)
    if wasm is None:
        print("functok demo: no Pyodide bundle, so the check against the Python reference is off; "
              f"to enable it, run `{BUILD_WASM}` in a checkout of functok", flush=True)
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
    parser.add_argument("--root", help="where the page's files are: a checkout (default: found automatically, "
                                       "else the copy inside the package)")
    parser.add_argument("--wasm", help="the Pyodide bundle for the Python reference check "
                                       "(default: ROOT/wasm/dist, when built)")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    parser.set_defaults(func=run)


add_command, main = command_functions(
    "demo", configure, help="serve the web demo on this machine",
    description="Serve the web demo (and the Pyodide bundle, when built) locally.",
    alone="Serve the web demo locally.")


if __name__ == "__main__":
    sys.exit(main())
