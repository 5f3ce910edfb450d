"""The repository's pre-commit hook: a valid manifest, and its entry run the way pre-commit runs it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest

from tests.helpers.reports import FINAL, three_edits
from tests.helpers.paths import REPO

MANIFEST = REPO / ".pre-commit-hooks.yaml"


def _hook(name: str = "ladder-check") -> dict:
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit is not installed")
    hooks = clientlib.load_manifest(str(MANIFEST))  # pre-commit's own validation of the manifest
    return {hook["id"]: hook for hook in hooks}[name]


def test_the_manifest_is_valid_for_pre_commit():
    hook = _hook()
    assert (hook["id"], hook["language"], hook["types"], hook["require_serial"]) == (
        "ladder-check", "python", ["python"], True)
    assert _hook("ladder-kb")["pass_filenames"] is False


def test_the_worklog_hook_runs_on_the_staged_work_log_and_fails_on_a_wrong_count(tmp_path):
    hook = _hook("ladder-worklog")
    import re

    assert re.search(hook["files"], "work-log.md") and re.search(hook["files"], "docs/work-log.md")
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    log = tmp_path / "work-log.md"
    log.write_text("=== Report #1 | lines: 3 | elapsed: 00:30 | type: feedback ===\nDIAGNOSE: the count\n")
    run = [*shlex.split(hook["entry"]), "work-log.md"]
    scripts = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}
    wrong = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert wrong.returncode == 1 and "work-log.md:1:1: LAD302 " in wrong.stdout, wrong.stdout + wrong.stderr
    log.write_text(log.read_text().replace("lines: 3", "lines: 2"))
    right = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert right.returncode == 0, right.stdout


def test_the_hook_entry_with_staged_files_fails_on_a_recurring_hotspot(tmp_path):
    """pre-commit appends the staged files to ``entry``: the gate still sees the whole history."""
    project = three_edits(tmp_path / "shop")
    entry = shlex.split(_hook()["entry"])
    scripts = os.path.dirname(sys.executable)  # where pre-commit's environment would put `ladder`
    env = {**os.environ, "LADDER_NOW": FINAL, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}
    clean = subprocess.run([*entry, "src/shop/__init__.py"], cwd=project, capture_output=True, text=True, env=env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    hot = subprocess.run([*entry, "src/shop/pricing.py"], cwd=project, capture_output=True, text=True, env=env)
    assert hot.returncode == 1 and "LAD900" in hot.stdout
