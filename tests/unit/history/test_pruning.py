"""history/pruning.py and history/combine.py on their own: the survey, the days the size cap folds, the fold,
a whole prune through its journal, and merging logs. The store and the CLI around them: tests/test_store.py."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.history.aggregate import Aggregate
from ladder_plugins.history.combine import combine
from ladder_plugins.history.pruning import Survey, commit_journal, days_to_fold, leaving, prune_into, prune_log, survey
from ladder_plugins.history.run import format_timestamp
from ladder_plugins.history.store import HistoryStore

from tests.helpers.history import at, make_event, project_settings

CUTOFF = format_timestamp(at(10))


def _lines(*records: bytes) -> list[tuple[bytes, int]]:
    return [(raw, len(raw) + 1) for raw in records]


def _raw(day: int, unit_hash: str = "h1") -> bytes:
    return make_event(unit_hash=unit_hash, when=at(day)).to_json().encode()


def test_the_survey_measures_days_counts_what_leaves_and_finds_unreadable_lines() -> None:
    lines = _lines(_raw(0), b"not json", _raw(11), b"   ", _raw(12, "h2"))
    found = survey(lines, CUTOFF)
    assert found.leaving == 1 and found.unreadable == [(len(_raw(0)) + 1, 9)] and not found.newer
    assert set(found.day_sizes) == {"2026-11-12", "2026-11-13"} and found.end == sum(n for _, n in lines)


def test_the_survey_stops_at_a_record_of_a_newer_schema() -> None:
    newer = json.dumps({"schema_version": 99, "kind": "anything"}).encode()
    found = survey(_lines(_raw(0), newer, b"not json"), CUTOFF)
    assert found.newer and found.unreadable == [] and found.end == 0


@pytest.mark.parametrize("sizes, cap, folded", [
    ({"d1": 10, "d2": 10}, 20, set()),  # within the cap: nothing
    ({"d1": 50, "d2": 30, "d3": 20}, 90, {"d1"}),  # down to 80 % of the cap, oldest first
    ({"d1": 50, "d2": 30, "d3": 20}, 40, {"d1", "d2"}),
    ({"d1": 500}, 10, set()),  # never the newest day
])
def test_the_size_cap_folds_the_oldest_days_down_to_80_percent(sizes, cap, folded) -> None:
    assert days_to_fold(sizes, cap) == folded


def test_what_leaves_is_folded_and_what_stays_is_written_line_by_line() -> None:
    base, keep = Aggregate(), io.BytesIO()
    stays = _raw(11)
    lines = _lines(_raw(0), _raw(5), b"not json", stays)
    leaves = leaving(CUTOFF, {"2026-11-06"})  # retention takes day 0, the cap day 5
    assert prune_into(lines, leaves, base, keep) == 2
    assert base.events == 2 and keep.getvalue() == stays + b"\n"  # the unreadable line is the store's to keep


def _store_with_days(tmp_path: Path, *days: int) -> HistoryStore:
    store = HistoryStore(project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 10\n"))
    with store.transaction() as tx:
        tx.append([make_event(f"src/m{day}.py::f::abc_max", when=at(day)) for day in days])
    return store


def test_a_prune_folds_what_retention_takes_and_the_history_is_the_same(tmp_path: Path) -> None:
    store = _store_with_days(tmp_path, 0, 20)
    with store.transaction() as tx:
        before = tx.history.to_json()
        assert tx.state is not None and prune_log(store, tx.state, at(21))
        assert tx.state.aggregate.to_json() == before and tx.state.generation == 1
    assert [e.timestamp[:10] for e in store.read_log(0).events] == ["2026-11-21"]
    assert store.folded()[0].events == 1 and not store.journal_path.exists()
    with store.transaction() as tx:
        assert tx.state is not None and not prune_log(store, tx.state, at(21))  # nothing left to fold


def test_a_journal_left_by_a_killed_prune_is_finished_and_a_damaged_one_kept_aside(tmp_path: Path) -> None:
    store = _store_with_days(tmp_path, 20)
    staged = store.dir / f".{store.log.name}.staged"
    staged.write_bytes(b"")  # the new log a prune wrote before it was killed: empty, all folded
    store.journal_path.write_text(json.dumps({"folded": "", "log": str(staged)}))
    commit_journal(store)
    assert store.log.read_bytes() == b"" and not store.journal_path.exists() and not staged.exists()
    store.journal_path.write_text("{not json")
    commit_journal(store)
    assert [p.name.startswith("prune.journal.damaged-") for p in store.dir.iterdir()].count(True) == 1
    assert any("not a prune journal" in w for w in store.warnings)


def test_a_journal_naming_files_elsewhere_moves_nothing(tmp_path: Path) -> None:
    store = _store_with_days(tmp_path, 20)
    log = store.log.read_bytes()
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text("")
    store.journal_path.write_text(json.dumps({"folded": "", "log": str(outside)}))
    commit_journal(store)
    assert store.log.read_bytes() == log and outside.exists() and not store.journal_path.exists()


def test_combine_appends_each_new_event_once_and_counts_the_rest(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    store = HistoryStore(project_settings(tmp_path / "mine"))
    known = make_event(unit_hash="v1")
    with store.transaction() as tx:
        tx.append([known], as_written=True)
    other = tmp_path / "other.jsonl"
    fresh = make_event(unit_hash="v2")
    other.write_text("".join(e.to_json() + "\n" for e in (known, fresh, fresh)) + "garbage\n")
    assert combine(store, [other], force=True) == (1, 2, 1)  # force: make_event's records name project "repo"
    assert [e.event_id for e in store.read_log(0).events] == [known.event_id, fresh.event_id]


def test_combine_refuses_a_log_of_a_newer_schema(tmp_path: Path) -> None:
    store = HistoryStore(project_settings(tmp_path))
    newer = tmp_path / "newer.jsonl"
    newer.write_text(json.dumps({"schema_version": 99, "kind": "anything"}) + "\n")
    with pytest.raises(LadderError, match="written by a newer ladder-plugins"):
        combine(store, [newer])


def test_an_empty_survey_is_nothing_to_fold() -> None:
    assert Survey() == survey([], CUTOFF)
