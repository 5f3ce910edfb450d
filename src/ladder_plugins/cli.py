"""The ``ladder`` command (also ``python -m ladder_plugins``): a thin front end.

Exit status: 0 passed, 1 failed (red violations; the recurrence gate once history
lands), 2 usage or configuration error. Errors are one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from .errors import LadderError

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
        self.exit(EXIT_USAGE, f"ladder: error: {message} (see 'ladder --help')\n")


_METRICS_EXAMPLES = """examples:
  ladder metrics src/                 every unit's numbers, as text
  ladder metrics --format json src/   the documented JSON contract
"""
_CHECK_EXAMPLES = """examples:
  ladder check                        the [tool.ladder] paths (default: src/ and tests/)
  ladder check src/pkg/parser.py      one file
exit status: 0 passed, 1 red violations, 2 usage or configuration error
"""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ladder",
        description="Structural code-quality rules (cyclomatic, cognitive, ABC, size, "
        "interface, test quality) with a recurrence gate.",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"ladder-plugins {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    metrics = sub.add_parser(
        "metrics", help="show every unit's metrics", epilog=_METRICS_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    metrics.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: configured paths)")
    metrics.add_argument("--format", choices=("text", "json"), default="text")
    check = sub.add_parser(
        "check", help="check the rules; exit 1 on red violations", epilog=_CHECK_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: configured paths)")
    check.add_argument("--mode", choices=("advisory", "recurrence", "strict"), help="override [tool.ladder] mode")
    return parser


def _analyse(args: argparse.Namespace):
    from .analysis import analyze_paths
    from .config import load_settings
    from .discovery import default_paths

    settings = load_settings(Path.cwd())
    if getattr(args, "mode", None):
        settings = settings.replace(mode=args.mode)
    if args.paths:
        result = analyze_paths(args.paths, settings)
    else:
        result = analyze_paths([settings.root / p for p in default_paths(settings)], settings)
    return settings, result


def _cmd_metrics(args: argparse.Namespace) -> int:
    from .render import metrics_json, metrics_text

    _, result = _analyse(args)
    print(metrics_json(result) if args.format == "json" else metrics_text(result))
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    from .render import count, violations_text
    from .thresholds import RED, YELLOW

    settings, result = _analyse(args)
    violations = result.violations
    red, yellow = count(violations, RED), count(violations, YELLOW)
    failed = red > 0 and settings.mode != "advisory"
    files = len(result.analysed)
    skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
    verdict = (
        f"{'FAILED' if failed else 'passed'}: {red} red, {yellow} yellow in {files} files{skipped}"
        f" (mode {settings.mode})"
    )
    print(violations_text(result, verdict))
    return EXIT_FAILED if failed else EXIT_OK


_COMMANDS = {"metrics": _cmd_metrics, "check": _cmd_check}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    try:
        return _COMMANDS[args.command](args)
    except LadderError as exc:
        print(f"ladder: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `ladder metrics | head`
        return EXIT_OK
