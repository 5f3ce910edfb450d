"""The reducer behind summaries, folding and rebuilds.

Recurrence needs, per fingerprint, the unit hashes it was seen with (each with the
earliest and latest time it was red) and, with ``count = "runs"``, the runs it was red
in; reports need per-day counts. Those are sets and minima, so adding events in any
order, twice, or from combined logs gives the same aggregate: recurrence cannot
depend on append or combine order. The same structure is the summary cache
(``summaries.json``) and the fold of pruned events (``folded.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional

from .events import SCHEMA_VERSION, Event

__all__ = ["FingerprintStats", "Aggregate"]


@dataclass
class FingerprintStats:
    """What the history knows about one fingerprint."""

    path: str
    unit: Optional[str]
    rule_key: str
    role: str
    family: str
    first_seen: str
    last_seen: str
    last_actual: Optional[float] = None
    last_limit: Optional[float] = None
    last_line: int = 0
    events: int = 0
    #: unit_hash -> [earliest, latest] timestamp of a red event with that hash
    hashes: dict[str, list[str]] = field(default_factory=dict)
    #: run_id -> earliest timestamp of a red event in that run (count = "runs" only)
    runs: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path, "unit": self.unit, "rule_key": self.rule_key, "role": self.role,
            "family": self.family, "first_seen": self.first_seen, "last_seen": self.last_seen,
            "last_actual": self.last_actual, "last_limit": self.last_limit, "last_line": self.last_line,
            "events": self.events, "hashes": self.hashes, "runs": self.runs,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "FingerprintStats":
        hashes = {str(h): [str(t[0]), str(t[1])] for h, t in dict(data.get("hashes", {})).items()}
        return cls(
            path=str(data["path"]), unit=data.get("unit"), rule_key=str(data["rule_key"]),
            role=str(data.get("role", "app")), family=str(data.get("family", "")),
            first_seen=str(data["first_seen"]), last_seen=str(data["last_seen"]),
            last_actual=data.get("last_actual"), last_limit=data.get("last_limit"),
            last_line=int(data.get("last_line", 0)), events=int(data.get("events", 0)),
            hashes=hashes, runs={str(k): str(v) for k, v in dict(data.get("runs", {})).items()},
        )

    def merge(self, other: "FingerprintStats") -> None:
        if other.last_seen >= self.last_seen:
            self.last_seen = other.last_seen
            self.last_actual, self.last_limit, self.last_line = other.last_actual, other.last_limit, other.last_line
            self.path, self.unit, self.role = other.path, other.unit, other.role
        self.first_seen = min(self.first_seen, other.first_seen)
        self.events += other.events
        for unit_hash, (early, late) in other.hashes.items():
            _widen(self.hashes, unit_hash, early, late)
        for run_id, when in other.runs.items():
            if run_id not in self.runs or when < self.runs[run_id]:
                self.runs[run_id] = when


def _widen(hashes: dict[str, list[str]], unit_hash: str, early: str, late: str) -> None:
    span = hashes.get(unit_hash)
    if span is None:
        hashes[unit_hash] = [early, late]
    else:
        span[0] = min(span[0], early)
        span[1] = max(span[1], late)


@dataclass
class Aggregate:
    """Per-fingerprint stats and per-day counts of a set of events."""

    track_runs: bool = False
    fingerprints: dict[str, FingerprintStats] = field(default_factory=dict)
    #: day -> severity -> count of events
    days: dict[str, dict[str, int]] = field(default_factory=dict)
    events: int = 0
    oldest: Optional[str] = None
    newest: Optional[str] = None

    def add(self, event: Event) -> None:
        self.events += 1
        ts = event.timestamp
        self.oldest = ts if self.oldest is None or ts < self.oldest else self.oldest
        self.newest = ts if self.newest is None or ts > self.newest else self.newest
        day = self.days.setdefault(event.day, {})
        day[event.severity] = day.get(event.severity, 0) + 1
        stats = self.fingerprints.get(event.fingerprint)
        if stats is None:
            stats = self.fingerprints[event.fingerprint] = FingerprintStats(
                event.path, event.unit_name, event.rule_key, event.role, event.metric_family, ts, ts
            )
        stats.events += 1
        if ts >= stats.last_seen:
            stats.last_seen = ts
            stats.last_actual, stats.last_limit, stats.last_line = event.actual, event.limit, event.line
            stats.path, stats.unit, stats.role = event.path, event.unit_name, event.role
        stats.first_seen = min(stats.first_seen, ts)
        if event.severity == "red":
            _widen(stats.hashes, event.unit_hash, ts, ts)
            if self.track_runs and (event.run_id not in stats.runs or ts < stats.runs[event.run_id]):
                stats.runs[event.run_id] = ts

    def add_all(self, events: Iterable[Event]) -> "Aggregate":
        for event in events:
            self.add(event)
        return self

    def merge(self, other: "Aggregate") -> "Aggregate":
        for fp, stats in other.fingerprints.items():
            mine = self.fingerprints.get(fp)
            if mine is None:
                self.fingerprints[fp] = FingerprintStats.from_json(stats.to_json())
            else:
                mine.merge(stats)
        for day, counts in other.days.items():
            target = self.days.setdefault(day, {})
            for severity, n in counts.items():
                target[severity] = target.get(severity, 0) + n
        self.events += other.events
        for ts in (other.oldest, other.newest):
            if ts is not None:
                self.oldest = ts if self.oldest is None or ts < self.oldest else self.oldest
                self.newest = ts if self.newest is None or ts > self.newest else self.newest
        return self

    def copy(self) -> "Aggregate":
        return Aggregate(self.track_runs).merge(self)

    def forget_runs_before(self, cutoff: str) -> None:
        """Drop run ids older than ``cutoff``: outside retention they never count again."""
        for stats in self.fingerprints.values():
            if stats.runs:
                stats.runs = {r: t for r, t in stats.runs.items() if t >= cutoff}

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "track_runs": self.track_runs,
            "events": self.events,
            "oldest": self.oldest,
            "newest": self.newest,
            "days": self.days,
            "fingerprints": {fp: s.to_json() for fp, s in sorted(self.fingerprints.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Aggregate":
        """Rebuild from :meth:`to_json`; ``KeyError``/``TypeError``/``ValueError`` if damaged."""
        agg = cls(bool(data.get("track_runs", False)))
        agg.events = int(data.get("events", 0))
        agg.oldest = data.get("oldest")
        agg.newest = data.get("newest")
        agg.days = {str(d): {str(k): int(v) for k, v in dict(c).items()} for d, c in dict(data.get("days", {})).items()}
        agg.fingerprints = {
            str(fp): FingerprintStats.from_json(s) for fp, s in dict(data.get("fingerprints", {})).items()
        }
        return agg
