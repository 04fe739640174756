#!/usr/bin/env python3
"""Writes every file derived from spec/: the Unicode tables and the opcode constants.

    python spec/tools/generate.py                  write them
    python spec/tools/generate.py --check          exit 1, naming each, if any is stale
    python spec/tools/generate.py --out-dir DIR    write them under DIR instead

From the pinned Unicode data (unicodedata2 and regex, see unicode_tables.py) and
spec/opcodes.json it makes:

* spec/unicode/*.txt, the normative tables, and python/functok/_ucd_data.py (unicode_tables.py);
* native/core/ucd_tables.h from the text tables (c_tables.py);
* js/src/tables.mjs from the text tables and spec/opcodes.json (js_tables.py);
* python/functok/_opcodes.py, native/core/opcodes.h and js/src/opcodes.mjs (opcode_constants.py).

Each file says in its first line that it is generated, by this script. tests/docs/test_generated.py
runs ``--out-dir`` into a temporary folder and compares every file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import c_tables
import js_tables
import opcode_constants
import unicode_tables

GENERATOR = "spec/tools/generate.py"
REPO = Path(__file__).resolve().parents[2]
OPCODES_JSON = REPO / "spec" / "opcodes.json"


def generate() -> dict[Path, str]:
    """Every generated file's text, by its path relative to the repository."""
    opcodes = json.loads(OPCODES_JSON.read_text(encoding="utf-8"))
    files = unicode_tables.generate()
    tables = {path.name: text for path, text in files.items() if path.parent == unicode_tables.TABLE_DIR}
    marks = unicode_tables.the_13_marks(OPCODES_JSON)
    files[c_tables.HEADER] = c_tables.ucd_tables_h(tables, marks, GENERATOR)
    files[js_tables.MODULE] = js_tables.tables_mjs(tables, opcodes, GENERATOR)
    files.update(opcode_constants.generate(opcodes, GENERATOR))
    return files


def stale(files: dict[Path, str], root: Path) -> list[Path]:
    """The files under root that are missing or differ from what generate() makes."""
    def current(path: Path) -> bytes | None:
        return path.read_bytes() if path.is_file() else None
    return [rel for rel, text in files.items() if current(root / rel) != text.encode("utf-8")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if any generated file is stale")
    parser.add_argument("--out-dir", type=Path, default=REPO, help="the root to write under")
    args = parser.parse_args(argv)
    files = generate()
    if args.check:
        for rel in stale(files, args.out_dir):
            print(f"{rel.as_posix()} is stale: run python {GENERATOR}", file=sys.stderr)
        return 1 if stale(files, args.out_dir) else 0
    for rel, text in files.items():
        path = args.out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {rel.as_posix()} ({len(text.encode('utf-8'))} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
