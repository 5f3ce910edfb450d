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


_EVENT_DEFAULTS = {"unit_hash": "h1", "when": DAY0, "run_id": "", "severity": "red", "rule_key": "", "path": "",
                   "role": "app", "actual": 20.0, "hash_version": 1}


def make_event(fp: str = "src/a.py::f::cognitive_max", **given) -> Event:
    """A red cognitive-complexity event of ``fp``; any of ``_EVENT_DEFAULTS`` may be given."""
    assert set(given) <= set(_EVENT_DEFAULTS), f"unknown: {set(given) - set(_EVENT_DEFAULTS)}"
    o = {**_EVENT_DEFAULTS, **given}
    return Event(
        schema_version=SCHEMA_VERSION, event_id=uuid.uuid4().hex, timestamp=format_timestamp(o["when"]),
        repo_id="repo", run_id=o["run_id"] or uuid.uuid4().hex, tool="cli", mode="recurrence",
        path=o["path"] or fp.split("::")[0], unit_name=fp.split("::")[1] if fp.count("::") == 2 else None, line=1,
        role=o["role"], rule_key=o["rule_key"] or fp.split("::")[-1], metric_family="complexity", scope="unit",
        severity=o["severity"], actual=o["actual"], limit=15.0, delta=o["actual"] - 15.0, fingerprint=fp,
        unit_hash=o["unit_hash"], source="built-in-metric", hash_version=o["hash_version"],
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


def represented(records) -> int:
    """How many violations a log's records stand for: an event one, a sighting one per observation it names."""
    return sum(len(getattr(record, "refs", (None,))) for record in records)


def fingerprints_per_run(records) -> dict[str, list[str]]:
    """Run id -> the fingerprints it recorded, sightings resolved through the events they refer to."""
    by_key = {r.observation: r.fingerprint for r in records if not hasattr(r, "refs")}
    runs: dict[str, list[str]] = {}
    for record in records:
        runs.setdefault(record.run_id, []).extend(_prints(record, by_key))
    return {run: sorted(prints) for run, prints in runs.items()}


def _prints(record, by_key) -> list[str]:
    if hasattr(record, "refs"):
        return [by_key[key] for key in record.refs]
    return [record.fingerprint]
