"""What single constructs count: the small rules the fused traversal applies at a node.

Kept apart from :mod:`.traversal` so that each rule reads as its metric's docs state
it: ABC's bound names and parameters (RuboCop), cognitive's boolean sequences,
decorator-style wrappers and self-calls of nested functions (SonarSource), and the
names that make a call an assertion.
"""

from __future__ import annotations

import ast
import fnmatch
from types import MappingProxyType
from typing import Mapping, Sequence

from ..analysis.source import FunctionNode

__all__ = [
    "FUNCTIONS", "binds", "targets", "params", "is_wildcard_case", "is_decorator_wrapper", "bool_runs",
    "calls_itself", "callee_name", "is_assertion", "iterating_blocks",
]

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: names that assert only called by name or on one of these receivers
_OWNERS: Mapping[str, frozenset[str]] = MappingProxyType({
    "fail": frozenset({"pytest", "self"}), "raises": frozenset({"pytest"}), "warns": frozenset({"pytest"}),
    "deprecated_call": frozenset({"pytest"}),
})
#: functions and methods that call a function argument once per element: RuboCop's iterating
#: methods (``map``, ``select``, ``sort_by``, ``min_by``, ``inject``...) as Python spells them
_ITERATING = frozenset({"map", "filter", "filterfalse", "sorted", "sort", "min", "max", "reduce", "accumulate",
                        "takewhile", "dropwhile", "groupby", "starmap", "nsmallest", "nlargest", "merge"})
_PREFIXES = ("assert", "failUnless", "failIf")  # unittest's deprecated failUnless*/failIf* aliases too


def binds(name: str) -> int:
    """ABC: a bound name counts unless it starts with ``_`` (RuboCop skips non-capturing ``_`` names)."""
    return 0 if name.startswith("_") else 1


def targets(target: ast.AST) -> int:
    """ABC assignments made by one target: each bound name, attribute or subscript."""
    count = 0
    stack = [target]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            count += binds(node.id)  # type: ignore[attr-defined]
        elif kind is ast.Tuple or kind is ast.List:
            stack.extend(node.elts)  # type: ignore[attr-defined]
        elif kind is ast.Starred:
            stack.append(node.value)  # type: ignore[attr-defined]
        elif kind is ast.Attribute or kind is ast.Subscript:
            count += 1
    return count


def params(args: ast.arguments, *, skip_first: bool) -> int:
    """ABC assignments of a nested function's or lambda's parameters (a method's ``self``/``cls`` not)."""
    positional = list(args.posonlyargs) + list(args.args)
    if skip_first and positional and positional[0].arg in ("self", "cls"):
        positional = positional[1:]
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return sum(binds(a.arg) for a in positional + list(args.kwonlyargs) + extra)


def is_wildcard_case(case: ast.AST) -> bool:
    """An unguarded ``case _`` or ``case name``: the ``else`` of a ``case/in``, which RuboCop does not count."""
    pattern = case.pattern  # type: ignore[attr-defined]
    return type(pattern) is ast.MatchAs and pattern.pattern is None and case.guard is None  # type: ignore


def is_decorator_wrapper(node: FunctionNode) -> bool:
    """sonar-python's wrapper: one nested ``def``, every other statement ``return <name>`` (no docstring)."""
    defs = [stmt for stmt in node.body if isinstance(stmt, FUNCTIONS)]
    simple = all(isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name)
                 for stmt in node.body if not isinstance(stmt, FUNCTIONS))
    return len(defs) == 1 and simple


def bool_runs(node: ast.BoolOp) -> int:
    """Cognitive: runs of like operators in the flattened boolean expression, read left to right
    (``a and b or c``: 2, ``a or b and c or d``: 3)."""
    ops: list[type] = []
    work: list[object] = [node]
    while work:
        item = work.pop()
        if isinstance(item, type):
            ops.append(item)
        elif type(item) is ast.BoolOp:
            work.extend(_interleaved(item))  # type: ignore[arg-type]
    return sum(1 for i, op in enumerate(ops) if i == 0 or op is not ops[i - 1])


def _interleaved(node: ast.BoolOp) -> list[object]:
    """``a op b op c`` as a work list in reverse (popped left to right)."""
    op = type(node.op)
    items: list[object] = [node.values[0]]
    for value in node.values[1:]:
        items += [op, value]
    return items[::-1]


def calls_itself(node: FunctionNode) -> bool:
    """Cognitive: whether a nested function calls itself by name (outside functions of its own that
    shadow the name)."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, FUNCTIONS) and current.name == node.name:
            continue
        if isinstance(current, ast.Call) and isinstance(current.func, ast.Name) and current.func.id == node.name:
            return True
        stack.extend(ast.iter_child_nodes(current))
    return False


def callee_name(call: ast.Call) -> str:
    """The called name: ``f`` of ``f(...)`` and of ``x.f(...)``; empty for anything else."""
    func = call.func
    if type(func) is ast.Attribute:
        return func.attr
    if type(func) is ast.Name:
        return func.id
    return ""


def iterating_blocks(call: ast.Call) -> int:
    """ABC: the lambdas given to an iterating function (``map(lambda x: ..., xs)``, ``sorted(xs,
    key=lambda x: ...)``), each a condition as RuboCop's iterating block; a function passed by name
    gives the reader no block to read, so it is none."""
    if callee_name(call) not in _ITERATING:
        return 0
    return sum(type(arg) is ast.Lambda for arg in call.args) + sum(type(k.value) is ast.Lambda for k in call.keywords)


def is_assertion(call: ast.Call, helpers: Sequence[str]) -> bool:
    """Whether a call asserts: by its name, or as one of the project's helpers (names, globs).

    ``fail``, ``raises``, ``warns`` and ``deprecated_call`` are common method names
    (``other.fail("boom")``), so they assert only called by name (imported from pytest)
    or on the receivers that own them: ``pytest.``, and ``self.`` for unittest's ``fail``.
    """
    name = callee_name(call)
    if name.startswith(_PREFIXES):
        return True
    owners = _OWNERS.get(name)
    if owners is not None:
        func = call.func
        if type(func) is ast.Name or (type(func.value) is ast.Name and func.value.id in owners):  # type: ignore
            return True
    return any(fnmatch.fnmatchcase(name, helper) for helper in helpers)
