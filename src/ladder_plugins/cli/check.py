"""``ladder metrics`` and ``ladder check``: analyse the paths; ``check`` also records and gates."""

from __future__ import annotations

import argparse
from typing import Any

from ..config import MODES, SOURCES
from .common import EXIT_FAILED, EXIT_OK, add_formats, add_paths, analyse, at_least_one, command, emit, settings_of

__all__ = ["add_parsers", "COMMANDS"]

_METRICS_EXAMPLES = (
    "  ladder metrics src/                 every unit's numbers, as text\n"
    "  ladder metrics --format json src/   the documented JSON contract"
)
_CHECK_EXAMPLES = (
    "  ladder check                        the [tool.ladder] paths (default: src/ and tests/)\n"
    "  ladder check src/pkg/parser.py      one file\n"
    "  ladder check --mode strict          fail on every red violation\n"
    "  ladder check --mode new --base origin/main   fail on violations the branch adds\n"
    "  ladder check --format sarif --output ladder.sarif   for GitHub code scanning\n"
    "  ladder check --format github        annotations in a GitHub Actions job\n"
    "  ladder check --format gitlab --output gl-code-quality-report.json   GitLab Code Quality\n"
    "  ladder check --no-record            decide the gate without recording this run\n"
    "  ladder check --git-since v2.0       fail on hotspots edited since the tag v2.0\n"
    "  ladder check --show-yellow          list the yellow (advisory) findings too\n"
    "  ladder check --top 10 --group       the worst 10 units, under a header per file\n"
    "  ladder check -q                     the verdict only\n"
    "exit status: 0 passed, 1 gate failed, 2 usage or configuration error"
)


def add_parsers(sub: Any) -> None:
    metrics = command(sub, "metrics", _METRICS_EXAMPLES)
    add_paths(metrics)
    add_formats(metrics, "text", "json")
    check = command(sub, "check", _CHECK_EXAMPLES)
    add_paths(check)
    add_formats(check, "text", "json", "markdown", "sarif", "github", "gitlab")
    check.add_argument("--mode", choices=MODES, help="override [tool.ladder] mode")
    check.add_argument("--base", metavar="REF", help="the base of --mode new (default: [tool.ladder] base, else "
                                                     "the merge base with the default branch)")
    check.add_argument("--no-record", action="store_true", help="do not record this run's violations")
    history = check.add_argument_group("history")
    history.add_argument("--source", choices=SOURCES,
                         help="where occurrences come from (overrides [tool.ladder.recurrence] source)")
    history.add_argument("--git-since", metavar="WHEN",
                         help='from when git\'s occurrences fail the run: "all", a date or a commit (overrides '
                              "[tool.ladder.recurrence] git_since; default: the commit that added [tool.ladder])")
    text = check.add_argument_group("text output")
    text.add_argument("--show-yellow", action="store_true", default=None,
                      help="list yellow (advisory) findings too (also [tool.ladder] show_yellow = true)")
    text.add_argument("--severity", choices=("red", "yellow"), help="list the findings of this severity only")
    text.add_argument("--top", type=at_least_one("units"), metavar="N",
                      help="list the findings of the worst N units only")
    text.add_argument("--group", action="store_true", help="group the findings under a header per file")
    text.add_argument("--quiet", "-q", action="store_true", help="print the verdict only")


def _metrics(args: argparse.Namespace) -> int:
    from ..reports.metrics import metrics_json, metrics_text

    result, _ = analyse(args, settings_of(args), hashes=False)
    emit(metrics_json(result) if args.format == "json" else metrics_text(result), args.output)
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    import dataclasses

    result, pipeline = analyse(args, settings, record=not args.no_record, git=True)
    outcome = pipeline.finish_violations(result.violations, record=not args.no_record)
    # every warning of the run in the report too (a cap reached, git failing), not only the store's
    said = tuple(dict.fromkeys([*pipeline.warn.said, *outcome.warnings]))
    outcome = dataclasses.replace(outcome, warnings=said)
    emit(_check_output(args, result, outcome, settings, pipeline.run), args.output)
    return EXIT_FAILED if outcome.failed else EXIT_OK


def _check_output(args: argparse.Namespace, result: Any, outcome: Any, settings: Any, run: Any) -> str:
    """The run in the format asked for; each format's writer is imported only when asked for."""
    fmt = args.format
    if fmt == "text":
        from ..reports.findings import check_text

        return check_text(result, outcome, settings, _text_options(args, settings))
    if fmt == "sarif":
        from .. import __version__
        from ..plugins import known_rules
        from ..reports.sarif import check_sarif

        return check_sarif(result, outcome, known_rules(), __version__)
    if fmt == "github":
        from ..reports.github import check_github

        return check_github(result, outcome)
    if fmt == "gitlab":
        from ..reports.gitlab import check_gitlab

        return check_gitlab(result, outcome)
    from ..reports.check import check_json, check_markdown

    return (check_json if fmt == "json" else check_markdown)(result, outcome, settings, run)


def _text_options(args: argparse.Namespace, settings: Any) -> Any:
    """The text's options from the command line, ``show_yellow`` from the configuration; colour only on a
    terminal (never into ``--output``)."""
    import sys

    from ..reports.findings import TextOptions
    from ..reports.terminal import Style, wants_colour

    colour = not args.output and wants_colour(sys.stdout)
    show = settings.show_yellow if args.show_yellow is None else args.show_yellow
    return TextOptions.of(show_yellow=show, severity=args.severity, quiet=args.quiet, top=args.top,
                          group=args.group, style=Style(colour))


COMMANDS = {"metrics": _metrics, "check": _check}
