"""The ``ladder`` console script, run for real in subprocesses."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.helpers.cli import ladder
from tests.helpers.paths import FIXTURES


def ladder_script():
    return shutil.which("ladder")


@pytest.fixture
def project(tmp_path):
    target = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", target)
    return target


def test_console_script_is_installed(project):
    assert ladder_script(), "the 'ladder' console script is not on PATH"
    done = subprocess.run([ladder_script(), "--version"], capture_output=True, text=True, cwd=project)
    assert done.returncode == 0 and done.stdout.startswith("ladder-plugins ")


def test_metrics_json_contract(project):
    done = ladder(["metrics", "--format", "json"], project)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"files", "skipped"}
    paths = [f["path"] for f in data["files"]]
    assert paths == ["src/shop/__init__.py", "src/shop/pricing.py", "tests/test_pricing.py"]
    pricing = data["files"][1]
    assert pricing["role"] == "app" and pricing["metrics"] == {"file_lines": 24}
    price = pricing["units"][0]
    assert price["name"] == "price" and price["line"] == 1
    assert set(price["metrics"]) == {"cyclomatic", "cognitive", "abc", "function_lines", "params", "nesting", "assertions"}
    assert price["metrics"]["params"] == 4 and price["metrics"]["assertions"] is None
    tests = data["files"][2]
    assert tests["role"] == "test"
    assert [u["metrics"]["assertions"] for u in tests["units"]] == [1, 0]


def test_metrics_text_lists_every_unit(project):
    done = ladder(["metrics", "src/shop/pricing.py"], project)
    assert done.returncode == 0
    assert "src/shop/pricing.py (app, 24 lines)" in done.stdout
    assert "price:" in done.stdout and "shipping:" in done.stdout


def test_check_exit_status_and_output(project):
    done = ladder(["check", "--mode", "strict"], project)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert all(re.fullmatch(r"[\w/.]+:\d+:1: LAD\d{3} \[red\] .+ \[\w+\]", line) for line in lines[:-2]), lines
    assert any("LAD102 [red] cognitive complexity of 'price'" in line for line in lines)
    assert any("LAD108" in line and "'test_shipping_is_called'" in line for line in lines)
    assert lines[-1].startswith("FAILED: 4 red violations (4 red, ")
    assert ladder(["check", "--mode", "advisory"], project).returncode == 0
    first = ladder(["check"], project)  # recurrence mode: a first sighting is not a hotspot
    assert first.returncode == 0 and first.stdout.splitlines()[-1].startswith("passed: no recurring hotspots (4 red")
    assert ladder(["check", "--mode", "strict", "src/shop/__init__.py"], project).returncode == 0


def test_check_reports_unanalysable_files_and_goes_on(project):
    (project / "src" / "shop" / "broken.py").write_text("def f(:\n")
    (project / "src" / "shop" / "nul.py").write_bytes(b"x = 1\x00\n")
    done = ladder(["check", "src"], project)
    assert done.returncode == 0
    assert "skipped src/shop/broken.py" in done.stdout and "syntax error" in done.stdout
    assert "skipped src/shop/nul.py" in done.stdout and "NUL byte" in done.stdout
    assert "src/shop/pricing.py" in done.stdout


@pytest.mark.parametrize(
    "args, config, fragment",
    [
        (["check", "nowhere"], None, "nowhere: no such file or directory"),
        (["check", "--mode", "loud"], None, "invalid choice: 'loud'"),
        (["frobnicate"], None, "invalid choice: 'frobnicate'"),
        (["check"], '[tool.ladder]\nmdoe = "x"\n', "did you mean 'mode'"),
        (["check"], "[tool.ladder\n", "not valid TOML"),
    ],
)
def test_usage_and_configuration_errors_exit_2_with_one_line(project, args, config, fragment):
    if config is not None:
        (project / "pyproject.toml").write_text(config)
    done = ladder(args, project)
    assert done.returncode == 2
    assert fragment in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_help_has_examples(project):
    for command in ("metrics", "check"):
        done = ladder([command, "--help"], project)
        assert done.returncode == 0 and "examples:" in done.stdout


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_the_loop_end_to_end(project):
    """Checked, edited (still violating), checked again: the third version over two days fails."""
    pricing = project / "src" / "shop" / "pricing.py"
    first = ladder(["check"], project, LADDER_NOW="2026-11-01T09:00:00Z")
    assert first.returncode == 0, first.stdout + first.stderr
    _edit(pricing, "amount *= 0.9\n", "amount *= 0.85\n")
    second = ladder(["check"], project, LADDER_NOW="2026-11-01T15:00:00Z")
    assert second.returncode == 0, second.stdout
    _edit(pricing, "amount -= coupon.amount\n", "amount -= min(coupon.amount, amount)\n")
    third = ladder(["check"], project, LADDER_NOW="2026-11-02T10:00:00Z")
    assert third.returncode == 1, third.stdout
    entries = [line for line in third.stdout.splitlines() if " LAD900 " in line]
    assert entries == ["src/shop/pricing.py:1:1: LAD900 [hotspot] 'price': recurring hotspot for cyclomatic 12 > 10, "
                       "cognitive 25 > 15, ABC 20.32 > 17; 3 versions over the limit on 2 days "
                       "(first 2026-11-01, last 2026-11-02)"]  # one entry for the unit, every rule in it
    assert third.stdout.splitlines()[-1].startswith("FAILED: 1 recurring hotspot (")
    lines = (project / ".ladder" / "history" / "events.jsonl").read_text().splitlines()
    gate_fails = [json.loads(line) for line in lines if '"gate-fail"' in line]
    assert {e["rule_key"] for e in gate_fails} == {"cyclomatic_max", "cognitive_max", "abc_max"}


def test_rechecking_unchanged_code_never_fails(project):
    for day in range(1, 8):
        done = ladder(["check"], project, LADDER_NOW=f"2026-11-0{day}T12:00:00Z")
        assert done.returncode == 0, done.stdout
    assert ladder(["check", "--mode", "advisory"], project, LADDER_NOW="2026-11-08T12:00:00Z").returncode == 0


def test_reformatting_and_comments_are_not_edits(project):
    pricing = project / "src" / "shop" / "pricing.py"
    assert ladder(["check"], project, LADDER_NOW="2026-11-01T09:00:00Z").returncode == 0
    _edit(pricing, "    total = 0\n", "    # running total, reformatted below\n    total = (\n        0\n    )\n")
    assert ladder(["check"], project, LADDER_NOW="2026-11-02T09:00:00Z").returncode == 0
    _edit(pricing, "def price(", "\n\n# moved down\ndef price(")
    assert ladder(["check"], project, LADDER_NOW="2026-11-03T09:00:00Z").returncode == 0


def test_events_carry_every_design_field(project):
    done = ladder(["check"], project, LADDER_NOW="2026-11-01T09:00:00+01:00", LADDER_RUN_ID="ci-42", CI="true")
    assert done.returncode == 0
    events = [json.loads(line) for line in (project / ".ladder" / "history" / "events.jsonl").read_text().splitlines()]
    fields = {"schema_version", "event_id", "timestamp", "repo_id", "run_id", "tool", "mode", "path", "unit_name",
              "line", "role", "rule_key", "metric_family", "scope", "severity", "actual", "limit", "delta",
              "fingerprint", "unit_hash", "hash_version", "source", "actor_type"}
    for event in events:
        assert fields <= set(event)
        assert event["timestamp"] == "2026-11-01T08:00:00.000000Z"
        assert (event["run_id"], event["tool"], event["repo_id"], event["actor_type"]) == ("ci-42", "cli", "shop", "ci")
        assert event["hash_version"] == 2
    assert len({e["event_id"] for e in events}) == len(events)
    cog = next(e for e in events if e["rule_key"] == "cognitive_max")
    assert (cog["path"], cog["unit_name"], cog["severity"], cog["actual"], cog["limit"], cog["delta"]) == (
        "src/shop/pricing.py", "price", "red", 25, 15, 10)
    assert cog["fingerprint"] == "src/shop/pricing.py::price::cognitive_max"


def test_no_record_decides_without_writing(project):
    assert ladder(["check", "--no-record"], project).returncode == 0
    assert not (project / ".ladder" / "history").exists()  # the analysis cache may be there, the history not
    assert ladder(["check", "--no-record", "--no-cache"], project).returncode == 0


def test_bad_ladder_now_is_a_usage_error(project):
    done = ladder(["check"], project, LADDER_NOW="yesterday")
    assert done.returncode == 2 and "LADDER_NOW: 'yesterday' is not an ISO-8601 timestamp" in done.stderr


def test_history_commands(project, tmp_path):
    assert ladder(["check"], project, LADDER_NOW="2026-11-01T09:00:00Z").returncode == 0
    stats = ladder(["history", "stats"], project)
    assert stats.returncode == 0 and "events: 6" in stats.stdout and "unreadable lines: 0" in stats.stdout
    other = tmp_path / "runner-b.jsonl"
    lines = (project / ".ladder" / "history" / "events.jsonl").read_text().splitlines()
    other.write_text(lines[0] + "\n" + lines[0].replace('"event_id":"', '"event_id":"b') + "\n")
    combined = ladder(["history", "combine", str(other)], project)
    assert combined.returncode == 0 and "combined 1 file: 1 new event, 1 duplicate skipped" in combined.stdout
    assert ladder(["history", "rebuild"], project).stdout.startswith("rebuilt ")
    assert ladder(["history", "prune"], project).returncode == 0
    missing = ladder(["history", "combine", "nope.jsonl"], project)
    assert missing.returncode == 2 and "nope.jsonl: no such file" in missing.stderr


def test_strict_mode_says_a_minimum_rule_is_below_its_limit(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\npaths = ["tests"]\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_nothing():\n    print('busy')\n")
    done = ladder(["check", "--mode", "strict", "--no-record", "--format", "json"], tmp_path)
    (failure,) = json.loads(done.stdout)["gate"]["failures"]
    assert failure["message"] == "number of assertions of 'test_nothing' is 0 (< 1) (strict mode)"


@pytest.mark.parametrize("command", ["metrics", "check"])
def test_an_excluded_file_named_explicitly_is_listed_as_skipped_with_the_reason(tmp_path, command):
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\nexclude = ["src/gen_*.py"]\n')
    for rel in ("venv/__init__.py", "src/gen_a.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("def f(a, b, c, d, e, g, h):\n    return a\n")
    done = ladder([command, "--no-record", "venv/__init__.py", "src/gen_a.py"] if command == "check"
                  else [command, "venv/__init__.py", "src/gen_a.py"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "venv/__init__.py: excluded by the default excludes ('venv')" in done.stdout
    assert "src/gen_a.py: excluded by [tool.ladder] exclude ('src/gen_*.py')" in done.stdout


@pytest.mark.parametrize("now", ["yesterday", "0001-01-01T00:00:00Z", "9999-12-31T23:30:00-01:00"])
def test_a_bad_ladder_now_is_a_configuration_error_in_every_front_end(project, now):
    checked = ladder(["check", "--no-record"], project, LADDER_NOW=now)
    assert checked.returncode == 2 and "LADDER_NOW" in checked.stderr and "Traceback" not in checked.stderr
    linted = subprocess.run([sys.executable, "-m", "flake8", "--select", "LAD", "--ladder-no-record", "."],
                            cwd=project, capture_output=True, text=True, env={**os.environ, "LADDER_NOW": now},
                            timeout=120)
    assert "LAD000" in linted.stdout and "LADDER_NOW" in linted.stdout and linted.returncode == 1, linted.stdout
    tested = subprocess.run([sys.executable, "-m", "pytest", "--ladder", "-p", "no:cacheprovider", "-q"],
                            cwd=project, capture_output=True, text=True, env={**os.environ, "LADDER_NOW": now},
                            timeout=120)
    assert tested.returncode == 4 and "LADDER_NOW" in tested.stderr + tested.stdout


def test_a_key_with_a_newline_or_an_escape_code_is_quoted_in_the_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\n"mo\\nde\\u001b[31m" = 1\n')
    done = ladder(["check"], tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    assert '"mo\\nde\\u001b[31m": unknown key' in done.stderr


def test_toml_nested_thousands_deep_is_one_clear_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\nx = " + "[" * 3000 + "]" * 3000 + "\n")
    done = ladder(["check"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "nested too deeply" in done.stderr


def test_a_control_character_in_history_dir_is_a_configuration_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\nhistory_dir = ".lad\\u0000der"\n')
    done = ladder(["check"], tmp_path)
    assert done.returncode == 2 and "history_dir" in done.stderr and "Traceback" not in done.stderr


def test_running_from_a_deleted_directory_is_one_clear_error(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    script = f"import os, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); " \
             "from ladder_plugins.cli.main import main; sys.exit(main(['check']))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "current directory cannot be read" in done.stderr, done.stderr


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse names that are not UTF-8")
def test_sarif_takes_a_file_name_that_is_not_utf8(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    name = os.fsdecode(b"bad\xff.py")
    (tmp_path / name).write_text("def f(a, b, c, d, e, g, h):\n    return a\n")
    done = ladder(["check", "--no-record", "--format", "sarif"], tmp_path)
    (result,) = [r for r in json.loads(done.stdout)["runs"][0]["results"] if r["ruleId"] == "LAD105"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad%FF.py"
