"""``ladder check --format text|json|markdown``: the run's violations and gate decision.

The JSON shape is a versioned contract (``"schema": "ladder-check", "version": 1``):
keys are only added within a version. Markdown is for pull-request comments and CI
job summaries; every value from source code is escaped.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..analysis.report import AnalysisResult, FileReport, Violation
from ..analysis.thresholds import RED, YELLOW
from .metrics import skipped_lines
from .sanitize import clean, md_escape

__all__ = ["check_text", "check_json", "check_markdown", "count", "violations_text"]


def _worst(report: FileReport) -> tuple[int, int, str]:
    red = sum(1 for v in report.violations if v.severity == RED)
    return (-red, -len(report.violations), report.path)


def violations_text(result: AnalysisResult) -> list[str]:
    """Violations grouped by file, worst file first, then the skipped files."""
    out = []
    for report in sorted((r for r in result.files if r.violations), key=_worst):
        out.append(clean(report.path))
        out.extend(f"  {v.line:>5}  {v.code}  {v.severity:<6}  {clean(v.message)}" for v in report.violations)
    return out + skipped_lines(result)


def _verdict(result: AnalysisResult, gate: Any, mode: str) -> str:
    skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
    red, yellow = count(result.violations, RED), count(result.violations, YELLOW)
    summary = f"{red} red, {yellow} yellow in {len(result.analysed)} files{skipped} (mode {mode})"
    if not gate.failed:
        return f"passed: {summary}"
    return f"FAILED: {_failure_counts(gate.failures)}; {summary}"


def _failure_counts(failures: Any) -> str:
    """``3 recurring hotspots, 1 new violation``: each reason's failures, in a fixed order."""
    counts = [(_KINDS[reason], sum(f.reason == reason for f in failures)) for reason in _REASONS]
    return ", ".join(f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in counts if n)


_REASONS = ("hotspot", "new", "worse", "strict")
_KINDS = {"hotspot": "recurring hotspot", "new": "new violation", "worse": "worse violation",
          "strict": "red violation"}
_HEADS = {
    "hotspot": "recurring hotspots (refactor the unit, or suppress with a reason: # ladder: ignore[rule] why):",
    "new": "new or worse than at the base (fix them before merging, or suppress with a reason):",
}


def _gate_lines(gate: Any) -> list[str]:
    """The failures that need their evidence said (strict mode's are the red violations above)."""
    lines: list[str] = []
    for head, reasons in (("hotspot", ("hotspot",)), ("new", ("new", "worse"))):
        found = [f for f in gate.failures if f.reason in reasons]
        if found:
            lines.append(_HEADS[head])
            lines += [f"  {clean(f.event.path)}:{f.event.line}  {clean(f.text)}" for f in found]
    return lines


def check_text(result: AnalysisResult, outcome: Any, settings: Any) -> str:
    """``ladder check`` text: violations by file, gate failures with evidence, a verdict."""
    lines = violations_text(result) + _gate_lines(outcome.gate)
    return "\n".join(lines + [_verdict(result, outcome.gate, settings.mode)])


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
        "distinct_days": r.distinct_days, "first_seen": r.first_seen, "last_seen": r.last_seen,
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
        "gate": {"failed": outcome.failed, "failures": [_failure_json(f) for f in outcome.gate.failures]},
        "skipped": [{"path": f.path, "reason": f.skipped} for f in result.skipped],
        "warnings": list(outcome.warnings),
    }
    return json.dumps(payload, indent=2)


def _table(rows: list[list[Any]], head: list[str]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]


def _section(title: str, rows: list[list[Any]], head: list[str]) -> list[str]:
    return [f"### {title}", ""] + _table(rows, head) + [""] if rows else []


def check_markdown(result: AnalysisResult, outcome: Any, settings: Any, run: Any) -> str:
    red, yellow = count(result.violations, "red"), count(result.violations, "yellow")
    verdict = "**FAILED**" if outcome.failed else "**passed**"
    head = f"{verdict}: {red} red, {yellow} yellow in {len(result.analysed)} files (mode {settings.mode})"
    gate = [[f.event.path, f.event.line, f.code, f.message] for f in outcome.gate.failures]
    found = [[v.path, v.line, v.code, v.severity, v.message] for v in result.violations]
    lines = (["## ladder check", "", head, ""]
             + _section("Gate failures", gate, ["file", "line", "code", "why"])
             + _section("Violations", found, ["file", "line", "code", "severity", "message"])
             + _section("Not analysed", [[f.path, f.skipped] for f in result.skipped], ["file", "reason"]))
    return "\n".join(lines).rstrip() + "\n"
