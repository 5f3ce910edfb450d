"""``ladder rules sync|check|show``: the managed rules block in agents' rules files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..catalogue import plural
from ..errors import LadderError
from ..reports.sanitize import clean
from .common import EXIT_FAILED, EXIT_OK, command_group, emit, warn

__all__ = ["add_parsers", "COMMANDS"]

#: each action's help and examples; the group's --help lists every action's examples
_ACTION_HELP = {
    "sync": ("rebuild the block in every configured rules file (created, or appended to, when missing)",
             "  ladder rules sync                          rewrite the block in .agent/rules/feedback-loop.md\n"
             "  ladder rules sync && git diff --stat       what changed in the block, file by file"),
    "check": ("exit 1 when a file's block differs from what sync would write (like black --check)",
              "  ladder rules check                         for CI and pre-commit: names each stale file"),
    "show": ("print the block sync would write, markers included",
             "  ladder rules show                          the block, as an agent's context gets it"),
}


def add_parsers(sub: Any) -> None:
    command_group(sub, "rules", _ACTION_HELP)


def _layout(block: Any) -> str:
    """``3 sections, 1 shortened to fit, 1830 of 6144 bytes``."""
    shortened = len(block.demoted) + len(block.counted)
    cut = f", {shortened} shortened to fit" if shortened else ""
    return f"{plural(block.sections, 'section')}{cut}, {block.size} of {block.max_bytes} bytes"


def _sync(settings: Any) -> int:
    from ..rules_block.files import sync

    for outcome in sync(settings, warn=warn):
        print(f"{outcome.action} {clean(outcome.file)}: {_layout(outcome.block)}")
    return EXIT_OK


def _stale(found: Any) -> str:
    if not found.exists:
        return f"would create {clean(found.file)}"
    if not found.present:
        return f"would append the block to {clean(found.file)} (it has no block)"
    return f"would update {clean(found.file)} (its block differs from what 'ladder rules sync' writes)"


def _check(settings: Any) -> int:
    from ..rules_block.files import check

    found = check(settings, warn=warn)
    stale = [entry for entry in found if not entry.matches]
    for entry in stale:
        print(_stale(entry))
    if stale:
        print(f"{plural(len(stale), 'rules file')} out of date; 'ladder rules sync' writes them")
        return EXIT_FAILED
    print(f"the rules block is up to date in {plural(len(found), 'file')}")
    return EXIT_OK


def _show(settings: Any) -> int:
    from ..rules_block.files import show

    emit(show(settings, warn=warn), None)
    return EXIT_OK


_ACTIONS = {"sync": _sync, "check": _check, "show": _show}


def _rules(args: argparse.Namespace) -> int:
    from ..config import load_settings, no_project

    settings = load_settings(Path.cwd())
    if args.action != "show" and not settings.in_project:
        raise LadderError(f"{no_project(settings.root)}: the rules block lives in a project's files, so there is "
                          f"nothing to {args.action}; run it from inside the project")
    return _ACTIONS[args.action](settings)


COMMANDS = {"rules": _rules}
