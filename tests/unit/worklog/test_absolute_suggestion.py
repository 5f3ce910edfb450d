"""Issue 33: LAD311's message gives the relative reference that names the same report, counted by place from the
report the absolute one is in (a FINAL REPORT between them is a place), not one fixed example."""

from __future__ import annotations

from ladder_plugins.worklog.lint import check_log
from ladder_plugins.worklog.parse import header_text, parse_text


def log(*reports: tuple[int, str]) -> str:
    lines: list[str] = []
    for number, body in reports:
        block = body.split("\n")
        head = "=== FINAL REPORT | elapsed: 20:00 | loops: 1 ===" if number < 0 else header_text(
            number, len(block) + 1, "10:00", "feedback")
        lines += (["---"] if lines else []) + [head, *block]
    return "\n".join(lines) + "\n"


def absolute(text: str) -> list[str]:
    """The LAD311 messages in the order their references stand in the text."""
    found = [p.message for p in check_log(parse_text(text)).problems if p.rule.key == "worklog_absolute_reference"]
    return sorted(found, key=lambda m: text.index(m.split("'")[1], text.index("\n")))


def test_the_suggestion_is_the_real_distance_to_the_named_report():
    text = log((5, "DIAGNOSE: contradicts the finding in Report #3 and R#1."), (4, "A."), (3, "B.\nC."), (2, "D."),
               (1, "E."))
    first, second = absolute(text)
    assert first == ("line 2: 'Report #3' in Report #5 names a report absolutely; inside a body name it relatively: "
                     "'2-reports-below' (Report #3 is the 2nd report below; add ', line N below' for its N-th line), "
                     "which survives reports added on top")
    assert "'4-reports-below'" in second and "'2-reports-below'" not in second


def test_one_report_below_is_singular_and_a_final_report_between_is_a_place():
    text = log((3, "See Report #2 and Report #1."), (2, "A."), (-1, "end_time: 10:00"), (1, "B."))
    first, second = absolute(text)
    assert "'1-report-below'" in first
    assert "'3-reports-below'" in second


def test_a_report_that_is_not_below_is_named_as_such():
    text = log((2, "Compare Report #7 and Report #2."), (1, "A."))
    missing, itself = absolute(text)
    assert "no Report #7 stands below Report #2" in missing and "-below'" not in missing
    assert "Report #2 is this report itself" in itself
