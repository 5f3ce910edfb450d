"""Issue 33: a report ``worklog add`` writes is right by the seed's prose and by its awk one-liner alike. An
interior blank line of the body is written as a line holding one space: blank to the prose, to Markdown and to the
start contract's key block (which ends at it), yet no empty line for the one-liner, which then counts it too. A
body line that starts with '---', which the one-liner skips, is refused. When a log is right by the prose but not by
the one-liner (an editor stripped that space), ``check`` says so and how to make both agree."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.worklog.contract import contract_values
from ladder_plugins.worklog.lint import awk_output, check_file
from ladder_plugins.worklog.parse import read_log
from ladder_plugins.worklog.writer import LogFile, Timing, add_report

from tests.unit.worklog.test_awk import GAWK, gawk
from tests.unit.worklog.test_count_mode import COUNT_CONTRACT

CONTRACT = COUNT_CONTRACT + "\nAssumptions: staging mirrors production.\n"


def written(tmp_path: Path, *bodies: str) -> Path:
    target = LogFile(tmp_path / "work-log.md", "work-log.md", tmp_path / ".lock")
    for n, body in enumerate(bodies):
        add_report(target, body, "milestone" if n == 0 else "feedback", Timing(datetime.now(timezone.utc), "00:30"))
    return target.path


def test_an_interior_blank_line_is_written_as_one_space_and_both_counts_agree(tmp_path):
    file = written(tmp_path, CONTRACT, "DIAGNOSE: the count\n\n\nPROPOSE: compute it\n   \nTEST: ok\n")
    log = read_log(file)
    assert log.reports[0].body == ("DIAGNOSE: the count", " ", " ", "PROPOSE: compute it", " ", "TEST: ok")
    assert [r.declared for r in log.reports] == [r.count for r in log.reports] == [7, 14]
    assert [r.awk_count for r in log.reports] == [7, 14]
    assert awk_output(log) == []
    result = check_file(file)
    assert result.passed and result.notes == (), result
    assert contract_values(log)["start_time"] == "09:00"  # the key block still ends at the blank line


@pytest.mark.skipif(GAWK is None, reason="gawk is not on PATH (CI installs it)")
def test_real_gawk_prints_nothing_for_a_log_add_wrote(tmp_path):
    file = written(tmp_path, CONTRACT, "DIAGNOSE: a\n\nPROPOSE: b\n", "UPDATE: c\n\n\nMETA: d\n")
    assert gawk(file) == []


@pytest.mark.parametrize("line", ["---", "--- snip ---", "----"])
def test_a_body_line_starting_with_dashes_is_refused(tmp_path, line):
    file = written(tmp_path, CONTRACT)
    before = file.read_bytes()
    with pytest.raises(LadderError, match="line 2 of the body starts with '---'"):
        written(tmp_path, f"DIAGNOSE: a\n{line}\nPROPOSE: b\n")
    assert file.read_bytes() == before


def test_check_says_when_the_prose_and_the_one_liner_disagree_and_how_to_agree(tmp_path):
    file = written(tmp_path, CONTRACT, "DIAGNOSE: a\n\nPROPOSE: b\n")
    file.write_text(file.read_text().replace("\n \n", "\n\n"))  # an editor strips the trailing space
    result = check_file(file)
    assert result.passed
    messages = [n.message for n in result.notes]
    assert len(messages) == 2 and all("right" in m and "MISMATCH" in m for m in messages), messages
    assert all("a blank line holding one space is blank to both" in m for m in messages)
