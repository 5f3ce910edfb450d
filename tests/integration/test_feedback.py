"""``ladder feedback`` end to end on a project with every kind of source: memory files, rules files, hooks,
tool configuration and a LAD history. The JSON report is pinned by ``tests/golden/feedback.json``
(``LADDER_UPDATE_GOLDEN=1`` rewrites it, to be read before it is committed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ladder_plugins.tracker.state import StateFile

from tests.helpers.reports import FINAL, ladder, three_edits
from tests.helpers import paths

GOLDEN = paths.GOLDEN / "feedback.json"
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


# -- the state's size -----------------------------------------------------------------------------------------

def _tracked_item(n: int, **extra: object) -> dict:
    """An item as a scan leaves it (nothing for the next scan to change), with five counted sources."""
    sources = [{"identity": f"notes:{n}-{k}", "level": 1, "source": "notes", "location": f"notes.jsonl:{k}",
                "when": "2026-04-10", "text": f"do not catch a bare exception ({n}, {k})"} for k in range(5)]
    return {"id": f"item-{n}", "topic": f"item {n}", "keywords": ["bare", "except"], "occurrences": 5,
            "first_seen": "2026-04-10", "last_seen": "2026-04-10", "current_level": 4, "current_location": "x",
            "recommended_level": 3, "promoted": True, "ladder": {"sources": sources}, **extra}


def _state_file(root: Path, warned: list) -> StateFile:
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    return StateFile(root / ".claude" / "feedback-ladder-state.json", root, warned.append)


def _scan_nothing_new(state_file: StateFile) -> None:
    from datetime import date

    from ladder_plugins.tracker.scan import apply_sightings

    with state_file.updating() as state:
        apply_sightings(state.items, [], None, [], date(2026, 5, 1))


def test_a_scan_that_finds_nothing_new_never_makes_the_state_larger(tmp_path):
    """A state written compactly (by the seed's skill, by hand) stays as small: a scan does not pretty-print it."""
    state_file = _state_file(tmp_path, [])
    data = {"version": 1, "feedbacks": [_tracked_item(n) for n in range(200)]}
    state_file.path.write_text(json.dumps(data, ensure_ascii=False))
    before = state_file.path.stat().st_size
    _scan_nothing_new(state_file)
    assert json.loads(state_file.path.read_text()) == data
    assert state_file.path.stat().st_size <= before


def test_a_lone_surrogate_escape_in_the_state_is_written_back_as_it_came(tmp_path):
    """Another tool wrote "\\ud800" (valid JSON, no UTF-8 form): the scan writes the file back, UTF-8, losing
    nothing, instead of failing with a traceback."""
    state_file = _state_file(tmp_path, [])
    item = {**_tracked_item(0), "title": "half a pair \ud800 here"}
    state_file.path.write_text(json.dumps({"version": 1, "feedbacks": [item]}))
    _scan_nothing_new(state_file)
    written = state_file.path.read_bytes()
    assert b"\\ud800" in written and json.loads(written.decode("utf-8"))["feedbacks"][0]["title"] == item["title"]


def test_a_state_over_the_limit_is_said_with_what_to_do_by_the_scan_and_by_doctor(tmp_path):
    warned: list = []
    state_file = _state_file(tmp_path, warned)
    with open(state_file.path, "wb") as handle:
        handle.truncate(17 << 20)
    state = state_file.read()
    assert state.read_only and state.items == []
    assert len(warned) == 1 and "17.0 MB, over the 16 MB limit" in warned[0] and "json.tool --compact" in warned[0]
    assert state_file.health()["problem"] == warned[0]


def test_a_scan_that_would_take_the_state_past_the_limit_writes_nothing_and_says_what_to_do(tmp_path):
    """A seed-written state just under 16 MB: the scan adds ladder's due_since to each item, which would cross
    the limit after which the file is read-only; the old file is kept instead."""
    from ladder_plugins.errors import LadderError

    state_file = _state_file(tmp_path, [])
    items = [{**_tracked_item(n, notes="x" * ((1 << 20) - 2000)), "current_level": 1, "promoted": False}
             for n in range(16)]
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    items[0]["notes"] += "x" * ((16 << 20) - 10 - len(json.dumps({"version": 1, "feedbacks": items}, **compact)))
    old = json.dumps({"version": 1, "feedbacks": items}, **compact).encode()
    assert len(old) == (16 << 20) - 10
    state_file.path.write_bytes(old)
    with pytest.raises(LadderError, match=r"would be 16\.0 MB, over the 16 MB limit; the old file is kept.*--compact"):
        _scan_nothing_new(state_file)
    assert state_file.path.read_bytes() == old
