"""Cyclomatic complexity is radon's, unit for unit, on the running Python's stdlib."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from radon.complexity import cc_visit

from ladder_plugins.analysis import analyze_source


def _radon_units(text: str) -> dict[tuple[int, str], int]:
    """(def line, name) -> complexity for every function and method radon reports."""
    found = {}
    for block in cc_visit(text):
        if hasattr(block, "methods"):  # a class: radon lists its methods separately
            continue
        found[(block.lineno, block.name)] = block.complexity
    return found


def _stdlib_files():
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(stdlib.glob("*.py")) + sorted(stdlib.glob("*/*.py")):
        if "site-packages" not in path.parts and "test" not in path.parts:
            yield path


@pytest.mark.slow
def test_cyclomatic_equals_radon_on_stdlib(settings):
    compared = mismatches = 0
    for path in _stdlib_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            expected = _radon_units(text)
        except (SyntaxError, RecursionError):
            continue
        report = analyze_source(text, path.name, settings)
        if report.skipped:
            continue
        for unit in report.units:
            key = (unit.line, unit.name.rsplit(".", 1)[-1])
            if key in expected:
                compared += 1
                if unit.metrics["cyclomatic"] != expected[key]:
                    mismatches += 1
    assert compared > 5000, compared
    assert mismatches == 0
