"""[tool.ladder] validation: every bad input names the file, the key and what is expected."""

from __future__ import annotations

import pytest

from ladder_plugins.config import find_root, load_settings
from ladder_plugins.errors import ConfigError


def _load(tmp_path, body: str):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n" + body)
    return load_settings(tmp_path)


def test_defaults(tmp_path):
    s = _load(tmp_path, "")
    assert (s.mode, s.history_dir, s.yellow_ratio) == ("recurrence", ".ladder", 0.8)
    assert s.limit("app", "cyclomatic_max") == 10
    assert s.limit("app", "cognitive_max") == 15
    assert s.limit("app", "abc_max") == 17
    assert s.limit("test", "min_assertions") == 1
    assert s.limit("app", "min_assertions") is None
    assert s.limit("library", "exported_params_max") == 4
    assert (s.recurrence.hotspot_min_count, s.recurrence.hotspot_min_days, s.recurrence.count) == (3, 2, "edits")
    assert (s.history.retention_days, s.history.max_mb) == (90, 20.0)


def test_thresholds_for_app_and_per_role(tmp_path):
    s = _load(tmp_path, "[tool.ladder.thresholds]\ncognitive_max = 12\n[tool.ladder.thresholds.test]\nmin_assertions = 2\ncyclomatic_max = false\n")
    assert s.limit("app", "cognitive_max") == 12
    assert s.limit("test", "cognitive_max") == 8  # the test role keeps its own default
    assert s.limit("test", "min_assertions") == 2
    assert s.limit("test", "cyclomatic_max") is None


@pytest.mark.parametrize(
    "body, fragments",
    [
        ('mdoe = "strict"\n', ["[tool.ladder] mdoe", "unknown key", "did you mean 'mode'"]),
        ('mode = "strcit"\n', ["[tool.ladder] mode", "expected one of", "did you mean 'strict'"]),
        ("paths = 3\n", ["[tool.ladder] paths", "list of non-empty strings"]),
        ('paths = ["/etc"]\n', ["[tool.ladder] paths", "absolute path"]),
        ('exclude = ["../outside/**"]\n', ["[tool.ladder] exclude", "escapes the project root"]),
        ('history_dir = "../h"\n', ["[tool.ladder] history_dir", "escapes the project root"]),
        ("yellow_ratio = 2\n", ["[tool.ladder] yellow_ratio", "a number from 0.0 to 1.0"]),
        ("[tool.ladder.thresholds]\ncognitive_max = -1\n", ["[tool.ladder.thresholds] cognitive_max = -1", "a number from 0"]),
        ("[tool.ladder.thresholds]\ncognitive_max = \"high\"\n", ["cognitive_max", "a number from 0"]),
        ("[tool.ladder.thresholds]\ncognitve_max = 3\n", ["[tool.ladder.thresholds] cognitve_max", "did you mean 'cognitive_max'"]),
        ("[tool.ladder.thresholds]\ncognitive_max = 1e9\n", ["cognitive_max", "to 1000000"]),
        ("[tool.ladder.thresholds.tset]\nmin_assertions = 1\n", ["[tool.ladder.thresholds] tset", "unknown role", "did you mean 'test'"]),
        ("[tool.ladder.thresholds.test]\nmin_asertions = 1\n", ["[tool.ladder.thresholds.test] min_asertions", "did you mean 'min_assertions'"]),
        ("[tool.ladder.roles]\nscirpt = [\"scripts/**\"]\n", ["[tool.ladder.roles] scirpt", "did you mean 'script'"]),
        ("[tool.ladder.recurrence]\ncount = \"edit\"\n", ["[tool.ladder.recurrence] count", "did you mean 'edits'"]),
        ("[tool.ladder.recurrence]\nhotspot_min_count = 0\n", ["hotspot_min_count = 0", "a whole number from 1"]),
        ("[tool.ladder.history]\nretention_days = true\n", ["retention_days = true", "a whole number"]),
        ('skip_roles = ["generatd"]\n', ["[tool.ladder] skip_roles", "a list of roles"]),
    ],
)
def test_bad_configuration_is_named(tmp_path, body, fragments):
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, body)
    message = str(info.value)
    assert str(tmp_path / "pyproject.toml") in message
    for fragment in fragments:
        assert fragment in message


def test_invalid_toml_gives_line_and_column(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\nmode = \n")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path)
    assert "not valid TOML" in str(info.value) and "line 2" in str(info.value)


def test_root_is_the_nearest_pyproject_with_a_ladder_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\nmode = 'strict'\n")
    inner = tmp_path / "pkg" / "sub"
    inner.mkdir(parents=True)
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    root, file = find_root(inner)
    assert root == tmp_path and file == tmp_path / "pyproject.toml"
    assert load_settings(inner).mode == "strict"


def test_root_falls_back_to_pyproject_then_git_then_start(tmp_path):
    (tmp_path / ".git").mkdir()
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    assert find_root(inner) == (tmp_path, None)
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_root(inner)[0] == tmp_path / "a"


def test_settings_are_frozen(tmp_path):
    s = _load(tmp_path, "")
    with pytest.raises(AttributeError):
        s.mode = "strict"  # type: ignore[misc]
    assert s.replace(mode="strict").mode == "strict" and s.mode == "recurrence"
    with pytest.raises(ConfigError):
        s.replace(mode="loud")


@pytest.mark.parametrize("value", ['"check_*"', "[1]", '[""]', '["a\\u0007"]'])
def test_assertion_helpers_must_be_a_list_of_names(tmp_path, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.ladder]\nassertion_helpers = {value}\n")
    with pytest.raises(ConfigError, match=r"assertion_helpers = .*expected a list of function names or globs"):
        load_settings(tmp_path)
