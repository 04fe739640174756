"""The corpora of ``functok compare``: documents, the held-out split, and bad input.

Files and records are read by the shared reader, :mod:`.corpus` (``.txt``, ``.jsonl``, their
``.gz`` forms, folders of them), which ``functok train`` and ``functok tokenize`` use too.

**Documents.** A ``.jsonl`` record (its ``--field``) is one document. A ``.txt`` file is cut
into documents after each blank line (the pieces concatenate back to the file, so no character
is lost), so that a single large file still gives a held-out set. A standard-library ``.py``
file is one document; a ``pydoc_data`` topic is cut into paragraphs like a ``.txt`` file.

**Held-out split.** A document is held out when the CRC-32 of its name is divisible by
``held_out_every`` (default 20: 5%, the paper's 5,000 of 100,000). The split is deterministic
and, for source files, by file. If no document's hash qualifies, the one with the smallest
hash is held out.

**Bad input.** A missing path, a folder that cannot be listed, an unreadable file, invalid UTF-8
(named by file and byte offset; in a ``.jsonl`` file it makes that line bad) or a bad ``.jsonl``
line stops the run with a message and exit status 2, unless ``skip_bad`` is set: then the
folder, file or line is skipped and counted. A ``.jsonl`` line is bad unless it is a JSON object
whose field is a string that is text: a lone surrogate, which only a ``\\u`` escape can make, is
not (no tokenizer can take it). The message names the file and line and says what was expected.
Files in a folder that are not ``.txt``/``.jsonl``, and links to folders (not followed, since
they may loop), are skipped and counted. A file name that is not UTF-8 is shown with ``\\xNN``
for its bytes. A document with a line longer than ``max_line`` code points is skipped and
counted (one giant line is one giant pre-token for the baseline, which BPE training handles
badly). A corpus with no text left, or with too few documents to hold one out, is an error. The
report lists every skip.
"""

from __future__ import annotations

import os
import re
import sysconfig
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ...chunks import InputError
from ..corpus import (DEFAULT_MAX_LINE, TEXT_SUFFIXES, BadRecord, CorpusReader, Document, error_reason, paragraphs, read_text,
                     record_text, shown, unkept)

DEFAULT_HELD_OUT_EVERY = 20
__all__ = ["TEXT_SUFFIXES", "BadRecord", "Corpus", "Document", "default_corpora", "load_corpus", "paragraphs",
           "read_text", "record_text", "shown", "unique_names"]


@dataclass
class Corpus:
    name: str
    source: str  # what it is, in words
    documents: list[Document]
    held_out_every: int = DEFAULT_HELD_OUT_EVERY
    files: int = 0
    skipped: list[dict] = field(default_factory=list)  # {"what", "reason", "characters"[, "detail"]}
    sampling: str = ""  # how a default corpus was sampled, in words
    domain: str | None = None  # "code" or "prose" for the defaults: which paper rows to compare
    paths: list[Path] = field(default_factory=list)  # the files read (of a corpus given as paths)
    _held: set[int] | None = field(default=None, init=False, repr=False)

    def held_out_indexes(self) -> set[int]:
        if self._held is None:
            hashes = [zlib.crc32(d.name.encode("utf-8")) for d in self.documents]
            held = {k for k, h in enumerate(hashes) if h % self.held_out_every == 0}
            if not held and hashes:
                held = {min(range(len(hashes)), key=hashes.__getitem__)}
            self._held = held
        return self._held

    def train_texts(self) -> list[str]:
        held = self.held_out_indexes()
        return [d.text for k, d in enumerate(self.documents) if k not in held]

    def held_out_texts(self) -> list[str]:
        held = self.held_out_indexes()
        return [d.text for k, d in enumerate(self.documents) if k in held]

    def check(self) -> None:
        """Refuse a corpus that cannot be measured, saying why."""
        chars = sum(len(d.text) for d in self.documents)
        if not chars:
            raise InputError(f"corpus {self.name}: no text ({self.files} files read, "
                             f"{len(self.skipped)} skipped)")
        if len(self.documents) < 2:
            raise InputError(f"corpus {self.name}: {len(self.documents)} document; needs at least 2 "
                             f"(one to train on, one held out); a .txt file is cut at blank lines")

    def summary(self) -> dict:
        held = self.held_out_indexes()
        train_chars = sum(len(d.text) for k, d in enumerate(self.documents) if k not in held)
        held_chars = sum(len(d.text) for k, d in enumerate(self.documents) if k in held)
        return {
            "name": self.name,
            "source": self.source,
            "sampling": self.sampling,
            "domain": self.domain,
            "files": self.files,
            "documents": len(self.documents),
            "training_documents": len(self.documents) - len(held),
            "held_out_documents": len(held),
            "characters": train_chars + held_chars,
            "training_characters": train_chars,
            "held_out_characters": held_chars,
            "held_out_every": self.held_out_every,
            "skipped": len(self.skipped),
            "skipped_characters": sum(s.get("characters", 0) for s in self.skipped),
            "skipped_by_reason": dict(Counter(s["reason"] for s in self.skipped)),
            "skipped_examples": self.skipped_examples(),
        }

    def skipped_examples(self, per_reason: int = 10) -> list[dict]:
        """The first few skips of each reason (report.json and report.md list these)."""
        seen: Counter = Counter()
        out = []
        for s in self.skipped:
            seen[s["reason"]] += 1
            if seen[s["reason"]] <= per_reason:
                out.append(s)
        return out

    def skipped_summary(self) -> list[str]:
        by_reason = Counter(s["reason"] for s in self.skipped)
        return [f"{n} ({reason}), e.g. {next(s['what'] for s in self.skipped if s['reason'] == reason)}"
                for reason, n in by_reason.items()]


# --- Reading: the shared reader (.corpus), with the paragraphs and checks compare needs ------


def load_corpus(paths: list[str], *, field: str = "text", skip_bad: bool = False,
                max_line: int = DEFAULT_MAX_LINE, held_out_every: int = DEFAULT_HELD_OUT_EVERY) -> Corpus:
    # os.path.realpath, not Path.resolve(): that raises RuntimeError on a link loop (Python 3.11)
    name = _file_name(Path(os.path.realpath(paths[0])).name or "corpus")
    corpus = Corpus(name=name, source=", ".join(map(shown, paths)), documents=[], held_out_every=held_out_every)
    reader = CorpusReader(paths, field=field, skip_bad=skip_bad, unit="paragraphs", max_line=max_line)
    corpus.skipped = reader.skipped  # the reader records every skip here, in order
    corpus.documents = [Document(doc.name, doc.text) for doc in reader.documents()]
    corpus.paths = reader.files()
    corpus.files = reader.files_read
    corpus.check()
    return corpus


def add_documents(corpus: Corpus, documents: list[Document], max_line: int) -> None:
    """Add the documents the shared reader would keep; count the others as skipped."""
    for doc in documents:
        skip = unkept(doc, max_line)
        if skip is None:
            corpus.documents.append(doc)
        else:
            corpus.skipped.append(skip)


def _file_name(name: str) -> str:
    """A corpus name that is safe in a file name (the chart is named after the corpus)."""
    return re.sub(r"[^\w.-]+", "_", name)


def unique_names(corpora: list[Corpus]) -> None:
    """Give corpora with the same name a suffix (-2, -3, ...), so their charts do not collide."""
    seen: Counter = Counter()
    for corpus in corpora:
        seen[corpus.name] += 1
        if seen[corpus.name] > 1:
            corpus.name = f"{corpus.name}-{seen[corpus.name]}"


# --- The default corpora ------------------------------------------------------------------


def stdlib_files() -> list[Path]:
    """The standard library's .py files (not site-packages), sorted by path."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted((f for f in root.rglob("*.py") if "site-packages" not in f.parts and f.is_file()),
                  key=lambda f: f.relative_to(root).as_posix())


def sample_files(files: list[Path], root: Path, max_files: int | None) -> list[Path]:
    """A fixed sample: the ``max_files`` files with the smallest CRC-32 of their relative path."""
    if max_files is None or len(files) <= max_files:
        return files
    ranked = sorted(files, key=lambda f: (zlib.crc32(f.relative_to(root).as_posix().encode()), f))
    return sorted(ranked[:max_files])


def stdlib_corpus(max_files: int | None, max_line: int, held_out_every: int) -> Corpus:
    root = Path(sysconfig.get_paths()["stdlib"])
    every = stdlib_files()
    files = sample_files(every, root, max_files)
    corpus = Corpus(name="stdlib-python", source=f"the standard library's .py files in {root}",
                    documents=[], held_out_every=held_out_every, domain="code")
    corpus.sampling = (f"all {len(every):,} .py files" if len(files) == len(every) else
                       f"{len(files):,} of {len(every):,} .py files (the smallest CRC-32 of their path)")
    for path in files:
        name = path.relative_to(root).as_posix()
        try:
            text = read_text(path)
        except InputError as error:  # a few test files are deliberately not UTF-8
            corpus.skipped.append({"what": name, "reason": error_reason(error), "characters": 0,
                                   "detail": str(error)})
            continue
        corpus.files += 1
        add_documents(corpus, [Document(name, text)], max_line)
    corpus.check()
    return corpus


def pydoc_corpus(max_line: int, held_out_every: int) -> Corpus:
    from pydoc_data.topics import topics

    corpus = Corpus(name="pydoc-topics-prose", source="pydoc_data.topics: the English help topics",
                    documents=[], held_out_every=held_out_every, files=1, domain="prose")
    corpus.sampling = f"all {len(topics)} topics, cut into paragraphs"
    for key in sorted(topics):
        add_documents(corpus, [Document(f"topics[{key}]#{k}", p) for k, p in enumerate(paragraphs(topics[key]))],
                      max_line)
    corpus.check()
    return corpus


def default_corpora(*, max_files: int | None = None, max_line: int = DEFAULT_MAX_LINE,
                    held_out_every: int = DEFAULT_HELD_OUT_EVERY) -> list[Corpus]:
    return [stdlib_corpus(max_files, max_line, held_out_every), pydoc_corpus(max_line, held_out_every)]
