"""Parquet and Arrow corpus files: the rows of a ``.parquet`` file, of an Arrow
IPC file or stream, and of a ``datasets`` ``save_to_disk`` folder are the documents a ``.jsonl``
file of the same texts gives, for the reader and for ``functok train``, ``tokenize`` and
``compare``; bad files and rows get the same typed, named errors and ``--skip-bad`` as
``.jsonl``, and the commands exit 2. Every file is made here, with pyarrow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
import pyarrow.ipc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from functok.chunks import InputError  # noqa: E402
from functok.cli import main  # noqa: E402
from functok.commands import tables  # noqa: E402
from functok.commands.corpus import CorpusReader  # noqa: E402
from functok.commands.tables import TableFileError  # noqa: E402

TEXTS = [f"The River {k} flows; RIVER river. def f{k}(x): return x * {k}\nnaïve 漢字 {k}" for k in range(40)]
# Text Hypothesis makes: any code points but surrogates (no UTF-8 file holds those).
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)


def write_parquet(path: Path, texts: list, *, column: str = "text", row_group_size: int = 7) -> Path:
    table = pa.table({"id": list(range(len(texts))), column: pa.array(texts, type=pa.string())})
    pq.write_table(table, path, row_group_size=row_group_size)
    return path


def write_arrow(path: Path, texts: list, *, stream: bool = True, batch: int = 5) -> Path:
    table = pa.table({column: values for column, values in (("text", pa.array(texts, type=pa.string())),
                                                            ("n", list(range(len(texts)))))})
    opener = pa.ipc.new_stream if stream else pa.ipc.new_file
    with opener(str(path), table.schema) as writer:
        writer.write_table(table, max_chunksize=batch)
    return path


def write_jsonl(path: Path, texts: list[str]) -> Path:
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")
    return path


def texts_of(reader: CorpusReader) -> list[str]:
    return [doc.text for doc in reader.documents()]


def invalid_utf8_column(values: list[bytes | None]):
    """A string column holding the bytes as they are (valid UTF-8 or not): what a careless writer makes."""
    return pa.array(values, type=pa.binary()).view(pa.string())


# --- the rows are the documents ----------------------------------------------------------------


@given(st.lists(TEXT, max_size=12))
def test_parquet_and_arrow_rows_are_the_jsonl_records(tmp_path_factory, texts):
    folder = tmp_path_factory.mktemp("same")
    want = texts_of(CorpusReader([str(write_jsonl(folder / "a.jsonl", texts))]))
    assert want == [t for t in texts if t]  # an empty record is skipped and counted, in every format
    for path in (write_parquet(folder / "a.parquet", texts, row_group_size=3),
                 write_arrow(folder / "s.arrow", texts, batch=4), write_arrow(folder / "f.arrow", texts, stream=False)):
        reader = CorpusReader([str(path)])
        assert texts_of(reader) == want, path.name
        assert [s["reason"] for s in reader.skipped] == ["empty"] * texts.count("")


def test_documents_are_named_by_row(tmp_path):
    path = write_parquet(tmp_path / "a.parquet", ["x", "", "y"])
    reader = CorpusReader([str(path)])
    assert [(d.name, d.text) for d in reader.documents()] == [(f"{path}[0]", "x"), (f"{path}[2]", "y")]
    assert reader.skipped == [{"what": f"{path}[1]", "reason": "empty", "characters": 0}]


def test_the_text_column_is_chosen_by_name(tmp_path):
    path = write_parquet(tmp_path / "a.parquet", TEXTS[:3], column="content")
    assert texts_of(CorpusReader([str(path)], field="content")) == TEXTS[:3]
    dictionary = tmp_path / "dict.parquet"  # a dictionary-encoded column is strings too
    pq.write_table(pa.table({"text": pa.array(["a", "b", "a"]).dictionary_encode()}), dictionary)
    assert texts_of(CorpusReader([str(dictionary)])) == ["a", "b", "a"]


def test_a_datasets_folder_is_read_in_order_without_its_metadata(tmp_path):
    datasets = pytest.importorskip("datasets")
    folder = tmp_path / "saved"
    datasets.Dataset.from_dict({"text": TEXTS, "n": list(range(len(TEXTS)))}).save_to_disk(str(folder), num_shards=3)
    assert sorted(p.name for p in folder.iterdir()) == [
        "data-00000-of-00003.arrow", "data-00001-of-00003.arrow", "data-00002-of-00003.arrow",
        "dataset_info.json", "state.json"]
    reader = CorpusReader([str(folder)])
    assert texts_of(reader) == TEXTS and reader.skipped == []  # the JSON files are no skip


def test_workers_share_the_rows(tmp_path):
    files = [str(write_parquet(tmp_path / "a.parquet", TEXTS[:13])), str(write_arrow(tmp_path / "b.arrow", TEXTS[13:]))]
    shares = [texts_of(CorpusReader(files, share=(rank, 3))) for rank in range(3)]
    assert sorted(sum(shares, [])) == sorted(TEXTS) and all(shares)


def test_progress_reaches_the_file_size(tmp_path):
    path = write_parquet(tmp_path / "a.parquet", TEXTS)
    ends = [doc.end for doc in CorpusReader([str(path)]).documents()]
    assert ends == sorted(ends) and ends[-1] == path.stat().st_size


# --- bad files and rows --------------------------------------------------------------------------


def bad_files(folder: Path) -> dict[str, tuple[Path, str, str]]:
    """Each kind of bad table file: (path, the reason a skip counts, what the message says)."""
    good = write_parquet(folder / "good.parquet", TEXTS[:20]).read_bytes()
    (folder / "truncated.parquet").write_bytes(good[: len(good) // 2])
    stream = write_arrow(folder / "whole.arrow", TEXTS[:20]).read_bytes()
    (folder / "truncated.arrow").write_bytes(stream[:-40])
    (folder / "whole.arrow").unlink()
    (folder / "not-arrow.arrow").write_bytes(b"text that is no Arrow stream at all")
    write_parquet(folder / "wrong-column.parquet", TEXTS[:3], column="body")
    pq.write_table(pa.table({"text": [1, 2, 3]}), folder / "numbers.parquet")
    (folder / "good.parquet").unlink()
    return {
        "truncated.parquet": ("unreadable", "not a valid Parquet file"),
        "truncated.arrow": ("unreadable", "not a valid Arrow file"),
        "not-arrow.arrow": ("unreadable", "not a valid Arrow file"),
        "wrong-column.parquet": ("no column 'text'", "no column 'text' (its columns: id, body"),
        "numbers.parquet": ("column 'text' not strings", "column 'text' holds int64, expected strings"),
    }


def test_bad_files_are_typed_named_errors_or_skipped(tmp_path):
    expected = bad_files(tmp_path)
    for name, (reason, message) in expected.items():
        path = tmp_path / name
        with pytest.raises(InputError) as caught:
            texts_of(CorpusReader([str(path)]))
        assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value), name
        assert "--skip-bad skips such files" in str(caught.value)
        with pytest.raises(TableFileError):  # the type the reader's caller can tell apart
            list(tables.table_rows(path, str(path), "text"))
    reader = CorpusReader([str(tmp_path)], skip_bad=True)
    # As a .jsonl.gz file cut short: the records before the break are read (here the stream's
    # whole batches of 5 rows), then the file is skipped.
    assert texts_of(reader) == TEXTS[:15]
    assert sorted((s["what"], s["reason"]) for s in reader.skipped) == sorted(
        (str(tmp_path / name), reason) for name, (reason, _) in expected.items())


def test_bad_rows_are_named_and_skipped_as_bad_lines(tmp_path):
    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"text": invalid_utf8_column([b"good", b"bad \xff\xfe", None, b"fine"])}), path)
    with pytest.raises(InputError, match=r"rows\.parquet\[1\]: invalid UTF-8 at byte 4 of field 'text' "
                                         r"\(b'\\xff\\xfe'\) \(--skip-bad skips such rows\)"):
        texts_of(CorpusReader([str(path)]))
    reader = CorpusReader([str(path)], skip_bad=True)
    assert texts_of(reader) == ["good", "fine"]
    assert [(s["what"], s["reason"]) for s in reader.skipped] == [
        (f"{path}[1]", "bad .parquet row: invalid UTF-8"), (f"{path}[2]", "bad .parquet row: field 'text' not a string")]
    arrow = tmp_path / "rows.arrow"
    table = pa.table({"text": invalid_utf8_column([None, b"ok"])})
    with pa.ipc.new_stream(str(arrow), table.schema) as writer:
        writer.write_table(table)
    with pytest.raises(InputError, match=r"rows\.arrow\[0\]: field 'text' is null, expected a string"):
        texts_of(CorpusReader([str(arrow)]))


# --- the commands ---------------------------------------------------------------------------------


def test_train_on_parquet_is_train_on_jsonl(tmp_path, capsys):
    pytest.importorskip("tokenizers")
    outs = {}
    for kind, path in (("jsonl", write_jsonl(tmp_path / "c.jsonl", TEXTS)),
                       ("parquet", write_parquet(tmp_path / "c.parquet", TEXTS, column="content"))):
        outs[kind] = tmp_path / f"{kind}.json"
        assert main(["train", "--no-progress", "--vocab-size", "300", "--profile", "paper", "--corpus", str(path),
                     "--text-column", "content" if kind == "parquet" else "text", "--out", str(outs[kind])]) == 0
    assert outs["parquet"].read_bytes() == outs["jsonl"].read_bytes()
    capsys.readouterr()


def test_commands_exit_2_on_a_bad_table_file(tmp_path, capsys):
    pytest.importorskip("tokenizers")
    bad = tmp_path / "c.parquet"
    write_parquet(bad, TEXTS, column="body")
    assert main(["train", "--no-progress", "--vocab-size", "300", "--corpus", str(bad),
                 "--out", str(tmp_path / "t.json")]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: no column 'text'" in err and "Traceback" not in err
    assert main(["compare", "--corpus", str(bad), "--out", str(tmp_path / "report"), "--vocab-size", "300"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: no column 'text'" in err and "Traceback" not in err


def test_tokenize_parquet_gives_the_jsonl_shards(tmp_path):
    pytest.importorskip("datatrove")
    from functok import Tokenizer

    Tokenizer.train(iter(TEXTS), vocab_size=300, profile="paper", show_progress=False).save(tmp_path / "tok.json")
    shards = {}
    for kind, path in (("jsonl", write_jsonl(tmp_path / "c.jsonl", TEXTS)),
                       ("parquet", write_parquet(tmp_path / "c.parquet", TEXTS)),
                       ("arrow", write_arrow(tmp_path / "c.arrow", TEXTS))):
        out = tmp_path / f"out-{kind}"
        assert main(["tokenize", "--no-progress", "--quiet", "--corpus", str(path), "--tokenizer",
                     str(tmp_path / "tok.json"), "--out", str(out), "--tasks", "3", "--workers", "1"]) == 0
        shards[kind] = {p.name: p.read_bytes() for p in sorted(out.glob("*.ds*")) if not p.name.endswith(".json")
                        and not p.name.endswith(".jsonl")}
    assert shards["parquet"] == shards["jsonl"] == shards["arrow"] and len(shards["jsonl"]) >= 6


def test_a_bad_row_is_reported_by_the_worker_that_owns_it(tmp_path):
    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"text": invalid_utf8_column([b"a", b"\xff", b"c", b"d"])}), path)
    readers = [CorpusReader([str(path)], skip_bad=True, share=(rank, 2)) for rank in range(2)]
    assert [texts_of(reader) for reader in readers] == [["a", "c"], ["d"]]
    assert [[s["what"] for s in reader.skipped] for reader in readers] == [[], [f"{path}[1]"]]
