"""Fixture files state their expected metrics on each def line; check them all."""

from __future__ import annotations

import re

import pytest

from ladder_plugins.analysis.analyzer import analyze_source

from tests.helpers.paths import FIXTURES

EXPECT = re.compile(r"#\s*expect:\s*(.*)$")


def _expectations(path):
    """(line, {metric: value}) for each def line carrying an ``# expect:`` comment."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        match = EXPECT.search(line)
        if match and line.lstrip().startswith(("def ", "async def ")):
            yield number, dict(pair.split("=") for pair in match.group(1).split())


def _annotated():
    for path in sorted((FIXTURES / "metrics").glob("*.py")):
        for number, expected in _expectations(path):
            yield pytest.param(path, number, expected, id=f"{path.name}:{number}")


@pytest.mark.parametrize("path, line, expected", list(_annotated()))
def test_annotated_metrics(settings, path, line, expected):
    report = analyze_source(path.read_text(), f"fixtures/metrics/{path.name}", settings)
    (unit,) = [u for u in report.units if u.line == line]
    actual = {name: unit.metrics[name] for name in expected}
    assert actual == {name: float(value) for name, value in expected.items()}


def test_fixture_annotations_exist():
    assert len(list(_annotated())) >= 5
