"""Issue 33: Report #0, the start contract, is written within one minute of the start (the skill's §1), and a
FINAL REPORT's ``loops:`` counts the loops the skill counts, a loop whose report is typed synthesis among them."""

from __future__ import annotations

import pytest

from ladder_plugins.worklog.lint import check_log
from ladder_plugins.worklog.parse import parse_text

from tests.helpers import paths

VALID_FULL = (paths.DATA / "worklog" / "valid_full.md").read_text(encoding="utf-8")
CONTRACT_HEADER = "=== Report #0 | lines: 16 | elapsed: 00:40 | type: milestone ==="


@pytest.mark.parametrize("elapsed, late", [("00:00", False), ("00:59", False), ("01:00", False), ("01:01", True),
                                           ("09:00", True), ("120:00", True)])
def test_the_start_contract_is_written_within_one_minute(elapsed, late):
    text = VALID_FULL.replace(CONTRACT_HEADER, CONTRACT_HEADER.replace("00:40", elapsed))
    found = [(p.rule.key, p.message) for p in check_log(parse_text(text)).problems]
    if not late:
        assert found == []
        return
    line = text.split("\n").index(CONTRACT_HEADER.replace("00:40", elapsed)) + 1
    assert [key for key, _ in found] == ["worklog_contract_value"]
    assert found[0][1] == (f"line {line}: Report #0, the start contract, has elapsed: {elapsed}; the skill writes it "
                           "within one minute of the start (elapsed 01:00 at most), before any work")


def test_a_loop_typed_synthesis_is_counted_by_loops_and_total_feedback_loops():
    """valid_full's Report #5 is a loop (DIAGNOSE, PROPOSE, TEST, UPDATE, META): typed synthesis, it is still one
    of the three loops its FINAL REPORT counts."""
    old = "=== Report #5 | lines: 6 | elapsed: 26:40 | type: feedback ==="
    assert old in VALID_FULL
    text = VALID_FULL.replace(old, old.replace("feedback", "synthesis"))
    assert check_log(parse_text(text)).problems == ()


def test_a_synthesis_without_loop_steps_is_no_loop_and_loops_says_so():
    old = "=== FINAL REPORT | elapsed: 32:10 | loops: 3 ==="
    text = VALID_FULL.replace(old, old.replace("loops: 3", "loops: 4")).replace(
        "total_feedback_loops: 3", "total_feedback_loops: 4")
    found = [p for p in check_log(parse_text(text)).problems]
    assert [(p.rule.key, p.line) for p in found] == [("worklog_final", 1), ("worklog_final", 4)]
    assert "its session has 3 loop reports" in found[0].message
    assert "records two of the loop's steps" in found[0].message
