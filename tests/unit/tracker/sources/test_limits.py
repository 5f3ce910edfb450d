"""``tracker.sources.enforced.limits``: ladder's own limits where ladder runs, each at the table that sets it
or at ladder's default and what runs ladder; a ``[tool.ladder]`` that is not valid is one warning naming the
file and the key, and no limit is counted."""

from __future__ import annotations


from ladder_plugins.tracker.sources.enforced.limits import ladder_limits, ladder_rules
from ladder_plugins.tracker.sources.enforced.linters import Linter
from ladder_plugins.tracker.sources.enforced.reading import Evidence

from tests.unit.tracker.sources.project_files import project, signals

TABLE = """\
[tool.ladder]
skip_roles = ["test"]
[tool.ladder.thresholds]
cyclomatic_max = 12
function_lines_max = false
[tool.ladder.thresholds.library]
exported_params_max = 3
[tool.ladder.feedback]
grace_days = 3
"""


def test_each_limit_at_its_table_or_at_the_default(tmp_path):
    files, warnings = project(tmp_path, {"pyproject.toml": TABLE})
    found = {ev.signals[0]: ev.location for ev in ladder_limits(files, [], None)}
    assert found["ladder:cyclomatic_max"] == "pyproject.toml [tool.ladder.thresholds] cyclomatic_max = 12"
    assert found["ladder:exported_params_max"] == ("pyproject.toml [tool.ladder.thresholds.library] "
                                                   "exported_params_max = 3")
    assert found["ladder:cognitive_max"] == ("ladder's default cognitive_max = 15 for app code, "
                                             "pyproject.toml [tool.ladder]")
    assert found["ladder:exported_lines_max"] == ("ladder's default exported_lines_max = 40 for library code, "
                                                  "pyproject.toml [tool.ladder]")
    assert warnings == []


def test_a_limit_turned_off_or_a_skipped_role_counts_nothing(tmp_path):
    files, _ = project(tmp_path, {"pyproject.toml": TABLE})
    found = signals(ladder_limits(files, [], None))
    assert "ladder:function_lines_max" not in found  # set to false
    assert "ladder:min_assertions" not in found  # its role, test, is skipped
    assert "ladder:maintainability_min" not in found  # no default limit
    assert "ladder:recurring_hotspot" not in found and "ladder:configuration" not in found
    assert len(found) == len(set(found)) == 9


def test_an_empty_table_says_nothing_but_a_runner_does(tmp_path):
    files, _ = project(tmp_path, {"pyproject.toml": "[tool.ladder]\n"})
    assert ladder_limits(files, [], None) == []
    tox = Evidence("tox.ini", "tox.ini [testenv] commands: ladder check", ("tox:ladder",))
    found = ladder_limits(files, [tox], None)
    assert found[0].location == ("ladder's default cyclomatic_max = 10 for app code, "
                                 "tox.ini [testenv] commands: ladder check")
    assert {ev.file for ev in found} == {"tox.ini"}
    assert "ladder:min_assertions" in signals(found)


def test_flake8_reporting_lad_codes_runs_ladder(tmp_path):
    files, _ = project(tmp_path, {})
    chosen = Evidence("setup.cfg", "setup.cfg [flake8] select: LAD", ("flake8:LAD",))
    flake8 = Linter("flake8", (("LAD", chosen),), chosen=frozenset({"LAD"}))
    found = ladder_limits(files, [], flake8)
    assert found and found[0].location.endswith(", setup.cfg [flake8] select: LAD")
    assert ladder_limits(files, [], Linter("flake8", ())) == []


def test_an_invalid_table_is_one_warning_naming_the_key(tmp_path):
    files, warnings = project(tmp_path, {"pyproject.toml": "[tool.ladder.thresholds]\nbody_lines_max = 3\n"})
    assert ladder_limits(files, [], None) == []
    assert len(warnings) == 1
    assert warnings[0].startswith("pyproject.toml: [tool.ladder] is not valid, so ladder's rules are not counted (")
    assert "[tool.ladder.thresholds] body_lines_max: unknown key" in warnings[0]


def test_ladder_rules_ignores_the_trackers_own_table(tmp_path):
    files, warnings = project(tmp_path, {})
    loaded = ladder_rules(files, {"feedback": {"anything": 1}, "mode": "strict"})
    assert loaded is not None and loaded.settings.mode == "strict"
    assert "cyclomatic_max" in loaded.rules and warnings == []
    assert ladder_rules(files, {"mode": "sometimes"}) is None
    assert len(warnings) == 1 and "mode" in warnings[0]


def test_an_app_limit_in_its_role_table_is_said_there(tmp_path):
    files, _ = project(tmp_path, {"pyproject.toml": "[tool.ladder.thresholds.app]\ncyclomatic_max = 12\n"})
    found = {ev.signals[0]: ev.location for ev in ladder_limits(files, [], None)}
    assert found["ladder:cyclomatic_max"] == "pyproject.toml [tool.ladder.thresholds.app] cyclomatic_max = 12"
