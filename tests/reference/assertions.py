# ladder: role=app
"""The per-metric assertions walk as it was before the fused traversal (issue 16), kept as a reference.

Assertions in a test: what makes a test able to fail.

Counted in test units only (other units get ``None``, so ``min_assertions`` does not
apply to them): ``assert`` statements; calls whose function name starts with
``assert`` (unittest's ``assertEqual``, mock's ``assert_called_once_with``,
``numpy.testing.assert_allclose``, your own ``assert_valid`` helpers); calls that fail
the test themselves (``pytest.fail``, ``self.fail``, unittest's ``failUnless*`` and
``failIf*``); the context managers or calls ``raises``, ``warns``,
``deprecated_call`` (``pytest.`` or imported by name); and calls of the project's own
helpers named in ``[tool.ladder] assertion_helpers`` (names or globs: ``check_*``,
``verify``). Nested functions count, as for every metric.
"""

from __future__ import annotations

import ast
import fnmatch
from typing import Sequence

from ladder_plugins.analysis.source import FunctionNode

from .walk import children

__all__ = ["assertion_count"]

_EXPECTING = frozenset({"raises", "warns", "deprecated_call"})
_PREFIXES = ("assert", "failUnless", "failIf")  # unittest's deprecated failUnless*/failIf* aliases too


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _asserts(name: str, helpers: Sequence[str]) -> bool:
    """Whether a call of ``name`` is an assertion: by its name, or as one of the project's helpers."""
    if name.startswith(_PREFIXES) or name in _EXPECTING or name == "fail":
        return True
    return any(fnmatch.fnmatchcase(name, helper) for helper in helpers)


def assertion_count(node: FunctionNode, helpers: Sequence[str] = ()) -> int:
    """Assertions in a function node; ``helpers``: names or globs of the project's assertion helpers."""
    count = 0
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Assert):
            count += 1
        elif isinstance(current, ast.Call):
            count += _asserts(_callee(current), helpers)
        stack.extend(children(current))
    return count
