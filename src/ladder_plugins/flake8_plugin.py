"""flake8 front end (entry point ``LAD``): a thin adapter over the core analysis.

Until the flake8 integration lands in full this checker reports nothing, so that
installing the package never changes a flake8 run.
"""

from __future__ import annotations

import ast
from typing import Any, Iterator

__all__ = ["LadderChecker"]


class LadderChecker:
    """flake8 AST checker; reports no errors yet."""

    name = "ladder-plugins"
    version = "0.1.0"

    def __init__(self, tree: ast.AST, filename: str = "-", lines: Any = None) -> None:
        self.tree = tree
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        return iter(())
