"""The ``ladder`` command (also ``python -m ladder_plugins``): a thin front end.

Exit status: 0 passed, 1 failed (red violations; the recurrence gate once history
lands), 2 usage or configuration error. Errors are one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

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
  ladder check --mode strict          fail on every red violation
  ladder check --no-record            decide the gate without recording this run
exit status: 0 passed, 1 gate failed, 2 usage or configuration error
"""
_HISTORY_EXAMPLES = """examples:
  ladder history stats                       size, events, oldest/newest, unreadable lines
  ladder history prune                       apply retention and the size cap now
  ladder history rebuild                     rebuild summaries.json from the log
  ladder history combine ci-*/events.jsonl   merge logs from CI runners (dedupe by event_id)
"""


def _command(sub: Any, name: str, help_text: str, examples: str) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help_text, epilog=examples, formatter_class=argparse.RawDescriptionHelpFormatter)


def _add_paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: configured paths)")


def _add_metrics(sub: Any) -> None:
    metrics = _command(sub, "metrics", "show every unit's metrics", _METRICS_EXAMPLES)
    _add_paths(metrics)
    metrics.add_argument("--format", choices=("text", "json"), default="text")


def _add_check(sub: Any) -> None:
    check = _command(sub, "check", "analyse, record, decide the gate (exit 1 when it fails)", _CHECK_EXAMPLES)
    _add_paths(check)
    check.add_argument("--mode", choices=("advisory", "recurrence", "strict"), help="override [tool.ladder] mode")
    check.add_argument("--no-record", action="store_true", help="do not record this run's violations")


def _add_history(sub: Any) -> None:
    history = _command(sub, "history", "maintain the history", _HISTORY_EXAMPLES)
    actions = history.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser, required=True)
    actions.add_parser("stats", help="size, events, oldest/newest, unreadable lines, schema")
    actions.add_parser("prune", help="apply retention and the size cap now")
    actions.add_parser("rebuild", help="rebuild summaries.json from the log and folded.json")
    combine = actions.add_parser("combine", help="merge other events.jsonl files into this project's log")
    combine.add_argument("files", nargs="+", metavar="FILE")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(
        prog="ladder",
        description="Structural code-quality rules (cyclomatic, cognitive, ABC, size, "
        "interface, test quality) with a recurrence gate.",
    )
    parser.add_argument("--version", action="version", version=f"ladder-plugins {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_add_metrics, _add_check, _add_history):
        add(sub)
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


def _warn(message: str) -> None:
    print(f"ladder: warning: {message}", file=sys.stderr)


def _cmd_check(args: argparse.Namespace) -> int:
    from .recorder import record_run
    from .render import check_text
    from .runinfo import RunContext

    settings, result = _analyse(args)
    run = RunContext.create("cli", settings.mode, settings.repo_id)
    outcome = record_run(result.violations, settings, run, record=not args.no_record, warn=_warn)
    print(check_text(result, outcome, settings))
    return EXIT_FAILED if outcome.failed else EXIT_OK


def _history_stats(store: Any, args: argparse.Namespace) -> None:
    st = store.stats()
    newer = " (a newer version wrote this history: read-only)" if st.newer_schema else ""
    print(f"history: {st.path}")
    print(f"size: {st.size} bytes, events: {st.events}, fingerprints: {st.fingerprints}")
    print(f"oldest: {st.oldest or '-'}, newest: {st.newest or '-'}")
    print(f"unreadable lines: {st.skipped_lines}, schema: {st.schema_version}{newer}")
    print(f"folded (pruned) fingerprints: {st.folded_fingerprints}")


def _history_combine(store: Any, args: argparse.Namespace) -> None:
    added, duplicates, unreadable = store.combine([Path(f) for f in args.files])
    print(f"combined {len(args.files)} file(s): {added} new events, {duplicates} duplicates skipped, "
          f"{unreadable} unreadable lines skipped")


def _history_prune(store: Any, args: argparse.Namespace) -> None:
    from .runinfo import now_utc

    with _writable(store):
        changed = store.prune(store.load(), now_utc(), force=True)
    print(f"pruned {store.log}" if changed else "nothing to prune")


def _history_rebuild(store: Any, args: argparse.Namespace) -> None:
    with _writable(store):
        store.summary_path.unlink(missing_ok=True)
        state = store.load()
    print(f"rebuilt {store.summary_path}: {state.aggregate.events} events, "
          f"{len(state.aggregate.fingerprints)} fingerprints, {state.skipped} unreadable lines")


@contextmanager
def _writable(store: Any) -> Iterator[None]:
    """Hold the history's lock; a history that cannot be written is a usage error."""
    with store.transaction() as tx:
        if tx.read_only:
            raise LadderError("; ".join(store.warnings) or f"cannot write {store.dir}")
        yield


_HISTORY_ACTIONS = {
    "stats": _history_stats, "combine": _history_combine, "prune": _history_prune, "rebuild": _history_rebuild,
}


def _cmd_history(args: argparse.Namespace) -> int:
    from .config import load_settings
    from .store import HistoryStore

    store = HistoryStore(load_settings(Path.cwd()), warn=_warn)
    _HISTORY_ACTIONS[args.action](store, args)
    return EXIT_OK


_COMMANDS = {"metrics": _cmd_metrics, "check": _cmd_check, "history": _cmd_history}


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
