"""Violation events: one JSON object per line of ``events.jsonl`` (DESIGN §6).

Reading is tolerant (unknown extra keys are kept out, missing optional ones filled)
and strict about what recurrence relies on: a line without a valid fingerprint,
timestamp, rule key or severity is unreadable and is skipped and counted by the
store, never guessed at.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Optional

from .errors import ConfigError
from .runinfo import RunContext, format_timestamp, parse_timestamp

__all__ = ["SCHEMA_VERSION", "SEVERITIES", "Event", "events_from_violations", "event_from_json", "NewerSchema"]

SCHEMA_VERSION = 1
SEVERITIES = ("yellow", "red", "gate-fail")
TOOLS = ("flake8", "pytest", "cli")


class NewerSchema(ValueError):
    """A record written by a newer ladder-plugins: readable in part, never rewritten."""


@dataclass(frozen=True)
class Event:
    """One violation seen in one run."""

    schema_version: int
    event_id: str
    timestamp: str
    repo_id: str
    run_id: str
    tool: str
    mode: str
    path: str
    unit_name: Optional[str]
    line: int
    role: str
    rule_key: str
    metric_family: str
    scope: str
    severity: str
    actual: Optional[float]
    limit: Optional[float]
    delta: Optional[float]
    fingerprint: str
    unit_hash: str
    source: str
    actor_type: Optional[str] = None
    actor_id: Optional[str] = None

    def to_json(self) -> str:
        data = asdict(self)
        for key in ("actor_type", "actor_id"):
            if data[key] is None:
                del data[key]
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @property
    def day(self) -> str:
        return self.timestamp[:10]


def events_from_violations(
    violations: Iterable[Any], run: RunContext, *, severity: Optional[str] = None
) -> list[Event]:
    """Events for ``violations`` (analysis :class:`~ladder_plugins.analysis.Violation`)."""
    out = []
    for v in violations:
        out.append(
            Event(
                schema_version=SCHEMA_VERSION,
                event_id=uuid.uuid4().hex,
                timestamp=run.timestamp,
                repo_id=run.repo_id,
                run_id=run.run_id,
                tool=run.tool,
                mode=run.mode,
                path=v.path,
                unit_name=v.unit,
                line=v.line,
                role=v.role,
                rule_key=v.rule.key,
                metric_family=v.rule.family,
                scope=v.rule.scope,
                severity=severity or v.severity,
                actual=v.actual,
                limit=v.limit,
                delta=v.delta,
                fingerprint=v.fingerprint,
                unit_hash=v.unit_hash,
                source=v.rule.source,
                actor_type=run.actor_type,
                actor_id=run.actor_id,
            )
        )
    return out


_REQUIRED_TEXT = ("event_id", "timestamp", "run_id", "path", "rule_key", "fingerprint", "unit_hash", "severity")


def event_from_json(data: Mapping[str, Any]) -> Event:
    """An :class:`Event` from a decoded line; ``ValueError`` if it cannot be trusted."""
    if not isinstance(data, Mapping):
        raise ValueError("not a JSON object")
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("schema_version missing or invalid")
    for key in _REQUIRED_TEXT:
        if not isinstance(data.get(key), str) or not data.get(key):
            raise ValueError(f"{key} missing or not a string")
    if data["severity"] not in SEVERITIES and version <= SCHEMA_VERSION:
        raise ValueError(f"severity {data['severity']!r} unknown")
    try:  # one canonical form, so timestamps compare correctly as text
        timestamp = format_timestamp(parse_timestamp(data["timestamp"]))
    except ConfigError:
        raise ValueError(f"timestamp {data['timestamp']!r} is not ISO-8601") from None
    event = Event(
        schema_version=version,
        event_id=data["event_id"],
        timestamp=timestamp,
        repo_id=str(data.get("repo_id", "")),
        run_id=data["run_id"],
        tool=str(data.get("tool", "cli")),
        mode=str(data.get("mode", "recurrence")),
        path=data["path"],
        unit_name=data.get("unit_name") if isinstance(data.get("unit_name"), str) else None,
        line=data["line"] if isinstance(data.get("line"), int) else 0,
        role=str(data.get("role", "app")),
        rule_key=data["rule_key"],
        metric_family=str(data.get("metric_family", "")),
        scope=str(data.get("scope", "unit")),
        severity=data["severity"],
        actual=_number(data.get("actual")),
        limit=_number(data.get("limit")),
        delta=_number(data.get("delta")),
        fingerprint=data["fingerprint"],
        unit_hash=data["unit_hash"],
        source=str(data.get("source", "built-in-metric")),
        actor_type=data.get("actor_type") if isinstance(data.get("actor_type"), str) else None,
        actor_id=data.get("actor_id") if isinstance(data.get("actor_id"), str) else None,
    )
    if version > SCHEMA_VERSION:
        raise NewerSchema(event)  # carries the readable part
    return event


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)
