"""Parquet and Arrow corpus files, read through pyarrow (``pip install 'functok[corpus]'``), for the
corpus reader of :mod:`.corpus`.

**Files.** ``.parquet``: Apache Parquet, read row group by row group (:class:`pyarrow.parquet.ParquetFile`).
``.arrow``: Arrow IPC, the stream format that ``datasets``' ``save_to_disk`` writes
(``data-00000-of-00001.arrow`` beside ``dataset_info.json`` and ``state.json``) or the file
format (Feather 2), told apart by the file's first bytes, and memory-mapped. Only the text column
is read (``field``, ``text`` by default: datatrove's ``text_key``), in record batches of at most
:data:`BATCH_ROWS` rows, so memory holds one batch of text (and, for Parquet, one row group's
column chunk), whatever the file's size.

**Records.** Each row is one document; its text is the column's string. A row whose value is
null, or whose bytes are not UTF-8 (an Arrow or Parquet string column should be, but nothing
stops a writer), is a bad record (:class:`BadRow`), named by the file and the row's
index (from 0, as ``datasets`` counts). A file that cannot be read (truncated, corrupt, not
Parquet or Arrow), or that has no such column, or whose column does not hold strings, raises
:class:`TableFileError`, an :class:`~functok.chunks.InputError` that says why in ``reason``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from ..chunks import InputError

TABLE_SUFFIXES = (".parquet", ".arrow")
BATCH_ROWS = 1024  # rows turned into Python strings at a time
ARROW_FILE_MAGIC = b"ARROW1"  # the Arrow IPC file format starts so; the stream format does not


class BadRow(NamedTuple):
    """A row that is no document: ``kind`` counts it in reports, ``detail`` says what is wrong."""

    kind: str
    detail: str


class TableFileError(InputError):
    """A Parquet or Arrow file that cannot be read as a corpus: ``reason`` is what a skip of it
    is counted under (``unreadable``, ``no column 'text'``, ``column 'text' not strings``)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self):
        return (TableFileError, (str(self), self.reason))


def _pyarrow(parquet: bool):
    """pyarrow, with its Parquet or its IPC module (imported when a file needs it: the import
    is most of what a table file costs more than a .jsonl file)."""
    try:
        import pyarrow
        if parquet:
            import pyarrow.parquet  # noqa: F401
        else:
            import pyarrow.ipc  # noqa: F401
    except ImportError:
        raise InputError("reading .parquet and .arrow files needs pyarrow: pip install 'functok[corpus]'") from None
    return pyarrow


def table_rows(path: Path, name: str, field: str,
               mine: Callable[[], bool] | None = None) -> Iterator[tuple[int, object, float]]:
    """Each row of the table file: ``(index, value, done)``, where ``value`` is the text (a str)
    or the :class:`BadRow` of a bad row, and ``done`` the share of the file's rows
    read so far (for progress). With ``mine``, called once per row in order, only the rows it
    says yes to (the others are never made Python strings). Raises :class:`TableFileError` for
    a bad file."""
    parquet = path.name.lower().endswith(".parquet")
    pa = _pyarrow(parquet)
    try:
        if parquet:
            yield from _parquet_rows(pa, path, name, field, mine)
        else:
            yield from _arrow_rows(pa, path, name, field, mine)
    except TableFileError:
        raise
    except (pa.ArrowException, OSError, ValueError) as error:
        kind = "Parquet" if parquet else "Arrow"
        detail = getattr(error, "strerror", None) or str(error)
        raise TableFileError(f"{name}: cannot read: not a valid {kind} file ({detail})", "unreadable") from None


def _parquet_rows(pa, path: Path, name: str, field: str, mine) -> Iterator[tuple[int, object, float]]:
    with pa.parquet.ParquetFile(path) as parquet:
        _check_column(pa, parquet.schema_arrow, name, field)
        total = max(parquet.metadata.num_rows, 1)
        batches = parquet.iter_batches(batch_size=BATCH_ROWS, columns=[field])
        yield from _rows(pa, batches, field, total, mine)


def _arrow_rows(pa, path: Path, name: str, field: str, mine) -> Iterator[tuple[int, object, float]]:
    with pa.memory_map(str(path)) as source:
        file_format = source.read(len(ARROW_FILE_MAGIC)) == ARROW_FILE_MAGIC
        source.seek(0)
        if file_format:
            reader = pa.ipc.open_file(source)
            batches = (reader.get_batch(k) for k in range(reader.num_record_batches))
            total = max(sum(reader.get_batch(k).num_rows for k in range(reader.num_record_batches)), 1)
        else:
            reader = pa.ipc.open_stream(source)
            batches, total = iter(reader), None  # a stream says its length only at its end
        _check_column(pa, reader.schema, name, field)
        column = reader.schema.get_field_index(field)
        yield from _rows(pa, (batch.select([column]) for batch in batches), field, total, mine)


def _check_column(pa, schema, name: str, field: str) -> None:
    """The text column is there and holds strings (plain, large, or a dictionary of them)."""
    index = schema.get_field_index(field)
    if index < 0:
        columns = ", ".join(schema.names[:20]) + (", ..." if len(schema.names) > 20 else "")
        raise TableFileError(f"{name}: no column {field!r} (its columns: {columns or 'none'}; "
                             f"--field names the text column)", f"no column {field!r}")
    kind = schema.field(index).type
    if not _is_strings(pa, kind):
        raise TableFileError(f"{name}: column {field!r} holds {kind}, expected strings",
                             f"column {field!r} not strings")


def _is_strings(pa, kind) -> bool:
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)


def _rows(pa, batches, field: str, total: int | None, mine) -> Iterator[tuple[int, object, float]]:
    row = 0  # of the file, from 0
    for batch in batches:
        for start in range(0, batch.num_rows, BATCH_ROWS):  # an Arrow batch can be large
            column = batch.column(0).slice(start, BATCH_ROWS)
            rows = range(row, row + len(column))
            if mine is not None:  # another task's rows are left in Arrow
                kept = [mine() for _ in rows]
                rows = [k for k, keep in zip(rows, kept) if keep]
                column = column.filter(pa.array(kept, type=pa.bool_()))
            if pa.types.is_dictionary(column.type):
                column = column.dictionary_decode()
            row += min(BATCH_ROWS, batch.num_rows - start)
            for index, value in zip(rows, _values(column, field)):
                yield index, value, ((index + 1) / total if total else 0.0)


def _values(column, field: str) -> list:
    """The column's strings, or a :class:`BadRow` for a null or a value that is not UTF-8."""
    try:
        values = column.to_pylist()
    except UnicodeDecodeError:  # some value is not UTF-8: find which, one by one
        values = [_one(column, k) for k in range(len(column))]
    return [_bad(value, field) if value is None or isinstance(value, UnicodeDecodeError) else value
            for value in values]


def _one(column, k: int):
    try:
        return column[k].as_py()
    except UnicodeDecodeError as error:
        return error


def _bad(value: UnicodeDecodeError | None, field: str) -> BadRow:
    if value is None:
        return BadRow(f"field {field!r} not a string", f"field {field!r} is null, expected a string")
    sample = value.object[value.start:value.start + 4]
    return BadRow("invalid UTF-8", f"invalid UTF-8 at byte {value.start} of field {field!r} ({sample!r})")
