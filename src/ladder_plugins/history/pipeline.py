"""One run of the gate, whatever front end starts it: flake8, pytest, ``ladder check``, the edit hook.

Each front end is a thin adapter over these steps, so what a run may write, what it
says, which history and which git evidence it reads, and how it decides are worked
out here once:

- :meth:`RunPipeline.prepare`: the run's identity and clock, what it may write (each
  problem said once), the analyzer with its cache, and what git knows (asked up
  front, so a ``--base`` that names no commit or a shallow clone in CI is a usage
  error before any file is read);
- :meth:`RunPipeline.judge`: a part of the run (one file of flake8, one pytest item,
  one edit) against the history before the run plus git: what a front end shows at
  once;
- :meth:`RunPipeline.record_part`: a part's events appended to the history as it
  goes (flake8 has no end of run to wait for);
- :meth:`RunPipeline.finish`: the whole run recorded under the history's lock and its
  gate decided.

May import: the spine, ``analysis`` and the rest of ``history``. Must not import:
``reports``, ``feedback``, ``worklog`` or a front end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Container, Optional, Sequence

from ..config import Settings
from .aggregate import Aggregate
from .events import Event
from .gate import Gate, GateResult
from .preflight import WriteAccess, check_write_access
from .recorder import Recorder, RunOutcome, gate_events
from .run import RunContext

__all__ = ["RunOptions", "RunPipeline"]


@dataclass(frozen=True)
class RunOptions:
    """How a front end runs: what it may write, what it hashes, how it asks git.

    ``access``: what a worker process was told it may write (its controller checked and said it); otherwise
    it is checked from ``record`` and ``use_cache`` and each problem said. ``run``: the identity a worker
    shares with its controller. ``history``: the history before the run, where the caller already read it
    (the edit hook reads it first, to do nothing at all for a file it does not know). ``only_known``: a run
    that records nothing, caches nothing and reads no git hashes only the red units the history knows.
    ``jobs``: processes for git's cold walk. ``git``: false where git is not this run's business (the numbers
    alone). ``ask_git_now``: read the repository and its
    commits before any file, for a process that forks workers (they inherit the answers, and a failure is
    said once).
    """

    record: bool = True
    use_cache: bool = True
    access: Optional[WriteAccess] = None
    run: Optional[RunContext] = None
    history: Optional[Aggregate] = None
    hashes: bool = True
    only_known: bool = False
    jobs: Optional[int] = None
    git: bool = True
    ask_git_now: bool = False
    #: a shallow clone in CI or a ``--base`` that names no commit stops the run (a usage error); false for
    #: what only reads (the read side says instead that git was not read)
    usage_errors: bool = True


@dataclass
class RunPipeline:
    """One run's settings, identity, write access, warning sink, analyzer and git evidence; the history before
    the run is read once, on first use."""

    settings: Settings
    run: RunContext
    access: WriteAccess
    warn: Callable[[str], None]
    analyzer: Any = None
    #: what git knows (a :class:`~.evidence.GitEvidence`), ``None`` where git is not asked at all
    evidence: Any = None
    _store: Any = field(default=None, repr=False)
    _history: Any = field(default=None, repr=False)
    _loaded: Any = field(default=None, repr=False)

    @classmethod
    def prepare(cls, settings: Settings, tool: str, warn: Callable[[str], None],
                options: RunOptions = RunOptions()) -> "RunPipeline":
        """Everything a run of ``tool`` needs before it reads a file (see :class:`RunOptions`); problems are
        said through ``warn``, a usage error raised."""
        from ..analysis.analyzer import Analyzer

        run = options.run or RunContext.create(tool, settings.mode, settings.repo_id)
        access = options.access
        if access is None:
            access = check_write_access(settings, record=options.record, cache=options.use_cache)
            for message in access.warnings:
                warn(message)
        pipeline = cls(settings, run, access, warn, _history=options.history)
        versions = pipeline._known() if options.only_known and not (access.record or access.cache) else None
        pipeline.analyzer = Analyzer.for_run(settings, hashes=options.hashes, use_cache=access.cache, warn=warn,
                                             versions=versions)
        if options.git:
            pipeline.evidence = pipeline._git(options.jobs, options.ask_git_now, options.usage_errors)
        return pipeline

    def _known(self) -> Optional[Container[str]]:
        """The fingerprints the history knows (``None``, every red unit hashed, where git's versions may count
        too): a run that keeps nothing needs no other unit's hash."""
        from .workspace import git_wanted

        return None if git_wanted(self.settings) else frozenset(self.history.fingerprints)

    def _git(self, jobs: Optional[int], now: bool, usage_errors: bool) -> Any:
        """What git knows for this run, asked up front; ``None`` (git's modules not even imported) outside git.
        :class:`~ladder_plugins.errors.ConfigError` for what makes the run a usage error."""
        from .workspace import git_wanted

        if not git_wanted(self.settings):
            return None
        from .evidence import GitEvidence

        evidence = GitEvidence(self.settings, cache=self.analyzer.cache, pm=self.analyzer.pm, warn=self.warn,
                               now=self.run.now)
        if jobs is not None:
            evidence.blobs.jobs = jobs
        if now:
            evidence.prepare()
        if usage_errors:
            evidence.check()
        return evidence

    # -- the history before the run -------------------------------------------------------

    def store(self) -> Any:
        if self._store is None:
            from .store import HistoryStore

            self._store = HistoryStore(self.settings, warn=self.warn)
        return self._store

    @property
    def history(self) -> Any:
        """The aggregate of the history before this run, read once (without writing anything)."""
        if self._history is None:
            self._history = self.store().peek() if self._loaded is None else self._loaded.aggregate
        return self._history

    def load(self, *, save: bool) -> Any:
        """The history before the run as :meth:`HistoryStore.load` reads it (its summary cache saved when
        ``save``): for a run that appends part by part and must know what is already there."""
        if self._loaded is None:
            self._loaded = self.store().load(save=save)
            self._history = self._loaded.aggregate
        return self._loaded

    # -- deciding --------------------------------------------------------------------------

    def judge(self, events: Sequence[Event]) -> GateResult:
        """The gate for a part of the run: the history before the run, git, and ``events``."""
        return Gate(self.run.mode, self.settings, self.run.now).decide(events, self.history, self.evidence)

    def record_part(self, events: Sequence[Event], gate: GateResult) -> bool:
        """Append a part's events and its gate-fail events; ``False`` when nothing more can be written (said
        once by the store), so the caller records no more."""
        loaded = self._loaded
        if loaded is None or loaded.read_only:
            return False
        written = self.store().append_events(list(events) + gate_events(gate), now=self.run.now,
                                             known=loaded.aggregate.knows)
        return written is not None

    def finish(self, events: Sequence[Event], *, record: bool) -> RunOutcome:
        """The whole run recorded (unless ``record`` is false or the run may not write) and its gate decided."""
        record = record and self.access.record
        return self._recorder(record).events(events, record=record)

    def finish_violations(self, violations: Sequence[Any], *, record: bool) -> RunOutcome:
        """:meth:`finish` for a run's violations (a run that records nothing builds events for red ones only)."""
        record = record and self.access.record
        return self._recorder(record).violations(violations, record=record)

    def _recorder(self, record: bool) -> Recorder:
        """A recorder that reuses the history this run already read where it records nothing."""
        read = None if record or self._history is None else (self.store(), self._history)
        return Recorder(self.settings, self.run, self.warn, self.evidence, read=read)
