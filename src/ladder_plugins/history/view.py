"""The read side of the history: what ``summary``, ``brief``, ``recommend`` and the
HTML report show, computed once from the aggregate.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Optional

from ..config import Settings
from .aggregate import Aggregate
from .recurrence import Pattern, Recurrence, area_of, hotspots, patterns, recurrences, trend

__all__ = ["HistoryView", "build_view", "load_view"]


@dataclass(frozen=True)
class HistoryView:
    """Hotspots, patterns, the worst areas and roles, and the per-day trend."""

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

    def to_json(self) -> dict:
        return {
            "schema": "ladder-summary", "version": 1, "now": self.now, "count": self.count_mode,
            "events": self.events, "oldest": self.oldest, "newest": self.newest,
            "hotspots": [_recurrence_json(r) for r in self.hotspots],
            "patterns": [vars(p) for p in self.patterns],
            "areas": [{"area": a, "occurrences": n} for a, n in self.areas],
            "roles": [{"role": r, "occurrences": n} for r, n in self.roles],
            "trend": [{"day": d, **counts} for d, counts in self.trend],
        }


def _recurrence_json(rec: Recurrence) -> dict:
    return {
        "fingerprint": rec.fingerprint, "path": rec.path, "unit": rec.unit, "rule_key": rec.rule_key,
        "role": rec.role, "occurrences": rec.occurrences, "distinct_days": rec.distinct_days,
        "first_seen": rec.first_seen, "last_seen": rec.last_seen, "last_actual": rec.last_actual,
        "last_limit": rec.last_limit,
    }


def build_view(aggregate: Aggregate, settings: Settings, now: datetime) -> HistoryView:
    from .run import format_timestamp

    recs = recurrences(aggregate, settings, now)
    areas, roles = _totals(recs)
    return HistoryView(
        now=format_timestamp(now), count_mode=settings.recurrence.count, events=aggregate.events,
        oldest=aggregate.oldest, newest=aggregate.newest, hotspots=tuple(hotspots(aggregate, settings, now)),
        recurring=tuple(recs), patterns=tuple(patterns(aggregate, settings, now)),
        areas=tuple(areas.most_common()), roles=tuple(roles.most_common()),
        trend=tuple(trend(aggregate, settings, now)),
    )


def _totals(recs: list[Recurrence]) -> tuple[Counter[str], Counter[str]]:
    """Occurrences per area and per role."""
    areas: Counter[str] = Counter()
    roles: Counter[str] = Counter()
    for rec in recs:
        areas[area_of(rec.path)] += rec.occurrences
        roles[rec.role] += rec.occurrences
    return areas, roles


def load_view(settings: Settings, warn=None) -> HistoryView:
    """The view of this project's history now (``LADDER_NOW`` respected); reads only."""
    from .run import now_utc
    from .store import HistoryStore

    return build_view(HistoryStore(settings, warn=warn).peek(), settings, now_utc())
