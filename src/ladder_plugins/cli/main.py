"""The ``ladder`` command (also ``python -m ladder_plugins``): a thin front end.

Each subcommand group lives in a module of its own that adds its parsers and maps
its command names to functions; this module only puts them together and turns our
errors into exit statuses. Exit status: 0 passed, 1 the gate failed (or, for
``doctor``/``suppress``, something needs the user), 2 usage or configuration error:
one line on stderr, no traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from ..errors import LadderError
from . import check, demo, doctor, feedback, history, init, reports, suppress
from .common import EXIT_OK, EXIT_USAGE, Parser

__all__ = ["main", "build_parser"]

#: The groups in the order ``ladder --help`` lists their commands.
_GROUPS = (demo, init, check, reports, doctor, history, feedback, suppress)


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = Parser(prog="ladder", description="Structural code-quality rules (cyclomatic, cognitive, ABC, size, "
                    "interface, test quality) with a recurrence gate.", epilog="start with: ladder demo")
    parser.add_argument("--version", action="version", version=f"ladder-plugins {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in _GROUPS:
        group.add_parsers(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    commands = {name: run for group in _GROUPS for name, run in group.COMMANDS.items()}
    try:
        os.getcwd()
    except OSError as exc:  # a directory deleted under the shell
        print(f"ladder: error: the current directory cannot be read ({exc.strerror or exc}); "
              "change to an existing directory", file=sys.stderr)
        return EXIT_USAGE
    try:
        return commands[args.command](args)
    except LadderError as exc:
        print(f"ladder: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `ladder metrics | head`
        return EXIT_OK
