"""``ladder feedback`` end to end on a project with every kind of source: memory files, rules files, hooks,
tool configuration and a LAD history. The JSON report is pinned by ``tests/golden/feedback.json``
(``LADDER_UPDATE_GOLDEN=1`` rewrites it, to be read before it is committed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .reports_helpers import FINAL, ladder, three_edits

GOLDEN = Path(__file__).parent / "golden" / "feedback.json"
WHEN = 1793000000  # 2026-10-26, the memory files' time: a memory's date is its file's

MEMORY = {
    "feedback_bare_except.md": "---\nname: no bare except\ndescription: never write a bare except clause\n"
                               "type: feedback\n---\nA bare except clause hides real errors.\n"
                               "**Why:** it swallowed a KeyboardInterrupt.\n",
    "feedback_except_again.md": "---\nname: bare except again\ndescription: a bare except clause came back\n"
                                "metadata:\n  type: feedback\n---\nCatch the specific exception, not a bare except.\n",
    "feedback_small_prs.md": "---\nname: small pull requests\ndescription: keep pull requests small\n"
                             "type: feedback\n---\nSplit pull requests of more than 400 lines.\n",
    "feedback_small_prs_again.md": "---\nname: pull request too big\ndescription: this pull request is too big, "
                                   "keep them small\ntype: feedback\n---\n",
    "feedback_print.md": "---\nname: print calls\ndescription: do not leave print calls in the code\n"
                         "type: feedback\n---\n",
    "feedback_print_again.md": "---\nname: print again\ndescription: a print call was left in again\n"
                               "type: feedback\n---\n",
    "user_role.md": "---\nname: role\ntype: user\n---\nThe user is a data scientist.\n",
    "MEMORY.md": "- [No bare except](feedback_bare_except.md) — exceptions\n",
}
PROJECT = {
    "CLAUDE.md": "# Conventions\n\n- Keep pull requests small and focused.\n- Remove debug print calls before "
                 "committing.\n",
    ".claude/rules/errors.md": "---\npaths:\n  - src/**/*.py\n---\n- Never use a bare except clause.\n",
    ".claude/settings.json": json.dumps({"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "ruff check --select I --fix"}]}]}}),
    "setup.cfg": "[flake8]\nextend-select = E722\n",
    ".coveragerc": "[report]\nfail_under = 90\n",
}


def _project(tmp_path: Path) -> tuple[Path, Path]:
    project = three_edits(tmp_path / "shop")  # price() is a recurring hotspot of three rules
    for rel, text in PROJECT.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    memory = tmp_path / "memory"
    memory.mkdir()
    for name, text in MEMORY.items():
        (memory / name).write_text(text)
        os.utime(memory / name, (WHEN, WHEN))
    return project, memory


def _feedback(project: Path, memory: Path, *args: str):
    return ladder(["feedback", *args, "--memory-dir", str(memory)], project, LADDER_NOW=FINAL,
                  HOME=str(project.parent / "home"))


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    project, memory = _project(tmp_path_factory.mktemp("tracker"))
    first = _feedback(project, memory, "scan")
    assert first.returncode == 0, first.stderr
    return project, memory


def test_the_report_is_the_golden_one(scanned):
    project, memory = scanned
    done = _feedback(project, memory, "report", "--format", "json")
    assert done.returncode == 0, done.stderr
    if os.environ.get("LADDER_UPDATE_GOLDEN"):
        GOLDEN.write_text(done.stdout + "\n")
    assert json.loads(done.stdout) == json.loads(GOLDEN.read_text())


def test_scanning_again_changes_nothing(scanned):
    project, memory = scanned
    state = project / ".claude" / "feedback-ladder-state.json"
    before = state.read_bytes()
    again = _feedback(project, memory, "scan")
    assert again.returncode == 0 and "0 new items and 0 new occurrences" in again.stdout, again.stdout
    assert state.read_bytes() == before


def test_the_markdown_report_is_the_seeds_layout(scanned):
    project, memory = scanned
    text = _feedback(project, memory, "report", "--no-scan").stdout
    heads = [line for line in text.splitlines() if line.startswith("#")]
    assert heads[:3] == ["## Feedback Encoding Ladder Analysis", "### State file: .claude/feedback-ladder-state.json",
                         "### Items Requiring Promotion"]
    assert "### Already Appropriately Encoded" in heads and heads[-1] == "### Summary"
    assert "- Most urgent promotion: " in text


def test_a_seed_written_state_file_round_trips_through_a_scan(tmp_path):
    project, memory = _project(tmp_path)
    state = project / ".claude" / "feedback-ladder-state.json"
    seed = {"version": 1, "written_by": "the seed's skill", "feedbacks": [{
        "id": "no-merge-without-tests", "topic": "Do not merge without tests", "keywords": ["test", "merge"],
        "occurrences": 3, "first_seen": "2026-04-10", "last_seen": "2026-04-16", "current_level": 1,
        "current_location": "MEMORY.md feedback entry", "recommended_level": 4, "promoted": False,
        "owner": "team-a"}]}
    state.write_text(json.dumps(seed))
    assert _feedback(project, memory, "scan").returncode == 0
    data = json.loads(state.read_text())
    mine = next(i for i in data["feedbacks"] if i["id"] == "no-merge-without-tests")
    assert data["written_by"] == "the seed's skill" and mine["owner"] == "team-a" and mine["occurrences"] == 3
    assert set(mine) - set(seed["feedbacks"][0]) <= {"ladder"}


def test_check_fails_only_after_grace_days(tmp_path):
    project, memory = _project(tmp_path)
    assert "off" in _feedback(project, memory, "check").stdout
    with (project / "pyproject.toml").open("a") as handle:
        handle.write("\n[tool.ladder.feedback]\ngrace_days = 3\n")
    assert _feedback(project, memory, "check").returncode == 0  # due from today on: not late yet
    late = ladder(["feedback", "check", "--memory-dir", str(memory)], project, LADDER_NOW="2026-11-20T00:00:00Z",
                  HOME=str(project.parent / "home"))
    assert late.returncode == 1 and "past grace_days = 3" in late.stdout, late.stdout + late.stderr


def test_the_tracker_recommends_and_never_edits_the_project(scanned):
    project, memory = scanned
    for rel, text in PROJECT.items():
        assert (project / rel).read_text() == text


def _overdue_project(pytester, grace: str) -> None:
    """A project whose one tracked item has needed promotion since 2026-01-01."""
    pytester.makepyprojecttoml(f'[tool.ladder]\npaths = ["shop.py"]\n[tool.ladder.feedback]\n{grace}')
    pytester.makepyfile(shop="def price(a):\n    return a\n")
    state = pytester.path / ".claude" / "feedback-ladder-state.json"
    state.parent.mkdir(exist_ok=True)
    state.write_text(json.dumps({"version": 1, "feedbacks": [{
        "id": "small-prs", "topic": "keep pull requests small", "keywords": ["pull", "request", "small"],
        "occurrences": 2, "first_seen": "2026-01-01", "last_seen": "2026-01-01", "current_level": 1,
        "current_location": "a review", "recommended_level": 2, "promoted": False,
        "ladder": {"sources": [], "due_since": "2026-01-01"}}]}))


def test_pytest_has_the_check_as_one_item_when_grace_days_is_set(pytester, monkeypatch):
    monkeypatch.setenv("LADDER_NOW", FINAL)
    monkeypatch.setenv("HOME", str(pytester.path / "home"))
    _overdue_project(pytester, "grace_days = 30\n")
    state = (pytester.path / ".claude" / "feedback-ladder-state.json").read_bytes()
    result = pytester.runpytest("-p", "no:cacheprovider", "--ladder", "--ladder-no-record", "-v")
    result.stdout.fnmatch_lines(["*feedback-ladder::ladder FAILED*", "*small-prs: needs promotion since 2026-01-01*"])
    assert (pytester.path / ".claude" / "feedback-ladder-state.json").read_bytes() == state  # scanned, not written
    _overdue_project(pytester, "")
    assert "feedback-ladder" not in pytester.runpytest("-p", "no:cacheprovider", "--ladder", "-v").stdout.str()


def test_doctor_and_the_html_report_read_the_state_without_changing_it(tmp_path):
    project, memory = _project(tmp_path)
    assert _feedback(project, memory, "scan").returncode == 0
    state = project / ".claude" / "feedback-ladder-state.json"
    before = state.read_bytes()
    doctor = ladder(["doctor"], project, LADDER_NOW=FINAL)
    assert "feedback state: .claude/feedback-ladder-state.json, " in doctor.stdout, doctor.stdout
    page = tmp_path / "report.html"
    assert ladder(["report", "--html", str(page)], project, LADDER_NOW=FINAL).returncode == 0
    assert "<h2>Feedback ladder</h2>" in page.read_text() and "Promotions due" in page.read_text()
    assert state.read_bytes() == before
    state.write_text("{damaged")
    damaged = ladder(["doctor"], project, LADDER_NOW=FINAL)
    assert damaged.returncode == 1 and "feedback state .claude/feedback-ladder-state.json: not readable JSON" in \
        damaged.stdout
    assert state.read_text() == "{damaged"
