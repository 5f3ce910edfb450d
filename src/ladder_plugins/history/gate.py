"""The gate: does this run fail? (DESIGN §7)

Decided from the history *before* the run plus the run's own events, so the result
does not depend on how workers were scheduled or in which order they recorded.
``advisory`` never fails; ``recurrence`` fails on red violations whose fingerprint,
counted with this run, is a hotspot; ``strict`` fails on every red violation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Optional, Sequence

from ..catalogue import GATE, lookup
from ..config import Settings
from .aggregate import Aggregate
from .events import Event
from .recurrence import Recurrence, recurrence_of

__all__ = ["GateFailure", "GateResult", "decide"]


@dataclass(frozen=True)
class GateFailure:
    """One reason the run fails, with the evidence a person needs to act."""

    event: Event
    recurrence: Recurrence
    reason: str  # "hotspot" or "strict"

    @property
    def code(self) -> str:
        """LAD900 for a recurring hotspot; the violated rule's own code in strict mode."""
        rule = lookup(self.event.rule_key)
        return GATE.code if self.reason == "hotspot" or rule is None else rule.code

    @property
    def message(self) -> str:
        e, r = self.event, self.recurrence
        unit = f"'{e.unit_name}'" if e.unit_name else "the file"
        rule = lookup(e.rule_key)
        what = rule.what if rule else e.rule_key
        if self.reason == "strict":
            return f"{what} of {unit} is {_num(e.actual)} (> {_num(e.limit)}) (strict mode)"
        return (
            f"{GATE.what}: {what} of {unit} is {_num(e.actual)} (> {_num(e.limit)}), "
            f"{r.describe()} (first seen {_day(r.first_seen)}, last seen {_day(r.last_seen)})"
        )

    @property
    def text(self) -> str:
        return f"{self.code} {self.message}"


@dataclass(frozen=True)
class GateResult:
    mode: str
    failures: tuple[GateFailure, ...]
    recurrences: tuple[Recurrence, ...]

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    def failure_for(self, fingerprint: str) -> Optional[GateFailure]:
        for failure in self.failures:
            if failure.event.fingerprint == fingerprint:
                return failure
        return None


def _num(value: Optional[float]) -> str:
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _day(ts: Optional[str]) -> str:
    return ts[:10] if ts else "-"


def _red_by_fingerprint(events: Sequence[Event]) -> dict[str, list[Event]]:
    grouped: dict[str, list[Event]] = {}
    for event in events:
        if event.severity == "red":
            grouped.setdefault(event.fingerprint, []).append(event)
    return dict(sorted(grouped.items()))


def _with_run(history: Aggregate, fp: str, events: Sequence[Event], settings: Settings, now: datetime) -> Recurrence:
    """The fingerprint's recurrence counting the history before the run plus the run."""
    combined = Aggregate(settings.recurrence.count == "runs")
    if fp in history.fingerprints:
        combined.fingerprints[fp] = history.fingerprints[fp].copy()
    combined.add_all(events)
    return recurrence_of(fp, combined.fingerprints[fp], settings, now)


def _failure(mode: str, event: Event, rec: Recurrence, settings: Settings) -> Optional[GateFailure]:
    if mode == "strict":
        return GateFailure(event, rec, "strict")
    if mode == "recurrence" and rec.is_hotspot(settings):
        return GateFailure(event, rec, "hotspot")
    return None


def decide(
    mode: str, run_events: Sequence[Event], history: Aggregate, settings: Settings, now: datetime
) -> GateResult:
    """The gate's decision for a run whose red events are ``run_events``."""
    recs = []
    failures = []
    for fp, events in _red_by_fingerprint(run_events).items():
        rec = _with_run(history, fp, events, settings, now)
        recs.append(rec)
        failure = _failure(mode, events[0], rec, settings)
        if failure is not None:
            failures.append(failure)
    return GateResult(mode, tuple(failures), tuple(recs))
