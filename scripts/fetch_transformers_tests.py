"""Unpacks transformers' own tokenizer tests (``TokenizerTesterMixin``) for
tests/integrations/test_transformers_mixin.py (a set-up step of scripts/test.sh; the tests never download
anything).

transformers' wheel leaves its test suite out; its source distribution on PyPI ships the
top-level files of ``tests/``: ``test_tokenization_common.py`` and the two backend mixins it
imports. ``pip download --no-deps --no-binary :all:`` fetches only that archive, for the version
installed here (the mixin must match the library it tests, and the dev extra allows any 5.x, so
neither the version nor a digest can be pinned: pip checks the archive against the index's
hash). The folder gets the ``tests/*.py`` files and a ``VERSION`` file; a folder that already
holds this version is kept.

    python scripts/fetch_transformers_tests.py .cache/functok/transformers-tests
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from importlib.metadata import version
from pathlib import Path

NEEDED = "test_tokenization_common.py"


def unpack_tests(archive: Path, out: Path) -> None:
    """The ``tests/*.py`` files at the top of the sdist's ``tests/`` folder, into ``out``."""
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = Path(member.name).parts
            if member.isfile() and len(parts) == 3 and parts[1] == "tests" and parts[2].endswith(".py"):
                (out / parts[2]).write_bytes(tar.extractfile(member).read())


def main(target: str) -> int:
    out = Path(target)
    wanted = version("transformers")
    stamp = out / "VERSION"
    if stamp.is_file() and stamp.read_text().strip() == wanted and (out / NEEDED).is_file():
        return 0  # this version's tests are there already
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                        "--no-deps", "--no-binary", ":all:", f"transformers=={wanted}", "-d", folder], check=True)
        (archive,) = Path(folder).glob("transformers-*.tar.gz")
        partial = out.with_name(out.name + ".part")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        unpack_tests(archive, partial)
    if not (partial / NEEDED).is_file():
        print(f"transformers {wanted}: its sdist has no tests/{NEEDED}", file=sys.stderr)
        return 1
    (partial / "VERSION").write_text(wanted + "\n")
    shutil.rmtree(out, ignore_errors=True)
    partial.replace(out)  # never a half-unpacked folder under the final name
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
