# ladder: role=app
"""The assertion count walk as it was before the fused traversal (issue 16), kept as the reference
``tests/test_traversal.py`` holds the new walk to. The rules it counts are stated in
``ladder_plugins/metrics/assertions.py`` and ``metrics.md``.
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


def _owned(call: ast.Call) -> bool:
    """``fail``, ``raises``... called by name, or on ``pytest`` (``self`` for ``fail``); issue 29: not on any object."""
    func = call.func
    owners = ("pytest", "self") if _callee(call) == "fail" else ("pytest",)
    return isinstance(func, ast.Name) or (isinstance(func.value, ast.Name) and func.value.id in owners)  # type: ignore


def _asserts(call: ast.Call, helpers: Sequence[str]) -> bool:
    """Whether a call is an assertion: by its name, or as one of the project's helpers."""
    name = _callee(call)
    if name.startswith(_PREFIXES) or ((name in _EXPECTING or name == "fail") and _owned(call)):
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
            count += _asserts(current, helpers)
        stack.extend(children(current))
    return count
