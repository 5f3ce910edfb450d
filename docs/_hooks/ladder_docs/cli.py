"""The command-line reference: every ``ladder`` subcommand's ``--help``, as argparse prints it.

The parsers are the ones ``ladder`` runs (``ladder_plugins.cli.main.build_parser``, every command's module
imported); a command with actions (``ladder history prune``) gets one block per action. The text is
formatted at a fixed width, so the page does not depend on the terminal the site was built in.
"""

from __future__ import annotations

import argparse
import os
from typing import Iterator

WIDTH = "100"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its sub-parsers here only
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def helps() -> Iterator[tuple[str, str]]:
    """``(words, help text)`` for ``ladder`` itself, each subcommand and each action, in ``--help`` order."""
    from ladder_plugins.cli.main import build_parser

    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH  # argparse reads the width when a help is formatted
    try:
        yield "ladder", build_parser("").format_help()
        for name, sub in _subcommands(build_parser()).items():
            yield f"ladder {name}", sub.format_help()
            for action, parser in _subcommands(sub).items():
                yield f"ladder {name} {action}", parser.format_help()
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def page() -> str:
    """The generated part of ``reference/cli.md``: one block per command and action."""
    parts = []
    for words, text in helps():
        parts += [f"### `{words}`", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(parts)
