"""The applications built on functok: each module here is one subcommand of ``functok``.

``compare`` (the paper's vocabulary experiment and the equal-budget table: a room of its own, :mod:`.compare`),
``tsr`` (the token saving rate of a vocabulary on a corpus, around
:func:`functok.tokenizer.tsr.measure`), ``demo`` (the web demo's local server) and ``docs`` (the
documentation site). They may need
optional dependencies (``tokenizers``, MkDocs) and are not part of the codec core: nothing in
functok imports them, except :mod:`functok.cli`, which imports a command's module only when that
command runs (:data:`functok.cli.COMMANDS`). Each module offers ``add_command(subparsers)``, and
its ``main(argv)`` runs it without the CLI (``python -m functok.commands.demo``), through
:func:`run_alone`; :func:`command_functions` makes the two from the module's ``configure``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["command_functions", "run_alone"]

Configure = Callable[[argparse.ArgumentParser], None]  # adds a command's options, sets ``func``


def run_alone(prog: str, description: str, configure: Configure, argv: Sequence[str] | None) -> int:
    """Run one command as its own program: a parser that ``configure`` fills, then the command."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    configure(parser)
    args = parser.parse_args(argv)
    return args.func(args)


def command_functions(name: str, configure: Configure, *, help: str, description: str,
                      alone: str) -> tuple[Callable[[Any], None], Callable[..., int]]:
    """A command module's ``add_command(subparsers)``, which adds ``functok <name>`` with the
    ``help`` line and the ``description``, and its ``main(argv=None)``, which runs the command as
    its own program, described by ``alone``; ``configure`` fills the parser of both."""
    def add_command(subparsers: Any) -> None:
        configure(subparsers.add_parser(name, help=help, description=description))

    def main(argv: Sequence[str] | None = None) -> int:
        return run_alone(f"functok {name}", alone, configure, argv)

    return add_command, main
