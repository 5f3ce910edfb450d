"""``history.stats.StoreStats`` as ``HistoryStore.stats`` fills it (what ``ladder doctor`` and ``ladder history
stats`` print): an absent log, two recorded events, then a torn line and a line of a newer schema."""

from __future__ import annotations

import dataclasses
import json

import pytest

from ladder_plugins.history.events import SCHEMA_VERSION
from ladder_plugins.history.stats import StoreStats
from ladder_plugins.history.store import HistoryStore

from tests.helpers.history import at, make_event, project_settings


@pytest.fixture
def store(tmp_path):
    return HistoryStore(project_settings(tmp_path))


def _record(store):
    with store.transaction() as tx:
        tx.append([make_event(when=at(0)), make_event("src/b.py::g::cyclomatic_max", when=at(2))], now=at(2))


def test_an_absent_log(store, tmp_path):
    stats = store.stats()
    assert stats == StoreStats(path=str(tmp_path / ".ladder" / "history" / "events.jsonl"), exists=False, size=0,
                               events=0, oldest=None, newest=None, skipped_lines=0, schema_version=SCHEMA_VERSION,
                               newer_schema=False, fingerprints=0, folded_fingerprints=0)
    assert stats.lines_by_schema == {} and stats.unresolved == 0 and stats.untrusted_entries == 0


def test_two_events_recorded(store):
    _record(store)
    stats = store.stats()
    assert (stats.exists, stats.events, stats.fingerprints, stats.skipped_lines) == (True, 2, 2, 0)
    assert stats.size == len(open(stats.path, "rb").read())
    assert (stats.oldest, stats.newest) == ("2026-11-01T09:00:00.000000Z", "2026-11-03T09:00:00.000000Z")
    assert stats.lines_by_schema == {SCHEMA_VERSION: 2}
    assert stats.newer_schema is False


def test_a_torn_line_is_skipped_and_a_newer_schema_is_said(store):
    _record(store)
    with open(store.stats().path, "a", encoding="utf-8") as log:
        first = json.loads(open(store.stats().path, encoding="utf-8").readline())
        log.write('{"torn\n')
        log.write(json.dumps({**first, "schema_version": SCHEMA_VERSION + 7, "event_id": "newer"}) + "\n")
    stats = store.stats()
    assert stats.skipped_lines == 1
    assert stats.newer_schema is True
    assert stats.lines_by_schema == {SCHEMA_VERSION: 2, SCHEMA_VERSION + 7: 1}
    assert list(stats.lines_by_schema) == sorted(stats.lines_by_schema)


def test_stats_are_frozen_and_their_schema_map_is_their_own():
    one = StoreStats("p", True, 1, 1, None, None, 0, 2, False, 1, 0)
    two = StoreStats("p", True, 1, 1, None, None, 0, 2, False, 1, 0)
    one.lines_by_schema[2] = 5
    assert two.lines_by_schema == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.events = 3  # type: ignore[misc]
