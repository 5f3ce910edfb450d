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
from typing import Mapping, Optional, Sequence

from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl

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
if hasattr(ast, "Match"):
    _BLOCK_BODIES[ast.Match] = ()  # its cases are inner blocks, see _inner_blocks
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _first_code_line(node: FunctionNode) -> int:
    """Line of the first statement after the docstring; 0 when there is none."""
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return body[1].lineno if len(body) > 1 else 0
    return first.lineno


def _string_interior(node: ast.AST, start: int, end: int) -> set[int]:
    """Lines 2..n of multi-line string literals: code, even when blank or '#'-led."""
    inside: set[int] = set()
    for child in ast.walk(node):
        last = getattr(child, "end_lineno", None)
        if isinstance(child, (ast.Constant, ast.JoinedStr)) and last and last > child.lineno:
            inside.update(range(max(child.lineno + 1, start), min(last, end) + 1))
    return inside


def _is_code(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


_TRIPLE_QUOTES = ('"' * 3, "'" * 3)


def function_lines(node: FunctionNode, lines: Sequence[str]) -> int:
    """Body lines of code, docstring, blank and comment-only lines excluded."""
    start = _first_code_line(node)
    if not start:
        return 0
    end = getattr(node, "end_lineno", None) or start
    span = lines[start - 1 : end]
    has_strings = any(quote in line for line in span for quote in _TRIPLE_QUOTES)
    strings = _string_interior(node, start, end) if has_strings else set()
    return sum(1 for number, text in enumerate(span, start) if number in strings or _is_code(text))


def param_count(node: FunctionNode, *, is_method: bool) -> int:
    """Named parameters, without a method's self/cls and without *args/**kwargs."""
    args = node.args
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    count = len(positional) + len(args.kwonlyargs)
    if is_method and positional and positional[0].arg in ("self", "cls"):
        count -= 1
    return count


def _elif(stmt: ast.stmt) -> Optional[ast.If]:
    """The ``elif`` branch of an ``if`` statement, if it has one."""
    if isinstance(stmt, ast.If) and len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If):
        return stmt.orelse[0]
    return None


def _bodies(stmt: ast.stmt) -> list[Sequence[ast.stmt]]:
    """The statement lists one level inside ``stmt`` (an ``elif`` is not one)."""
    skip = "orelse" if _elif(stmt) is not None else ""
    bodies = [getattr(stmt, name) for name in _BLOCK_BODIES[type(stmt)] if name != skip]
    parts = list(getattr(stmt, "handlers", ())) + list(getattr(stmt, "cases", ()))
    return bodies + [part.body for part in parts]


def _inner_blocks(stmt: ast.stmt, depth: int) -> list[tuple[ast.stmt, int]]:
    """The statements one block level inside ``stmt``; an elif stays at ``depth``."""
    found = [(child, depth + 1) for body in _bodies(stmt) for child in body]
    branch = _elif(stmt)
    if branch is not None:
        found.append((branch, depth))
    return found


def nesting_depth(node: FunctionNode) -> int:
    """Deepest nesting of control blocks in the unit (statements only)."""
    deepest = 0
    stack: list[tuple[ast.stmt, int]] = [(stmt, 0) for stmt in node.body]
    while stack:
        stmt, depth = stack.pop()
        if type(stmt) in _BLOCK_BODIES:
            deepest = max(deepest, depth + 1)
            stack.extend(_inner_blocks(stmt, depth))
        elif isinstance(stmt, _SCOPES):
            stack.extend((child, depth) for child in stmt.body)
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
