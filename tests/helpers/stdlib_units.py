"""The units of the running Python's standard library, for the oracle and reference tests."""

from __future__ import annotations

import ast
import sysconfig
import warnings
from pathlib import Path
from typing import Iterator, Optional

from ladder_plugins.analysis.source import Unit, find_units


def stdlib_files() -> list[Path]:
    """Modules of the standard library and its packages (tests and site-packages left out)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    return [path for path in sorted(stdlib.glob("*.py")) + sorted(stdlib.glob("*/*.py"))
            if "site-packages" not in path.parts and "test" not in path.parts]


def parsed(path: Path) -> Optional[ast.Module]:
    """The file's tree, or None for the few files this Python cannot parse (lib2to3's fixtures)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError):
            return None


def units_of(tree: ast.Module, role: str = "app") -> tuple[Unit, ...]:
    return find_units(tree, "m.py", role)


def stdlib_units() -> Iterator[tuple[str, Unit]]:
    """(file name, unit) for every unit of the standard library."""
    for path in stdlib_files():
        tree = parsed(path)
        if tree is not None:
            yield from ((path.name, unit) for unit in units_of(tree))
