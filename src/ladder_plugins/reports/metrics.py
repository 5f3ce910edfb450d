"""``ladder metrics``: every unit's numbers, as text for people and JSON for programs.

The JSON of ``ladder metrics`` is a documented contract (``docs/reference/output-formats.md``,
"ladder metrics --format json"): keys are only ever added, never renamed.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..analysis.report import AnalysisResult, FileReport
from .sanitize import clean

__all__ = ["metrics_json", "metrics_text", "skipped_lines"]

_UNIT_METRICS = ("cyclomatic", "cognitive", "abc", "function_lines", "params", "nesting", "assertions")


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
    """The ``ladder metrics --format json`` contract (``docs/reference/output-formats.md``)."""
    files = [_file_json(report) for report in result.analysed]
    skipped = [{"path": r.path, "reason": r.skipped} for r in result.skipped]
    return json.dumps({"files": files, "skipped": skipped}, indent=2)


_SHORT = (("cyclomatic", "cc"), ("cognitive", "cog"), ("abc", "abc"), ("function_lines", "lines"),
          ("params", "params"), ("nesting", "nest"), ("assertions", "asserts"))


def _unit_line(unit: Any) -> str:
    parts = [f"{short} {unit.metrics.get(name)}" for name, short in _SHORT if unit.metrics.get(name) is not None]
    return f"    {unit.line:>5} {clean(unit.name)}: {', '.join(parts)}"


def skipped_lines(result: AnalysisResult) -> list[str]:
    return [f"skipped {clean(r.path)}: {clean(r.skipped)}" for r in result.skipped]


def metrics_text(result: AnalysisResult) -> str:
    out = []
    for report in result.analysed:
        out.append(f"{clean(report.path)} ({report.role}, {_number(report.metrics.get('file_lines'))} lines)")
        out.extend(_unit_line(unit) for unit in report.units)
    return "\n".join(out + skipped_lines(result))
