"""The one corpus reader of ``functok compare``, ``functok train`` and ``functok tokenize``.

**Files.** A corpus is a list of paths: files and folders. A folder gives its ``.txt`` and
``.jsonl`` files, and their ``.gz`` forms (``.txt.gz``, ``.jsonl.gz``), and its ``.parquet`` and
``.arrow`` files (:mod:`.tables`), sorted by path; the metadata files of a ``datasets``
``save_to_disk`` folder (``dataset_info.json``, ``state.json``, ``dataset_dict.json``) are passed
over, every other entry is skipped and counted, and links to folders are not followed (they may
loop). A file named explicitly is read whatever its suffix: as ``.jsonl``, ``.parquet`` or
``.arrow`` when its name (without ``.gz``) ends so, else as text. A ``.gz`` file is read through
:mod:`gzip`, as a stream.

**Documents.** A ``.jsonl`` record (its field, ``text`` by default) is one document, named
``file:line``; the file is read line by line, so memory holds one record at a time. A Parquet or
Arrow row (its column of that name) is one document, named ``file[row]`` (from 0); the file is
read by record batch (:mod:`.tables`). A text file
is one document (``unit="file"``), or is cut after each blank line (``unit="paragraphs"``; the
pieces concatenate back to the file), or comes in chunks of about 1 MB cut where the codec's
pieces end (``unit="chunks"``, :mod:`functok.chunks`: its pre-tokens are those of the whole
file, for training with flat memory).

**Bad input.** A missing path, a folder that cannot be listed, an unreadable or broken ``.gz``
file, invalid UTF-8 (named by file and byte offset: of the decompressed text for ``.gz``) or a
bad ``.jsonl`` line raises :class:`~functok.chunks.InputError` (the commands exit with status
2), unless ``skip_bad`` is set: then the folder, file or line is skipped and recorded in
``skipped``. Invalid UTF-8 in a ``.jsonl`` line makes that line bad; in a text file, the file.
A ``.jsonl`` line is bad unless it is a JSON object whose field is a string that is text: a lone
surrogate, which only a ``\\u`` escape can make, is not (no tokenizer can take it). A Parquet or
Arrow row is bad when its value is null or not UTF-8 (then it is skipped as a bad line is); a
table file that cannot be read, or lacks the column, or whose column does not hold strings, is
a bad file (:class:`~.tables.TableFileError`). A document
with a line longer than ``max_line`` code points (when given) is skipped and counted, and so is
an empty one (with ``unit="chunks"``, the chunk: a line cut between two chunks is checked as
two). Each skip is a dict: ``what``, ``reason``, ``characters`` and maybe ``detail``.

**Output.** A command never reads what it writes. ``exclude`` names output folders: a folder
walk does not enter them (silently: they are no input, so a rerun that resumes a run lists the
same files as the run did), and a path named inside one is refused. :func:`input_file_at` finds
the corpus file an output file would overwrite. Paths are compared with links and ``..``
resolved, and files by inode too (a hard link).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..chunks import CHUNK_BYTES, InputError, read_utf8, text_chunks
from .tables import TABLE_SUFFIXES, BadRow, TableFileError, table_rows

TEXT_SUFFIXES = (".txt", ".jsonl")
CORPUS_SUFFIXES = TEXT_SUFFIXES + TABLE_SUFFIXES  # what a folder gives (and the .gz forms of the first)
RECORD_SUFFIXES = (".jsonl",) + TABLE_SUFFIXES  # files of records (the others are one text each)
# The metadata a `datasets` save_to_disk folder holds beside its .arrow files: passed over, uncounted.
DATASETS_METADATA = ("dataset_info.json", "state.json", "dataset_dict.json")
NOT_A_CORPUS_FILE = "not .txt, .jsonl, .parquet or .arrow"
DEFAULT_MAX_LINE = 100_000  # code points: a document holding a longer line is skipped and counted
UNITS = ("file", "paragraphs", "chunks")
READ_BYTES = CHUNK_BYTES  # a text file is read (and, as "chunks", cut) in blocks of this many bytes
_PARAGRAPH_END = re.compile(r"(?<=\n\n)(?=[^\n])")  # a cut after a blank line
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Document:
    name: str
    text: str
    end: int = 0  # bytes on disk of the corpus read when it comes (the files before, and its own): for progress
    start: int | None = None  # a chunk's first code point in its file (unit="chunks"), named in its skip


def shown(path: str | Path) -> str:
    """A path as text for messages and reports: a file name's bytes that are not UTF-8
    (which Python holds as lone surrogates, and which no UTF-8 file can store) appear as \\xNN.

    >>> shown(os.fsdecode(b"bad\\xff.txt"))
    'bad\\\\xff.txt'
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def real_path(path: str | Path) -> str:
    """``path`` absolute, with links and ``..`` resolved (os.path.realpath, not Path.resolve():
    that raises RuntimeError on a link loop in Python 3.11)."""
    return os.path.realpath(path)


def is_inside(path: str | Path, folder_real: str) -> bool:
    """Whether ``path`` is the folder ``folder_real`` (a :func:`real_path`) or lies under it."""
    real = real_path(path)
    return real == folder_real or real.startswith(folder_real.rstrip(os.sep) + os.sep)


def input_file_at(out: str | Path, files: list[Path]) -> Path | None:
    """The corpus file among ``files`` that writing ``out`` would overwrite (the same path once
    resolved, or the same inode), or None."""
    target, inode = real_path(out), _inode(out)  # no inode yet: only a path (a dangling link) can be it
    for f in files:
        if real_path(f) == target or (inode is not None and _inode(f) == inode):
            return f
    return None


def _inode(path: str | Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def suffix(path: Path) -> str:
    """The suffix that says how a file is read, ``.gz`` aside: ``a.jsonl.gz`` -> ``.jsonl``."""
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return os.path.splitext(name)[1]


def is_gzip(path: Path) -> bool:
    return path.name.lower().endswith(".gz")


def paragraphs(text: str) -> list[str]:
    """``text`` cut after each blank line; the parts concatenate back to ``text``."""
    return [p for p in _PARAGRAPH_END.split(text) if p]


# --- Records ------------------------------------------------------------------------------


class BadRecord(ValueError):
    """A .jsonl line that is not a record with a text field: ``kind`` counts it in reports,
    ``detail`` says what is wrong with it."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def record_text(line: str, field_name: str) -> str:
    """The text of one .jsonl line: the string in field ``field_name`` of a JSON object.

    >>> record_text('{"text": "a"}', "text")
    'a'
    >>> record_text('[1, 2]', "text")
    Traceback (most recent call last):
    functok.commands.corpus.BadRecord: expected a JSON object with the field 'text', found an array
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


# --- Files ----------------------------------------------------------------------------------

_GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)


class _Opened:
    """A corpus file opened for reading bytes (decompressed for .gz), and how far into the file
    on disk the reading is (for progress)."""

    def __init__(self, path: Path) -> None:
        self.path, self.name = path, shown(path)
        try:
            self.raw: BinaryIO = open(path, "rb")
        except OSError as error:  # also a file that vanished since the folder was listed
            raise InputError(f"{self.name}: cannot read: {error.strerror}") from None
        self.data: BinaryIO = gzip.GzipFile(fileobj=self.raw, mode="rb") if is_gzip(path) else self.raw

    def position(self) -> int:
        try:
            return self.raw.tell()
        except (OSError, ValueError):
            return 0

    def failed(self, error: BaseException) -> InputError:
        if isinstance(error, _GZIP_ERRORS):
            return InputError(f"{self.name}: cannot read: not a valid .gz file ({error})")
        return InputError(f"{self.name}: cannot read: {getattr(error, 'strerror', None) or error}")

    def close(self) -> None:
        self.data.close()
        self.raw.close()


def read_text(path: Path) -> str:
    """The whole file (decompressed for .gz) as strict UTF-8; InputError names the file (and
    the byte offset)."""
    opened = _Opened(path)
    try:
        return "".join(read_utf8(opened.data, opened.name))
    except (OSError, *_GZIP_ERRORS) as error:
        raise opened.failed(error) from None
    finally:
        opened.close()


class CorpusReader:
    """Documents from a list of paths, with the skips recorded in ``skipped`` (see the module).

    ``files()`` lists the corpus files once; ``documents(files)`` reads those files (default:
    all), so that a worker can read a shard of them. With ``share=(rank, count)`` it keeps only
    every ``count``-th record from the ``rank``-th (a ``.jsonl`` line that is not blank, or a
    whole text file), counted over all the files: how ``count`` workers share a corpus of fewer
    files than workers. The others are passed over unread (a ``.jsonl`` line is not even decoded),
    so each bad record is reported by the one worker that owns it; file-level skips of a
    ``.jsonl`` file, which every worker meets, are recorded by worker 0.
    """

    def __init__(self, paths: list[str], *, field: str = "text", skip_bad: bool = False,
                 unit: str = "file", max_line: int | None = None, share: tuple[int, int] | None = None,
                 exclude: Sequence[str | Path] = ()) -> None:
        if unit not in UNITS:
            raise ValueError(f"unknown unit {unit!r}; expected one of {UNITS}")
        if share is not None and unit != "file":
            raise ValueError("share= takes whole records: unit='file'")
        self.paths, self.field, self.skip_bad, self.unit, self.max_line = list(paths), field, skip_bad, unit, max_line
        self.share = share
        self.exclude = {real_path(folder): shown(folder) for folder in exclude}  # output folders
        self._record = 0  # records met so far, over all the files (for share)
        self.skipped: list[dict] = []
        self.files_read = 0
        self._files: list[Path] | None = None

    # -- listing

    def files(self) -> list[Path]:
        if self._files is None:
            files: list[Path] = []
            for p in map(Path, self.paths):
                self._refuse_output(p)
                # a file named explicitly is read whatever its suffix (.jsonl or text)
                files += self._folder_files(p) if _is_folder(p) else [p]
            self._files = files
        return self._files

    def _folder_files(self, folder: Path) -> list[Path]:
        """The corpus files under ``folder``, sorted; every other entry is counted as skipped.

        Anything that is not a folder is listed, so that a broken link is reported as unreadable
        rather than left out silently. Links to folders are not followed (they may loop).
        """
        def cannot_list(error: OSError) -> None:
            message = f"{shown(error.filename)}: cannot list the folder: {error.strerror}"
            if not self.skip_bad:
                raise InputError(f"{message} (--skip-bad skips such folders)")
            self.skip(shown(error.filename), "unreadable folder", detail=message)

        found: list[Path] = []
        for root, folders, names in os.walk(folder, onerror=cannot_list):
            found += [Path(root, name) for name in names]
            folders[:] = [name for name in folders if not self._output(os.path.join(root, name))]
            for name in folders:
                if os.path.islink(os.path.join(root, name)):
                    self.skip(shown(os.path.join(root, name)), "a link to a folder (not followed)")
        files = []
        for f in sorted(found):
            if suffix(f) in CORPUS_SUFFIXES and not (is_gzip(f) and suffix(f) in TABLE_SUFFIXES):
                files.append(f)
            elif f.name not in DATASETS_METADATA:
                self.skip(shown(f), NOT_A_CORPUS_FILE)
        return files

    def _output(self, path: str | Path) -> str | None:
        """The output folder (as given) that ``path`` is or lies in, or None."""
        return next((shown_as for real, shown_as in self.exclude.items() if is_inside(path, real)), None)

    def _refuse_output(self, path: Path) -> None:
        output = self._output(path)
        if output is not None:
            raise InputError(f"{shown(path)} is in the output folder {output}: a run never reads its own output")

    # -- reading

    def skip(self, what: str, reason: str, characters: int = 0, detail: str | None = None) -> None:
        entry = {"what": what, "reason": reason, "characters": characters}
        if detail is not None:
            entry["detail"] = detail
        self.skipped.append(entry)

    def documents(self, files: list[Path] | None = None) -> Iterator[Document]:
        """The documents of ``files`` (default: all), in order; bad input raises InputError or
        is skipped, as the module says."""
        before = 0  # bytes on disk of the files already read
        for path in self.files() if files is None else files:
            records = suffix(path) in RECORD_SUFFIXES
            if not records and not self._mine():  # a text file is one record: another worker's
                before += total_bytes([path])
                continue
            recorded = not records or self.share is None or self.share[0] == 0  # who counts this file
            try:
                docs = self.file_documents(path)
                for doc in docs:
                    if self._keep(doc):
                        doc.end += before
                        yield doc
            except _BadLine:
                raise
            except InputError as error:
                if not self.skip_bad:
                    raise InputError(f"{error} (--skip-bad skips such files)") from None
                if recorded:
                    self.skip(shown(path), error_reason(error), detail=str(error))
                continue
            finally:
                before += total_bytes([path])
            self.files_read += recorded

    def _mine(self) -> bool:
        """Whether the next record is this worker's (always, without ``share``)."""
        number, self._record = self._record, self._record + 1
        return self.share is None or number % self.share[1] == self.share[0]

    def file_documents(self, path: Path) -> Iterator[Document]:
        """One file's documents, without the empty/long-line checks; InputError for a bad file."""
        if suffix(path) in TABLE_SUFFIXES and not is_gzip(path):
            yield from self._table(path)
            return
        opened = _Opened(path)
        try:
            if suffix(path) == ".jsonl":
                yield from self._jsonl(opened)
            elif self.unit == "chunks":
                for start, chunk in text_chunks(read_utf8(opened.data, opened.name, READ_BYTES)):
                    yield Document(opened.name, chunk, opened.position(), start)
            else:
                text = "".join(read_utf8(opened.data, opened.name, READ_BYTES))
                parts = [text] if self.unit == "file" else paragraphs(text)
                names = [opened.name] if self.unit == "file" else [f"{opened.name}#{k}" for k in range(len(parts))]
                for name, part in zip(names, parts):
                    yield Document(name, part, opened.position())
        except (OSError, *_GZIP_ERRORS) as error:
            raise opened.failed(error) from None
        finally:
            opened.close()

    def _jsonl(self, opened: _Opened) -> Iterator[Document]:
        offset = 0  # of the line, in the (decompressed) bytes
        for number, raw in enumerate(opened.data, 1):  # lines end at b"\n" only: U+2028 stays in a string
            start, offset = offset, offset + len(raw)
            if not raw.strip() or not self._mine():  # a blank line is no record
                continue
            where = f"{opened.name}:{number}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                detail = f"invalid UTF-8 at byte {start + error.start} ({raw[error.start:error.start + 4]!r})"
                self._bad_line(where, "invalid UTF-8", detail)
                continue
            if not line.strip():
                continue
            try:
                value = record_text(line, self.field)
            except BadRecord as error:
                self._bad_line(where, error.kind, error.detail)
                continue
            yield Document(where, value, opened.position())

    def _table(self, path: Path) -> Iterator[Document]:
        """The rows of a Parquet or Arrow file (:mod:`.tables`), as the lines of a .jsonl file."""
        name, size = shown(path), total_bytes([path])
        for row, value, done in table_rows(path, name, self.field, self._mine if self.share else None):
            where = f"{name}[{row}]"
            if isinstance(value, BadRow):
                self._bad_line(where, value.kind, value.detail, f"bad {suffix(path)} row", "rows")
                continue
            yield Document(where, value, int(size * done))

    def _bad_line(self, where: str, kind: str, detail: str, what: str = "bad .jsonl line",
                  plural: str = "lines") -> None:
        if not self.skip_bad:
            raise _BadLine(f"{where}: {detail} (--skip-bad skips such {plural})")
        self.skip(where, f"{what}: {kind}", detail=detail)

    def _keep(self, doc: Document) -> bool:
        skip = unkept(doc, self.max_line)
        if skip is not None:
            self.skipped.append(skip)
        return skip is None


class _BadLine(InputError):
    """A bad .jsonl line or table row without --skip-bad: the message is final (it already
    names the hint)."""


def unkept(doc: Document, max_line: int | None) -> dict | None:
    """The skip of a document that is not kept (empty, or with a line over ``max_line`` code
    points), or None to keep it."""
    if not doc.text:  # counted, so that files and documents add up in reports
        return {"what": doc.name, "reason": "empty", "characters": 0}
    if max_line is not None and _has_long_line(doc.text, max_line):
        what = doc.name if doc.start is None else f"{doc.name} (the chunk from code point {doc.start:,})"
        return {"what": what, "reason": f"a line over {max_line:,} code points", "characters": len(doc.text)}
    return None


def error_reason(error: InputError) -> str:
    """The reason a skipped file is counted under."""
    if isinstance(error, TableFileError):
        return error.reason
    return "invalid UTF-8" if "invalid UTF-8" in str(error) else "unreadable"


def _has_long_line(text: str, limit: int) -> bool:
    if len(text) <= limit:
        return False
    return any(len(line) > limit for line in text.split("\n"))


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder; InputError if it is neither a folder nor a file."""
    try:
        return stat.S_ISDIR(path.stat().st_mode)
    except FileNotFoundError:
        raise InputError(f"{shown(path)}: no such file or folder") from None
    except OSError as error:  # a folder on the way that cannot be searched, a link loop
        raise InputError(f"{shown(path)}: cannot read: {error.strerror}") from None


def total_bytes(files: list[Path]) -> int:
    """The corpus files' size on disk (what the progress bars count)."""
    total = 0
    for f in files:
        try:
            total += f.stat().st_size
        except OSError:
            pass
    return total
