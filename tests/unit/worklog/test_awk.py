"""The seed's awk one-liner, run with real gawk on every fixture: our emulation prints what it prints, and every
fixture where its MISMATCH lines and our ``worklog_lines`` problems disagree is in :data:`DIFFERENCES`, with the
class of the difference, which our problems or notes explain in words."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path
import pytest

from ladder_plugins.worklog.lint import awk_output, check_file
from ladder_plugins.worklog.parse import WorkLog, read_log

from tests.helpers import paths

DATA = paths.DATA / "worklog"
SEED = paths.REPO.parent / "shared" / "seeds" / "003_f52dc1e5f6a3fb65.txt"

#: verbatim from the seed (§2.6), file name and all
SEED_COMMAND = r"""awk '/^=== Report/{if(NR>1 && declared!=count){print "MISMATCH at line "start": declared="declared" actual="count} start=NR; match($0,/lines: ([0-9]+)/,a); declared=a[1]; count=0} /^=== Report/||!/^(---|$)/{count++} END{if(declared!=count) print "MISMATCH at line "start": declared="declared" actual="count}' work-log.md"""
PROGRAM = SEED_COMMAND[len("awk '"):-len("' work-log.md")]
GAWK = shutil.which("gawk")
pytestmark = pytest.mark.skipif(GAWK is None, reason="gawk is not on PATH: the seed's one-liner uses gawk's "
                                "3-argument match(), which mawk and BSD awk lack (CI installs gawk)")
_VERDICT = re.compile(r"^MISMATCH at line (?P<start>[0-9]*): declared=(?P<declared>.*) actual=(?P<actual>[0-9]+)$")

#: the classes of difference, each with the words our messages explain it with
CLASSES = {
    "interior blank lines": "blank line inside the report",
    "interior '---' lines": "starting with '---' inside the report",
    "whitespace-only lines": "of only spaces after the last content line",
    "CRLF line endings": "ending in a carriage return (CRLF line endings)",
    "lines above the first header (a preamble, the FINAL REPORT on top)": "above its first '=== Report' header",
    "a header awk does not see (malformed, or a FINAL REPORT below a report)": "does not start with '=== Report'",
    "a header awk reads no count in": "no count it can read",
    "a mismatch a correction report acknowledges": "acknowledges it",
}
#: every fixture where the one-liner and we name different header lines, with the classes that explain it
DIFFERENCES = {
    "contract_valid": ("interior blank lines",),
    "correction_valid": ("a mismatch a correction report acknowledges",),
    "final_fields": ("lines above the first header (a preamble, the FINAL REPORT on top)",),
    "final_empty_session": ("lines above the first header (a preamble, the FINAL REPORT on top)",),
    "final_resumed": ("a header awk does not see (malformed, or a FINAL REPORT below a report)",),
    "final_session_loops": ("lines above the first header (a preamble, the FINAL REPORT on top)",
                            "a header awk does not see (malformed, or a FINAL REPORT below a report)"),
    "final_wrong_loops": ("lines above the first header (a preamble, the FINAL REPORT on top)",),
    "gate_incomplete": ("lines above the first header (a preamble, the FINAL REPORT on top)",),
    "gate_not_closed": ("a header awk does not see (malformed, or a FINAL REPORT below a report)",
                        "a mismatch a correction report acknowledges", "interior blank lines"),
    "header_malformed": ("a header awk does not see (malformed, or a FINAL REPORT below a report)",),
    "header_no_lines": ("a header awk reads no count in",),
    "header_preamble": ("lines above the first header (a preamble, the FINAL REPORT on top)",),
    "lines_crlf": ("CRLF line endings",),
    "lines_interior_blank": ("interior blank lines",),
    "lines_interior_blank_right": ("interior blank lines",),
    "lines_interior_dash": ("interior '---' lines",),
    "lines_trailing_spaces": ("whitespace-only lines",),
    "valid_sessions": ("lines above the first header (a preamble, the FINAL REPORT on top)",
                       "a header awk does not see (malformed, or a FINAL REPORT below a report)",
                       "a mismatch a correction report acknowledges", "interior blank lines"),
    "valid_full": ("lines above the first header (a preamble, the FINAL REPORT on top)",
                   "a mismatch a correction report acknowledges", "interior blank lines"),
}
#: the fixture that is not UTF-8: we read nothing of it (one worklog_unreadable problem), gawk reads its bytes
UNREADABLE = "unreadable_latin1"
FIXTURES = sorted(p.stem for p in DATA.glob("*.md") if p.stem != UNREADABLE)


def gawk(file: Path) -> list[str]:
    """What the seed's one-liner prints for ``file``."""
    env = {**os.environ, "LC_ALL": "C"}
    done = subprocess.run([str(GAWK), PROGRAM, str(file)], capture_output=True, text=True, check=True, env=env)
    return done.stdout.splitlines()


def starts(lines: list[str]) -> list[int]:
    """The header lines its MISMATCH lines name (0 for 'line :', the lines above its first header)."""
    return sorted(int(_VERDICT.match(line)["start"] or 0) for line in lines)


def predicted(log: WorkLog) -> dict[int, int]:
    """Its ``actual=`` for each header it sees, from our reports' ``awk_count``: that report's, plus those of the
    reports below it whose headers it does not see, up to the next it does (0: the stretch above its first)."""
    totals: dict[int, int] = {}
    start = 0
    for report in log.reports:
        start = report.start if report.header.startswith("=== Report") else start
        totals[start] = totals.get(start, 0) + report.awk_count
    return totals


def test_the_one_liner_is_the_seeds_own():
    if not SEED.is_file():
        pytest.skip(f"the seed is not beside this checkout ({SEED})")
    assert SEED_COMMAND in SEED.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", FIXTURES)
def test_our_emulation_prints_what_gawk_prints(name):
    file = DATA / f"{name}.md"
    assert awk_output(read_log(file)) == gawk(file)


@pytest.mark.parametrize("name", FIXTURES)
def test_awk_count_predicts_gawks_actual_for_every_header_it_names(name):
    file = DATA / f"{name}.md"
    log = read_log(file)
    named = [_VERDICT.match(line) for line in gawk(file)]
    totals = predicted(log)
    assert [totals.get(int(m["start"])) for m in named if m["start"]] == [int(m["actual"]) for m in named if m["start"]]


@pytest.mark.parametrize("name", FIXTURES)
def test_every_difference_from_the_one_liner_is_listed_and_explained(name):
    file = DATA / f"{name}.md"
    result = check_file(file)
    ours = sorted(p.line for p in result.problems if p.rule.key == "worklog_lines")
    theirs = starts(gawk(file))
    assert (ours != theirs) == (name in DIFFERENCES), (ours, theirs)
    said = " | ".join(p.message for p in (*result.problems, *result.notes))
    assert [c for c in DIFFERENCES.get(name, ()) if CLASSES[c] not in said] == []


def test_every_class_of_difference_has_a_fixture():
    assert sorted({c for classes in DIFFERENCES.values() for c in classes}) == sorted(CLASSES)


LINES = ["=== Report #3 | lines: 2 | elapsed: 01:00 | type: feedback ===", "=== Report #2 | lines: 007 | x ===",
         "=== Report #1 | elapsed: 01:00 | type: feedback ===", "=== Reports to come", " === Report #4 | lines: 1",
         "== Report #5 | lines: 2", "=== FINAL REPORT | elapsed: 01:00 | loops: 1 ===", "---", "---\r", "  ---",
         "--- x", "----", "", "\r", "   ", " \r", "text", "text\r", "CORRECTION: 1-report-below", "日本語", "=== report #6"]


@pytest.mark.parametrize("seed", range(30))
def test_our_emulation_matches_gawk_on_random_logs(seed, tmp_path):
    rng = random.Random(seed)
    file = tmp_path / "work-log.md"
    file.write_bytes("\n".join(rng.choice(LINES) for _ in range(rng.randint(0, 40))).encode("utf-8"))
    assert awk_output(read_log(file)) == gawk(file)
