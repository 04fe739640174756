"""``functok docs``: preview the documentation site, or build it, from a checkout.

    functok docs [--port N]          # mkdocs serve on 127.0.0.1, rebuilding on every change
    functok docs --build [DIR]       # mkdocs build --strict into DIR (default: site/)

Both run MkDocs from the checkout's root (where ``mkdocs.yml`` is) with ``NO_MKDOCS_2_WARNING=1``,
which silences the compatibility banner mkdocs-material prints otherwise. They need the ``dev``
extras (``pip install -e '.[dev]'``): MkDocs is not a runtime dependency of functok.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

EXIT_NOT_AVAILABLE = 2


def find_root() -> Path | None:
    """The checkout holding mkdocs.yml: the one this module is in, else the working directory's."""
    for start in (Path(__file__).resolve().parent, Path.cwd().resolve()):
        for folder in (start, *start.parents):
            if (folder / "mkdocs.yml").is_file() and (folder / "docs").is_dir():
                return folder
    return None


def mkdocs_command(args: argparse.Namespace) -> list[str]:
    command = [sys.executable, "-m", "mkdocs"]
    if args.build is not None:
        return command + ["build", "--strict", "--site-dir", str(Path(args.build).resolve())]
    return command + ["serve", "--dev-addr", f"127.0.0.1:{args.port}"]


def run(args: argparse.Namespace) -> int:
    root = find_root()
    if root is None:
        print("functok docs: no mkdocs.yml found; run it from a checkout of functok", file=sys.stderr)
        return EXIT_NOT_AVAILABLE
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        print("functok docs: MkDocs is not installed; pip install -e '.[dev]'", file=sys.stderr)
        return EXIT_NOT_AVAILABLE
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = mkdocs_command(args)
    if os.name == "posix":  # become mkdocs, so that a signal to this process reaches the server
        os.chdir(root)
        os.execve(sys.executable, command, env)
    try:
        return subprocess.call(command, cwd=root, env=env)
    except KeyboardInterrupt:
        return 0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8000, help="port of the preview (default: 8000)")
    parser.add_argument("--build", nargs="?", const="site", default=None, metavar="DIR",
                        help="build the site into DIR (default: site/) with --strict instead of serving it")
    parser.set_defaults(func=run)


def add_command(subparsers) -> None:
    configure(subparsers.add_parser(
        "docs", help="preview the documentation site (mkdocs serve), or build it with --build",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter))
