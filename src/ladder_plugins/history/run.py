"""One invocation of a tool: its run id, its clock, who ran it.

``LADDER_RUN_ID`` makes several processes (flake8 workers, xdist workers, or the
flake8 and pytest steps of one CI job) one run; ``LADDER_NOW`` replaces the clock so
tests and replays can simulate days.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Mapping, Optional

from ..errors import ConfigError

__all__ = ["RunContext", "now_utc", "parse_timestamp", "format_timestamp", "new_id", "horizon", "CLOCK_SKEW",
           "RUN_ID_ENV", "NOW_ENV"]

RUN_ID_ENV = "LADDER_RUN_ID"
NOW_ENV = "LADDER_NOW"
ACTOR_ENV = "LADDER_ACTOR"
ACTOR_ID_ENV = "LADDER_ACTOR_ID"
#: how far a record may lie ahead of a run's clock and still count: clocks drift, time zones are
#: misconfigured, but a record days in the future was written by a clock that was wrong
CLOCK_SKEW = timedelta(days=1)
_ACTORS = ("human", "agent", "ci")


def new_id() -> str:
    """A random 128-bit id in hex, as ``uuid.uuid4().hex`` looks (``uuid`` imports ``platform``: start-up
    time every run would pay for nothing)."""
    return os.urandom(16).hex()


def parse_timestamp(text: str, *, source: str = "timestamp") -> datetime:
    """ISO-8601 to an aware UTC datetime (naive times are taken as UTC)."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
        if value.tzinfo is not None:
            value.astimezone(timezone.utc)  # year 1 with an offset overflows here: not a timestamp we can use
    except (ValueError, AttributeError, OverflowError):
        raise ConfigError(
            f"{source}: {text!r} is not an ISO-8601 timestamp (e.g. 2026-11-30T09:00:00+00:00)"
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def format_timestamp(value: datetime) -> str:
    return value.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def now_utc(environ: Optional[Mapping[str, str]] = None) -> datetime:
    """The current time, or ``LADDER_NOW`` when set."""
    env = os.environ if environ is None else environ
    override = env.get(NOW_ENV)
    if override:
        value = parse_timestamp(override, source=NOW_ENV)
        if not _FIRST <= value <= _LAST:  # retention and windows are reckoned back and forth from it
            raise ConfigError(f"{NOW_ENV}: {override!r} is outside the years {_FIRST.year} to {_LAST.year}; "
                              "expected a time such as 2026-11-30T09:00:00Z")
        return value
    return datetime.now(timezone.utc)


_FIRST = datetime(1970, 1, 1, tzinfo=timezone.utc)
_LAST = datetime(9000, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class RunContext:
    """Identity and time of one run, shared by every event it records."""

    run_id: str
    tool: str
    mode: str
    now: datetime
    repo_id: str
    actor_type: Optional[str] = None
    actor_id: Optional[str] = None

    @classmethod
    def create(
        cls, tool: str, mode: str, repo_id: str, environ: Optional[Mapping[str, str]] = None
    ) -> "RunContext":
        env = os.environ if environ is None else environ
        actor = env.get(ACTOR_ENV) or ("ci" if env.get("CI", "").lower() in ("1", "true", "yes") else None)
        if actor is not None and actor not in _ACTORS:
            raise ConfigError(f"{ACTOR_ENV}: {actor!r} is not one of {', '.join(_ACTORS)}")
        return cls(
            run_id=env.get(RUN_ID_ENV) or new_id(),
            tool=tool,
            mode=mode,
            now=now_utc(env),
            repo_id=repo_id,
            actor_type=actor,
            actor_id=env.get(ACTOR_ID_ENV) or None,
        )

    @property
    def timestamp(self) -> str:
        return format_timestamp(self.now)


def horizon(now: datetime) -> str:
    """The newest timestamp a run at ``now`` counts (:data:`CLOCK_SKEW` ahead): a later record waits."""
    return format_timestamp(now + CLOCK_SKEW)
