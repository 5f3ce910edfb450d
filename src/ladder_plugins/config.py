"""``[tool.ladder]`` in pyproject.toml: project root discovery, and a run's settings loaded.

One source of configuration for every front end, and its one entry: :func:`load_settings` finds the project
(:func:`find_root`), reads its pyproject.toml, and reads ``[tool.ladder]`` through the key table
(``settings/``: every key written once, its kind of value, the frozen :class:`Settings`). Settings are
frozen; front ends apply their command-line overrides with :meth:`Settings.replace` and
:func:`with_recurrence`. Every error names the file, the table and the key, and what is expected.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from .catalogue import Rule
from .errors import ConfigError
from .settings.keys import settings_from_table
from .settings.model import (COUNT_MODES, DEFAULT_SKIP_ROLES, MODES, SOURCES, FeedbackSettings, HistorySettings,
                             HooksSettings, Mode, RecurrenceSettings, RulesSettings, Settings, Thresholds,
                             WorklogSettings)
from .settings.values import GIT_SINCE, git_since_value, show

__all__ = [
    "Mode",
    "MODES",
    "COUNT_MODES",
    "SOURCES",
    "DEFAULT_SKIP_ROLES",
    "Thresholds",
    "RecurrenceSettings",
    "HistorySettings",
    "FeedbackSettings",
    "RulesSettings",
    "HooksSettings",
    "WorklogSettings",
    "Settings",
    "find_root",
    "no_project",
    "toml_loads",
    "load_settings",
    "read_pyproject",
    "settings_from_table",
    "with_recurrence",
    "git_since_value",
]

#: what marks a project that has neither a pyproject.toml nor .git: flake8's, tox's or pytest's configuration
_TOOL_FILES = ("setup.cfg", "tox.ini", ".flake8", "pytest.ini")


def toml_loads(text: str) -> dict[str, Any]:
    """TOML text to data (tomllib, or tomli before Python 3.11); ``ValueError`` if invalid."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on old Pythons only
        import tomli as tomllib
    return tomllib.loads(text)


def read_pyproject(path: Path) -> dict[str, Any]:
    """Parse a pyproject.toml; invalid TOML is a :class:`ConfigError` with line and column."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    try:
        return toml_loads(text)
    except ValueError as exc:  # TOMLDecodeError subclasses ValueError
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # tables or arrays nested thousands deep
        raise ConfigError(f"{path}: nested too deeply to read; expected a pyproject.toml of ordinary depth") from None


def _project_name(pyproject: Mapping[str, Any]) -> Optional[str]:
    """``[project] name``, where it is a name."""
    project = pyproject.get("project", {})
    name = project.get("name") if isinstance(project, dict) else None
    return name if isinstance(name, str) and name else None


def _ladder_table(path: Path, pyproject: Mapping[str, Any]) -> Optional[dict[str, Any]]:
    """``[tool.ladder]`` of ``pyproject`` (the parsed ``path``), ``None`` where it has none."""
    table = pyproject.get("tool", {})
    if not isinstance(table, dict):
        return None
    ladder = table.get("ladder")
    if ladder is None:
        return None
    if not isinstance(ladder, dict):
        raise ConfigError(f"{path}: [tool.ladder] must be a table")
    return ladder


def _configured_root(directory: Path) -> Optional[tuple[Path, Path]]:
    candidate = directory / "pyproject.toml"
    if candidate.is_file() and _ladder_table(candidate, read_pyproject(candidate)) is not None:
        return directory, candidate
    return None


def _plain_root(directory: Path) -> Optional[tuple[Path, Optional[Path]]]:
    candidate = directory / "pyproject.toml"
    if candidate.is_file():
        return directory, candidate
    return (directory, None) if (directory / ".git").exists() else None


def _tool_root(directory: Path) -> Optional[Path]:
    return directory if any((directory / name).is_file() for name in _TOOL_FILES) else None


def _locate(start: Union[str, Path, None]) -> tuple[Path, Optional[Path], bool]:
    """(root, its pyproject.toml, whether a project was found), as :func:`find_root` describes."""
    begin = Path(start or Path.cwd()).resolve()
    begin = begin.parent if begin.is_file() else begin
    plain: Optional[tuple[Path, Optional[Path]]] = None
    tool: Optional[Path] = None
    for directory in (begin, *begin.parents):
        configured = _configured_root(directory)
        if configured:
            return (*configured, True)
        plain = plain or _plain_root(directory)
        tool = tool or _tool_root(directory)
    if plain:
        return (*plain, True)
    return (tool, None, True) if tool else (begin, None, False)


def find_root(start: Union[str, Path, None] = None) -> tuple[Path, Optional[Path]]:
    """The project root and the pyproject.toml that configures it.

    The nearest directory upwards holding a pyproject.toml with ``[tool.ladder]``;
    else the nearest holding a pyproject.toml or ``.git``; else the nearest holding
    a ``setup.cfg``, ``tox.ini``, ``.flake8`` or ``pytest.ini`` (a project configured
    for flake8, tox or pytest alone); else ``start`` itself, which is then in no
    project (``Settings.in_project`` is false).
    """
    root, file, _ = _locate(start)
    return root, file


def no_project(root: Path) -> str:
    """The one wording for a directory in no project, where nothing is written."""
    return (f"{root} is in no project (no pyproject.toml, .git, setup.cfg, tox.ini, .flake8 or pytest.ini "
            "there or above)")


def with_recurrence(settings: Settings, *, source: Optional[str] = None,
                    git_since: Optional[str] = None) -> Settings:
    """``settings`` with the command line's ``--source`` and ``--git-since`` applied (checked as the table's)."""
    changes: dict[str, Any] = {}
    if source is not None:
        if source not in SOURCES:
            raise ConfigError(f"--source {source!r}: expected one of {', '.join(SOURCES)}")
        changes["source"] = source
    if git_since is not None:
        found = git_since_value(git_since)
        if found is None:
            raise ConfigError(f"--git-since {show(git_since)}: expected {GIT_SINCE}")
        changes["git_since"] = found
    return settings.replace(recurrence=dataclasses.replace(settings.recurrence, **changes)) if changes else settings


def load_settings(
    start: Union[str, Path, None] = None,
    *,
    rules: Optional[Mapping[str, Rule]] = None,
    table: Optional[Mapping[str, Any]] = None,
) -> Settings:
    """Discover the project root from ``start`` and load its ``[tool.ladder]`` table.

    ``rules`` maps rule keys to rules (built-ins plus plugins); by default the rules
    of the process-wide plugin manager. ``table`` replaces the file's table (tests,
    embedding).
    """
    if rules is None:
        from .plugins import rules_by_key

        rules = rules_by_key()
    root, file, found = _locate(start)
    pyproject = read_pyproject(file) if file is not None and file.is_file() else {}  # read once for both
    if table is None:
        table = (_ladder_table(file, pyproject) if file else None) or {}
    settings = settings_from_table(table, root, file or root / "pyproject.toml", rules)
    return dataclasses.replace(settings, project_name=_project_name(pyproject), in_project=found)
