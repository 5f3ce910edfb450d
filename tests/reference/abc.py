# ladder: role=app
"""The ABC size walk as it was before the fused traversal (issue 16), kept as the reference
``tests/test_traversal.py`` holds the new walk to. The rules it counts are stated in
``ladder_plugins/metrics/abc.py`` and ``metrics.md``.
"""

from __future__ import annotations

import ast
import math
from typing import Iterator, Optional, Sequence

from ladder_plugins.analysis.astwalk import is_elif
from ladder_plugins.analysis.source import FunctionNode

from .walk import children

__all__ = ["abc_vector", "abc_size"]

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
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
    """A ``for`` is one assignment itself plus its targets (RuboCop: ``for x in y`` is A 2)."""
    target = 1 + _targets(node.target) if hasattr(node, "target") else 0
    return target, 0, 1 + bool(node.orelse)  # type: ignore[attr-defined]


def _comprehension(node: ast.comprehension) -> Vector:
    return _targets(node.target), 0, 1 + len(node.ifs)


def _withitem(node: ast.withitem) -> Vector:
    return (_targets(node.optional_vars) if node.optional_vars is not None else 0), 0, 0


def _handler(node: ast.ExceptHandler) -> Vector:
    return (_binds(node.name) if node.name else 0), 0, 0


def _try(node: ast.AST) -> Vector:
    """One condition for the handlers together, as RuboCop counts one per ``rescue`` node."""
    return 0, 0, int(bool(getattr(node, "handlers", ())))


def _case(node: ast.AST) -> Vector:
    """A ``case`` but an irrefutable one (``case _``, ``case name``, unguarded): that is the ``else`` of a
    ``case/in``, which RuboCop does not count."""
    pattern = node.pattern  # type: ignore[attr-defined]
    wildcard = isinstance(pattern, ast.MatchAs) and pattern.pattern is None and node.guard is None  # type: ignore
    return 0, 0, 0 if wildcard else 1


def _function(node: ast.AST) -> Vector:
    return _params(node.args, skip_first=False), 0, 0  # type: ignore[attr-defined]


def _if(node: ast.If) -> Vector:
    return 0, 0, 1 + (bool(node.orelse) and not is_elif(node))


#: issue 29: a lambda given to one of these is RuboCop's iterating block, a condition
_ITERATING = frozenset({"map", "filter", "filterfalse", "sorted", "sort", "min", "max", "reduce", "accumulate", "takewhile",
                        "dropwhile", "groupby", "starmap", "nsmallest", "nlargest", "merge"})


def _iterating_lambdas(call: ast.Call) -> int:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    values = list(call.args) + [k.value for k in call.keywords]
    return sum(isinstance(v, ast.Lambda) for v in values) if name in _ITERATING else 0


_COUNTERS = {
    ast.Call: lambda node: (0, 1, _iterating_lambdas(node)),
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
    **{kind: _try for kind in _TRIES},
    ast.Lambda: _function,
    ast.Yield: lambda node: (0, 1, 0),
    ast.YieldFrom: lambda node: (0, 1, 0),
    ast.If: _if,
    ast.IfExp: lambda node: (0, 0, 1),
    ast.BoolOp: lambda node: (0, 0, len(node.values) - 1),
    ast.Compare: lambda node: (0, 0, len(node.ops)),
    **({_MATCH_CASE: _case} if _MATCH_CASE is not None else {}),
}


def _contributions(body: Sequence[ast.AST]) -> Iterator[Vector]:
    """The (A, B, C) contribution of every counted node below ``body`` (iterative)."""
    stack = list(body)
    methods: set[int] = set()  # functions directly in a class defined in the unit: their self/cls is no argument
    while stack:
        current = stack.pop()
        found = _contribution(current, methods)
        if found is not None:
            yield found
        stack.extend(children(current))


def _contribution(node: ast.AST, methods: set[int]) -> Optional[Vector]:
    if isinstance(node, _FUNCS):
        return _params(node.args, skip_first=id(node) in methods), 0, 0
    if isinstance(node, ast.ClassDef):
        methods.update(id(stmt) for stmt in node.body if isinstance(stmt, _FUNCS))
        return None
    counter = _COUNTERS.get(type(node))
    return None if counter is None else counter(node)


def abc_vector(node: FunctionNode) -> Vector:
    """(A, B, C) of a function node's body, nested functions and lambdas included; the unit's own
    parameters are not part of its body, so a method's ``self`` needs no exception."""
    found = list(_contributions(node.body))
    if not found:
        return 0, 0, 0
    a, b, c = map(sum, zip(*found))
    return a, b, c


def abc_size(node: FunctionNode) -> float:
    """sqrt(A² + B² + C²), rounded to 2 decimals."""
    a, b, c = abc_vector(node)
    return round(math.sqrt(a * a + b * b + c * c), 2)
