"""The reducer behind summaries, folding and rebuilds.

Recurrence needs, per fingerprint, the versions it was seen with (each with the
earliest and latest time it was red, and the value measured when it was first red)
and, with ``count = "runs"``, the runs it was red in; reports need per-day counts.
Those are sets, minima and maxima (a value goes with its earliest time), so adding
events in any order, twice, or from combined logs gives the same aggregate:
recurrence cannot depend on append or combine order. The same structure is the summary cache
(``summaries.json``) and the fold of pruned events (``folded.json``). Adding an event
is merging the stats of that one event, so there is one merge rule.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional

from .events import SCHEMA_VERSION, Event, Record, Sighting, identifier, is_rule_key
from .events import canonical_timestamp as _time  # a stored time, in its one form

__all__ = ["FingerprintStats", "Aggregate", "DayCounts", "AGGREGATE_FORMAT"]

#: The layout of an aggregate's JSON; a summary cache of another layout is rebuilt from the log.
AGGREGATE_FORMAT = 2


def _optional_text(value: object) -> Optional[str]:
    return value if isinstance(value, str) else None


#: Bounds of the values a summary or fold may hold: what a real history can reach, far below what
#: breaks arithmetic or formatting (a 400-digit number, a year 9999 with a negative offset).
_MAX_NUMBER = 1e15
_MAX_COUNT = 10**15
_MAX_LINE = 10**9


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -_MAX_NUMBER <= value <= _MAX_NUMBER:
        raise ValueError(f"not a measured value: {str(value)[:40]!r}")
    return float(value)


def _optional_number(value: object) -> Optional[float]:
    return None if value is None else _number(value)


def _int(value: object, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ValueError(f"not a count or line: {str(value)[:40]!r}")
    return value


def _line(value: object) -> int:
    return _int(value, _MAX_LINE)


def _events(value: object) -> int:
    return _int(value, _MAX_COUNT)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("not a string")
    return value


def _rule_key(value: object) -> str:
    if not is_rule_key(value):
        raise ValueError("not a rule key")
    return value


def _role(value: object) -> str:
    from ..catalogue import ROLES

    if not isinstance(value, str) or value not in ROLES:
        raise ValueError("not a known role")
    return value


def _span(span: Any) -> list[Any]:
    """[earliest, latest, value at the earliest]; a span written before values were kept has two items."""
    if not isinstance(span, list) or len(span) not in (2, 3):
        raise ValueError("a version span is not [earliest, latest, value]")
    return [_time(span[0]), _time(span[1]), _optional_number(span[2]) if len(span) == 3 else None]


def _hashes(value: Any) -> dict[str, list[Any]]:
    return {_text(h): _span(span) for h, span in dict(value).items()}


def _optional_time(value: object) -> Optional[str]:
    return None if value is None else _time(value)


def _merge_span(span: list[Any], other: list[Any]) -> None:
    """Earliest and latest time; the value of the earliest sighting (the larger one on a tie)."""
    early, late, value = other
    if early < span[0] or (early == span[0] and _larger(value, span[2])):
        span[2] = value
    span[0], span[1] = min(span[0], early), max(span[1], late)


def _larger(value: Optional[float], than: Optional[float]) -> bool:
    return value is not None and (than is None or value > than)


def _runs(value: Any) -> dict[str, str]:
    return {identifier(run, "run id"): _time(when) for run, when in dict(value).items()}


def _observation(value: object) -> list[Any]:
    """[version, severity, actual, limit, line]."""
    if not isinstance(value, list) or len(value) != 5 or value[1] not in ("red", "yellow"):
        raise ValueError("an observation is not [version, severity, actual, limit, line]")
    return [_text(value[0]), value[1], _optional_number(value[2]), _optional_number(value[3]), _line(value[4])]


def _observations(value: Any) -> dict[str, list[Any]]:
    return {_text(key): _observation(o) for key, o in dict(value).items()}


#: How each field of a fingerprint's stats is read: every one checked for type, range and shape, as
#: the fields of an event are (a summary or fold may come from elsewhere, like a combined log).
_DECODE: Mapping[str, Callable[[Any], Any]] = {
    "path": _text, "unit": _optional_text, "rule_key": _rule_key, "role": _role, "family": _text,
    "first_seen": _time, "last_seen": _time, "last_actual": _optional_number, "last_limit": _optional_number,
    "last_line": _line, "events": _events, "hashes": _hashes, "runs": _runs, "observations": _observations,
}


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
    #: version (see ``Event.version``) -> [earliest, latest timestamp, value at the earliest]
    #: of its red events
    hashes: dict[str, list[Any]] = field(default_factory=dict)
    #: run_id -> earliest timestamp of a red event in that run (count = "runs" only)
    runs: dict[str, str] = field(default_factory=dict)
    #: observation key -> [version, severity, actual, limit, line]: what a sighting refers to
    observations: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def of_event(cls, event: Event, track_runs: bool) -> "FingerprintStats":
        # Interned: a run's events share their timestamp, a unit's its path; a large history holds each once.
        ts, path, unit = sys.intern(event.timestamp), sys.intern(event.path), event.unit_name
        stats = cls(path, sys.intern(unit) if unit else unit, sys.intern(event.rule_key), sys.intern(event.role),
                    sys.intern(event.metric_family), ts, ts, event.actual, event.limit, event.line, 1)
        if event.severity == "red":
            stats.hashes[event.version] = [ts, ts, event.actual]
            if track_runs:
                stats.runs[event.run_id] = ts
        if event.severity in ("red", "yellow"):
            stats.observations[event.observation] = [event.version, event.severity, event.actual, event.limit,
                                                     event.line]
        return stats

    def sighted(self, key: str, ts: str, run_id: str, track_runs: bool) -> None:
        """The observation ``key`` seen again at ``ts`` by run ``run_id``: as if its event had been recorded again."""
        version, severity, actual, limit, line = self.observations[key]
        self.events += 1
        self._seen_at(ts, actual, limit, line)
        if severity == "red":
            span = self.hashes.setdefault(version, [ts, ts, actual])
            _merge_span(span, [ts, ts, actual])
            if track_runs:
                self.runs[run_id] = min(ts, self.runs.get(run_id, ts))

    def _seen_at(self, ts: str, actual: Optional[float], limit: Optional[float], line: int) -> None:
        if ts >= self.last_seen:
            self.last_seen, self.last_actual, self.last_limit, self.last_line = ts, actual, limit, line
        self.first_seen = min(self.first_seen, ts)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _DECODE}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "FingerprintStats":
        """Decode; ``TypeError``/``ValueError`` when a key is missing or a value is not of its shape."""
        return cls(**{name: decode(data[name]) for name, decode in _DECODE.items() if name in data})

    def copy(self) -> "FingerprintStats":
        return FingerprintStats(
            self.path, self.unit, self.rule_key, self.role, self.family, self.first_seen, self.last_seen,
            self.last_actual, self.last_limit, self.last_line, self.events,
            {h: list(span) for h, span in self.hashes.items()}, dict(self.runs),
            {k: list(o) for k, o in self.observations.items()})

    def merge(self, other: "FingerprintStats") -> None:
        if other.last_seen >= self.last_seen:
            self._take_latest(other)
        self.first_seen = min(self.first_seen, other.first_seen)
        self.events += other.events
        for version, span in other.hashes.items():
            mine = self.hashes.get(version)
            if mine is None:
                self.hashes[version] = list(span)
            else:
                _merge_span(mine, span)
        for run_id, when in other.runs.items():
            self.runs[run_id] = min(when, self.runs.get(run_id, when))
        self.observations = {**other.observations, **self.observations}  # a key always means the same

    def _take_latest(self, other: "FingerprintStats") -> None:
        self.last_seen = other.last_seen
        self.last_actual, self.last_limit, self.last_line = other.last_actual, other.last_limit, other.last_line
        self.path, self.unit, self.role = other.path, other.unit, other.role


@dataclass
class DayCounts:
    """One UTC day's runs (a run is ``run_id/tool``): for each, when it ran and how many
    fingerprints it saw red and yellow.

    The trend shows the day's last run: what the code looked like at the end of the
    day, not how often a tool ran (four runs on unchanged code give the counts of one).
    Every run is kept, so adding events in any order, and a run recorded in several
    appends (flake8 file by file), give the same counts. The flake8 and pytest steps of
    one CI job share a run id and each sees the same violations, hence the tool.
    """

    runs: dict[str, list[Any]] = field(default_factory=dict)  # run -> [latest time, red, yellow]

    def add(self, run: str, at: str, severity: str) -> None:
        entry = self.runs.setdefault(run, [at, 0, 0])
        entry[0] = max(entry[0], at)
        entry[1] += severity == "red"
        entry[2] += severity == "yellow"

    def merge(self, other: "DayCounts") -> None:
        for run, (at, red, yellow) in other.runs.items():
            entry = self.runs.setdefault(run, [at, 0, 0])
            entry[0], entry[1], entry[2] = max(entry[0], at), entry[1] + red, entry[2] + yellow

    def last(self) -> tuple[int, int]:
        """(red, yellow) of the day's last run."""
        run = max(self.runs, key=lambda name: (self.runs[name][0], name))
        return self.runs[run][1], self.runs[run][2]

    def to_json(self) -> dict[str, Any]:
        return {"runs": {run: list(entry) for run, entry in sorted(self.runs.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "DayCounts":
        return cls({_text(run): [_time(e[0]), _count(e[1]), _count(e[2])] for run, e in dict(data["runs"]).items()})


def _count(value: object) -> int:
    return _int(value, _MAX_COUNT)


@dataclass
class Aggregate:
    """Per-fingerprint stats and per-day counts of a set of events."""

    track_runs: bool = False
    fingerprints: dict[str, FingerprintStats] = field(default_factory=dict)
    days: dict[str, DayCounts] = field(default_factory=dict)
    events: int = 0
    oldest: Optional[str] = None
    newest: Optional[str] = None
    #: per-day event counts by severity from folds written before ``DayCounts`` (kept, not shown)
    legacy_days: dict[str, dict[str, int]] = field(default_factory=dict)
    #: sightings of observations no event of this history describes yet: key -> [[time, run id, tool]]; they
    #: count once the event arrives (logs combined in another order), never before
    pending: dict[str, list[list[str]]] = field(default_factory=dict)
    #: entries of the summary or fold this was read from that did not hold to their shape: skipped (not stored)
    untrusted: int = field(default=0, compare=False)
    #: observation key -> fingerprint, derived from the stats (not stored)
    _index: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for fp, stats in self.fingerprints.items():
            self._index.update(dict.fromkeys(stats.observations, fp))

    def knows(self, key: str) -> bool:
        """Whether a sighting of the observation ``key`` could be resolved."""
        return key in self._index

    @property
    def unresolved(self) -> int:
        """Sightings still waiting for the event they refer to (a damaged or hand-made log, if for good)."""
        return sum(len(seen) for seen in self.pending.values())

    def add(self, record: Record) -> None:
        if isinstance(record, Sighting):
            self._add_sighting(record)
            return
        event = record
        self._span(1, event.timestamp, event.timestamp)
        if event.severity in ("red", "yellow"):
            self._day(event.day).add(f"{event.run_id}/{event.tool}", event.timestamp, event.severity)
        self._merge_stats(event.fingerprint, FingerprintStats.of_event(event, self.track_runs))

    def _add_sighting(self, sighting: Sighting) -> None:
        for key in sighting.refs:
            self._sight(key, [sighting.timestamp, sighting.run_id, sighting.tool])

    def _sight(self, key: str, seen: list[str]) -> None:
        fp = self._index.get(key)
        if fp is None:
            self.pending.setdefault(key, []).append(seen)
            return
        ts, run_id, tool = seen
        stats = self.fingerprints[fp]
        stats.sighted(key, ts, run_id, self.track_runs)
        self._span(1, ts, ts)
        self._day(ts[:10]).add(f"{run_id}/{tool}", ts, stats.observations[key][1])

    def _resolve(self, keys: Iterable[str]) -> None:
        """Apply the pending sightings of ``keys`` that an event now describes."""
        for key in [k for k in keys if k in self.pending and k in self._index]:
            for seen in self.pending.pop(key):
                self._sight(key, seen)

    def add_versions(self, events: Iterable[Event]) -> "Aggregate":
        """Past versions read from git: they join their fingerprints' versions, never the event count, the
        per-day run counts or the observations (they were seen by no run)."""
        for e in events:
            stats = FingerprintStats(e.path, e.unit_name, e.rule_key, e.role, e.metric_family, e.timestamp,
                                     e.timestamp, e.actual, e.limit, e.line, 0,
                                     {e.version: [e.timestamp, e.timestamp, e.actual]})
            self._merge_stats(e.fingerprint, stats)
        return self

    def add_all(self, records: Iterable[Record]) -> "Aggregate":
        for record in records:
            self.add(record)
        return self

    def merge(self, other: "Aggregate") -> "Aggregate":
        for fp, stats in other.fingerprints.items():
            self._merge_stats(fp, stats.copy())
        for day, counts in other.days.items():
            self._day(day).merge(counts)
        for day, legacy in other.legacy_days.items():
            _add_counts(self.legacy_days.setdefault(day, {}), legacy)
        self._span(other.events, other.oldest, other.newest)
        self._add_pending(other.pending)
        return self

    def _add_pending(self, pending: Mapping[str, list[list[str]]]) -> None:
        for key, seen in pending.items():
            self.pending.setdefault(key, []).extend(list(s) for s in seen)
        self._resolve(list(self.pending))

    def _merge_stats(self, fp: str, stats: FingerprintStats) -> None:
        self._index.update(dict.fromkeys(stats.observations, fp))
        mine = self.fingerprints.get(fp)
        if mine is None:
            self.fingerprints[fp] = stats
        else:
            mine.merge(stats)
        if self.pending:
            self._resolve(stats.observations)

    def _day(self, day: str) -> DayCounts:
        counts = self.days.get(day)
        if counts is None:
            counts = self.days[day] = DayCounts()
        return counts

    def _span(self, events: int, oldest: Optional[str], newest: Optional[str]) -> None:
        self.events += events
        stamps = [t for t in (self.oldest, self.newest, oldest, newest) if t is not None]
        if stamps:
            self.oldest, self.newest = min(stamps), max(stamps)

    def copy(self) -> "Aggregate":
        return Aggregate(self.track_runs).merge(self)

    def forget_runs_before(self, cutoff: str) -> None:
        """Drop run ids older than ``cutoff``: outside retention they never count again."""
        for stats in self.fingerprints.values():
            stats.runs = {r: t for r, t in stats.runs.items() if t >= cutoff}

    def _head_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION, "format": AGGREGATE_FORMAT, "track_runs": self.track_runs,
            "events": self.events, "oldest": self.oldest, "newest": self.newest,
            "days": {day: counts.to_json() for day, counts in sorted(self.days.items())},
            "legacy_days": self.legacy_days, "pending": self.pending,
        }

    def to_json(self) -> dict[str, Any]:
        fingerprints = {fp: s.to_json() for fp, s in sorted(self.fingerprints.items())}
        return {**self._head_json(), "fingerprints": fingerprints}

    def write_json(self, write: Callable[[str], object]) -> None:
        """``json.dumps(self.to_json())``, compact, written piece by piece: a large history is
        saved without a second copy of itself in memory."""
        head = json.dumps(self._head_json(), separators=(",", ":"))
        write(head[:-1] + ',"fingerprints":{')
        for n, (fp, stats) in enumerate(sorted(self.fingerprints.items())):
            write(("," if n else "") + json.dumps(fp) + ":" + json.dumps(stats.to_json(), separators=(",", ":")))
        write("}}")

    def write_document(self, head: Mapping[str, Any], write: Callable[[str], object]) -> None:
        """``{...head, "aggregate": <this aggregate>}``, written piece by piece like :meth:`write_json`: a
        summary or fold file, whose other keys (schema, generation, where the log was read to) are ``head``."""
        write(json.dumps(head, separators=(",", ":"))[:-1] + ',"aggregate":')
        self.write_json(write)
        write("}")

    def take(self, other: "Aggregate") -> None:
        """Become ``other`` in place, so that whoever holds this object sees it and the old content
        can be freed (pruning replaces a large history without holding two)."""
        self.__dict__.update(other.__dict__)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Aggregate":
        """Rebuild from :meth:`to_json` (or an older layout); ``KeyError``/``TypeError``/``ValueError`` if damaged."""
        days, legacy = _days(data.get("days", {}), data.get("legacy_days", {}))
        fingerprints, untrusted = _fingerprints(data.get("fingerprints", {}))
        return cls(bool(data.get("track_runs", False)), fingerprints, days, _events(data.get("events", 0)),
                   _optional_time(data.get("oldest")), _optional_time(data.get("newest")),
                   legacy_days=legacy, pending=_pending(data.get("pending", {})), untrusted=untrusted)


def _pending(value: Any) -> dict[str, list[list[str]]]:
    found: dict[str, list[list[str]]] = {}
    for key, seen in dict(value).items():
        found[_text(key)] = [[_time(ts), identifier(run, "run id"), _text(tool)] for ts, run, tool in seen]
    return found


def _fingerprints(value: Any) -> tuple[dict[str, FingerprintStats], int]:
    """The entries that hold to their shape, and how many did not (skipped, as an unreadable line is)."""
    found: dict[str, FingerprintStats] = {}
    untrusted = 0
    for fp, stats in dict(value).items():
        try:
            found[_text(fp)] = FingerprintStats.from_json(stats)
        except (LookupError, TypeError, ValueError, ArithmeticError):
            untrusted += 1
    return found, untrusted


def _add_counts(target: dict[str, int], counts: Mapping[str, int]) -> None:
    for severity, n in counts.items():
        target[severity] = target.get(severity, 0) + n


def _legacy(value: Any) -> dict[str, dict[str, int]]:
    return {str(day): {str(k): int(v) for k, v in dict(counts).items()} for day, counts in dict(value).items()}


def _days(value: Any, legacy_value: Any) -> tuple[dict[str, DayCounts], dict[str, dict[str, int]]]:
    """Day counts; entries of the layout before ``DayCounts`` (event counts by severity) go to legacy."""
    days: dict[str, DayCounts] = {}
    legacy = _legacy(legacy_value)
    for day, counts in dict(value).items():
        if isinstance(counts, Mapping) and "runs" in counts:
            days[str(day)] = DayCounts.from_json(counts)
        else:
            legacy.update(_legacy({day: counts}))
    return days, legacy
