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

from ..hookspecs import hookimpl
from ..source import FunctionNode, ParsedSource, Unit

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
            values = item.values
            op = type(item.op)
            work.append(values[-1])
            for value in reversed(values[:-1]):
                work.append(op)
                work.append(value)
        elif isinstance(item, type):
            ops.append(item)
        else:
            leaves.append(item)  # type: ignore[arg-type]
    runs = sum(1 for i, op in enumerate(ops) if i == 0 or op is not ops[i - 1])
    return runs, leaves


def _is_recursive_call(call: ast.Call, name: str, is_method: bool) -> bool:
    func = call.func
    if is_method:
        return (
            isinstance(func, ast.Attribute)
            and func.attr == name
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
        )
    return isinstance(func, ast.Name) and func.id == name


def cognitive(node: FunctionNode, *, is_method: bool = False) -> int:
    """Cognitive complexity of a function node, nested functions and lambdas included."""
    total = 0
    name = node.name
    inner_nesting = 0 if is_decorator_wrapper(node) else 1
    stack: list[tuple[ast.AST, int]] = [(stmt, 0) for stmt in reversed(node.body)]
    push = stack.append

    def push_all(nodes: Sequence[ast.AST], nesting: int) -> None:
        for child in reversed(nodes):
            push((child, nesting))

    # Nested defs directly in the unit body follow the wrapper rule.
    wrapper_defs = {id(s) for s in node.body if isinstance(s, _FUNCS)} if inner_nesting == 0 else set()
    while stack:
        current, nesting = stack.pop()
        kind = type(current)
        if kind is ast.If:
            total += 1 + nesting
            branch: ast.If = current  # type: ignore[assignment]
            push_all(branch.body, nesting + 1)
            push((branch.test, nesting))
            while _is_elif(branch):
                branch = branch.orelse[0]  # type: ignore[assignment]
                total += 1
                push_all(branch.body, nesting + 1)
                push((branch.test, nesting))
            if branch.orelse:
                total += 1
                push_all(branch.orelse, nesting + 1)
        elif kind in _LOOPS:
            total += 1 + nesting
            loop = current
            push_all(loop.body, nesting + 1)  # type: ignore[attr-defined]
            if loop.orelse:  # type: ignore[attr-defined]
                total += 1
                push_all(loop.orelse, nesting + 1)  # type: ignore[attr-defined]
            header = [loop.test] if kind is ast.While else [loop.target, loop.iter]  # type: ignore[attr-defined]
            push_all(header, nesting)
        elif kind in _TRIES:
            tried = current
            push_all(tried.body + tried.orelse + tried.finalbody, nesting)  # type: ignore[attr-defined]
            for handler in tried.handlers:  # type: ignore[attr-defined]
                total += 1 + nesting
                push_all(handler.body, nesting + 1)
                if handler.type is not None:
                    push((handler.type, nesting))
        elif _MATCH is not None and kind is _MATCH:
            total += 1 + nesting
            for case in current.cases:  # type: ignore[attr-defined]
                push_all(case.body, nesting + 1)
                if case.guard is not None:
                    push((case.guard, nesting + 1))
            push((current.subject, nesting))  # type: ignore[attr-defined]
        elif kind is ast.IfExp:
            total += 1 + nesting
            push((current.orelse, nesting + 1))  # type: ignore[attr-defined]
            push((current.body, nesting + 1))  # type: ignore[attr-defined]
            push((current.test, nesting))  # type: ignore[attr-defined]
        elif kind in _FUNCS:
            depth = nesting if id(current) in wrapper_defs else nesting + 1
            if is_decorator_wrapper(current):  # type: ignore[arg-type]
                wrapper_defs.update(id(s) for s in current.body if isinstance(s, _FUNCS))  # type: ignore[attr-defined]
            push_all(current.body, depth)  # type: ignore[attr-defined]
            args = current.args  # type: ignore[attr-defined]
            defaults = args.defaults + [d for d in args.kw_defaults if d is not None]
            push_all(current.decorator_list + defaults, nesting)  # type: ignore[attr-defined]
        elif kind is ast.Lambda:
            push((current.body, nesting + 1))  # type: ignore[attr-defined]
        elif kind is ast.BoolOp:
            runs, leaves = _bool_sequences(current)  # type: ignore[arg-type]
            total += runs
            push_all(leaves, nesting)
        elif kind in _COMPREHENSIONS:
            for generator in current.generators:  # type: ignore[attr-defined]
                total += 1 + len(generator.ifs)
            push_all(list(ast.iter_child_nodes(current)), nesting)
        else:
            if kind is ast.Call and _is_recursive_call(current, name, is_method):  # type: ignore[arg-type]
                total += 1
            push_all(list(ast.iter_child_nodes(current)), nesting)
    return total


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    return {"cognitive": cognitive(unit.node, is_method=unit.is_method)}
