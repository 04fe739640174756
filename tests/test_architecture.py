"""ARCHITECTURE.md stays true: every clause of the spec has a row, every row names code that
exists, and the rooms import one way."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARCHITECTURE = REPO / "ARCHITECTURE.md"
PACKAGE = REPO / "python" / "functok"

# A row of the clause table: | [7.1](spec/SPEC.md#decode-groups) | `functok.grammar` | `GROUP`, ... |
ROW = re.compile(r"^\| \[[^\]]+\]\(spec/SPEC\.md#(?P<anchor>[a-z0-9-]+)\) \|(?P<rest>.*)\|\s*$", re.M)
NAME = re.compile(r"`([A-Za-z_][\w.]*)`")


def spec_anchors() -> list[str]:
    return re.findall(r'<a id="([a-z0-9-]+)"></a>', (REPO / "spec" / "SPEC.md").read_text(encoding="utf-8"))


def clause_rows() -> dict[str, str]:
    return {m["anchor"]: m["rest"] for m in ROW.finditer(ARCHITECTURE.read_text(encoding="utf-8"))}


def test_every_spec_anchor_has_a_row():
    rows = clause_rows()
    missing = [a for a in spec_anchors() if a not in rows]
    assert not missing, f"ARCHITECTURE.md has no row for these anchors of spec/SPEC.md: {missing}"
    unknown = [a for a in rows if a not in spec_anchors()]
    assert not unknown, f"ARCHITECTURE.md cites anchors that spec/SPEC.md does not have: {unknown}"


def resolve(dotted: str):
    """The object a dotted name like functok.decode.decode or functok.tokenizer.Tokenizer.encode
    names: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            target = getattr(target, attribute)
        return target
    raise ModuleNotFoundError(dotted)


def named_code() -> list[str]:
    """Every name of the clause table's last column, qualified by the module of its row."""
    names = []
    for rest in clause_rows().values():
        module_cell, code_cell = rest.split("|")[:2]
        (module,) = NAME.findall(module_cell)
        names.append(module)
        names.extend(f"{module}.{name}" for name in NAME.findall(code_cell))
    return names


@pytest.mark.parametrize("name", sorted(set(named_code())))
def test_each_named_function_exists(name):
    resolve(name)


def test_the_table_is_not_empty():
    assert len(named_code()) >= len(spec_anchors())


def imports_of(path: Path) -> set[str]:
    """The functok modules a file imports (absolute and relative)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out.add(base)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m == "functok" or m.startswith("functok.")}


CORE_EXCEPTIONS = {"__init__.py"}  # the public API may re-export the tokenizer


def test_the_core_never_imports_the_tokenizer_or_the_applications():
    rooms = ("functok.tokenizer", "functok.commands", "functok.conformance", "functok.cli")
    for path in PACKAGE.glob("*.py"):
        if path.name in CORE_EXCEPTIONS or path.name in ("cli.py", "__main__.py"):  # the command line
            continue
        wrong = sorted(m for m in imports_of(path) if m.startswith(rooms))
        assert not wrong, f"core module {path.name} imports {wrong}"


def test_the_tokenizer_never_imports_conformance_or_commands():
    for path in (PACKAGE / "tokenizer").glob("*.py"):
        wrong = sorted(m for m in imports_of(path)
                       if m.startswith(("functok.commands", "functok.conformance", "functok.cli")))
        assert not wrong, f"{path.relative_to(PACKAGE)} imports {wrong}"


def test_import_functok_loads_no_command_module():
    code = ("import sys, functok; "
            "print(sorted(m for m in sys.modules if m.startswith(('functok.commands', 'functok.cli', "
            "'functok.conformance'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={"PYTHONPATH": str(PACKAGE.parent)}).stdout.strip()
    assert loaded == "[]", f"import functok loads {loaded}"
