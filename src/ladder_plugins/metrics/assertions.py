"""Assertions in a test: what makes a test able to fail.

Counted in test units only (other units get ``None``, so ``min_assertions`` does not
apply to them): ``assert`` statements; calls whose function name starts with
``assert`` (unittest's ``assertEqual``, mock's ``assert_called_once_with``,
``numpy.testing.assert_allclose``, your own ``assert_valid`` helpers); and the
context managers or calls ``raises``, ``warns``, ``deprecated_call`` (``pytest.`` or
imported by name). Nested functions count, as for every metric.
"""

from __future__ import annotations

import ast
from typing import Mapping, Optional

from ..analysis.astwalk import children
from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl

__all__ = ["assertion_count"]

_EXPECTING = frozenset({"raises", "warns", "deprecated_call"})


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def assertion_count(node: FunctionNode) -> int:
    """Assertions in a function node."""
    count = 0
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Assert):
            count += 1
        elif isinstance(current, ast.Call):
            name = _callee(current)
            if name.startswith("assert") or name in _EXPECTING:
                count += 1
        stack.extend(children(current))
    return count


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, Optional[int]]:
    return {"assertions": assertion_count(unit.node) if unit.is_test else None}
