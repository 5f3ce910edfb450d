"""flake8 front end (entry point ``LAD``): a thin adapter over the core.

flake8 hands us the tree it already parsed; the core analyses it, the recorder
records the file's violations and decides the gate, and this module only turns the
results into flake8 errors. Each worker process records the files it checked, under
the store's lock, with the run id of the whole invocation.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path
from typing import Any, ClassVar, Iterator, Optional, Sequence

__all__ = ["LadderChecker", "lad_selected"]

Error = tuple[int, int, str, type]
_OWNER_ENV = "LADDER_RUN_ID_OWNER"  # pid of the process that owns the current run
_GENERATED_ENV = "LADDER_RUN_ID_GENERATED"  # the run id we generated (not the user's)
_PREFIX = "LAD"


def _longest_prefix(code: str, prefixes: Sequence[str]) -> str:
    best = ""
    for prefix in prefixes:
        prefix = prefix.strip().upper()
        if prefix and code.startswith(prefix) and len(prefix) > len(best):
            best = prefix
    return best


def _codes(value: Any) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        value = value.split(",")
    return [str(v).strip() for v in value if str(v).strip()]


def _selection(options: Any) -> tuple[list[str], list[str], list[str]]:
    """(explicitly selected, implicitly selected, explicitly ignored) code prefixes."""
    given = _codes(getattr(options, "select", None))
    explicit = given + _codes(getattr(options, "extend_select", None))
    defaults = _codes(getattr(options, "extended_default_select", None)) or ["E", "F", "W", "C90", _PREFIX]
    ignored = _codes(getattr(options, "ignore", None)) + _codes(getattr(options, "extend_ignore", None))
    return explicit, ([] if given else defaults), ignored


def _kept(code: str, explicit: Sequence[str], implicit: Sequence[str], ignored: Sequence[str]) -> bool:
    chosen = _longest_prefix(code, explicit)
    dropped = _longest_prefix(code, ignored)
    if chosen:
        return len(chosen) > len(dropped)
    return not dropped and bool(_longest_prefix(code, implicit))


def lad_selected(options: Any, codes: Sequence[str]) -> bool:
    """Whether flake8's selection keeps any of ``codes``, by flake8's documented rules.

    An explicit choice (``--select``/``--extend-select``, ``--ignore``/``--extend-ignore``)
    beats an implicit one (the default selection: the built-in codes plus every
    installed plugin's entry name); between two explicit choices the longer prefix
    wins, and a tie goes to ignore.
    """
    explicit, implicit, ignored = _selection(options)
    return any(_kept(code, explicit, implicit, ignored) for code in codes)


class LadderChecker:
    """flake8 AST checker reporting ``LADxxx`` errors and recording them."""

    name = "ladder-plugins"
    version = "0.1.0"

    # Set by parse_options once per flake8 invocation (and per spawned worker).
    enabled: ClassVar[bool] = False
    record: ClassVar[bool] = True
    from_stdin: ClassVar[bool] = False
    settings: ClassVar[Any] = None
    analyzer: ClassVar[Any] = None
    history: ClassVar[Any] = None  # the history before this run, read once per process
    evidence: ClassVar[Any] = None  # what git knows (GitEvidence), per process
    config_error: ClassVar[Optional[str]] = None
    say: ClassVar[Any] = None  # this run's WarnOnce: each warning once per process

    def __init__(self, tree: ast.AST, filename: str = "stdin", lines: Optional[Sequence[str]] = None,
                 file_tokens: Optional[Sequence[Any]] = None) -> None:
        # flake8 tokenizes each file for its own noqa handling; its tokens give the comments, not a second pass
        self.tree = tree
        self.filename = filename
        self.lines = list(lines or [])
        self.tokens = file_tokens

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        from .config import MODES

        option_manager.add_option(
            "--ladder-mode",
            choices=MODES,
            default=None,
            parse_from_config=True,
            help="ladder gate mode for this run (overrides [tool.ladder] mode): " + ", ".join(MODES),
        )
        option_manager.add_option(
            "--ladder-base",
            default=None,
            metavar="REF",
            parse_from_config=True,
            help="the base commit of --ladder-mode new (default: [tool.ladder] base, else the merge base with "
                 "the default branch)",
        )
        option_manager.add_option(
            "--ladder-no-cache",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="do not use the shared analysis cache (also LADDER_NO_CACHE=1)",
        )
        option_manager.add_option(
            "--ladder-no-record",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="do not record this run's ladder violations in the history",
        )

    @classmethod
    def parse_options(cls, options: Any) -> None:
        from .catalogue import RULES

        from .errors import WarnOnce

        cls.say = WarnOnce(_print_warning)
        cls.history = None
        cls.evidence = None
        cls.settings = None
        cls.config_error = None
        cls.enabled = lad_selected(options, list(RULES))
        cls.from_stdin = "-" in (getattr(options, "filenames", None) or [])
        cls.record = not getattr(options, "ladder_no_record", False)
        if cls.enabled:
            cls._load(options)

    @classmethod
    def _load(cls, options: Any) -> None:
        from .analysis.analyzer import Analyzer
        from .errors import LadderError
        from .history.run import RUN_ID_ENV, RunContext
        from .history.store import HistoryStore

        owner = _claim_run_id(RUN_ID_ENV)
        try:
            cls.settings = _settings(options)
            RunContext.create("flake8", cls.settings.mode, cls.settings.repo_id)  # LADDER_NOW, LADDER_ACTOR
        except LadderError as exc:
            cls.config_error = str(exc)
            return
        access = cls._write_access(not getattr(options, "ladder_no_cache", False), owner)
        # One analyzer per process (workers inherit it or build their own): rules and cache resolved once.
        cls.analyzer = Analyzer.for_run(cls.settings, use_cache=access.cache, warn=cls.say)
        cls.evidence = cls._evidence(owner)
        if owner:  # forked workers inherit the history; spawned ones read the summary saved here
            cls.history = HistoryStore(cls.settings, warn=cls.say).load(save=access.record)

    @classmethod
    def _evidence(cls, owner: bool) -> Any:
        """What git knows, asked up front: a shallow clone, a missing or failing git is said by the run's first
        process (forked workers inherit what it found), not again by each spawned worker. A ``--ladder-base``
        that names no commit is a configuration error."""
        from .errors import LadderError, WarnOnce
        from .history.workspace import git_wanted

        if not git_wanted(cls.settings):
            return None  # outside git: the log alone, git's modules not imported
        from .history.evidence import GitEvidence

        heard = cls.say if owner else WarnOnce()
        evidence = GitEvidence(cls.settings, cache=cls.analyzer.cache, pm=cls.analyzer.pm, warn=heard)
        evidence.prepare()
        if not owner:
            cls.say = WarnOnce(_print_warning, said=[*cls.say.said, *heard.said])
            evidence.warn_to(cls.say)
        try:
            evidence.check()
        except LadderError as exc:
            cls.config_error = str(exc)
        return evidence

    @classmethod
    def _write_access(cls, use_cache: bool, owner: bool) -> Any:
        """What this run may write; a problem is said once, by the run's first process, not per worker. Input
        from stdin (an editor's buffer, not a file of the project) writes nothing: no history, no cache."""
        from .errors import WarnOnce
        from .history.preflight import check_write_access

        keep = not cls.from_stdin
        access = check_write_access(cls.settings, record=cls.record and keep, cache=use_cache and keep)
        cls.record = access.record
        if owner:
            for message in access.warnings:
                cls.say(message)
        else:  # a spawned worker: the parent has said it
            cls.say = WarnOnce(_print_warning, said=access.warnings)
        return access

    def run(self) -> Iterator[Error]:
        if not self.enabled:
            return
        if self.config_error is not None:
            from .catalogue import CONFIGURATION

            yield 1, 0, f"{CONFIGURATION.code} {CONFIGURATION.what}: {self.config_error}", type(self)
            return
        try:
            errors = self._check()
        except Exception as exc:  # a bug of ours must never take flake8 down
            self.say(f"{self.filename}: not analysed ({type(exc).__name__}: {exc})")
            return
        yield from errors

    def _check(self) -> list[Error]:
        from .analysis.analyzer import HostInput
        from .analysis.discovery import relative_path

        rel, inside = relative_path(Path(self.filename), self.settings.root)
        tree = self.tree if isinstance(self.tree, ast.Module) else None
        report = self.analyzer.source("".join(self.lines), rel, HostInput(tree=tree, tokens=self.tokens))
        if report.skipped:
            self.say(f"{self.filename}: not analysed: {report.skipped}")
            return []
        return self._errors(report, record=self.record and not self.from_stdin and inside)

    def _errors(self, report: Any, *, record: bool) -> list[Error]:
        """Record the file's violations, decide the gate, and say both as flake8 errors."""
        from .analysis.thresholds import RED

        events, gate = self._decide(report, record)
        errors = [(v.line, 0, v.text, type(self)) for v in report.violations if v.severity == RED]
        if self.settings.mode != "advisory":
            errors += [(line, 0, text, type(self)) for line, text in _hotspots(events, gate, self.settings)]
            errors += [(f.event.line, 0, f.text, type(self)) for f in gate.failures if f.reason in ("new", "worse")]
        return sorted(errors, key=lambda e: (e[0], e[2][:6]))  # stable: a unit's LAD900s in rule-code order

    def _decide(self, report: Any, record: bool) -> tuple[list[Any], Any]:
        """This file's events and gate decision (history before the run plus the file); records them."""
        from .history.events import events_from_violations
        from .history.gate import Gate
        from .history.recorder import gate_events
        from .history.run import RunContext

        settings, history = self.settings, self._history()
        run = RunContext.create("flake8", settings.mode, settings.repo_id)
        events = events_from_violations(report.violations, run)
        gate = Gate(run.mode, settings, run.now).decide(events, history.aggregate, self.evidence)
        if record and not history.read_only:
            written = self._store().append_events(events + gate_events(gate), now=run.now,
                                                  known=history.aggregate.knows)
            if written is None:  # said once; this process records nothing more (no 2 s wait per file)
                type(self).record = False
        return events, gate

    def _store(self) -> Any:
        from .history.store import HistoryStore

        return HistoryStore(self.settings, warn=self.say)

    def _history(self) -> Any:
        """The history as it was before this run, loaded on first use in each process."""
        if type(self).history is None:
            type(self).history = self._store().load(save=False)
        return type(self).history


def _settings(options: Any) -> Any:
    """``[tool.ladder]`` with ``--ladder-mode`` and ``--ladder-base`` applied."""
    from .config import load_settings

    overrides = {"mode": getattr(options, "ladder_mode", None), "base": getattr(options, "ladder_base", None)}
    return load_settings(os.getcwd()).replace(**{k: v for k, v in overrides.items() if v})


def _print_warning(message: str) -> None:
    print(f"ladder: warning: {message}", file=sys.stderr)


def _hotspots(events: Any, gate: Any, settings: Any) -> list[tuple[int, str]]:
    """(line, LAD900 text) for each fingerprint of this file that is a hotspot counting this run."""
    from .history.gate import hotspot_failures

    return [(f.event.line, f.text) for f in hotspot_failures(events, gate.recurrences, settings)]


def _claim_run_id(env_name: str) -> bool:
    """One run id per flake8 invocation, shared by its workers; whether this process owns the run.

    A spawned worker (a multiprocessing child of the process that owns the run) keeps
    the inherited id. Otherwise this process starts a run: a ``LADDER_RUN_ID`` given
    by the user or CI is kept, an id we generated for an earlier invocation (in this
    process or a parent) is replaced.
    """
    import multiprocessing

    from .history.run import new_id

    if multiprocessing.parent_process() is not None and os.environ.get(_OWNER_ENV) == str(os.getppid()):
        return False
    current = os.environ.get(env_name)
    if not current or current == os.environ.get(_GENERATED_ENV):
        current = new_id()
        os.environ[env_name] = os.environ[_GENERATED_ENV] = current
    os.environ[_OWNER_ENV] = str(os.getpid())
    return True
