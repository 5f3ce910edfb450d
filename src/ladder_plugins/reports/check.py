"""``ladder check --format json|markdown``: the run's violations and gate decision (text: :mod:`.findings`).

The JSON shape is a versioned contract (``"schema": "ladder-check", "version": 1``):
keys are only added within a version. Markdown is for pull-request comments and CI
job summaries; every value from source code is escaped.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..analysis.report import AnalysisResult, Violation
from ..history.gate import by_unit, hotspot_message
from .findings import verdict
from .sanitize import md_escape

__all__ = ["check_json", "check_markdown", "count"]


def count(violations: Iterable[Violation], sev: str) -> int:
    return sum(1 for v in violations if v.severity == sev)


def _violation_json(v: Violation) -> dict[str, Any]:
    return {
        "code": v.code, "rule": v.rule.key, "severity": v.severity, "line": v.line, "unit": v.unit,
        "actual": v.actual, "limit": v.limit, "message": v.message, "fingerprint": v.fingerprint,
    }


def _failure_json(failure: Any) -> dict[str, Any]:
    e, r = failure.event, failure.recurrence
    return {
        "code": failure.code, "reason": failure.reason, "path": e.path, "line": e.line, "unit": e.unit_name,
        "rule": e.rule_key, "actual": e.actual, "limit": e.limit, "occurrences": r.occurrences,
        "distinct_days": r.distinct_days, "first_seen": r.first_seen, "last_seen": r.last_occurrence,
        "fingerprint": e.fingerprint, "message": failure.message, "base": failure.base,
        "base_actual": failure.base_actual,
    }


def check_json(result: AnalysisResult, outcome: Any, settings: Any, run: Any) -> str:
    files = [{"path": f.path, "role": f.role, "violations": [_violation_json(v) for v in f.violations]}
             for f in result.analysed if f.violations]
    summary = {
        "files": len(result.analysed), "skipped": len(result.skipped), "red": count(result.violations, "red"),
        "yellow": count(result.violations, "yellow"), "gate_failures": len(outcome.gate.failures),
    }
    payload = {
        "schema": "ladder-check", "version": 1, "mode": settings.mode, "run_id": run.run_id,
        "passed": not outcome.failed, "summary": summary, "files": files,
        "gate": {"failed": outcome.failed, "failures": [_failure_json(f) for f in outcome.gate.failures],
                 "known": [_failure_json(f) for f in outcome.gate.known], "history": outcome.gate.note},
        "skipped": [{"path": f.path, "reason": f.skipped} for f in result.skipped],
        "warnings": list(outcome.warnings),
    }
    return json.dumps(payload, indent=2)


def _table(rows: list[list[Any]], head: list[str]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]


def _section(title: str, rows: list[list[Any]], head: list[str]) -> list[str]:
    return [f"### {title}", ""] + _table(rows, head) + [""] if rows else []


def _gate_rows(failures: Any) -> list[list[Any]]:
    """One row per unit the gate fails on as a recurring hotspot (every rule it breaks), then one per other
    failure."""
    hot = by_unit([f for f in failures if f.is_hotspot])
    rows = [[g[0].event.path, g[0].event.line, g[0].code, hotspot_message(g)] for g in hot]
    return rows + [[f.event.path, f.event.line, f.code, f.message] for f in failures if not f.is_hotspot]


def check_markdown(result: AnalysisResult, outcome: Any, settings: Any, run: Any) -> str:
    word, _, rest = verdict(result, outcome.gate, settings.mode).partition(": ")
    head = f"**{word}**: {md_escape(rest)}"
    gate = _gate_rows(outcome.gate.failures)
    found = [[v.path, v.line, v.code, v.severity, v.message] for v in result.violations]
    lines = (["## ladder check", "", head, ""]
             + _section("Gate failures", gate, ["file", "line", "code", "why"])
             + _section("Hotspots known from history (not failing)", _gate_rows(outcome.gate.known),
                        ["file", "line", "code", "why"])
             + _section("Violations", found, ["file", "line", "code", "severity", "message"])
             + _section("Not analysed", [[f.path, f.skipped] for f in result.skipped], ["file", "reason"]))
    return "\n".join(lines).rstrip() + "\n"
