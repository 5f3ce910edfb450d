"""``ladder check`` text: one ``path:line:col: CODE [severity] message [rule]`` line per finding, yellow hidden
unless asked for, one gate entry per unit, a verdict that says what it means, colour only on a terminal."""

from __future__ import annotations

import io
import re

import pytest

from ladder_plugins.reports.terminal import wants_colour

from tests.helpers.reports import FINAL, demo_copy, ladder, three_edits

FINDING = re.compile(r"(?P<path>[\w/.]+):(?P<line>\d+):1: (?P<code>LAD\d{3}) \[(?P<tag>\w+)\] (?P<message>.+)")


@pytest.fixture(scope="module")
def hot(tmp_path_factory):
    """The demo project with price() a recurring hotspot of three rules."""
    return three_edits(tmp_path_factory.mktemp("hot") / "shop")


def _check(project, *args, **env):
    return ladder(["check", "--no-record", *args], project, LADDER_NOW=FINAL, **env)


def _findings(stdout):
    return [m.groupdict() for m in map(FINDING.fullmatch, stdout.splitlines()) if m]


def test_every_finding_is_one_line_an_editor_can_jump_to(hot):
    done = _check(hot)
    found = _findings(done.stdout)
    assert found and all((hot / f["path"]).is_file() for f in found)
    assert {f["tag"] for f in found} == {"red", "hotspot"}  # yellow is hidden by default
    assert all(f["message"].endswith(("[cyclomatic_max]", "[cognitive_max]", "[abc_max]"))
               for f in found if f["tag"] == "red")
    assert "4 yellow findings not listed (--show-yellow lists them)" in done.stdout


def test_a_unit_breaking_several_rules_is_one_gate_entry(hot):
    entries = [f for f in _findings(_check(hot).stdout) if f["code"] == "LAD900"]
    assert [e["message"] for e in entries] == [
        "'price': recurring hotspot for cyclomatic 12 > 10, cognitive 25 > 15, ABC 20.32 > 17; 3 versions over the "
        "limit on 2 days (first 2026-11-02, last 2026-11-03)"]


def test_flake8_says_the_same_per_rule(hot):
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "flake8", "--select", "LAD9", "--ladder-no-record", "src"], cwd=hot,
                          capture_output=True, text=True, env={**os.environ, "LADDER_NOW": FINAL}, timeout=300)
    said = [line.split(" LAD900 ", 1)[1] for line in done.stdout.splitlines()]
    assert sorted(said) == sorted(f"'price': recurring hotspot for {rule}; 3 versions over the limit on 2 days (first "
                                  f"2026-11-02, last 2026-11-03)"
                                  for rule in ("cyclomatic 12 > 10", "cognitive 25 > 15", "ABC 20.32 > 17"))


@pytest.mark.parametrize("args, config, tags", [
    (["--show-yellow"], "", {"red", "yellow", "hotspot"}),
    ([], "show_yellow = true\n", {"red", "yellow", "hotspot"}),
    (["--severity", "yellow"], "", {"yellow", "hotspot"}),
    (["--severity", "red"], "show_yellow = true\n", {"red", "hotspot"}),
])
def test_which_severities_are_listed(tmp_path, args, config, tags):
    project = demo_copy(tmp_path / "shop")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.ladder]\n", "[tool.ladder]\n" + config, 1))
    done = ladder(["check", "--no-record", *args], project, LADDER_NOW=FINAL)
    assert {f["tag"] for f in _findings(done.stdout)} | {"hotspot"} == tags, done.stdout + done.stderr


def test_top_lists_the_worst_units_only_and_group_puts_them_under_their_file(hot):
    top = _findings(_check(hot, "--top", "1", "--show-yellow").stdout)
    assert {f["message"].split("'")[1] for f in top if f["code"] != "LAD900"} == {"legacy_report"}  # 20.74 > 20.32
    grouped = _check(hot, "--group").stdout.splitlines()
    assert grouped[0] == "src/shop/legacy.py" and grouped[1].startswith("  1:1: LAD101 [red] ")
    assert "src/shop/pricing.py" in grouped


@pytest.mark.parametrize("value", ["0", "-1", "x"])
def test_top_takes_a_positive_number(hot, value):
    done = _check(hot, "--top", value)
    assert done.returncode == 2 and "--top" in done.stderr and "Traceback" not in done.stderr


def test_quiet_prints_the_verdict_only(hot):
    done = _check(hot, "-q")
    assert done.returncode == 1
    assert done.stdout.splitlines() == ["FAILED: 1 recurring hotspot (6 red, 4 yellow in 4 files; mode recurrence; history: 3 runs in the log)"]


def test_the_verdict_says_what_passing_means(tmp_path):
    project = demo_copy(tmp_path / "shop")
    done = ladder(["check", "--no-record", "src/shop/pricing.py"], project, LADDER_NOW=FINAL)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "passed: no recurring hotspots (3 red, 2 yellow in 1 file; mode recurrence; history: 0 runs in the log)"


def test_a_file_rule_is_worded_for_a_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n[tool.ladder.thresholds]\n"
                                             "file_lines_max = 10\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "models.py").write_text("x = 1\n" * 12)
    done = ladder(["check", "--no-record", "--mode", "strict"], tmp_path)
    assert ("src/models.py:1:1: LAD107 [red] file length of 'models.py' is 12 lines (> 10) [file_lines_max]"
            in done.stdout.splitlines())


def test_a_file_rules_hotspot_says_where_its_suppression_goes():
    from ladder_plugins.history.gate import GateFailure

    from tests.helpers.history import make_event

    event = make_event("src/models.py::file_lines_max", rule_key="file_lines_max")
    failure = GateFailure(event, None, "hotspot")
    assert "module header" in failure.advice and "def line" not in failure.advice
    assert failure.subject == "'models.py'"


@pytest.mark.parametrize("env, tty, colour", [
    ({}, True, True), ({}, False, False), ({"NO_COLOR": "1"}, True, False), ({"FORCE_COLOR": "1"}, False, True),
    ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False), ({"TERM": "dumb"}, True, False),
])
def test_colour_follows_the_terminal_and_the_environment(env, tty, colour):
    class Stream(io.StringIO):
        def isatty(self):
            return tty

    assert wants_colour(Stream(), env) is colour


def test_colour_goes_into_a_pipe_only_when_forced_and_never_into_a_file(hot, tmp_path):
    assert "\x1b[" not in _check(hot).stdout
    forced = _check(hot, FORCE_COLOR="1")
    assert "\x1b[1;31mFAILED\x1b[0m" in forced.stdout
    out = tmp_path / "check.txt"
    _check(hot, "--output", str(out), FORCE_COLOR="1")
    assert "\x1b[" not in out.read_text()
