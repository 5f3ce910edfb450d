"""The read side of the history: what ``summary``, ``brief``, ``recommend`` and the
HTML report show, computed once from the aggregate and checked against the code.

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
from typing import Callable, Iterable, Mapping, Optional, TypeVar, Union

from ..config import Settings
from ..ladderdir.paths import inside
from .aggregate import Aggregate
from .recurrence import Pattern, Recurrence, ahead_of_clock, area_of, patterns_of, recurrences, trend
from .run import format_timestamp

_Keyed = TypeVar("_Keyed", bound=Union[Recurrence, Pattern])

__all__ = ["Current", "HistoryView", "build_view", "load_view", "current_state"]


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
    #: past versions read from git (``--from-git``), counted with the log's events
    git_versions: int = 0

    @property
    def sources(self) -> str:
        """``12 events`` or ``12 events and 9 past versions from git``: what the counts are made of."""
        git = f" and {self.git_versions} past version{'s' if self.git_versions != 1 else ''} from git" \
            if self.git_versions else ""
        return f"{self.events} events{git}"

    @property
    def checked(self) -> bool:
        return self.current is not None

    def now_of(self, rec: Recurrence) -> Optional[Current]:
        """The current value of a hotspot, if the code was checked."""
        return None if self.current is None else self.current.get(rec.fingerprint)

    def to_json(self) -> dict:
        return {
            "schema": "ladder-summary", "version": 1, "now": self.now, "count": self.count_mode,
            "events": self.events, "git_versions": self.git_versions, "oldest": self.oldest, "newest": self.newest,
            "checked": self.checked,
            "hotspots": [self._hotspot_json(r) for r in self.hotspots],
            "resolved": [dict(_recurrence_json(r), status="resolved") for r in self.resolved],
            "patterns": [p.to_json() for p in self.patterns],
            "areas": [{"area": a, "occurrences": n} for a, n in self.areas],
            "roles": [{"role": r, "occurrences": n} for r, n in self.roles],
            "trend": [{"day": d, **counts} for d, counts in self.trend],
        }

    def _hotspot_json(self, rec: Recurrence) -> dict:
        now = self.now_of(rec)
        if now is None:
            return dict(_recurrence_json(rec), status="unchecked")
        return dict(_recurrence_json(rec), status="current", actual=now.actual, limit=now.limit)


def _recurrence_json(rec: Recurrence) -> dict:
    return {
        "fingerprint": rec.fingerprint, "path": rec.path, "unit": rec.unit, "rule_key": rec.rule_key,
        "role": rec.role, "occurrences": rec.occurrences, "distinct_days": rec.distinct_days,
        "first_seen": rec.first_seen, "last_seen": rec.last_seen, "last_actual": rec.last_actual,
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


def load_view(settings: Settings, warn=None, *, check: bool = True, from_git: bool = False) -> HistoryView:
    """The view of this project's history now (``LADDER_NOW`` respected), its hotspots checked
    against the current code unless ``check`` is false; with ``from_git``, the past versions git
    holds of what the code violates now count too. Writes nothing but the analysis cache."""
    from .run import now_utc
    from .store import HistoryStore

    aggregate = HistoryStore(settings, warn=warn).peek()
    when = now_utc()
    note = ahead_of_clock(aggregate, when)
    if note is not None and warn is not None:
        warn(note)
    versions = _git_occurrences(settings, when, warn) if from_git else []
    aggregate.add_versions(versions)
    recs = recurrences(aggregate, settings, when)
    current = _checked(settings, [r for r in recs if r.is_hotspot(settings)], warn) if check else None
    return dataclasses.replace(build_view(aggregate, settings, when, current, recs), git_versions=len(versions))


def _checked(settings: Settings, hot: list[Recurrence], warn: Optional[Callable[[str], None]]) -> dict[str, Current]:
    """The current state of the hotspots' files, through the cache where this run may write it."""
    from .preflight import check_write_access

    access = check_write_access(settings, record=False, cache=bool(hot))
    for message in access.warnings:
        (warn or (lambda _: None))(message)
    return current_state(settings, {r.path for r in hot}, use_cache=access.cache, warn=warn)


def _git_occurrences(settings: Settings, now: datetime, warn: Optional[Callable[[str], None]]) -> list:
    """Red events of the past versions git holds of every fingerprint the current code violates."""
    from ..analysis.analyzer import Analyzer
    from ..analysis.discovery import default_paths
    from .events import events_from_violations
    from .evidence import GitEvidence
    from .preflight import check_write_access
    from .run import RunContext

    access = check_write_access(settings, record=False, cache=True)
    analyzer = Analyzer.for_run(settings, use_cache=access.cache, warn=warn)
    found = analyzer.paths([settings.root / p for p in default_paths(settings)]).violations
    run = RunContext("read", "cli", settings.mode, now, settings.repo_id)
    asked = settings.replace(recurrence=dataclasses.replace(settings.recurrence, source="both"))
    evidence = GitEvidence(asked, cache=analyzer.cache, pm=analyzer.pm, warn=warn, now=now)
    return evidence.prior(events_from_violations(found, run))
