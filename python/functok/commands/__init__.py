"""The applications built on functok: each module here is one subcommand of ``functok``.

``compare`` (the paper's vocabulary experiment and the equal-budget table: a room of its own, :mod:`.compare`),
``tsr`` (the token saving rate of a vocabulary on a corpus, around
:func:`functok.tokenizer.tsr.measure`), ``demo`` (the web demo's local server) and ``docs`` (the
documentation site). They may need
optional dependencies (``tokenizers``, MkDocs) and are not part of the codec core: nothing in
functok imports them, except :mod:`functok.cli`, which imports a command's module only when that
command runs (:data:`functok.cli.COMMANDS`). Each module offers ``add_command(subparsers)``, and
its ``main(argv)`` runs it without the CLI (``python -m functok.commands.demo``), through
:func:`run_alone`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

__all__ = ["run_alone"]


def run_alone(prog: str, description: str, configure: Callable[[argparse.ArgumentParser], None],
              argv: Sequence[str] | None) -> int:
    """Run one command as its own program: a parser that ``configure`` fills, then the command."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    configure(parser)
    args = parser.parse_args(argv)
    return args.func(args)
