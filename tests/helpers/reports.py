"""A deterministic three-step history on the demo project, for report tests (``ladder`` is
``tests/helpers/cli.py``'s, named here too for the tests that import it from here)."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

from tests.helpers.cli import ladder

STEPS = (
    ("2026-11-02T09:00:00Z", None),
    ("2026-11-02T15:00:00Z", ("amount *= 0.9\n", "amount *= 0.88\n")),
    ("2026-11-03T10:00:00Z", ("amount -= coupon.amount\n", "amount -= min(coupon.amount, amount)\n")),
)
FINAL = "2026-11-03T12:00:00Z"

__all__ = ["FINAL", "STEPS", "demo_copy", "ladder", "three_edits"]


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
