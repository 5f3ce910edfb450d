"""The contributors' layout page's generated part: what each part of the package says of itself.

The tree and the layer list are written by hand in ``docs/contributing/layout.md``, the page
``tests/test_layout.py`` holds the code to; what is generated (the ``<!-- ladder-docs: parts -->`` marker) is
each subpackage's own account, the first paragraph of its ``__init__.py`` docstring.
"""

from __future__ import annotations

import ast

from . import table
from .schemas import ROOT

PACKAGE = ROOT / "src" / "ladder_plugins"


def parts_table() -> str:
    rows = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        if "__pycache__" in init.parts or "demo_project" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split()).replace("``", "`")
        rows.append([f"`{init.parent.relative_to(PACKAGE.parent).as_posix()}/`", first])
    return table(["part", "what it says of itself"], rows)
