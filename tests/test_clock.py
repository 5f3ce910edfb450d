"""A run whose clock is ahead never prunes away what a correct clock keeps."""

from __future__ import annotations

import pytest

from ladder_plugins.history.recurrence import hotspots
from ladder_plugins.history.store import HistoryStore

from .history_helpers import at, make_event, project_settings

RUNS = '[tool.ladder.recurrence]\ncount = "runs"\n'
FP = "src/a.py::f::cognitive_max"


def _recorded(settings, day, run_id, fp=FP):
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(fp, unit_hash="v1", when=at(day), run_id=run_id)], now=at(day))
    return store


def _three_runs_on_two_days(settings):
    for day, run in ((0, "r0"), (0, "r1"), (1, "r2")):
        _recorded(settings, day, run)


@pytest.mark.parametrize("ahead_days", [100, 400, 5000])
def test_a_run_far_ahead_keeps_the_hotspots_a_correct_clock_keeps(tmp_path, ahead_days):
    settings = project_settings(tmp_path, RUNS)
    _three_runs_on_two_days(settings)
    assert [r.fingerprint for r in hotspots(HistoryStore(settings).load().aggregate, settings, at(2))] == [FP]
    skewed = _recorded(settings, 1 + ahead_days, "skewed", fp="src/b.py::g::abc_max")
    assert len(skewed.warnings) == 1 and "clock" in skewed.warnings[0]
    history = HistoryStore(settings).load().aggregate
    assert [r.fingerprint for r in hotspots(history, settings, at(2))] == [FP]
    assert history.fingerprints[FP].runs.keys() == {"r0", "r1", "r2"}


def test_a_clock_a_little_ahead_prunes_no_more_than_the_history_allows(tmp_path):
    """80 days ahead (under the 90 of retention) would fold everything older than 10 days: it may not."""
    settings = project_settings(tmp_path, RUNS)
    _three_runs_on_two_days(settings)
    _recorded(settings, 30, "r3")
    store = _recorded(settings, 30 + 80, "skewed")
    assert store.warnings == []  # within retention: kept quietly, nothing to say
    assert HistoryStore(settings).read_log(0).events[0].run_id == "r0"  # day 0 is still in the log


def test_after_a_real_pause_the_next_run_prunes_as_usual(tmp_path):
    settings = project_settings(tmp_path, RUNS)
    _three_runs_on_two_days(settings)
    _recorded(settings, 200, "after-a-pause")  # goes by the history's time: keeps day 0
    assert any(e.run_id == "r0" for e in HistoryStore(settings).read_log(0).events)
    _recorded(settings, 201, "next-day")  # the history's newest other run is now day 200
    assert {e.run_id for e in HistoryStore(settings).read_log(0).events} == {"after-a-pause", "next-day"}
