"""``ladder feedback scan|report|add|list|check|merge|split``: the feedback-ladder tracker."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..catalogue import plural
from ..errors import LadderError
from ..reports.sanitize import clean
from .common import EXIT_FAILED, EXIT_OK, command_group, emit, warn

__all__ = ["add_parsers", "COMMANDS"]

_ACTION_HELP = {
    "scan": ("collect feedback from every source, match it into items, update the state file",
             "  ladder feedback scan                       update .claude/feedback-ladder-state.json\n"
             "  ladder feedback scan --dry-run             what a scan would change, writing nothing"),
    "report": ("the Feedback Encoding Ladder Analysis: what to promote, and how",
               "  ladder feedback report                     Markdown, the tracker's report layout\n"
               "  ladder feedback report --format json       schema ladder-feedback, version 1"),
    "add": ("add a piece of review feedback (level 1) and count it now",
            "  ladder feedback add \"don't catch bare exceptions\" --keywords except,exception"),
    "list": ("the tracked items, one line each",
             "  ladder feedback list                       id, level now, recommended level, occurrences\n"
             "  ladder feedback list --sources             and each item's sources, numbered (for split)"),
    "check": ("exit 1 when an item has needed promotion for longer than [tool.ladder.feedback] grace_days",
              "  ladder feedback check                      for CI and pre-commit (off until grace_days is set)"),
    "merge": ("correct the matcher: the feedback of OTHER items is KEEP's (their sources move into KEEP)",
              "  ladder feedback merge no-bare-except never-catch   one item, counted again; kept across scans\n"
              "  ladder feedback merge KEEP OTHER --dry-run         what would change, writing nothing"),
    "split": ("correct the matcher: sources of ITEM (numbered as list --sources shows) are other feedback",
              "  ladder feedback list --sources                     number each item's sources\n"
              "  ladder feedback split type-hint 2 3                sources 2 and 3 to a new item; kept across scans"),
}


def add_parsers(sub: Any) -> None:
    parsers = command_group(sub, "feedback", _ACTION_HELP)
    for name in ("scan", "report", "add", "check"):
        parsers[name].add_argument("--memory-dir", metavar="DIR",
                                   help="the Claude Code memory directory to read (default: the project's own)")
    parsers["scan"].add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    parsers["report"].add_argument("--format", choices=("markdown", "text", "json"), default="markdown")
    parsers["report"].add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")
    parsers["report"].add_argument("--no-scan", action="store_true", help="report the state file as it is")
    parsers["add"].add_argument("text", metavar="TEXT", help="what the feedback says")
    parsers["list"].add_argument("--sources", action="store_true",
                                 help="number each item's counted sources, with their text (what split names)")
    parsers["merge"].add_argument("keep", metavar="KEEP", help="the item that stays (its id and topic kept)")
    parsers["merge"].add_argument("others", metavar="OTHER", nargs="+", help="an item whose feedback is KEEP's")
    parsers["split"].add_argument("item", metavar="ITEM", help="the item the matcher joined wrongly")
    parsers["split"].add_argument("sources", metavar="SOURCE", nargs="+",
                                  help="the number of a source that is other feedback (list --sources)")
    for name in ("merge", "split"):
        parsers[name].add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    parsers["add"].add_argument("--keywords", metavar="WORDS", default="",
                                help="comma-separated keywords to match it by (added to its own words)")


def _tracker(args: argparse.Namespace) -> Any:
    from ..config import load_settings, no_project
    from ..tracker.service import Tracker

    settings = load_settings(Path.cwd())
    if not settings.in_project:
        raise LadderError(f"{no_project(settings.root)}: the tracker keeps its state in a project; run it from "
                          "inside one")
    return Tracker(settings, warn, memory_dir=getattr(args, "memory_dir", None))


def _scan(args: argparse.Namespace) -> int:
    tracker = _tracker(args)
    scan, state = tracker.scan(dry_run=args.dry_run)
    verb = "would add" if args.dry_run or state.read_only else "added"
    print(f"{plural(scan.sightings, 'piece')} of feedback found; {verb} {plural(len(scan.new_items), 'new item')} "
          f"and {plural(scan.new_occurrences, 'new occurrence')}; {plural(len(state.items), 'item')} in "
          f"{clean(tracker.state_file.shown)}" + (" (not written)" if args.dry_run or state.read_only else ""))
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from ..tracker.render import report_json, report_markdown, report_text

    tracker = _tracker(args)
    state = tracker.read() if args.no_scan else tracker.scan()[1]
    render = {"markdown": report_markdown, "text": report_text, "json": report_json}[args.format]
    emit(render(state.tracked(), tracker.topics, tracker.state_file.shown), args.output)
    return EXIT_OK


def _add(args: argparse.Namespace) -> int:
    tracker = _tracker(args)
    entry, scan, state = tracker.add_note(args.text, args.keywords.split(","))
    item = tracker.holder(state, f"note:{entry['id']}")
    where = f"item {clean(item.id)} ({plural(item.occurrences, 'occurrence')})" if item else "no item"
    print(f"added note {entry['id'][:12]}: counted in {where}")
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    from ..tracker.render import report_text

    tracker = _tracker(args)
    print(report_text(tracker.read().tracked(), tracker.topics, tracker.state_file.shown, sources=args.sources))
    return EXIT_OK


def _corrected(args: argparse.Namespace, done: Any, what: str, state_file: Any) -> int:
    """What a merge or split did (or would do), and each item it left, as it now reads."""
    from ..tracker.model import LEVELS

    written = not args.dry_run
    print(f"{'' if written else 'would '}{what}; {plural(done.moved, 'source')} moved in "
          f"{clean(state_file.shown)}" + ("" if written else " (not written)"))
    for item in done.items:
        print(f"  {clean(item.id)}: {plural(item.occurrences, 'occurrence')}; level {item.current_level} "
              f"({LEVELS.get(item.current_level, '?')}) at {clean(item.current_location or '-')}; recommended level "
              f"{item.recommended_level}{'' if item.promoted else ' (to promote)'}: {clean(item.topic)}")
    return EXIT_OK


def _merge(args: argparse.Namespace) -> int:
    tracker = _tracker(args)
    done, _ = tracker.merge(args.keep, args.others, dry_run=args.dry_run)
    what = f"merge {', '.join(map(clean, done.removed))} into {clean(args.keep)}"
    return _corrected(args, done, what, tracker.state_file)


def _split(args: argparse.Namespace) -> int:
    tracker = _tracker(args)
    done, _ = tracker.split(args.item, args.sources, dry_run=args.dry_run)
    what = f"split {plural(done.moved, 'source')} of {clean(args.item)} into new item {clean(done.created[0])}"
    return _corrected(args, done, what, tracker.state_file)


def _check(args: argparse.Namespace) -> int:
    tracker = _tracker(args)
    _, state = tracker.scan()
    grace = tracker.settings.feedback.grace_days
    if grace is None:
        print("feedback check is off: set [tool.ladder.feedback] grace_days to fail on items left unpromoted")
        return EXIT_OK
    late = tracker.overdue(state)
    for item in late:
        print(f"{clean(tracker.state_file.shown)}: {clean(item.item_id)}: needs promotion since {clean(item.since)} "
              f"({plural(item.days, 'day')}, more than grace_days = {grace}): {clean(item.topic)}")
    print(f"{'FAILED' if late else 'passed'}: {plural(len(late), 'item')} past grace_days = {grace}")
    return EXIT_FAILED if late else EXIT_OK


_ACTIONS = {"scan": _scan, "report": _report, "add": _add, "list": _list, "check": _check, "merge": _merge,
            "split": _split}


def _feedback(args: argparse.Namespace) -> int:
    return _ACTIONS[args.action](args)


COMMANDS = {"feedback": _feedback}
