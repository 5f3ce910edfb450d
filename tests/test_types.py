"""Types are part of the API: ``py.typed`` is shipped, so what the package tells a type checker must be true."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import ladder_plugins


def _own_imports(init: Path) -> dict[str, str | None]:
    """Each name ``init`` imports from the package itself (only its TYPE_CHECKING block does), with the module."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    return {
        alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names
    }


def test_type_checkers_are_told_the_same_public_api_the_runtime_serves():
    """The lazy table serves each name at run time; the TYPE_CHECKING imports say it to mypy: same names, same modules."""
    init = Path(ladder_plugins.__file__)
    assert _own_imports(init) == ladder_plugins._EXPORTS
    for name, module in ladder_plugins._EXPORTS.items():
        value = getattr(ladder_plugins, name)
        assert vars(import_module(f"ladder_plugins.{module}"))[name] is value, name
        if inspect.isclass(value) or inspect.isfunction(value):  # defined there, not only imported there
            assert value.__module__ == f"ladder_plugins.{module}", name


def test_the_package_passes_mypy_strict():
    """``py.typed`` promises the annotations are checked: ``mypy --strict`` on the package finds nothing. It runs
    in a process of its own: mypy raises the interpreter's recursion limit for good, which would change what
    the deep-nesting tests that share this worker see."""
    pytest.importorskip("mypy.api", reason="mypy is not installed (it is in the test extra)")
    package = Path(ladder_plugins.__file__).parent
    # the project's [tool.mypy] (which leaves out the demo project) is read from the repository's root
    root = package.parents[1]
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(root / "pyproject.toml"),
                           "--cache-dir", os.devnull, str(package)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
