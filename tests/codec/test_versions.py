"""functok.versions: spec 11.2's rule, one function for the loader and the suite."""

from __future__ import annotations

import doctest

from functok import versions


def test_same_major_and_no_newer_minor():
    assert versions.covers("1.2.0", "1.0.5") and versions.covers("1.2.0", "1.2.9")
    assert not versions.covers("1.2.0", "1.3.0") and not versions.covers("1.2.0", "2.0.0")
    assert not versions.covers("1.2.0", "0.2.0")


def test_anything_but_three_numbers_is_covered_by_nothing():
    for bad in ("1.0", "1.0.0.0", "v1.0.0", "1.0.0-rc1", " 1.0.0", "", None, 1, "1" * 10 + ".0.0"):
        assert not versions.covers("1.0.0", bad) and not versions.covers(bad, "1.0.0")


def test_docstring_examples_run():
    result = doctest.testmod(versions)
    assert result.failed == 0 and result.attempted > 0
