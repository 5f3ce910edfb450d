"""``worklog.service``: what ``ladder worklog`` and ``ladder kb`` ask: which files a command means and how they
are shown, the logs and the knowledge base checked (a log that cannot be read is one problem naming its line),
where the writers' lock is, and a report body read from stdin as UTF-8."""

from __future__ import annotations

import io
import shutil
import sys

import pytest

from ladder_plugins.config import load_settings
from ladder_plugins.errors import LadderError
from ladder_plugins.worklog.parse import WorkLogError
from ladder_plugins.worklog.service import (
    Checked, Target, check_knowledge_base, check_logs, kb_split, kb_target, lock_for, log_targets, open_log,
    stdin_text,
)

from tests.helpers.history import project_settings
from tests.helpers.kb import build_kb
from tests.helpers.paths import DATA

VALID = DATA / "worklog" / "contract_valid.md"


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def test_the_default_log_and_kb_at_the_root(project):
    settings = project_settings(project)
    assert log_targets(settings) == [Target(project / "work-log.md", "work-log.md")]
    assert kb_target(settings) == Target(project / "kb", "kb")


def test_configured_files_are_relative_to_the_root(project):
    (project / "sub").mkdir()
    settings = project_settings(project, '[tool.ladder.worklog]\nfiles = ["logs/a.md", "logs/b.md"]\nkb = "notes"\n')
    assert [t.shown for t in log_targets(settings)] == ["logs/a.md", "logs/b.md"]
    assert kb_target(settings).path == project / "notes"


def test_given_files_are_relative_to_where_it_runs_each_once(project, monkeypatch, tmp_path):
    (project / "sub").mkdir()
    settings = project_settings(project)
    monkeypatch.chdir(project / "sub")
    outside = tmp_path / "elsewhere.md"
    targets = log_targets(settings, ["w.md", "../sub/w.md", str(outside)])
    assert [t.shown for t in targets] == ["sub/w.md", outside.as_posix()]
    assert targets[0].path.resolve() == project / "sub" / "w.md"
    assert kb_target(settings, "../kb2").shown == "kb2"


def test_a_valid_log_passes_with_its_note(project):
    shutil.copy(VALID, project / "work-log.md")
    settings = project_settings(project)
    checked = check_logs(settings, log_targets(settings))
    assert (checked.problems, checked.checked, checked.failed) == ((), ("work-log.md",), False)
    assert [(n.rule.key, n.path, n.line) for n in checked.notes] == [("worklog_lines", "work-log.md", 5)]


def test_a_log_that_is_not_utf8_is_one_problem_at_its_line(project):
    (project / "bad.md").write_bytes(b"=== Report #1 | lines: 2 | elapsed: 05:00 | type: feedback ===\n\xff\n")
    settings = project_settings(project)
    checked = check_logs(settings, log_targets(settings, ["bad.md", "missing.md"]))
    found = [(p.rule.key, p.path, p.line) for p in checked.problems]
    assert found[0] == ("worklog_unreadable", "bad.md", 2)
    assert checked.problems[0].message == "not UTF-8 (byte 63 is 0xff); a work log is UTF-8 text"
    assert found[1][:2] == ("worklog_unreadable", "missing.md")
    assert checked.failed


def test_open_log_reads_or_names_the_file(project):
    shutil.copy(VALID, project / "w.md")
    log = open_log(Target(project / "w.md", "w.md"))
    assert [r.number for r in log.numbered] == [1, 0]
    with pytest.raises(WorkLogError) as caught:
        open_log(Target(project / "absent.md", "absent.md"))
    assert str(caught.value).startswith("absent.md:1: ")
    assert isinstance(caught.value, LadderError)


def test_a_knowledge_base_inside_the_project(project):
    build_kb(project)
    settings = project_settings(project)
    target = kb_target(settings)
    assert kb_split(settings, target) == (project, "kb")
    assert check_knowledge_base(settings, target) == Checked((), (), ("kb",))


def test_a_knowledge_base_outside_the_project_names_its_paths_from_it(project, tmp_path):
    settings = project_settings(project)
    outside = tmp_path / "shared-kb"
    outside.mkdir()
    target = Target(outside, outside.as_posix())
    assert kb_split(settings, target) == (outside, ".")
    checked = check_knowledge_base(settings, target)
    assert checked.failed
    shown = outside.as_posix()
    paths = {p.path for p in checked.problems}
    assert {f"{shown}/raw", f"{shown}/archive", f"{shown}/curated", f"{shown}/_index.md"} <= paths
    assert all(path.startswith(f"{shown}/") for path in paths)


def test_the_lock_is_in_the_history_folder_or_beside_a_log_out_of_a_project(project, tmp_path):
    settings = project_settings(project)
    target = Target(project / "w.md", "w.md")
    assert lock_for(settings, target) == project / ".ladder" / "worklog.lock"
    loose = tmp_path / "loose"
    loose.mkdir()
    alone = load_settings(loose)
    assert alone.in_project is False
    assert lock_for(alone, Target(loose / "w.md", "w.md")) == loose / ".w.md.lock"


def test_stdin_is_read_as_utf8_whatever_the_locale(monkeypatch):
    body = "진단: 한국어 본문\n".encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + body), encoding="latin-1"))
    assert stdin_text() == "진단: 한국어 본문\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ok \xff\n"), encoding="latin-1"))
    with pytest.raises(WorkLogError, match="the report body on stdin:1: not UTF-8 \\(byte 3 is 0xff\\)"):
        stdin_text()
