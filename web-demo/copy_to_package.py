"""Copies the web demo's page and functok for JavaScript into a built Python package.

    python web-demo/copy_to_package.py DIR          # write the page's files into DIR
    python web-demo/copy_to_package.py --check DIR  # exit 1, naming the files, if DIR's copy is stale

`functok demo` must work right after `pip install`, with nothing from npm, so the page's files
ship inside the package as ``functok/data/web/``: web-demo's page, js/src's modules (plain ES
modules, no build step) and spec/opcodes.json, in the same layout as the checkout, so the page's
relative imports work in both. Nothing is committed: the package build writes the copy
(setup.py's ``build_py`` calls :func:`write` on the build folder), every way of building finds
the sources beside setup.py (a checkout; an sdist, whose MANIFEST.in lists them; wasm/build.mjs's
copy of the sources), and an editable install serves the checkout itself. The tests install a
wheel and an sdist and run ``--check`` on the installed copy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FOLDER = ("functok", "data", "web")  # where the copy goes in a built package
# Folder (relative to the root) -> the patterns of its files that the page needs.
SOURCES = {
    "web-demo": ("index.html", "demo.css", "*.mjs"),
    # The tokenizer lives in js/src/tokenizer/. js/src/engine/wasm-module.mjs, the C core that
    # `npm run build` generates (git-ignored), is copied where it is built, and the packaged page
    # then runs on the wasm engine; where it is not, the page runs on the JS reference.
    "js/src": ("**/*.mjs",),
    "spec": ("opcodes.json",),
}
NOTE = "README.md"
NOTE_TEXT = """\
Built by web-demo/copy_to_package.py when the package was built; do not edit.

A copy of the web demo (web-demo/), functok for JavaScript (js/src/) and spec/opcodes.json, in
the checkout's layout, so that `functok demo` serves the page from an installed package.
"""


def sources(root: Path = ROOT) -> list[Path]:
    """The files the copy is made of, under ``root``: what an sdist must carry (setup.py adds
    them, and this script, to it). A missing source folder is an error: a package without the
    page would break `functok demo`."""
    files = []
    for folder, patterns in SOURCES.items():
        if not (root / folder).is_dir():
            raise FileNotFoundError(f"{root / folder} is missing: the web demo's files are built into the "
                                    f"package from web-demo/, js/src/ and spec/opcodes.json beside setup.py")
        for pattern in patterns:
            files += sorted((root / folder).glob(pattern))
    return files


def wanted(root: Path = ROOT) -> dict[str, bytes]:
    """Every file of the copy, by its path under the target, with the bytes it must have."""
    files = {NOTE: NOTE_TEXT.encode("utf-8")}
    files.update((path.relative_to(root).as_posix(), path.read_bytes()) for path in sources(root))
    return files


def present(target: Path) -> dict[str, bytes]:
    if not target.is_dir():
        return {}
    return {path.relative_to(target).as_posix(): path.read_bytes()
            for path in sorted(target.rglob("*")) if path.is_file() and "__pycache__" not in path.parts}


def stale(target: Path, root: Path = ROOT) -> list[str]:
    """What differs between the copy in ``target`` and the sources: missing, changed or extra files."""
    want, have = wanted(root), present(target)
    problems = [f"missing {name}" for name in want if name not in have]
    problems += [f"changed {name}" for name in want if name in have and have[name] != want[name]]
    problems += [f"extra {name}" for name in have if name not in want]
    return problems


def write(target: Path, root: Path = ROOT) -> list[Path]:
    """Make ``target`` hold exactly the copy; returns the paths of its files."""
    want = wanted(root)
    for name in present(target):
        if name not in want:
            (target / name).unlink()
    for name, data in want.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
    return [target / name for name in want]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path, help="the folder of the copy (functok/data/web/ of a build or an install)")
    parser.add_argument("--check", action="store_true", help="only check that the copy is fresh")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale(args.target)
        for problem in problems:
            print(f"{args.target}: {problem}", file=sys.stderr)
        return 1 if problems else 0
    print(f"{args.target}: {len(write(args.target))} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
