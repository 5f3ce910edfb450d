"""pytest front end, tested the pytest way: pytester runs, with and without xdist."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers.snippets import VIOLATING

XDIST = [pytest.param([], id="serial"), pytest.param(["-n", "2"], id="xdist")]


def events(pytester):
    """The log's events (its sightings, the runs that saw unchanged violations again, left out)."""
    log = pytester.path / ".ladder" / "history" / "events.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return [r for r in records if r.get("kind") != "seen"]


def run(pytester, *args):
    """xdist runs need real worker processes: run those in a subprocess."""
    if "-n" in args:
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    return pytester.runpytest("-p", "no:cacheprovider", *args)


def ladder_items(result):
    """The files whose ladder item ran, from the ``-v`` lines (serial and xdist alike)."""
    return set(re.findall(r"(\S+)::ladder\b", result.stdout.str()))


def hotspot_runs(pytester, monkeypatch, versions, *args):
    """One session per version of ``shop.py``, each a few hours later: the third makes a hotspot."""
    shop = pytester.path / "shop.py"
    outcomes = []
    for text, when in zip(versions, ["2026-11-01T09:00:00Z", "2026-11-01T16:00:00Z", "2026-11-02T09:00:00Z"]):
        shop.write_text(text)
        monkeypatch.setenv("LADDER_NOW", when)
        outcomes.append(run(pytester, "--ladder", *args))
    return outcomes


@pytest.fixture
def shop(pytester):
    pytester.copy_example("project")
    return pytester


def test_without_ladder_nothing_happens(shop):
    result = run(shop)
    result.assert_outcomes(passed=2)
    assert "::ladder" not in result.stdout.str() and "= ladder =" not in result.stdout.str()
    assert not (shop.path / ".ladder").exists()


def test_the_plugin_can_be_disabled(shop):
    result = shop.runpytest("-p", "no:ladder", "--ladder")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unrecognized arguments: --ladder*"])


@pytest.mark.parametrize("xdist", XDIST)
def test_one_item_per_file_and_a_summary(shop, xdist):
    result = run(shop, "--ladder", "-v", *xdist)
    result.assert_outcomes(passed=5)
    items = ["src/shop/__init__.py::ladder", "src/shop/pricing.py::ladder", "tests/test_pricing.py::ladder"]
    # serial -v prints "path PASSED", xdist prints "[gw0] [ 60%] PASSED path", in any order
    result.stdout.re_match_lines_random([rf".*({i} PASSED|PASSED {i}).*" for i in items])
    result.stdout.fnmatch_lines([
        "*= ladder =*",
        "mode recurrence, run *, 6 events recorded in *",
        "violations per rule:",
        "  LAD102 cognitive_max: 1 red, 0 yellow",
        "  LAD108 min_assertions: 1 red, 0 yellow",
        "recurring hotspots of this run:",
    ])
    recorded = events(shop)
    assert len(recorded) == 6 and len({e["run_id"] for e in recorded}) == 1
    assert {e["tool"] for e in recorded} == {"pytest"}


@pytest.mark.parametrize("xdist", XDIST)
def test_strict_mode_fails_with_a_readable_report(shop, xdist):
    result = run(shop, "--ladder", "--ladder-mode", "strict", *xdist)
    result.assert_outcomes(passed=3, failed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "*src/shop/pricing.py: the ladder gate failed (mode strict)*",
        "*src/shop/pricing.py:1: LAD102 cognitive complexity of 'price' is 25 (> 15)*",
        "*what to do: refactor the unit below the limit, or suppress it*",
    ])
    result.stdout.fnmatch_lines(["*LAD108 number of assertions of 'test_shipping_is_called' is 0 (< 1)*"])


def test_advisory_never_fails(shop):
    run(shop, "--ladder", "--ladder-mode", "advisory").assert_outcomes(passed=5)


def test_k_selects_the_ladder_items_and_junitxml_lists_them(shop):
    result = run(shop, "--ladder", "-k", "ladder", "--junitxml=report.xml")
    result.assert_outcomes(passed=3)
    xml = (shop.path / "report.xml").read_text()
    assert xml.count('name="ladder"') == 3 and 'classname="src.shop.pricing"' in xml


NARROWED = [
    pytest.param(["tests/test_pricing.py"], {"tests/test_pricing.py"}, 3, id="file"),
    pytest.param(["tests/test_pricing.py::test_shipping_light"], {"tests/test_pricing.py"}, 2, id="node-id"),
    pytest.param(["src"], {"src/shop/__init__.py", "src/shop/pricing.py"}, 2, id="directory"),
    pytest.param(["tests", "-n", "2"], {"tests/test_pricing.py"}, 3, id="xdist"),
]


@pytest.mark.parametrize(("args", "items", "passed"), NARROWED)
def test_explicit_paths_narrow_the_ladder_items(shop, args, items, passed):
    result = run(shop, "--ladder", "-v", *args)
    result.assert_outcomes(passed=passed)
    assert ladder_items(result) == items


def test_testpaths_keep_the_configured_items(shop):
    pyproject = shop.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'testpaths = ["tests"]\n')
    result = run(shop, "--ladder", "-v")
    result.assert_outcomes(passed=5)
    assert ladder_items(result) == {"src/shop/__init__.py", "src/shop/pricing.py", "tests/test_pricing.py"}


NOT_RUN = [
    pytest.param(["-k", "test_shipping_light or ladder"], id="k"),
    pytest.param(["--deselect", "tests/test_pricing.py::test_shipping_is_called"], id="deselect"),
    pytest.param(["tests/test_pricing.py::test_shipping_light"], id="node-id"),
    pytest.param(["--deselect", "tests/test_pricing.py::test_shipping_is_called", "-n", "2"], id="xdist"),
]


@pytest.mark.parametrize("args", NOT_RUN)
def test_min_assertions_judges_only_the_tests_pytest_runs(shop, args):
    result = run(shop, "--ladder", "--ladder-mode", "strict", "-v", *args)
    assert "LAD108" not in result.stdout.str()
    result.stdout.re_match_lines([r".*(tests/test_pricing.py::ladder PASSED|PASSED tests/test_pricing.py::ladder).*"])
    assert "min_assertions" not in {e["rule_key"] for e in events(shop)}


@pytest.mark.parametrize("args", [["tests"], []], ids=["explicit", "default"])
def test_tests_pytest_does_not_collect_are_not_judged(shop, args):
    (shop.path / "tests" / "helpers.py").write_text("def test_like_helper():\n    pass\n")
    result = run(shop, "--ladder", "--ladder-mode", "strict", "-v", *args)
    assert "tests/helpers.py::ladder PASSED" in result.stdout.str()
    assert "test_like_helper" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*LAD108 number of assertions of 'test_shipping_is_called' is 0 (< 1)*"])


def test_no_record_writes_nothing(shop):
    run(shop, "--ladder", "--ladder-no-record").assert_outcomes(passed=5)
    assert events(shop) == []


def test_min_assertions_follows_what_pytest_collects(pytester):
    pytester.makepyprojecttoml(
        '[tool.ladder]\npaths = ["checks"]\n'
        '[tool.pytest.ini_options]\npython_files = ["check_*.py"]\npython_functions = ["check_*"]\n'
    )
    pytester.mkdir("checks")
    (pytester.path / "checks" / "check_things.py").write_text(
        "def check_asserts():\n    assert 1\n\n"
        "def check_nothing():\n    print('busy')\n\n"
        "def test_not_collected_here():\n    pass\n"
    )
    result = run(pytester, "--ladder", "--ladder-mode", "strict", "checks")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*LAD108 number of assertions of 'check_nothing' is 0 (< 1)*",
                                 "gate:", "*LAD108 number of assertions of 'check_nothing' is 0 (< 1) (strict mode)*"])
    assert "test_not_collected_here" not in result.stdout.str() and "(> 1)" not in result.stdout.str()


@pytest.mark.parametrize("xdist", XDIST)
def test_the_third_edited_version_over_two_days_fails_the_session(pytester, monkeypatch, xdist):
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["shop.py"]\n[tool.ladder.thresholds]\ncognitive_max = 2\n')
    versions = ["import os\n\n\n" + VIOLATING.format(n=n) for n in range(3)]  # price is on line 4
    outcomes = hotspot_runs(pytester, monkeypatch, versions, *xdist)
    assert [o.ret for o in outcomes] == [0, 0, pytest.ExitCode.TESTS_FAILED]
    hotspot = ("shop.py:4: LAD900 'price': recurring hotspot for cognitive 5 > 2; 3 versions over the limit on 2 days "
               "(first 2026-11-01, last 2026-11-02)")
    outcomes[2].stdout.fnmatch_lines(["gate:", f"  {hotspot}", "what to do: refactor the unit below the limit*",
                                      "recurring hotspots of this run:", f"  {hotspot}"])
    monkeypatch.setenv("LADDER_NOW", "2026-11-02T10:00:00Z")
    assert run(pytester, "--ladder", "--ladder-mode", "advisory", *xdist).ret == 0
    gate_fails = [e for e in events(pytester) if e["severity"] == "gate-fail"]
    assert [e["rule_key"] for e in gate_fails] == ["cognitive_max"]


def _before_short_summary(lines: list[str]) -> list[str]:
    """The output up to pytest's short summary, which repeats a failure (its first line, or all of it where CI
    is set): what is ours to count."""
    end = next((n for n, line in enumerate(lines) if "short test summary info" in line), len(lines))
    return lines[:end]


def test_a_hotspot_unit_breaking_two_rules_is_one_entry_in_the_failure_and_one_in_the_summary(pytester, monkeypatch):
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["shop.py"]\n'
                               '[tool.ladder.thresholds]\ncognitive_max = 2\ncyclomatic_max = 2\n')
    outcomes = hotspot_runs(pytester, monkeypatch, [VIOLATING.format(n=n) for n in range(3)])
    assert outcomes[2].ret == pytest.ExitCode.TESTS_FAILED
    gate = [line for line in _before_short_summary(outcomes[2].stdout.lines) if "LAD900" in line]
    assert len(gate) == 2 and len(set(gate)) == 1, gate  # the failing item's gate section, then the summary
    assert gate[0].startswith("  shop.py:1: LAD900 'price': recurring hotspot for cyclomatic 5 > 2, cognitive 5 > 2; ")


def test_a_file_rules_gate_line_is_at_its_line(pytester, monkeypatch):
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["shop.py"]\n[tool.ladder.thresholds]\nfile_lines_max = 3\n')
    versions = ["".join(f"x{i} = {i}\n" for i in range(n)) for n in (5, 6, 7)]
    outcomes = hotspot_runs(pytester, monkeypatch, versions)
    assert outcomes[2].ret == pytest.ExitCode.TESTS_FAILED
    hotspot = "shop.py:1: LAD900 'shop.py': recurring hotspot for file lines 7 > 3; 3 versions over the limit on 2 days *"
    outcomes[2].stdout.fnmatch_lines(["gate:", f"  {hotspot}", "what to do: *suppress it in the module header*",
                                      "recurring hotspots of this run:", f"  {hotspot}"])
    assert "def line" not in outcomes[2].stdout.str()


def test_rerunning_unchanged_code_never_fails(pytester, monkeypatch):
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["shop.py"]\n[tool.ladder.thresholds]\ncognitive_max = 2\n')
    (pytester.path / "shop.py").write_text(VIOLATING.format(n=1))
    for day in range(1, 6):
        monkeypatch.setenv("LADDER_NOW", f"2026-11-0{day}T09:00:00Z")
        run(pytester, "--ladder").assert_outcomes(passed=1)


def test_ladder_run_id_joins_other_steps(shop, monkeypatch):
    monkeypatch.setenv("LADDER_RUN_ID", "ci-job-9")
    run(shop, "--ladder", "-n", "2").assert_outcomes(passed=5)
    assert {e["run_id"] for e in events(shop)} == {"ci-job-9"}


def test_a_crashed_worker_does_not_break_the_controller(shop):
    (shop.path / "tests" / "test_crash.py").write_text("import os\n\ndef test_crash():\n    os._exit(3)\n")
    result = run(shop, "--ladder", "-n", "2")
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines(["*= ladder =*", "violations per rule:"])
    assert "test_crash" in result.stdout.str()


def test_bad_configuration_is_a_usage_error(pytester):
    pytester.makepyprojecttoml('[tool.ladder]\nmdoe = "strict"\n')
    result = pytester.runpytest("--ladder")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "ladder: " in result.stderr.str()
    assert "pyproject.toml: [tool.ladder] mdoe: unknown key; did you mean 'mode'?" in result.stderr.str()


def test_unanalysable_files_are_skipped_with_the_reason(pytester):
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["pkg"]\n')
    pytester.mkdir("pkg")
    (pytester.path / "pkg" / "deep.py").write_text("x = " + "+".join(["1"] * 5000) + "\n")
    (pytester.path / "pkg" / "fine.py").write_text("def f():\n    return 1\n")
    result = run(pytester, "--ladder", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*not analysed: pkg/deep.py: too deeply nested*"])
