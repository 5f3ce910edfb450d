"""The ``ladder`` command (also ``python -m ladder_plugins``): a thin front end.

Each subcommand group lives in a module of its own that adds its parsers and maps
its command names to functions; this module puts together the parser a run needs
(its own command's module alone is imported) and turns our errors into exit
statuses. Exit status: 0 passed, 1 the gate failed (or, for
``doctor``/``suppress``, something needs the user), 2 usage or configuration error:
one line on stderr, no traceback.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Callable, Optional, Sequence

if TYPE_CHECKING:
    import argparse

__all__ = ["main", "build_parser"]

#: The agent hooks: run on every prompt or edit under a time budget, so they skip the parser and every other
#: command's imports
_FAST = {("hook", "prompt"), ("hook", "post-edit")}


def build_parser(command: Optional[str] = None) -> "argparse.ArgumentParser":
    """The ``ladder`` parser. Without ``command``: every command with all its arguments, each command's module
    imported. With ``command``, one of :data:`~.common.SUBCOMMANDS`: that command's module alone adds its
    parsers, the others are not imported, so a run pays for its own command only. With any other word: every
    command listed by name and help line, none imported (``ladder --help``, an unknown command's error)."""
    from importlib import import_module

    from .. import __version__
    from .common import SUBCOMMANDS, Parser

    parser = Parser(prog="ladder", description="Structural code-quality rules (cyclomatic, cognitive, ABC, size, "
                    "interface, test quality) with a recurrence gate.", epilog="start with: ladder demo")
    parser.add_argument("--version", action="version", version=f"ladder-plugins {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    chosen = [each.module for each in SUBCOMMANDS if command in (None, each.name)]
    if not chosen:
        for each in SUBCOMMANDS:  # listed, never parsing: a known command word builds its own parser above
            sub.add_parser(each.name, help=each.help)
    for module in dict.fromkeys(chosen):  # a module adds all its commands (``check`` adds ``metrics`` too)
        import_module(f"{__package__}.{module}").add_parsers(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    words = tuple(sys.argv[1:] if argv is None else argv)
    if words in _FAST:
        from .hook import run_hook

        return run_hook(words[1])
    return _command(list(words))


def _command(words: list[str]) -> int:
    from importlib import import_module

    from ..errors import LadderError
    from .common import EXIT_OK, EXIT_USAGE, SUBCOMMANDS

    # the command is the first word or there is none (only --help and --version come before it)
    parser = build_parser(words[0] if words else "")
    args = parser.parse_args(words)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    module = next(each.module for each in SUBCOMMANDS if each.name == args.command)
    run: Callable[[argparse.Namespace], int] = import_module(f"{__package__}.{module}").COMMANDS[args.command]
    try:
        os.getcwd()
    except OSError as exc:  # a directory deleted under the shell
        print(f"ladder: error: the current directory cannot be read ({exc.strerror or exc}); "
              "change to an existing directory", file=sys.stderr)
        return EXIT_USAGE
    try:
        return run(args)
    except LadderError as exc:
        print(f"ladder: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `ladder metrics | head`
        return EXIT_OK
