"""The ``ladder`` command (also ``python -m ladder_plugins``): a thin front end.

Each subcommand group lives in a module of its own that adds its parsers and maps
its command names to functions; this module only puts them together and turns our
errors into exit statuses. Exit status: 0 passed, 1 the gate failed (or, for
``doctor``/``suppress``, something needs the user), 2 usage or configuration error:
one line on stderr, no traceback.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Callable, Optional, Sequence

if TYPE_CHECKING:
    from types import ModuleType

    import argparse

__all__ = ["main", "build_parser"]

#: The groups in the order ``ladder --help`` lists their commands.
_GROUP_NAMES = ("demo", "init", "check", "reports", "doctor", "history", "feedback", "rules", "hook", "worklog", "kb",
                "suppress")
#: The agent hooks: run on every prompt or edit under a time budget, so they skip the parser and every other
#: command's imports
_FAST = {("hook", "prompt"), ("hook", "post-edit")}


def _groups() -> list[ModuleType]:
    import importlib

    return [importlib.import_module(f"{__package__}.{name}") for name in _GROUP_NAMES]


def build_parser() -> "argparse.ArgumentParser":
    from .. import __version__
    from .common import Parser

    parser = Parser(prog="ladder", description="Structural code-quality rules (cyclomatic, cognitive, ABC, size, "
                    "interface, test quality) with a recurrence gate.", epilog="start with: ladder demo")
    parser.add_argument("--version", action="version", version=f"ladder-plugins {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in _groups():
        group.add_parsers(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    words = tuple(sys.argv[1:] if argv is None else argv)
    if words in _FAST:
        from .hook import run_hook

        return run_hook(words[1])
    return _command(argv)


def _command(argv: Optional[Sequence[str]]) -> int:
    from ..errors import LadderError
    from .common import EXIT_OK, EXIT_USAGE

    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        name: run for group in _groups() for name, run in group.COMMANDS.items()}
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
