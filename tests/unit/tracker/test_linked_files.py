"""One file under several names is one place where feedback is written down, dated from the real file's lines.

pydantic-ai, as many projects, keeps ``AGENTS.md`` and points ``CLAUDE.md`` at it with a symlink, and
``CONTRIBUTING.md`` at ``docs/contributing.md``: every bullet was counted twice (``AGENTS.md:N`` and
``CLAUDE.md:N``), so every item had two occurrences and was told to be promoted, and the link's copy was
dated by the scan day (git blames a symlink as a one-line file). Here: real repositories with dated commits.
"""

from __future__ import annotations

import os
import subprocess
from datetime import date, datetime, timezone

from ladder_plugins.tracker.dating import Dating
from ladder_plugins.tracker.model import SourceContext
from ladder_plugins.tracker.scan import apply_sightings
from ladder_plugins.tracker.sources import docs
from ladder_plugins.tracker.topics import shipped_topics

from tests.helpers.feedback import write
from tests.helpers.git import commit, git, needs_git

JUNE = date(2026, 6, 10)
JANUARY, MARCH = "2026-01-15T10:00:00Z", "2026-03-02T10:00:00Z"
TODAY = datetime.now(timezone.utc).date().isoformat()
AGENTS = "# Style\n\n- Never use a bare except clause\n- Keep pull requests small\n"
CONTRIBUTING = "# Contributing\n\n- Write commit messages in the imperative mood\n"


class NoPlugins:
    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


def _scan(root):
    warnings: list = []
    found = list(docs.ladder_feedback_sources(context=SourceContext(root=root, warn=warnings.append)))
    items: list = []
    apply_sightings(items, found, NoPlugins(), shipped_topics(), JUNE)
    return {i["topic"]: i for i in items}, found, warnings


def _repo(tmp_path):
    """AGENTS.md and docs/contributing.md written in January; the links to them added in March."""
    repo = tmp_path / "app"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"AGENTS.md": AGENTS, "docs/contributing.md": CONTRIBUTING}, JANUARY, "the guides")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    os.symlink("docs/contributing.md", repo / "CONTRIBUTING.md")
    commit(repo, {}, MARCH, "the links")
    return repo


@needs_git
def test_a_claude_md_linked_to_agents_md_is_read_once_under_the_real_files_name(tmp_path):
    items, found, warnings = _scan(_repo(tmp_path))
    located = sorted(s.location for s in found)
    assert located == ["AGENTS.md:3", "AGENTS.md:4", "CONTRIBUTING.md:3"]
    assert items["Never use a bare except clause"]["occurrences"] == 1
    assert items["Keep pull requests small"]["current_location"] == "AGENTS.md:4"
    assert warnings == []


@needs_git
def test_a_linked_file_is_dated_by_the_real_files_lines_never_the_scan_day(tmp_path):
    items, found, _ = _scan(_repo(tmp_path))
    assert {(s.location, s.when, s.dated) for s in found} == {
        ("AGENTS.md:3", "2026-01-15", "git blame"), ("AGENTS.md:4", "2026-01-15", "git blame"),
        ("CONTRIBUTING.md:3", "2026-01-15", "git blame")}  # the line's January, not the link's March
    assert all(i["first_seen"] != TODAY for i in items.values())


@needs_git
def test_a_hard_link_is_one_file_named_by_the_first_name_read(tmp_path):
    repo = tmp_path / "app"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write(repo, "AGENTS.md", AGENTS)
    os.link(repo / "AGENTS.md", repo / "GEMINI.md")
    commit(repo, {}, JANUARY)
    items, found, _ = _scan(repo)
    assert sorted(s.location for s in found) == ["AGENTS.md:3", "AGENTS.md:4"]  # read before GEMINI.md
    assert {s.when for s in found} == {"2026-01-15"}
    assert items["Keep pull requests small"]["occurrences"] == 1


@needs_git
def test_a_rule_linked_to_an_instruction_file_and_a_linked_rules_directory_are_read_once(tmp_path):
    repo = tmp_path / "app"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"AGENTS.md": AGENTS, "shared/rules/api.md": "- Return JSON errors with a code field\n"}, JANUARY)
    (repo / ".claude/rules").mkdir(parents=True)
    os.symlink("../../AGENTS.md", repo / ".claude/rules/agents.md")
    os.symlink("../../shared/rules", repo / ".claude/rules/common")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    commit(repo, {}, MARCH)
    _, found, warnings = _scan(repo)
    assert sorted((s.location, s.when) for s in found) == [
        (".claude/rules/common/api.md:1", "2026-01-15"),  # the real file is read by no other name
        ("AGENTS.md:3", "2026-01-15"), ("AGENTS.md:4", "2026-01-15")]
    assert warnings == []


@needs_git
def test_a_claude_md_that_only_imports_agents_md_adds_nothing(tmp_path):
    repo = tmp_path / "app"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"AGENTS.md": AGENTS, "CLAUDE.md": "@AGENTS.md\n"}, JANUARY)
    _, found, _ = _scan(repo)
    assert sorted(s.location for s in found) == ["AGENTS.md:3", "AGENTS.md:4"]


@needs_git
def test_dating_a_link_asks_git_about_the_real_file(tmp_path):
    repo = _repo(tmp_path)
    dates, _ = Dating(SourceContext(root=repo)).lines(repo / "CLAUDE.md", "CLAUDE.md")
    assert {n: d.day for n, d in dates.items() if n in (3, 4)} == {3: "2026-01-15", 4: "2026-01-15"}
    assert Dating(SourceContext(root=repo)).file(repo / "CONTRIBUTING.md", "CONTRIBUTING.md").day == "2026-01-15"


@needs_git
def test_a_line_blame_gives_no_date_has_the_files_last_commit_not_its_file_time(tmp_path, monkeypatch):
    repo = _repo(tmp_path)
    commit(repo, {"AGENTS.md": AGENTS + "- Prefer pathlib over os.path\n"}, MARCH)
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text(f'#!/bin/sh\ncase " $* " in *" blame "*) exit 0;; esac\nexec {real} "$@"\n')
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    dates, otherwise = Dating(SourceContext(root=repo)).lines(repo / "AGENTS.md", "AGENTS.md")
    assert dates == {} and (otherwise().day, otherwise().how) == ("2026-03-02", "git log")


def test_a_broken_link_a_loop_a_directory_and_a_link_outside_are_warnings_naming_them(tmp_path):
    """A missing CLAUDE.md is silent; one that is a symlink to nothing is a mistake the person should hear of."""
    root = tmp_path / "app"
    (root / "d").mkdir(parents=True)
    (root / "AGENTS.md").write_text(AGENTS)
    (tmp_path / "outside.md").write_text(CONTRIBUTING)
    os.symlink("nowhere.md", root / "CLAUDE.md")
    os.symlink("CODING_STANDARDS.md", root / "GEMINI.md")
    os.symlink("GEMINI.md", root / "CODING_STANDARDS.md")
    os.symlink("d", root / "CONTRIBUTING.md")
    (root / ".claude").mkdir()
    os.symlink("../../outside.md", root / ".claude" / "CLAUDE.md")
    items, _, warnings = _scan(root)
    assert sorted(items) == ["Keep pull requests small", "Never use a bare except clause"]
    assert all(i["occurrences"] == 1 for i in items.values())
    for name in ("CLAUDE.md", "GEMINI.md", "CODING_STANDARDS.md", "CONTRIBUTING.md", ".claude/CLAUDE.md"):
        assert sum(w.startswith(f"{name}: ") for w in warnings) == 1, (name, warnings)
    assert "CLAUDE.md: a symlink to nothing ('nowhere.md'); skipped" in warnings
