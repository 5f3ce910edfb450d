from __future__ import annotations

import os
import textwrap

import pytest

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.config import load_settings

pytest_plugins = ["pytester"]

# The suite starts a thousand real processes (``ladder``, flake8, pytest, the hooks). Where the environment
# forbids bytecode files, each of them would compile the package again: let them write and reuse it, as an
# installed package does (the tests assert behaviour, never timings, so nothing else changes).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture
def settings(tmp_path):
    """Default settings rooted in an empty temporary project."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    return load_settings(tmp_path)


@pytest.fixture
def unit_metrics(settings):
    """Metrics of the first unit (or the unit named ``name``) of a code snippet."""

    def measure(code: str, name: str = "", path: str = "mod.py") -> dict:
        report = analyze_source(textwrap.dedent(code), path, settings)
        assert report.skipped is None, report.skipped
        for unit in report.units:
            if not name or unit.name == name:
                return dict(unit.metrics)
        raise AssertionError(f"no unit {name!r} in {[u.name for u in report.units]}")

    return measure


@pytest.fixture
def file_metrics(settings):
    """Metrics of every unit of a code snippet, by qualified name."""

    def measure(code: str, path: str = "mod.py") -> dict:
        report = analyze_source(textwrap.dedent(code), path, settings)
        assert report.skipped is None, report.skipped
        return {unit.name: dict(unit.metrics) for unit in report.units}

    return measure
