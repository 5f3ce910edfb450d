"""Cyclomatic complexity is radon's: the own count against ``cc_visit_ast``, unit for unit.

radon stays the definition. Every unit of the running Python's standard library and
programs hypothesmith writes from the grammar are compared in both ``no_assert``
modes, so a divergence of ours, or a change in a future radon, fails here. The
hand-worked cases are in ``tests/unit/metrics/test_cyclomatic.py``.
"""

from __future__ import annotations

import ast
import warnings

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings as hsettings

from ladder_plugins.metrics.cyclomatic import cyclomatic

from tests.helpers.stdlib_units import stdlib_units, units_of
from tests.unit.metrics.test_cyclomatic import _radon


def _radon_or_none(node: ast.AST, no_assert: bool):
    try:
        return _radon(node, no_assert)
    except RecursionError:  # radon's visitor recurses; ours does not
        return None


def _differences(units) -> list[tuple[str, bool, int, int]]:
    """(unit, no_assert, ours, radon's) wherever the two differ."""
    found = []
    for name, node in units:
        for no_assert in (False, True):
            expected, ours = _radon_or_none(node, no_assert), cyclomatic(node, no_assert=no_assert)
            if expected is not None and ours != expected:
                found.append((name, no_assert, ours, expected))
    return found


@pytest.mark.slow
def test_cyclomatic_equals_radon_on_every_stdlib_unit():
    units = [(f"{path}::{unit.key}", unit.node) for path, unit in stdlib_units()]
    assert len(units) > 5000
    assert _differences(units) == []


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(source=hypothesmith.from_grammar())
def test_cyclomatic_equals_radon_on_generated_programs(source):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = None
    units = [(unit.key, unit.node) for unit in units_of(tree)] if tree is not None else []
    assert _differences(units) == []
