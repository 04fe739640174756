"""Which versions a version implements (spec 11): one rule for saved tokenizers and the suite.

Spec 11.1: ``spec_version`` is Semantic Versioning, and a MINOR may assign code points that an
older implementation does not know. Spec 11.2: "an implementation of ``X.Y.Z`` implements every
``X.y.z`` with ``y <= Y``". The tokenizer loader (a saved file's ``spec_version``) and the
conformance runner (the vectors' ``spec_version`` against an implementation's) both ask this
module.

>>> covers("1.0.1", "1.0.0"), covers("1.0.0", "1.0.9"), covers("1.0.0", "1.1.0"), covers("2.0.0", "1.0.0")
(True, True, False, False)
"""

from __future__ import annotations

import re

__all__ = ["covers", "parse_version"]

# Bounded digits: a version from a hostile file is not turned into a huge int.
_VERSION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,9})\Z")


def parse_version(version: object) -> tuple[int, int, int] | None:
    """(MAJOR, MINOR, PATCH) of a ``MAJOR.MINOR.PATCH`` string, or None for anything else.

    >>> parse_version("1.0.1"), parse_version("1.0"), parse_version(1)
    ((1, 0, 1), None, None)
    """
    match = _VERSION.match(version) if isinstance(version, str) else None
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def covers(implemented: str, saved: str) -> bool:
    """Whether an implementation of spec ``implemented`` implements spec ``saved``: the same
    MAJOR, and no newer MINOR (any PATCH: patches change no stream and no output). False when
    either is not a ``MAJOR.MINOR.PATCH`` version."""
    ours, theirs = parse_version(implemented), parse_version(saved)
    if ours is None or theirs is None:
        return False
    return theirs[0] == ours[0] and theirs[1] <= ours[1]
