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
from typing import Iterator, Mapping, Sequence

from ..analysis.astwalk import children
from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl

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
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return sum(_binds(a.arg) for a in positional + list(args.kwonlyargs) + extra)


def _is_elif(node: ast.If) -> bool:
    orelse = node.orelse
    return len(orelse) == 1 and isinstance(orelse[0], ast.If) and orelse[0].col_offset == node.col_offset


Vector = tuple[int, int, int]
_NONE: Vector = (0, 0, 0)


def _assign(node: ast.Assign) -> Vector:
    return sum(_targets(t) for t in node.targets), 0, 0


def _target(node: ast.AST) -> Vector:
    """AugAssign, NamedExpr, annotated assignment with a value."""
    if isinstance(node, ast.AnnAssign) and node.value is None:
        return _NONE
    return _targets(node.target), 0, 0  # type: ignore[attr-defined]


def _loop(node: ast.AST) -> Vector:
    target = _targets(node.target) if hasattr(node, "target") else 0
    return target, 0, 1 + bool(node.orelse)  # type: ignore[attr-defined]


def _comprehension(node: ast.comprehension) -> Vector:
    return _targets(node.target), 0, 1 + len(node.ifs)


def _withitem(node: ast.withitem) -> Vector:
    return (_targets(node.optional_vars) if node.optional_vars is not None else 0), 0, 0


def _handler(node: ast.ExceptHandler) -> Vector:
    return (_binds(node.name) if node.name else 0), 0, 1


def _function(node: ast.AST) -> Vector:
    return _params(node.args, skip_first=False), 0, 0  # type: ignore[attr-defined]


def _if(node: ast.If) -> Vector:
    return 0, 0, 1 + (bool(node.orelse) and not _is_elif(node))


def _capture(node: ast.AST) -> Vector:
    name = getattr(node, "name", None)
    return (_binds(name) if name else 0), 0, 0


_COUNTERS = {
    ast.Call: lambda node: (0, 1, 0),
    ast.Assign: _assign,
    ast.AugAssign: _target,
    ast.AnnAssign: _target,
    ast.NamedExpr: _target,
    ast.For: _loop,
    ast.AsyncFor: _loop,
    ast.While: _loop,
    ast.comprehension: _comprehension,
    ast.withitem: _withitem,
    ast.ExceptHandler: _handler,
    ast.FunctionDef: _function,
    ast.AsyncFunctionDef: _function,
    ast.Lambda: _function,
    ast.If: _if,
    ast.IfExp: lambda node: (0, 0, 1),
    ast.BoolOp: lambda node: (0, 0, len(node.values) - 1),
    ast.Compare: lambda node: (0, 0, len(node.ops)),
    **({_MATCH_CASE: lambda node: (0, 0, 1)} if _MATCH_CASE is not None else {}),
    **{kind: _capture for kind in _MATCH_CAPTURES},
}


def _contributions(body: Sequence[ast.AST]) -> Iterator[Vector]:
    """The (A, B, C) contribution of every counted node below ``body`` (iterative)."""
    stack = list(body)
    while stack:
        current = stack.pop()
        counter = _COUNTERS.get(type(current))
        if counter is not None:
            yield counter(current)
        stack.extend(children(current))


def abc_vector(node: FunctionNode, *, is_method: bool = False) -> Vector:
    """(A, B, C) of a function node, nested functions and lambdas included."""
    own = (_params(node.args, skip_first=is_method), 0, 0)
    a, b, c = map(sum, zip(own, *_contributions(node.body)))
    return a, b, c


def abc_size(node: FunctionNode, *, is_method: bool = False) -> float:
    """sqrt(A² + B² + C²), rounded to 2 decimals."""
    a, b, c = abc_vector(node, is_method=is_method)
    return round(math.sqrt(a * a + b * b + c * c), 2)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, float]:
    return {"abc": abc_size(unit.node, is_method=unit.is_method)}
