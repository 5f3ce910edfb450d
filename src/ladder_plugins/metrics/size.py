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
import io
import tokenize
from typing import Mapping, Optional, Sequence

from ..analysis.astwalk import is_elif
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


def _is_code(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def _multiline_strings(node: ast.AST) -> list[ast.expr]:
    """String literals (concatenated parts and f-strings included) that span more than one line."""
    return [child for child in ast.walk(node) if isinstance(child, (ast.Constant, ast.JoinedStr))
            and isinstance(getattr(child, "value", ""), (str, bytes, list))
            and (getattr(child, "end_lineno", None) or child.lineno) > child.lineno]


def _segment(lines: Sequence[str], node: ast.expr) -> str:
    """The source text of ``node`` (its columns are UTF-8 byte offsets)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode("utf-8", "replace")
    head = lines[first].encode()[node.col_offset:].decode("utf-8", "replace")
    tail = lines[last].encode()[:node.end_col_offset].decode("utf-8", "replace")
    return "\n".join([head, *lines[first + 1:last], tail])


_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def _string_lines(lines: Sequence[str], node: ast.expr) -> dict[int, bool]:
    """Line -> whether it holds code, for the lines of one multi-line string literal, as the tokenizer
    reads them: lines inside a string token are code (even blank or ``#``-led), a comment or blank line
    between implicitly concatenated parts is not."""
    found = {number: False for number in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("(" + _segment(lines, node) + ")").readline))
    except (tokenize.TokenError, SyntaxError):
        return {}  # cannot tell: keep the plain reading
    for tok in tokens:
        if tok.type not in _NOT_CODE:
            for number in range(tok.start[0], tok.end[0] + 1):
                found[node.lineno + number - 1] = True
    return found


def function_lines(node: FunctionNode, lines: Sequence[str]) -> int:
    """Body lines of code, docstring, blank and comment-only lines excluded."""
    start = _first_code_line(node)
    if not start:
        return 0
    end = getattr(node, "end_lineno", None) or start
    code = {number: _is_code(lines[number - 1]) for number in range(start, min(end, len(lines)) + 1)}
    if not all(code.values()) and _may_hold_multiline_strings(lines[start - 1:end]):
        _read_strings(node, lines, code)
    return sum(code.values())


def _read_strings(node: FunctionNode, lines: Sequence[str], code: dict[int, bool]) -> None:
    """Only a line inside a multi-line string can be blank or '#'-led and still be code: read those right."""
    for string in _multiline_strings(node):
        code.update((n, is_code) for n, is_code in _string_lines(lines, string).items() if n in code)


def _may_hold_multiline_strings(span: Sequence[str]) -> bool:
    """A cheap test before the walk: a string spans lines only with triple quotes or a backslash."""
    return any('"' * 3 in line or "'" * 3 in line or line.rstrip().endswith("\\") for line in span)


def param_count(node: FunctionNode, *, is_method: bool) -> int:
    """Named parameters, without a method's self/cls and without *args/**kwargs."""
    args = node.args
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    count = len(positional) + len(args.kwonlyargs)
    if is_method and positional and positional[0].arg in ("self", "cls"):
        count -= 1
    return count


def _elif(stmt: ast.stmt) -> Optional[ast.If]:
    """The ``elif`` branch of an ``if`` statement, if it has one (an ``else:`` holding an ``if`` is a level)."""
    if isinstance(stmt, ast.If) and is_elif(stmt):
        return stmt.orelse[0]  # type: ignore[return-value]
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


def file_lines(lines: Sequence[str]) -> int:
    """Physical lines, as an editor and the tokenizer number them: ``lines`` split at LF, CRLF and a lone CR
    (a file of CR line endings is as many lines as it shows, not one)."""
    return len(lines)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    return {
        "function_lines": function_lines(unit.node, source.lines),
        "params": param_count(unit.node, is_method=unit.is_method),
        "nesting": nesting_depth(unit.node),
    }


@hookimpl
def ladder_file_metrics(source: ParsedSource) -> Mapping[str, int]:
    return {"file_lines": file_lines(source.lines)}
