"""ABC size, counted as RuboCop's Metrics/AbcSize counts, mapped to Python.

A (assignments): every name, attribute or subscript bound by ``=`` (each element of
an unpacking), ``+=`` and friends, an annotated assignment with a value, ``:=``,
``for`` and comprehension targets, ``with ... as`` targets, ``except ... as``
names, ``match`` capture names, and every parameter (of the unit, its nested
functions and lambdas), except ``self``/``cls`` and names starting with ``_``
(RuboCop skips non-capturing ``_`` variables too).
B (branches): every call.
C (conditions): ``if``/``elif``, an ``if``'s ``else``, ternaries, ``while`` and
``for`` (and their ``else``), comprehension ``for`` and ``if`` clauses, ``except``
handlers, ``case`` clauses, each ``and``/``or`` operator, each comparison operator.

Score: sqrt(A² + B² + C²) rounded to 2 decimals. Iterative traversal.
"""

from __future__ import annotations

import ast
import math
from typing import Mapping

from ..hookspecs import hookimpl
from ..source import FunctionNode, ParsedSource, Unit

__all__ = ["abc_vector", "abc_size"]

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_MATCH_CAPTURES = tuple(
    getattr(ast, name) for name in ("MatchAs", "MatchStar") if hasattr(ast, name)
)
_MATCH_CASE = getattr(ast, "match_case", None)


def _binds(name: str) -> int:
    return 0 if name.startswith("_") else 1


def _targets(target: ast.AST) -> int:
    """Assignments made by one target: each bound name, attribute or subscript."""
    count = 0
    stack = [target]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            count += _binds(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            stack.extend(node.elts)
        elif isinstance(node, ast.Starred):
            stack.append(node.value)
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            count += 1
    return count


def _params(args: ast.arguments, *, skip_first: bool) -> int:
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    if skip_first and positional and positional[0].arg in ("self", "cls"):
        positional = positional[1:]
    names = [a.arg for a in positional + list(args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return sum(_binds(name) for name in names)


def _is_elif(node: ast.If) -> bool:
    orelse = node.orelse
    return len(orelse) == 1 and isinstance(orelse[0], ast.If) and orelse[0].col_offset == node.col_offset


def abc_vector(node: FunctionNode, *, is_method: bool = False) -> tuple[int, int, int]:
    """(A, B, C) of a function node, nested functions and lambdas included."""
    a = _params(node.args, skip_first=is_method)
    b = c = 0
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is ast.Call:
            b += 1
        elif kind is ast.Assign:
            a += sum(_targets(t) for t in current.targets)  # type: ignore[attr-defined]
        elif kind in (ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension):
            a += _targets(current.target)  # type: ignore[attr-defined]
            if kind is ast.comprehension:
                c += 1 + len(current.ifs)  # type: ignore[attr-defined]
            elif kind is not ast.AugAssign:
                c += 1 + bool(current.orelse)  # type: ignore[attr-defined]
        elif kind is ast.AnnAssign:
            if current.value is not None:  # type: ignore[attr-defined]
                a += _targets(current.target)  # type: ignore[attr-defined]
        elif kind is ast.NamedExpr:
            a += _targets(current.target)  # type: ignore[attr-defined]
        elif kind is ast.withitem:
            if current.optional_vars is not None:  # type: ignore[attr-defined]
                a += _targets(current.optional_vars)  # type: ignore[attr-defined]
        elif kind is ast.ExceptHandler:
            c += 1
            if current.name:  # type: ignore[attr-defined]
                a += _binds(current.name)  # type: ignore[attr-defined]
        elif kind in _FUNCS or kind is ast.Lambda:
            a += _params(current.args, skip_first=False)  # type: ignore[attr-defined]
        elif kind is ast.If:
            c += 1 + (bool(current.orelse) and not _is_elif(current))  # type: ignore[arg-type]
        elif kind in (ast.IfExp, ast.While):
            c += 1
            if kind is ast.While:
                c += bool(current.orelse)  # type: ignore[attr-defined]
        elif kind is ast.BoolOp:
            c += len(current.values) - 1  # type: ignore[attr-defined]
        elif kind is ast.Compare:
            c += len(current.ops)  # type: ignore[attr-defined]
        elif _MATCH_CASE is not None and kind is _MATCH_CASE:
            c += 1
        elif kind in _MATCH_CAPTURES:
            if current.name:  # type: ignore[attr-defined]
                a += _binds(current.name)  # type: ignore[attr-defined]
        stack.extend(ast.iter_child_nodes(current))
    return a, b, c


def abc_size(node: FunctionNode, *, is_method: bool = False) -> float:
    """sqrt(A² + B² + C²), rounded to 2 decimals."""
    a, b, c = abc_vector(node, is_method=is_method)
    return round(math.sqrt(a * a + b * b + c * c), 2)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, float]:
    return {"abc": abc_size(unit.node, is_method=unit.is_method)}
