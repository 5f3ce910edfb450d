"""``tracker.service``: what the front ends ask of the tracker (read, scan, add a note, overdue items, who
counted a source, the HTML report's section), on a real project folder with no other feedback in it."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ladder_plugins.tracker.service import Overdue, Tracker, feedback_section

from tests.helpers.history import project_settings


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty project whose Claude Code memory and home are its own folders, on a fixed day."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("LADDER_NOW", "2026-05-10T12:00:00Z")
    return root


def _tracker(root, extra="", today=date(2026, 5, 10)):
    warned: list = []
    settings = project_settings(root, extra)
    return Tracker(settings, warned.append, memory_dir=str(root / "memory"), today=today), warned


def _state(root):
    return json.loads((root / ".claude" / "feedback-ladder-state.json").read_text())


def test_read_without_a_state_file_is_empty_and_writes_nothing(project):
    tracker, warned = _tracker(project)
    state = tracker.read()
    assert (state.items, state.existed) == ([], False)
    assert tracker.state_path == project / ".claude" / "feedback-ladder-state.json"
    assert not tracker.state_path.exists() and warned == []


def test_a_note_starts_an_item_at_level_one(project):
    tracker, warned = _tracker(project)
    entry, scan, state = tracker.add_note("never use a bare except clause", [" bare ", "except", " "])
    assert entry["text"] == "never use a bare except clause"
    assert entry["keywords"] == ["bare", "except"]
    assert entry["when"] == "2026-05-10"
    assert scan.new_items == ["bare-except-clause"] and scan.new_occurrences == 1
    item = _state(project)["feedbacks"][0]
    assert (item["id"], item["occurrences"], item["current_level"], item["recommended_level"]) == (
        "bare-except-clause", 1, 1, 1)
    assert item["promoted"] is True
    assert warned == []


def test_a_second_note_on_the_same_topic_counts_and_makes_it_due(project):
    tracker, _ = _tracker(project)
    tracker.add_note("never use a bare except clause", [])
    _, scan, state = tracker.add_note("no bare except, please", [])
    assert scan.new_items == [] and scan.new_occurrences == 1
    (item,) = state.tracked().items
    assert (item.occurrences, item.recommended_level, item.promoted, item.due_since) == (2, 2, False, "2026-05-10")


def test_a_dry_run_scan_writes_nothing(project):
    tracker, _ = _tracker(project)
    tracker.add_note("never use a bare except clause", [])
    before = tracker.state_path.read_bytes()
    from ladder_plugins.tracker.sources.journal import add_note, journal_dir

    add_note(journal_dir(project, ".ladder"), project, "a bare except again", [])
    scan, state = tracker.scan(dry_run=True)
    assert scan.new_occurrences == 1
    assert state.tracked().items[0].occurrences == 2
    assert tracker.state_path.read_bytes() == before


def test_holder_finds_the_item_that_counted_a_source(project):
    tracker, _ = _tracker(project)
    entry, _, state = tracker.add_note("never use a bare except clause", [])
    holder = Tracker.holder(state, f"note:{entry['id']}")
    assert holder is not None and holder.id == "bare-except-clause"
    assert Tracker.holder(state, "note:nobody") is None


def test_overdue_after_the_grace_days(project):
    _tracker(project)[0].add_note("never use a bare except clause", [])
    _tracker(project)[0].add_note("no bare except, please", [])
    later, _ = _tracker(project, "[tool.ladder.feedback]\ngrace_days = 3\n", today=date(2026, 5, 14))
    state = later.read()
    assert later.overdue(state) == [Overdue("bare-except-clause", "never use a bare except clause",
                                            "2026-05-10", 4)]
    on_time, _ = _tracker(project, "[tool.ladder.feedback]\ngrace_days = 4\n", today=date(2026, 5, 14))
    assert on_time.overdue(state) == []
    never, _ = _tracker(project, today=date(2030, 1, 1))
    assert never.overdue(state) == []


def test_a_malformed_item_is_named_kept_and_not_updated(project):
    tracker, warned = _tracker(project)
    tracker.state_path.parent.mkdir()
    bad = {"id": "broken", "topic": "bare except", "keywords": ["bare", "except"], "occurrences": "many"}
    tracker.state_path.write_text(json.dumps({"version": 1, "feedbacks": [bad]}))
    tracker.add_note("never use a bare except clause", [])
    assert _state(project)["feedbacks"][0] == bad
    assert any("item 'broken' is malformed; kept as it is, not updated" in w
               and ".claude/feedback-ladder-state.json" in w for w in warned)


def test_feedback_section_counts_levels_and_lists_the_due(project):
    settings = project_settings(project)
    assert feedback_section(settings, print) is None
    tracker, _ = _tracker(project)
    tracker.add_note("never use a bare except clause", [])
    tracker.add_note("no bare except, please", [])
    tracker.add_note("write docstrings for the public functions", [])
    section = feedback_section(settings, print)
    assert section.state == ".claude/feedback-ladder-state.json"
    assert section.per_level == (2, 0, 0, 0)
    assert section.due == (("bare-except-clause", "never use a bare except clause", 1, 2),)
