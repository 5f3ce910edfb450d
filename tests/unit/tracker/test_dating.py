"""Feedback written in project files is dated from its source, never from the day of the scan: the day git gives
the line (``git blame``), else the file's time; outside git or in a shallow clone, said so, the file's time. A
CLAUDE.md bullet and a rules-file bullet committed in January and scanned in June were first seen in June."""

from __future__ import annotations

import os
import subprocess
from datetime import date

from ladder_plugins.tracker.dating import Dating
from ladder_plugins.tracker.item import read_items
from ladder_plugins.tracker.model import Sighting, SourceContext
from ladder_plugins.tracker.promotion import overdue
from ladder_plugins.tracker.scan import apply_sightings
from ladder_plugins.tracker.sources import docs, hooks, memory
from ladder_plugins.tracker.topics import shipped_topics

from tests.helpers.feedback import write
from tests.helpers.git import commit, git, needs_git

JUNE = date(2026, 6, 10)
JANUARY, MARCH = "2026-01-15T10:00:00Z", "2026-03-02T10:00:00Z"
APRIL_SECONDS = 1775000000  # 2026-03-31/04-01 (UTC), a file time


class NoPlugins:
    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


def _scan(root, today=JUNE):
    warnings: list = []
    context = SourceContext(root=root, warn=warnings.append)
    found = list(docs.ladder_feedback_sources(context=context)) + list(hooks.ladder_feedback_sources(context=context))
    items: list = []
    apply_sightings(items, found, NoPlugins(), shipped_topics(), today)
    return {i["topic"]: i for i in items}, found, warnings


def _repo(tmp_path):
    repo = tmp_path / "app"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"CLAUDE.md": "# Style\n\n- Never use a bare except clause\n",
                  ".claude/rules/api.md": "---\npaths: src/api/**\n---\n- Return JSON errors with a code field\n",
                  ".claude/settings.json": '{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": '
                                           '[{"type": "command", "command": "ruff check --fix"}]}]}}'},
           JANUARY, "the rules")
    return repo


@needs_git
def test_lines_committed_in_january_are_first_seen_in_january(tmp_path):
    repo = _repo(tmp_path)
    items, found, warnings = _scan(repo)
    assert items["Never use a bare except clause"]["first_seen"] == "2026-01-15"
    assert items["Return JSON errors with a code field"]["first_seen"] == "2026-01-15"
    assert {s.dated for s in found if s.source == "docs"} == {"git blame"}
    hook = next(s for s in found if s.source == "hooks")
    assert (hook.when, hook.dated) == ("2026-01-15", "git log")
    assert warnings == []


@needs_git
def test_each_line_has_its_own_day_and_an_uncommitted_line_its_files_time(tmp_path):
    repo = _repo(tmp_path)
    commit(repo, {"CLAUDE.md": "# Style\n\n- Never use a bare except clause\n- Keep pull requests small\n"}, MARCH)
    with (repo / "CLAUDE.md").open("a") as handle:
        handle.write("- Write commit messages in the imperative mood\n")
    os.utime(repo / "CLAUDE.md", (APRIL_SECONDS, APRIL_SECONDS))
    items, found, _ = _scan(repo)
    assert items["Never use a bare except clause"]["first_seen"] == "2026-01-15"
    assert items["Keep pull requests small"]["first_seen"] == "2026-03-02"
    late = next(s for s in found if s.text.startswith("Write commit"))
    assert (late.when, late.dated) == ("2026-03-31", "file time")
    assert items["Write commit messages in the imperative mood"]["ladder"]["sources"][0]["dated"] == "file time"


@needs_git
def test_a_file_git_does_not_track_has_its_files_time(tmp_path):
    repo = _repo(tmp_path)
    write(repo, ".claude/rules/new.md", "- Prefer pathlib over os.path\n")
    os.utime(repo / ".claude/rules/new.md", (APRIL_SECONDS, APRIL_SECONDS))
    items, _, _ = _scan(repo)
    assert items["Prefer pathlib over os.path"]["first_seen"] == "2026-03-31"


def test_outside_git_the_files_time_is_the_date_and_it_says_why(tmp_path):
    write(tmp_path, "AGENTS.md", "- Use type hints on public functions\n")
    os.utime(tmp_path / "AGENTS.md", (APRIL_SECONDS, APRIL_SECONDS))
    items, found, warnings = _scan(tmp_path)
    assert items["Use type hints on public functions"]["first_seen"] == "2026-03-31"
    assert [s.dated for s in found] == ["file time (not a git repository)"]
    assert warnings == []


@needs_git
def test_a_shallow_clone_is_said_and_dated_by_file_times(tmp_path):
    repo = _repo(tmp_path)
    commit(repo, {"README.md": "later\n"}, MARCH)
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    os.utime(shallow / "CLAUDE.md", (APRIL_SECONDS, APRIL_SECONDS))
    items, found, warnings = _scan(shallow)
    assert items["Never use a bare except clause"]["first_seen"] == "2026-03-31"  # not the boundary commit's day
    assert {s.dated for s in found if s.source == "docs"} == {"file time (a shallow clone)"}
    assert len(warnings) == 1 and "shallow clone" in warnings[0] and "--unshallow" in warnings[0]


@needs_git
def test_a_git_that_hangs_is_given_up_and_the_files_time_taken(tmp_path, monkeypatch):
    repo = _repo(tmp_path)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\nsleep 30\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("LADDER_GIT_TIMEOUT", "0.5")
    monkeypatch.setenv("LADDER_GIT_GAVE_UP", "")  # gitprocess sets it on giving up: undone after the test
    dating = Dating(SourceContext(root=repo))
    dates, otherwise = dating.lines(repo / "CLAUDE.md", "CLAUDE.md")
    assert dates == {} and otherwise().how.startswith("file time (git: git rev-parse did not finish")


def test_a_date_after_the_scan_day_is_the_scan_day():
    late = Sighting(1, "Use pathlib instead of os.path", "note", "notes", "notes:1", "2026-12-24")
    items: list = []
    apply_sightings(items, [late], NoPlugins(), shipped_topics(), JUNE)
    assert items[0]["first_seen"] == items[0]["last_seen"] == "2026-06-10"


def test_the_grace_clock_starts_at_the_occurrence_that_made_an_item_due():
    """Three notes of January: due since January, so grace_days = 14 makes it overdue by June, not 14 days
    after the first scan."""
    notes = [Sighting(1, "Keep pull requests small", f"note {n}", "notes", f"notes:{n}", f"2026-01-1{n}")
             for n in (1, 2, 3)]
    items: list = []
    apply_sightings(items, notes, NoPlugins(), shipped_topics(), JUNE)
    assert items[0]["ladder"]["due_since"] == "2026-01-13"
    [late] = overdue(read_items(items).items, 14, JUNE)
    assert late.since == "2026-01-13"


def test_a_memory_keeps_the_day_its_front_matter_gives(tmp_path):
    folder = tmp_path / "memory"
    write(folder, "feedback_tests.md", "---\nname: tests\ndescription: add a regression test\ntype: feedback\n"
                                       "created: 2026-02-03\n---\n")
    write(folder, "feedback_print.md", "---\nname: print\ndescription: no print calls\ntype: feedback\n---\n")
    os.utime(folder / "feedback_print.md", (APRIL_SECONDS, APRIL_SECONDS))
    found = {s.text.splitlines()[0]: s for s in memory.memory_sightings(SourceContext(root=tmp_path, memory_dir=folder))}
    assert (found["add a regression test"].when, found["add a regression test"].dated) == ("2026-02-03", "front matter")
    assert (found["no print calls"].when, found["no print calls"].dated) == ("2026-03-31", "file time")


@needs_git
def test_the_report_of_a_june_scan_shows_januarys_dates_and_check_counts_from_them(tmp_path):
    """End to end, as the issue saw it: a CLAUDE.md bullet and a rules-file bullet committed in January, the same
    feedback kept as a note in January too, scanned in June."""
    from tests.helpers.reports import ladder

    repo = tmp_path / "app"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"pyproject.toml": "[tool.ladder]\n[tool.ladder.feedback]\ngrace_days = 14\n",
                  "CLAUDE.md": "# Git\n\n- Keep pull requests small\n",
                  ".claude/rules/review.md": "- Keep each pull request small and focused\n"}, JANUARY)
    env = {"HOME": str(tmp_path / "home"), "LADDER_NOW": "2026-01-20T09:00:00Z"}
    assert ladder(["feedback", "add", "Keep pull requests small, please"], repo, **env).returncode == 0
    env["LADDER_NOW"] = "2026-06-10T09:00:00Z"
    report = ladder(["feedback", "report", "--format", "json"], repo, **env)
    assert report.returncode == 0, report.stderr
    import json

    items = json.loads(report.stdout)["items"]
    [item] = [i for i in items if "pull request" in i["topic"].lower()]
    assert (item["occurrences"], item["first_seen"], item["last_seen"]) == (3, "2026-01-15", "2026-01-20")
    assert item["due_since"] == "2026-01-20"
    late = ladder(["feedback", "check"], repo, **env)
    assert late.returncode == 1 and "past grace_days = 14" in late.stdout, late.stdout + late.stderr


@needs_git
def test_a_blame_that_hangs_says_so_in_this_files_date_and_the_next_ones(tmp_path, monkeypatch):
    repo = _repo(tmp_path)
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text(f'#!/bin/sh\ncase " $* " in *" blame "*) sleep 30;; esac\nexec {real} "$@"\n')
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("LADDER_GIT_TIMEOUT", "0.5")
    monkeypatch.setenv("LADDER_GIT_GAVE_UP", "")  # gitprocess sets it on giving up: undone after the test
    dating = Dating(SourceContext(root=repo))
    dates, otherwise = dating.lines(repo / "CLAUDE.md", "CLAUDE.md")
    assert dates == {} and otherwise().how.startswith("file time (git: git blame did not finish")
    _, later = dating.lines(repo / ".claude/rules/api.md", ".claude/rules/api.md")
    assert later().how.startswith("file time (git: git blame did not finish")
    assert dating.file(repo / ".claude/settings.json", ".claude/settings.json").how == later().how


@needs_git
def test_a_committed_files_lines_are_dated_by_blame_alone_with_no_git_log_per_file(tmp_path, monkeypatch):
    """Every line of a committed file is blamed, so the file's last commit (one more git process per file) is
    asked only for a line blame did not date, and once."""
    repo = _repo(tmp_path)
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    calls = tmp_path / "calls"
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text(f'#!/bin/sh\necho "$*" >> {calls}\nexec {real} "$@"\n')
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    dating = Dating(SourceContext(root=repo))
    dates, otherwise = dating.lines(repo / "CLAUDE.md", "CLAUDE.md")
    logs = lambda: [line for line in calls.read_text().splitlines() if " log " in f" {line} "]  # noqa: E731
    assert dates and logs() == []
    assert otherwise() == otherwise() and otherwise().how == "git log"
    assert len(logs()) == 1
