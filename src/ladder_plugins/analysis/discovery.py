"""Which files to analyse: expand paths, apply excludes, relate them to the root."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Pattern, Sequence

from ..config import Settings
from ..errors import ConfigError
from .globs import compile_globs, matches_any

__all__ = ["SourceFile", "DEFAULT_EXCLUDES", "discover", "default_paths", "relative_path"]

#: Directories nobody wants analysed (flake8's defaults plus environments and our own).
DEFAULT_EXCLUDES = (
    ".svn", "CVS", ".bzr", ".hg", ".git", "__pycache__", ".tox", ".nox", ".eggs", "*.egg",
    "*.egg-info", ".venv", "venv", "node_modules", ".ladder", ".mypy_cache", ".pytest_cache",
)


@dataclass(frozen=True)
class SourceFile:
    """A file to analyse: its absolute path and its POSIX path relative to the root."""

    path: Path
    rel: str
    inside_root: bool = True
    #: why a file named explicitly is not analysed (it matches an exclude), or ``None``
    excluded: Optional[str] = None


def relative_path(path: Path, root: Path) -> tuple[str, bool]:
    """POSIX path relative to ``root`` and whether the file is inside it."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix(), True
    except ValueError:
        return Path(os.path.relpath(absolute, root)).as_posix(), False


def default_paths(settings: Settings) -> list[str]:
    """``[tool.ladder] paths``, else ``src`` and the test directories that exist, else the root."""
    if settings.paths:
        return list(settings.paths)
    found = [name for name in ("src", "tests", "test") if (settings.root / name).is_dir()]
    return found or ["."]


def _start(raw: str, base: Path, relative_to_root: bool) -> Path:
    start = Path(raw) if Path(raw).is_absolute() else base / raw
    if not start.exists():
        where = "[tool.ladder] paths" if relative_to_root else "command line"
        raise ConfigError(f"{raw}: no such file or directory ({where})")
    return start


def discover(
    paths: Sequence[str],
    settings: Settings,
    *,
    cwd: Optional[Path] = None,
    relative_to_root: bool = False,
) -> list[SourceFile]:
    """Python files under ``paths`` (files named explicitly are taken as they are).

    ``paths`` are relative to ``cwd`` (command-line arguments) or, with
    ``relative_to_root``, to the project root (configured paths). A path that does
    not exist is a :class:`ConfigError`.
    """
    base = settings.root if relative_to_root else Path(cwd or Path.cwd())
    patterns = DEFAULT_EXCLUDES + tuple(settings.exclude)
    excludes = compile_globs(patterns)
    files: dict[str, SourceFile] = {}
    for raw in paths:
        for file in _expand(_start(raw, base, relative_to_root), settings.root, excludes):
            files.setdefault(file.rel, _why_excluded(file, patterns, settings) if file.excluded else file)
    return sorted(files.values(), key=lambda f: f.rel)


def _why_excluded(file: SourceFile, patterns: Sequence[str], settings: Settings) -> SourceFile:
    """An explicitly named, excluded file: kept, to be listed as skipped with the pattern that excludes it."""
    pattern = next(p for p in patterns if matches_any(file.rel, compile_globs([p])))
    where = "[tool.ladder] exclude" if pattern in settings.exclude else "the default excludes"
    return dataclasses.replace(file, excluded=f"excluded by {where} ({pattern!r}); named explicitly, not analysed")


def _join(rel_dir: str, name: str) -> str:
    return name if rel_dir == "." else f"{rel_dir}/{name}"


def _expand(start: Path, root: Path, excludes: Sequence[Pattern[str]]) -> Iterable[SourceFile]:
    if not start.is_file():
        yield from _walk(start, root, excludes)
        return
    rel, inside = relative_path(start, root)
    excluded = "yes" if inside and matches_any(rel, excludes) else None  # said why by discover()
    yield SourceFile(Path(os.path.abspath(start)), rel, inside, excluded)


def _kept(rel_dir: str, names: Iterable[str], excludes: Sequence[Pattern[str]]) -> list[str]:
    return [name for name in sorted(names) if not matches_any(_join(rel_dir, name), excludes)]


def _walk(start: Path, root: Path, excludes: Sequence[Pattern[str]]) -> Iterable[SourceFile]:
    """Python files below a directory, pruning excluded directories as it goes."""
    for directory, subdirs, names in os.walk(start):
        rel_dir, inside = relative_path(Path(directory), root)
        subdirs[:] = _kept(rel_dir, subdirs, excludes)
        for name in _kept(rel_dir, (n for n in names if n.endswith(".py")), excludes):
            yield SourceFile(Path(os.path.abspath(directory)) / name, _join(rel_dir, name), inside)
