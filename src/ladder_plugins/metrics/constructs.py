"""What single constructs count: the small rules the fused traversal applies at a node.

Kept apart from :mod:`.traversal` so that each rule reads as its metric's docs state
it: ABC's bound names and parameters (RuboCop), cognitive's boolean sequences,
decorator-style wrappers and self-calls of nested functions (SonarSource), and the
names that make a call an assertion.
"""

from __future__ import annotations

import ast
import fnmatch
from itertools import chain, repeat
from types import MappingProxyType
from typing import Mapping, Optional, Sequence

from ..analysis.source import FunctionNode

__all__ = [
    "FUNCTIONS", "binds", "targets", "params", "is_wildcard_case", "is_decorator_wrapper", "bool_runs",
    "calls_itself", "outside_calls", "callee_name", "is_assertion", "iterating_blocks",
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
            work.extend(_interleaved(item))
    return sum(1 for i, op in enumerate(ops) if i == 0 or op is not ops[i - 1])


def _interleaved(node: ast.BoolOp) -> list[object]:
    """``a op b op c`` as a work list in reverse (popped left to right)."""
    op = type(node.op)
    items: list[object] = [node.values[0]]
    for value in node.values[1:]:
        items += [op, value]
    return items[::-1]


def calls_itself(node: FunctionNode, *, in_class: bool) -> bool:
    """Cognitive: whether a nested function calls itself by name: a call of its name that reaches the
    binding its ``def`` made. A method of a class (``in_class``) never does: a class's names are not
    seen from its methods."""
    if in_class:
        return False
    name = node.name
    stack: list[ast.AST] = list(node.body)
    while stack:  # most nested functions never call their own name: look before resolving scopes
        current = stack.pop()
        if type(current) is ast.Call and type(current.func) is ast.Name and current.func.id == name:
            return name in outside_calls(node)
        stack.extend(ast.iter_child_nodes(current))
    return False


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_CAPTURES = tuple(getattr(ast, name) for name in ("MatchAs", "MatchStar") if hasattr(ast, name))
_MAPPINGS = tuple(getattr(ast, name) for name in ("MatchMapping",) if hasattr(ast, name))


class _Scope:
    """One scope of Python's name resolution inside a function: what it binds, what it calls by name."""

    __slots__ = ("parent", "kind", "bound", "declared_global", "calls")

    def __init__(self, parent: Optional[_Scope], kind: str, args: Optional[ast.arguments] = None) -> None:
        self.parent, self.kind = parent, kind  # kind: "function", "class" or "comprehension"
        self.bound: set[str] = {a.arg for a in _every_arg(args)} if args is not None else set()
        self.declared_global: set[str] = set()
        self.calls: list[str] = []

    def bind(self, node: ast.AST) -> bool:
        """Record what ``node`` binds here; True when nothing below it binds or calls."""
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                self.bound.add(node.id)  # type: ignore[attr-defined]
            return True
        if kind is ast.Global:
            self.declared_global.update(node.names)  # type: ignore[attr-defined]
            return True
        if kind is ast.NamedExpr:  # binds in the function around a comprehension
            owner = self
            while owner.kind == "comprehension" and owner.parent is not None:
                owner = owner.parent
            owner.bound.add(node.target.id)  # type: ignore[attr-defined]
            return False
        self.bound.update(_bound_by(node))
        return isinstance(node, (ast.Import, ast.ImportFrom, ast.Nonlocal))

    def outside(self) -> list[str]:
        """The names called here that resolve outside the function."""
        return [name for name in self.calls if self.reaches_outside(name)]

    def reaches_outside(self, name: str) -> bool:
        """Whether ``name`` used here resolves outside the function the scopes were built for (to the module)."""
        scope: Optional[_Scope] = self
        while scope is not None:
            if name in scope.declared_global:
                return True
            if name in scope.bound and (scope is self or scope.kind != "class"):  # a class's names are its own
                return False
            scope = scope.parent
        return True


def outside_calls(node: FunctionNode) -> frozenset[str]:
    """Names called as ``name(...)`` in a function's body where the name is bound neither in the function
    nor in a scope between it and the call, as Python resolves it (``global`` included): the calls that
    may reach the file's functions, or the function itself when it is nested. The function's
    decorators, defaults and annotations are not its body."""
    top = _Scope(None, "function", node.args)
    scopes = [top]
    stack: list[tuple[ast.AST, _Scope]] = [(stmt, top) for stmt in node.body]
    while stack:
        current, scope = stack.pop()
        if type(current) is ast.Call and type(current.func) is ast.Name:
            scope.calls.append(current.func.id)
        inner = _inner_scope(current, scope)
        if inner is not None:
            scopes.append(inner[0])
            stack.extend(zip(inner[1], repeat(scope)))
            stack.extend(zip(inner[2], repeat(inner[0])))
        elif not scope.bind(current):
            stack.extend(zip(ast.iter_child_nodes(current), repeat(scope)))
    return frozenset(chain.from_iterable(map(_Scope.outside, scopes)))


_Opened = tuple[_Scope, list[ast.AST], list[ast.AST]]


def _inner_scope(node: ast.AST, scope: _Scope) -> Optional[_Opened]:
    """A node that opens a scope: (its scope, its parts evaluated in the enclosing scope, its parts inside)."""
    if isinstance(node, (*FUNCTIONS, ast.Lambda)):
        return _function_scope(node, scope)
    if isinstance(node, ast.ClassDef):
        scope.bound.add(node.name)
        return _Scope(scope, "class"), [*node.decorator_list, *node.bases, *node.keywords], list(node.body)
    if isinstance(node, _COMPREHENSIONS):
        first, *rest = node.generators
        inside: list[ast.AST] = [first.target, *first.ifs, *(part for g in rest for part in (g.target, g.iter, *g.ifs))]
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        return _Scope(scope, "comprehension"), [first.iter], [*inside, *elements]
    return None


def _function_scope(node: FunctionNode | ast.Lambda, scope: _Scope) -> _Opened:
    args = node.args
    outer: list[ast.AST] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    if isinstance(node, ast.Lambda):
        return _Scope(scope, "function", args), outer, [node.body]
    scope.bound.add(node.name)
    outer += [*node.decorator_list, *(a.annotation for a in _every_arg(args) if a.annotation is not None)]
    return _Scope(scope, "function", args), outer + ([node.returns] if node.returns else []), list(node.body)


def _every_arg(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """``import a.b`` binds ``a``, ``from m import x as y`` binds ``y``; a ``*`` binds nothing known."""
    return [(alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*"]


def _bound_by(node: ast.AST) -> list[str]:
    """Names a node binds that are no ``Name`` node: imports, ``nonlocal`` (bound further out, inside the
    function), ``except ... as e``, ``match`` captures."""
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Nonlocal)):
        return _imported(node) if not isinstance(node, ast.Nonlocal) else list(node.names)
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    name = getattr(node, "name", None) if isinstance(node, _CAPTURES) else None
    rest = getattr(node, "rest", None) if isinstance(node, _MAPPINGS) else None
    return [found for found in (name, rest) if found]


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
