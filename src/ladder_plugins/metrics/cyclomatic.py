"""Cyclomatic complexity: radon's number, counted by the fused traversal.

radon's ``cc_visit_ast`` is the definition: 1, plus for the unit's body (not its
decorators or defaults) each ``if``/``elif`` and ternary, each ``for``/``async
for``/``while`` and one more for its ``else``, each ``except`` of a ``try`` and one
for its ``else`` (an ``except*`` block adds nothing: radon 6 does not know
``TryStar``), each ``case`` of a ``match`` but one ``case _``/``case name`` (guarded
or not), each comprehension ``for`` and each of its ``if`` clauses, each ``and``/``or``
operator, and each ``assert`` (whose inside is not looked at). Nested functions and
classes add nothing (radon issue #68); lambdas are part of the unit. In files of the
``test`` role, ``assert`` statements are not decision points (radon's ``no_assert``,
``radon cc --no-assert``): asserting is what a test is for, and counting it would make
the stricter test limit punish the assertions LAD108 asks for.

The count is our own walk (:mod:`.traversal`), one pass with the other metrics;
``tests/unit/metrics/test_cyclomatic.py`` compares it with radon on every unit of the running
Python's standard library and on generated programs, in both ``no_assert`` modes.
"""

from __future__ import annotations

from typing import Mapping

from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl
from .traversal import UnitMeasures, measure_node, unit_measures

__all__ = ["cyclomatic"]


def cyclomatic(node: FunctionNode, *, no_assert: bool = False) -> int:
    """radon's cyclomatic complexity of one function node (``cc_visit_ast(node, no_assert=...)``)."""
    return _total(measure_node(node), no_assert)


def _total(measures: UnitMeasures, no_assert: bool) -> int:
    return measures.cyclomatic - (measures.radon_asserts if no_assert else 0)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    return {"cyclomatic": _total(unit_measures(unit, source), no_assert=source.role == "test")}
