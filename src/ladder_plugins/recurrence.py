"""Recurrence: occurrences, hotspots, patterns and the per-day trend (DESIGN §7).

An *occurrence* is the feedback "this unit violates this rule" given again. With
``count = "edits"`` (default) it is the first red sighting of a fingerprint with a
unit hash not seen for it before: the first sighting, then every edited version that
still violates. With ``count = "runs"`` it is every run id in which the fingerprint
was red. Only occurrences inside the retention window count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable, Optional

from .aggregate import Aggregate, FingerprintStats
from .config import Settings
from .runinfo import format_timestamp

__all__ = [
    "Recurrence", "Pattern", "cutoff", "recurrence_of", "recurrences", "hotspots", "patterns", "trend", "area_of",
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

    @property
    def distinct_days(self) -> int:
        return len(self.days)

    def is_hotspot(self, settings: Settings) -> bool:
        rec = settings.recurrence
        return self.occurrences >= rec.hotspot_min_count and self.distinct_days >= rec.hotspot_min_days

    def describe(self) -> str:
        """``survived 2 edits over 2 days`` / ``violated in 3 runs over 2 days``."""
        days = f"{self.distinct_days} day{'s' if self.distinct_days != 1 else ''}"
        if self.count_mode == "edits":
            edits = self.occurrences - 1
            return f"survived {edits} edit{'s' if edits != 1 else ''} over {days}"
        return f"violated in {self.occurrences} runs over {days}"


@dataclass(frozen=True)
class Pattern:
    """One rule broken again and again across many files of one role or area."""

    rule_key: str
    kind: str  # "role" or "area"
    group: str
    occurrences: int
    files: int
    fingerprints: int


def cutoff(settings: Settings, now: datetime) -> str:
    """The oldest timestamp still inside retention."""
    return format_timestamp(now - timedelta(days=settings.history.retention_days))


def area_of(path: str) -> str:
    """The first two directory components (``src/parser`` for ``src/parser/x.py``)."""
    parts = path.split("/")[:-1]
    return "/".join(parts[:2]) or "."


def recurrence_of(fp: str, stats: FingerprintStats, settings: Settings, now: datetime) -> Recurrence:
    mode = settings.recurrence.count
    limit = cutoff(settings, now)
    if mode == "edits":
        times = sorted(span[0] for span in stats.hashes.values() if span[0] >= limit)
    else:
        times = sorted(t for t in stats.runs.values() if t >= limit)
    return Recurrence(
        fingerprint=fp,
        path=stats.path,
        unit=stats.unit,
        rule_key=stats.rule_key,
        role=stats.role,
        occurrences=len(times),
        days=tuple(sorted({t[:10] for t in times})),
        first_seen=times[0] if times else None,
        last_seen=stats.last_seen,
        last_actual=stats.last_actual,
        last_limit=stats.last_limit,
        last_line=stats.last_line,
        count_mode=mode,
    )


def recurrences(aggregate: Aggregate, settings: Settings, now: datetime) -> list[Recurrence]:
    found = [recurrence_of(fp, s, settings, now) for fp, s in aggregate.fingerprints.items()]
    return sorted((r for r in found if r.occurrences), key=lambda r: (-r.occurrences, -r.distinct_days, r.fingerprint))


def hotspots(aggregate: Aggregate, settings: Settings, now: datetime) -> list[Recurrence]:
    """Fingerprints over the hotspot threshold, most recurring first."""
    return [r for r in recurrences(aggregate, settings, now) if r.is_hotspot(settings)]


def patterns(aggregate: Aggregate, settings: Settings, now: datetime) -> list[Pattern]:
    """Rule keys recurring across many files of one role or one area."""
    groups: dict[tuple[str, str, str], list[Recurrence]] = {}
    for rec in recurrences(aggregate, settings, now):
        groups.setdefault((rec.rule_key, "role", rec.role), []).append(rec)
        groups.setdefault((rec.rule_key, "area", area_of(rec.path)), []).append(rec)
    found = []
    for (rule_key, kind, group), members in groups.items():
        occurrences = sum(r.occurrences for r in members)
        files = len({r.path for r in members})
        if occurrences >= settings.recurrence.pattern_min_count and files >= settings.recurrence.pattern_min_files:
            found.append(Pattern(rule_key, kind, group, occurrences, files, len(members)))
    return sorted(found, key=lambda p: (-p.occurrences, p.rule_key, p.kind, p.group))


def trend(aggregate: Aggregate, settings: Settings, now: datetime) -> list[tuple[str, dict[str, int]]]:
    """Per UTC day inside retention: event counts by severity plus occurrences."""
    first_day = cutoff(settings, now)[:10]
    days: dict[str, dict[str, int]] = {d: dict(c) for d, c in aggregate.days.items() if d >= first_day}
    for stats in aggregate.fingerprints.values():
        times: Iterable[str] = (
            (span[0] for span in stats.hashes.values())
            if settings.recurrence.count == "edits"
            else stats.runs.values()
        )
        for t in times:
            if t[:10] >= first_day:
                day = days.setdefault(t[:10], {})
                day["occurrences"] = day.get("occurrences", 0) + 1
    return sorted(days.items())
