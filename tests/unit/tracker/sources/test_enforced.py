"""Level 4, what a project enforces: its linters, type checker, coverage gate, pytest options, pre-commit
hooks, tox envs, CI steps and conftest fixtures.

Each test builds a project in ``tmp_path`` with files in the formats the tools read, broken ones included,
and looks at what the source detects: the signals (``ruff:E722``, ``precommit:black``, ...), the level-4
sightings, and for a broken file one warning naming it while the other files are still read.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import textwrap
from pathlib import Path
from typing import Optional

import pytest

from ladder_plugins.tracker.sources.enforced import sightings as enforced
from ladder_plugins.tracker.sources.enforced.commands import command_signals
from ladder_plugins.tracker.sources.enforced.sightings import detected_signals, enforced_sightings
from ladder_plugins.tracker.model import SourceContext
from ladder_plugins.tracker.topics import Topic, shipped_topics
from ladder_plugins.plugins import make_plugin_manager

COVERAGE = {".coveragerc": "[report]\nfail_under = 90\n"}
TOPIC = shipped_topics()[0]


def write(root: Path, files: dict) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def context(root: Path, warnings: list, max_bytes: int = 1 << 20) -> SourceContext:
    return SourceContext(root=root, warn=warnings.append, max_bytes=max_bytes)


def signals_of(root: Path, files: Optional[dict] = None, topics=None) -> dict:
    """The signals of a project with ``files``; no warning expected."""
    write(root, files or {})
    warnings: list = []
    found = detected_signals(context(root, warnings), topics)
    assert warnings == []
    return found


def probe(*signals: str) -> list:
    """A one-row topic table whose row is enforced by ``signals``: asks whether a linter reports a code."""
    return [dataclasses.replace(TOPIC, id="probe", enforced_by=signals)]


def sightings_of(root: Path, files: Optional[dict] = None) -> list:
    write(root, files or {})
    return list(enforced_sightings(SourceContext(root=root)))


def topic_sighting(found: list, topic_id: str):
    return next(s for s in found if s.identity.endswith(f":{topic_id}"))


# ---------------------------------------------------------------------------
# pyproject.toml and ladder's own rules

PYPROJECT = """\
    [project]
    name = "demo"
    version = "1.0"

    [tool.ladder.thresholds]
    cyclomatic_max = 8

    [tool.ruff.lint]
    select = ["E", "I"]
    ignore = ["E501"]

    [tool.coverage.report]
    fail_under = 90

    [tool.mypy]
    strict = true

    [tool.pytest.ini_options]
    addopts = "--strict-markers -W error --cov-fail-under=80"

    [tool.black]
    line-length = 100

    [tool.isort]
    profile = "black"
"""


def test_pyproject_tables_give_their_signals(tmp_path):
    signals = signals_of(tmp_path, {"pyproject.toml": PYPROJECT})
    assert {"ruff:I", "ruff:E", "ruff:E722", "ruff:I001", "coverage:fail_under", "mypy:strict", "black:config",
            "isort:config", "pytest:strict-markers", "pytest:warnings-error", "ladder:cyclomatic_max"} <= set(signals)
    assert signals["ladder:cyclomatic_max"] == "pyproject.toml [tool.ladder.thresholds] cyclomatic_max = 8"
    assert signals["ruff:I001"] == "pyproject.toml [tool.ruff.lint] select: I"
    assert signals["coverage:fail_under"] == "pyproject.toml [tool.coverage.report] fail_under = 90"
    assert "ruff:E501" not in signals and "ruff:F401" not in signals  # ignored; select replaces ruff's defaults


def test_a_sighting_carries_its_topics_words_and_where(tmp_path):
    found = sightings_of(tmp_path, {"pyproject.toml": "[tool.coverage.report]\nfail_under = 90\n"})
    coverage = topic_sighting(found, "coverage")
    topic = next(t for t in shipped_topics() if t.id == "coverage")
    assert (coverage.level, coverage.source, coverage.keywords) == (4, "enforced", topic.keywords)
    assert topic.title in coverage.text and all(word in coverage.text for word in topic.keywords)
    assert coverage.location == "pyproject.toml [tool.coverage.report] fail_under = 90"


def test_ladder_counts_the_rules_with_a_limit(tmp_path):
    signals = signals_of(tmp_path, {"pyproject.toml": """\
        [tool.ladder.thresholds]
        cyclomatic_max = false
        [tool.ladder.thresholds.test]
        min_assertions = 2
        [tool.ladder.feedback]
        state = ".claude/feedback-ladder-state.json"
    """})
    assert "ladder:cyclomatic_max" not in signals  # turned off
    assert "ladder:maintainability_min" not in signals  # off until a limit is set
    assert signals["ladder:cognitive_max"].startswith("ladder's default cognitive_max = 15 for app code")
    assert signals["ladder:min_assertions"] == "pyproject.toml [tool.ladder.thresholds.test] min_assertions = 2"


LADDER_HOOK = """\
    repos:
      - repo: https://example.invalid/ladder-plugins
        rev: v0.1.0
        hooks:
          - id: ladder-check
"""


@pytest.mark.parametrize("files, runs", [
    ({}, False),
    ({"pyproject.toml": "[project]\nname = 'demo'\n"}, False),
    ({".pre-commit-config.yaml": LADDER_HOOK}, True),
    ({"pyproject.toml": "[tool.pytest.ini_options]\naddopts = '--ladder'\n"}, True),
    ({".gitlab-ci.yml": "check:\n  script: [ladder check --format gitlab]\n"}, True),
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n"}, True),  # flake8 runs the installed LAD plugin
    ({"setup.cfg": "[flake8]\nselect = E,F\n"}, False),
], ids=["empty", "no-ladder-table", "pre-commit", "pytest-addopts", "gitlab", "flake8-plugin", "flake8-without-LAD"])
def test_ladders_defaults_count_where_ladder_runs(tmp_path, files, runs):
    assert ("ladder:cyclomatic_max" in signals_of(tmp_path, files)) is runs


def test_an_invalid_ladder_table_is_one_warning_and_the_rest_is_read(tmp_path):
    write(tmp_path, {"pyproject.toml": "[tool.ladder]\nmode = 'bogus'\n[tool.coverage.report]\nfail_under = 80\n"})
    warnings: list = []
    signals = detected_signals(context(tmp_path, warnings))
    assert len(warnings) == 1 and warnings[0].startswith("pyproject.toml:") and "mode" in warnings[0]
    assert "coverage:fail_under" in signals
    assert not [signal for signal in signals if signal.startswith("ladder:")]


# ---------------------------------------------------------------------------
# ruff


@pytest.mark.parametrize("rel", ["ruff.toml", ".ruff.toml"])
def test_ruff_toml_has_the_keys_without_tool_ruff(tmp_path, rel):
    signals = signals_of(tmp_path, {rel: '[lint]\nselect = ["T20"]\n'}, probe("ruff:T201"))
    assert signals["ruff:T201"] == f"{rel} [lint] select: T20"
    assert "ruff:F401" not in signals_of(tmp_path, {}, probe("ruff:F401"))


def test_ruff_reads_the_first_of_its_files(tmp_path):
    files = {".ruff.toml": 'select = ["T20"]\n', "pyproject.toml": '[tool.ruff.lint]\nselect = ["F"]\n'}
    signals = signals_of(tmp_path, files, probe("ruff:T201") + probe("ruff:F401"))
    assert "ruff:T201" in signals and "ruff:F401" not in signals


@pytest.mark.parametrize("select, ignore, code, reported", [
    (["ALL"], [], "ANN001", True), (["ALL"], ["D"], "D100", False), (["ALL"], ["D"], "DTZ005", True),
    (["A"], [], "A001", True), (["A"], [], "ANN001", False), (["E"], ["E501"], "E501", False),
    (["E501"], ["E"], "E501", True), (["E"], ["E"], "E722", False), (["PL"], [], "PLR0913", True),
    (["C"], [], "C901", True), (["C4"], [], "C901", False), (["T20"], [], "T100", False), (["S"], [], "SIM102", False),
])
def test_ruff_selectors_cover_codes_as_ruff_decides(tmp_path, select, ignore, code, reported):
    toml = f"[tool.ruff]\nselect = {json.dumps(select)}\n[tool.ruff.lint]\nignore = {json.dumps(ignore)}\n"
    assert (f"ruff:{code}" in signals_of(tmp_path, {"pyproject.toml": toml}, probe(f"ruff:{code}"))) is reported


RUFF_HOOK = """\
    repos:
      - repo: https://github.com/astral-sh/ruff-pre-commit
        rev: v0.6.9
        hooks:
          - id: ruff
"""


@pytest.mark.parametrize("files", [
    {".pre-commit-config.yaml": RUFF_HOOK},
    {".github/workflows/lint.yml": "jobs:\n  lint:\n    steps:\n      - run: uvx ruff check .\n"},
    {"tox.ini": "[testenv:lint]\ncommands = ruff check src\n"},
], ids=["pre-commit", "workflow", "tox"])
def test_ruffs_defaults_count_where_ruff_runs(tmp_path, files):
    signals = signals_of(tmp_path, files)
    assert {"ruff:E722", "ruff:F401"} <= set(signals)
    assert "ruff:I001" not in signals and "ruff:E501" not in signals


def test_ruff_format_alone_is_no_linting(tmp_path):
    signals = signals_of(tmp_path, {".github/workflows/fmt.yml": "jobs:\n  f:\n    steps: [{run: ruff format --check .}]\n"})
    assert "ci:ruff-format" in signals and "ruff:E722" not in signals


# ---------------------------------------------------------------------------
# flake8 and its plugins


@pytest.mark.parametrize("rel", ["setup.cfg", "tox.ini", ".flake8"])
def test_flake8_reads_its_section(tmp_path, rel):
    signals = signals_of(tmp_path, {rel: "[flake8]\nextend-ignore = E722\nmax-complexity = 10\n"})
    assert {"flake8:F401", "flake8:W291", "flake8:C901"} <= set(signals)
    assert "flake8:E722" not in signals
    assert signals["flake8:C901"].startswith(f"{rel} [flake8]")


@pytest.mark.parametrize("config, code, reported", [
    ("max-line-length = 100", "C901", False),  # mccabe reports only with max-complexity
    ("max-line-length = 100", "W503", False), ("max-line-length = 100", "E226", False),  # flake8's default ignore
    ("ignore = E501", "W503", True), ("ignore = E501", "E501", False),  # ignore replaces the default ignore
    ("select = E,F", "W291", False), ("select = E,F", "LAD101", False),
    ("select = E,F\nextend-select = B950", "B950", True),  # named in the configuration: counted
    ("extend-select = E501\nextend-ignore = E5", "E501", True),  # longest prefix wins between the chosen ones
], ids=["mccabe-off", "W503", "E226", "ignore-replaces-1", "ignore-replaces-2", "select-1", "select-2",
        "extend-select", "longest-prefix"])
def test_flake8_decides_as_flake8_does(tmp_path, config, code, reported):
    signals = signals_of(tmp_path, {".flake8": f"[flake8]\n{config}\n"}, probe(f"flake8:{code}"))
    assert (f"flake8:{code}" in signals) is reported


def test_flake8_reads_the_first_file_with_a_flake8_section(tmp_path):
    files = {"setup.cfg": "[metadata]\nname = x\n", "tox.ini": "[flake8]\nselect = F\n", ".flake8": "[flake8]\nselect = E\n"}
    signals = signals_of(tmp_path, files, probe("flake8:F401") + probe("flake8:E722"))
    assert "flake8:F401" in signals and "flake8:E722" not in signals


def fake_entry_points(**params):
    names = {"E": "flake8.plugins.pycodestyle:x", "F": "flake8.plugins.pyflakes:x", "B": "bugbear:BugBearChecker"}
    return [importlib.metadata.EntryPoint(name, value, "flake8.extension") for name, value in names.items()]


@pytest.mark.parametrize("config, reported", [("", True), ("select = E,F", False), ("extend-ignore = B0", False)])
def test_installed_flake8_plugins_count_where_flake8_selects_them(tmp_path, monkeypatch, config, reported):
    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    signals = signals_of(tmp_path, {".flake8": f"[flake8]\n{config}\n"}, probe("flake8:B006"))
    assert ("flake8:B006" in signals) is reported
    assert ("flake8:B" in signals) is (config != "select = E,F")


def test_flake8s_defaults_count_where_flake8_runs(tmp_path):
    hook = RUFF_HOOK.replace("astral-sh/ruff-pre-commit", "PyCQA/flake8").replace("id: ruff", "id: flake8")
    signals = signals_of(tmp_path, {".pre-commit-config.yaml": hook})
    assert {"precommit:flake8", "flake8:E722", "flake8:F401"} <= set(signals)
    assert "ruff:E722" not in signals


# ---------------------------------------------------------------------------
# coverage, mypy and pytest in their own files


@pytest.mark.parametrize("rel, text, signal, present", [
    ("setup.cfg", "[mypy]\ndisallow_untyped_defs = True\n", "mypy:strict", True),
    ("mypy.ini", "[mypy]\nstrict = true\n", "mypy:strict", True),
    ("mypy.ini", "[mypy]\nwarn_unused_ignores = true\n", "mypy:strict", False),
    ("mypy.ini", "[mypy]\nwarn_unused_ignores = true\n", "mypy:config", True),
    ("setup.cfg", "[coverage:report]\nfail_under = 85\n", "coverage:fail_under", True),
    ("tox.ini", "[coverage:report]\nfail_under = 85\n", "coverage:fail_under", True),
    (".coveragerc", "[report]\nfail_under = 95.5\n", "coverage:fail_under", True),
    (".coveragerc", "[report]\nfail_under = 0\n", "coverage:fail_under", False),
    ("setup.cfg", "[tool:pytest]\naddopts = --strict-markers\n", "pytest:strict-markers", True),
    ("pytest.ini", "[pytest]\nfilterwarnings =\n    error\n    ignore::DeprecationWarning\n", "pytest:warnings-error", True),
    ("pytest.ini", "[pytest]\nfilterwarnings =\n    ignore::DeprecationWarning\n", "pytest:warnings-error", False),
    ("tox.ini", "[pytest]\nxfail_strict = true\n", "pytest:xfail-strict", True),
    ("pyproject.toml", "[tool.pytest]\nstrict = true\n", "pytest:strict-markers", True),
    ("pyproject.toml", "[tool.pytest.ini_options]\naddopts = ['-Werror::DeprecationWarning']\n",
     "pytest:warnings-error", True),
    ("setup.cfg", "[isort]\nprofile = black\n", "isort:config", True),
])
def test_tool_configuration_files(tmp_path, rel, text, signal, present):
    assert (signal in signals_of(tmp_path, {rel: text})) is present


# ---------------------------------------------------------------------------
# tox, pre-commit, GitHub Actions, GitLab CI

TOX = """\
    [tox]
    envlist = py, lint

    [testenv]
    deps = pytest-cov
    commands =
        pytest --cov=src --cov-fail-under=90 {posargs}

    [testenv:lint]
    commands =
        ruff check .
        # not a command
        {envpython} -m mypy --strict \\
            src

    [testenv:docs]
    commands = sphinx-build -W docs docs/_build
"""


def test_tox_env_commands(tmp_path):
    signals = signals_of(tmp_path, {"tox.ini": TOX})
    assert {"tox:pytest", "coverage:fail_under", "tox:ruff", "tox:mypy", "mypy:strict"} <= set(signals)
    assert signals["mypy:strict"] == "tox.ini [testenv:lint] commands: {envpython} -m mypy --strict src"
    docs = [s for s in sightings_of(tmp_path) if "sphinx-build -W docs docs/_build" in s.text]
    assert [(s.level, s.source, s.location) for s in docs] == [
        (4, "enforced", "tox.ini [testenv:docs] commands: sphinx-build -W docs docs/_build")]


PRECOMMIT = """\
    repos:
      - repo: https://github.com/pre-commit/pre-commit-hooks
        rev: v4.6.0
        hooks:
          - id: trailing-whitespace
          - id: check-executables-have-shebangs
      - repo: https://github.com/Yelp/detect-secrets
        rev: v1.5.0
        hooks:
          - id: detect-secrets
      - repo: https://github.com/psf/black-pre-commit-mirror
        rev: 24.8.0
        hooks:
          - id: black
      - repo: local
        hooks:
          - id: typecheck
            name: type check
            entry: mypy --strict
            language: system
"""


def test_pre_commit_hooks(tmp_path):
    signals = signals_of(tmp_path, {".pre-commit-config.yaml": PRECOMMIT})
    assert {"precommit:trailing-whitespace", "precommit:detect-secrets", "precommit:black", "precommit:typecheck",
            "precommit:mypy", "mypy:strict", "precommit:check-executables-have-shebangs"} <= set(signals)
    assert signals["precommit:detect-secrets"] == ".pre-commit-config.yaml repos[1].hooks[0] id: detect-secrets"


def test_a_hook_no_topic_covers_is_a_sighting_of_its_own(tmp_path):
    found = sightings_of(tmp_path, {".pre-commit-config.yaml": PRECOMMIT})
    assert topic_sighting(found, "secrets").location.startswith(".pre-commit-config.yaml repos[1]")
    own = [s.text for s in found if ":" not in s.identity.rpartition("#")[2]]
    assert "pre-commit hook check-executables-have-shebangs" in own
    assert not [text for text in own if "black" in text or "detect-secrets" in text]  # their topics cover them


WORKFLOW = """\
    name: CI
    on: [push, pull_request]
    jobs:
      lint:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - run: pip install ruff mypy bandit
          - name: Lint
            run: ruff check .
          - name: Types
            run: |
              mypy --strict \\
                src
          - uses: pre-commit/action@v3.0.1
      test:
        runs-on: ubuntu-latest
        steps:
          - run: python -m pytest --cov --cov-fail-under=90
          - run: make docs
      release:
        uses: ./.github/workflows/release.yml
"""


def test_github_workflow_steps(tmp_path):
    files = {".github/workflows/ci.yml": WORKFLOW, ".github/workflows/nightly.yaml": "jobs:\n  n:\n    steps: [{run: tox -e py}]\n"}
    signals = signals_of(tmp_path, files)
    assert {"ci:ruff", "ci:mypy", "mypy:strict", "ci:pre-commit", "ci:pytest", "coverage:fail_under", "ci:tox"} <= set(signals)
    assert "ci:bandit" not in signals  # installed, never run
    assert signals["ci:pytest"] == ".github/workflows/ci.yml jobs.test.steps[0]: python -m pytest --cov --cov-fail-under=90"
    assert "CI step: make docs" in [s.text for s in sightings_of(tmp_path)]


GITLAB = """\
    stages: [test]
    variables: {PIP_CACHE_DIR: .cache}
    .template:
      script:
        - nox -s tests
    test:
      stage: test
      script:
        - pip install tox
        - tox -e py
    lint:
      script: flake8 src
    spelling:
      script:
        - - codespell
"""


def test_gitlab_job_scripts(tmp_path):
    signals = signals_of(tmp_path, {".gitlab-ci.yml": GITLAB})
    assert {"ci:tox", "ci:flake8", "ci:codespell"} <= set(signals)
    assert "ci:nox" not in signals  # a hidden job, a template: never runs
    assert signals["ci:tox"] == ".gitlab-ci.yml test.script[1]: tox -e py"


# ---------------------------------------------------------------------------
# conftest.py fixtures (parsed, never imported)

CONFTEST = '''\
    import a_package_that_is_not_installed
    import pytest

    raise SystemExit("importing this conftest would stop the scan")


    @pytest.fixture
    def tmp_db(tmp_path):
        """A database in a temporary directory."""


    def helper():
        pass
'''

TESTS_CONFTEST = '''\
    from pytest import fixture


    @fixture(name="client")
    def _client():
        return object()


    @fixture(scope="session")
    async def server():
        pass
'''


def test_conftest_fixtures_are_read_without_importing(tmp_path):
    signals = signals_of(tmp_path, {"conftest.py": CONFTEST, "tests/conftest.py": TESTS_CONFTEST})
    assert {"pytest:fixtures", "pytest:fixture:tmp_db", "pytest:fixture:client", "pytest:fixture:server"} <= set(signals)
    assert "pytest:fixture:helper" not in signals and "pytest:fixture:_client" not in signals
    texts = [s.text for s in sightings_of(tmp_path)]
    assert "pytest fixtures in conftest.py: tmp_db (A database in a temporary directory.)" in texts
    assert "pytest fixtures in tests/conftest.py: client; server" in texts


# ---------------------------------------------------------------------------
# broken files: one warning naming the file, the others still read


@pytest.mark.parametrize("rel, content", [
    ("pyproject.toml", b"[tool.ruff\nselect = 1\n"),
    ("pyproject.toml", b"a = " + b"[" * 3000 + b"]" * 3000),
    ("ruff.toml", b"select = [\n"),
    ("setup.cfg", b"no section header here\n"),
    (".flake8", b"[flake8\nselect = E\n"),
    ("tox.ini", b"\xff\xfe[testenv]\ncommands = pytest\n"),
    (".pre-commit-config.yaml", b"repos: [\n"),
    (".pre-commit-config.yaml", b"- id: black\n"),
    (".pre-commit-config.yaml", b"just a scalar\n"),
    (".pre-commit-config.yaml", b"repos: {black: 1}\n"),
    (".pre-commit-config.yaml", b"repos:\n  - repo: x\n    hooks: black\n"),
    (".pre-commit-config.yaml", b"repos:\n  - repo: x\n    hooks: [{name: no id}, {id: black}]\n"),
    (".github/workflows/ci.yml", b"jobs:\n  test:\n    steps: run pytest\n"),
    (".github/workflows/ci.yml", b"- run: pytest\n"),
    (".github/workflows/ci.yml", b"jobs: [a, b]\n"),
    (".github/workflows/ci.yml", b"jobs: {a: " + b"[" * 3000 + b"]" * 3000 + b"}\n"),
    (".gitlab-ci.yml", b"- a\n- b\n"),
    (".gitlab-ci.yml", b"test:\n  script: 3\n"),
    ("conftest.py", b"def broken(:\n"),
    ("tests/conftest.py", b"x = '\0'\n"),
    ("pytest.ini", b"[pytest]\n" + b"#" * 70_000),
], ids=lambda value: value if isinstance(value, str) else None)
def test_a_broken_file_is_one_warning_and_the_others_are_read(tmp_path, rel, content):
    write(tmp_path, COVERAGE)
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_bytes(content)
    warnings: list = []
    signals = detected_signals(context(tmp_path, warnings, max_bytes=1 << 16))
    assert len(warnings) == 1 and warnings[0].startswith(f"{rel}:"), warnings
    assert "coverage:fail_under" in signals


@pytest.mark.parametrize("link, target", [
    (".pre-commit-config.yaml", "hooks.yaml"), (".github/workflows", "workflows"), ("tests/conftest.py", "conftest.py"),
])
def test_a_symlink_leading_out_of_the_root_is_never_followed(tmp_path, link, target):
    outside, root = tmp_path / "outside", tmp_path / "project"
    write(outside, {"hooks.yaml": LADDER_HOOK, "workflows/ci.yml": "jobs: {t: {steps: [{run: pytest}]}}",
                    "conftest.py": CONFTEST})
    write(root, COVERAGE)
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(outside / target)
    warnings: list = []
    signals = detected_signals(context(root, warnings))
    assert len(warnings) == 1 and warnings[0].startswith(f"{link}:") and "outside" in warnings[0], warnings
    assert "coverage:fail_under" in signals
    assert not {"precommit:ladder-check", "ci:pytest", "pytest:fixtures"} & set(signals)


# ---------------------------------------------------------------------------
# identities, the hook, commands


def ruff_identity(root: Path, pyproject: str) -> str:
    return topic_sighting(sightings_of(root, {"pyproject.toml": pyproject}), "print-statements").identity


def test_an_identity_follows_the_relevant_configuration_only(tmp_path):
    ruff = '[tool.ruff.lint]\nextend-select = ["T20"]\n'
    first = ruff_identity(tmp_path, '[project]\nversion = "1"\n' + ruff)
    assert ruff_identity(tmp_path, '[project]\nversion = "1"\n' + ruff) == first  # scanning again
    assert ruff_identity(tmp_path, '[project]\nversion = "2"\n' + ruff) == first  # an unrelated change
    assert ruff_identity(tmp_path, '[tool.ruff.lint]\nextend-select = ["T201"]\n') != first
    assert first.startswith("pyproject.toml#") and first.endswith(":print-statements")


def test_an_empty_project_enforces_nothing(tmp_path):
    assert sightings_of(tmp_path) == []
    assert signals_of(tmp_path) == {}


def test_the_source_answers_the_hook(tmp_path):
    write(tmp_path, {"pyproject.toml": "[tool.coverage.report]\nfail_under = 90\n", ".pre-commit-config.yaml": PRECOMMIT})
    pm = make_plugin_manager(entry_points=False)
    if not pm.is_registered(enforced):
        pm.register(enforced)
    found = [s for batch in pm.hook.ladder_feedback_sources(context=SourceContext(root=tmp_path)) for s in batch]
    assert {s.identity.rpartition(":")[2] for s in found} >= {"coverage", "secrets", "formatting"}
    assert {(s.level, s.source) for s in found} == {(4, "enforced")}


@pytest.mark.parametrize("command, signals", [
    ("pip install mypy ruff pytest", set()),
    ("python -m pip install -e '.[test]' && python -m pytest -q", {"ci:pytest"}),
    ("uv run --frozen mypy --strict src", {"ci:mypy", "mypy:strict"}),
    ("coverage run -m pytest && coverage report --fail-under=90", {"ci:coverage", "ci:pytest", "coverage:fail_under"}),
    ("pre-commit install", set()),
    ("pre-commit run --all-files --show-diff-on-failure", {"ci:pre-commit"}),
    ("ruff format --check . ; ruff check --output-format=github .", {"ci:ruff-format", "ci:ruff"}),
    ("CI=1 .venv/bin/pytest -W error -p no:cacheprovider", {"ci:pytest", "pytest:warnings-error"}),
    ("poetry run black --check . | tee log && isort --check-only .", {"ci:black", "ci:isort"}),
    ("python scripts/check.py --pytest", set()),
    ("echo 'unbalanced", set()),
    ("sudo env PYTHONPATH=src py.test --strict-markers", {"ci:pytest", "pytest:strict-markers"}),
])
def test_command_signals(command, signals):
    assert set(command_signals(command, "ci")) == signals


def test_a_plugin_topic_is_matched_by_its_signals(tmp_path):
    house = Topic(id="house-lint", title="Our own lint", keywords=("house",), check="bespoke", tool="ruff",
                  file="pyproject.toml", format="toml", snippet="[tool.ruff.lint]\nextend-select = [\"RUF\"]\n",
                  action="Select RUF", enforced_by=("ruff:RUF012",))
    assert enforced_sightings(SourceContext(root=tmp_path), topics=[house]) == ()
    write(tmp_path, {"pyproject.toml": house.snippet})
    assert [s.identity.rpartition(":")[2] for s in enforced_sightings(SourceContext(root=tmp_path), [house])] == ["house-lint"]


def test_a_workflow_whose_name_has_control_characters_is_skipped(tmp_path):
    write(tmp_path, {".github/workflows/ci.yml": "jobs: {t: {steps: [{run: pytest}]}}",
                     ".github/workflows/evil\x1b[2J.yml": "jobs: {t: {steps: [{run: tox}]}}"})
    warnings: list = []
    signals = detected_signals(context(tmp_path, warnings))
    assert "ci:pytest" in signals and "ci:tox" not in signals
    assert len(warnings) == 1 and warnings[0].startswith(".github/workflows:") and "\x1b" not in warnings[0]
