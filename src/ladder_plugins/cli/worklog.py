"""``ladder worklog check|add|correct|read``: the forced-feedback-loop work log, linted and written right."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..catalogue import plural
from ..reports.sanitize import clean
from .common import EXIT_FAILED, EXIT_OK, at_least_one, command_group, emit

__all__ = ["add_parsers", "COMMANDS", "add_lint_output"]

_ACTION_HELP = {
    "check": ("lint the work log: headers, counts, order, start contract, references, final block; exit 1 on any "
              "problem",
              "  ladder worklog check                       work-log.md (or [tool.ladder.worklog] files)\n"
              "  ladder worklog check --final               also the skill's strict FAIL gate, at the end\n"
              "  ladder worklog check --format github       annotations in a GitHub Actions job"),
    "add": ("write the report on stdin on top, under a computed header and one '---', atomically and locked",
            "  printf 'DIAGNOSE: ...\\nPROPOSE: ...\\n' | ladder worklog add --type feedback\n"
            "  ladder worklog add --type milestone --elapsed 14:30 < report.txt\n"
            "  ladder worklog add --loop '2 of 5' < report.txt     the header's loop field (count mode writes it)"),
    "correct": ("write a correction report on top for each header whose count is wrong (old reports stay as "
                "they are)",
                "  ladder worklog correct                     one CORRECTION report per wrong count"),
    "read": ("print the newest reports, read by their headers (the skill's incremental reading protocol)",
             "  ladder worklog read                        the newest report\n"
             "  ladder worklog read --reports 3            the newest three"),
}


def add_lint_output(parser: argparse.ArgumentParser) -> None:
    """``--format`` and ``--output`` of a lint's check, as ``ladder check`` has them."""
    from ..worklog.output import FORMATS

    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), json (schema ladder-worklog), sarif, or github (workflow commands)")
    parser.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")


def _timing(parser: argparse.ArgumentParser) -> None:
    when = parser.add_mutually_exclusive_group()
    when.add_argument("--elapsed", metavar="MM:SS", help="the elapsed time to write in the header")
    when.add_argument("--start", metavar="HH:MM",
                      help="the loop's start on the system clock (default: Report #0's start_time)")


def add_parsers(sub: Any) -> None:
    parsers = command_group(sub, "worklog", _ACTION_HELP)
    parsers["check"].add_argument("files", nargs="*", metavar="FILE",
                                  help="work logs (default: [tool.ladder.worklog] files, else work-log.md)")
    add_lint_output(parsers["check"])
    parsers["check"].add_argument("--allow-gaps", action="store_true", default=None,
                                  help="report numbers may skip (they must still decrease downwards)")
    parsers["check"].add_argument("--final", action="store_true",
                                  help="also check the strict FAIL gate items a program can check")
    parsers["check"].add_argument("--kb", metavar="DIR", help="the knowledge base --final looks for registers in")
    for name in ("add", "correct", "read"):
        parsers[name].add_argument("file", nargs="?", metavar="FILE", help="the work log (default: the configured one)")
    from ..worklog.parse import REPORT_TYPES

    parsers["add"].add_argument("--type", choices=REPORT_TYPES, default="feedback",
                                help="the report's type (default: feedback)")
    parsers["add"].add_argument("--loop", metavar="'N of M'",
                                help="the header's 'loop: N of M' (N alone: M from the start contract); in count "
                                     "mode it is written without this, N counted from the loop reports below")
    _timing(parsers["add"])
    _timing(parsers["correct"])
    parsers["read"].add_argument("--reports", type=at_least_one("reports"), default=1, metavar="N",
                                 help="how many reports, newest first (default: 1)")


def _settings() -> Any:
    from ..config import load_settings

    return load_settings(Path.cwd())


def _one(settings: Any, args: argparse.Namespace) -> Any:
    from ..worklog.service import log_targets

    return log_targets(settings, [args.file] if args.file else ())[0]


def _check(args: argparse.Namespace) -> int:
    from ..worklog.output import render
    from ..worklog.service import check_logs, kb_target, log_targets

    settings = _settings()
    kb = kb_target(settings, args.kb) if args.kb else None
    checked = check_logs(settings, log_targets(settings, args.files), final=args.final, allow_gaps=args.allow_gaps,
                         kb=kb)
    emit(render(args.format, checked.problems, checked.notes, checked.checked, "work log"), args.output)
    return EXIT_FAILED if checked.failed else EXIT_OK


def _timing_of(args: argparse.Namespace) -> Any:
    from ..history.run import now_utc
    from ..worklog.writer import Timing

    return Timing(now_utc(), args.elapsed, args.start)


def _add(args: argparse.Namespace) -> int:
    from ..worklog.service import lock_for, stdin_text
    from ..worklog.writer import LogFile, add_report

    settings = _settings()
    target = _one(settings, args)
    written = add_report(LogFile(target.path, target.shown, lock_for(settings, target)), stdin_text(), args.type,
                         _timing_of(args), loop=args.loop)
    print(f"{clean(target.shown)}: wrote Report #{written.number} (lines: {written.lines}, elapsed: "
          f"{written.elapsed}, type: {args.type})")
    return EXIT_OK


def _correct(args: argparse.Namespace) -> int:
    from ..worklog.service import lock_for
    from ..worklog.writer import LogFile, correct_log

    settings = _settings()
    target = _one(settings, args)
    written = correct_log(LogFile(target.path, target.shown, lock_for(settings, target)), _timing_of(args))
    if not written:
        print(f"{clean(target.shown)}: every count is right or already corrected; nothing written")
        return EXIT_OK
    numbers = ", ".join(f"#{w.number}" for w in written)
    print(f"{clean(target.shown)}: wrote {plural(len(written), 'correction report')} ({numbers})")
    return EXIT_OK


def _read(args: argparse.Namespace) -> int:
    import sys

    from ..worklog.reader import read_reports
    from ..worklog.service import open_log

    reading = read_reports(open_log(_one(_settings(), args)), args.reports)
    if reading.text:
        print(clean_lines(reading.text), end="")
    if reading.problem:
        print(f"ladder: error: {clean(reading.problem)}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def clean_lines(text: str) -> str:
    """Each line made safe for a terminal, the line breaks kept."""
    return "\n".join(clean(line) for line in text.split("\n"))


_ACTIONS = {"check": _check, "add": _add, "correct": _correct, "read": _read}


def _worklog(args: argparse.Namespace) -> int:
    return _ACTIONS[args.action](args)


COMMANDS = {"worklog": _worklog}
