"""Where the scale study's text comes from: pinned package sources, their documentation, the UDHR.

* **code**: the source files (CODE_SUFFIXES) of the pinned sdists below, fetched with
  ``pip download`` at prepare time (on the CPU machine, never on the GPU machine), whole files
  held out by CRC-32 of their path (compare's rule: 1 in 20);
* **prose**: the documentation files (PROSE_SUFFIXES under a ``doc``/``docs`` folder) of the
  same sdists, cut into paragraphs, 1 paragraph in 20 held out;
* **udhr**: research/downstream's ``udhr-paragraphs`` protocol (the UDHR folder from
  protocols.UDHR, every language in training, 1 paragraph in 20 held out).

``--tiny`` takes the same roles from what is installed, with no download: code from the
standard library's .py files (compare's code corpus, a few files), prose from pydoc_data's
topics, the UDHR when its folder is there.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent / "downstream"))  # protocols (the UDHR folder and split)

# The pinned sources: large, mostly pure-Python projects whose sdists carry their tests and,
# for most, their documentation (English prose). Pinned by version; the sdists' sha256 go into
# the pack's manifest. Chosen for size (ansible's collections alone are some hundreds of MB of
# Python) and for variety (a web framework, a CAS, an ORM, a doc tool, graphs, networking,
# lexers for many languages).
PINNED = (
    "ansible==12.3.0",
    "Django==5.2.20",
    "sympy==1.14.0",
    "SQLAlchemy==2.1.9",
    "Sphinx==9.0.4",
    "networkx==3.6.1",
    "Twisted==26.10.0",
    "Pygments==2.21.0",
    # the eight above hold 293 MB of code (47.5 MB of prose); with these two, 315 MB (48.2 MB),
    # measured 2026-12-07: the ansible engine, and mypy with typeshed's stubs
    "ansible-core==2.19.14",
    "mypy==2.4.1",
)
CODE_SUFFIXES = (".py", ".pyi", ".pyx", ".pxd", ".c", ".h", ".js", ".sh")
PROSE_SUFFIXES = (".rst", ".txt", ".md")
DOC_FOLDERS = {"doc", "docs"}
HELD_OUT_EVERY = 20  # compare's DEFAULT_HELD_OUT_EVERY
MIN_CODE_MB = 300  # the floor for the full corpus (the pack carries a sample of it)
MAX_FILE_BYTES = 1_000_000  # generated blobs (minified js, tables) are not code a model should learn


@dataclass
class Corpus:
    name: str
    train: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)

    def add(self, key: str, text: str) -> None:
        (self.held if zlib.crc32(key.encode()) % HELD_OUT_EVERY == 0 else self.train).append(text)

    def size(self) -> int:
        return sum(len(t.encode()) for t in self.train + self.held)


def download(into: Path) -> list[Path]:
    """The pinned sdists, by pip (its cache makes a second prepare offline)."""
    into.mkdir(parents=True, exist_ok=True)
    for spec in PINNED:
        # --no-binary names the package alone: with ":all:" pip would also build the sdist's build
        # requirements (Cython, for SQLAlchemy) from source, minutes of compiling for nothing
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                        "--no-binary", spec.split("==")[0], "-d", str(into), spec], check=True)
    return sorted(p for p in into.iterdir() if p.name.endswith((".tar.gz", ".zip")))


def _members(archive: Path):
    """(path inside the archive, bytes) of every regular file."""
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if not info.is_dir() and info.file_size <= MAX_FILE_BYTES:
                    yield info.filename, z.read(info)
        return
    with tarfile.open(archive) as t:
        for m in t:
            if m.isfile() and m.size <= MAX_FILE_BYTES:
                yield m.name, t.extractfile(m).read()


def _text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if "\x00" not in text else None


def _paragraphs(text: str) -> list[str]:
    from functok.commands.compare.corpus import paragraphs

    return paragraphs(text)


def from_sdists(archives: list[Path]) -> tuple[Corpus, Corpus]:
    code, prose = Corpus("code"), Corpus("prose")
    for archive in archives:
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()
        code.sources.append({"sdist": archive.name, "sha256": digest})
        prose.sources.append({"sdist": archive.name, "sha256": digest})
        for name, data in _members(archive):
            parts = Path(name).parts
            text = _text(data) if name.endswith(CODE_SUFFIXES + PROSE_SUFFIXES) else None
            if not text:
                continue
            if DOC_FOLDERS & set(parts[1:-1]) and name.endswith(PROSE_SUFFIXES):
                for k, p in enumerate(_paragraphs(text)):
                    prose.add(f"{name}#{k}", p)
            elif name.endswith(CODE_SUFFIXES):
                code.add(name, text)
    return code, prose


def installed(code_files: int) -> tuple[Corpus, Corpus]:
    """--tiny: the standard library's first ``code_files`` .py files (compare's sample) and
    pydoc_data's topics."""
    import sysconfig

    from functok.commands.compare.corpus import sample_files, stdlib_files
    from pydoc_data.topics import topics

    code, prose = Corpus("code"), Corpus("prose")
    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sample_files(stdlib_files(), root, code_files):
        text = _text(path.read_bytes())
        if text:
            code.add(path.relative_to(root).as_posix(), text)
    code.sources.append({"installed": f"the standard library's .py files, {code_files} (compare's sample)"})
    for key in sorted(topics):
        for k, p in enumerate(_paragraphs(topics[key])):
            prose.add(f"{key}#{k}", p)
    prose.sources.append({"installed": "pydoc_data.topics"})
    return code, prose


def udhr() -> Corpus | None:
    import protocols

    if not protocols.UDHR.is_dir():
        return None
    split = protocols.udhr_paragraphs()
    return Corpus("udhr", split.train, split.held, [{"udhr": "research/downstream protocols.UDHR, udhr-paragraphs"}])
