"""Cyclomatic complexity is radon's, unit for unit, on the running Python's stdlib."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from radon.complexity import cc_visit

from ladder_plugins.analysis.analyzer import analyze_source


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


def _pairs(path, settings):
    """(ours, radon's) cyclomatic complexity for every unit both report in one file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        expected = _radon_units(text)
    except (SyntaxError, RecursionError):
        return []
    report = analyze_source(text, path.name, settings)
    keyed = {(u.line, u.name.rsplit(".", 1)[-1]): u.metrics["cyclomatic"] for u in report.units}
    return [(keyed[key], expected[key]) for key in keyed.keys() & expected.keys()]


@pytest.mark.slow
def test_cyclomatic_equals_radon_on_stdlib(settings):
    pairs = [pair for path in _stdlib_files() for pair in _pairs(path, settings)]
    assert len(pairs) > 5000
    assert [p for p in pairs if p[0] != p[1]] == []
