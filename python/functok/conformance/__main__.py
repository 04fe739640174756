"""`python -m functok.conformance`: the same runner as `functok conformance`."""

import argparse
import sys

from .cli import add_runner_arguments, run_command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m functok.conformance",
                                     description="Run the functok conformance vectors.")
    add_runner_arguments(parser)
    return run_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
