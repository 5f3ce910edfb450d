"""Building events and settings for history tests without running an analysis."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from ladder_plugins.config import load_settings
from ladder_plugins.history.events import SCHEMA_VERSION, Event
from ladder_plugins.history.run import format_timestamp

DAY0 = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)


def at(day: int, hour: int = 0) -> datetime:
    return DAY0 + timedelta(days=day, hours=hour)


def make_event(fp: str = "src/a.py::f::cognitive_max", *, unit_hash: str = "h1", when: datetime = DAY0,
               run_id: str = "", severity: str = "red", rule_key: str = "", path: str = "",
               role: str = "app") -> Event:
    path = path or fp.split("::")[0]
    rule_key = rule_key or fp.split("::")[-1]
    return Event(
        schema_version=SCHEMA_VERSION, event_id=uuid.uuid4().hex, timestamp=format_timestamp(when),
        repo_id="repo", run_id=run_id or uuid.uuid4().hex, tool="cli", mode="recurrence", path=path,
        unit_name=fp.split("::")[1] if fp.count("::") == 2 else None, line=1, role=role, rule_key=rule_key,
        metric_family="complexity", scope="unit", severity=severity, actual=20.0, limit=15.0, delta=5.0,
        fingerprint=fp, unit_hash=unit_hash, source="built-in-metric",
    )


def project_settings(root, extra: str = ""):
    (root / "pyproject.toml").write_text("[tool.ladder]\n" + extra)
    return load_settings(root)


def assert_summary_consistent(root) -> None:
    """The summary-backed history equals a full rebuild from the log (plus what pruning folded)."""
    import json

    from ladder_plugins.history.store import HistoryStore

    store = HistoryStore(load_settings(root))
    summary = store.load().aggregate.to_json()
    rebuilt = store.load_readonly()[0].to_json()
    assert store.summary_path.exists() and json.dumps(summary, sort_keys=True) == json.dumps(rebuilt, sort_keys=True)
