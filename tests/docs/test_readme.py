"""The README's Python examples run and show their real output."""

from __future__ import annotations

import doctest

from conftest import REPO


def test_readme_examples():
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False)
    assert result.attempted >= 6 and result.failed == 0
