"""A :class:`FileReport` as plain JSON data, and back.

For the analysis cache and for reports crossing process boundaries (``--jobs``):
rules travel as codes and are looked up again on the other side, so a report that
names a rule the current plugins do not know is refused (a cache miss), never
half-restored.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from .analysis import FileReport, UnitReport, Violation
from .catalogue import Rule

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


_NUMBER = (int, float)
_TYPES: Mapping[str, Any] = {
    "path": str, "line": int, "unit": (str, type(None)), "unit_key": (str, type(None)), "actual": _NUMBER,
    "limit": (*_NUMBER, type(None)), "severity": str, "role": str, "fingerprint": str, "unit_hash": str,
    "detail": (str, type(None)),
}
_UNIT_TYPES = (str, str, int, int, dict, bool, bool)
_HEADER: Mapping[str, Any] = {"path": str, "role": str, "skipped": (str, type(None))}


def _expect(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(f"unexpected {what}")


def _metrics(data: Any) -> Mapping[str, Any]:
    _expect(isinstance(data, dict) and all(isinstance(k, str) and (v is None or isinstance(v, _NUMBER))
                                           for k, v in data.items()), "metrics")
    return MappingProxyType(dict(data))


def _violation(data: Any, rules: Mapping[str, Rule]) -> Violation:
    _expect(isinstance(data, dict) and data.get("code") in rules, "violation")
    _expect(all(isinstance(data.get(name), kind) for name, kind in _TYPES.items()), "violation fields")
    return Violation(rule=rules[data["code"]], **{name: data[name] for name in _VIOLATION_FIELDS})


def _unit(data: Any) -> UnitReport:
    _expect(isinstance(data, list) and len(data) == len(_UNIT_TYPES)
            and all(isinstance(v, kind) for v, kind in zip(data, _UNIT_TYPES)), "unit")
    name, key, line, end, metrics, is_test, is_public = data
    return UnitReport(name, key, line, end, _metrics(metrics), is_test, is_public)


def _list(data: Any, key: str) -> list[Any]:
    value = data.get(key)
    _expect(isinstance(value, list), key)
    return value


def report_from_json(data: Mapping[str, Any], rules: Mapping[str, Rule]) -> FileReport:
    """Rebuild a report, checking every field's type: ``ValueError`` naming what does not fit.

    Cache entries are files on disk and may be damaged in ways JSON still parses;
    a report that does not fit is refused whole, never half-restored.
    """
    _expect(isinstance(data, dict) and all(isinstance(data.get(k), t) for k, t in _HEADER.items()), "report")
    return FileReport(
        data["path"], data["role"], _metrics(data.get("metrics")), tuple(_unit(u) for u in _list(data, "units")),
        _violations(data, "violations", rules), _violations(data, "suppressed", rules), data["skipped"],
    )


def _violations(data: Mapping[str, Any], key: str, rules: Mapping[str, Rule]) -> tuple[Violation, ...]:
    return tuple(_violation(v, rules) for v in _list(data, key))
