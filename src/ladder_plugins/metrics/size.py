"""Size and shape: body lines, parameters, nesting depth, file lines.

* ``function_lines``: lines from the first statement after the docstring to the
  unit's last line that are neither blank nor comment-only (lines inside a
  multi-line string are code);
* ``params``: positional-only, ordinary and keyword-only parameters; a method's
  leading ``self``/``cls`` and ``*args``/``**kwargs`` are not counted;
* ``nesting``: deepest nesting of ``if``, ``for``, ``while``, ``try``, ``with`` and
  ``match`` blocks (``elif``/``else``/``except``/``finally`` stay at their
  statement's level; a nested function's blocks continue at the depth where it is
  defined);
* ``file_lines``: physical lines of the file.
"""

from __future__ import annotations

import ast
from typing import Mapping, Sequence

from ..hookspecs import hookimpl
from ..source import FunctionNode, ParsedSource, Unit

__all__ = ["function_lines", "param_count", "nesting_depth", "file_lines"]

_BLOCK_BODIES = {
    ast.If: ("body", "orelse"),
    ast.For: ("body", "orelse"),
    ast.AsyncFor: ("body", "orelse"),
    ast.While: ("body", "orelse"),
    ast.With: ("body",),
    ast.AsyncWith: ("body",),
    ast.Try: ("body", "orelse", "finalbody"),
}
if hasattr(ast, "TryStar"):
    _BLOCK_BODIES[ast.TryStar] = ("body", "orelse", "finalbody")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_MATCH = getattr(ast, "Match", None)


def _first_code_line(node: FunctionNode) -> int:
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        if len(body) == 1:
            return 0
        first = body[1]
    return first.lineno


def _string_interior(node: ast.AST, start: int, end: int) -> set[int]:
    """Lines 2..n of multi-line string literals: code, even when blank or '#'-led."""
    inside: set[int] = set()
    for child in ast.walk(node):
        if isinstance(child, (ast.Constant, ast.JoinedStr)):
            last = getattr(child, "end_lineno", None) or child.lineno
            if last > child.lineno:
                inside.update(range(max(child.lineno + 1, start), min(last, end) + 1))
    return inside


def function_lines(node: FunctionNode, lines: Sequence[str]) -> int:
    """Body lines of code, docstring, blank and comment-only lines excluded."""
    start = _first_code_line(node)
    if not start:
        return 0
    end = getattr(node, "end_lineno", None) or start
    span = lines[start - 1 : end]
    if any('"""' in line or "'''" in line for line in span):
        strings = _string_interior(node, start, end)
    else:
        strings = set()
    count = 0
    for number, text in enumerate(span, start):
        stripped = text.strip()
        if number in strings or (stripped and not stripped.startswith("#")):
            count += 1
    return count


def param_count(node: FunctionNode, *, is_method: bool) -> int:
    """Named parameters, without a method's self/cls and without *args/**kwargs."""
    args = node.args
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    count = len(positional) + len(args.kwonlyargs)
    if is_method and positional and positional[0].arg in ("self", "cls"):
        count -= 1
    return count


def nesting_depth(node: FunctionNode) -> int:
    """Deepest nesting of control blocks in the unit (statements only)."""
    deepest = 0
    stack: list[tuple[ast.stmt, int]] = [(stmt, 0) for stmt in node.body]
    while stack:
        stmt, depth = stack.pop()
        kind = type(stmt)
        fields = _BLOCK_BODIES.get(kind)
        if fields is not None:
            inner = depth + 1
            deepest = max(deepest, inner)
            for name in fields:
                body = getattr(stmt, name)
                if name == "orelse" and kind is ast.If and len(body) == 1 and isinstance(body[0], ast.If):
                    stack.append((body[0], depth))  # elif: same level as its if
                else:
                    stack.extend((child, inner) for child in body)
            for handler in getattr(stmt, "handlers", ()):
                stack.extend((child, inner) for child in handler.body)
        elif _MATCH is not None and kind is _MATCH:
            deepest = max(deepest, depth + 1)
            for case in stmt.cases:  # type: ignore[attr-defined]
                stack.extend((child, depth + 1) for child in case.body)
        elif kind in _SCOPES:
            stack.extend((child, depth) for child in stmt.body)  # type: ignore[attr-defined]
    return deepest


def file_lines(text: str) -> int:
    """Physical lines, as an editor numbers them."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    return {
        "function_lines": function_lines(unit.node, source.lines),
        "params": param_count(unit.node, is_method=unit.is_method),
        "nesting": nesting_depth(unit.node),
    }


@hookimpl
def ladder_file_metrics(source: ParsedSource) -> Mapping[str, int]:
    return {"file_lines": file_lines(source.text)}
