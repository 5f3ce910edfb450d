"""The contributors' layout page: the package tree and its layers, and what each part says of itself.

The tree and the layer list are the README's ``## Layout`` section, read at build time: that section is the
one ``tests/test_layout.py`` holds the code to, and other changes edit it, so the site shows it rather than a
copy that would drift. Each part's own account is the first paragraph of its ``__init__.py`` docstring.
"""

from __future__ import annotations

import ast
import re

from . import log, table
from .schemas import ROOT

PACKAGE = ROOT / "src" / "ladder_plugins"


def readme_layout() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Layout\n(.*?)(?=^## )", text, re.S | re.M)
    if not match:
        log.warning("README.md has no '## Layout' section for the contributors' layout page")
        return ""
    body = match.group(1).replace("of `DESIGN.md` §2", "of one run ([Data flow](data-flow.md))")
    return body.replace("the event schema table in this README", "the event schema table of "
                        "`docs/_hooks/ladder_docs/schemas.py`").strip()


def parts_table() -> str:
    rows = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        if "__pycache__" in init.parts or "demo_project" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split())
        first = re.sub(r"\s*\(DESIGN §[\d.]+\)", "", first).replace("``", "`")
        rows.append([f"`{init.parent.relative_to(PACKAGE.parent).as_posix()}/`", first])
    return table(["part", "what it says of itself"], rows)


def page() -> str:
    return "\n".join([
        "# Layout", "",
        "The tree and the layers below are read from the README's `## Layout` section when the site is built "
        "(`tests/test_layout.py` checks the code against that section).", "",
        readme_layout(), "",
        "## The parts, in their own words", "",
        "The first paragraph of each subpackage's `__init__.py` docstring:", "",
        parts_table(), ""])
