"""Turning analysis results into text and JSON for people and programs.

The JSON of ``ladder metrics`` is a documented contract (README, "ladder metrics
--format json"): keys are only ever added, never renamed.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Mapping, Optional, Sequence

from .analysis import AnalysisResult, FileReport, Violation
from .thresholds import RED

__all__ = ["metrics_json", "metrics_text", "violations_text", "check_text", "clean", "count"]

_UNIT_METRICS = ("cyclomatic", "cognitive", "abc", "function_lines", "params", "nesting", "assertions")
_CONTROL = {c: None for c in range(32) if c not in (9,)}
_CONTROL.update({0x7F: None})
_BIDI = {c: None for c in (0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)}


_ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")


def clean(text: Optional[str]) -> str:
    """Strip ANSI sequences, control and bidi characters: a hostile name cannot rewrite a terminal."""
    if text is None:
        return ""
    return _ANSI.sub("", text).translate(_CONTROL).translate(_BIDI)


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _metrics_of(values: Mapping[str, Any], order: Sequence[str] = ()) -> dict[str, Any]:
    """Metrics in the documented order first, then any a plugin added."""
    ordered = {name: _number(values.get(name)) for name in order}
    ordered.update({k: _number(v) for k, v in values.items() if k not in ordered})
    return ordered


def _file_json(report: FileReport) -> dict[str, Any]:
    units = [{"name": u.name, "line": u.line, "metrics": _metrics_of(u.metrics, _UNIT_METRICS)} for u in report.units]
    return {"path": report.path, "role": report.role, "metrics": _metrics_of(report.metrics), "units": units}


def metrics_json(result: AnalysisResult) -> str:
    """The ``ladder metrics --format json`` contract (README)."""
    files = [_file_json(report) for report in result.analysed]
    skipped = [{"path": r.path, "reason": r.skipped} for r in result.skipped]
    return json.dumps({"files": files, "skipped": skipped}, indent=2)


_SHORT = (("cyclomatic", "cc"), ("cognitive", "cog"), ("abc", "abc"), ("function_lines", "lines"),
          ("params", "params"), ("nesting", "nest"), ("assertions", "asserts"))


def _unit_line(unit: Any) -> str:
    parts = [f"{short} {unit.metrics.get(name)}" for name, short in _SHORT if unit.metrics.get(name) is not None]
    return f"    {unit.line:>5} {clean(unit.name)}: {', '.join(parts)}"


def _skipped_lines(result: AnalysisResult) -> list[str]:
    return [f"skipped {clean(r.path)}: {clean(r.skipped)}" for r in result.skipped]


def metrics_text(result: AnalysisResult) -> str:
    out = []
    for report in result.analysed:
        out.append(f"{clean(report.path)} ({report.role}, {_number(report.metrics.get('file_lines'))} lines)")
        out.extend(_unit_line(unit) for unit in report.units)
    return "\n".join(out + _skipped_lines(result))


def _worst(report: FileReport) -> tuple[int, int, str]:
    red = sum(1 for v in report.violations if v.severity == RED)
    return (-red, -len(report.violations), report.path)


def violations_text(result: AnalysisResult) -> list[str]:
    """Violations grouped by file, worst file first, then the skipped files."""
    out = []
    for report in sorted((r for r in result.files if r.violations), key=_worst):
        out.append(clean(report.path))
        out.extend(f"  {v.line:>5}  {v.code}  {v.severity:<6}  {clean(v.message)}" for v in report.violations)
    return out + _skipped_lines(result)


def _verdict(result: AnalysisResult, gate: Any, mode: str) -> str:
    from .thresholds import YELLOW

    skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
    red, yellow = count(result.violations, RED), count(result.violations, YELLOW)
    summary = f"{red} red, {yellow} yellow in {len(result.analysed)} files{skipped} (mode {mode})"
    if not gate.failed:
        return f"passed: {summary}"
    kind = "recurring hotspot" if gate.mode == "recurrence" else "red violation"
    plural = "s" if len(gate.failures) != 1 else ""
    return f"FAILED: {len(gate.failures)} {kind}{plural}; {summary}"


def _hotspot_lines(gate: Any) -> list[str]:
    if not (gate.failed and gate.mode == "recurrence"):
        return []
    head = "recurring hotspots (refactor the unit, or suppress with a reason: # ladder: ignore[rule] why):"
    return [head] + [f"  {clean(f.event.path)}:{f.event.line}  {clean(f.text)}" for f in gate.failures]


def check_text(result: AnalysisResult, outcome: Any, settings: Any) -> str:
    """``ladder check`` text: violations by file, gate failures with evidence, a verdict."""
    lines = violations_text(result) + _hotspot_lines(outcome.gate)
    return "\n".join(lines + [_verdict(result, outcome.gate, settings.mode)])


def count(violations: Iterable[Violation], sev: str) -> int:
    return sum(1 for v in violations if v.severity == sev)
