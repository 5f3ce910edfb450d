"""``ladder kb check|index|move``: the forced-feedback-loop knowledge base, linted, indexed, reorganised."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..reports.sanitize import clean
from .common import EXIT_FAILED, EXIT_OK, command_group, emit
from .worklog import add_lint_output

__all__ = ["add_parsers", "COMMANDS"]

_ACTION_HELP = {
    "check": ("lint the notes (frontmatter, folders, links, evidence), the registers and _index.md; exit 1 on "
              "any problem",
              "  ladder kb check                            kb/ (or [tool.ladder.worklog] kb)\n"
              "  ladder kb check notes/kb --format json     another directory, as JSON"),
    "index": ("rebuild _index.md (tag -> notes) from the notes; the same notes give the same file",
              "  ladder kb index                            rewrite kb/_index.md if it changed"),
    "move": ("move a note to curated/ or archive/: status, updated and archived_reason set; nothing deleted",
             "  ladder kb move 20260303-143000-pool-size curated\n"
             "  ladder kb move 20260303-143000-pool-size archive --reason 'falsified by the load test'"),
}


def add_parsers(sub: Any) -> None:
    parsers = command_group(sub, "kb", _ACTION_HELP)
    parsers["move"].add_argument("note", metavar="ID", help="the note's id (its file name without .md)")
    parsers["move"].add_argument("target", choices=("curated", "archive"), help="the folder it moves to")
    parsers["move"].add_argument("--reason", metavar="TEXT", help="why (archived_reason; required for archive)")
    for name in ("check", "index", "move"):
        parsers[name].add_argument("directory", nargs="?", metavar="DIR",
                                   help="the knowledge base (default: [tool.ladder.worklog] kb, else kb)")
    add_lint_output(parsers["check"])


def _target(args: argparse.Namespace) -> tuple[Any, Any]:
    from ..config import load_settings
    from ..worklog.service import kb_target

    settings = load_settings(Path.cwd())
    return settings, kb_target(settings, args.directory)


def _location(args: argparse.Namespace) -> tuple[Any, tuple[Path, str], Path]:
    """The knowledge base as the command names it, where the knowledge base code finds it, and the lock its
    writers hold: in the history directory in a project, else a hidden file beside the knowledge base."""
    from ..ladderdir.lock import project_lock
    from ..worklog.service import kb_split

    settings, target = _target(args)
    lock = (project_lock(settings.root, settings.history_dir, "kb.lock") if settings.in_project
            else target.path.parent / f".{target.path.name}.lock")
    return target, kb_split(settings, target), lock


def _check(args: argparse.Namespace) -> int:
    from ..worklog.output import render
    from ..worklog.service import check_knowledge_base

    settings, target = _target(args)
    checked = check_knowledge_base(settings, target)
    emit(render(args.format, checked.problems, checked.notes, checked.checked, "knowledge base"), args.output)
    return EXIT_FAILED if checked.failed else EXIT_OK


def _index(args: argparse.Namespace) -> int:
    from ..ladderdir.lock import held
    from ..worklog.kb import write_index

    target, (root, directory), lock = _location(args)
    with held(lock, f"the knowledge base {target.shown}"):
        changed = write_index(root, directory)
    print(f"{'wrote' if changed else 'unchanged:'} {clean(target.shown)}/_index.md")
    return EXIT_OK


def _move(args: argparse.Namespace) -> int:
    from ..history.run import now_utc
    from ..ladderdir.lock import held
    from ..worklog.kbmove import move_note

    target, (root, directory), lock = _location(args)
    # held from the scan to the index: two moves of one note at once would each copy it, leaving it twice
    with held(lock, f"the knowledge base {target.shown}"):
        moved = move_note(root, directory, args.note, args.target, reason=args.reason, now=now_utc())
    print(f"moved {clean(args.note)} to {clean(target.shown)}/{args.target}/{clean(moved.name)}; _index.md rebuilt")
    return EXIT_OK


_ACTIONS = {"check": _check, "index": _index, "move": _move}


def _kb(args: argparse.Namespace) -> int:
    return _ACTIONS[args.action](args)


COMMANDS = {"kb": _kb}
