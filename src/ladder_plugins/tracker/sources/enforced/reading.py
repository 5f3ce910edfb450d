"""Evidence, and the project's files it is read from: each file read and parsed at most once, through
:func:`~ladder_plugins.tracker.files.read_source`, each file's first problem its one warning.

The small readers of option values every tool's module shares are here too: a value made
safe to show, a flag, a number, an option spelt with dashes or underscores, a list of
strings, a list of rule selectors.
"""

from __future__ import annotations

import ast
import configparser
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from ....config import toml_loads
from ....ladderdir.paths import inside
from ...files import identity_of, read_source
from ...model import SourceContext

__all__ = ["SAFE_NAME", "Evidence", "ProjectFiles", "clean", "flag", "number", "option", "strings", "selectors",
           "runner"]

#: a name safe to put in a signal (hook ids, fixture names come from untrusted files)
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}")
_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Evidence:
    """One thing a project enforces, found in one file: the signals it gives and where."""

    #: the file, relative to the root (its identity is this file and ``text``)
    file: str
    #: for people: ``pyproject.toml [tool.ruff.lint] select: I``
    location: str
    signals: tuple[str, ...]
    #: what the identity hashes (the relevant configuration, not the whole file); for a command, its words
    text: str = ""
    #: a hook, a CI step, a tox command or a set of fixtures: a sighting of its own when no topic covers it
    freeform: bool = False

    @property
    def identity(self) -> str:
        return identity_of(self.file, self.text or self.location)


def clean(text: str, limit: int = 200) -> str:
    """One line of printable text, at most ``limit`` characters: what a file says, safe to show."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text[: limit * 4]).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def flag(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in _TRUE)


def number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value if isinstance(value, (int, float)) else str(value).strip())
    except ValueError:
        return None


def option(values: Mapping[str, Any], key: str) -> tuple[str, Any]:
    """(the spelling found, its value) of an option spelt with dashes or underscores; ``("", None)``."""
    for name in (key, key.replace("-", "_"), key.replace("_", "-")):
        if name in values:
            return name, values[name]
    return "", None


def strings(value: Any) -> list[str]:
    """The strings of a list, or the lines of a text (INI values are text)."""
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def selectors(value: Any, pattern: "re.Pattern[str]") -> tuple[str, ...]:
    """Rule selectors of an option: a list, or text separated by commas or spaces; what is not one is left out."""
    items = re.split(r"[,\s]+", value) if isinstance(value, str) else strings(value)
    return tuple(item.strip() for item in items if pattern.fullmatch(item.strip()))


def runner(evidence: Sequence[Evidence], signals: Sequence[str]) -> Optional[Evidence]:
    """The first evidence that runs a tool (its pre-commit hook, tox command or CI step)."""
    return next((ev for ev in evidence if not set(signals).isdisjoint(ev.signals)), None)


# ---------------------------------------------------------------------------
# reading files: each once, through read_source; each problem said once per file


class _Malformed(Exception):
    """A file that was read but cannot be parsed; the message says why."""


def _parse_toml(text: str) -> Any:
    try:
        return toml_loads(text)
    except ValueError as exc:
        raise _Malformed(f"not valid TOML ({clean(str(exc), 120)})") from None


def _parse_ini(text: str) -> Any:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise _Malformed(f"not a valid INI file ({clean(str(exc), 120)})") from None
    return parser


def _parse_yaml(text: str) -> Any:
    try:
        import yaml  # PyYAML: only the feedback tracker reads YAML
    except ImportError:  # pragma: no cover - PyYAML is installed with the tracker
        raise _Malformed("PyYAML is not installed, so YAML is not read") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise _Malformed("not valid YAML" + (f" (line {mark.line + 1})" if mark is not None else "")) from None


def _parse_python(text: str) -> Any:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        raise _Malformed("not valid Python" + (f" (line {line})" if line else "")) from None


_PARSERS: Mapping[str, Callable[[str], Any]] = {
    "toml": _parse_toml, "ini": _parse_ini, "yaml": _parse_yaml, "python": _parse_python,
}


class ProjectFiles:
    """The files of one scan, each read and parsed at most once; a file's first problem is its one warning."""

    def __init__(self, context: SourceContext) -> None:
        self.context = context
        self.root = context.root
        self._parsed: dict[tuple[str, str], Any] = {}
        self._warned: set[str] = set()

    def warn(self, rel: str, problem: str) -> None:
        if rel not in self._warned:
            self._warned.add(rel)
            self.context.warn(f"{rel}: {problem}")

    def parsed(self, rel: str, kind: str) -> Any:
        key = (rel, kind)
        if key not in self._parsed:
            self._parsed[key] = self._parse(rel, kind)
        return self._parsed[key]

    def _parse(self, rel: str, kind: str) -> Any:
        text = read_source(self.root / rel, self.context)
        if text is None:
            self._warned.add(rel)  # read_source said why (or the file is absent)
            return None
        try:
            return _PARSERS[kind](text)
        except _Malformed as exc:
            self.warn(rel, f"{exc}; skipped")
        except (RecursionError, MemoryError):
            self.warn(rel, "nested too deeply to read; skipped")
        return None

    def table(self, rel: str, kind: str, path: Sequence[str]) -> Optional[Mapping[str, Any]]:
        """The table at ``path`` (an INI section, or TOML keys), or ``None`` when the file or table is absent."""
        data = self.parsed(rel, kind)
        if kind == "ini":
            return dict(data.items(path[0], raw=True)) if data is not None and data.has_section(path[0]) else None
        for key in path:
            data = data.get(key) if isinstance(data, dict) else None
        return data if isinstance(data, dict) else None

    def mapping(self, rel: str) -> Optional[Mapping[Any, Any]]:
        """A YAML file that must be a mapping; anything else (a list, a scalar) is said once."""
        data = self.parsed(rel, "yaml")
        if data is not None and not isinstance(data, dict):
            self.warn(rel, f"expected a mapping at the top, found {type(data).__name__}; skipped")
        return data if isinstance(data, dict) else None

    def listing(self, rel_dir: str, suffixes: tuple[str, ...]) -> list[str]:
        """The files of a directory inside the root with one of ``suffixes``, sorted; a directory leading
        outside the root (a symlink) is said and never listed."""
        directory = self.root / rel_dir
        if not os.path.lexists(directory):
            return []
        if not inside(directory, self.root.resolve()):
            self.warn(rel_dir, f"leads outside {self.root.resolve()} (a symlink); skipped, never followed")
            return []
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            self.warn(rel_dir, f"cannot be listed ({exc.strerror or exc}); skipped")
            return []
        if not all(name.isprintable() for name in names):
            self.warn(rel_dir, "a file name with control characters; that file skipped")
        return [f"{rel_dir}/{name}" for name in names if name.endswith(suffixes) and name.isprintable()]
