"""Count mode (issue 33): the skill's §5 has every report header log 'loop N of M' when the contract sets
min_required_loops and not min_required_minutes. The header's ``| loop: N of M`` field is read, checked against
the loops below it and the contract, and written by ``worklog add`` and ``worklog correct``; what counts as a loop
is what the skill counts (a synthesis report that records a loop's steps is one)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.worklog.final import feedback_reports
from ladder_plugins.worklog.lint import check_file, check_log
from ladder_plugins.worklog.loops import is_loop, loop_numbers
from ladder_plugins.worklog.parse import header_text, parse_text, read_log
from ladder_plugins.worklog.writer import LogFile, Timing, add_report, correct_log

COUNT_CONTRACT = """task_type: code
task_goal: Make the importer idempotent.
in_scope: importer, its tests
out_of_scope: the web UI
min_required_minutes: null
min_required_loops: 3
done_definition:
  - a second import changes nothing
deliverables: a patch, a test
as_of_date: 2026-12-01
start_time: 09:00
"""
TIME_CONTRACT = COUNT_CONTRACT.replace("min_required_minutes: null", "min_required_minutes: 30").replace(
    "min_required_loops: 3", "min_required_loops: null")
LOOP = "DIAGNOSE: rows are inserted twice.\nPROPOSE: upsert by natural key.\nTEST: import twice: {}.\n"


def log_file(tmp_path: Path) -> LogFile:
    return LogFile(tmp_path / "work-log.md", "work-log.md", tmp_path / ".lock")


def write(target: LogFile, body: str, kind: str, elapsed: str, loop: str | None = None) -> None:
    add_report(target, body, kind, Timing(datetime.now(timezone.utc), elapsed), loop=loop)


def count_session(tmp_path: Path) -> LogFile:
    """A count-mode session written by the writer: the contract, the initial pass's synthesis, three loops (the
    second typed synthesis, as the skill allows), a milestone, all under headers it computed."""
    target = log_file(tmp_path)
    write(target, COUNT_CONTRACT, "milestone", "00:30")
    write(target, "FIRST SYNTHESIS: candidates C1-C3.\nConfidence: C1 0.6.\n", "synthesis", "04:00")
    write(target, LOOP.format("one row"), "feedback", "09:00")
    write(target, LOOP.format("still one row").replace("TEST", "UPDATE"), "synthesis", "15:00")
    write(target, "MILESTONE: importer merged.\n", "milestone", "16:00")
    write(target, LOOP.format("no change"), "feedback", "21:00")
    return target


def test_a_header_with_loop_n_of_m_is_in_its_form():
    log = parse_text("=== Report #2 | lines: 2 | elapsed: 14:30 | type: feedback | loop: 2 of 3 ===\nDIAGNOSE: x\n")
    report = log.reports[0]
    assert report.malformed is None and report.loop == "2 of 3" and loop_numbers(report.loop) == (2, 3)
    assert header_text(2, 2, "14:30", "feedback", (2, 3)) == report.header


def test_a_count_mode_log_written_by_add_carries_loop_n_of_m_and_passes(tmp_path):
    target = count_session(tmp_path)
    log = read_log(target.path)
    assert [r.loop for r in log.reports] == ["3 of 3", "2 of 3", "2 of 3", "1 of 3", "0 of 3", "0 of 3"]
    result = check_file(target.path)
    assert result.passed, result.problems


def test_a_synthesis_report_that_records_a_loop_is_a_loop():
    """The loops are the reports that record a loop's steps (two of DIAGNOSE, PROPOSE, TEST, UPDATE, META) or are
    typed feedback: not the initial pass's synthesis, not a milestone."""
    log = mixed_log()
    assert [r.number for r in feedback_reports(log)] == [5, 3, 2]
    assert not is_loop(log.reports[-1]) and not is_loop(log.reports[1])


def mixed_log():
    lines: list[str] = []
    bodies = [(5, "feedback", LOOP.format("ok")), (4, "milestone", "MILESTONE: merged."),
              (3, "synthesis", "DIAGNOSE: D2 is weak.\nPROPOSE: inversion.\nUPDATE: D2 0.65."),
              (2, "feedback", LOOP.format("ok")), (1, "synthesis", "FIRST SYNTHESIS: C1-C3.\nUPDATE: notes moved.")]
    for number, kind, body in bodies:
        body_lines = body.strip().split("\n")
        lines += (["---"] if lines else []) + [header_text(number, len(body_lines) + 1, "10:00", kind), *body_lines]
    return parse_text("\n".join(lines) + "\n")


def test_count_mode_without_loop_in_a_header_is_a_header_problem(tmp_path):
    target = count_session(tmp_path)
    text = target.path.read_text().replace(" | loop: 2 of 3 ===", " ===", 1)
    problems = check_log(parse_text(text)).problems
    assert [(p.rule.key, p.line) for p in problems] == [("worklog_header", 6)]
    assert "count mode" in problems[0].message and "'| loop: 2 of 3'" in problems[0].message


@pytest.mark.parametrize("old, new, said", [
    ("loop: 3 of 3", "loop: 2 of 3", "loop 3 of 3"),
    ("loop: 3 of 3", "loop: 3 of 4", "min_required_loops: 3"),
    ("loop: 3 of 3", "loop: three of 3", "'N of M'"),
])
def test_a_wrong_loop_field_is_named_with_what_it_should_say(tmp_path, old, new, said):
    target = count_session(tmp_path)
    text = target.path.read_text().replace(old, new, 1)
    problems = check_log(parse_text(text)).problems
    assert [(p.rule.key, p.line) for p in problems] == [("worklog_header", 1)], problems
    assert said in problems[0].message


def test_time_mode_needs_no_loop_field_and_add_writes_none(tmp_path):
    target = log_file(tmp_path)
    write(target, TIME_CONTRACT, "milestone", "00:30")
    write(target, LOOP.format("ok"), "feedback", "09:00")
    log = read_log(target.path)
    assert [r.loop for r in log.reports] == [None, None]
    assert check_log(log).passed


def test_add_writes_the_loop_it_is_given(tmp_path):
    target = log_file(tmp_path)
    write(target, TIME_CONTRACT, "milestone", "00:30")
    write(target, LOOP.format("ok"), "feedback", "09:00", loop="1 of 4")
    write(target, LOOP.format("ok"), "feedback", "12:00", loop="2")
    assert [r.loop for r in read_log(target.path).reports] == ["2 of 4", "1 of 4", None]


def test_add_refuses_a_loop_it_cannot_write(tmp_path):
    target = log_file(tmp_path)
    write(target, TIME_CONTRACT, "milestone", "00:30")
    before = target.path.read_bytes()
    for given, said in (("two", "expected N or 'N of M'"), ("2", "no M")):
        with pytest.raises(LadderError, match=said):
            write(target, LOOP.format("ok"), "feedback", "09:00", loop=given)
    assert target.path.read_bytes() == before


def test_a_correction_in_count_mode_carries_the_loops_so_far(tmp_path):
    target = count_session(tmp_path)
    text = target.path.read_text().replace("#2 | lines: 4", "#2 | lines: 3")
    target.path.write_text(text)
    written = correct_log(target, Timing(datetime.now(timezone.utc), "22:00"))
    log = read_log(target.path)
    assert [w.number for w in written] == [6] and log.reports[0].loop == "3 of 3"
    assert check_file(target.path).passed


def test_the_loops_below_each_report_are_counted_once_per_check_not_once_per_report(tmp_path, monkeypatch):
    from ladder_plugins.worklog import loops

    target = count_session(tmp_path)
    for minute in range(22, 60):
        write(target, LOOP.format(f"pass {minute}"), "feedback", f"{minute}:00")
    log = read_log(target.path)
    calls: list[object] = []
    counted = loops.is_loop
    monkeypatch.setattr(loops, "is_loop", lambda report: calls.append(report) or counted(report))
    assert loops.check_loops(log) == []
    assert len(calls) <= len(log.reports)  # each report once: thousands of reports stay linear
