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

_SKIPPED = frozenset({"lineno", "col_offset", "end_lineno", "end_col_offset", "type_comment"})


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


class _Serializer:
    """Feeds a canonical, position-free rendering of a tree to a hash, iteratively.

    Structure markers are ``bytes`` and values are ``repr``'d, so a string value can
    never be mistaken for structure.
    """

    def __init__(self, root: ast.AST) -> None:
        self.root = root
        self.root_body = _without_docstring(root)
        self.stack: list[object] = [root]
        self.digest = hashlib.blake2b(digest_size=12)

    def run(self) -> str:
        while self.stack:
            self.digest.update(self._token(self.stack.pop()))
        return self.digest.hexdigest()

    def _token(self, item: object) -> bytes:
        if isinstance(item, bytes):
            return item
        if isinstance(item, ast.AST):
            return self._node(item)
        if isinstance(item, list):
            self.stack.append(b"]")
            self.stack.extend(reversed(item))
            return b"["
        return repr(item).encode("utf-8", "surrogatepass") + b","

    def _node(self, node: ast.AST) -> bytes:
        self.stack.append(b")")
        for name in reversed(node._fields):
            if name not in _SKIPPED:
                value = self.root_body if (node is self.root and name == "body") else getattr(node, name, None)
                self.stack.extend((value, f" {name}=".encode()))
        return b"(" + type(node).__name__.encode()


def unit_hash(node: ast.AST) -> str:
    """A hash of the node's code, independent of formatting, comments, position, docstring.

    Serialises the tree iteratively (deeply nested code cannot raise RecursionError).
    """
    return _Serializer(node).run()
