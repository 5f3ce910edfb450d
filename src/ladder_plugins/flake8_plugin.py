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
    pipeline: ClassVar[Any] = None  # the run (history.pipeline.RunPipeline), per process
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
        cls.pipeline = None
        cls.settings = None
        cls.config_error = None
        cls.enabled = lad_selected(options, list(RULES))
        cls.from_stdin = "-" in (getattr(options, "filenames", None) or [])
        cls.record = not getattr(options, "ladder_no_record", False)
        if cls.enabled:
            cls._load(options)

    @classmethod
    def _load(cls, options: Any) -> None:
        """The run, prepared once per process. The run's first process says what it found (a shallow clone,
        git failing, nothing writable) and asks git before any file, so that forked workers inherit the
        answers; a spawned worker keeps quiet about what its parent has said. Input from stdin (an editor's
        buffer, not a file of the project) writes nothing: no history, no cache."""
        from .errors import LadderError, WarnOnce
        from .history.pipeline import RunOptions, RunPipeline
        from .history.run import RUN_ID_ENV

        owner = _claim_run_id(RUN_ID_ENV)
        heard = cls.say if owner else WarnOnce()
        keep = not cls.from_stdin
        try:
            cls.settings = _settings(options)
            cls.pipeline = RunPipeline.prepare(cls.settings, "flake8", heard, RunOptions(
                record=cls.record and keep, use_cache=keep and not getattr(options, "ladder_no_cache", False),
                ask_git_now=True))
        except LadderError as exc:
            cls.config_error = str(exc)
            return
        if not owner:  # a spawned worker: later warnings are its own to say
            cls.say = WarnOnce(_print_warning, said=heard.said)
            cls.pipeline.warn = cls.say
            if cls.pipeline.evidence is not None:
                cls.pipeline.evidence.warn_to(cls.say)
        cls.record = cls.pipeline.access.record
        if owner:  # forked workers inherit the history; spawned ones read the summary saved here
            cls.pipeline.load(save=cls.record)

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
        report = self.pipeline.analyzer.source("".join(self.lines), rel, HostInput(tree=tree, tokens=self.tokens))
        if report.skipped:
            self.say(f"{self.filename}: not analysed: {report.skipped}")
            return []
        return self._errors(report, record=self.record and not self.from_stdin and inside)

    def _errors(self, report: Any, *, record: bool) -> list[Error]:
        """Record the file's violations, decide the gate, and say both as flake8 errors."""
        from .analysis.thresholds import RED
        from .config import Mode
        from .history.events import events_from_violations

        pipeline = self.pipeline
        pipeline.load(save=False)  # the history before this run, once per process
        events = events_from_violations(report.violations, pipeline.run)
        gate = pipeline.judge(events)
        if record and not pipeline.record_part(events, gate):
            type(self).record = False  # said once; this process records nothing more (no 2 s wait per file)
        errors = [(v.line, 0, v.text, type(self)) for v in report.violations if v.severity == RED]
        if self.settings.mode != Mode.ADVISORY:
            errors += [(line, 0, text, type(self)) for line, text in _hotspots(events, gate, self.settings)]
            errors += [(f.event.line, 0, f.text, type(self)) for f in gate.failures if f.reason in ("new", "worse")]
        return sorted(errors, key=lambda e: (e[0], e[2][:6]))  # stable: a unit's LAD900s in rule-code order


def _settings(options: Any) -> Any:
    """``[tool.ladder]`` with ``--ladder-mode`` and ``--ladder-base`` applied."""
    from .config import load_settings

    overrides = {"mode": getattr(options, "ladder_mode", None), "base": getattr(options, "ladder_base", None)}
    return load_settings(os.getcwd()).replace(**{k: v for k, v in overrides.items() if v})


def _print_warning(message: str) -> None:
    """One warning on stderr, made safe here: file names and git's own words in it come from outside."""
    from .reports.sanitize import clean

    print(f"ladder: warning: {clean(message)}", file=sys.stderr)


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
