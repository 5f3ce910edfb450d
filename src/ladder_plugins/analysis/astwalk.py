"""Fast child iteration for the metric walkers, and the field tables behind it.

``ast.iter_child_nodes`` is a generator over every field; the walkers call it for
about a million nodes in a large code base. This version reads each node type's
fields from a table worked out once, skips ``ctx`` (the ``Load``/``Store`` marker
every name carries, which no metric counts) and returns a list. The unit hash
(:mod:`.identity`) renders nodes from a table of the same kind.
"""

from __future__ import annotations

import ast
from types import MappingProxyType
from typing import Any, Collection, Mapping

__all__ = ["children", "field_table", "fields_of", "is_elif"]


def fields_of(cls: type, skipped: Collection[str]) -> tuple[str, ...]:
    """The fields of node class ``cls`` in their fixed order, without ``skipped`` ones."""
    return tuple(name for name in getattr(cls, "_fields", ()) if name not in skipped)


def field_table(skipped: Collection[str]) -> Mapping[type, tuple[str, ...]]:
    """:func:`fields_of` for every node class of the ``ast`` module, worked out once (they do not change)."""
    return MappingProxyType({
        cls: fields_of(cls, skipped) for cls in vars(ast).values() if isinstance(cls, type) and issubclass(cls, ast.AST)
    })


_FIELDS = field_table({"ctx"})


def children(node: Any) -> list[ast.AST]:
    """The direct child nodes of ``node``, in field order, without expression contexts."""
    names = _FIELDS.get(type(node))
    found: list[ast.AST] = []
    for name in fields_of(type(node), {"ctx"}) if names is None else names:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif type(value) is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
    return found


def is_elif(node: ast.If) -> bool:
    """Whether ``node``'s ``else`` branch is an ``elif``, not an ``else:`` whose body is one ``if``.

    The ast has one shape for both; an ``elif`` starts in the column of its ``if``, the
    ``if`` inside an ``else:`` block one indentation level deeper.
    """
    orelse = node.orelse
    return len(orelse) == 1 and isinstance(orelse[0], ast.If) and orelse[0].col_offset == node.col_offset
