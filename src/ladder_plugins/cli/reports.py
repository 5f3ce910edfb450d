"""The commands that read: ``summary``, ``brief``, ``recommend``, ``report --html``, ``explain``."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import LadderError
from .common import EXIT_OK, add_formats, add_from_git, analyse, command, emit, settings_of, view, warn

__all__ = ["add_parsers", "COMMANDS"]

_EXAMPLES = {
    "summary": "  ladder summary                      hotspots, patterns, worst areas and roles, per-day trend\n"
               "  ladder summary --format markdown    for a CI job summary\n"
               "  ladder summary --source log         the log alone, without git's past versions",
    "brief": "  ladder brief                        the known weak spots, for an agent's prompt (4 KB at most)\n"
             "  ladder brief --max-bytes 1500 --top 3",
    "recommend": "  ladder recommend                    suggestions with evidence and pyproject.toml snippets\n"
                 "  ladder recommend --top 3 --format json",
    "report": "  ladder report --html ladder.html    one self-contained page: current violations, trend chart, "
              "hotspots",
    "explain": "  ladder explain LAD102               what it measures, how it counts, limits per role\n"
               "  ladder explain cognitive_max\n  ladder explain --list",
}


def add_parsers(sub: Any) -> None:
    summary = command(sub, "summary", _EXAMPLES["summary"])
    add_formats(summary, "text", "json", "markdown")
    add_from_git(summary)
    _brief_parser(command(sub, "brief", _EXAMPLES["brief"]))
    recommend = command(sub, "recommend", _EXAMPLES["recommend"])
    add_formats(recommend, "text", "json")
    recommend.add_argument("--top", type=int, default=10, metavar="N",
                           help="show the N best evidenced suggestions (default 10)")
    report = command(sub, "report", _EXAMPLES["report"])
    report.add_argument("--html", metavar="FILE", required=True, help="where to write the page")
    report.set_defaults(paths=[])  # the current violations of the configured paths, as `analyse` reads them
    add_from_git(report)
    explain = command(sub, "explain", _EXAMPLES["explain"])
    explain.add_argument("rule", nargs="?", metavar="RULE_OR_CODE")
    explain.add_argument("--list", action="store_true", help="list every rule")


def _brief_parser(brief: argparse.ArgumentParser) -> None:
    add_from_git(brief)
    brief.add_argument("--max-bytes", type=int, default=4096, help="size limit in bytes (default 4096)")
    brief.add_argument("--top", type=int, default=5, choices=range(1, 11), metavar="N",
                       help="at most N entries (default 5)")
    brief.add_argument("--output", metavar="FILE")


def _summary(args: argparse.Namespace) -> int:
    from ..reports.summary import summary_json, summary_markdown, summary_text

    render = {"text": summary_text, "json": summary_json, "markdown": summary_markdown}[args.format]
    emit(render(view(settings_of(args), args.from_git)), args.output)
    return EXIT_OK


def _brief(args: argparse.Namespace) -> int:
    from ..reports.brief import make_brief

    if args.max_bytes < 64:
        raise LadderError(f"--max-bytes {args.max_bytes}: expected at least 64")
    emit(make_brief(view(settings_of(args), args.from_git), max_bytes=args.max_bytes, top=args.top), args.output)
    return EXIT_OK


def _recommend(args: argparse.Namespace) -> int:
    from ..history.store import HistoryStore
    from ..reports.recommend import recommend, recommend_json, recommend_text

    if args.top < 1:
        raise LadderError(f"--top {args.top}: expected at least 1")
    settings = settings_of(args)
    suggestions = recommend(HistoryStore(settings, warn=warn).peek(), view(settings), settings)
    render = recommend_json if args.format == "json" else recommend_text
    emit(render(suggestions, args.top), args.output)
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from ..tracker.service import feedback_section
    from ..reports.html import html_report

    settings = settings_of(args)
    # the analysis first, so that the view's check of the hotspots reads its cache; one sink, so a problem is said once
    result, pipeline = analyse(args, settings)
    sink = pipeline.warn
    page = html_report(view(settings, args.from_git, sink), settings.repo_id,
                       violations=result.violations, feedback=feedback_section(settings, sink))
    emit(page, args.html)
    emit(f"wrote {args.html}", None)
    return EXIT_OK


def _explain(args: argparse.Namespace) -> int:
    from ..catalogue import WORKLOG_RULES
    from ..plugins import known_rules
    from ..reports.explain import explain, rule_list

    rules = [*known_rules(), *WORKLOG_RULES.values()]
    if args.list or not args.rule:
        print(rule_list(rules))
        return EXIT_OK
    try:
        settings = settings_of(args)
    except LadderError:
        settings = None  # explaining a rule must work even where the configuration is broken
    print(explain(args.rule, rules, settings))
    return EXIT_OK


COMMANDS = {"summary": _summary, "brief": _brief, "recommend": _recommend, "report": _report, "explain": _explain}
