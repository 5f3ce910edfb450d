"""The read side of the history: what ``summary``, ``brief``, ``recommend`` and the
HTML report show, computed once from the aggregate and checked against the code.

The view reads what the gate reads: where ``ladder check`` reads git, so does the view,
and the recurrences of what the code violates now are the gate's own (its counting, its
mechanical commits, its adoption point), so a hotspot ``check`` fails on is listed, and
a chronic one whose occurrences all predate the adoption point is listed as *known*
(``Recurrence.triggered`` false). Where the gate reads the log alone, so does the view.

A hotspot is history; whether it is still true is a fact of the current code. So the
view asks the analysis (the cache makes that cheap) about the files of the hotspots:
one that no longer violates, or whose unit or file no longer exists, is *resolved*
and is shown apart, never as current; the value of a current one is the value the
code has now. A view built without that check (``current`` left ``None``) can only
say what was last seen, and when.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence, TypeVar, Union

from ..config import Settings
from ..ladderdir.paths import inside
from .aggregate import Aggregate
from .events import Event
from .gate import Evidence, Gate, GateResult
from .recurrence import Pattern, Recurrence, ahead_of_clock, area_of, patterns_of, recurrences, trend
from .run import format_timestamp

if TYPE_CHECKING:
    from ..analysis.report import AnalysisResult
    from .evidence import Baseline, GitFacts

_Keyed = TypeVar("_Keyed", bound=Union[Recurrence, Pattern])

__all__ = ["Current", "HistoryView", "build_view", "load_view", "current_state", "reads_git"]


@dataclass(frozen=True)
class Current:
    """What the current code says of a fingerprint that violates now."""

    actual: float
    limit: Optional[float]
    severity: str
    line: int


@dataclass(frozen=True)
class HistoryView:
    """Hotspots (current and resolved), patterns, the worst areas and roles, the per-day trend."""

    now: str
    count_mode: str
    events: int
    oldest: Optional[str]
    newest: Optional[str]
    hotspots: tuple[Recurrence, ...]
    recurring: tuple[Recurrence, ...]
    patterns: tuple[Pattern, ...]
    areas: tuple[tuple[str, int], ...]
    roles: tuple[tuple[str, int], ...]
    trend: tuple[tuple[str, dict[str, int]], ...]
    resolved: tuple[Recurrence, ...] = ()
    #: the current code's red violations by fingerprint, or ``None`` when the code was not checked
    current: Optional[Mapping[str, Current]] = None
    #: past versions read from git (where the gate reads git), counted with the log's events
    git_versions: int = 0
    #: what history the gate's counting read (``3 past versions from git; fails on occurrences since ..``)
    read: str = ""

    @property
    def sources(self) -> str:
        """``12 events``; where git was read, what the gate read too: ``0 events; 6 past versions from git;
        fails on occurrences since 2026-11-03 (the commit that added [tool.ladder]); 0 runs in the log``."""
        if self.read:
            return f"{self.events} events; {self.read}"
        git = f" and {self.git_versions} past version{'s' if self.git_versions != 1 else ''} from git" \
            if self.git_versions else ""
        return f"{self.events} events{git}"

    @property
    def known(self) -> tuple[Recurrence, ...]:
        """The hotspots known from history: no occurrence after the adoption point, so no failure until their
        next edit that leaves them over the limit."""
        return tuple(r for r in self.hotspots if not r.triggered)

    @property
    def checked(self) -> bool:
        return self.current is not None

    def now_of(self, rec: Recurrence) -> Optional[Current]:
        """The current value of a hotspot, if the code was checked."""
        return None if self.current is None else self.current.get(rec.fingerprint)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": "ladder-summary", "version": 1, "now": self.now, "count": self.count_mode,
            "events": self.events, "git_versions": self.git_versions, "read": self.read, "oldest": self.oldest,
            "newest": self.newest, "checked": self.checked,
            "hotspots": [self._hotspot_json(r) for r in self.hotspots],
            "resolved": [dict(_recurrence_json(r), status="resolved") for r in self.resolved],
            "patterns": [p.to_json() for p in self.patterns],
            "areas": [{"area": a, "occurrences": n} for a, n in self.areas],
            "roles": [{"role": r, "occurrences": n} for r, n in self.roles],
            "trend": [{"day": d, **counts} for d, counts in self.trend],
        }

    def _hotspot_json(self, rec: Recurrence) -> dict[str, Any]:
        now = self.now_of(rec)
        said = dict(_recurrence_json(rec), known=not rec.triggered)
        if now is None:
            return dict(said, status="unchecked")
        return dict(said, status="current", actual=now.actual, limit=now.limit)


def _recurrence_json(rec: Recurrence) -> dict[str, Any]:
    return {
        "fingerprint": rec.fingerprint, "path": rec.path, "unit": rec.unit, "rule_key": rec.rule_key,
        "role": rec.role, "occurrences": rec.occurrences, "distinct_days": rec.distinct_days,
        "first_seen": rec.first_seen, "last_seen": rec.last_seen, "last_occurrence": rec.last_occurrence,
        "last_actual": rec.last_actual,
        "last_limit": rec.last_limit,
    }


def build_view(aggregate: Aggregate, settings: Settings, now: datetime,
               current: Optional[Mapping[str, Current]] = None,
               recs: Optional[list[Recurrence]] = None) -> HistoryView:
    """The view; with ``current`` (see :func:`current_state`) hotspots are split into current and resolved.
    ``recs`` are the aggregate's recurrences when the caller already worked them out."""
    recs = recurrences(aggregate, settings, now) if recs is None else recs
    areas, roles = _totals(recs)
    hot, resolved = _split(recs, settings, current)
    return HistoryView(
        now=format_timestamp(now), count_mode=settings.recurrence.count, events=aggregate.events,
        oldest=aggregate.oldest, newest=aggregate.newest, hotspots=_shown(hot), recurring=_shown(recs),
        patterns=_shown(patterns_of(recs, settings)), areas=areas, roles=roles,
        trend=tuple(trend(aggregate, settings, now)), resolved=_shown(resolved), current=current,
    )


def _shown(found: Iterable[_Keyed]) -> tuple[_Keyed, ...]:
    """What the view shows, judged first: a rule key no installed rule has is relabelled ``unknown``, so no
    output built from the view prints a key from the history that nothing vouches for."""
    from ..plugins import shown_rule_key

    return tuple(item if shown_rule_key(item.rule_key) == item.rule_key
                 else dataclasses.replace(item, rule_key=shown_rule_key(item.rule_key)) for item in found)


def _split(recs: list[Recurrence], settings: Settings,
           current: Optional[Mapping[str, Current]]) -> tuple[tuple[Recurrence, ...], tuple[Recurrence, ...]]:
    """Hotspots that still violate (or were not checked), and those the current code resolved."""
    hot = [r for r in recs if r.is_hotspot(settings)]
    if current is None:
        return tuple(hot), ()
    return tuple(r for r in hot if r.fingerprint in current), tuple(r for r in hot if r.fingerprint not in current)


def _totals(recs: list[Recurrence]) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """Occurrences per area and per role, the most first."""
    areas: Counter[str] = Counter()
    roles: Counter[str] = Counter()
    for rec in recs:
        areas[area_of(rec.path)] += rec.occurrences
        roles[rec.role] += rec.occurrences
    return tuple(areas.most_common()), tuple(roles.most_common())


#: Larger files are not read back for the check (a source file this big is not one the history means).
_MAX_SOURCE = 16 << 20


def _source_bytes(root: Path, rel: str) -> Optional[bytes]:
    """The file a history path names, if it is a regular file inside the root; else ``None``.

    Paths come from the history, which is untrusted: ``..``, absolute paths, symlinks
    leading out, FIFOs and devices are never opened for reading.
    """
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        return None
    path = root / pure
    real = Path(os.path.realpath(path))
    if not inside(real, Path(os.path.realpath(root))) or not stat.S_ISREG(_mode(real)):
        return None
    try:
        with open(real, "rb") as handle:
            data = handle.read(_MAX_SOURCE + 1)
    except OSError:
        return None
    return data if len(data) <= _MAX_SOURCE else None


def _mode(path: Path) -> int:
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):
        return 0


def current_state(settings: Settings, paths: Iterable[str], *, use_cache: bool = True,
                  warn: Optional[Callable[[str], None]] = None) -> dict[str, Current]:
    """The red violations the code under ``paths`` (relative to the root) has now, by fingerprint.

    A file that no longer exists, lies outside the project or cannot be analysed has
    none: its hotspots are resolved.
    """
    from ..analysis.analyzer import Analyzer

    analyzer = Analyzer.for_run(settings, use_cache=use_cache, warn=warn)
    found: dict[str, Current] = {}
    for rel in sorted(set(paths)):
        data = _source_bytes(settings.root, rel)
        if data is not None:
            report = analyzer.source(data, rel)
            found.update((v.fingerprint, Current(v.actual, v.limit, v.severity, v.line)) for v in report.red)
    return found


def reads_git(settings: Settings) -> bool:
    """Whether the gate reads git for these settings: then the view does too."""
    from .workspace import git_wanted

    rec = settings.recurrence
    return rec.source != "log" and rec.count == "edits" and git_wanted(settings)


def load_view(settings: Settings, warn: Optional[Callable[[str], None]] = None, *,
              check: bool = True) -> HistoryView:
    """The view of this project's history now (``LADDER_NOW`` respected), its hotspots checked against the
    current code unless ``check`` is false. It reads what the gate reads (see the module's docstring;
    ``recurrence.source = "log"`` for the log alone). Writes nothing but the analysis cache."""
    from ..errors import WarnOnce
    from .run import now_utc
    from .store import HistoryStore

    sink = WarnOnce(warn)  # the store, the cache and git may notice the same problem: said once
    aggregate = HistoryStore(settings, warn=sink).peek()
    when = now_utc()
    note = ahead_of_clock(aggregate, when)
    if note is not None:
        sink(note)
    if reads_git(settings):
        return _gate_view(settings, aggregate, when, sink, check)
    recs = recurrences(aggregate, settings, when)
    current = _checked(settings, [r for r in recs if r.is_hotspot(settings)], sink) if check else None
    return build_view(aggregate, settings, when, current, recs)


def _checked(settings: Settings, hot: list[Recurrence], warn: Callable[[str], None]) -> dict[str, Current]:
    """The current state of the hotspots' files, through the cache where this run may write it."""
    from .preflight import check_write_access

    access = check_write_access(settings, record=False, cache=bool(hot))
    for message in access.warnings:
        warn(message)
    return current_state(settings, {r.path for r in hot}, use_cache=access.cache, warn=warn)


class _Kept:
    """The gate's evidence, keeping the past versions git gave it: the view's dates and counts include them."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        self.versions: list[Event] = []

    def prior(self, events: Sequence[Event]) -> list[Event]:
        self.versions = self.evidence.prior(events)
        return self.versions

    def baseline(self, events: Sequence[Event]) -> Optional[Baseline]:
        return self.evidence.baseline(events)

    def facts(self) -> GitFacts:
        return self.evidence.facts()


def _gate_view(settings: Settings, history: Aggregate, now: datetime, warn: Callable[[str], None],
               check: bool) -> HistoryView:
    """The view as ``ladder check`` counts: the recurrences of what the code violates now are the gate's
    (triggered or known); the log's recurrences of what it no longer violates are beside them (unless the
    gate reads git alone). Dates and the trend cover git's versions, however old."""
    if settings.recurrence.source == "git":  # the gate does not read the log then: neither does the view
        history = Aggregate(settings.recurrence.count == "runs")
    decided, versions, result = _decided(settings, history, now, warn)
    gated = {r.fingerprint: r for r in decided.recurrences}
    recs = sorted([*gated.values(), *(r for r in recurrences(history, settings, now) if r.fingerprint not in gated)],
                  key=lambda r: (not r.triggered, -r.occurrences, -r.distinct_days, r.fingerprint))  # failing first
    current = _current(settings, [r for r in recs if r.is_hotspot(settings)], result, warn) if check else None
    oldest, newest = _span(history, versions)
    return dataclasses.replace(
        build_view(history, settings, now, current, recs), oldest=oldest, newest=newest,
        trend=_trend(history, recs, settings, now), git_versions=len(versions), read=decided.note)


def _span(history: Aggregate, versions: Sequence[Event]) -> tuple[Optional[str], Optional[str]]:
    """The oldest and newest time of the log's events and git's versions."""
    dates = sorted(filter(None, (history.oldest, history.newest, *(e.timestamp for e in versions))))
    return (dates[0], dates[-1]) if dates else (None, None)


def _decided(settings: Settings, history: Aggregate, now: datetime,
             warn: Callable[[str], None]) -> tuple[GateResult, list[Event], AnalysisResult]:
    """The gate's decision on the red violations of the code under the configured paths, with git's evidence,
    recording nothing, through the pipeline every run goes through; the past versions git gave it; and the
    analysis (the hotspots' current state is read from it, not analysed again)."""
    from ..analysis.discovery import default_paths
    from ..analysis.parallel import default_jobs
    from ..analysis.thresholds import RED
    from .events import events_from_violations
    from .pipeline import RunOptions, RunPipeline
    from .run import RunContext

    run = RunContext("read", "cli", settings.mode, now, settings.repo_id)
    options = RunOptions(record=False, run=run, history=history, jobs=default_jobs(), usage_errors=False)
    pipeline = RunPipeline.prepare(settings, "cli", warn, options)
    result = pipeline.analyzer.paths([settings.root / p for p in default_paths(settings)], jobs=default_jobs())
    kept = _Kept(pipeline.evidence) if pipeline.evidence is not None else None
    red = events_from_violations([v for v in result.violations if v.severity == RED], run)
    decided = Gate(settings.mode, settings, now).decide(red, history, kept)
    return decided, kept.versions if kept is not None else [], result


def _current(settings: Settings, hot: list[Recurrence], result: AnalysisResult,
             warn: Callable[[str], None]) -> dict[str, Current]:
    """The hotspots' current state: from the run's analysis for the files it covered, analysed only for the
    others (a hotspot of the log in a file outside the configured paths)."""
    from ..analysis.thresholds import RED

    covered, paths = {f.path for f in result.files}, {r.path for r in hot}
    found = {v.fingerprint: Current(v.actual, v.limit, v.severity, v.line) for v in result.violations
             if v.severity == RED and v.path in paths}
    rest = [r for r in hot if r.path not in covered]
    return {**found, **(_checked(settings, rest, warn) if rest else {})}


def _trend(history: Aggregate, recs: Sequence[Recurrence], settings: Settings,
           now: datetime) -> tuple[tuple[str, dict[str, int]], ...]:
    """Per day: the log's red and yellow counts of its runs (inside retention), and the occurrences the gate
    counted, git's however old: a chart of the gate's evidence, not only of the log's window."""
    runs = trend(history, settings, now)
    days = {day: {k: n for k, n in counts.items() if k != "occurrences"} for day, counts in runs}
    for rec in recs:
        for when, _ in rec.times:
            counts = days.setdefault(when[:10], {})
            counts["occurrences"] = counts.get("occurrences", 0) + 1
    return tuple(sorted((day, counts) for day, counts in days.items() if counts))
