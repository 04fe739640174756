"""The shared corpus reader (functok.commands.corpus): .txt, .jsonl, .gz and folders, documents
in order, bad input named by file and byte offset (or skipped and counted), and compare reading
.gz through it."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from functok import pretokens
from functok.chunks import InputError
from functok.commands.corpus import CorpusReader, input_file_at, read_text


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    path.write_bytes(data)
    return path


def jsonl(*texts: str) -> bytes:
    return "".join(json.dumps({"text": t}) + "\n" for t in texts).encode()


def names_and_texts(reader: CorpusReader, unit_files=None) -> list[tuple[str, str]]:
    return [(d.name, d.text) for d in reader.documents(unit_files)]


def test_folder_of_every_kind_read_in_path_order(tmp_path):
    write(tmp_path / "b.jsonl.gz", jsonl("one", "two"))
    write(tmp_path / "a.txt", b"plain text\n\nsecond paragraph\n")
    write(tmp_path / "sub" / "c.txt.gz", "gzipped résumé\n".encode())
    write(tmp_path / "sub" / "d.jsonl", jsonl("three"))
    write(tmp_path / "notes.md", b"not corpus\n")
    reader = CorpusReader([str(tmp_path)])
    got = names_and_texts(reader)
    assert got == [(f"{tmp_path}/a.txt", "plain text\n\nsecond paragraph\n"),
                   (f"{tmp_path}/b.jsonl.gz:1", "one"), (f"{tmp_path}/b.jsonl.gz:2", "two"),
                   (f"{tmp_path}/sub/c.txt.gz", "gzipped résumé\n"), (f"{tmp_path}/sub/d.jsonl:1", "three")]
    assert reader.files_read == 4
    assert [s["reason"] for s in reader.skipped] == ["not .txt, .jsonl, .parquet or .arrow"]
    paragraphs = CorpusReader([str(tmp_path / "a.txt")], unit="paragraphs")
    assert [t for _, t in names_and_texts(paragraphs)] == ["plain text\n\n", "second paragraph\n"]


@given(st.lists(st.sampled_from(["word ", "Word", "\n", "\n\n", "  x", "é", "漢字", "!"]), max_size=400).map("".join),
       st.integers(1, 64))
def test_chunks_give_the_pretokens_of_the_whole_file(text, block):
    """unit="chunks" (functok train) streams a text file; its pre-tokens are the whole file's."""
    from tempfile import TemporaryDirectory
    from unittest.mock import patch

    with TemporaryDirectory() as folder, patch("functok.commands.corpus.READ_BYTES", block):
        path = write(Path(folder, "t.txt.gz"), text.encode())
        chunks = [d.text for d in CorpusReader([str(path)], unit="chunks").documents()]
    assert "".join(chunks) == text
    if block == 1 and "\nword" in text:  # a cut point, and a block smaller than anything around it
        assert len(chunks) > 1
    assert [p for c in chunks for p in pretokens(c)] == pretokens(text)


def test_progress_counts_bytes_on_disk(tmp_path):
    a = write(tmp_path / "a.jsonl", jsonl("x" * 100, "y" * 100))
    b = write(tmp_path / "b.txt", b"z" * 50)
    ends = [d.end for d in CorpusReader([str(tmp_path)]).documents()]
    assert ends == sorted(ends) and ends[-1] == a.stat().st_size + b.stat().st_size


@pytest.mark.parametrize("name, data, message", [
    ("bad.txt", b"hello\xff world", "bad.txt: invalid UTF-8 at byte 5"),
    ("bad.txt.gz", b"0123456789\xc3(", "bad.txt.gz: invalid UTF-8 at byte 10"),
    ("bad.jsonl", jsonl("fine") + b'{"text": "b\xffd"}\n', "bad.jsonl:2: invalid UTF-8 at byte 28"),
    ("bad.jsonl.gz", jsonl("fine") + b"[1]\n", "bad.jsonl.gz:2: expected a JSON object"),
])
def test_bad_input_named_by_file_and_offset(tmp_path, name, data, message):
    write(tmp_path / name, data)
    with pytest.raises(InputError, match="--skip-bad") as caught:
        list(CorpusReader([str(tmp_path)]).documents())
    assert message in str(caught.value)
    reader = CorpusReader([str(tmp_path)], skip_bad=True)
    assert [d.text for d in reader.documents()] == (["fine"] if "jsonl" in name else [])
    assert len(reader.skipped) == 1 and message.split(": ", 1)[1].split(" at")[0] in reader.skipped[0].get(
        "detail", reader.skipped[0]["reason"])


def test_broken_gzip_is_unreadable(tmp_path):
    (tmp_path / "x.jsonl.gz").write_bytes(gzip.compress(jsonl("a", "b"))[:-6])  # truncated
    with pytest.raises(InputError, match="x.jsonl.gz: cannot read: not a valid .gz file"):
        list(CorpusReader([str(tmp_path)]).documents())
    reader = CorpusReader([str(tmp_path)], skip_bad=True)
    list(reader.documents())
    assert [s["reason"] for s in reader.skipped] == ["unreadable"]
    with pytest.raises(InputError, match="not a valid .gz"):
        read_text(tmp_path / "x.jsonl.gz")


def test_empty_and_long_line_documents_counted(tmp_path):
    write(tmp_path / "a.jsonl", jsonl("", "ok", "x" * 20))
    reader = CorpusReader([str(tmp_path)], max_line=10)
    assert [d.text for d in reader.documents()] == ["ok"]
    assert [s["reason"] for s in reader.skipped] == ["empty", "a line over 10 code points"]


def test_compare_reads_gz_through_the_shared_reader(tmp_path):
    from functok.commands.compare.corpus import load_corpus

    text = "".join(f"Paragraph {k} with Words and WORDS.\n\n" for k in range(30))
    write(tmp_path / "plain" / "a.txt", text.encode())
    write(tmp_path / "zipped" / "a.txt.gz", text.encode())
    plain, zipped = load_corpus([str(tmp_path / "plain")]), load_corpus([str(tmp_path / "zipped")])
    assert [d.text for d in plain.documents] == [d.text for d in zipped.documents]
    assert len(plain.documents) == 30 and zipped.files == 1


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_shares_split_the_records_and_their_skips(tmp_path, count):
    write(tmp_path / "a.jsonl", jsonl("a1", "a2") + b"\n   \n[1]\n" + jsonl("a3"))
    write(tmp_path / "b.txt", b"b as a whole")
    write(tmp_path / "c.jsonl.gz", jsonl("c1", "", "c3"))
    whole = CorpusReader([str(tmp_path)], skip_bad=True)
    everything = names_and_texts(whole)
    shares = []
    for rank in range(count):
        reader = CorpusReader([str(tmp_path)], skip_bad=True, share=(rank, count))
        shares.append((names_and_texts(reader), reader.skipped))
    got = sorted(doc for docs, _ in shares for doc in docs)
    assert got == sorted(everything) and len(got) == len(set(got))
    assert sorted(s["what"] for _, skipped in shares for s in skipped) == sorted(s["what"] for s in whole.skipped)
    records = [n for n, _ in everything] + [s["what"] for s in whole.skipped]  # blank lines are no records
    assert len(records) == 8  # a1 a2 [1] a3, b, c1 "" c3


def test_the_skip_summary_counts_past_the_listed_skips():
    """functok tokenize lists the first 10,000 skips in its manifest; the summary it prints must
    count them all, and name an example only where one is listed."""
    from functok.commands.corpus_cli import skipped_summary

    listed = [{"reason": "empty", "what": "a.jsonl:1"}, {"reason": "empty", "what": "a.jsonl:2"}]
    assert skipped_summary(listed) == ["2 (empty), e.g. a.jsonl:1"]
    assert skipped_summary(listed, {"empty": 12_345, "invalid UTF-8": 3}) == [
        "12,345 (empty), e.g. a.jsonl:1", "3 (invalid UTF-8)"]


def test_an_output_folder_in_the_corpus_is_left_out(tmp_path, monkeypatch):
    """exclude: the walk does not enter the output folder, however the two are spelt (through a
    link, relative, with ..), and records no skip for it (a resumed run lists what the run did)."""
    write(tmp_path / "c" / "a.txt", b"kept\n")
    write(tmp_path / "c" / "out" / "00000.ds.documents.jsonl", jsonl("the run's own output"))
    write(tmp_path / "c" / "outer" / "b.txt", b"a folder whose name starts the same\n")
    (tmp_path / "link").symlink_to(tmp_path / "c")
    monkeypatch.chdir(tmp_path)
    for corpus, out in [("c", "c/out"), ("link", str(tmp_path / "c" / "out")), (str(tmp_path / "c"), "link/../c/out")]:
        reader = CorpusReader([corpus], exclude=[out])
        assert [f.name for f in reader.files()] == ["a.txt", "b.txt"], (corpus, out)
        assert reader.skipped == []
    assert [f.name for f in CorpusReader(["c"]).files()] == ["a.txt", "00000.ds.documents.jsonl", "b.txt"]


def test_a_path_in_the_output_folder_is_refused(tmp_path):
    inside = write(tmp_path / "out" / "x.jsonl", jsonl("text"))
    for path, out in [(inside, tmp_path / "out"), (tmp_path / "out", tmp_path / "out" / ".."),
                      (tmp_path / "out" / ".." / "out" / "x.jsonl", tmp_path / "out")]:
        with pytest.raises(InputError, match=f"^{re.escape(str(path))} is in the output folder {re.escape(str(out))}:"):
            CorpusReader([str(path)], exclude=[out]).files()


def test_input_file_at_resolves_links_relative_paths_and_hard_links(tmp_path, monkeypatch):
    a = write(tmp_path / "c" / "a.jsonl", jsonl("text"))
    (tmp_path / "soft.jsonl").symlink_to(a)
    os.link(a, tmp_path / "hard.jsonl")
    monkeypatch.chdir(tmp_path)
    files = CorpusReader(["c"]).files()
    for out in (a, "c/../c/a.jsonl", "soft.jsonl", "hard.jsonl"):
        assert input_file_at(out, files) == files[0], out
    assert input_file_at("c/new.jsonl", files) is None and input_file_at("c", files) is None
