"""Fast child iteration for the metric walkers.

``ast.iter_child_nodes`` is a generator over every field; the walkers call it for
about a million nodes in a large code base. This version reads each node type's
fields once, skips ``ctx`` (the ``Load``/``Store`` marker every name carries, which no
metric counts) and returns a list.
"""

from __future__ import annotations

import ast
from typing import Any

__all__ = ["children"]

_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(kind: type) -> tuple[str, ...]:
    names = tuple(name for name in kind._fields if name != "ctx")  # type: ignore[attr-defined]
    _FIELDS[kind] = names
    return names


def children(node: Any) -> list[ast.AST]:
    """The direct child nodes of ``node``, in field order, without expression contexts."""
    found: list[ast.AST] = []
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif type(value) is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
    return found
