"""ABC size, counted as RuboCop's Metrics/AbcSize counts, mapped to Python.

RuboCop measures a method's *body* (``MethodComplexity#check_complexity`` hands the
calculator ``node.body``), so the unit's own parameters never count. ``metrics.md``
maps every construct with the RuboCop node behind it.

A (assignments): every name, attribute or subscript bound by ``=`` (each element of
an unpacking), ``+=`` and friends, an annotated assignment with a value, ``:=``,
``for`` targets plus one for the loop itself (RuboCop's ``for`` node), comprehension
targets, ``with ... as`` targets, ``except ... as`` names, and the parameters of
nested functions and lambdas (a nested class's methods without ``self``/``cls``);
never names starting with ``_`` (RuboCop skips non-capturing ``_`` variables).
``match`` captures are not assignments (RuboCop's ``match_var`` is not one).
B (branches): every call, ``yield`` and ``yield from``; not an attribute or item
assignment (a Ruby setter is a call, a Python one is not: ``self.x = v`` is ``@x = v``).
C (conditions): ``if``/``elif``, an ``if``'s ``else``, ternaries, ``while`` and
``for`` (and their ``else``), comprehension ``for`` and ``if`` clauses, each lambda
given to an iterating function (``map``, ``sorted(key=...)``: RuboCop's iterating
block), one per
``try`` with handlers (RuboCop's ``rescue``, however many clauses), each ``case``
but an unguarded ``case _`` or ``case name`` (RuboCop counts no ``else`` of a ``case/in``), each
``and``/``or`` operator, each comparison operator.

Score: sqrt(A² + B² + C²) rounded to 2 decimals. Counted by the fused traversal
(:mod:`.traversal`), the construct rules in :mod:`.constructs`.
"""

from __future__ import annotations

import math
from typing import Mapping

from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl
from .traversal import measure_node, unit_measures

__all__ = ["abc_vector", "abc_size", "abc_score"]

Vector = tuple[int, int, int]


def abc_vector(node: FunctionNode) -> Vector:
    """(A, B, C) of a function node's body, nested functions and lambdas included; the unit's own
    parameters are not part of its body, so a method's ``self`` needs no exception."""
    return measure_node(node).abc


def abc_score(vector: Vector) -> float:
    """sqrt(A² + B² + C²), rounded to 2 decimals."""
    a, b, c = vector
    return round(math.sqrt(a * a + b * b + c * c), 2)


def abc_size(node: FunctionNode) -> float:
    """The ABC score of a function node."""
    return abc_score(abc_vector(node))


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, float]:
    return {"abc": abc_score(unit_measures(unit, source).abc)}
