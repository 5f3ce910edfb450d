"""Cognitive complexity after SonarSource's white paper (G. Ann Campbell, 2017).

Counting (the README's table lists every case with an example):

* +1, plus the current nesting level, for ``if``, ternary, ``for``/``while`` (async
  too), ``except``, ``match`` and recursion-free loops alike;
* +1 (no nesting bonus) for ``elif``, ``else`` and a loop's ``else``;
* +1 per *sequence* of like boolean operators (``a and b and c`` +1,
  ``a and b or c`` +2); a ``not`` or a call starts a new expression;
* +1 per comprehension ``for`` clause and per comprehension ``if`` clause (flat);
* +1 per recursive call (``name(...)`` in a function, ``self.name(...)`` or
  ``cls.name(...)`` in a method);
* nesting rises inside ``if``/``elif``/``else`` bodies, loops, ``except`` and
  ``case`` bodies, ternary branches, nested functions and lambdas; a decorator-style
  wrapper (a function whose only other statements are ``return <name>``) does not
  raise the nesting of the function it defines, as in SonarSource's Python analyzer.

Iterative: no recursion however deep the code.
"""

from __future__ import annotations

import ast
from typing import Mapping, Sequence

from ..analysis.astwalk import children
from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl

__all__ = ["cognitive", "is_decorator_wrapper"]

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
_MATCH = getattr(ast, "Match", None)


def _without_docstring(body: Sequence[ast.stmt]) -> Sequence[ast.stmt]:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return body[1:]
    return body


def is_decorator_wrapper(node: FunctionNode) -> bool:
    """True for ``def deco(f): def inner(...): ...; return inner`` shaped functions."""
    body = _without_docstring(node.body)
    has_def = any(isinstance(stmt, _FUNCS) for stmt in body)
    others_ok = all(
        isinstance(stmt, _FUNCS) or (isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name))
        for stmt in body
    )
    return has_def and others_ok


def _is_elif(node: ast.If) -> bool:
    orelse = node.orelse
    return len(orelse) == 1 and isinstance(orelse[0], ast.If) and orelse[0].col_offset == node.col_offset


def _bool_sequences(node: ast.BoolOp) -> tuple[int, list[ast.AST]]:
    """Runs of like operators in the flattened expression, and its non-boolean operands."""
    ops: list[type] = []
    leaves: list[ast.AST] = []
    work: list[object] = [node]
    while work:
        item = work.pop()
        if isinstance(item, ast.BoolOp):
            work.extend(_interleave(item))
        elif isinstance(item, type):
            ops.append(item)
        else:
            leaves.append(item)  # type: ignore[arg-type]
    runs = sum(1 for i, op in enumerate(ops) if i == 0 or op is not ops[i - 1])
    return runs, leaves


def _interleave(node: ast.BoolOp) -> list[object]:
    """``a op b op c`` as a work list in reverse (popped left to right)."""
    op = type(node.op)
    items: list[object] = []
    for value in node.values:
        items += [op, value]
    return list(reversed(items[1:]))


def _is_recursive_call(call: ast.Call, name: str, is_method: bool) -> bool:
    func = call.func
    if not is_method:
        return isinstance(func, ast.Name) and func.id == name
    return (
        isinstance(func, ast.Attribute)
        and func.attr == name
        and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls")
    )


class _Counter:
    """One unit's count: a work stack of (node, nesting) and a handler per construct."""

    def __init__(self, node: FunctionNode, is_method: bool) -> None:
        self.total = 0
        self.name = node.name
        self.is_method = is_method
        self.stack: list[tuple[ast.AST, int]] = []
        self.flat_defs: set[int] = set()  # defs inside a decorator-style wrapper
        if is_decorator_wrapper(node):
            self.flat_defs.update(id(s) for s in node.body if isinstance(s, _FUNCS))
        self.push(node.body, 0)  # the unit's decorators and defaults are not its body

    def push(self, nodes: Sequence[ast.AST], nesting: int) -> None:
        self.stack.extend((child, nesting) for child in reversed(nodes))

    def run(self) -> int:
        handlers = _HANDLERS
        while self.stack:
            current, nesting = self.stack.pop()
            handler = handlers.get(type(current), _Counter.visit_other)
            handler(self, current, nesting)
        return self.total

    def visit_if(self, node: ast.If, nesting: int) -> None:
        self.total += 1 + nesting
        self.push([node.test], nesting)
        self.push(node.body, nesting + 1)
        while _is_elif(node):
            node = node.orelse[0]  # type: ignore[assignment]
            self.total += 1
            self.push([node.test], nesting)
            self.push(node.body, nesting + 1)
        if node.orelse:
            self.total += 1
            self.push(node.orelse, nesting + 1)

    def visit_loop(self, node: ast.AST, nesting: int) -> None:
        self.total += 1 + nesting + bool(node.orelse)  # type: ignore[attr-defined]
        header = [node.test] if isinstance(node, ast.While) else [node.target, node.iter]  # type: ignore[attr-defined]
        self.push(header, nesting)
        self.push(node.body + node.orelse, nesting + 1)  # type: ignore[attr-defined]

    def visit_try(self, node: ast.AST, nesting: int) -> None:
        self.push(node.body + node.orelse + node.finalbody, nesting)  # type: ignore[attr-defined]
        for handler in node.handlers:  # type: ignore[attr-defined]
            self.total += 1 + nesting
            self.push([handler.type] if handler.type is not None else [], nesting)
            self.push(handler.body, nesting + 1)

    def visit_match(self, node: ast.AST, nesting: int) -> None:
        self.total += 1 + nesting
        self.push([node.subject], nesting)  # type: ignore[attr-defined]
        for case in node.cases:  # type: ignore[attr-defined]
            self.push([case.guard] if case.guard is not None else [], nesting + 1)
            self.push(case.body, nesting + 1)

    def visit_ifexp(self, node: ast.IfExp, nesting: int) -> None:
        self.total += 1 + nesting
        self.push([node.test], nesting)
        self.push([node.body, node.orelse], nesting + 1)

    def visit_def(self, node: FunctionNode, nesting: int) -> None:
        depth = nesting if id(node) in self.flat_defs else nesting + 1
        if is_decorator_wrapper(node):
            self.flat_defs.update(id(s) for s in node.body if isinstance(s, _FUNCS))
        args = node.args
        defaults = args.defaults + [d for d in args.kw_defaults if d is not None]
        self.push(node.decorator_list + defaults, nesting)
        self.push(node.body, depth)

    def visit_lambda(self, node: ast.Lambda, nesting: int) -> None:
        self.push([node.body], nesting + 1)

    def visit_boolop(self, node: ast.BoolOp, nesting: int) -> None:
        runs, leaves = _bool_sequences(node)
        self.total += runs
        self.push(leaves, nesting)

    def visit_comprehension(self, node: ast.AST, nesting: int) -> None:
        self.total += sum(1 + len(g.ifs) for g in node.generators)  # type: ignore[attr-defined]
        self.push(children(node), nesting)

    def visit_call(self, node: ast.Call, nesting: int) -> None:
        self.total += _is_recursive_call(node, self.name, self.is_method)
        self.push(children(node), nesting)

    def visit_other(self, node: ast.AST, nesting: int) -> None:
        self.push(children(node), nesting)


_HANDLERS = {
    ast.If: _Counter.visit_if,
    ast.For: _Counter.visit_loop,
    ast.AsyncFor: _Counter.visit_loop,
    ast.While: _Counter.visit_loop,
    ast.IfExp: _Counter.visit_ifexp,
    ast.FunctionDef: _Counter.visit_def,
    ast.AsyncFunctionDef: _Counter.visit_def,
    ast.Lambda: _Counter.visit_lambda,
    ast.BoolOp: _Counter.visit_boolop,
    ast.Call: _Counter.visit_call,
    **{kind: _Counter.visit_try for kind in _TRIES},
    **{kind: _Counter.visit_comprehension for kind in _COMPREHENSIONS},
    **({_MATCH: _Counter.visit_match} if _MATCH is not None else {}),
}


def cognitive(node: FunctionNode, *, is_method: bool = False) -> int:
    """Cognitive complexity of a function node, nested functions and lambdas included."""
    return _Counter(node, is_method).run()


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    return {"cognitive": cognitive(unit.node, is_method=unit.is_method)}
