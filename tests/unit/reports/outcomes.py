"""What the check writers are given, built without running ``ladder check``: an analysis of one red unit and
one skipped file, and a run's outcome whose gate fails on a recurring hotspot (or on nothing)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.analysis.report import AnalysisResult, FileReport
from ladder_plugins.history.gate import GateFailure, GateResult
from ladder_plugins.history.recorder import RunOutcome
from ladder_plugins.history.recurrence import Recurrence

from tests.helpers.history import make_event, project_settings

#: ``f`` breaks cyclomatic (13 > 10, red), parameters (12 > 5, red) and is yellow for cognitive (12 of 15)
RED_UNIT = ("def f(" + ", ".join(f"a{i}" for i in range(12)) + "):\n"
            + "".join(f"    if a{i}:\n        return {i}\n" for i in range(12)) + "    return 0\n")

RUN = SimpleNamespace(run_id="run-1")


def analysed(root, path: str = "src/m.py") -> tuple:
    """The settings of ``root`` and the result of ``RED_UNIT`` at ``path`` plus a skipped ``src/bad.py``."""
    settings = project_settings(root)
    report = analyze_source(RED_UNIT, path, settings)
    skipped = FileReport(path="src/bad.py", role="app", skipped="syntax error at line 3")
    return settings, AnalysisResult(files=(report, skipped))


def hotspot(fingerprint: str = "src/m.py::f::cyclomatic_max", reason: str = "hotspot") -> GateFailure:
    """A gate failure of ``fingerprint`` (red 13 > 10 at line 2) that recurred in 3 runs on 2 days."""
    event = replace(make_event(fingerprint, actual=13.0), limit=10.0, delta=3.0, line=2)
    path, unit, key = fingerprint.split("::")
    rec = Recurrence(fingerprint=fingerprint, path=path, unit=unit, rule_key=key, role="app", occurrences=3,
                     days=("2026-11-01", "2026-11-02"), first_seen="2026-11-01T09:00:00Z",
                     last_seen="2026-11-02T09:00:00Z", last_actual=13.0, last_limit=10.0, last_line=1,
                     count_mode="runs", times=(("2026-11-01T09:00:00Z", "r1"), ("2026-11-02T09:00:00Z", "r3")))
    return GateFailure(event, rec, reason)


def outcome(*failures: GateFailure, known: tuple = (), warnings: tuple = ()) -> RunOutcome:
    gate = GateResult(mode="recurrence", failures=failures, recurrences=(), note="3 runs in the log", known=known)
    return RunOutcome(gate=gate, events=(), recorded=0, warnings=warnings, history_dir=".ladder/history")
