"""A run whose clock is ahead never prunes away what a correct clock keeps."""

from __future__ import annotations

import pytest

from ladder_plugins.history.recurrence import hotspots
from ladder_plugins.history.store import HistoryStore

from tests.helpers.history import at, make_event, project_settings

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


def _run_at(day, run_id="now"):
    from ladder_plugins.history.run import RunContext

    return RunContext(run_id=run_id, tool="cli", mode="recurrence", now=at(day), repo_id="repo")


@pytest.mark.parametrize("count", ["edits", "runs"])
@pytest.mark.parametrize("ahead_days", [3, 30, 4000])
def test_records_dated_after_the_clock_are_not_counted_until_then_and_a_run_says_so_once(tmp_path, count,
                                                                                         ahead_days):
    from ladder_plugins.history.recorder import record_events

    settings = project_settings(tmp_path, f'[tool.ladder.recurrence]\ncount = "{count}"\n')
    _recorded(settings, 0, "r0")
    store = HistoryStore(settings)  # a log merged from a machine whose clock was ahead: three edits and runs
    with store.transaction() as tx:
        tx.append([make_event(FP, unit_hash=f"w{n}", when=at(ahead_days + n), run_id=f"ahead{n}") for n in range(3)],
                  now=at(0))
    history = HistoryStore(settings).load().aggregate
    assert hotspots(history, settings, at(1)) == []  # one occurrence by a correct clock, not four
    assert hotspots(history, settings, at(ahead_days + 3)), "once the time has come, they count"
    said = []
    outcome = record_events([make_event(FP, unit_hash="v2", when=at(1), run_id="now")], settings, _run_at(1),
                            record=False, warn=said.append)
    assert not outcome.failed and outcome.gate.recurrences[0].occurrences == 2
    assert len([w for w in said if "clock" in w]) == 1 and "not counted" in said[0]


def test_the_trend_leaves_out_days_after_the_clock(tmp_path):
    from ladder_plugins.history.recurrence import trend

    settings = project_settings(tmp_path)
    _recorded(settings, 0, "r0")
    _recorded(settings, 40, "ahead", fp="src/b.py::g::abc_max")
    days = [day for day, _ in trend(HistoryStore(settings).load().aggregate, settings, at(1))]
    assert days == [at(0).date().isoformat()]


def test_the_read_side_says_once_that_records_lie_after_its_clock(tmp_path, monkeypatch):
    from ladder_plugins.history.view import load_view

    settings = project_settings(tmp_path, RUNS)
    for day in (0, 1, 40):
        _recorded(settings, day, f"r{day}")
    monkeypatch.setenv("LADDER_NOW", at(2).isoformat())
    said = []
    view = load_view(settings, said.append, check=False)
    assert [w for w in said if "after this run's clock" in w] == said[:1] and len(said) == 1
    assert view.recurring[0].occurrences == 2  # day 40 waits for its time
