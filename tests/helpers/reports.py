"""A deterministic three-step history on the demo project, for report tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

STEPS = (
    ("2026-11-02T09:00:00Z", None),
    ("2026-11-02T15:00:00Z", ("amount *= 0.9\n", "amount *= 0.88\n")),
    ("2026-11-03T10:00:00Z", ("amount -= coupon.amount\n", "amount -= min(coupon.amount, amount)\n")),
)
FINAL = "2026-11-03T12:00:00Z"


def ladder(args, cwd, **env):
    """The real console script (its directory is the interpreter's), in a subprocess."""
    script = shutil.which("ladder", path=os.path.dirname(sys.executable)) or shutil.which("ladder")
    return subprocess.run([script, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def demo_copy(target: Path) -> Path:
    with resources.as_file(resources.files("ladder_plugins").joinpath("demo_project")) as source:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def three_edits(target: Path) -> Path:
    """The demo project after price() was checked, edited, checked, edited, checked."""
    project = demo_copy(target)
    pricing = project / "src" / "shop" / "pricing.py"
    for number, (now, edit) in enumerate(STEPS, 1):
        if edit:
            pricing.write_text(pricing.read_text().replace(*edit))
        ladder(["check"], project, LADDER_NOW=now, LADDER_RUN_ID=f"run-{number}")
    return project
