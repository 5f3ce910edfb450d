"""The fused traversal gives every unit the numbers the separate per-metric walks gave.

The walks as they were before it are kept in ``tests/reference/``; cyclomatic
complexity is held to radon itself in ``test_cyclomatic.py``.
"""

from __future__ import annotations

import ast
import dataclasses
import warnings

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings as hsettings

from ladder_plugins.analysis.analyzer import Analyzer
from ladder_plugins.metrics.traversal import measure_node

from tests.reference import abc as reference_abc, assertions as reference_assertions, cognitive as reference_cognitive
from tests.helpers.stdlib_units import stdlib_files

HELPERS = ("check_*", "verify")


def _expected(parsed, unit, cycles) -> dict:
    node = unit.node
    return {
        "cognitive": reference_cognitive.cognitive(node, is_method=unit.is_method, in_cycle=unit.key in cycles),
        "abc": reference_abc.abc_size(node),
        "assertions": reference_assertions.assertion_count(node, HELPERS),
    }


def _differences(analyzer, text, path) -> list:
    """(unit, ours, the reference's) for every unit of one file where the two differ."""
    try:
        parsed = analyzer.parse(text, path)
    except Exception:  # the analysis skips what it cannot parse; nothing to compare
        return []
    report = analyzer.measure(parsed)
    cycles = reference_cognitive.recursive_units(dataclasses.replace(parsed, memo={}))
    found = []
    for unit, measured in zip(parsed.units, report.units):
        ours = {"cognitive": measured.metrics["cognitive"], "abc": measured.metrics["abc"],
                "assertions": measure_node(unit.node, helpers=HELPERS).assertions}
        expected = _expected(parsed, unit, cycles)
        if ours != expected:
            found.append((f"{path}::{unit.key}", ours, expected))
    return found


@pytest.mark.slow
def test_every_stdlib_unit_measures_as_the_reference_walks_measured_it(settings):
    analyzer = Analyzer(settings, hashes=False)
    files = stdlib_files()
    assert len(files) > 300
    found = [d for path in files for d in _differences(analyzer, path.read_bytes(), f"src/{path.name}")]
    assert found == []


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@hsettings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
@given(source=hypothesmith.from_grammar())
def test_generated_programs_measure_as_the_reference_walks_measured_them(settings, source):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _differences(Analyzer(settings, hashes=False), source, "src/gen.py") == []


def test_the_reference_walks_are_the_ones_compared(settings):
    """A unit where the metrics' reaches differ: annotations, lambda defaults, asserts, a nested class."""
    code = (
        "def f(self, a):\n"
        "    def g(x: h() if a else b = (lambda q=k(): q)()) -> m():\n"
        "        return g(x)\n"
        "    class C:\n"
        "        def n(self, y):\n"
        "            assert y and check_y(y)\n"
        "    return f(a) or [v for v in a if v]\n"
    )
    node = ast.parse(code).body[0]
    measures = measure_node(node, helpers=HELPERS)
    assert measures.abc == reference_abc.abc_vector(node) == (4, 7, 5)
    assert measures.cognitive + measures.recursive == reference_cognitive.cognitive(node) == 4
    assert measures.assertions == reference_assertions.assertion_count(node, HELPERS) == 2
    assert _differences(Analyzer(settings, hashes=False), code, "src/m.py") == []
