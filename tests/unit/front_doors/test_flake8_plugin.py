"""``flake8_plugin`` called directly, without flake8: its selection rule (``lad_selected``), its options, the
zero-cost path when ``LAD`` is not selected (nothing loaded, nothing written, nothing reported), a
``[tool.ladder]`` that is not valid reported as one ``LAD000`` naming the file and key, the run id it claims,
and one file checked in process."""

from __future__ import annotations

import ast
import os
from types import SimpleNamespace

import pytest

from ladder_plugins.catalogue import RULES
from ladder_plugins.flake8_plugin import LadderChecker, lad_selected

from tests.unit.reports.outcomes import RED_UNIT

_STATE = ("enabled", "record", "from_stdin", "settings", "pipeline", "config_error", "say")
_ENV = ("LADDER_RUN_ID", "LADDER_RUN_ID_OWNER", "LADDER_RUN_ID_GENERATED")


@pytest.fixture
def checker(tmp_path, monkeypatch):
    """``LadderChecker`` with its class state and the run-id variables restored after the test, in an empty
    project that is the working directory."""
    for name in _STATE:
        monkeypatch.setattr(LadderChecker, name, getattr(LadderChecker, name))
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LADDER_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    return LadderChecker


def _options(**given):
    base = {"select": None, "extend_select": None, "ignore": None, "extend_ignore": None,
            "extended_default_select": ["E", "F", "W", "C90", "LAD"], "filenames": ["m.py"],
            "ladder_mode": None, "ladder_base": None, "ladder_no_cache": True, "ladder_no_record": True}
    return SimpleNamespace(**{**base, **given})


def _errors(checker_class, text, filename="m.py"):
    found = checker_class(ast.parse(text), filename, text.splitlines(keepends=True)).run()
    return [(line, col, message) for line, col, message, _ in found]


@pytest.mark.parametrize("options, codes, expected", [
    ({"select": "E, lad"}, ["LAD101"], True),  # a comma string, spaces and case as flake8 gives them
    ({"select": " , "}, ["LAD101"], True),  # nothing given is the default selection
    ({"extended_default_select": ["E", "F"]}, ["LAD101"], False),  # not among the defaults
    ({"extended_default_select": None}, ["LAD101"], True),  # flake8's own defaults name LAD
    ({"select": ["LAD1"], "ignore": ["LAD10"]}, ["LAD101", "LAD900"], False),
    ({"select": ["LAD1"], "ignore": ["LAD10"]}, ["LAD111"], True),
    ({"extend_ignore": ["LAD9"]}, ["LAD101"], True),
    ({"extend_ignore": ["LAD9"]}, ["LAD900"], False),
    ({}, [], False),
])
def test_lad_selected_by_flake8s_rules(options, codes, expected):
    assert lad_selected(_options(**options), codes) is expected


def test_the_options_it_adds_read_from_config_too():
    added = []
    manager = SimpleNamespace(add_option=lambda *names, **kw: added.append((names[0], kw)))
    LadderChecker.add_options(manager)
    assert [name for name, _ in added] == ["--ladder-mode", "--ladder-base", "--ladder-no-cache",
                                           "--ladder-no-record"]
    assert all(kw["parse_from_config"] for _, kw in added)
    assert tuple(added[0][1]["choices"]) == ("advisory", "recurrence", "new", "strict")


def test_not_selected_costs_nothing(checker, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\nmode = 'nonsense'\n")
    checker.parse_options(_options(select=["E", "F"], ladder_no_record=False))
    assert (checker.enabled, checker.settings, checker.pipeline, checker.config_error) == (False, None, None, None)
    assert _errors(checker, RED_UNIT) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]
    assert "LADDER_RUN_ID" not in os.environ


def test_an_invalid_table_is_one_lad000_naming_the_file_and_key(checker, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\nmode = 'sometimes'\n")
    checker.parse_options(_options())
    assert checker.enabled and checker.pipeline is None
    ((line, col, message),) = _errors(checker, RED_UNIT)
    assert (line, col) == (1, 0)
    assert message == (f"LAD000 ladder-plugins cannot run: {tmp_path / 'pyproject.toml'}: [tool.ladder] mode = "
                       "\"sometimes\": expected one of 'advisory', 'recurrence', 'new', 'strict'")


def test_a_red_unit_is_a_flake8_error_and_nothing_is_recorded(checker, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    checker.parse_options(_options())
    assert checker.enabled and checker.config_error is None and checker.record is False
    found = _errors(checker, RED_UNIT)
    assert found == [(1, 0, "LAD101 cyclomatic complexity of 'f' is 13 (> 10)"),
                     (1, 0, "LAD105 number of parameters of 'f' is 12 (> 5)")]
    assert not (tmp_path / ".ladder" / "history" / "events.jsonl").exists()


def test_stdin_input_records_nothing(checker, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    checker.parse_options(_options(filenames=["-"], ladder_no_record=False))
    assert checker.from_stdin is True
    assert [m[:6] for _, _, m in _errors(checker, RED_UNIT, "stdin")] == ["LAD101", "LAD105"]
    assert not (tmp_path / ".ladder" / "history" / "events.jsonl").exists()


def test_a_run_id_is_claimed_once_per_invocation_and_a_users_is_kept(checker, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    checker.parse_options(_options())
    first = os.environ["LADDER_RUN_ID"]
    assert os.environ["LADDER_RUN_ID_GENERATED"] == first
    assert os.environ["LADDER_RUN_ID_OWNER"] == str(os.getpid())
    checker.parse_options(_options())
    assert os.environ["LADDER_RUN_ID"] != first  # a new invocation in this process: a new run
    monkeypatch.setenv("LADDER_RUN_ID", "ci-run-7")
    checker.parse_options(_options())
    assert os.environ["LADDER_RUN_ID"] == "ci-run-7"


def test_every_rule_code_is_one_flake8_can_select():
    assert all(code.startswith("LAD") and code[3:].isdigit() for code in RULES)
