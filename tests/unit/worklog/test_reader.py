"""``worklog.reader.read_reports``: the newest reports of a work log, read by their headers as the skill's
protocol reads them; a header the protocol cannot trust stops the reading with an error naming the file,
its line and the report, and what was read before it is kept."""

from __future__ import annotations

from ladder_plugins.worklog.parse import header_text, parse_text
from ladder_plugins.worklog.reader import Reading, read_reports


def _report(number, *body, lines=None):
    return [header_text(number, len(body) + 1 if lines is None else lines, "05:00", "feedback"), *body]


def _log(*reports, path="work-log.md", preamble=()):
    lines = list(preamble)
    for block in reports:
        lines += (["---"] if lines and not preamble else []) + block
        preamble = ()
    return parse_text("\n".join(lines) + "\n", path)


R3 = _report(3, "DIAGNOSE: three.", "TEST: pass.")
R2 = _report(2, "DIAGNOSE: two.")
R1 = _report(1, "DIAGNOSE: one.", "", "TEST: after a blank line.")


def test_the_newest_reports_separated_as_the_log_is():
    got = read_reports(_log(R3, R2, R1), 2)
    assert got == Reading("\n".join(R3) + "\n---\n" + "\n".join(R2) + "\n")
    assert got.problem is None


def test_a_count_over_the_reports_reads_them_all_and_zero_reads_none():
    log = _log(R3, R2, R1)
    assert read_reports(log, 10).text.count("=== Report #") == 3
    assert read_reports(log, 10).text.endswith("TEST: after a blank line.\n")
    assert read_reports(log, 0) == Reading("")


def test_a_wrong_count_stops_the_reading_at_that_report(tmp_path):
    wrong = _report(2, "DIAGNOSE: two.", lines=5)
    got = read_reports(_log(R3, wrong, R1, path="logs/w.md"), 3)
    assert got.text == "\n".join(R3) + "\n"
    assert got.problem == ("logs/w.md:5: Report #2 declares lines: 5, but has 2; reading by its header would go "
                           "wrong here. Run 'ladder worklog correct' to write a correction report")


def test_a_malformed_header_stops_the_reading_naming_its_line():
    bad = ["=== Report #2 | lines: two | elapsed: 05:00 | type: feedback ===", "DIAGNOSE: two."]
    got = read_reports(_log(R3, bad), 3)
    assert got.text == "\n".join(R3) + "\n"
    assert got.problem is not None and got.problem.startswith("work-log.md:5: ")
    assert "header cannot be read (" in got.problem


def test_a_count_of_more_than_nine_digits_is_not_trusted():
    huge = [header_text(1, 1234567890, "05:00", "feedback"), "DIAGNOSE: one."]
    got = read_reports(_log(huge), 1)
    assert got.text == ""
    assert got.problem == ("work-log.md:1: Report #1's count cannot be read (more than 9 digits), so its end is "
                           "not known")


def test_a_log_that_does_not_start_with_a_header_cannot_be_read():
    got = read_reports(_log(R1, preamble=["notes first"]), 1)
    assert got.text == ""
    assert got.problem == ("work-log.md:1: line 1 is not a report header, so the protocol cannot start; "
                           "ladder worklog check says what is there")


def test_an_empty_log_reads_nothing():
    assert read_reports(parse_text(""), 3) == Reading("")
