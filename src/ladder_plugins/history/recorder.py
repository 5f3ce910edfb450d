"""One run's feedback loop: violations -> events -> history -> gate.

Every front end ends its run here, so recording and the gate decision are the same
whether flake8, pytest or the CLI found the violations. A failure to record is a
warning in ``RunOutcome.warnings`` and never changes the gate's result.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence

from ..config import Settings
from .events import Event, events_from_violations
from .gate import GateResult, decide
from .run import RunContext
from .store import HistoryStore

__all__ = ["RunOutcome", "record_run", "record_events", "gate_events"]


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
        dataclasses.replace(failure.event, event_id=uuid.uuid4().hex, severity="gate-fail")
        for failure in gate.failures
    ]


def record_events(
    run_events: Sequence[Event],
    settings: Settings,
    run: RunContext,
    *,
    record: bool = True,
    warn: Optional[Callable[[str], None]] = None,
) -> RunOutcome:
    """Record a run's events and decide its gate from history before the run plus the run."""
    store = HistoryStore(settings, warn=warn)
    recorded = 0
    if record:
        with store.transaction() as tx:
            gate = decide(run.mode, run_events, tx.history, settings, run.now)
            recorded = tx.append(list(run_events) + gate_events(gate), now=run.now)
    else:
        gate = decide(run.mode, run_events, store.peek(), settings, run.now)
    return RunOutcome(gate, tuple(run_events), recorded, tuple(store.warnings), str(store.dir))


def record_run(
    violations: Iterable[object],
    settings: Settings,
    run: RunContext,
    *,
    record: bool = True,
    warn: Optional[Callable[[str], None]] = None,
) -> RunOutcome:
    """Turn a run's violations into events, record them and decide the gate."""
    return record_events(events_from_violations(violations, run), settings, run, record=record, warn=warn)
