"""``tracker.sources.enforced.tables.config_evidence``: coverage's gate, mypy's strictness, pytest's options,
black and isort, read from the files each tool reads, in the order it reads them."""

from __future__ import annotations

from ladder_plugins.tracker.sources.enforced.tables import config_evidence

from tests.unit.tracker.sources.project_files import project, signals


def _where(evidence):
    return [(ev.location, ev.signals) for ev in evidence]


def test_coverage_gate_counts_only_above_zero(tmp_path):
    files, _ = project(tmp_path, {"pyproject.toml": "[tool.coverage.report]\nfail_under = 85\n",
                                  ".coveragerc": "[report]\nfail_under = 0\n",
                                  "setup.cfg": "[coverage:report]\nfail-under = x\n"})
    assert _where(config_evidence(files)) == [
        ("pyproject.toml [tool.coverage.report] fail_under = 85", ("coverage:fail_under",))]


def test_mypy_strict_or_untyped_defs_is_strict_any_table_is_config(tmp_path):
    files, _ = project(tmp_path, {"mypy.ini": "[mypy]\nstrict = True\n",
                                  "pyproject.toml": "[tool.mypy]\ndisallow_untyped_defs = false\n",
                                  "setup.cfg": "[mypy]\ndisallow-untyped-defs = yes\n"})
    assert _where(config_evidence(files)) == [
        ("mypy.ini [mypy] strict = true", ("mypy:config", "mypy:strict")),
        ("pyproject.toml [tool.mypy]", ("mypy:config",)),
        ("setup.cfg [mypy] disallow_untyped_defs = true", ("mypy:config", "mypy:strict"))]


def test_pytest_options_from_addopts_and_its_own_keys(tmp_path):
    files, _ = project(tmp_path, {"pytest.ini": """\
        [pytest]
        addopts = -W error --strict-markers --ladder
        xfail_strict = true
        """})
    assert _where(config_evidence(files)) == [
        ("pytest.ini [pytest]", ("pytest:config",)),
        ("pytest.ini [pytest] addopts", ("pytest:strict-markers",)),
        ("pytest.ini [pytest] addopts", ("pytest:ladder",)),
        ("pytest.ini [pytest] addopts", ("pytest:warnings-error",)),
        ("pytest.ini [pytest] xfail_strict", ("pytest:xfail-strict",))]


def test_pytest_filterwarnings_counts_only_when_error_comes_first(tmp_path):
    first = project(tmp_path / "a", {"tox.ini": "[pytest]\nfilterwarnings =\n    error\n    ignore::UserWarning\n"})
    later = project(tmp_path / "b", {"tox.ini": "[pytest]\nfilterwarnings =\n    ignore::UserWarning\n    error\n"})
    assert "pytest:warnings-error" in signals(config_evidence(first[0]))
    assert signals(config_evidence(later[0])) == ["pytest:config"]


def test_pytest_strict_is_three_signals_and_a_toml_list_of_addopts_is_read(tmp_path):
    files, _ = project(tmp_path, {"pytest.toml": '[pytest]\nstrict = true\naddopts = ["-p", "no:cacheprovider", '
                                                 '"--strict-config"]\n'})
    assert signals(config_evidence(files)) == ["pytest:config", "pytest:strict-config", "pytest:strict-markers",
                                               "pytest:strict-config", "pytest:xfail-strict"]


def test_black_and_isort_are_present_where_configured(tmp_path):
    files, _ = project(tmp_path, {"pyproject.toml": "[tool.black]\nline-length = 100\n",
                                  ".isort.cfg": "[settings]\nprofile = black\n"})
    assert _where(config_evidence(files)) == [("pyproject.toml [tool.black]", ("black:config",)),
                                              (".isort.cfg [settings]", ("isort:config",))]


def test_a_broken_file_is_one_warning_and_the_others_are_read(tmp_path):
    files, warnings = project(tmp_path, {"pyproject.toml": "[tool.black\n", "setup.cfg": "[isort]\nprofile = x\n"})
    assert _where(config_evidence(files)) == [("setup.cfg [isort]", ("isort:config",))]
    assert len(warnings) == 1 and warnings[0].startswith("pyproject.toml: not valid TOML (")


def test_nothing_configured_is_nothing(tmp_path):
    files, warnings = project(tmp_path, {"pyproject.toml": "[project]\nname = 'x'\n"})
    assert (config_evidence(files), warnings) == ([], [])
