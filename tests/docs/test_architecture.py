"""ARCHITECTURE.md stays true: every path the rooms name exists and every module is listed, every
import runs the way the arrows say, and the C core allocates as the page says. (The clause map
has its own test, tests/docs/test_clause_map.py.)"""

from __future__ import annotations

import ast
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARCHITECTURE = REPO / "ARCHITECTURE.md"
PACKAGE = REPO / "python" / "functok"

COMPILED = {"functok._native"}  # the C core (native/), built at install time, in the core's room


def is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() or dotted in COMPILED


def imports_of(path: Path) -> set[str]:
    """The functok modules a file imports (absolute and relative; `from . import x` names the
    module x where x is one, else the package)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out.update(f"{base}.{a.name}" if is_module(f"{base}.{a.name}") else base
                       for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m == "functok" or m.startswith("functok.")}


def test_import_functok_loads_no_command_module():
    code = ("import sys, functok; "
            "print(sorted(m for m in sys.modules if m.startswith(('functok.commands', 'functok.cli', "
            "'functok.conformance'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={"PYTHONPATH": str(PACKAGE.parent)}).stdout.strip()
    assert loaded == "[]", f"import functok loads {loaded}"



def test_no_public_function_shares_its_name_with_a_submodule():
    """`functok.encode` is a function and `functok/encoding.py` the module it comes from: a
    function named as a submodule would hide it (`import functok.x` rebinds `functok.x` to the
    module, `from functok import x` gives whichever came last), so none may."""
    import functok

    submodules = {m.name for m in pkgutil.iter_modules(functok.__path__)}
    public = {name: getattr(functok, name) for name in functok.__all__}
    hiding = sorted(name for name, value in public.items()
                    if callable(value) and not isinstance(value, type) and name in submodules)
    assert not hiding, f"public functions of functok named as its submodules: {hiding}"
    assert {"encoding", "decoding", "splitting", "normalize"} <= submodules, sorted(submodules)

# -- the prose of "The rooms" -------------------------------------------------------------------


def rooms_section() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    return text.split("## The rooms", 1)[1].split("\n## ", 1)[0]


def rooms_listing() -> list[str]:
    """The paths of the rooms' code block, relative to python/functok/ (an entry indented under
    a folder is inside it)."""
    block = rooms_section().split("```", 2)[1]
    paths, folder = [], ""
    for line in block.splitlines()[2:]:  # the fence's info string, then python/functok/
        entry = line.strip().split(" ", 1)[0]
        if not entry or entry.startswith("──"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent > 4:
            continue  # a description carried onto the next line
        if indent == 2:
            folder = entry if entry.endswith("/") else ""
            paths.append(entry)
        else:
            assert folder, f"an entry of the rooms nests under no folder: {line!r}"
            paths.append(folder + entry)
    return paths


def test_every_path_the_rooms_name_exists():
    listed = rooms_listing()
    missing = [path for path in listed if not (PACKAGE / path).exists()]
    assert not missing, f"ARCHITECTURE.md's rooms name paths that python/functok/ lacks: {missing}"
    quoted = re.findall(r"`((?:[\w.-]+/)+(?:[\w.-]+\.\w+)?)`", rooms_section().split("```", 2)[2])
    bases = (REPO, REPO / "python", PACKAGE)
    missing = [path for path in quoted if not any((base / path).exists() for base in bases)]
    assert not missing, f"ARCHITECTURE.md's rooms name paths that do not exist: {missing}"


def test_the_rooms_list_every_module_and_subpackage():
    listed = set(rooms_listing())
    top = {p.name for p in PACKAGE.glob("*.py")} | {
        p.name + "/" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    unlisted = sorted(top - listed)
    assert not unlisted, f"ARCHITECTURE.md's rooms do not list {unlisted}"


def arrow_chains() -> list[list[set[str]]]:
    """The sentence 'The arrows run one way: **a ← b ← c, d**, and **e ← f**' as chains of
    levels, each level a set of rooms, the imported first."""
    paragraph = rooms_section().split("The arrows run one way:", 1)[1].split("\n\n", 1)[0]
    return [[{room.strip() for room in level.split(",")} for level in chain.split("←")]
            for chain in re.findall(r"\*\*(.+?)\*\*", paragraph, re.S)]


def may_import() -> dict[str, set[str]]:
    """For each room, the rooms the arrows let it import (itself, and every level to its left,
    through either chain)."""
    allowed: dict[str, set[str]] = {}
    for chain in arrow_chains():
        for at, level in enumerate(chain):
            for room in level:
                allowed.setdefault(room, {room}).update(*chain[:at])
    changed = True
    while changed:  # what a room may import, it may import through the rooms below it
        changed = False
        for room, below in allowed.items():
            wider = below.union(*(allowed.get(other, set()) for other in below))
            changed |= wider != below
            allowed[room] = wider
    return allowed


def room_of(module: str) -> str:
    """core for the codec's modules, the subpackage's name, cli for the command line; the
    package itself (functok/__init__.py) re-exports the tokenizer, so it counts as that room."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__init__":
        return "tokenizer"
    if parts[1] in ("cli", "__main__"):
        return "cli"
    return parts[1] if (PACKAGE / parts[1]).is_dir() else "core"


def test_the_arrows_name_every_room():
    rooms = {room_of(f"functok.{p.stem}") for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    rooms |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert rooms == set(may_import()), f"rooms {rooms} against the arrows' {set(may_import())}"


def test_every_import_runs_the_way_the_arrows_say():
    allowed = may_import()
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "__init__.py":
            continue  # the public API, declared in one place
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        wrong += [f"{module} imports {target}" for target in sorted(imports_of(path))
                  if room_of(target) not in allowed[room_of(module)]]
    assert not wrong, "imports against ARCHITECTURE.md's arrows:\n" + "\n".join(wrong)



def test_one_module_reads_the_tokenizer_files():
    """ARCHITECTURE.md: a tokenizer's files are read in one place, tokenizer/file_reader.py (the
    bytes, UTF-8, JSON, tiktoken rank lines), and every loader reads through it. (train.py reads
    training corpora, not tokenizer files.)"""
    reads = re.compile(r"\bjson\.loads?\(|\bopen\(|\.read_(?:bytes|text)\(|\bbinascii\.")
    tokenizer = PACKAGE / "tokenizer"
    readers = {p.name for p in tokenizer.glob("*.py") if reads.search(p.read_text(encoding="utf-8"))}
    assert readers - {"train.py"} == {"file_reader.py"}, sorted(readers)
    for loader in ("tokenizer.py", "external.py"):
        assert "functok.tokenizer.file_reader" in imports_of(tokenizer / loader), loader

# -- the engine seam (ARCHITECTURE.md, "The engine seam") -------------------------------------------

REFERENCE_MODULES = ["encoding", "decoding", "pretokenize", "splitting", "normalize", "tokenizer/bpe", "tokenizer/segment",
                     "tokenizer/fusion"]
ENGINE_MODULES = {"functok.engine", "functok._native", "functok.decoding_cache"}


@pytest.mark.parametrize("name", REFERENCE_MODULES)
def test_the_reference_modules_know_no_engine(name):
    """The spec's executable form imports no engine and names none (tiktoken's _educational.py
    stance): the seam, functok/engine.py, is the one place that chooses."""
    path = PACKAGE / f"{name}.py"
    assert not imports_of(path) & ENGINE_MODULES, f"{name}.py imports an engine"
    code = path.read_text(encoding="utf-8")
    assert not re.search(r"\bnative\b(?!/)|_native\b|\bengine\.", code.split('"""', 2)[2]), \
        f"{name}.py names an engine outside its docstring"


def test_the_seam_imports_the_reference_modules_and_no_tokenizer():
    """ARCHITECTURE.md: "engine.py imports the reference modules, never the tokenizer"."""
    imported = imports_of(PACKAGE / "engine.py")
    assert {"functok.encoding", "functok.decoding", "functok.pretokenize"} <= imported, sorted(imported)
    assert not {m for m in imported if m == "functok" or m.startswith("functok.tokenizer")}, sorted(imported)


def test_the_seam_binds_the_chosen_engine():
    import functok
    from functok import engine

    assert engine.current in engine.available()
    assert all(getattr(engine, op) is getattr(engine.current, op) for op in engine.OPS)
    assert (functok.encode, functok.decode) == (engine.encode, engine.decode)
    assert functok.backend() == engine.current.name


def test_every_allocation_of_the_c_core_goes_through_core_realloc():
    """ARCHITECTURE.md says so: a binding (the CPython one) points core_realloc/core_free at its
    allocator, and an allocation that bypasses them is invisible to tracemalloc and to the OOM
    fuzz target. Only cpbuf.c names libc's functions, to set the defaults."""
    libc = re.compile(r"(?<![\w.>])(malloc|calloc|realloc|free)\s*\(")
    core = sorted((REPO / "native" / "core").glob("*.c"))
    assert len(core) > 10
    found = [f"{path.name}:{n}: {line.strip()}" for path in core
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if libc.search(line)]
    assert not found, "the core calls libc's allocator directly:\n" + "\n".join(found)


def test_no_test_file_imports_another():
    """What tests share lives in tests/fixtures/ or a conftest.py, never in another test file:
    importing one ran its module-level setup twice and tied the rooms together."""
    offenders = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            offenders += [f"{path.relative_to(REPO)}: {name}" for name in names
                          if name.rsplit(".", 1)[-1].startswith("test_")]
    assert offenders == []
