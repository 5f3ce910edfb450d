"""The generated part of the documentation site: reference pages built from the code at every build.

``docs/_hooks/hook.py`` is the MkDocs hook (``hooks:`` in ``mkdocs.yml``); the modules here turn the
catalogue, the argparse parsers, the configuration's key table, the hook specifications, the public API, the
schemas and the subpackages' docstrings into Markdown. Nothing here is copied by hand from the code: a page is
what the installed package says when the site is built, and what the code no longer has, the page no
longer shows. A fact the code cannot give (what a field means, an example of a rule) is text of these
modules or of the package's ``rules.md`` (the rule notes, which ``ladder explain`` prints too); where the code
has something the text does not cover, the build warns, and ``mkdocs build --strict``
(``tests/test_docs_site.py``) fails.
"""

from __future__ import annotations

import logging

#: MkDocs counts warnings of its own loggers; under ``--strict`` any of them fails the build
log = logging.getLogger("mkdocs.plugins.ladder_docs")


def table(head: list[str], rows: list[list[str]]) -> str:
    """A Markdown table; ``|`` inside a cell is escaped."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)
