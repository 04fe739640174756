"""The repository itself: no tracked file names a path of the machine it was written on.

A clone is read on other machines: a path such as the folder of pre-built wheels, a sibling
folder beside the checkout or a home directory breaks there (a command that fails, a reference
nobody can follow). Paths are relative to the repository root, or are said in words.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from conftest import REPO

# The places this machine keeps things outside any repository: the work folder, the local package
# indexes and wheels, root's home, and the shared folder beside the checkouts (by its relative
# path or by its subfolders' names).
# The folders' names are kept apart from their slashes, so that this file names no path itself
# and is read like every other tracked file.
WORK, OPT, ROOT, SHARED = "work", "opt", "root", "shared"
MACHINE_PATH = re.compile(rf"/{WORK}/|/{OPT}/(?:wheels|pypi)|/{ROOT}/|\.\./{SHARED}\b"
                          rf"|(?<![\w.-]){SHARED}/(?:tools|corpora|design)/")


def tracked_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout: {listed.stderr.decode(errors='replace').strip()}")
    return [name for name in listed.stdout.decode().split("\0") if name]


def machine_paths(name: str, text: str) -> list[str]:
    """``file:line: text`` for each line of ``text`` that names a machine path."""
    return [f"{name}:{number}: {line.strip()[:160]}"
            for number, line in enumerate(text.splitlines(), 1) if MACHINE_PATH.search(line)]


@pytest.mark.parametrize("line", [
    f"python3 /{WORK}/{SHARED}/tools/house_check.py",
    f"pip install --find-links /{OPT}/wheels torch",
    f"extra-index-url = file:///{OPT}/pypi-more/simple",
    f"source: /{ROOT}/.pyenv/versions/3.11.7/lib/python3.11",
    f"functok compare --corpus ../{SHARED}/corpora/udhr",
    f"see {SHARED}/tools/variant_ceiling.py",
])
def test_the_pattern_finds_a_machine_path(line):
    assert machine_paths("f", line) == [f"f:1: {line}"]


@pytest.mark.parametrize("line", [
    "functok compare --corpus corpora/udhr",
    "python -m pip install -e '.[dev]'",
    "git worktree add ../equal-budget-scripts c59813c",
    "every base stays shared. Segment boundaries",
    "https://download.pytorch.org/whl/torch/",
])
def test_the_pattern_leaves_repository_paths_alone(line):
    assert machine_paths("f", line) == []


def test_no_tracked_file_names_a_machine_path():
    found = []
    for name in tracked_files():
        path = REPO / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" not in data:  # binary files name no paths a reader follows
            found += machine_paths(name, data.decode("utf-8", errors="replace"))
    assert not found, "machine paths in tracked files (say them relative to the repository):\n" + "\n".join(found)
