"""How the project's tests are run and set up: tox's commands (``tox.ini [testenv] commands``, each
line read as a command) and the pytest fixtures of ``conftest.py`` (found with ``ast``, never
imported). Each is a sighting of its own when no topic covers it.
"""

from __future__ import annotations

import ast
from typing import Iterator

from .commands import command_evidence
from .reading import SAFE_NAME, Evidence, ProjectFiles, clean

__all__ = ["tox_evidence", "conftest_evidence"]


def tox_evidence(files: ProjectFiles) -> list[Evidence]:
    parser = files.parsed("tox.ini", "ini")
    sections = [s for s in parser.sections() if s == "testenv" or s.startswith("testenv:")] if parser else []
    commands = [(section, parser.get(section, "commands", raw=True, fallback="")) for section in sections]
    return [ev for section, text in commands for ev in _tox_env(section, text)]


def _tox_env(section: str, commands: str) -> list[Evidence]:
    env = section.partition(":")[2] or "(all)"
    lines = [line.strip() for line in commands.replace("\\\n", " ").splitlines()]
    return [command_evidence("tox.ini", f"tox.ini [{section}] commands", line, f"tox env {env}", "tox")
            for line in lines if line and not line.startswith("#")]


_CONFTESTS = ("conftest.py", "tests/conftest.py")


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
        isinstance(target, ast.Name) and target.id == "fixture")


def _fixture_name(decorator: ast.expr, default: str) -> str:
    """The name a fixture is requested by: ``@pytest.fixture(name="client")``, else the function's."""
    for keyword in decorator.keywords if isinstance(decorator, ast.Call) else ():
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value,
                                                                                            str):
            return keyword.value.value
    return default


def _fixture_defs(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """(name, first line of its docstring) of every ``@pytest.fixture`` function."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            marks = [_fixture_name(d, node.name) for d in node.decorator_list if _is_fixture(d)]
            doc = (ast.get_docstring(node) or "").strip()
            if marks and SAFE_NAME.fullmatch(marks[0]):
                yield marks[0], clean(doc.splitlines()[0], 80) if doc else ""


def conftest_evidence(files: ProjectFiles) -> list[Evidence]:
    found = []
    for rel in _CONFTESTS:
        tree = files.parsed(rel, "python")
        fixtures = dict(_fixture_defs(tree)) if tree is not None else {}
        if fixtures:
            described = "; ".join(f"{name} ({doc})" if doc else name for name, doc in fixtures.items())
            signals = ("pytest:fixtures", *(f"pytest:fixture:{name}" for name in fixtures))
            found.append(Evidence(rel, clean(f"{rel}: pytest fixtures {', '.join(fixtures)}"), signals,
                                  clean(f"pytest fixtures in {rel}: {described}", 600), freeform=True))
    return found
