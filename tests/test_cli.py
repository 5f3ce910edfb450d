"""The ``ladder`` console script, run for real in subprocesses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from .conftest import FIXTURES


def run(args, cwd, **env):
    return subprocess.run(
        [sys.executable, "-m", "ladder_plugins", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )


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
    done = run(["metrics", "--format", "json"], project)
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
    done = run(["metrics", "src/shop/pricing.py"], project)
    assert done.returncode == 0
    assert "src/shop/pricing.py (app, 24 lines)" in done.stdout
    assert "price:" in done.stdout and "shipping:" in done.stdout


def test_check_exit_status_and_output(project):
    done = run(["check"], project)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "src/shop/pricing.py"
    assert any("LAD102" in line and "cognitive complexity of 'price'" in line for line in lines)
    assert any("LAD108" in line and "'test_shipping_is_called'" in line for line in lines)
    assert lines[-1].startswith("FAILED:")
    assert run(["check", "--mode", "advisory"], project).returncode == 0
    assert run(["check", "src/shop/__init__.py"], project).returncode == 0


def test_check_reports_unanalysable_files_and_goes_on(project):
    (project / "src" / "shop" / "broken.py").write_text("def f(:\n")
    (project / "src" / "shop" / "nul.py").write_bytes(b"x = 1\x00\n")
    done = run(["check", "src"], project)
    assert done.returncode == 1
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
    done = run(args, project)
    assert done.returncode == 2
    assert fragment in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_help_has_examples(project):
    for command in ("metrics", "check"):
        done = run([command, "--help"], project)
        assert done.returncode == 0 and "examples:" in done.stdout
