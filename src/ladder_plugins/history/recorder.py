"""One run's feedback loop: violations -> events -> history -> gate.

Every front end ends its run here, so recording and the gate decision are the same
whether flake8, pytest or the CLI found the violations. A failure to record is a
warning in ``RunOutcome.warnings`` and never changes the gate's result.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Sequence

from ..analysis.thresholds import RED
from ..config import Settings
from .aggregate import Aggregate
from .events import Event, events_from_violations
from .gate import Evidence, Gate, GateResult
from .recurrence import ahead_of_clock
from .run import RunContext, new_id
from .store import HistoryStore

if TYPE_CHECKING:
    from .evidence import Baseline, GitFacts

__all__ = ["Recorder", "RunOutcome", "record_events", "gate_events"]


@dataclass(frozen=True)
class RunOutcome:
    """What the run recorded and what the gate decided."""

    gate: GateResult
    events: tuple[Event, ...]
    recorded: int
    warnings: tuple[str, ...]
    history_dir: str

    @property
    def failed(self) -> bool:
        return self.gate.failed


def gate_events(gate: GateResult) -> list[Event]:
    """``gate-fail`` events marking when the gate fired for a fingerprint."""
    return [
        dataclasses.replace(failure.event, event_id=new_id(), severity="gate-fail")
        for failure in gate.failures
    ]


@dataclass(frozen=True)
class Recorder:
    """Records a run's events and decides its gate from the history before the run plus the run
    (plus what ``evidence``, a :class:`~.evidence.GitEvidence`, reads from git)."""

    settings: Settings
    run: RunContext
    warn: Optional[Callable[[str], None]] = None
    evidence: Optional[Evidence] = None
    #: (store, history) a caller already read for a run that records nothing, so it is not read twice
    read: Optional[tuple[HistoryStore, Aggregate]] = None

    def events(self, run_events: Sequence[Event], *, record: bool = True) -> RunOutcome:
        store, history = self.read if self.read is not None and not record else (
            HistoryStore(self.settings, warn=self.warn), None)
        # git is read before the lock is taken: other runs do not wait for it
        evidence = None if self.evidence is None else _Prefetched(self.evidence, run_events)
        result, recorded = self._decide(store, run_events, evidence, record, history)
        return RunOutcome(result, tuple(run_events), recorded, tuple(store.warnings), str(store.dir))

    def _decide(self, store: HistoryStore, run_events: Sequence[Event], evidence: Optional[Evidence],
                record: bool, history: Optional[Aggregate] = None) -> tuple[GateResult, int]:
        """The decision, and how many records were written (under the lock, when recording)."""
        gate = Gate(self.run.mode, self.settings, self.run.now)
        if not record:
            history = store.peek() if history is None else history
            self._clock(store, history)
            return gate.decide(run_events, history, evidence), 0
        with store.transaction() as tx:
            self._clock(store, tx.history)
            result = gate.decide(run_events, tx.history, evidence)
            return result, tx.append(list(run_events) + gate_events(result), now=self.run.now)

    def _clock(self, store: HistoryStore, history: Aggregate) -> None:
        note = ahead_of_clock(history, self.run.now)
        if note is not None:
            store.warn(note)

    def violations(self, violations: Iterable[object], *, record: bool = True) -> RunOutcome:
        """Turn a run's violations into events, record them and decide the gate. A run that records
        nothing builds events only for its red violations, the only ones the gate reads (and so hashes
        no unit that is merely yellow)."""
        if not record:
            violations = [v for v in violations if getattr(v, "severity", None) == RED]
        return self.events(events_from_violations(violations, self.run), record=record)


def record_events(
    run_events: Sequence[Event],
    settings: Settings,
    run: RunContext,
    *,
    record: bool = True,
    warn: Optional[Callable[[str], None]] = None,
) -> RunOutcome:
    """:meth:`Recorder.events` without git."""
    return Recorder(settings, run, warn).events(run_events, record=record)


class _Prefetched:
    """Evidence for one set of events, worked out once."""

    def __init__(self, evidence: Evidence, events: Sequence[Event]) -> None:
        self._prior = evidence.prior(events)
        self._baseline = evidence.baseline(events)
        self._facts = evidence.facts()

    def facts(self) -> GitFacts:
        return self._facts

    def prior(self, events: Sequence[Event]) -> list[Event]:
        return self._prior

    def baseline(self, events: Sequence[Event]) -> Optional[Baseline]:
        return self._baseline
