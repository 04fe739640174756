"""The repository itself: no tracked file names a path of the machine it was written on, or an
item of an issue tracker that lives outside it.

A clone is read on other machines: a path such as the folder of pre-built wheels, a sibling
folder beside the checkout or a home directory breaks there (a command that fails, a reference
nobody can follow). Paths are relative to the repository root, or are said in words. So are the
reasons for a change: a comment that cites a numbered item of a tracker the clone does not carry
sends its reader nowhere, so it says what the change is instead.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

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


def tracked_texts() -> Iterator[tuple[str, str]]:
    """Each tracked text file's name and text (binary files name no paths a reader follows)."""
    for name in tracked_files():
        path = REPO / name
        if path.is_file() and b"\0" not in (data := path.read_bytes()):
            yield name, data.decode("utf-8", errors="replace")


def lines_matching(pattern: re.Pattern[str], name: str, text: str) -> list[str]:
    """``file:line: text`` for each line of ``text`` that ``pattern`` finds something in."""
    return [f"{name}:{number}: {line.strip()[:160]}"
            for number, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


def machine_paths(name: str, text: str) -> list[str]:
    """The lines of ``text`` that name a machine path."""
    return lines_matching(MACHINE_PATH, name, text)


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
    found = [line for name, text in tracked_texts() for line in machine_paths(name, text)]
    assert not found, "machine paths in tracked files (say them relative to the repository):\n" + "\n".join(found)


# A reference in words to a numbered item of a tracker: "the goal of <word> 28", "(<word> #12)",
# "<word>-30 result files".
# A name that holds the word and a number (a file such as run_<word>30.py, a template's
# <WORD>30_PINS) is a name, not a reference, and is left alone. The word is kept apart here, as the
# folders' names are above, so that this file is read like every other tracked file.
TRACKER_ITEM_WORD = "iss" + "ue"
TRACKER_ITEM = re.compile(rf"(?<![a-z]){TRACKER_ITEM_WORD}s?[ _-]?#?[0-9]+", re.I)  # in names too: run_x30.py


def tracker_items(name: str, text: str) -> list[str]:
    """The lines of ``text`` that cite a numbered item of a tracker."""
    return lines_matching(TRACKER_ITEM, name, text)


@pytest.mark.parametrize("line", [
    f"the goal ({TRACKER_ITEM_WORD} 28): >= 1.8x",
    f"# {TRACKER_ITEM_WORD.title()} 30: order, slot arguments",
    f"see {TRACKER_ITEM_WORD} #12 and {TRACKER_ITEM_WORD}s 23 and 30",
    f"fixed in {TRACKER_ITEM_WORD}#7",
    f"$landed {TRACKER_ITEM_WORD}-30 result files",
    f"python run_{TRACKER_ITEM_WORD}30.py --only baseline",
    f"{{{{{TRACKER_ITEM_WORD.upper()}30_PINS}}}}",
])
def test_the_pattern_finds_a_tracker_item(line):
    assert tracker_items("f", line) == [f"f:1: {line}"]


@pytest.mark.parametrize("line", [
    "the issue's goal: >= 1.8x",
    "and issue tracking systems that are managed by",
    "tissue 3 and reissue 4",
])
def test_the_tracker_pattern_leaves_words_alone(line):
    assert tracker_items("f", line) == []


def test_no_tracked_file_cites_a_tracker_item():
    found = [line for name, text in tracked_texts() for line in tracker_items(name, text)]
    assert not found, "tracked files that cite an item of an outside tracker (say what the change is):\n" + "\n".join(found)
