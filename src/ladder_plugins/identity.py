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

__all__ = ["fingerprint", "unit_hash"]

_POSITIONS = frozenset({"lineno", "col_offset", "end_lineno", "end_col_offset"})


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


def unit_hash(node: ast.AST) -> str:
    """A hash of the node's code, independent of formatting, comments, position, docstring.

    Serialises the tree iteratively (deeply nested code cannot raise RecursionError).
    """
    digest = hashlib.blake2b(digest_size=12)
    update = digest.update
    stack: list[object] = [node]
    root_body = _without_docstring(node)
    first = True
    while stack:
        item = stack.pop()
        if isinstance(item, bytes):  # structure marker, never a value
            update(item)
        elif isinstance(item, ast.AST):
            update(b"(" + type(item).__name__.encode())
            stack.append(b")")
            fields = []
            for name in item._fields:
                if name in _POSITIONS or name == "type_comment":
                    continue
                value = root_body if (first and name == "body") else getattr(item, name, None)
                fields.append((name, value))
            first = False
            for name, value in reversed(fields):
                stack.append(value)
                stack.append(f" {name}=".encode())
        elif isinstance(item, list):
            update(b"[")
            stack.append(b"]")
            stack.extend(reversed(item))
        else:
            update(repr(item).encode("utf-8", "surrogatepass") + b",")
    return digest.hexdigest()
