"""The records of ``events.jsonl``, one JSON object per line (``docs/reference/schemas.md``).

An :class:`Event` is one violation seen in one run, with every field. A
:class:`Sighting` (``"kind": "seen"``, schema 2) is one run seeing again violations
that an earlier event already recorded exactly as they are now: it names the run and
the *observations* it saw, each by a short key of everything an event records except
the run (:func:`observation_key`). So a run on unchanged code appends a few bytes
per violation instead of a full event, the audit trail still says which run saw
which violation, and ``count = "runs"`` stays exact. Schema 1 logs (events only) are
read as they are; nothing is rewritten.

Reading is tolerant (unknown extra keys are kept out, missing optional ones filled)
and strict about what recurrence relies on: a line without a valid fingerprint,
timestamp, rule key or severity is unreadable and is skipped and counted by the
store, never guessed at.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence, Union

from ..analysis.identity import HASH_VERSION
from ..errors import ConfigError
from .run import RunContext, format_timestamp, new_id, parse_timestamp

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10+; only the type checker reads it

__all__ = [
    "SCHEMA_VERSION", "SEVERITIES", "Event", "Sighting", "Record", "events_from_violations", "event_from_json",
    "record_from_json", "observation_key", "compact", "NewerSchema",
]

#: 2 added sightings and ``hash_version``; schema 1 lines are events and are read as such.
SCHEMA_VERSION = 2
KEY_LENGTH = 11  # an observation key: 8 bytes of blake2b, URL-safe base64 without padding
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
        # every field is a plain value: no deep copy (``asdict``) is needed, and it was most of recording's cost
        data = {name: getattr(self, name) for name in _EVENT_FIELDS}
        for key in ("actor_type", "actor_id"):
            if data[key] is None:
                del data[key]
        # ASCII with escapes: a name from an undecodable file system path carries lone surrogates,
        # which UTF-8 cannot encode; escaped, every string survives the log unchanged.
        return json.dumps(data, separators=(",", ":"), ensure_ascii=True)

    @property
    def day(self) -> str:
        return self.timestamp[:10]

    @property
    def observation(self) -> str:
        return observation_key(self)


_EVENT_FIELDS = tuple(f.name for f in fields(Event))

#: What makes two events the same observation: everything but the run that saw it.
_OBSERVED = ("path", "unit_name", "line", "role", "rule_key", "metric_family", "scope", "severity", "actual",
             "limit", "fingerprint", "unit_hash", "hash_version", "source")


def observation_key(event: Event) -> str:
    """A short key of what ``event`` saw (not when or by which run), the same in every process."""
    values = [getattr(event, name) for name in _OBSERVED]
    values[8:10] = [None if v is None else float(v) for v in values[8:10]]  # 25 and 25.0, as written and read
    text = json.dumps(values, separators=(",", ":"), ensure_ascii=True)
    digest = hashlib.blake2b(text.encode("ascii"), digest_size=8).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


@dataclass(frozen=True)
class Sighting:
    """One run seeing again, unchanged, the observations ``refs`` (see :func:`observation_key`)."""

    schema_version: int
    event_id: str
    timestamp: str
    repo_id: str
    run_id: str
    tool: str
    mode: str
    refs: tuple[str, ...]
    actor_type: Optional[str] = None
    actor_id: Optional[str] = None

    def to_json(self) -> str:
        data = {"schema_version": self.schema_version, "kind": "seen", "event_id": self.event_id,
                "timestamp": self.timestamp, "repo_id": self.repo_id, "run_id": self.run_id, "tool": self.tool,
                "mode": self.mode, "refs": "".join(self.refs)}
        data.update({key: getattr(self, key) for key in ("actor_type", "actor_id") if getattr(self, key) is not None})
        return json.dumps(data, separators=(",", ":"), ensure_ascii=True)

    @property
    def day(self) -> str:
        return self.timestamp[:10]


Record = Union[Event, Sighting]


def _run_of(event: Event) -> tuple[Any, ...]:
    """The fields a sighting shares with the events it stands for, in :class:`Sighting`'s order."""
    return (event.timestamp, event.repo_id, event.run_id, event.tool, event.mode, event.actor_type, event.actor_id)


def compact(events: Sequence[Event], known: Callable[[str], bool]) -> list[Record]:
    """What to append for ``events``: each whose observation ``known`` already holds becomes a
    reference in one :class:`Sighting` per run, after the full events (gate-fail events stay whole)."""
    full: list[Record] = []
    seen: dict[tuple[Any, ...], list[str]] = {}
    for event in events:
        if event.severity == "gate-fail" or not known(event.observation):
            full.append(event)
        else:
            seen.setdefault(_run_of(event), []).append(event.observation)
    return full + [_sighting(run, refs) for run, refs in seen.items()]


def _sighting(run: tuple[Any, ...], refs: list[str]) -> Sighting:
    ts, repo, run_id, tool, mode, actor, who = run
    return Sighting(SCHEMA_VERSION, new_id(), ts, repo, run_id, tool, mode, tuple(refs), actor, who)


def events_from_violations(
    violations: Iterable[Any], run: RunContext, *, severity: Optional[str] = None
) -> list[Event]:
    """Events for ``violations`` (analysis :class:`~ladder_plugins.analysis.Violation`)."""
    out = []
    timestamp = run.timestamp  # formatted once for the run, not once per event
    for v in violations:
        out.append(
            Event(
                schema_version=SCHEMA_VERSION,
                event_id=new_id(),
                timestamp=timestamp,
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


#: What the fields that outputs show as they are must look like: a record that breaks one is not trusted
#: (a rule key with a newline and a fake ``</ladder-brief>`` would otherwise reach an agent's prompt).
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,99}")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
_MAX_LINE = 10**9
_MAX_ID = 200


def _checked(data: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The required fields, validated; ``timestamp`` in its one canonical form."""
    for key in _REQUIRED_TEXT + ("timestamp",):
        if not isinstance(data.get(key), str) or not data.get(key):
            raise ValueError(f"{key} missing or not a string")
    if data["severity"] not in SEVERITIES and version <= SCHEMA_VERSION:
        raise ValueError(f"severity {data['severity']!r} unknown")
    if not _KEY.fullmatch(data["rule_key"]):
        raise ValueError("rule_key is not a rule key")
    for key in ("event_id", "run_id"):
        _identifier(data[key], key)
    return {**{key: data[key] for key in _REQUIRED_TEXT}, "timestamp": canonical_timestamp(data["timestamp"])}


def is_rule_key(value: object) -> TypeGuard[str]:
    """Whether ``value`` has the shape of a rule key (what outputs may print as it is)."""
    return isinstance(value, str) and _KEY.fullmatch(value) is not None


def identifier(value: Any, key: str) -> str:
    """An id printed as it is (a run id in a summary, say); ``ValueError`` for anything else."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} is not a string")
    return _identifier(value, key)


def _identifier(value: str, key: str) -> str:
    """An id printed as it is: printable and of a sane length."""
    if len(value) > _MAX_ID or not value.isprintable():
        raise ValueError(f"{key} is not a printable id of at most {_MAX_ID} characters")
    return value


def _trusted(optional: Mapping[str, Any]) -> Mapping[str, Any]:
    """The optional fields outputs show, checked: a known role, word-like tool and mode, a sane line, ids."""
    from ..catalogue import ROLES

    if optional["role"] not in ROLES:
        raise ValueError("role is not a known role")
    if not (_WORD.fullmatch(optional["tool"]) and _WORD.fullmatch(optional["mode"])):
        raise ValueError("tool or mode is not a word")
    if not 0 <= optional["line"] <= _MAX_LINE:
        raise ValueError("line out of range")
    for key in ("repo_id", "actor_id", "actor_type"):
        if optional[key]:
            _identifier(optional[key], key)
    return optional


_REFS = re.compile(r"[A-Za-z0-9_-]*")


def _refs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, str) or len(value) % KEY_LENGTH or not _REFS.fullmatch(value):
        raise ValueError("refs is not a string of observation keys")
    return tuple(value[i:i + KEY_LENGTH] for i in range(0, len(value), KEY_LENGTH))


def _required(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} missing or not a string")
    return value


@lru_cache(maxsize=4096)  # a run's records share one timestamp: parse it once, not per record
def _canonical_time(value: str) -> str:
    return format_timestamp(parse_timestamp(value))


def canonical_timestamp(value: Any) -> str:
    """A stored timestamp in its one canonical form, so that timestamps compare correctly as text;
    ``ValueError`` for anything that is not one (or lies outside the years a clock can give)."""
    if not isinstance(value, str):
        raise ValueError("a timestamp is not a string")
    try:
        return _canonical_time(value)
    except ConfigError:
        raise ValueError(f"timestamp {value[:40]!r} is not ISO-8601") from None


def _sighting_from_json(data: Mapping[str, Any], version: int) -> Sighting:
    text = {key: _OPTIONAL[key](data.get(key)) for key in ("repo_id", "tool", "mode", "actor_type", "actor_id")}
    _trusted({**text, "role": "app", "line": 0})
    when = canonical_timestamp(data.get("timestamp"))
    return Sighting(version, _identifier(_required(data, "event_id"), "event_id"), when, text["repo_id"],
                    _identifier(_required(data, "run_id"), "run_id"), text["tool"], text["mode"],
                    _refs(data.get("refs")), text["actor_type"], text["actor_id"])


def record_from_json(data: Mapping[str, Any]) -> Record:
    """An :class:`Event` or a :class:`Sighting` from a decoded line; ``ValueError`` if it cannot be trusted.

    A record of a newer schema raises :class:`NewerSchema` carrying the readable part.
    """
    if not isinstance(data, Mapping):
        raise ValueError("not a JSON object")
    version = _version(data)
    if version > SCHEMA_VERSION:  # whatever its shape: the log is read, never rewritten
        raise NewerSchema(_readable_part(data, version))
    if data.get("kind") == "seen":
        return _sighting_from_json(data, version)
    return event_from_json(data)


def _readable_part(data: Mapping[str, Any], version: int) -> Optional[Record]:
    """What a newer schema's record still tells this version: an event or sighting of a shape it knows."""
    try:
        if data.get("kind") == "seen":
            return _sighting_from_json(data, version)
        if "kind" not in data:
            return Event(schema_version=version, **_checked(data, version),
                         **{name: read(data.get(name)) for name, read in _OPTIONAL.items()})
    except (ValueError, TypeError, LookupError, ArithmeticError):
        pass
    return None


def event_from_json(data: Mapping[str, Any]) -> Event:
    """An :class:`Event` from a decoded line; ``ValueError`` if it cannot be trusted.

    A record of a newer schema raises :class:`NewerSchema` carrying the readable part.
    """
    if not isinstance(data, Mapping):
        raise ValueError("not a JSON object")
    if "kind" in data:
        raise ValueError(f"a record of kind {data['kind']!r}, not an event")
    version = _version(data)
    optional = _trusted({name: read(data.get(name)) for name, read in _OPTIONAL.items()})
    event = Event(schema_version=version, **_checked(data, version), **optional)
    if version > SCHEMA_VERSION:
        raise NewerSchema(event)
    return event
