"""Finding, loading and selecting conformance vectors (conformance/vectors/*.json).

A vector is judged through one or two *cases*: the operation as the vector states it and, for a
negative `decode` vector, the same input again with errors="replace" to check its `lenient`
output. A case is what an implementation receives: id, op, input and every option filled in.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path

# The defaults of every option (spec sections 4.1, 5.1, 6.6, 7, 7.8 and 9); a case always carries all.
DEFAULT_OPTIONS: dict = {
    "normalize": "nfc",
    "splitter": "llama3",
    "split_operators": True,
    "errors": "strict",
    "max_output": 2 ** 26,
    "profile": "paper",  # protocol 1.1.0; fold and case are sent only when a vector states them
    # (as are the options of segment, tokenize and detokenize: their defaults are in PROTOCOL.md)
}

# The ops with a lenient mode: a negative vector of one is also run with errors="replace".
LENIENT_OPS = ("decode", "detokenize")

PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Vector:
    """One test of a vector file, with the file it came from."""

    test: dict
    file: str
    spec_version: str
    suite_version: str

    @property
    def id(self) -> str:
        return self.test["id"]


@dataclass
class Suite:
    vectors: list[Vector] = field(default_factory=list)
    directory: Path | None = None

    @property
    def spec_versions(self) -> set[str]:
        return {v.spec_version for v in self.vectors}

    @property
    def suite_versions(self) -> set[str]:
        return {v.suite_version for v in self.vectors}


class VectorsNotFound(Exception):
    pass


def default_vectors_dir() -> Path:
    """The checkout's conformance/vectors, else a copy installed as package data.

    In a checkout this module is python/functok/conformance/vectors.py, so the repository root is
    three levels up. An installed wheel (or Pyodide) has no checkout; a build that wants the
    runner to work there copies conformance/vectors/*.json to functok/data/conformance/vectors/.
    """
    candidates = [
        PACKAGE_DIR.parents[2] / "conformance" / "vectors",
        PACKAGE_DIR.parent / "data" / "conformance" / "vectors",
    ]
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob("*.json")):
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise VectorsNotFound(f"no conformance vectors found (tried {tried}); pass --vectors DIR")


def load_file(path: Path) -> list[Vector]:
    document = json.loads(path.read_text(encoding="utf-8"))
    return [Vector(test, path.name, document["spec_version"], document["suite_version"])
            for test in document["tests"]]


def load_suite(directory: Path | str | None = None) -> Suite:
    """Every vector of every *.json file in the directory, files in name order."""
    directory = Path(directory) if directory is not None else default_vectors_dir()
    if not directory.is_dir():
        raise VectorsNotFound(f"{directory} is not a directory")
    files = sorted(directory.glob("*.json"))
    if not files:
        raise VectorsNotFound(f"{directory} holds no *.json vector files")
    suite = Suite(directory=directory)
    for path in files:
        suite.vectors.extend(load_file(path))
    return suite


def suite_from_documents(documents: list[dict]) -> Suite:
    """A suite from already-parsed vector files (for hosts without a file system, e.g. a browser)."""
    suite = Suite()
    for number, document in enumerate(documents):
        name = document.get("area", f"document-{number}") + ".json"
        suite.vectors.extend(Vector(t, name, document["spec_version"], document["suite_version"])
                             for t in document["tests"])
    return suite


def select(vectors: list[Vector], run: list[str] | None, skip: list[str] | None) -> tuple[list[Vector], list[Vector]]:
    """(to run, to report as skipped): --run globs choose vectors, --skip globs set some aside."""
    chosen = [v for v in vectors if not run or any(fnmatch.fnmatchcase(v.id, g) for g in run)]
    skipped = [v for v in chosen if skip and any(fnmatch.fnmatchcase(v.id, g) for g in skip)]
    skipped_ids = {v.id for v in skipped}
    return [v for v in chosen if v.id not in skipped_ids], skipped


def case(test: dict, **overrides) -> dict:
    """The case an implementation receives: no expectations, every option present."""
    options = {**DEFAULT_OPTIONS, **test.get("options", {}), **overrides}
    return {"id": test["id"], "op": test["op"], "input": test["input"], "options": options}


def cases(test: dict) -> list[tuple[str, dict]]:
    """(what it checks, case) pairs for one vector: the stated run, then the lenient run if any."""
    out = [("strict" if "error" in test else "output", case(test))]
    if "error" in test and test["op"] in LENIENT_OPS:
        out.append(("lenient", case(test, errors="replace")))
    return out
