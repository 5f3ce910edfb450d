"""What every ``ladder`` subcommand shares: exit codes, parser pieces, settings, output.

A subcommand module registers its parsers with :func:`command` and turns its work
into text through :func:`emit`; errors are :class:`~ladder_plugins.errors.LadderError`,
which :func:`~ladder_plugins.cli.main.main` prints as one line with exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple, NoReturn, Optional

from ..errors import LadderError

__all__ = [
    "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE", "Subcommand", "SUBCOMMANDS", "Parser", "command", "command_group",
    "add_paths", "add_formats", "warn", "emit", "settings_of", "analyse", "view", "add_from_git",
]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class Subcommand(NamedTuple):
    """A ``ladder`` command: its name, the module of this package that adds its parser and maps it to its
    function (``add_parsers``, ``COMMANDS``), and its line in ``ladder --help``."""

    name: str
    module: str
    help: str


#: Every command, in the order ``ladder --help`` lists them. The one place a command is registered: the front
#: end lists them all from here and imports only the module of the one that runs.
SUBCOMMANDS = (
    Subcommand("demo", "demo", "run the whole loop on a bundled example"),
    Subcommand("init", "init", "write a starter [tool.ladder] table into pyproject.toml"),
    Subcommand("metrics", "check", "show every unit's metrics"),
    Subcommand("check", "check", "analyse, record, decide the gate (exit 1 when it fails)"),
    Subcommand("summary", "reports", "hotspots, patterns, areas, roles, trend"),
    Subcommand("brief", "reports", "the known-weak-spots brief for agent prompts"),
    Subcommand("recommend", "reports", "threshold and constraint suggestions from the history"),
    Subcommand("report", "reports", "a self-contained HTML report"),
    Subcommand("explain", "reports", "explain a rule: what, how it counts, limits"),
    Subcommand("doctor", "doctor", "check the set-up and the history"),
    Subcommand("history", "history", "maintain the history"),
    Subcommand("feedback", "feedback", "track recurring feedback up the encoding ladder"),
    Subcommand("rules", "rules", "the managed rules block: recurring feedback in agents' rules files"),
    Subcommand("hook", "hook", "agent hooks: run them, install them into Claude Code, Codex, Gemini CLI"),
    Subcommand("worklog", "worklog", "the forced-feedback-loop work log: lint, write, read"),
    Subcommand("kb", "kb", "the forced-feedback-loop knowledge base: lint, index, move"),
    Subcommand("suppress", "suppress", "write '# ladder: ignore[rule] reason' on current violations"),
)

Command = Callable[[argparse.Namespace], int]
_REQUIRED = "the following arguments are required: "  # argparse's wording of what is missing


class Parser(argparse.ArgumentParser):
    """Usage errors exit with status 2 and one line that points at the command's own ``--help``
    (``ladder report --help``, not the list of commands); what is missing is named as it is written."""

    def error(self, message: str) -> NoReturn:
        if message.startswith(_REQUIRED):
            missing = ", ".join(self._written(name) for name in message[len(_REQUIRED):].split(", "))
            message = f"{self.prog.partition(' ')[2] or self.prog} needs {missing}"
        self.exit(EXIT_USAGE, f"ladder: error: {message} (see '{self.prog} --help')\n")

    def _written(self, name: str) -> str:
        """An option with its value as the usage line writes it (``--html FILE``); a positional as it is."""
        action = self._option_string_actions.get(name.split("/")[0])
        return f"{name} {action.metavar or action.dest.upper()}" if action is not None else name


def command(sub: Any, name: str, examples: str) -> argparse.ArgumentParser:
    """The parser of the command ``name`` of :data:`SUBCOMMANDS`, with its help line; its ``--help`` ends with
    its examples."""
    return _with_examples(sub, name, next(each.help for each in SUBCOMMANDS if each.name == name), examples)


def command_group(sub: Any, name: str, actions: Mapping[str, tuple[str, str]]) -> dict[str, argparse.ArgumentParser]:
    """A command with actions (``ladder history prune``): each action's help and examples, the group's
    ``--help`` listing them all; ``args.action`` names the one given. Returns the actions' parsers."""
    group = command(sub, name, "\n".join(example for _, example in actions.values()))
    verbs = group.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser, required=True)
    return {verb: _with_examples(verbs, verb, what, example) for verb, (what, example) in actions.items()}


def _with_examples(sub: Any, name: str, help_text: str, examples: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help_text, epilog="examples:\n" + examples,
                                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def at_least_one(what: str, hint: str = "") -> Callable[[str], int]:
    """An argparse type for a count of ``what``: 0 or a negative number is a mistake, not a way to say "the
    default"; ``hint`` says what to do instead."""
    def parse(text: str) -> int:
        try:
            count = int(text)
        except ValueError:
            count = 0
        if count < 1:
            raise argparse.ArgumentTypeError(f"expected a number of {what}, 1 or more, not {text!r}{hint}")
        return count

    return parse


_jobs = at_least_one("processes", " (leave --jobs out for one per CPU)")


def add_paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: configured paths)")
    parser.add_argument("--jobs", "-j", type=_jobs, metavar="N", help="analyse in N processes (default: CPUs)")
    parser.add_argument("--no-cache", action="store_true", help="ignore the analysis cache (also LADDER_NO_CACHE=1)")


def add_formats(parser: argparse.ArgumentParser, *choices: str) -> None:
    parser.add_argument("--format", choices=choices, default=choices[0])
    parser.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")


def warn(message: str) -> None:
    """One warning on stderr, made safe here: file names and errors in it come from outside."""
    from ..reports.sanitize import clean

    print(f"ladder: warning: {clean(message)}", file=sys.stderr)


def emit(text: str, output: Optional[str]) -> None:
    """Print ``text``, or write it to ``output``; a file that cannot be written is a usage error.

    A name that is not UTF-8 (lone surrogates, from the file system) is shown with its bytes escaped
    (``caf\\xe9.py``), the same on a terminal and in a file, so no output fails on it. The file is
    replaced whole once the text is complete: a run that fails leaves the old file as it was. A path
    that is not a regular file (``/dev/stdout``, a pipe) is written in place; a link, through to its file.
    """
    from ..reports.sanitize import printable

    text = printable(text)
    if not output:
        print(text.rstrip("\n"))
        return
    from ..ladderdir.atomic import write_atomic

    data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    try:
        if os.path.exists(output) and not os.path.isfile(output):
            with open(output, "wb") as handle:
                handle.write(data)
            return
        write_atomic(Path(os.path.realpath(output)), data)
    except OSError as exc:
        raise LadderError(f"{printable(output)}: cannot be written: {exc.strerror or exc}") from None


def settings_of(args: argparse.Namespace) -> Any:
    """The project's settings, found from the working directory, with ``--mode``, ``--base``, ``--source`` and
    ``--git-since`` applied."""
    from ..config import load_settings, with_recurrence

    settings = load_settings(Path.cwd())
    mode, base = getattr(args, "mode", None), getattr(args, "base", None)
    settings = settings.replace(mode=mode) if mode else settings
    settings = settings.replace(base=base) if base else settings
    return with_recurrence(settings, source=getattr(args, "source", None), git_since=getattr(args, "git_since", None))


def _progress() -> Optional[Callable[[int, int], None]]:
    """Progress on stderr for long runs, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total >= 20:
            end = "\n" if done == total else ""
            print(f"\rladder: analysed {done}/{total} files", end=end, file=sys.stderr, flush=True)

    return show


def analyse(args: argparse.Namespace, settings: Any, *, hashes: bool = True, record: bool = False,
            git: bool = False) -> tuple[Any, Any]:
    """The analysis of the paths asked for, and the run it belongs to (a
    :class:`~ladder_plugins.history.pipeline.RunPipeline`: what the run may write, its say-it-once warning
    sink, what git knows where ``git``). A run that records nothing and reads no git hashes only the red
    units the history knows."""
    from ..analysis.discovery import default_paths
    from ..analysis.parallel import default_jobs
    from ..errors import WarnOnce
    from ..history.pipeline import RunOptions, RunPipeline

    jobs = getattr(args, "jobs", None) or default_jobs()
    pipeline = RunPipeline.prepare(settings, "cli", WarnOnce(warn), RunOptions(
        record=record, use_cache=not getattr(args, "no_cache", False), hashes=hashes, only_known=git, jobs=jobs,
        git=git))
    paths = args.paths or [settings.root / p for p in default_paths(settings)]
    return pipeline.analyzer.paths(paths, progress=_progress(), jobs=jobs), pipeline


def view(settings: Any, from_git: bool = False, sink: Optional[Callable[[str], None]] = None) -> Any:
    """The read side of the history, for the commands that show it: from the sources the gate reads
    (``--source`` applied by :func:`settings_of`); ``from_git`` reads git even where they are the log alone."""
    from ..config import with_recurrence
    from ..history.view import load_view

    if from_git and settings.recurrence.source != "git":
        settings = with_recurrence(settings, source="both")
    return load_view(settings, warn=sink or warn)


def add_from_git(parser: argparse.ArgumentParser) -> None:
    """``--source`` as ``check`` has it, and ``--from-git``, kept from when git was not read by default."""
    from ..config import SOURCES

    history = parser.add_argument_group("history").add_mutually_exclusive_group()
    history.add_argument("--source", choices=SOURCES,
                         help="where occurrences come from, as for ladder check (default: what the gate reads: "
                              "[tool.ladder.recurrence] source, git and the log inside a git work tree); "
                              "--source log reads the log alone")
    history.add_argument("--from-git", action="store_true",
                         help="read git even where [tool.ladder.recurrence] source is \"log\" (the default "
                              "reads git wherever ladder check does)")
