"""A Griffe extension for the API reference: functok's docstrings read as Markdown.

* Doctests (``>>> functok.encode("Héllo")`` and the output below them), which the test suite
  runs, become ``pycon`` code blocks: left as they are, Markdown reads ``>>>`` as a block quote
  and ``['ACUTE(1)']`` as a link.
* Sphinx roles (``:func:`encode```, ``:mod:``, ``:class:``...) become code spans.

mkdocs.yml loads this file (mkdocstrings ``extensions:``).
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|mod|class|meth|attr|data|obj|exc|const):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Wrap each run of lines that starts with a ``>>>`` line (up to a blank line) in a fence."""
    out: list[str] = []
    in_example = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_example:
            out.append("```pycon")
            in_example = True
        elif in_example and not line.strip():
            out.append("```")
            in_example = False
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(ROLE.sub(r"`\1`", obj.docstring.value))
