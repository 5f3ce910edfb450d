"""The ``ladder`` section of a test session's terminal summary.

What a person needs after ``pytest --ladder``: the violations per rule, the recurring
hotspots and patterns, where the history lives and the run id to find this run in it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ..catalogue import lookup
from ..plugins import shown_rule_key
from .sanitize import clean

__all__ = ["gate_line", "gate_lines", "session_summary"]


def _per_rule(events: list[Any]) -> list[str]:
    counts = Counter((e.rule_key, e.severity) for e in events)
    keys = sorted({key for key, _ in counts}, key=lambda k: (rule.code if (rule := lookup(k)) else k))
    lines = []
    for key in keys:
        rule = lookup(key)
        name = f"{rule.code} {key}" if rule else key
        lines.append(f"  {name}: {counts[(key, 'red')]} red, {counts[(key, 'yellow')]} yellow")
    return lines or ["  none"]


def gate_line(failure: Any) -> str:
    """``src/shop/pricing.py:4: LAD900 ...``: a gate failure where an editor and ``ladder check`` put it (a
    file rule's event has its own line; one without a line is at 1)."""
    event = failure.event
    return f"{clean(event.path)}:{event.line or 1}: {clean(failure.text)}"


def gate_lines(failures: Sequence[Any]) -> list[str]:
    """One line per unit (or file) the gate fails on as a recurring hotspot, naming every rule it breaks, and
    one per other failure: a unit breaking three rules is one LAD900 entry, not three."""
    from ..history.gate import by_unit, hotspot_message

    lines = []
    for group in by_unit(failures):
        hot = [f for f in group if f.reason == "hotspot"]
        if hot:
            event = hot[0].event
            lines.append(f"{clean(event.path)}:{event.line or 1}: {hot[0].code} {clean(hotspot_message(hot))}")
        lines += [gate_line(f) for f in group if f.reason != "hotspot"]
    return lines


def _hotspot_lines(state: Any) -> list[str]:
    """This run's recurring hotspots, one LAD900 line per unit, each at the run's first sighting of it."""
    from ..history.gate import hotspot_failures

    found = hotspot_failures(state.events, state.outcome.gate.recurrences, state.settings)
    return [f"  {line}" for line in gate_lines(found)] or ["  none"]


def _pattern_lines(state: Any) -> list[str]:
    from ..history.recurrence import patterns
    from ..history.store import HistoryStore

    found = patterns(HistoryStore(state.settings).peek(), state.settings, state.run.now)
    lines = [f"  {shown_rule_key(p.rule_key)} in {p.kind} {clean(p.group)}: {p.describe()}" for p in found[:5]]
    return lines or ["  none"]


def session_summary(state: Any) -> list[str]:
    """Lines of the terminal summary section (the header is the caller's)."""
    outcome = state.outcome
    lines = [f"mode {state.settings.mode}, run {clean(state.run.run_id)}, "  # LADDER_RUN_ID is the environment's
             f"{outcome.recorded} events recorded in {clean(outcome.history_dir)}"]
    if outcome.gate.note:
        lines.append(f"history read: {clean(outcome.gate.note)}")
    lines += ["violations per rule:"] + _per_rule(state.events)
    lines += ["recurring hotspots of this run:"] + _hotspot_lines(state)
    lines += ["patterns in the history:"] + _pattern_lines(state)
    lines += [f"not analysed: {clean(path)}: {clean(reason)}" for path, reason in state.skipped]
    lines += [f"warning: {clean(w)}" for w in state.warn.said]  # the store's warnings are among them
    lines += [f"warning: xdist worker {w} ended without handing over its ladder events" for w in state.lost_workers]
    return lines
