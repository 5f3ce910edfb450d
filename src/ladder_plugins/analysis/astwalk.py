"""What the tree walks share: field tables worked out once, and telling ``elif`` from ``else: if``.

``ast.iter_child_nodes`` is a generator over every field, and the fused metric walk
(:mod:`ladder_plugins.metrics.traversal`) visits about a million nodes in a large code
base; it reads each node type's fields from a table built here once instead.
"""

from __future__ import annotations

import ast
from types import MappingProxyType
from typing import Collection, Mapping

__all__ = ["field_table", "fields_of", "is_elif"]


def fields_of(cls: type, skipped: Collection[str]) -> tuple[str, ...]:
    """The fields of node class ``cls`` in their fixed order, without ``skipped`` ones."""
    return tuple(name for name in getattr(cls, "_fields", ()) if name not in skipped)


def field_table(skipped: Collection[str]) -> Mapping[type, tuple[str, ...]]:
    """:func:`fields_of` for every node class of the ``ast`` module, worked out once (they do not change)."""
    return MappingProxyType({
        cls: fields_of(cls, skipped) for cls in vars(ast).values() if isinstance(cls, type) and issubclass(cls, ast.AST)
    })


def is_elif(node: ast.If) -> bool:
    """Whether ``node``'s ``else`` branch is an ``elif``, not an ``else:`` whose body is one ``if``.

    The ast has one shape for both; an ``elif`` starts in the column of its ``if``, the
    ``if`` inside an ``else:`` block one indentation level deeper.
    """
    orelse = node.orelse
    return len(orelse) == 1 and isinstance(orelse[0], ast.If) and orelse[0].col_offset == node.col_offset
