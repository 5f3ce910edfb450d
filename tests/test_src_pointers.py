"""Comments and docstrings in ``src/`` point only to what the repository has: no design notes (``DESIGN``) and
no "seed" text, which are not part of it. What such a pointer stood for is said on a page of ``docs/``
(``docs/explanation/recurrence.md``, ``docs/how-to/worklog.md``, ...), and the comment names that page.

Only comments and docstrings are read: a message the code prints is behaviour, and its tests pin it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ladder_plugins"
OUTSIDE = re.compile(r"DESIGN|seed")


#: what may have a docstring
UNITS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _docstrings(tree: ast.Module) -> list[tuple[int, str]]:
    docs = [(node.body[0].lineno, ast.get_docstring(node, clean=False)) for node in ast.walk(tree)
            if isinstance(node, UNITS)]
    return [(line, doc) for line, doc in docs if doc is not None]


def comments_and_docstrings(path: Path) -> list[tuple[int, str]]:
    """Every comment and every docstring (module, class, function) of a Python file, with its line."""
    source = path.read_text(encoding="utf-8")
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    comments = [(token.start[0], token.string) for token in tokens if token.type == tokenize.COMMENT]
    return comments + _docstrings(ast.parse(source))


def test_no_comment_or_docstring_in_src_points_outside_the_repository():
    named = [f"{path.relative_to(PACKAGE)}:{line}: {text.strip().splitlines()[0][:80]}"
             for path in sorted(PACKAGE.rglob("*.py")) for line, text in comments_and_docstrings(path)
             if OUTSIDE.search(text)]
    assert named == []


def test_the_check_finds_a_pointer_in_a_comment_and_in_a_docstring_but_not_in_code(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""Gate (DESIGN §7)."""\n\n\ndef f():\n    """The seed\'s rule."""\n'
                      '    return "the seed\'s layout"  # see DESIGN\n')
    hits = [line for line, text in comments_and_docstrings(module) if OUTSIDE.search(text)]
    assert sorted(hits) == [1, 5, 6]
