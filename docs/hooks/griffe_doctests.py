"""A Griffe extension for the API reference: doctest examples in docstrings become code blocks.

functok's docstrings hold doctests (``>>> functok.encode("Héllo")`` and the output below it)
that the test suite runs. Left as they are, Markdown reads ``>>>`` as a block quote and
``['ACUTE(1)']`` as a link; fenced as ``pycon`` they render as the console session they are.
mkdocs.yml loads this file (mkdocstrings ``extensions:``).
"""

from __future__ import annotations

import griffe


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
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
