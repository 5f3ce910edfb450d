"""Cyclomatic complexity: radon's number in the analysis, deep code without recursion, and metrics.md's table
of what mccabe counts differently. The equality with radon on every unit of the standard library and on
generated programs is ``tests/properties/test_cyclomatic_radon.py``.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import resources

import mccabe
import pytest
from radon.complexity import cc_visit_ast

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.metrics.cyclomatic import cyclomatic


def _radon(node: ast.AST, no_assert: bool) -> int:
    return int(cc_visit_ast(node, no_assert=no_assert)[0].complexity)


def test_the_analysis_reports_radons_number_and_drops_asserts_in_tests(settings):
    code = "def test_f(a):\n    assert a\n    assert [x for x in a if x]\n    if a or a:\n        pass\n"
    node = ast.parse(code).body[0]
    app = analyze_source(code, "src/m.py", settings).units[0].metrics["cyclomatic"]
    test = analyze_source(code, "tests/test_m.py", settings).units[0].metrics["cyclomatic"]
    assert (app, test) == (_radon(node, False), _radon(node, True)) == (5, 3)


def test_deep_code_is_counted_without_recursion(settings):
    """A sum of thousands of terms is a left-leaning tree deeper than the recursion limit: radon's
    recursive visitor fails on it, the iterative walk does not."""
    terms = sys.getrecursionlimit() * 2
    code = "def f(a, b):\n    if b:\n        return (" + " + ".join(["a"] * terms) + ") or b\n"
    with pytest.raises(RecursionError):
        _radon(ast.parse(code).body[0], False)
    report = analyze_source(code, "src/m.py", settings)
    assert report.skipped is None
    assert report.units[0].metrics["cyclomatic"] == 3


#: metrics.md's table of mccabe differences, row by row: the code cell -> a unit with that code
MCCABE_ROWS = {
    "`return a and b or c`": "def f(a, b, c):\n    return a and b or c\n",
    "`[x for x in xs if x]`": "def f(xs):\n    return [x for x in xs if x]\n",
    "`return a if b else c`": "def f(a, b, c):\n    return a if b else c\n",
    "`assert a`": "def f(a):\n    assert a\n",
    "`for ...: ... else: ...`": "def f(xs):\n    for x in xs:\n        pass\n    else:\n        pass\n",
    "`match` with `case 1`, `case 2`, `case _`": "def f(c):\n    match c:\n        case 1:\n            pass\n"
                                                 "        case 2:\n            pass\n        case _:\n            pass\n",
    "a nested `def g` with an `if`": "def f():\n    def g(x):\n        if x:\n            pass\n",
    "`try: ... except E: ...` (no `else`)": "def f():\n    try:\n        g()\n    except E:\n        pass\n",
    "`try: ... finally: ...`": "def f():\n    try:\n        g()\n    finally:\n        h()\n",
    "an `if` in a `finally`": "def f(a):\n    try:\n        g()\n    except E:\n        pass\n    else:\n        pass\n"
                             "    finally:\n        if a:\n            h()\n",
}
#: what metrics.md says agrees -> a unit with it
MCCABE_AGREE = {
    "`if`/`elif`/`else`": "def f(a, b):\n    if a:\n        pass\n    elif b:\n        pass\n    else:\n        pass\n",
    "loops without `else`": "def f(xs):\n    for x in xs:\n        pass\n    while xs:\n        pass\n",
    "a `try` with an `else`": "def f():\n    try:\n        g()\n    except E:\n        pass\n    except F:\n        pass\n"
                              "    else:\n        pass\n",
}


def _mccabe(code: str) -> int:
    visitor = mccabe.PathGraphingAstVisitor()
    visitor.preorder(ast.parse(code), visitor)
    (graph,) = visitor.graphs.values()
    return int(graph.complexity())


MCCABE_ROW = re.compile(r"^\| (.+?) \| (\d+) \| (\d+) \|", re.M)


def _mccabe_section() -> tuple[dict[str, tuple[int, int]], str]:
    """metrics.md's mccabe table (code cell -> (ladder, mccabe)) and its sentence of what agrees."""
    doc = resources.files("ladder_plugins").joinpath("metrics.md").read_text(encoding="utf-8")
    section = doc.split("mccabe 0.7.0 (flake8's `C901`)", 1)[1].split("\n## ", 1)[0]
    rows = {code: (int(ours), int(theirs)) for code, ours, theirs in MCCABE_ROW.findall(section)}
    agreement = section.strip().split("\n\n")[-1]
    return rows, agreement


def _both(code: str) -> tuple[int, int]:
    return cyclomatic(ast.parse(code).body[0]), _mccabe(code)


def test_the_mccabe_table_says_what_mccabe_and_ladder_count():
    # issue 29: the table said a `try` agrees; mccabe adds 1 for every `try` without an `else`
    rows, agreement = _mccabe_section()
    assert set(rows) == set(MCCABE_ROWS)
    assert {row: _both(code) for row, code in MCCABE_ROWS.items()} == rows
    assert agreement.endswith("agree.")
    assert [construct for construct in MCCABE_AGREE if construct not in agreement] == []
    assert {construct: len(set(_both(code))) for construct, code in MCCABE_AGREE.items()} == dict.fromkeys(
        MCCABE_AGREE, 1)
