"""A :class:`FileReport` as plain JSON data, and back.

For the analysis cache and for reports crossing process boundaries (``--jobs``):
rules travel as codes and are looked up again on the other side, so a report that
names a rule the current plugins do not know is refused whole, never half-restored
(the cache keys cover the plugins, so in the cache that means damage).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from ..catalogue import Rule
from .report import FileReport, UnitReport, Violation

__all__ = ["report_to_json", "report_from_json"]

_VIOLATION_FIELDS = ("path", "line", "unit", "unit_key", "actual", "limit", "severity", "role", "fingerprint",
                     "unit_hash", "detail")


def _violation_json(v: Violation) -> dict[str, Any]:
    return {"code": v.code, **{name: getattr(v, name) for name in _VIOLATION_FIELDS}}


def report_to_json(report: FileReport) -> dict[str, Any]:
    return {
        "path": report.path, "role": report.role, "skipped": report.skipped, "metrics": dict(report.metrics),
        "units": [[u.name, u.key, u.line, u.end_line, dict(u.metrics), u.is_test, u.is_public] for u in report.units],
        "violations": [_violation_json(v) for v in report.violations],
        "suppressed": [_violation_json(v) for v in report.suppressed],
    }


def _violation(data: Mapping[str, Any], rules: Mapping[str, Rule]) -> Violation:
    return Violation(rule=rules[data["code"]], **{name: data[name] for name in _VIOLATION_FIELDS})


def report_from_json(data: Mapping[str, Any], rules: Mapping[str, Rule]) -> FileReport:
    """Rebuild a report; ``KeyError``/``TypeError``/``ValueError`` if it does not fit the rules or the shape.

    Field types are not checked one by one (that would double the cost of a warm
    run): cache entries carry a digest of their report, so one that was changed on
    disk is refused before it gets here.
    """
    units = tuple(UnitReport(n, k, line, end, MappingProxyType(dict(m)), t, p)
                  for n, k, line, end, m, t, p in data["units"])
    return FileReport(
        data["path"], data["role"], MappingProxyType(dict(data["metrics"])), units,
        tuple(_violation(v, rules) for v in data["violations"]),
        tuple(_violation(v, rules) for v in data["suppressed"]), data["skipped"],
    )
