"""Recurrence: occurrences, hotspots, patterns and the per-day trend (``docs/explanation/recurrence.md``).

An *occurrence* is the feedback "this unit violates this rule" given again. With
``count = "edits"`` (default) it is the first red sighting of a fingerprint, then the
first red sighting of every new version (an edited unit; for a file rule, a changed
value) whose value is not better than the previous version's: an edit that lowers a
violated maximum (cognitive 30 -> 20 against 15) is someone working on the feedback,
not the feedback coming back. A version of another hash form than the one before it
(an upgrade of ladder-plugins, not an edit) is never an occurrence either. With
``count = "runs"`` it is every run id in which the fingerprint was red. The log's
occurrences count inside the retention window; a version git holds counts however
old it is (git's history is the evidence; the adoption point, not the age, decides
whether it fails the run). A version a mechanical commit left is no occurrence but
the baseline the next edit is compared with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Iterable, Iterator, Optional

from ..catalogue import worse_than
from ..config import Settings
from .aggregate import Aggregate, FingerprintStats
from .run import format_timestamp, horizon

__all__ = [
    "GitVersions", "Recurrence", "Pattern", "cutoff", "occurrence_times", "recurrence_of", "recurrences", "hotspots",
    "patterns", "trend", "area_of", "patterns_of", "ahead_of_clock",
]


@dataclass(frozen=True)
class Recurrence:
    """How often one fingerprint's violation came back."""

    fingerprint: str
    path: str
    unit: Optional[str]
    rule_key: str
    role: str
    occurrences: int
    days: tuple[str, ...]
    first_seen: Optional[str]
    last_seen: Optional[str]
    last_actual: Optional[float]
    last_limit: Optional[float]
    last_line: int
    count_mode: str
    #: (time, version or run id) of each occurrence counted, oldest first
    times: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    #: whether an occurrence lies after the adoption point (or in the run): a hotspot that is not
    #: ``triggered`` is known from history and fails on its next edit that leaves it over the limit
    triggered: bool = True

    @property
    def distinct_days(self) -> int:
        return len(self.days)

    @property
    def last_occurrence(self) -> Optional[str]:
        return self.times[-1][0] if self.times else None

    def is_hotspot(self, settings: Settings) -> bool:
        """Chronic: enough occurrences on enough days (whether it fails the run is ``triggered``)."""
        rec = settings.recurrence
        return self.occurrences >= rec.hotspot_min_count and self.distinct_days >= rec.hotspot_min_days

    def describe(self) -> str:
        """``3 versions over the limit on 2 days`` / ``red in 3 runs on 2 days``: each number as counted."""
        days = f"{self.distinct_days} day{'s' if self.distinct_days != 1 else ''}"
        if self.count_mode == "edits":
            return f"{self.occurrences} version{'s' if self.occurrences != 1 else ''} over the limit on {days}"
        return f"red in {self.occurrences} run{'s' if self.occurrences != 1 else ''} on {days}"


@dataclass(frozen=True)
class Pattern:
    """One rule's violations coming back across many files of one role or area.

    ``recurrences`` counts the feedback given *again*: per fingerprint, its occurrences
    after the first (edits that kept the violation, or later runs under ``count =
    "runs"``); a first sighting is not recurrence. ``occurrences`` includes the first.
    """

    rule_key: str
    kind: str  # "role" or "area"
    group: str
    occurrences: int
    files: int
    fingerprints: int
    recurrences: int = 0
    count_mode: str = "edits"
    members: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def describe(self) -> str:
        """``came back in 7 edits across 3 files`` / ``violated again in 7 later runs across 3 files``."""
        files = f"{self.files} file{'s' if self.files != 1 else ''}"
        if self.count_mode == "edits":
            return f"came back in {self.recurrences} edit{'s' if self.recurrences != 1 else ''} across {files}"
        return f"violated again in {self.recurrences} later run{'s' if self.recurrences != 1 else ''} across {files}"

    def to_json(self) -> dict[str, object]:
        return {"rule_key": self.rule_key, "kind": self.kind, "group": self.group, "occurrences": self.occurrences,
                "recurrences": self.recurrences, "files": self.files, "fingerprints": self.fingerprints}


def cutoff(settings: Settings, now: datetime) -> str:
    """The oldest timestamp still inside retention."""
    return format_timestamp(now - timedelta(days=settings.history.retention_days))


def area_of(path: str) -> str:
    """The first two directory components (``src/parser`` for ``src/parser/x.py``)."""
    parts = path.split("/")[:-1]
    return "/".join(parts[:2]) or "."


def _hash_form(version: str) -> str:
    """``2`` for ``2:<hash>``; versions written before hash forms were named are form ``1``."""
    return version.split(":", 1)[0] if ":" in version else "1"


@dataclass(frozen=True)
class GitVersions:
    """What git says of a fingerprint's versions: those it holds (``kept``: retention does not cut them) and
    those a mechanical commit left (``baseline``: no occurrence, but what the next edit is compared with)."""

    kept: frozenset[str] = frozenset()
    baseline: frozenset[str] = frozenset()


def occurrence_times(stats: FingerprintStats, count_mode: str,
                     baseline: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(time, version) of each occurrence: a counted version's first red sighting; or (time, run id) of a run's.

    A version counts when it is the first, or when it has the hash form of the version before it and a value no
    better: an edit that brought the value nearer its limit is work on the feedback, a version of another
    hash form an upgrade of ladder-plugins, neither the feedback coming back. A version in ``baseline`` (left
    by a mechanical commit) is never an occurrence, but the next version is compared with it.
    """
    if count_mode != "edits":
        return [(when, run) for run, when in stats.runs.items()]
    from ..plugins import is_minimum

    minimum = is_minimum(stats.rule_key)
    times: list[tuple[str, str]] = []
    previous: Optional[tuple[str, Optional[float]]] = None  # the version before, and its value
    for version, (early, _, value) in sorted(stats.hashes.items(), key=lambda item: (item[1][0], item[0])):
        if previous is None:
            counts = True
        else:
            was = previous[1]
            better = value is not None and was is not None and worse_than(was, value, minimum=minimum)
            counts = _hash_form(version) == _hash_form(previous[0]) and not better
        if counts and version not in baseline:
            times.append((early, version))
        previous = (version, value)
    return times


def recurrence_of(fp: str, stats: FingerprintStats, settings: Settings, now: datetime,
                  git: GitVersions = GitVersions()) -> Recurrence:
    """The recurrence of one fingerprint; the log's occurrences older than retention do not count, git's do."""
    mode = settings.recurrence.count
    oldest, ahead = cutoff(settings, now), horizon(now)
    times = sorted((t, v) for t, v in occurrence_times(stats, mode, git.baseline)
                   if (oldest <= t or v in git.kept) and t <= ahead)
    last_seen: Optional[str] = stats.last_seen
    if last_seen is not None and last_seen > ahead:  # a sighting after the clock's horizon: the last occurrence
        last_seen = times[-1][0] if times else None
    return Recurrence(
        fp, stats.path, stats.unit, stats.rule_key, stats.role, len(times), tuple(sorted({t[:10] for t, _ in times})),
        times[0][0] if times else None, last_seen, stats.last_actual, stats.last_limit, stats.last_line, mode,
        tuple(times),
    )


def ahead_of_clock(aggregate: Aggregate, now: datetime) -> Optional[str]:
    """What to say once when the history holds records dated after ``now`` (beyond the skew): they were
    written by a clock that was ahead, or this one is behind; they are kept, and counted once their
    time has come."""
    if aggregate.newest is None or aggregate.newest <= horizon(now):
        return None
    return (f"the history holds records dated up to {aggregate.newest}, after this run's clock "
            f"({format_timestamp(now)}): they are not counted until then; is a machine's clock wrong?")


def recurrences(aggregate: Aggregate, settings: Settings, now: datetime) -> list[Recurrence]:
    found = [recurrence_of(fp, s, settings, now) for fp, s in aggregate.fingerprints.items()]
    return sorted((r for r in found if r.occurrences), key=lambda r: (-r.occurrences, -r.distinct_days, r.fingerprint))


def hotspots(aggregate: Aggregate, settings: Settings, now: datetime) -> list[Recurrence]:
    """Fingerprints over the hotspot threshold, most recurring first."""
    return [r for r in recurrences(aggregate, settings, now) if r.is_hotspot(settings)]


def _groups(recs: Iterable[Recurrence]) -> dict[tuple[str, str, str], list[Recurrence]]:
    """Recurring fingerprints (more than one occurrence) by (rule key, "role" or "area", name)."""
    groups: dict[tuple[str, str, str], list[Recurrence]] = {}
    for rec in recs:
        if rec.occurrences > 1:
            groups.setdefault((rec.rule_key, "role", rec.role), []).append(rec)
            groups.setdefault((rec.rule_key, "area", area_of(rec.path)), []).append(rec)
    return groups


def _pattern(key: tuple[str, str, str], members: list[Recurrence], settings: Settings) -> Optional[Pattern]:
    again = sum(r.occurrences - 1 for r in members)
    files = len({r.path for r in members})
    rec = settings.recurrence
    if again < rec.pattern_min_count or files < rec.pattern_min_files:
        return None
    return Pattern(*key, sum(r.occurrences for r in members), files, len(members), again, rec.count,
                   frozenset(r.fingerprint for r in members))


def patterns(aggregate: Aggregate, settings: Settings, now: datetime) -> list[Pattern]:
    """Rule keys whose violations came back across many files of one role or one area."""
    return patterns_of(recurrences(aggregate, settings, now), settings)


def patterns_of(recs: Iterable[Recurrence], settings: Settings) -> list[Pattern]:
    """:func:`patterns` of recurrences already worked out."""
    groups = _groups(recs)
    found = [p for p in (_pattern(key, members, settings) for key, members in groups.items()) if p]
    return sorted(found, key=lambda p: (-p.recurrences, p.rule_key, p.kind, p.group))


def trend(aggregate: Aggregate, settings: Settings, now: datetime) -> list[tuple[str, dict[str, int]]]:
    """Per UTC day inside retention: the fingerprints the day's last run saw red and yellow, and the
    occurrences of that day (days folded before these counts existed show occurrences only)."""
    first_day, last_day = cutoff(settings, now)[:10], horizon(now)[:10]
    days: dict[str, dict[str, int]] = {
        day: dict(zip(("red", "yellow"), counts.last())) for day, counts in aggregate.days.items()
        if first_day <= day <= last_day and counts.runs
    }
    for day in _occurrence_days(aggregate, settings.recurrence.count):
        if first_day <= day <= last_day:
            counts = days.setdefault(day, {})
            counts["occurrences"] = counts.get("occurrences", 0) + 1
    return sorted(days.items())


def _occurrence_days(aggregate: Aggregate, count_mode: str) -> Iterator[str]:
    for stats in aggregate.fingerprints.values():
        yield from (t[:10] for t, _ in occurrence_times(stats, count_mode))
