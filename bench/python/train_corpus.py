"""The training benchmark's corpus (``bench/python/train.py``), assembled reproducibly from package
sources, cached under ``.cache/train-corpus/`` (git-ignored).

    .venv/bin/python bench/python/train_corpus.py [--mb 400] [--stdlib-of PYTHON ...] [--out DIR]

It writes, in ``--out`` (default ``.cache/train-corpus/<mb>mb``):

* ``code.txt``: source files concatenated, each ending with a newline, in this order, until
  ``--mb`` MB of code (a file that would pass the mark is taken whole, the next ones are not):
  1. the standard library of the interpreter running the script (its ``.py`` files, sorted by
     path), then of each ``--stdlib-of`` interpreter, in the order given;
  2. the distributions installed beside it (``importlib.metadata``: in the dev venv, what
     ``pip install -e '.[dev]'`` installed), sorted by name, each one's files as its RECORD lists
     them, sorted by path, with a suffix of :data:`CODE_SUFFIXES` (Python, C, C++, Zig,
     JavaScript: ``ziglang`` ships libc's headers and Zig's standard library).
  Files that are not UTF-8 are passed over (and counted).
* ``udhr.txt``: the Universal Declaration of Human Rights in every language of the folder
  :data:`UDHR` names (``FUNCTOK_UDHR`` overrides it), files sorted by name: the multilingual text.
* ``manifest.json``: every source (interpreter versions, distribution names and versions), its
  files and bytes, and each output file's SHA-256, so that a second run, or another machine with
  the same versions installed, can check it built the same text.

The same interpreters and distribution versions give the same bytes. A corpus already built with
the same options is reused (its manifest says so).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "train-corpus"
# The UDHR's plain-text files, one language each; another task vendors them into the repository.
UDHR = Path(os.environ.get("FUNCTOK_UDHR", REPO.parent / "shared" / "corpora" / "udhr"))
CODE_SUFFIXES = (".py", ".pyi", ".c", ".h", ".cc", ".cpp", ".zig", ".js")
STDLIB_SUFFIXES = (".py",)


def stdlib_of(python: str) -> tuple[str, Path]:
    """The version and standard library folder of an interpreter."""
    out = subprocess.run([python, "-c", "import platform, sysconfig; print(platform.python_implementation(), "
                          "platform.python_version()); print(sysconfig.get_paths()['stdlib'])"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return out[0], Path(out[1])


def stdlib_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in STDLIB_SUFFIXES and p.is_file()
                  and "site-packages" not in p.relative_to(root).parts and "dist-packages" not in p.parts)


def distributions() -> list[tuple[str, str, list[Path]]]:
    """(name, version, code files) of each distribution installed beside this interpreter."""
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if not name or name.lower() in found:
            continue
        files = sorted(Path(dist.locate_file(f)) for f in dist.files or () if Path(str(f)).suffix in CODE_SUFFIXES)
        found[name.lower()] = (name, dist.version, [f for f in files if f.is_file()])
    return [found[k] for k in sorted(found)]


def sources(extra_pythons: list[str]) -> list[tuple[str, list[Path]]]:
    """Each source, named with its version, and its files, in the corpus's order."""
    out = []
    for python in [sys.executable, *extra_pythons]:
        version, root = stdlib_of(python)
        out.append((f"{version} standard library", stdlib_files(root)))
    out.extend((f"{name} {version}", files) for name, version, files in distributions())
    return out


def write_code(path: Path, limit: int, extra_pythons: list[str]) -> list[dict]:
    """Writes code.txt; the manifest's list of sources."""
    listed, size = [], 0
    with open(path, "wb") as out:
        for name, files in sources(extra_pythons):
            if size >= limit:
                break
            taken = skipped = written = 0
            for f in files:
                if size >= limit:
                    break
                data = f.read_bytes()
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    skipped += 1
                    continue
                if not data.endswith(b"\n"):
                    data += b"\n"
                out.write(data)
                taken += 1
                written += len(data)
                size += len(data)
            if taken:
                listed.append({"source": name, "files": taken, "not_utf8": skipped, "bytes": written})
    return listed


def write_udhr(path: Path) -> int:
    files = sorted(UDHR.glob("*.txt"))
    if not files:
        raise SystemExit(f"no UDHR text at {UDHR} (set FUNCTOK_UDHR to its folder)")
    with open(path, "wb") as out:
        for f in files:
            data = f.read_bytes()
            out.write(data if data.endswith(b"\n") else data + b"\n")
    return len(files)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build(mb: float, extra_pythons: list[str], out: Path | None = None) -> Path:
    """The corpus folder, built unless a build with the same options is there."""
    out = out or CACHE / f"{mb:g}mb"
    options = {"mb": mb, "stdlib_of": extra_pythons, "code_suffixes": CODE_SUFFIXES}
    manifest_path = out / "manifest.json"
    if manifest_path.is_file() and json.loads(manifest_path.read_text()).get("options") == options:
        return out
    out.mkdir(parents=True, exist_ok=True)
    code = write_code(out / "code.txt", int(mb * 1e6), extra_pythons)
    languages = write_udhr(out / "udhr.txt")
    manifest = {"generator": "bench/python/train_corpus.py", "options": options, "code": code,
                "udhr_languages": languages,
                "files": {name: {"bytes": (out / name).stat().st_size, "sha256": sha256(out / name)}
                          for name in ("code.txt", "udhr.txt")}}
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=400.0, help="MB of code (default 400; the UDHR comes on top)")
    parser.add_argument("--stdlib-of", action="append", default=[], metavar="PYTHON",
                        help="another interpreter whose standard library comes next (repeatable)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = build(args.mb, args.stdlib_of, args.out)
    manifest = json.loads((out / "manifest.json").read_text())
    total = sum(f["bytes"] for f in manifest["files"].values())
    print(f"{out}: {total / 1e6:.1f} MB ({manifest['files']['code.txt']['bytes'] / 1e6:.1f} MB of code from "
          f"{len(manifest['code'])} sources, UDHR in {manifest['udhr_languages']} languages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
