"""ABC against RuboCop itself: Ruby transliterations of the ABC cases, run through ``rubocop``.

Each pair is a Python unit and the Ruby method a Ruby programmer would write for it;
RuboCop's ``Metrics/AbcSize`` vector for the Ruby method must be our vector for the
Python unit. Skipped, with the reason, where rubocop is not installed (``.ci/run``
installs Debian's ``ruby`` and ``rubocop``: RuboCop 1.39).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import textwrap
from importlib import resources

import pytest

from ladder_plugins.metrics.abc import abc_size, abc_vector

pytestmark = pytest.mark.skipif(shutil.which("rubocop") is None, reason="rubocop is not installed")


def _assignments(n: int, call: bool) -> tuple[str, str]:
    py = "".join(f"    v{i} = x.m{i}()\n" if call else f"    v{i} = {i}\n" for i in range(n))
    rb = "".join(f"  v{i} = x.m{i}\n" if call else f"  v{i} = {i}\n" for i in range(n))
    return py, rb


PAIRS = {
    "params": ("def f(a, b, *args, c, **kw):\n    return None\n", "def params(a, b, *args, c:, **kw)\n  nil\nend\n"),
    "underscore": ("def f():\n    _ = g()\n    _x = 1\n    y = 2\n", "def underscore\n  _ = g\n  _x = 1\n  y = 2\nend\n"),
    "unpacking": ("def f(t):\n    x = y = 1\n    a, (b, *c) = t\n", "def unpacking(t)\n  x = y = 1\n  a, (b, *c) = t\nend\n"),
    "augmented": ("def f(x):\n    x += 1\n", "def augmented(x)\n  x += 1\nend\n"),
    "assignment in a condition": ("def f():\n    if (n := g()):\n        pass\n",
                                  "def assignment_in_a_condition\n  if (n = g)\n  end\nend\n"),
    "for": ("def f(pairs):\n    for i, j in pairs:\n        pass\n", "def for_loop(pairs)\n  for i, j in pairs\n  end\nend\n"),
    "rescue": ("def f():\n    try:\n        g()\n    except ValueError as e:\n        pass\n    except KeyError:\n        pass\n",
               "def rescue_clauses\n  begin\n    g\n  rescue ValueError => e\n  rescue KeyError\n  end\nend\n"),
    "comparisons": ("def f(a, b):\n    if a == 1 and b < 2:\n        pass\n",
                    "def comparisons(a, b)\n  if a == 1 && b < 2\n  end\nend\n"),
    "if elsif else": ("def f(a, b):\n    if a:\n        x = 1\n    elif b:\n        x = 2\n    else:\n        x = 3\n",
                      "def if_elsif_else(a, b)\n  if a\n    x = 1\n  elsif b\n    x = 2\n  else\n    x = 3\n  end\nend\n"),
    "ternary": ("def f(a, b, c):\n    x = a if b else c\n", "def ternary(a, b, c)\n  x = b ? a : c\nend\n"),
    "while": ("def f(x):\n    while x:\n        x -= 1\n", "def while_loop(x)\n  while x\n    x -= 1\n  end\nend\n"),
    "nested function and lambda": ("def f():\n    g = lambda y: y\n    def h(z):\n        return z\n",
                                   "def nested\n  g = ->(y) { y }\n  def h(z)\n    z\n  end\nend\n"),
    "calls": ("def f(o):\n    o.a().b(c(), d())\n", "def calls(o)\n  o.a.b(c, d)\nend\n"),
    "yield": ("def f():\n    yield 1\n    yield 2\n", "def yielding\n  yield 1\n  yield 2\nend\n"),
    "iterating block": ("def f(xs):\n    return map(lambda x: x, xs)\n", "def iterating_block(xs)\n  xs.map { |x| x }\nend\n"),
    "sort_by block": ("def f(xs):\n    return sorted(xs, key=lambda x: x)\n",
                      "def sort_by_block(xs)\n  xs.sort_by { |x| x }\nend\n"),
    "block of another method": ("def f(xs):\n    return build(xs, lambda x: x)\n",
                                "def block_of_another_method(xs)\n  build(xs) { |x| x }\nend\n"),
    "instance variable": ("def f(self, a):\n    self.x = a\n", "def instance_variable(a)\n  @x = a\nend\n"),
    "setters": ("def f(o, d):\n    o.x = 1\n    d[0] = 2\n", "def setters(o, d)\n  o.x = 1\n  d[0] = 2\nend\n"),
    "complex_method": ("def f():\n" + _assignments(18, False)[0], "def complex_method\n" + _assignments(18, False)[1] + "end\n"),
    "branchy_method": ("def f(x):\n" + _assignments(13, True)[0], "def branchy_method(x)\n" + _assignments(13, True)[1] + "end\n"),
    "mixed_method": ("def f(x):\n" + _assignments(11, True)[0] + "    if v0:\n        l = 1\n    if v1:\n        m = 1\n",
                     "def mixed_method(x)\n" + _assignments(11, True)[1] + "  if v0\n    l = 1\n  end\n  if v1\n    m = 1\n"
                     "  end\nend\n"),
}

#: Documented differences: RuboCop minus ours, and the first cell of the row of metrics.md's
#: "Differences from RuboCop, and why" that gives the reason. A Ruby lambda literal is a call of
#: Kernel#lambda, a branch; Python's lambda is syntax. A Ruby setter is a method call, a branch;
#: Python's attribute and item assignment is not a call.
DIFFERENCES = {"nested function and lambda": ((0, 1, 0), "`lambda y: y`"),
               "setters": ((0, 2, 0), "`o.x = v`, `d[k] = v`")}

MESSAGE = re.compile(r"\[<(\d+), (\d+), (\d+)> ([\d.]+)/0\]")


@pytest.fixture(scope="module")
def rubocop(tmp_path_factory):
    """(method line -> (A, B, C), score) for every Ruby method, from one rubocop run."""
    work = tmp_path_factory.mktemp("rubocop")
    (work / ".rubocop.yml").write_text("AllCops:\n  NewCops: disable\n  SuggestExtensions: false\n"
                                       "Metrics/AbcSize:\n  Max: 0\n")
    source, lines = "", {}
    for name, (_, ruby) in PAIRS.items():
        lines[source.count("\n") + 1] = name
        source += ruby + "\n"
    (work / "cases.rb").write_text(source)
    done = subprocess.run(["rubocop", "--only", "Metrics/AbcSize", "--format", "json", "cases.rb"], cwd=work,
                          capture_output=True, text=True, timeout=300)
    offenses = json.loads(done.stdout)["files"][0]["offenses"]
    found = {}
    for offense in offenses:
        match = MESSAGE.search(offense["message"])
        assert match, offense["message"]
        a, b, c, score = match.groups()
        found[lines[offense["location"]["start_line"]]] = ((int(a), int(b), int(c)), float(score))
    return found


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_our_vector_is_rubocops(rubocop, name):
    node = ast.parse(textwrap.dedent(PAIRS[name][0])).body[0]
    theirs, score = rubocop.get(name, ((0, 0, 0), 0.0))  # no offense: a score of 0, not above Max 0
    difference = DIFFERENCES[name][0] if name in DIFFERENCES else (0, 0, 0)
    expected = tuple(t - d for t, d in zip(theirs, difference))
    assert abc_vector(node) == expected
    assert name in DIFFERENCES or abc_size(node) == score


def test_every_difference_is_a_row_of_the_documented_differences():
    doc = resources.files("ladder_plugins").joinpath("metrics.md").read_text(encoding="utf-8")
    section = doc.split("### Differences from RuboCop, and why", 1)[1].split("\n## ", 1)[0]
    rows = {line.split(" | ")[0].lstrip("| ") for line in section.splitlines() if line.startswith("| `")}
    assert {cell for _, cell in DIFFERENCES.values()} <= rows


def test_rubocop_is_the_version_the_table_was_checked_against():
    version = subprocess.run(["rubocop", "--version"], capture_output=True, text=True, timeout=60).stdout
    assert version.strip().startswith("1.39."), version  # metrics.md and the README name 1.39.0
