"""``tracker.sources.enforced.precommit.precommit_evidence``: each hook of ``.pre-commit-config.yaml`` with
its own signal and the signals of the command it runs; a malformed entry said once, naming the file and where."""

from __future__ import annotations

from ladder_plugins.tracker.sources.enforced.precommit import precommit_evidence

from tests.unit.tracker.sources.project_files import project

CONFIG = ".pre-commit-config.yaml"


def test_each_hook_with_its_signals_and_text(tmp_path):
    files, warnings = project(tmp_path, {CONFIG: """\
        repos:
          - repo: https://github.com/astral-sh/ruff-pre-commit
            hooks:
              - id: ruff
                args: [--fix]
              - id: ruff-format
          - repo: local
            hooks:
              - id: types
                name: Types
                entry: python -m mypy --strict src
        """})
    found = precommit_evidence(files)
    assert [(ev.location, ev.signals, ev.text) for ev in found] == [
        (f"{CONFIG} repos[0].hooks[0] id: ruff", ("precommit:ruff",), "pre-commit hook ruff: ruff --fix"),
        (f"{CONFIG} repos[0].hooks[1] id: ruff-format", ("precommit:ruff-format",), "pre-commit hook ruff-format"),
        (f"{CONFIG} repos[1].hooks[0] id: types", ("precommit:types", "precommit:mypy", "mypy:strict"),
         "pre-commit hook types (Types): python -m mypy --strict src")]
    assert all(ev.freeform and ev.file == CONFIG for ev in found)
    assert warnings == []


def test_an_unsafe_hook_id_gives_no_signal_of_its_own(tmp_path):
    files, _ = project(tmp_path, {CONFIG: "repos:\n  - hooks:\n      - id: 'my check'\n        entry: flake8\n"})
    (found,) = precommit_evidence(files)
    assert found.signals == ("precommit:flake8",)
    assert found.location == f"{CONFIG} repos[0].hooks[0] id: my check"


def test_a_hook_without_an_id_is_said_and_the_others_kept(tmp_path):
    files, warnings = project(tmp_path, {CONFIG: "repos:\n  - hooks:\n      - name: nameless\n      - id: black\n"})
    assert [ev.signals for ev in precommit_evidence(files)] == [("precommit:black",)]
    assert warnings == [f"{CONFIG}: repos[0]: a hook without an id; skipped"]


def test_a_repo_without_hooks_is_said(tmp_path):
    files, warnings = project(tmp_path, {CONFIG: "repos:\n  - repo: x\n  - hooks:\n      - id: isort\n"})
    assert [ev.signals for ev in precommit_evidence(files)] == [("precommit:isort",)]
    assert warnings == [f"{CONFIG}: repos[0] has no list of hooks; skipped"]


def test_repos_that_is_not_a_list_is_said(tmp_path):
    files, warnings = project(tmp_path, {CONFIG: "repos: {a: 1}\n"})
    assert precommit_evidence(files) == []
    assert warnings == [f"{CONFIG}: repos is not a list; skipped"]


def test_no_file_is_no_hooks_and_no_warning(tmp_path):
    files, warnings = project(tmp_path, {})
    assert (precommit_evidence(files), warnings) == ([], [])
