"""The ``ladder`` command (also ``python -m ladder_plugins``): a thin front end.

Exit status: 0 passed, 1 the gate failed (or, for ``doctor``/``suppress``, something
needs the user), 2 usage or configuration error: one line on stderr, no traceback.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from .errors import LadderError

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
        self.exit(EXIT_USAGE, f"ladder: error: {message} (see 'ladder --help')\n")


_EXAMPLES = {
    "demo": "  ladder demo                         the whole loop on a bundled example, in a temporary copy\n"
            "  ladder demo --keep                  keep the copy to look around afterwards",
    "metrics": "  ladder metrics src/                 every unit's numbers, as text\n"
               "  ladder metrics --format json src/   the documented JSON contract",
    "check": "  ladder check                        the [tool.ladder] paths (default: src/ and tests/)\n"
             "  ladder check src/pkg/parser.py      one file\n"
             "  ladder check --mode strict          fail on every red violation\n"
             "  ladder check --format sarif --output ladder.sarif   for GitHub code scanning\n"
             "  ladder check --no-record            decide the gate without recording this run\n"
             "exit status: 0 passed, 1 gate failed, 2 usage or configuration error",
    "summary": "  ladder summary                      hotspots, patterns, worst areas and roles, per-day trend\n"
               "  ladder summary --format markdown    for a CI job summary",
    "brief": "  ladder brief                        the known weak spots, for an agent's prompt (4 KB at most)\n"
             "  ladder brief --max-bytes 1500 --top 3",
    "recommend": "  ladder recommend                    suggestions with evidence and pyproject.toml snippets\n"
                 "  ladder recommend --format json",
    "report": "  ladder report --html ladder.html    one self-contained page: trend chart and tables",
    "explain": "  ladder explain LAD102               what it measures, how it counts, limits per role\n"
               "  ladder explain cognitive_max\n  ladder explain --list",
    "doctor": "  ladder doctor                       configuration, plugins, entry points, history health\n"
              "  ladder doctor --json\nexit status: 0 nothing to fix, 1 something to fix",
    "history": "  ladder history stats                       size, events, oldest/newest, unreadable lines\n"
               "  ladder history prune                       apply retention and the size cap now\n"
               "  ladder history rebuild                     rebuild summaries.json from the log\n"
               "  ladder history combine ci-*/events.jsonl   merge logs from CI runners (dedupe by event_id)",
    "suppress": "  ladder suppress src --reason 'legacy, tracked in #123'          every current red violation\n"
                "  ladder suppress src/x.py --rule cognitive_max --reason why --dry-run   show the diff only\n"
                "exit status: 0 done, 1 a recurring hotspot was refused (use --force), 2 usage error",
}


def _command(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help_text, epilog="examples:\n" + _EXAMPLES[name],
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def _paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: configured paths)")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", help="analyse in N processes (default: CPUs)")
    parser.add_argument("--no-cache", action="store_true", help="ignore the analysis cache (also LADDER_NO_CACHE=1)")


def _formats(parser: argparse.ArgumentParser, *choices: str) -> None:
    parser.add_argument("--format", choices=choices, default=choices[0])
    parser.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")


def _add_demo_and_metrics(sub: Any) -> None:
    _command(sub, "demo", "run the whole loop on a bundled example").add_argument(
        "--keep", action="store_true", help="keep the temporary copy")
    metrics = _command(sub, "metrics", "show every unit's metrics")
    _paths(metrics)
    _formats(metrics, "text", "json")


def _add_history_readers(sub: Any) -> None:
    _formats(_command(sub, "summary", "hotspots, patterns, areas, roles, trend"), "text", "json", "markdown")
    brief = _command(sub, "brief", "the known-weak-spots brief for agent prompts")
    brief.add_argument("--max-bytes", type=int, default=4096, help="size limit in bytes (default 4096)")
    brief.add_argument("--top", type=int, default=5, choices=range(1, 11), metavar="N",
                       help="at most N entries (default 5)")
    brief.add_argument("--output", metavar="FILE")
    _formats(_command(sub, "recommend", "threshold and constraint suggestions from the history"), "text", "json")
    _command(sub, "report", "a self-contained HTML report").add_argument(
        "--html", metavar="FILE", required=True, help="where to write the page")


def _add_helpers(sub: Any) -> None:
    explain = _command(sub, "explain", "explain a rule: what, how it counts, limits")
    explain.add_argument("rule", nargs="?", metavar="RULE_OR_CODE")
    explain.add_argument("--list", action="store_true", help="list every rule")
    _command(sub, "doctor", "check the set-up and the history").add_argument("--json", action="store_true")


def _add_check(sub: Any) -> None:
    check = _command(sub, "check", "analyse, record, decide the gate (exit 1 when it fails)")
    _paths(check)
    _formats(check, "text", "json", "markdown", "sarif")
    check.add_argument("--mode", choices=("advisory", "recurrence", "strict"), help="override [tool.ladder] mode")
    check.add_argument("--no-record", action="store_true", help="do not record this run's violations")


def _add_history(sub: Any) -> None:
    history = _command(sub, "history", "maintain the history")
    actions = history.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser, required=True)
    actions.add_parser("stats", help="size, events, oldest/newest, unreadable lines, schema")
    actions.add_parser("prune", help="apply retention and the size cap now")
    actions.add_parser("rebuild", help="rebuild summaries.json from the log and folded.json")
    actions.add_parser("combine", help="merge other events.jsonl files into this project's log").add_argument(
        "files", nargs="+", metavar="FILE")


def _add_suppress(sub: Any) -> None:
    suppress = _command(sub, "suppress", "write '# ladder: ignore[rule] reason' on current violations")
    _paths(suppress)
    suppress.add_argument("--reason", required=True, help="why: written into each comment")
    suppress.add_argument("--rule", help="only this rule (key or code)")
    suppress.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
    suppress.add_argument("--force", action="store_true", help="suppress recurring hotspots too")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="ladder", description="Structural code-quality rules (cyclomatic, cognitive, ABC, size, "
                     "interface, test quality) with a recurrence gate.", epilog="start with: ladder demo")
    parser.add_argument("--version", action="version", version=f"ladder-plugins {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_add_demo_and_metrics, _add_check, _add_history_readers, _add_helpers, _add_history, _add_suppress):
        add(sub)
    return parser


# -- helpers ------------------------------------------------------------------


def _warn(message: str) -> None:
    print(f"ladder: warning: {message}", file=sys.stderr)


def _emit(text: str, output: Optional[str]) -> None:
    if not output:
        print(text.rstrip("\n"))
        return
    try:
        Path(output).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as exc:
        raise LadderError(f"{output}: cannot be written: {exc.strerror or exc}") from None


def _settings(args: argparse.Namespace) -> Any:
    from .config import load_settings

    settings = load_settings(Path.cwd())
    mode = getattr(args, "mode", None)
    return settings.replace(mode=mode) if mode else settings


def _progress() -> Optional[Callable[[int, int], None]]:
    """Progress on stderr for long runs, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total >= 20:
            end = "\n" if done == total else ""
            print(f"\rladder: analysed {done}/{total} files", end=end, file=sys.stderr, flush=True)

    return show


def _write_access(args: argparse.Namespace, settings: Any, record: bool) -> tuple[Any, Any]:
    """What this run may write (checked once, up front) and the run's say-it-once warning sink."""
    from .errors import WarnOnce
    from .writeaccess import check_write_access

    warn = WarnOnce(_warn)
    access = check_write_access(settings, record=record, cache=not getattr(args, "no_cache", False))
    for message in access.warnings:
        warn(message)
    return access, warn


def _analyse(args: argparse.Namespace, settings: Any, *, hashes: bool = True, record: bool = False) -> Any:
    """The analysis of the paths asked for, what this run may write, and its warning sink."""
    from .analysis import Analyzer
    from .discovery import default_paths
    from .parallel import default_jobs

    access, warn = _write_access(args, settings, record)
    paths = args.paths or [settings.root / p for p in default_paths(settings)]
    analyzer = Analyzer.for_run(settings, hashes=hashes, use_cache=access.cache, warn=warn)
    jobs = getattr(args, "jobs", None) or default_jobs()
    return analyzer.paths(paths, progress=_progress(), jobs=jobs), access, warn


def _view(settings: Any) -> Any:
    from .history_view import load_view

    return load_view(settings, warn=_warn)


# -- commands -----------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(keep=args.keep)


def _cmd_metrics(args: argparse.Namespace) -> int:
    from .render import metrics_json, metrics_text

    result, _, _ = _analyse(args, _settings(args), hashes=False)
    _emit(metrics_json(result) if args.format == "json" else metrics_text(result), args.output)
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    from .recorder import record_run
    from .runinfo import RunContext

    settings = _settings(args)
    result, access, warn = _analyse(args, settings, record=not args.no_record)
    run = RunContext.create("cli", settings.mode, settings.repo_id)
    outcome = record_run(result.violations, settings, run, record=access.record, warn=warn)
    _emit(_check_output(args.format, result, outcome, settings, run), args.output)
    return EXIT_FAILED if outcome.failed else EXIT_OK


def _check_output(fmt: str, result: Any, outcome: Any, settings: Any, run: Any) -> str:
    from . import __version__
    from .check_report import check_json, check_markdown
    from .plugins import known_rules
    from .render import check_text
    from .sarif import check_sarif

    if fmt == "sarif":
        return check_sarif(result, outcome, known_rules(), __version__)
    if fmt == "text":
        return check_text(result, outcome, settings)
    return (check_json if fmt == "json" else check_markdown)(result, outcome, settings, run)


def _cmd_summary(args: argparse.Namespace) -> int:
    from .summary_report import summary_json, summary_markdown, summary_text

    render = {"text": summary_text, "json": summary_json, "markdown": summary_markdown}[args.format]
    _emit(render(_view(_settings(args))), args.output)
    return EXIT_OK


def _cmd_brief(args: argparse.Namespace) -> int:
    from .brief import make_brief

    if args.max_bytes < 64:
        raise LadderError(f"--max-bytes {args.max_bytes}: expected at least 64")
    _emit(make_brief(_view(_settings(args)), max_bytes=args.max_bytes, top=args.top), args.output)
    return EXIT_OK


def _cmd_recommend(args: argparse.Namespace) -> int:
    from .recommend import recommend, recommend_json, recommend_text
    from .store import HistoryStore

    settings = _settings(args)
    suggestions = recommend(HistoryStore(settings, warn=_warn).peek(), _view(settings), settings)
    _emit(recommend_json(suggestions) if args.format == "json" else recommend_text(suggestions), args.output)
    return EXIT_OK


def _cmd_report(args: argparse.Namespace) -> int:
    from .html_report import html_report

    settings = _settings(args)
    _emit(html_report(_view(settings), settings.repo_id), args.html)
    print(f"wrote {args.html}")
    return EXIT_OK


def _cmd_explain(args: argparse.Namespace) -> int:
    from .explain import explain, rule_list
    from .plugins import known_rules

    if args.list or not args.rule:
        print(rule_list(known_rules()))
        return EXIT_OK
    try:
        settings = _settings(args)
    except LadderError:
        settings = None  # explaining a rule must work even where the configuration is broken
    print(explain(args.rule, known_rules(), settings))
    return EXIT_OK


def _cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import diagnose, doctor_json, doctor_text

    diag = diagnose(Path.cwd())
    print(doctor_json(diag) if args.json else doctor_text(diag))
    return EXIT_FAILED if diag.problems else EXIT_OK


def _cmd_suppress(args: argparse.Namespace) -> int:
    from .history_view import load_view
    from .suppress import apply_suppressions, check_reason, plan_suppressions

    reason = check_reason(args.reason)
    settings = _settings(args)
    rule = _rule(args.rule) if args.rule else None
    hot = {h.fingerprint for h in load_view(settings, warn=_warn).hotspots}
    result, _, _ = _analyse(args, settings)
    plan = plan_suppressions(result, hot, rule, args.force)
    for refusal in plan.refused:
        print(f"ladder: refused: {refusal}", file=sys.stderr)
    sys.stdout.write("".join(apply_suppressions(plan, settings.root, reason, dry_run=args.dry_run)))
    return EXIT_FAILED if plan.refused else EXIT_OK


def _rule(name: str) -> Any:
    from .explain import find_rule
    from .plugins import known_rules

    return find_rule(name, known_rules())


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


_COMMANDS = {
    "demo": _cmd_demo, "metrics": _cmd_metrics, "check": _cmd_check, "summary": _cmd_summary,
    "brief": _cmd_brief, "recommend": _cmd_recommend, "report": _cmd_report, "explain": _cmd_explain,
    "doctor": _cmd_doctor, "suppress": _cmd_suppress, "history": _cmd_history,
}


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
