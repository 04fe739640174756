"""`python -m functok ...`: the `functok` command line (:func:`functok.cli.main`), for a Python
whose scripts directory is not on the PATH (js/SPEC-GAPS.md, G10)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
