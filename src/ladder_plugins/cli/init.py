"""``ladder init``: a starter ``[tool.ladder]`` table in ``pyproject.toml``, from what is there.

It looks for the source roots (``src/``, else the top-level packages), the test
directories, and folders of scripts (``scripts/``, ``bin/``, ``tools/``), and writes
a table that names them all in ``paths`` (so the script role is for folders that are
analysed) and every gate mode, the default active and the others commented out, each
with what it does (the key table's starter keys, ``settings/keys.py``). The
file's existing bytes are kept exactly: the table is appended after them, in the
file's own line endings, and only after it was checked to load as valid settings. An
existing ``[tool.ladder]`` is never overwritten.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import LadderError
from .common import EXIT_OK, command

__all__ = ["starter_table", "add_parsers", "COMMANDS"]

_TESTS = ("tests", "test")
_SCRIPTS = ("scripts", "bin", "tools")
_NOT_SOURCE = {*_TESTS, *_SCRIPTS, "docs", "doc", "build", "dist", "examples", "benchmarks", "node_modules",
               "venv", "env"}


def _dirs(root: Path) -> list[Path]:
    try:
        return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    except OSError:
        return []


def _has_python(folder: Path) -> bool:
    return any(folder.rglob("*.py"))


def _sources(root: Path) -> list[str]:
    if (root / "src").is_dir():
        return ["src"]
    return [d.name for d in _dirs(root) if d.name not in _NOT_SOURCE and (d / "__init__.py").is_file()]


def starter_table(root: Path) -> str:
    """The ``[tool.ladder]`` table for the project at ``root`` (text, ``\\n`` line endings): the key table's starter
    keys (``settings/keys.py``), with the paths found here and a role for the folders of scripts."""
    from ..settings.reference import starter_table as written

    tests = [name for name in _TESTS if (root / name).is_dir()]
    scripts = [name for name in _SCRIPTS if (root / name).is_dir() and _has_python(root / name)]
    sources = _sources(root)
    # scripts are the project's code too: analysed, with their role's looser limits; alone they do not
    # make a project root-less, which would analyse every folder
    found: dict[str, Any] = {"paths": (sources + tests + scripts) if sources or tests else ["."]}
    if scripts:  # inside paths by construction: a role glob outside them would match nothing
        found["roles"] = {"script": [f"{name}/**" for name in scripts]}
    return written(found)


def _checked(table: str, root: Path, pyproject: Path) -> None:
    """The table must load as settings before anything is written."""
    from ..config import toml_loads, settings_from_table
    from ..plugins import rules_by_key

    settings_from_table(toml_loads(table)["tool"]["ladder"], root, pyproject, rules_by_key())


def _existing(pyproject: Path) -> bytes:
    from ..config import read_pyproject

    if not pyproject.exists():
        return b""
    if "ladder" in read_pyproject(pyproject).get("tool", {}):
        raise LadderError(f"{pyproject} already has a [tool.ladder] table; edit it there "
                          "(`ladder doctor` checks it, `ladder explain --list` shows the rules)")
    return pyproject.read_bytes()


def _appended(existing: bytes, table: str) -> bytes:
    newline = b"\r\n" if b"\r\n" in existing else b"\n"
    body = table.encode("utf-8").replace(b"\n", newline)
    if not existing:
        return body
    return existing + (b"" if existing.endswith(b"\n") else newline) + newline + body


def _write(path: Path, data: bytes) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if path.exists():
            os.chmod(temp, path.stat().st_mode & 0o7777)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def add_parsers(sub: Any) -> None:
    examples = ("  ladder init                         add a starter [tool.ladder] to pyproject.toml\n"
                "  ladder init --dry-run               print it, write nothing\n"
                "exit status: 0 written (or printed), 2 a [tool.ladder] table exists or pyproject.toml is invalid")
    command(sub, "init", examples).add_argument(
        "--dry-run", action="store_true", help="print the table, write nothing")


def _init(args: argparse.Namespace) -> int:
    from ..config import find_root

    root, _ = find_root(Path.cwd())
    pyproject = root / "pyproject.toml"
    existing = _existing(pyproject)
    table = starter_table(root)
    _checked(table, root, pyproject)
    if args.dry_run:
        print(f"# would be added to {pyproject}\n{table}", end="")
        return EXIT_OK
    _write(pyproject, _appended(existing, table))
    print(f"wrote [tool.ladder] to {pyproject}; check it with `ladder doctor`, then run `ladder check`")
    return EXIT_OK


COMMANDS = {"init": _init}
