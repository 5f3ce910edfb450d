"""The repository's pre-commit hook: a valid manifest, and its entry run the way pre-commit runs it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .reports_helpers import FINAL, three_edits

MANIFEST = Path(__file__).resolve().parents[1] / ".pre-commit-hooks.yaml"


def _hook() -> dict:
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit is not installed")
    (hook,) = clientlib.load_manifest(str(MANIFEST))  # pre-commit's own validation of the manifest
    return hook


def test_the_manifest_is_valid_for_pre_commit():
    hook = _hook()
    assert (hook["id"], hook["language"], hook["types"], hook["require_serial"]) == (
        "ladder-check", "python", ["python"], True)


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
