"""``tracker.sources.enforced.ci``: GitHub Actions steps (a ``run`` read as a command, an action named after a
tool as that tool) and GitLab CI scripts; a malformed job said once, naming the file and the job."""

from __future__ import annotations

from ladder_plugins.tracker.sources.enforced.ci import gitlab_evidence, workflow_evidence

from tests.unit.tracker.sources.project_files import project

WORKFLOW = """\
jobs:
  test:
    steps:
      - uses: actions/checkout@v4
      - uses: astral-sh/ruff-action@v1
      - name: Tests
        run: pytest --cov --cov-fail-under=90 && mypy src
      - 7
  reuse:
    uses: org/repo/.github/workflows/lint.yml@main
"""


def test_workflow_steps_and_reusable_jobs(tmp_path):
    files, warnings = project(tmp_path, {".github/workflows/ci.yml": WORKFLOW})
    found = workflow_evidence(files)
    rel = ".github/workflows/ci.yml"
    assert [(ev.location, ev.signals) for ev in found] == [
        (f"{rel} jobs.test.steps[0]: uses actions/checkout@v4", ()),
        (f"{rel} jobs.test.steps[1]: uses astral-sh/ruff-action@v1", ("ci:ruff",)),
        (f"{rel} jobs.test.steps[2]: pytest --cov --cov-fail-under=90 && mypy src",
         ("ci:pytest", "coverage:fail_under", "ci:mypy")),
        (f"{rel} jobs.reuse: uses org/repo/.github/workflows/lint.yml@main", ())]
    assert found[2].text == "CI step Tests: pytest --cov --cov-fail-under=90 && mypy src"
    assert found[3].text == "CI job reuse: uses org/repo/.github/workflows/lint.yml@main"
    assert warnings == []


def test_local_and_docker_actions_name_no_tool(tmp_path):
    files, _ = project(tmp_path, {".github/workflows/a.yaml": """\
        jobs:
          j:
            steps:
              - uses: ./ruff
              - uses: docker://ruff:latest
              - uses: pre-commit/action@v3
        """})
    assert [ev.signals for ev in workflow_evidence(files)] == [(), (), ("ci:pre-commit",)]


def test_a_job_that_is_not_a_mapping_is_said_with_its_name(tmp_path):
    text = "jobs:\n  bad: 3\n  ok:\n    steps:\n      - run: flake8\n"
    files, warnings = project(tmp_path, {".github/workflows/ci.yml": text})
    assert [ev.signals for ev in workflow_evidence(files)] == [("ci:flake8",)]
    assert warnings == [".github/workflows/ci.yml: jobs.bad is not a mapping; skipped"]


def test_steps_that_are_not_a_list_and_jobs_that_are_not_a_mapping(tmp_path):
    files, warnings = project(tmp_path, {".github/workflows/a.yml": "jobs:\n  j:\n    steps: {run: x}\n",
                                         ".github/workflows/b.yml": "jobs: [1]\n"})
    assert workflow_evidence(files) == []
    assert warnings == [".github/workflows/a.yml: jobs.j.steps is not a list; skipped",
                        ".github/workflows/b.yml: jobs is not a mapping; skipped"]


def test_gitlab_jobs_scripts_nested_lists_and_hidden_jobs(tmp_path):
    files, warnings = project(tmp_path, {".gitlab-ci.yml": """\
        stages: [test]
        before_script: [ruff check]
        .hidden:
          script: [mypy src]
        lint:
          script:
            - ruff check .
            - [flake8 src, black --check .]
        one:
          script: pytest -W error
        """})
    found = gitlab_evidence(files)
    assert [(ev.location, ev.signals) for ev in found] == [
        (".gitlab-ci.yml lint.script[0]: ruff check .", ("ci:ruff",)),
        (".gitlab-ci.yml lint.script[1]: flake8 src", ("ci:flake8",)),
        (".gitlab-ci.yml lint.script[2]: black --check .", ("ci:black",)),
        (".gitlab-ci.yml one.script[0]: pytest -W error", ("ci:pytest", "pytest:warnings-error"))]
    assert found[0].text == "GitLab job lint: ruff check ."
    assert warnings == []


def test_a_gitlab_script_that_is_not_commands_is_said(tmp_path):
    files, warnings = project(tmp_path, {".gitlab-ci.yml": "broken:\n  script: 5\n"})
    assert gitlab_evidence(files) == []
    assert warnings == [".gitlab-ci.yml: broken.script is not a list of commands; skipped"]
