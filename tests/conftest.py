from __future__ import annotations

import os
import subprocess
import textwrap

import pytest

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.config import load_settings
from tests.helpers.cli import ladder

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


@pytest.fixture
def ladder_in_process(monkeypatch, capsys):
    """``ladder ARGS`` run by ``cli.main.main`` in this process, in ``cwd`` with ``env`` set for the test:
    a ``subprocess.CompletedProcess`` as :func:`ladder_process` gives, at a fraction of its cost. A
    ``SystemExit`` (``--help``, a usage error) is raised as ``main`` raises it, its output left in ``capsys``."""
    from ladder_plugins.cli.main import main

    def run(args, cwd=None, **env) -> subprocess.CompletedProcess:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["ladder", *args], code, out, err)

    return run


@pytest.fixture
def ladder_process():
    """``ladder ARGS`` as a real process (the console script), where a test needs one: its own exit, its
    environment, the command a shell finds (``tests/helpers/cli.py``; helpers that are no test call it there)."""
    return ladder
