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
from itertools import accumulate
from typing import Mapping, Optional, Sequence

from ..analysis.astwalk import is_elif
from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl

__all__ = ["function_lines", "code_line_counts", "param_count", "nesting_depth", "file_lines"]

_BLOCK_BODIES = {
    ast.If: ("body", "orelse"),
    ast.For: ("body", "orelse"),
    ast.AsyncFor: ("body", "orelse"),
    ast.While: ("body", "orelse"),
    ast.With: ("body",),
    ast.AsyncWith: ("body",),
    ast.Try: ("body", "orelse", "finalbody"),
}
#: the parts of a block whose bodies are one level inside it (``except`` and ``case`` clauses)
_BLOCK_PARTS: dict[type, str] = {ast.Try: "handlers"}
if hasattr(ast, "TryStar"):
    _BLOCK_BODIES[ast.TryStar] = ("body", "orelse", "finalbody")
    _BLOCK_PARTS[ast.TryStar] = "handlers"
if hasattr(ast, "Match"):
    _BLOCK_BODIES[ast.Match] = ()
    _BLOCK_PARTS[ast.Match] = "cases"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _first_code_line(node: FunctionNode) -> int:
    """Line of the first statement after the docstring; 0 when there is none."""
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return body[1].lineno if len(body) > 1 else 0
    return first.lineno


_NOT_CODE_START = ("", "#")  # what a line stripped of its indentation starts with when it is no code


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


def function_lines(node: FunctionNode, lines: Sequence[str], code_before: Optional[Sequence[int]] = None) -> int:
    """Body lines of code, docstring, blank and comment-only lines excluded; ``code_before``: the file's
    :func:`code_line_counts`, so that a file of many units reads each line once, not once per unit."""
    start = _first_code_line(node)
    if not start:
        return 0
    end = getattr(node, "end_lineno", None) or start
    last = min(end, len(lines))
    if last < start:
        return 0
    if code_before is None:
        count = sum(map(_is_code, lines[start - 1:last]))
    else:
        count = code_before[last] - code_before[start - 1]
    if count == last - start + 1 or not _may_hold_multiline_strings(lines[start - 1:end]):
        return count
    code = {number: _is_code(lines[number - 1]) for number in range(start, last + 1)}
    _read_strings(node, lines, code)
    return sum(code.values())


def code_line_counts(lines: Sequence[str]) -> list[int]:
    """``counts[n]``: how many of the first ``n`` lines are neither blank nor comment-only."""
    return list(accumulate([text[:1] not in _NOT_CODE_START for text in map(str.lstrip, lines)], initial=0))


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


def _levels(stmt: ast.stmt, names: Sequence[str], depth: int) -> list[tuple[Sequence[ast.stmt], int]]:
    """The statement lists of a block at ``depth``, each with its own depth: one level inside, but an
    ``elif`` stays at its ``if``'s level (an ``else:`` holding an ``if`` is a level)."""
    inner = depth + 1
    found: list[tuple[Sequence[ast.stmt], int]] = [(getattr(stmt, name), inner) for name in names]
    if type(stmt) is ast.If and is_elif(stmt):
        found[1] = (stmt.orelse, depth)
    part_name = _BLOCK_PARTS.get(type(stmt))
    if part_name:
        found += [(part.body, inner) for part in getattr(stmt, part_name)]
    return found


def nesting_depth(node: FunctionNode) -> int:
    """Deepest nesting of control blocks in the unit (statements only)."""
    deepest = 0
    stack: list[tuple[Sequence[ast.stmt], int]] = [(node.body, 0)]
    while stack:
        body, depth = stack.pop()
        for stmt in body:
            names = _BLOCK_BODIES.get(type(stmt))
            if names is not None:
                deepest = max(deepest, depth + 1)
                stack += _levels(stmt, names, depth)
            elif isinstance(stmt, _SCOPES):  # a nested def's blocks continue at the depth where it is defined
                stack.append((stmt.body, depth))
    return deepest


def file_lines(lines: Sequence[str]) -> int:
    """Physical lines, as an editor and the tokenizer number them: ``lines`` split at LF, CRLF and a lone CR
    (a file of CR line endings is as many lines as it shows, not one)."""
    return len(lines)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    counts = source.memo.get("size.code_lines")
    if counts is None:
        counts = source.memo["size.code_lines"] = code_line_counts(source.lines)
    return {
        "function_lines": function_lines(unit.node, source.lines, counts),
        "params": param_count(unit.node, is_method=unit.is_method),
        "nesting": nesting_depth(unit.node),
    }


@hookimpl
def ladder_file_metrics(source: ParsedSource) -> Mapping[str, int]:
    return {"file_lines": file_lines(source.lines)}
