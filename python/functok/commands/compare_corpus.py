"""The corpora of ``functok compare``: documents, the held-out split, and bad input.

**Documents.** A ``.jsonl`` record (its ``--field``) is one document. A ``.txt`` file is cut
into documents after each blank line (the pieces concatenate back to the file, so no character
is lost), so that a single large file still gives a held-out set. A standard-library ``.py``
file is one document; a ``pydoc_data`` topic is cut into paragraphs like a ``.txt`` file.

**Held-out split.** A document is held out when the CRC-32 of its name is divisible by
``held_out_every`` (default 20: 5%, the paper's 5,000 of 100,000). The split is deterministic
and, for source files, by file. If no document's hash qualifies, the one with the smallest
hash is held out.

**Bad input.** A missing path, a folder that cannot be listed, an unreadable file, invalid
UTF-8 (named by file and byte offset) or a bad ``.jsonl`` line stops the run with a message
and exit status 2, unless ``skip_bad`` is set: then the folder, file or line is skipped and
counted. A ``.jsonl`` line is bad unless it is a JSON object whose field is a string that is
text: a lone surrogate, which only a ``\\u`` escape can make, is not (no tokenizer can take
it). The message names the file and line and says what was expected. Files in a folder that
are not ``.txt``/``.jsonl``, and links to folders (not followed, since they may loop), are
skipped and counted. A file name that is not UTF-8 is shown with ``\\xNN`` for its bytes. A
document with a line longer than ``max_line`` code points is skipped and counted (one giant
line is one giant pre-token for the baseline, which BPE training handles badly). A corpus with
no text left, or with too few documents to hold one out, is an error. The report lists every
skip.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sysconfig
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..chunks import InputError, read_utf8

DEFAULT_HELD_OUT_EVERY = 20
DEFAULT_MAX_LINE = 100_000
TEXT_SUFFIXES = (".txt", ".jsonl")
_PARAGRAPH_END = re.compile(r"(?<=\n\n)(?=[^\n])")  # a cut after a blank line
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Document:
    name: str
    text: str


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


# --- Reading --------------------------------------------------------------------------------


def read_text(path: Path) -> str:
    """The whole file as strict UTF-8; InputError names the file (and the byte offset)."""
    try:
        handle = open(path, "rb")
    except OSError as error:  # also a file that vanished since the folder was listed
        raise InputError(f"{shown(path)}: cannot read: {error.strerror}") from None
    with handle:
        try:
            return "".join(read_utf8(handle, shown(path)))
        except OSError as error:
            raise InputError(f"{shown(path)}: cannot read: {error.strerror}") from None


def paragraphs(text: str) -> list[str]:
    """``text`` cut after each blank line; the parts concatenate back to ``text``."""
    return [p for p in _PARAGRAPH_END.split(text) if p]


class BadRecord(ValueError):
    """A .jsonl line that is not a record with a text field: ``kind`` counts it in the
    report, ``detail`` says what is wrong with it."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def record_text(line: str, field_name: str) -> str:
    """The text of one .jsonl line: the string in field ``field_name`` of a JSON object.

    >>> record_text('{"text": "a"}', "text")
    'a'
    >>> record_text('[1, 2]', "text")
    Traceback (most recent call last):
    functok.commands.compare_corpus.BadRecord: expected a JSON object with the field 'text', found an array
    """
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadRecord("not JSON", f"not JSON: {error.msg} at column {error.colno}") from None
    except (ValueError, RecursionError) as error:  # a number over the digit limit; deep nesting
        detail = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise BadRecord("not JSON", f"not JSON: {detail}") from None
    if not isinstance(record, dict):
        raise BadRecord("not a JSON object",
                        f"expected a JSON object with the field {field_name!r}, found {_json_type(record)}")
    if field_name not in record:
        raise BadRecord(f"no field {field_name!r}", f"no field {field_name!r} in the JSON object")
    value = record[field_name]
    if not isinstance(value, str):
        raise BadRecord(f"field {field_name!r} not a string",
                        f"field {field_name!r} is {_json_type(value)}, expected a string")
    # only a \u escape can make a surrogate (the file is UTF-8); it is not text, and no tokenizer takes it
    surrogate = ("\\ud" in line or "\\uD" in line) and _SURROGATE.search(value)
    if surrogate:
        raise BadRecord("a lone surrogate",
                        f"field {field_name!r} holds a lone surrogate U+{ord(surrogate.group()):04X} "
                        f"(a \\u escape that is not text) at code point {surrogate.start()}")
    return value


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def jsonl_documents(path: Path, text: str, field_name: str, skip_bad: bool, corpus: Corpus) -> list[Document]:
    out = []
    name = shown(path)
    # not splitlines(): a JSON string may hold U+2028 as it is
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        try:
            value = record_text(line, field_name)
        except BadRecord as error:
            if not skip_bad:
                raise InputError(f"{where}: {error.detail} (--skip-bad skips such lines)") from None
            corpus.skipped.append({"what": where, "reason": f"bad .jsonl line: {error.kind}", "characters": 0,
                                   "detail": error.detail})
            continue
        out.append(Document(where, value))
    return out


def _has_long_line(text: str, limit: int) -> bool:
    if len(text) <= limit:
        return False
    return any(len(line) > limit for line in text.split("\n"))


def add_documents(corpus: Corpus, documents: list[Document], max_line: int) -> None:
    for doc in documents:
        if not doc.text:  # counted, so that files and documents add up in the report
            corpus.skipped.append({"what": doc.name, "reason": "empty", "characters": 0})
            continue
        if _has_long_line(doc.text, max_line):
            corpus.skipped.append({"what": doc.name, "reason": f"a line over {max_line:,} code points",
                                   "characters": len(doc.text)})
            continue
        corpus.documents.append(doc)


def shown(path: str | Path) -> str:
    """A path as text for messages and the report: a file name's bytes that are not UTF-8
    (which Python holds as lone surrogates, and which no UTF-8 file can store) appear as \\xNN.

    >>> shown(os.fsdecode(b"bad\\xff.txt"))
    'bad\\\\xff.txt'
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _files(paths: list[str], corpus: Corpus, skip_bad: bool) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if _is_folder(p):
            files += _folder_files(p, corpus, skip_bad)
        else:
            files.append(p)  # a file named explicitly is read whatever its suffix (.jsonl or text)
    return files


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder; InputError if it is neither a folder nor a file."""
    try:
        return stat.S_ISDIR(path.stat().st_mode)
    except FileNotFoundError:
        raise InputError(f"{shown(path)}: no such file or folder") from None
    except OSError as error:  # a folder on the way that cannot be searched, a link loop
        raise InputError(f"{shown(path)}: cannot read: {error.strerror}") from None


def _folder_files(folder: Path, corpus: Corpus, skip_bad: bool) -> list[Path]:
    """The .txt and .jsonl files under ``folder``, sorted; every other entry is counted as skipped.

    Anything that is not a folder is listed, so that a broken link is reported as unreadable
    rather than left out silently. Links to folders are not followed (they may loop).
    """
    def cannot_list(error: OSError) -> None:
        message = f"{shown(error.filename)}: cannot list the folder: {error.strerror}"
        if not skip_bad:
            raise InputError(f"{message} (--skip-bad skips such folders)")
        corpus.skipped.append({"what": shown(error.filename), "reason": "unreadable folder", "characters": 0,
                               "detail": message})

    found: list[Path] = []
    for root, folders, names in os.walk(folder, onerror=cannot_list):
        found += [Path(root, name) for name in names]
        for name in folders:
            if os.path.islink(os.path.join(root, name)):
                corpus.skipped.append({"what": shown(os.path.join(root, name)),
                                       "reason": "a link to a folder (not followed)", "characters": 0})
    files = []
    for f in sorted(found):
        if f.suffix.lower() in TEXT_SUFFIXES:
            files.append(f)
        else:
            corpus.skipped.append({"what": shown(f), "reason": "not .txt or .jsonl", "characters": 0})
    return files


def load_corpus(paths: list[str], *, field: str = "text", skip_bad: bool = False,
                max_line: int = DEFAULT_MAX_LINE, held_out_every: int = DEFAULT_HELD_OUT_EVERY) -> Corpus:
    # os.path.realpath, not Path.resolve(): that raises RuntimeError on a link loop (Python 3.11)
    name = _file_name(Path(os.path.realpath(paths[0])).name or "corpus")
    corpus = Corpus(name=name, source=", ".join(map(shown, paths)), documents=[], held_out_every=held_out_every)
    for path in _files(paths, corpus, skip_bad):
        try:
            text = read_text(path)
        except InputError as error:
            if not skip_bad:
                raise InputError(f"{error} (--skip-bad skips such files)") from None
            corpus.skipped.append({"what": shown(path), "reason": _reason(str(error)), "characters": 0,
                                   "detail": str(error)})
            continue
        if path.suffix.lower() == ".jsonl":  # its bad lines are skipped (or refused) one by one
            docs = jsonl_documents(path, text, field, skip_bad, corpus)
        else:
            docs = [Document(f"{shown(path)}#{k}", p) for k, p in enumerate(paragraphs(text))]
        corpus.files += 1
        add_documents(corpus, docs, max_line)
    corpus.check()
    return corpus


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


def _reason(message: str) -> str:
    return "invalid UTF-8" if "invalid UTF-8" in message else "unreadable"


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
            corpus.skipped.append({"what": name, "reason": _reason(str(error)), "characters": 0,
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
