"""``ladder check --format gitlab``: a GitLab Code Quality report.

A JSON array with one issue per red violation and per gate failure, in the shape
GitLab's code quality widget reads: ``description``, ``check_name``, ``fingerprint``
(unique per issue, stable across runs: a digest of our fingerprint and code, which
hold no line number), ``severity`` (``major`` for a violation, ``critical`` for a
recurring hotspot) and ``location.path`` with ``location.lines.begin``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..analysis.report import AnalysisResult
from .sanitize import clean

__all__ = ["check_gitlab"]


def _issue(description: str, check: str, identity: str, location: tuple[str, int], severity: str) -> dict[str, Any]:
    digest = hashlib.md5(identity.encode("utf-8", "surrogatepass")).hexdigest()
    path, line = location
    return {"description": clean(description), "check_name": check, "fingerprint": digest,
            "severity": severity, "location": {"path": clean(path), "lines": {"begin": line}}}


def _violation(v: Any) -> dict[str, Any]:
    return _issue(v.text, v.rule.key, f"{v.code}\x1f{v.fingerprint}", (v.path, v.line), "major")


def _failure(f: Any) -> dict[str, Any]:
    hotspot = f.reason == "hotspot"
    e = f.event
    identity = f"{f.code}\x1f{f.reason}\x1f{e.fingerprint}"  # strict: the code is the rule's, the reason tells apart
    return _issue(f.text, f.rule_key, identity, (e.path, e.line), "critical" if hotspot else "major")


def check_gitlab(result: AnalysisResult, outcome: Any) -> str:
    issues = [_violation(v) for v in result.violations if v.severity == "red"]
    return json.dumps(issues + [_failure(f) for f in outcome.gate.failures], indent=2)
