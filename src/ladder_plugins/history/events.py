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
from typing import Any, Callable, Iterable, Mapping, Optional

from ..analysis.identity import HASH_VERSION
from ..errors import ConfigError
from .run import RunContext, format_timestamp, parse_timestamp

__all__ = ["SCHEMA_VERSION", "SEVERITIES", "Event", "events_from_violations", "event_from_json", "NewerSchema"]

SCHEMA_VERSION = 1
SEVERITIES = ("yellow", "red", "gate-fail")


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
    #: the form of ``unit_hash`` (see ``analysis.identity.HASH_VERSION``); 1 for events written before it existed
    hash_version: int = 1

    @property
    def version(self) -> str:
        """The version key recurrence compares: the unit hash, qualified by its form when that is not 1."""
        return self.unit_hash if self.hash_version == 1 else f"{self.hash_version}:{self.unit_hash}"

    def to_json(self) -> str:
        data = asdict(self)
        for key in ("actor_type", "actor_id"):
            if data[key] is None:
                del data[key]
        # ASCII with escapes: a name from an undecodable file system path carries lone surrogates,
        # which UTF-8 cannot encode; escaped, every string survives the log unchanged.
        return json.dumps(data, separators=(",", ":"), ensure_ascii=True)

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
                hash_version=HASH_VERSION,
            )
        )
    return out


_REQUIRED_TEXT = ("event_id", "run_id", "path", "rule_key", "fingerprint", "unit_hash", "severity")


def _text(default: str) -> Callable[[Any], str]:
    return lambda value: value if isinstance(value, str) else default


def _optional_text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _line(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _hash_version(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


#: optional fields: how to read them, with the default when missing or malformed
_OPTIONAL: Mapping[str, Callable[[Any], Any]] = {
    "repo_id": _text(""), "tool": _text("cli"), "mode": _text("recurrence"), "unit_name": _optional_text,
    "line": _line, "role": _text("app"), "metric_family": _text(""), "scope": _text("unit"),
    "actual": _number, "limit": _number, "delta": _number, "source": _text("built-in-metric"),
    "actor_type": _optional_text, "actor_id": _optional_text, "hash_version": _hash_version,
}


def _version(data: Mapping[str, Any]) -> int:
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("schema_version missing or invalid")
    return version


def _checked(data: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The required fields, validated; ``timestamp`` in its one canonical form."""
    for key in _REQUIRED_TEXT + ("timestamp",):
        if not isinstance(data.get(key), str) or not data.get(key):
            raise ValueError(f"{key} missing or not a string")
    if data["severity"] not in SEVERITIES and version <= SCHEMA_VERSION:
        raise ValueError(f"severity {data['severity']!r} unknown")
    try:  # one canonical form, so timestamps compare correctly as text
        timestamp = format_timestamp(parse_timestamp(data["timestamp"]))
    except ConfigError:
        raise ValueError(f"timestamp {data['timestamp']!r} is not ISO-8601") from None
    return {**{key: data[key] for key in _REQUIRED_TEXT}, "timestamp": timestamp}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """An :class:`Event` from a decoded line; ``ValueError`` if it cannot be trusted.

    A record of a newer schema raises :class:`NewerSchema` carrying the readable part.
    """
    if not isinstance(data, Mapping):
        raise ValueError("not a JSON object")
    version = _version(data)
    optional = {name: read(data.get(name)) for name, read in _OPTIONAL.items()}
    event = Event(schema_version=version, **_checked(data, version), **optional)
    if version > SCHEMA_VERSION:
        raise NewerSchema(event)
    return event
