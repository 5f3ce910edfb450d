"""``tracker.sources.enforced.linters``: which rule codes ruff and flake8 report, decided as each decides it
(ruff: the most specific selector, an ignore as specific wins; flake8: explicit beats default, then the
longest prefix), read from the first file each tool reads, or their defaults where the project runs them."""

from __future__ import annotations

import pytest

from ladder_plugins.tracker.sources.enforced.linters import Linter, flake8_linter, ruff_linter
from ladder_plugins.tracker.sources.enforced.reading import Evidence

from tests.unit.tracker.sources.project_files import project

RUFF = '[tool.ruff.lint]\nselect = ["E", "D1", "PL"]\nignore = ["E501", "D10"]\nextend-select = ["DTZ005"]\n'


def _chosen(linter, code):
    found = linter.reports(code)
    return found.location if found is not None else None


@pytest.mark.parametrize("code, where", [
    ("E722", "pyproject.toml [tool.ruff.lint] select: E"),
    ("E501", None),  # ignored as specifically as it is selected
    ("D100", None),  # D10 is more specific than D1
    ("D200", None),  # not covered by D1
    ("DTZ005", "pyproject.toml [tool.ruff.lint] extend-select: DTZ005"),
    ("DTZ001", None),  # D does not cover DTZ
    ("PLR0913", "pyproject.toml [tool.ruff.lint] select: PL"),
    ("F401", None),  # select replaces ruff's defaults
])
def test_ruff_decides_as_ruff_does(tmp_path, code, where):
    files, warnings = project(tmp_path, {"pyproject.toml": RUFF})
    assert _chosen(ruff_linter(files, []), code) == where
    assert warnings == []


def test_ruff_toml_wins_over_pyproject_and_all_is_least_specific(tmp_path):
    files, _ = project(tmp_path, {"ruff.toml": 'select = ["ALL"]\nignore = ["D"]\n', "pyproject.toml": RUFF})
    linter = ruff_linter(files, [])
    assert _chosen(linter, "ANN001") == "ruff.toml select: ALL"
    assert _chosen(linter, "D100") is None
    assert linter.reports("E501") is not None


def test_ruff_defaults_count_only_where_something_runs_ruff(tmp_path):
    files, _ = project(tmp_path, {})
    assert ruff_linter(files, []) is None
    hook = Evidence(".pre-commit-config.yaml", "hook ruff", ("precommit:ruff",))
    linter = ruff_linter(files, [hook])
    assert [name for name, _ in linter.selected] == ["E4", "E7", "E9", "F"]
    assert _chosen(linter, "E711") == "ruff's default rules (E4, E7, E9, F), run by hook ruff"
    assert linter.reports("E501") is None


FLAKE8 = "[flake8]\nextend-select = B950\nextend-ignore = E203\nmax-complexity = 10\n"


@pytest.mark.parametrize("code, where", [
    ("E722", "setup.cfg [flake8]: flake8 plugin flake8 (E), on by default"),
    ("E203", None),  # extend-ignore
    ("W503", None),  # flake8's default ignores stay without ignore
    ("C901", "setup.cfg [flake8]: flake8 plugin mccabe (C90), on by default"),
    ("B950", "setup.cfg [flake8] extend-select: B950"),
    ("LAD101", "setup.cfg [flake8]: flake8 plugin ladder-plugins (LAD), on by default"),
])
def test_flake8_decides_as_flake8_does(tmp_path, code, where):
    files, _ = project(tmp_path, {"setup.cfg": FLAKE8})
    assert _chosen(flake8_linter(files, []), code) == where


def test_flake8_select_replaces_the_plugins_and_mccabe_is_off_without_max_complexity(tmp_path):
    files, _ = project(tmp_path, {"tox.ini": "[flake8]\nselect = E,C90\nignore = E1\n"})
    linter = flake8_linter(files, [])
    assert _chosen(linter, "E722") == "tox.ini [flake8] select: E"
    assert linter.reports("E101") is None  # an explicit ignore, longer than the select
    assert linter.reports("C901") is None  # mccabe reports nothing without max-complexity
    assert linter.reports("F401") is None
    assert linter.reports("W291") is None  # W is not selected at all


def test_flake8_explicit_select_beats_a_default_ignore(tmp_path):
    files, _ = project(tmp_path, {".flake8": "[flake8]\nextend-select = W503\n"})
    assert _chosen(flake8_linter(files, []), "W503") == ".flake8 [flake8] extend-select: W503"


def test_flake8_defaults_where_something_runs_it(tmp_path):
    files, _ = project(tmp_path, {})
    assert flake8_linter(files, []) is None
    step = Evidence("tox.ini", "tox.ini [testenv] commands: flake8", ("tox:flake8",))
    linter = flake8_linter(files, [step])
    assert _chosen(linter, "F401") == ("flake8's defaults, run by tox.ini [testenv] commands: flake8: "
                                       "flake8 plugin flake8 (F), on by default")


def test_a_tie_between_select_and_ignore_is_ignored():
    ev = Evidence("f", "f", ())
    linter = Linter("flake8", (("E1", ev),), ignored=("E1",), chosen=frozenset({"E1"}),
                    chosen_ignored=frozenset({"E1"}))
    assert linter.reports("E101") is None
    ruff = Linter("ruff", (("E1", ev),), ignored=("E1",))
    assert ruff.reports("E101") is None
