"""Occurrences, hotspots, patterns: DESIGN §7, driven by a simulated clock."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings as hsettings, strategies as st

from ladder_plugins.history.aggregate import Aggregate
from ladder_plugins.history.gate import decide
from ladder_plugins.history.recurrence import area_of, hotspots, patterns, recurrences, trend

from tests.helpers.history import at, make_event, project_settings


def agg(events, runs=False):
    return Aggregate(runs).add_all(events)


def test_three_versions_over_two_days_make_a_hotspot(tmp_path):
    s = project_settings(tmp_path)
    events = [make_event(unit_hash="v1", when=at(0)), make_event(unit_hash="v2", when=at(0, 5)),
              make_event(unit_hash="v3", when=at(1))]
    (hot,) = hotspots(agg(events), s, at(1, 1))
    assert (hot.occurrences, hot.distinct_days) == (3, 2)
    assert hot.describe() == "3 versions over the limit on 2 days"


def test_three_versions_on_one_day_are_not_a_hotspot(tmp_path):
    s = project_settings(tmp_path)
    events = [make_event(unit_hash=f"v{i}", when=at(0, i)) for i in range(3)]
    assert hotspots(agg(events), s, at(0, 5)) == []


def test_the_same_version_on_five_days_is_not_a_hotspot_unless_counting_runs(tmp_path):
    events = [make_event(unit_hash="same", when=at(day)) for day in range(5)]
    s = project_settings(tmp_path)
    assert hotspots(agg(events), s, at(5)) == []
    runs = project_settings(tmp_path, '[tool.ladder.recurrence]\ncount = "runs"\n')
    (hot,) = hotspots(agg(events, runs=True), runs, at(5))
    assert (hot.occurrences, hot.distinct_days) == (5, 5)
    assert hot.describe() == "red in 5 runs on 5 days"


def test_runs_are_counted_once_per_run_id(tmp_path):
    s = project_settings(tmp_path, '[tool.ladder.recurrence]\ncount = "runs"\n')
    events = [make_event(run_id="r1", when=at(0)), make_event(run_id="r1", when=at(0)),  # flake8 + pytest, one run
              make_event(run_id="r2", when=at(1)), make_event(run_id="r3", when=at(1))]
    (rec,) = recurrences(agg(events, runs=True), s, at(2))
    assert rec.occurrences == 3


def test_yellow_and_gate_events_are_not_occurrences(tmp_path):
    s = project_settings(tmp_path)
    events = [make_event(unit_hash=f"v{i}", when=at(i), severity="yellow") for i in range(4)]
    events += [make_event(unit_hash="g", when=at(5), severity="gate-fail")]
    assert recurrences(agg(events), s, at(6)) == []


def test_events_older_than_retention_do_not_count(tmp_path):
    s = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 30\n")
    events = [make_event(unit_hash="v1", when=at(0)), make_event(unit_hash="v2", when=at(1)),
              make_event(unit_hash="v3", when=at(40))]
    (rec,) = recurrences(agg(events), s, at(41))
    assert rec.occurrences == 1  # v1 and v2 were first seen more than 30 days ago
    assert hotspots(agg(events), s, at(41)) == []
    unlimited = project_settings(tmp_path)  # the default 90 days keeps all three: a hotspot
    assert [h.occurrences for h in hotspots(agg(events), unlimited, at(41))] == [3]


def test_an_old_version_seen_again_is_not_a_new_occurrence(tmp_path):
    s = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 30\n")
    events = [make_event(unit_hash="legacy", when=at(0))] + [make_event(unit_hash="legacy", when=at(d)) for d in (35, 36)]
    assert recurrences(agg(events), s, at(37)) == []  # first sighting is outside retention


def test_thresholds_come_from_configuration(tmp_path):
    s = project_settings(tmp_path, "[tool.ladder.recurrence]\nhotspot_min_count = 2\nhotspot_min_days = 1\n")
    events = [make_event(unit_hash="v1", when=at(0)), make_event(unit_hash="v2", when=at(0, 1))]
    assert [h.occurrences for h in hotspots(agg(events), s, at(1))] == [2]


def _three_units_over_three_days():
    fps = ["src/a.py::f::cognitive_max", "src/b.py::g::abc_max", "src/c.py::h::cognitive_max"]
    return [make_event(fp, unit_hash=f"{fp}{day % (i + 1)}", when=at(day, i + repeat))
            for i, fp in enumerate(fps) for day in range(3) for repeat in (0, 1)]


def _shuffled_merges(events, count):
    """``count`` aggregates of the same events, each shuffled and built from two halves."""
    rng = random.Random(7)
    for _ in range(count):
        shuffled = rng.sample(events, len(events))
        half = len(shuffled) // 2
        yield agg(shuffled[half:]).merge(agg(shuffled[:half]))


def test_recurrence_does_not_depend_on_order(tmp_path):
    s = project_settings(tmp_path)
    events = _three_units_over_three_days()

    def summary(aggregate):
        return [(r.fingerprint, r.occurrences, r.days) for r in recurrences(aggregate, s, at(4))]

    reference = summary(agg(events))
    assert len(reference) == 3
    assert all(summary(combined) == reference for combined in _shuffled_merges(events, 20))


def test_patterns_count_the_feedback_coming_back_by_area_and_role(tmp_path):
    s = project_settings(tmp_path)
    events = []
    for n, name in enumerate(["lexer", "parser", "emitter"]):
        fp = f"src/parser/{name}.py::run::cognitive_max"
        events += [make_event(fp, unit_hash=f"{name}{v}", when=at(v, n)) for v in range(3)]
    events.append(make_event("src/other/x.py::y::cognitive_max", when=at(0)))  # a first sighting: no recurrence
    found = {(p.rule_key, p.kind, p.group): (p.recurrences, p.occurrences, p.files) for p in patterns(agg(events), s, at(3))}
    assert found == {("cognitive_max", "area", "src/parser"): (6, 9, 3), ("cognitive_max", "role", "app"): (6, 9, 3)}


def test_first_sightings_alone_are_never_a_pattern(tmp_path):
    s = project_settings(tmp_path)
    events = [make_event(f"src/m/f{n}.py::run::abc_max", when=at(n % 3)) for n in range(26)]
    events += [make_event(f"src/m/f{n}.py::run::abc_max", when=at(3, k)) for n in range(26) for k in range(3)]
    assert patterns(agg(events), s, at(4)) == []  # 26 units, each run four times unchanged: nothing came back


def test_area_is_the_first_two_directories():
    assert area_of("src/parser/deep/x.py") == "src/parser"
    assert area_of("src/x.py") == "src"
    assert area_of("x.py") == "."


def test_trend_counts_what_each_days_last_run_saw_not_how_often_tools_ran(tmp_path):
    s = project_settings(tmp_path)
    four_runs = [make_event(f"src/m.py::f{n}::cognitive_max", unit_hash="v1", run_id=f"r{k}", when=at(0, k))
                 for k in range(4) for n in range(3)]
    evening = [make_event("src/m.py::f0::cognitive_max", unit_hash="v2", run_id="late", when=at(1, 1)),
               make_event("src/m.py::f1::cognitive_max", run_id="late", when=at(1, 1), severity="yellow")]
    events = four_runs + evening
    days = dict(trend(agg(events), s, at(2)))
    assert days["2026-11-01"] == {"red": 3, "yellow": 0, "occurrences": 3}
    assert days["2026-11-02"] == {"red": 1, "yellow": 1, "occurrences": 1}
    assert all(dict(trend(combined, s, at(2))) == days for combined in _shuffled_merges(events, 10))


def test_gate_modes(tmp_path):
    s = project_settings(tmp_path)
    history = agg([make_event(unit_hash="v1", when=at(0)), make_event(unit_hash="v2", when=at(0, 3))])
    edited = [make_event(unit_hash="v3", when=at(1)), make_event("src/a.py::other::abc_max", when=at(1))]
    assert decide("advisory", edited, history, s, at(1)).failed is False
    result = decide("recurrence", edited, history, s, at(1))
    assert [f.event.fingerprint for f in result.failures] == ["src/a.py::f::cognitive_max"]
    assert "3 versions over the limit on 2 days" in result.failures[0].text
    assert result.failures[0].text.startswith("LAD900 ")
    assert len(decide("strict", edited, history, s, at(1)).failures) == 2
    unchanged = [make_event(unit_hash="v2", when=at(1))]
    assert decide("recurrence", unchanged, history, s, at(1)).failed is False


def test_gate_is_independent_of_the_order_run_events_arrive(tmp_path):
    s = project_settings(tmp_path)
    history = agg([make_event(f"src/{n}.py::f::abc_max", unit_hash=f"v{i}", when=at(i)) for n in "ab" for i in range(2)])
    run = [make_event(f"src/{n}.py::f::abc_max", unit_hash="v9", when=at(2)) for n in "abc"]

    def failing(order):
        return tuple(f.event.fingerprint for f in decide("recurrence", list(order), history, s, at(2)).failures)

    assert {failing(order) for order in itertools.permutations(run)} == {("src/a.py::f::abc_max", "src/b.py::f::abc_max")}


def _occurrences(events, settings, now=at(9)):
    (rec,) = recurrences(agg(events), settings, now)
    return rec.occurrences


def test_an_edit_that_lowers_the_violated_value_is_progress_not_recurrence(tmp_path):
    s = project_settings(tmp_path)
    working_on_it = [make_event(unit_hash="v1", actual=30, when=at(0)), make_event(unit_hash="v2", actual=20, when=at(1)),
                     make_event(unit_hash="v3", actual=18, when=at(2))]
    assert _occurrences(working_on_it, s) == 1
    assert hotspots(agg(working_on_it), s, at(3)) == []
    worse_again = working_on_it + [make_event(unit_hash="v4", actual=18, when=at(3)),
                                   make_event(unit_hash="v5", actual=25, when=at(4))]
    assert _occurrences(worse_again, s) == 3  # not lower than the version before: the feedback came back


def test_for_a_minimum_rule_progress_is_a_higher_value(tmp_path):
    s = project_settings(tmp_path)
    fp = "tests/test_a.py::test_x::min_assertions"
    rising = [make_event(fp, unit_hash="v1", actual=0, when=at(0)), make_event(fp, unit_hash="v2", actual=1, when=at(1))]
    assert _occurrences(rising, s) == 1
    falling = [make_event(fp, unit_hash="v1", actual=1, when=at(0)), make_event(fp, unit_hash="v2", actual=0, when=at(1))]
    assert _occurrences(falling, s) == 2


def test_a_new_hash_form_never_counts_as_an_edit(tmp_path):
    """Upgrading re-hashes unchanged code: that must not create an occurrence; the next real edit does."""
    s = project_settings(tmp_path)
    old = [make_event(unit_hash="a", when=at(0)), make_event(unit_hash="b", when=at(1))]
    rehashed = old + [make_event(unit_hash="a2", hash_version=2, when=at(2)),
                      make_event(unit_hash="a2", hash_version=2, when=at(3))]
    assert _occurrences(rehashed, s) == 2
    edited = rehashed + [make_event(unit_hash="c2", hash_version=2, when=at(4))]
    assert _occurrences(edited, s) == 3


def test_the_gate_does_not_fail_on_code_that_is_being_improved(tmp_path):
    s = project_settings(tmp_path)
    history = agg([make_event(unit_hash="v1", actual=40, when=at(0)), make_event(unit_hash="v2", actual=30, when=at(1))])
    improving = [make_event(unit_hash="v3", actual=20, when=at(2))]
    assert not decide("recurrence", improving, history, s, at(2)).failed
    regressing = [make_event(unit_hash="v3", actual=35, when=at(2))]
    assert not decide("recurrence", regressing, history, s, at(2)).failed  # 2 occurrences: 40, then 35 >= 30
    history = history.merge(agg(regressing))
    again = [make_event(unit_hash="v4", actual=35, when=at(3))]
    assert decide("recurrence", again, history, s, at(3)).failed


_VERSIONS = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from([1, 2]), st.integers(16, 40),
              st.integers(0, 5), st.sampled_from(["src/m.py::f::cognitive_max", "tests/t.py::t::min_assertions"])),
    min_size=1, max_size=12)


@hsettings(max_examples=60, deadline=None)
@given(rows=_VERSIONS, seed=st.integers(0, 1000))
def test_occurrences_do_not_depend_on_append_or_combine_order(tmp_path_factory, rows, seed):
    """The progress and hash-form rules keep the gate's order independence."""
    s = project_settings(tmp_path_factory.mktemp("order"))
    events = [make_event(fp, unit_hash=h, hash_version=form, actual=value, when=at(day, n))
              for n, (h, form, value, day, fp) in enumerate(rows)]
    reference = _counted(agg(events), s)
    rng = random.Random(seed)
    for _ in range(3):
        shuffled = rng.sample(events, len(events))
        cut = rng.randrange(len(shuffled) + 1)
        assert _counted(agg(shuffled[cut:]).merge(agg(shuffled[:cut])), s) == reference


def _counted(aggregate, s):
    return [(r.fingerprint, r.occurrences, r.days) for r in recurrences(aggregate, s, at(9))]


def test_the_occurrence_examples_in_metrics_md_hold(tmp_path):
    import re
    from importlib import resources

    s = project_settings(tmp_path)
    text = resources.files("ladder_plugins").joinpath("metrics.md").read_text(encoding="utf-8")
    section = text.split("## Occurrences and recurring hotspots")[1]
    rows = re.findall(r"^\| ((?:\d+ \(day \d\)(?:, )?)+) \| (\d+)", section, re.M)
    assert len(rows) == 3
    for versions, expected in rows:
        found = re.findall(r"(\d+) \(day (\d)\)", versions)
        events = [make_event(unit_hash=f"v{n}", actual=float(value), when=at(int(day), n))
                  for n, (value, day) in enumerate(found)]
        assert _occurrences(events, s) == int(expected), versions


def test_with_source_git_and_no_git_evidence_the_log_still_counts(tmp_path):
    """A front end that reads no git (the edit hook judges within its budget) keeps the log's occurrences even
    where the gate would read git alone: it leaves the log out only where git was read instead."""
    settings = project_settings(tmp_path, '[tool.ladder.recurrence]\nsource = "git"\n')
    history = agg([make_event(unit_hash="v1", when=at(0)), make_event(unit_hash="v2", when=at(1))])
    result = decide("recurrence", [make_event(unit_hash="v3", when=at(2))], history, settings, at(2))
    assert result.recurrences[0].occurrences == 3 and result.failed
