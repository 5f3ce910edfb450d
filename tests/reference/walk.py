# ladder: role=app
"""The child walk the per-metric walks used before the fused traversal (issue 16)."""

from __future__ import annotations

import ast
from typing import Any

from ladder_plugins.analysis.astwalk import field_table, fields_of

__all__ = ["children"]

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
