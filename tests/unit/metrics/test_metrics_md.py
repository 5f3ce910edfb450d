"""The worked examples of metrics.md: each code block's stated result is what the analysis says."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from ladder_plugins.analysis.analyzer import analyze_source

DOC = resources.files("ladder_plugins").joinpath("metrics.md").read_text(encoding="utf-8")
EXAMPLE = re.compile(r"```python\n((?:(?!```).)*)```\n\n(\w+) = ([\d.]+)\.", re.S)
ABC = re.compile(r"```python\n(def mixed_method.*?)```\n\nA = (\d+), B = (\d+), C = (\d+); .*? = ([\d.]+)\.", re.S)
WORKED = EXAMPLE.findall(DOC)


def test_every_metric_section_has_a_worked_example():
    assert {metric for _, metric, _ in WORKED} >= {"cyclomatic", "cognitive", "function_lines", "nesting",
                                                   "assertions", "maintainability"}


@pytest.mark.parametrize("code, metric, value", WORKED, ids=[m for _, m, _ in WORKED])
def test_the_worked_example_holds(settings, code, metric, value):
    if metric == "assertions":
        code = "import pytest\n\n" + code
    path = "tests/test_doc.py" if metric == "assertions" else "doc.py"
    if metric == "maintainability":  # a file metric, computed once its rule has a limit
        settings = settings.replace(thresholds={"app": {"maintainability_min": 20}})
    report = analyze_source(code, path, settings)
    (unit,) = report.units
    assert {**unit.metrics, **report.metrics}[metric] == float(value)


def test_the_abc_worked_example_holds(settings):
    import ast

    from ladder_plugins.metrics.abc import abc_vector

    (match,) = ABC.findall(DOC)
    code, a, b, c, score = match
    (unit,) = analyze_source(code, "doc.py", settings).units
    assert abc_vector(ast.parse(code).body[0]) == (int(a), int(b), int(c))
    assert unit.metrics["abc"] == float(score)
