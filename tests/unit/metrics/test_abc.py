"""ABC size, hand-worked against the RuboCop mapping in docs/metrics.md."""

from __future__ import annotations

import ast
import math
import sys
import textwrap

import pytest

from ladder_plugins.metrics.abc import abc_size, abc_vector


def vector(code: str):
    node = ast.parse(textwrap.dedent(code)).body[0]
    return abc_vector(node)


CASES = [
    ("empty", "def f():\n    pass\n", (0, 0, 0)),
    # RuboCop measures the body: the unit's own parameters are not assignments
    ("the unit's parameters are not its body", "def f(a, b, *args, c, **kw):\n    pass\n", (0, 0, 0)),
    ("underscore names do not capture", "def f():\n    _ = g()\n    _x = 1\n    y = 2\n", (1, 1, 0)),
    ("chained and unpacking", "def f():\n    x = y = 1\n    a, (b, *c) = t\n", (5, 0, 0)),
    ("attribute and subscript targets", "def f(d, k):\n    d[k] = 1\n    d.x = 2\n", (2, 0, 0)),
    ("augmented", "def f(x):\n    x += 1\n", (1, 0, 0)),
    ("annotated with and without value", "def f():\n    x: int = 1\n    y: int\n", (1, 0, 0)),
    ("walrus in if", "def f():\n    if (n := g()):\n        pass\n", (1, 1, 1)),
    # RuboCop: a for counts one assignment itself besides its targets
    ("for target and loop", "def f(pairs):\n    for i, j in pairs:\n        pass\n", (3, 0, 1)),
    ("for else", "def f(xs):\n    for x in xs:\n        pass\n    else:\n        pass\n", (2, 0, 2)),
    ("with as", "def f(p):\n    with open(p) as fh:\n        pass\n", (1, 1, 0)),
    # one condition for the handlers together, as RuboCop's rescue node
    ("except handlers", "def f():\n    try:\n        g()\n    except ValueError as e:\n        pass\n"
     "    except KeyError:\n        pass\n", (1, 1, 1)),
    ("try without handlers", "def f():\n    try:\n        g()\n    finally:\n        h()\n", (0, 2, 0)),
    ("comparisons and boolean operators", "def f(a, b):\n    if a == 1 and b < 2:\n        pass\n", (0, 0, 4)),
    ("if elif else", "def f(a, b):\n    if a:\n        pass\n    elif b:\n        pass\n    else:\n        pass\n", (0, 0, 3)),
    ("ternary", "def f(a, b, c):\n    x = a if b else c\n", (1, 0, 1)),
    ("comprehension", "def f(xs):\n    return [g(x) for x in xs if x > 0]\n", (1, 1, 3)),
    ("chained comparison", "def f(x):\n    return 0 < x < 10\n", (0, 0, 2)),
    ("while", "def f(x):\n    while x:\n        x -= 1\n", (1, 0, 1)),
    ("nested function and lambda parameters", "def f():\n    g = lambda y: y\n    def h(z):\n        return z\n", (3, 0, 0)),
    ("a nested class's methods have no self argument",
     "def f():\n    class C:\n        def m(self, a):\n            return a\n", (1, 0, 0)),
    ("calls are branches", "def f(o):\n    o.a().b(c(), d())\n", (0, 4, 0)),
    # RuboCop's branch nodes are send, csend and yield
    ("yield and yield from are branches", "def f(xs):\n    yield 1\n    yield from xs\n", (0, 2, 0)),
    # issue 29: a lambda given to an iterating function is RuboCop's iterating block, a condition
    ("a lambda given to map is an iterating block", "def f(xs):\n    return map(lambda x: x, xs)\n", (1, 1, 1)),
    ("a key lambda is an iterating block", "def f(xs):\n    xs.sort(key=lambda x: -x)\n", (1, 1, 1)),
    ("a lambda given to another function is no iterating block", "def f(d):\n    return d.get(1, lambda: 0)\n",
     (0, 1, 0)),
    ("a function passed by name is no block", "def f(xs):\n    return sorted(xs, key=len)\n", (0, 1, 0)),
    # a setter is no branch here (metrics.md, differences from RuboCop)
    ("attribute and subscript writes are no branches", "def f(o, d):\n    o.x = 1\n    d[0] = 2\n", (2, 0, 0)),
]


@pytest.mark.parametrize("code, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_abc_vector(code, expected):
    assert vector(code) == expected


def test_a_methods_parameters_are_not_counted_either():
    code = "class C:\n    def m(self, a):\n        self.x = a\n"
    method = ast.parse(code).body[0].body[0]
    assert abc_vector(method) == (1, 0, 0)


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match needs Python 3.10")
def test_match_cases_count_but_the_wildcard_and_captures_do_not():
    # case 1 and case [a, b] are conditions; case _ is the case's else (RuboCop counts none);
    # captures are RuboCop's match_var, not an assignment, ** rest included
    code = (
        "def f(c):\n    match c:\n        case 1:\n            g()\n"
        "        case [a, b]:\n            pass\n        case {'k': v, **rest}:\n            pass\n"
        "        case _:\n            pass\n"
    )
    assert vector(code) == (0, 1, 3)


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match needs Python 3.10")
def test_a_guarded_wildcard_is_a_condition_and_a_bare_capture_is_the_else():
    code = "def f(c, ok):\n    match c:\n        case _ if ok:\n            pass\n        case other:\n            pass\n"
    assert vector(code) == (0, 0, 1)


# RuboCop's own reference methods, translated, as the cop scores them (the body only):
# 18 local assignments 18.00; 13 assignments of method calls <13, 13, 0> 18.38; the mixed one
# <13, 11, 2> 17.15 (tests/test_rubocop.py checks these against rubocop itself).
def _assignments(n: int, call: bool) -> str:
    names = [f"v{i}" for i in range(n)]
    return "".join(f"    {v} = x.m{i}()\n" if call else f"    {v} = {i}\n" for i, v in enumerate(names))


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def complex_method():\n" + _assignments(18, False), 18.0),
        ("def branchy_method(x):\n" + _assignments(13, True), 18.38),
        (
            "def mixed_method(x):\n" + _assignments(11, True)
            + "    if v0:\n        l = 1\n    if v1:\n        m = 1\n",
            17.15,
        ),
    ],
    ids=["complex_method", "branchy_method", "mixed_method"],
)
def test_rubocop_reference_scores(code, expected):
    node = ast.parse(code).body[0]
    assert abc_size(node) == expected


def test_score_is_euclidean_norm_rounded(unit_metrics):
    code = "def f(a, b):\n    x = a\n    if a == 1 and b < 2:\n        g()\n"
    assert unit_metrics(code)["abc"] == round(math.sqrt(1**2 + 1**2 + 4**2), 2)
