"""What makes a violation "the same" across runs: fingerprints and unit hashes.

A fingerprint names the place and the rule, never a line number, so inserting lines
above a unit does not change it. A unit hash names the unit's *code*: it is computed
from the ``ast`` (so formatting and comments are gone) without positions and without
the docstring, so it changes with every real edit and with nothing else. Both are
built from text only (no ``hash()``), hence identical across ``PYTHONHASHSEED``
values, processes and machines.
"""

from __future__ import annotations

import ast
import hashlib
from typing import Optional

from .astwalk import field_table, fields_of

__all__ = ["fingerprint", "unit_hash", "file_hash"]

_SKIPPED = frozenset({"lineno", "col_offset", "end_lineno", "end_col_offset", "type_comment"})
_FIELDS = field_table(_SKIPPED)  # the hashed fields of every node type


def fingerprint(path: str, unit_key: Optional[str], rule_key: str) -> str:
    """``path::unit::rule`` for units, ``path::rule`` for file rules."""
    if unit_key:
        return f"{path}::{unit_key}::{rule_key}"
    return f"{path}::{rule_key}"


def _without_docstring(node: ast.AST) -> list[ast.AST]:
    body = list(getattr(node, "body", []))
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[1:]
    return body


# Structure markers are unique objects: no value in the tree can be mistaken for them.
_OPEN, _CLOSE, _LIST, _END = object(), object(), object(), object()
_MARKS = {id(_OPEN): "(", id(_CLOSE): ")", id(_LIST): "[", id(_END): "]"}


def _hashed_fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    return fields_of(cls, _SKIPPED) if names is None else names


def _push_node(node: ast.AST, stack: list[object], root: ast.AST, root_body: list[ast.AST]) -> str:
    """Schedule a node's fields (positions and the root's docstring left out); return its token."""
    stack.append(_CLOSE)
    for name in reversed(_hashed_fields(type(node))):
        stack.append(root_body if (node is root and name == "body") else getattr(node, name, None))
    stack.append(_OPEN)
    return type(node).__name__


def _tokens(root: ast.AST) -> list[str]:
    """A flat, position-free rendering of the tree (iterative: no depth limit)."""
    out: list[str] = []
    root_body = _without_docstring(root)
    stack: list[object] = [root]
    while stack:
        item = stack.pop()
        mark = _MARKS.get(id(item))
        if mark is not None:
            out.append(mark)
        elif isinstance(item, ast.AST):
            out.append(_push_node(item, stack, root, root_body))
        elif type(item) is list:
            stack += [_END, *reversed(item), _LIST]
        else:
            out.append(repr(item))
    return out


def _emit_value(value: object, out: list[str]) -> None:
    if isinstance(value, ast.AST):
        _emit(value, out)
    elif type(value) is list:
        out.append("[")
        for item in value:
            _emit_value(item, out)
        out.append("]")
    else:
        out.append(repr(value))


def _emit(node: ast.AST, out: list[str], body: Optional[list[ast.AST]] = None) -> None:
    """The same rendering as :func:`_tokens`, recursively: about twice as fast on ordinary code."""
    cls = type(node)
    out.append(cls.__name__)
    out.append("(")
    for name in _hashed_fields(cls):
        _emit_value(body if body is not None and name == "body" else getattr(node, name, None), out)
    out.append(")")


def _fast_tokens(root: ast.AST) -> list[str]:
    out: list[str] = []
    try:
        _emit(root, out, _without_docstring(root))
    except RecursionError:  # deeply nested code: the iterative rendering has no depth limit
        return _tokens(root)
    return out


def unit_hash(node: ast.AST) -> str:
    """A hash of the node's code, independent of formatting, comments, position, docstring.

    Field order is fixed by the node types, so the flat rendering is unambiguous; it is
    hashed once. Deeply nested code falls back to an iterative rendering of the same
    tokens, so it cannot raise RecursionError.
    """
    text = "\x1f".join(_fast_tokens(node))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def file_hash(lines: list[str]) -> str:
    """A version id for file rules: the code lines, blank and comment-only lines and trailing
    whitespace ignored.

    Re-serialising a whole module's tree for every long file cost more than the rest
    of the analysis; file rules (size) are coarse, so a cheaper notion of "the file
    changed" serves: edits to code lines count, blank lines and comment lines do not.
    """
    kept = (line.rstrip() for line in lines)
    text = "\n".join(line for line in kept if line and not line.lstrip().startswith("#"))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
