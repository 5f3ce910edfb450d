"""The gate: does this run fail? (DESIGN §7)

Decided from the history *before* the run plus the run's own events, so the result
does not depend on how workers were scheduled or in which order they recorded.
``advisory`` never fails; ``recurrence`` fails on red violations whose fingerprint,
counted with this run, is a hotspot; ``new`` also fails on every red violation that
the base did not have, or had with a better value; ``strict`` fails on every red
violation. With ``evidence`` (see :mod:`.evidence`), occurrences from git join the
history's, and ``new`` knows its base.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Optional, Sequence

from ..catalogue import GATE, NEW_CODE, lookup
from ..config import Settings
from .aggregate import Aggregate
from .events import Event
from .recurrence import Recurrence, recurrence_of, rule_kind

__all__ = ["Gate", "GateFailure", "GateResult", "decide"]


@dataclass(frozen=True)
class GateFailure:
    """One reason the run fails, with the evidence a person needs to act."""

    event: Event
    recurrence: Recurrence
    reason: str  # "hotspot", "new", "worse" or "strict"
    base: Optional[str] = None  # the base commit (mode new)
    base_actual: Optional[float] = None  # the value at the base ("worse")

    @property
    def code(self) -> str:
        """LAD900 for a recurring hotspot, LAD901 for a new or worse one; the rule's own code in strict mode."""
        if self.reason == "hotspot":
            return GATE.code
        if self.reason in ("new", "worse"):
            return NEW_CODE.code
        rule = lookup(self.event.rule_key)
        return rule.code if rule is not None else self.event.rule_key

    @property
    def rule_key(self) -> str:
        """The key of what failed: the gate's own rule, or the violated rule in strict mode."""
        if self.reason == "hotspot":
            return GATE.key
        return NEW_CODE.key if self.reason in ("new", "worse") else self.event.rule_key

    @property
    def violation(self) -> str:
        """``cognitive complexity of 'f' is 30 (> 15)``; ``(< 1)`` for a minimum rule."""
        e = self.event
        rule = lookup(e.rule_key) or _plugin_rule(e.rule_key)
        if rule is not None and e.actual is not None:
            return rule.message(e.unit_name, e.actual, e.limit)
        unit = f"'{e.unit_name}'" if e.unit_name else "the file"
        return f"{e.rule_key} of {unit} is {_num(e.actual)} (limit {_num(e.limit)})"

    @property
    def message(self) -> str:
        r, base = self.recurrence, (self.base or "")[:12]
        if self.reason == "strict":
            return f"{self.violation} (strict mode)"
        if self.reason == "new":
            return f"{NEW_CODE.what}: {self.violation}, not violated at the base {base}"
        if self.reason == "worse":
            return f"worse violation: {self.violation}, was {_num(self.base_actual)} at the base {base}"
        return (f"{GATE.what}: {self.violation}, {r.describe()} (first seen {_day(r.first_seen)}, "
                f"last seen {_day(r.last_seen)})")

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


def _plugin_rule(key: str) -> Any:
    from ..plugins import known_rules

    return next((rule for rule in known_rules() if rule.key == key), None)


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


def _new_code(event: Event, rec: Recurrence, base: Any) -> Optional[GateFailure]:
    """A failure when the base did not have this violation, or had it with a better value."""
    if event.fingerprint not in base.values:
        return GateFailure(event, rec, "new", base.commit)
    was = base.values[event.fingerprint]
    now = event.actual
    worse = was is not None and now is not None and (now < was if rule_kind(event.rule_key) == "min" else now > was)
    return GateFailure(event, rec, "worse", base.commit, was) if worse else None


def _failure(mode: str, event: Event, rec: Recurrence, settings: Settings, base: Any) -> Optional[GateFailure]:
    if mode == "strict":
        return GateFailure(event, rec, "strict")
    if mode in ("recurrence", "new") and rec.is_hotspot(settings):
        return GateFailure(event, rec, "hotspot")
    if mode == "new" and base is not None:
        return _new_code(event, rec, base)
    return None


@dataclass(frozen=True)
class Gate:
    """The gate of one run: its mode, settings and clock."""

    mode: str
    settings: Settings
    now: datetime

    def decide(self, run_events: Sequence[Event], history: Aggregate, evidence: Any = None) -> GateResult:
        """The decision for a run whose events are ``run_events``, given the history before it.

        ``evidence`` (a :class:`~.evidence.GitEvidence`) adds occurrences from git and the
        base of mode ``new``; with ``recurrence.source = "git"`` the stored history is not read.
        """
        red = _red_by_fingerprint(run_events)
        prior, base = self._evidence(run_events, evidence) if red else ({}, None)
        recs = self._counted(history, red, prior)
        failures = [_failure(self.mode, events[0], rec, self.settings, base) for events, rec in zip(red.values(), recs)]
        return GateResult(self.mode, tuple(f for f in failures if f is not None), tuple(recs))

    def _counted(self, history: Aggregate, red: Mapping[str, list[Event]],
                 prior: Mapping[str, list[Event]]) -> list[Recurrence]:
        """Each red fingerprint's recurrence: the history (unless git alone is asked for), git's, the run's."""
        if self.settings.recurrence.source == "git":
            history = Aggregate(self.settings.recurrence.count == "runs")
        return [self._with_run(history, fp, prior.get(fp, ()), events) for fp, events in red.items()]

    def _with_run(self, history: Aggregate, fp: str, prior: Sequence[Event], events: Sequence[Event]) -> Recurrence:
        """The fingerprint's recurrence: the history before the run, git's past versions (``prior``: never
        runs), and the run's ``events``."""
        combined = Aggregate(self.settings.recurrence.count == "runs")
        if fp in history.fingerprints:
            combined.fingerprints[fp] = history.fingerprints[fp].copy()
        combined.add_versions(prior)
        combined.add_all(events)
        return recurrence_of(fp, combined.fingerprints[fp], self.settings, self.now)

    def _evidence(self, run_events: Sequence[Event], evidence: Any) -> tuple[dict[str, list[Event]], Any]:
        """Git's past versions by fingerprint, and the base (mode new only)."""
        prior: dict[str, list[Event]] = {}
        if evidence is None:
            return prior, None
        for event in evidence.prior(run_events):
            prior.setdefault(event.fingerprint, []).append(event)
        return prior, evidence.baseline(run_events) if self.mode == "new" else None


def decide(
    mode: str, run_events: Sequence[Event], history: Aggregate, settings: Settings, now: datetime
) -> GateResult:
    """The gate's decision for ``run_events`` from the stored history alone (see :meth:`Gate.decide`)."""
    return Gate(mode, settings, now).decide(run_events, history)
