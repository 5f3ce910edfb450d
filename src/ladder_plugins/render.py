"""Turning analysis results into text and JSON for people and programs.

The JSON of ``ladder metrics`` is a documented contract (README, "ladder metrics
--format json"): keys are only ever added, never renamed.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Optional

from .analysis import AnalysisResult, FileReport, Violation
from .thresholds import RED

__all__ = ["metrics_json", "metrics_text", "violations_text", "clean"]

_UNIT_METRICS = ("cyclomatic", "cognitive", "abc", "function_lines", "params", "nesting", "assertions")
_CONTROL = {c: None for c in range(32) if c not in (9,)}
_CONTROL.update({0x7F: None})
_BIDI = {c: None for c in (0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)}


def clean(text: Optional[str]) -> str:
    """Strip control and bidi characters so a hostile file name cannot rewrite a terminal."""
    if text is None:
        return ""
    return text.translate(_CONTROL).translate(_BIDI)


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def metrics_json(result: AnalysisResult) -> str:
    files = []
    for report in result.analysed:
        units = []
        for unit in report.units:
            metrics = {name: _number(unit.metrics.get(name)) for name in _UNIT_METRICS}
            metrics.update({k: _number(v) for k, v in unit.metrics.items() if k not in metrics})
            units.append({"name": unit.name, "line": unit.line, "metrics": metrics})
        files.append(
            {
                "path": report.path,
                "role": report.role,
                "metrics": {k: _number(v) for k, v in report.metrics.items()},
                "units": units,
            }
        )
    skipped = [{"path": r.path, "reason": r.skipped} for r in result.skipped]
    return json.dumps({"files": files, "skipped": skipped}, indent=2)


def metrics_text(result: AnalysisResult) -> str:
    out = []
    for report in result.analysed:
        out.append(f"{clean(report.path)} ({report.role}, {_number(report.metrics.get('file_lines'))} lines)")
        for unit in report.units:
            m = unit.metrics
            parts = [
                f"cc {m.get('cyclomatic')}",
                f"cog {m.get('cognitive')}",
                f"abc {m.get('abc')}",
                f"lines {m.get('function_lines')}",
                f"params {m.get('params')}",
                f"nest {m.get('nesting')}",
            ]
            if m.get("assertions") is not None:
                parts.append(f"asserts {m.get('assertions')}")
            out.append(f"    {unit.line:>5} {clean(unit.name)}: {', '.join(parts)}")
    for report in result.skipped:
        out.append(f"skipped {clean(report.path)}: {clean(report.skipped)}")
    return "\n".join(out)


def _worst(report: FileReport) -> tuple[int, int, str]:
    red = sum(1 for v in report.violations if v.severity == RED)
    return (-red, -len(report.violations), report.path)


def violations_text(result: AnalysisResult, verdict: str) -> str:
    """Grouped by file, worst file first, then a one-line verdict."""
    out = []
    with_findings = sorted((r for r in result.files if r.violations), key=_worst)
    for report in with_findings:
        out.append(clean(report.path))
        for v in report.violations:
            out.append(f"  {v.line:>5}  {v.code}  {v.severity:<6}  {clean(v.message)}")
    for report in result.skipped:
        out.append(f"skipped {clean(report.path)}: {clean(report.skipped)}")
    out.append(verdict)
    return "\n".join(out)


def check_text(result: AnalysisResult, outcome: Any, settings: Any) -> str:
    """``ladder check`` text: violations by file, gate failures with evidence, a verdict."""
    from .thresholds import YELLOW

    violations = result.violations
    red, yellow = count(violations, RED), count(violations, YELLOW)
    gate = outcome.gate
    files = len(result.analysed)
    skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
    summary = f"{red} red, {yellow} yellow in {files} files{skipped} (mode {settings.mode})"
    if gate.failed:
        kind = "recurring hotspot" if gate.mode == "recurrence" else "red violation"
        n = len(gate.failures)
        verdict = f"FAILED: {n} {kind}{'s' if n != 1 else ''}; {summary}"
    else:
        verdict = f"passed: {summary}"
    text = violations_text(result, "")
    lines = [text.rstrip("\n")] if text.strip() else []
    if gate.failed and gate.mode == "recurrence":
        lines.append("recurring hotspots (refactor the unit, or suppress with a reason: "
                     "# ladder: ignore[rule] why):")
        for failure in gate.failures:
            e = failure.event
            lines.append(f"  {clean(e.path)}:{e.line}  {clean(failure.text)}")
    lines.append(verdict)
    return "\n".join(lines)


def count(violations: Iterable[Violation], sev: str) -> int:
    return sum(1 for v in violations if v.severity == sev)
