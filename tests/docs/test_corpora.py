"""The corpora the repository carries (corpora/): every test, benchmark and doc example that reads
the UDHR reads these files, so a fresh clone tests itself. The index must describe the files
exactly, or a reader of corpora/README.md would be told something untrue."""

from __future__ import annotations

import csv

from conftest import REPO, UDHR, udhr_files


def index_rows() -> list[dict[str, str]]:
    with open(UDHR / "INDEX.tsv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_every_udhr_file_is_indexed_once_and_nothing_else_is_there():
    codes = [row["code"] for row in index_rows()]
    assert len(codes) == len(set(codes)) == 532
    assert sorted(f"{code}.txt" for code in codes) == [path.name for path in udhr_files()]
    assert sorted(p.name for p in UDHR.iterdir()) == sorted([*(f"{c}.txt" for c in codes), "INDEX.tsv"])


def test_the_index_counts_each_files_code_points():
    for row in index_rows():
        text = (UDHR / f"{row['code']}.txt").read_bytes().decode("utf-8")  # strict: valid UTF-8
        assert len(text) == int(row["characters"]), row["code"]
        assert "\r" not in text and not text.startswith("\ufeff"), row["code"]  # LF, no BOM, as the README says


def test_the_corpora_say_where_they_come_from():
    readme = (REPO / "corpora" / "README.md").read_text(encoding="utf-8")
    assert "eric-muller/udhr" in readme and "License / terms" in readme
