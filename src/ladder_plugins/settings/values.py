"""How a value of ``[tool.ladder]`` is read: a kind of value per class, each checking what it is given.

A kind knows what it expects (said in the error when the value is wrong), what the configuration reference
calls it, and how to turn a valid value into the settings' value. Every error names the file, the table and
the key, and says what is expected.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Callable, ClassVar, Iterable, Mapping, Optional

from ..catalogue import ROLES, Rule
from ..errors import ConfigError

__all__ = [
    "Checker", "Value", "Whole", "Number", "Flag", "Choice", "PathList", "PathText", "FileList", "CommitIds",
    "GitSince", "Revision", "Names", "RoleList", "Command", "EnvNames", "close", "show", "git_since_value",
    "GIT_SINCE",
]


def close(word: str, known: Iterable[str]) -> list[str]:
    """The nearest known name, for a "did you mean" (difflib is imported only when a name is wrong)."""
    import difflib

    return difflib.get_close_matches(word, list(known), n=1)


def _key(key: str) -> str:
    """A key as written in TOML, quoted when it is not a bare key: a newline or an escape code in a
    key would otherwise split the message or reach the terminal."""
    if key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key):
        return key
    return json.dumps(key)


def show(value: Any) -> str:
    """A value as the user wrote it, for an error."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


class Checker:
    """Checks the keys of one table; the first problem is raised, naming the file, the table and the key."""

    def __init__(self, file: Path, table_name: str, rules: Optional[Mapping[str, Rule]] = None) -> None:
        self.file = file
        self.table_name = table_name
        #: the rules a limit may name (built-ins and plugins): only the thresholds table reads them
        self.rules: Mapping[str, Rule] = rules or {}

    def where(self, key: str) -> str:
        return f"{self.file}: [{self.table_name}] {_key(key)}"

    def fail(self, key: str, expected: str, value: Any) -> ConfigError:
        return ConfigError(f"{self.where(key)} = {show(value)}: expected {expected}")

    def within(self, table_name: str) -> "Checker":
        """A checker of a table below this one's."""
        return Checker(self.file, table_name, self.rules)

    def unknown(self, table: Mapping[str, Any], known: Iterable[str]) -> None:
        known = list(known)
        for key in table:
            if key not in known:
                hint = close(key, known)
                suggestion = f"; did you mean {hint[0]!r}?" if hint else f"; known keys: {', '.join(known)}"
                raise ConfigError(f"{self.where(key)}: unknown key{suggestion}")

    def relative(self, key: str, item: str) -> str:
        """``item`` as a POSIX path inside the project root; absolute or escaping paths are errors."""
        posix = item.replace("\\", "/")
        if posix.startswith("/") or (len(posix) > 1 and posix[1] == ":") or os.path.isabs(item):
            raise ConfigError(
                f"{self.where(key)}: {item!r} is an absolute path; expected a path relative to the project root"
            )
        if ".." in PurePosixPath(posix).parts:
            raise ConfigError(
                f"{self.where(key)}: {item!r} escapes the project root; expected a path inside it"
            )
        return posix


class Value:
    """A kind of value: :meth:`kind` is what the reference calls it, :meth:`read` checks and converts one.

    A kind with bounds or choices is a frozen dataclass; one without is a plain class (a dataclass made at
    import costs start-up time and gives such a class nothing)."""

    KIND: ClassVar[str] = ""

    def kind(self) -> str:
        return self.KIND

    def read(self, check: Checker, key: str, value: Any) -> Any:
        raise NotImplementedError


def _amount(number: float) -> str:
    """A bound as the reference shows it: 1,000,000; 0.01."""
    return f"{int(number):,}" if float(number).is_integer() else str(number)


@dataclass(frozen=True)
class Whole(Value):
    low: int
    high: int

    def kind(self) -> str:
        return f"{_amount(self.low)} to {_amount(self.high)}"

    def read(self, check: Checker, key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise check.fail(key, f"a whole number from {self.low} to {self.high}", value)
        return value


@dataclass(frozen=True)
class Number(Value):
    low: float
    high: float

    def kind(self) -> str:
        return f"number {_amount(self.low)} to {_amount(self.high)}"

    def read(self, check: Checker, key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.low <= value <= self.high:
            raise check.fail(key, f"a number from {self.low} to {self.high}", value)
        return float(value)


class Flag(Value):
    KIND = "boolean"

    def read(self, check: Checker, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise check.fail(key, "true or false", value)
        return value


@dataclass(frozen=True)
class Choice(Value):
    """One of some names; ``make`` turns the name into the settings' value (an enum's member)."""

    choices: tuple[str, ...]
    make: Callable[[str], Any] = str
    #: what each choice does, in the choices' order; empty: the choices speak for themselves
    docs: tuple[tuple[str, str], ...] = ()

    def kind(self) -> str:
        return ", ".join(f'`"{choice}"`' for choice in self.choices)

    def read(self, check: Checker, key: str, value: Any) -> Any:
        if not isinstance(value, str) or value not in self.choices:
            hint = close(value, self.choices) if isinstance(value, str) else []
            extra = f" (did you mean {hint[0]!r}?)" if hint else ""
            raise check.fail(key, f"one of {', '.join(map(repr, self.choices))}{extra}", value)
        return self.make(value)


@dataclass(frozen=True)
class PathList(Value):
    """Paths (or globs) relative to the root: a list, or one as text."""

    globs: bool

    def kind(self) -> str:
        return "list of globs" if self.globs else "list of paths"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise check.fail(key, "a list of non-empty strings (paths relative to the project root)", value)
        return tuple(check.relative(key, item) for item in value)


@dataclass(frozen=True)
class PathText(Value):
    """One path as text: printable, not blank; inside the root unless ``inside`` is false."""

    expected: str
    what: str = "path"
    inside: bool = True

    def kind(self) -> str:
        return self.what

    def read(self, check: Checker, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip() or not value.isprintable():
            raise check.fail(key, self.expected, value)
        return check.relative(key, value) if self.inside else value


class FileList(Value):
    KIND = "list of paths"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(f, str) and f.strip() for f in value):
            raise check.fail(key, "a non-empty list of file paths relative to the project root", value)
        return tuple(check.relative(key, f) for f in value)


class CommitIds(Value):
    KIND = "list of commit ids (7 to 64 hex digits)"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        hexadecimal = "0123456789abcdefABCDEF"
        if not isinstance(value, list) or not all(
                isinstance(v, str) and 7 <= len(v.strip()) <= 64 and all(c in hexadecimal for c in v.strip())
                for v in value):
            raise check.fail(key, 'a list of commit ids (7 to 64 hexadecimal digits) such as ["3f2a9c1"]', value)
        return tuple(v.strip().lower() for v in value)


#: a git revision as a user writes one in git_since: a tag, a branch, ``HEAD~3``; never an option
#: (patterns, compiled by ``re`` at their first use: only a run given a revision needs them)
_REF = r"[A-Za-z_][A-Za-z0-9._/~^@{}-]{0,199}"
_HEX = r"[0-9a-fA-F]{7,64}"
GIT_SINCE = '"all", an ISO-8601 date such as 2026-09-01, or a commit such as v2.0'


def _is_ref(text: str) -> bool:
    """A tag or branch name (not starting with a digit: a mistyped date stays an error), or a commit id."""
    return bool(re.fullmatch(_REF, text) or re.fullmatch(_HEX, text))


def git_since_value(value: Any) -> Optional[str]:
    """``git_since`` as written (TOML or ``--git-since``): "all", a date, or a commit; ``None`` if it is none."""
    import datetime

    if isinstance(value, (datetime.date, datetime.datetime)):
        value = value.isoformat()
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
        return text
    except ValueError:
        pass
    return text if text == "all" or _is_ref(text) else None  # a commit is resolved when git is read


class GitSince(Value):
    KIND = '`"all"`, an ISO-8601 date or a commit'

    def read(self, check: Checker, key: str, value: Any) -> str:
        found = git_since_value(value)
        if found is None:
            raise check.fail(key, GIT_SINCE, value)
        return found


class Revision(Value):
    KIND = "git revision"

    def read(self, check: Checker, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip() or value.startswith("-"):
            raise check.fail(key, "a git revision such as \"origin/main\"", value)
        return value.strip()


class Names(Value):
    KIND = "list of names or globs"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip().isprintable() and v.strip()
                                                  for v in value):
            raise check.fail(key, "a list of function names or globs such as [\"check_*\", \"verify\"]", value)
        return tuple(v.strip() for v in value)


class RoleList(Value):
    KIND = "list of roles"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or any(role not in ROLES for role in value):
            raise check.fail(key, f"a list of roles from {', '.join(ROLES)}", value)
        return tuple(value)


class Command(Value):
    """A command as a list of words (no shell): the program first; an empty list is no command."""

    KIND = "list of strings (a command)"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        if value == []:
            return ()
        if not isinstance(value, list) or not all(
                isinstance(v, str) and v and v.isprintable() for v in value) or not value[0].strip() \
                or value[0].startswith("-"):
            raise check.fail(key, 'a command as a non-empty list of strings, the program first, such as '
                                  '["claude", "-p", "--output-format", "json"]', value)
        return tuple(value)


class EnvNames(Value):
    """Names of environment variables."""

    KIND = "list of environment variable names"

    def read(self, check: Checker, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(
                isinstance(v, str) and v.isascii() and v.replace("_", "a").isalnum() and not v[:1].isdigit()
                for v in value):
            raise check.fail(key, 'a list of environment variable names such as ["ANTHROPIC_BASE_URL"]', value)
        return tuple(value)
