"""``[tool.ladder]`` in pyproject.toml: project root discovery, validation, settings.

One source of configuration for every front end. Settings are frozen; front ends
apply their command-line overrides with :meth:`Settings.replace`. Every error names
the file, the key and what is expected, so the user can fix it without reading code.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Union

from .catalogue import ROLES, Rule
from .errors import ConfigError

__all__ = [
    "MODES",
    "COUNT_MODES",
    "SOURCES",
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
]

MODES = ("advisory", "recurrence", "new", "strict")
COUNT_MODES = ("edits", "runs")
#: Where occurrences come from; "auto" (the default) is "both" inside a git work tree and "log" elsewhere.
SOURCES = ("log", "git", "both")
DEFAULT_SKIP_ROLES = ("generated", "vendor")
#: what marks a project that has neither a pyproject.toml nor .git: flake8's, tox's or pytest's configuration
_TOOL_FILES = ("setup.cfg", "tox.ini", ".flake8", "pytest.ini")

Thresholds = Mapping[str, Mapping[str, Optional[float]]]


def _close(word: str, known: Iterable[str]) -> list[str]:
    """The nearest known name, for a "did you mean" (difflib is imported only when a name is wrong)."""
    import difflib

    return difflib.get_close_matches(word, list(known), n=1)


@dataclass(frozen=True)
class RecurrenceSettings:
    """When a recurring violation becomes a hotspot or a pattern (DESIGN §7)."""

    hotspot_min_count: int = 3
    hotspot_min_days: int = 2
    count: str = "edits"
    pattern_min_count: int = 5
    pattern_min_files: int = 3
    source: str = "auto"
    #: from when git's occurrences fail the run: None, since the commit that added ``[tool.ladder]`` to
    #: pyproject.toml; "all"; an ISO-8601 date; or a commit (a tag, a branch, an id)
    git_since: Optional[str] = None
    git_max_commits: int = 200
    #: a shallow clone in CI: "error" (exit 2 with the fix) or "warn" (go on without git's history)
    shallow: str = "error"
    #: a commit changing more Python files than this is a mechanical sweep, not an occurrence (0: none is); 15
    #: from click, jinja and requests: 21 of their 22 commits of 16-20 files were sweeps (README, Benchmarks)
    sweep_files: int = 15
    #: commits that are mechanical edits, besides the repository's ignore-revs file
    ignore_revs: tuple[str, ...] = ()


@dataclass(frozen=True)
class HistorySettings:
    """How long and how much history the store keeps (DESIGN §6)."""

    retention_days: int = 90
    max_mb: float = 20.0


@dataclass(frozen=True)
class FeedbackSettings:
    """The feedback-ladder tracker's table, ``[tool.ladder.feedback]`` (DESIGN §11)."""

    #: the state file, relative to the root (the seed's place by default)
    state: str = ".claude/feedback-ladder-state.json"
    #: the Claude Code memory directory to read (``~`` expanded); None: found as Claude Code derives it
    memory_dir: Optional[str] = None
    #: how many days an item may need promotion before ``ladder feedback check`` fails; None: never
    grace_days: Optional[int] = None
    #: whether a prompt capture keeps the prompt's text (by default: reason codes, keywords and a hash only)
    store_prompts: bool = False


@dataclass(frozen=True)
class RulesSettings:
    """The managed rules block, ``[tool.ladder.rules]`` (DESIGN §12)."""

    #: the files that hold the block, relative to the root
    files: tuple[str, ...] = (".agent/rules/feedback-loop.md",)
    #: the block's size cap in UTF-8 bytes, markers included
    max_bytes: int = 6144


@dataclass(frozen=True)
class HooksSettings:
    """The agent hooks, ``[tool.ladder.hooks]``."""

    #: whether the edit hook blocks (the host's block form) when an edit leaves a recurring hotspot unfixed
    block_on_hotspot: bool = False


@dataclass(frozen=True)
class WorklogSettings:
    """The work-log and knowledge-base lint, ``[tool.ladder.worklog]`` (DESIGN §13)."""

    #: the work logs, relative to the root; empty: none configured (the commands then read ``work-log.md``)
    files: tuple[str, ...] = ()
    #: the knowledge base directory, relative to the root; None: none configured (the commands read ``kb``)
    kb: Optional[str] = None
    #: whether report numbers may skip (a compacted log); they must still decrease downwards
    allow_gaps: bool = False

    @property
    def logs(self) -> tuple[str, ...]:
        """The work logs the commands read when given none."""
        return self.files or ("work-log.md",)

    @property
    def kb_dir(self) -> str:
        return self.kb or "kb"


@dataclass(frozen=True)
class Settings:
    """The effective configuration of one run, shared by all front ends."""

    root: Path
    config_file: Optional[Path] = None
    project_name: Optional[str] = None
    #: False when no project was found from where the run started (see :func:`find_root`): ``root`` is then
    #: only that directory, and no front end writes anything there (no history, no analysis cache)
    in_project: bool = True
    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    mode: str = "recurrence"
    history_dir: str = ".ladder"
    yellow_ratio: float = 0.8
    skip_roles: tuple[str, ...] = DEFAULT_SKIP_ROLES
    role_globs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    thresholds: Thresholds = field(default_factory=lambda: MappingProxyType({}))
    recurrence: RecurrenceSettings = field(default_factory=RecurrenceSettings)
    history: HistorySettings = field(default_factory=HistorySettings)
    feedback: FeedbackSettings = field(default_factory=FeedbackSettings)
    rules: RulesSettings = field(default_factory=RulesSettings)
    hooks: HooksSettings = field(default_factory=HooksSettings)
    worklog: WorklogSettings = field(default_factory=WorklogSettings)
    #: the base of ``mode = "new"``: a git revision; None for the merge base with the default branch
    base: Optional[str] = None
    #: names (or globs) of the project's own assertion helpers, counted by ``min_assertions``
    assertion_helpers: tuple[str, ...] = ()
    #: whether ``ladder check`` text lists yellow (advisory) findings; they are counted either way
    show_yellow: bool = False

    def replace(self, **changes: Any) -> "Settings":
        """A copy with some fields changed (command-line overrides); validates mode."""
        if "mode" in changes and changes["mode"] not in MODES:
            raise ConfigError(
                f"mode {changes['mode']!r} is not one of {', '.join(MODES)}"
            )
        return dataclasses.replace(self, **changes)

    def limit(self, role: str, key: str) -> Optional[float]:
        """The limit of rule ``key`` for ``role``; ``None`` when the rule is off."""
        return self.thresholds.get(role, {}).get(key)

    @property
    def repo_id(self) -> str:
        """Names the project in events: ``[project] name``, else the root directory's name."""
        return self.project_name or self.root.name

    @property
    def history_path(self) -> Path:
        """Absolute directory of the history (``<root>/<history_dir>``)."""
        return self.root / self.history_dir

    def digest(self) -> str:
        """A stable hash of everything that changes analysis results (for caches)."""
        payload = {
            "exclude": self.exclude,
            "yellow_ratio": self.yellow_ratio,
            "skip_roles": self.skip_roles,
            "role_globs": self.role_globs,
            "assertion_helpers": self.assertion_helpers,
            "thresholds": {r: dict(v) for r, v in sorted(self.thresholds.items())},
        }
        import hashlib

        text = json.dumps(payload, sort_keys=True, default=list)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


# ---------------------------------------------------------------------------
# reading pyproject.toml


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
    """The project root and the pyproject.toml that configures it (DESIGN §5).

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


# ---------------------------------------------------------------------------
# validation


class _Checker:
    """Validates one table, collecting nothing: the first problem is raised."""

    def __init__(self, file: Path, table_name: str) -> None:
        self.file = file
        self.table_name = table_name

    def where(self, key: str) -> str:
        return f"{self.file}: [{self.table_name}] {_key(key)}"

    def fail(self, key: str, expected: str, value: Any) -> ConfigError:
        return ConfigError(f"{self.where(key)} = {_show(value)}: expected {expected}")

    def unknown(self, table: Mapping[str, Any], known: Iterable[str]) -> None:
        known = list(known)
        for key in table:
            if key not in known:
                hint = _close(key, known)
                suggestion = f"; did you mean {hint[0]!r}?" if hint else f"; known keys: {', '.join(known)}"
                raise ConfigError(f"{self.where(key)}: unknown key{suggestion}")

    def integer(self, table: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(key, f"a whole number from {low} to {high}", value)
        return value

    def number(self, table: Mapping[str, Any], key: str, default: float, low: float, high: float) -> float:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise self.fail(key, f"a number from {low} to {high}", value)
        return float(value)

    def flag(self, table: Mapping[str, Any], key: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, "true or false", value)
        return value

    def choice(self, table: Mapping[str, Any], key: str, default: str, choices: Iterable[str]) -> str:
        choices = tuple(choices)
        value = table.get(key, default)
        if not isinstance(value, str) or value not in choices:
            hint = _close(str(value), choices) if isinstance(value, str) else []
            extra = f" (did you mean {hint[0]!r}?)" if hint else ""
            raise self.fail(key, f"one of {', '.join(map(repr, choices))}{extra}", value)
        return value

    def paths(self, table: Mapping[str, Any], key: str, *, globs: bool) -> tuple[str, ...]:
        value = table.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(key, "a list of non-empty strings (paths relative to the project root)", value)
        for item in value:
            self.relative(key, item, glob=globs)
        return tuple(item.replace("\\", "/") for item in value)

    def relative(self, key: str, item: str, *, glob: bool = False) -> str:
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


def _key(key: str) -> str:
    """A key as written in TOML, quoted when it is not a bare key: a newline or an escape code in a
    key would otherwise split the message or reach the terminal."""
    if key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key):
        return key
    return json.dumps(key)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


_TOP_KEYS = (
    "paths", "exclude", "mode", "base", "assertion_helpers", "history_dir", "yellow_ratio", "skip_roles",
    "show_yellow", "thresholds", "roles", "recurrence", "history", "feedback", "rules", "hooks",
    "worklog",
)
_MAX_LIMIT = 1_000_000


def _role_tables(file: Path, table: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(role, table name, values): the flat keys are app's, sub-tables are per role."""
    found: list[tuple[str, str, Mapping[str, Any]]] = [
        ("app", "tool.ladder.thresholds", {k: v for k, v in table.items() if not isinstance(v, dict)})]
    for role, values in table.items():
        if not isinstance(values, dict):
            continue
        if role not in ROLES:
            hint = _close(role, ROLES)
            extra = f"; did you mean {hint[0]!r}?" if hint else f"; roles are {', '.join(ROLES)}"
            raise ConfigError(f"{file}: [tool.ladder.thresholds] {role}: unknown role{extra}")
        found.append((role, f"tool.ladder.thresholds.{role}", values))
    return found


def _thresholds(file: Path, table: Any, rules: Mapping[str, Rule]) -> Thresholds:
    """Per-role limits: built-in defaults, ``[thresholds]`` for app, sub-tables per role."""
    if not isinstance(table, dict):
        raise _Checker(file, "tool.ladder").fail("thresholds", "a table", table)
    limited = {k: r for k, r in rules.items() if r.kind in ("max", "min")}
    resolved = {role: _defaults(limited, role) for role in ROLES}
    for role, name, values in _role_tables(file, table):
        resolved[role].update(_limits_of(_Checker(file, name), values, limited))
    return _frozen(resolved)


def _frozen(resolved: Mapping[str, Mapping[str, Optional[float]]]) -> Thresholds:
    return MappingProxyType({role: MappingProxyType(dict(limits)) for role, limits in resolved.items()})


def _defaults(rules: Mapping[str, Rule], role: str) -> dict[str, Optional[float]]:
    return {key: rule.defaults.get(role) for key, rule in rules.items()}


def _limits_of(check: _Checker, values: Mapping[str, Any], known: Mapping[str, Rule]) -> dict[str, Optional[float]]:
    check.unknown(values, known)
    return {key: _limit_value(check, key, value) for key, value in values.items()}


def _limit_value(check: _Checker, key: str, value: Any) -> Optional[float]:
    if value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= _MAX_LIMIT:
        raise check.fail(key, f"a number from 0 to {_MAX_LIMIT}, or false to turn the rule off", value)
    return float(value)


def _role_globs(file: Path, table: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    check = _Checker(file, "tool.ladder.roles")
    if not isinstance(table, dict):
        raise check.fail("", "a table of role = [globs]", table)
    check.unknown(table, ROLES)
    return tuple((role, check.paths(table, role, globs=True)) for role in table)


def _sub_table(file: Path, ladder: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = ladder.get(name, {})
    if not isinstance(value, dict):
        raise _Checker(file, "tool.ladder").fail(name, "a table", value)
    return value


def _recurrence(file: Path, ladder: Mapping[str, Any]) -> RecurrenceSettings:
    table = _sub_table(file, ladder, "recurrence")
    check = _Checker(file, "tool.ladder.recurrence")
    check.unknown(table, [f.name for f in dataclasses.fields(RecurrenceSettings)])
    return RecurrenceSettings(
        hotspot_min_count=check.integer(table, "hotspot_min_count", 3, 1, 10_000),
        hotspot_min_days=check.integer(table, "hotspot_min_days", 2, 1, 3650),
        count=check.choice(table, "count", "edits", COUNT_MODES),
        pattern_min_count=check.integer(table, "pattern_min_count", 5, 1, 1_000_000),
        pattern_min_files=check.integer(table, "pattern_min_files", 3, 1, 1_000_000),
        source=check.choice(table, "source", "auto", SOURCES) if "source" in table else "auto",
        git_since=_git_since(check, table),
        git_max_commits=check.integer(table, "git_max_commits", 200, 1, 1_000_000),
        shallow=check.choice(table, "shallow", "error", ("error", "warn")),
        sweep_files=check.integer(table, "sweep_files", RecurrenceSettings.sweep_files, 0, 1_000_000),
        ignore_revs=_revs(check, table),
    )


def _revs(check: _Checker, table: Mapping[str, Any]) -> tuple[str, ...]:
    value = table.get("ignore_revs", [])
    if not isinstance(value, list) or not all(
            isinstance(v, str) and 7 <= len(v.strip()) <= 64 and all(c in "0123456789abcdefABCDEF" for c in v.strip())
            for v in value):
        raise check.fail("ignore_revs", 'a list of commit ids (7 to 64 hexadecimal digits) such as ["3f2a9c1"]', value)
    return tuple(v.strip().lower() for v in value)


#: a git revision as a user writes one in git_since: a tag, a branch, ``HEAD~3``; never an option
#: (patterns, compiled by ``re`` at their first use: only a run given a revision needs them)
_REF = r"[A-Za-z_][A-Za-z0-9._/~^@{}-]{0,199}"
_HEX = r"[0-9a-fA-F]{7,64}"


def _is_ref(text: str) -> bool:
    """A tag or branch name (not starting with a digit: a mistyped date stays an error), or a commit id."""
    return bool(re.fullmatch(_REF, text) or re.fullmatch(_HEX, text))


_GIT_SINCE = '"all", an ISO-8601 date such as 2026-09-01, or a commit such as v2.0'


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


def _git_since(check: _Checker, table: Mapping[str, Any]) -> Optional[str]:
    value = table.get("git_since")
    if value is None:
        return None
    found = git_since_value(value)
    if found is None:
        raise check.fail("git_since", _GIT_SINCE, value)
    return found


def with_recurrence(settings: "Settings", *, source: Optional[str] = None,
                    git_since: Optional[str] = None) -> "Settings":
    """``settings`` with the command line's ``--source`` and ``--git-since`` applied (checked as the table's)."""
    changes: dict[str, Any] = {}
    if source is not None:
        if source not in SOURCES:
            raise ConfigError(f"--source {source!r}: expected one of {', '.join(SOURCES)}")
        changes["source"] = source
    if git_since is not None:
        found = git_since_value(git_since)
        if found is None:
            raise ConfigError(f"--git-since {_show(git_since)}: expected {_GIT_SINCE}")
        changes["git_since"] = found
    return settings.replace(recurrence=dataclasses.replace(settings.recurrence, **changes)) if changes else settings


def _names(check: _Checker, ladder: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = ladder.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip().isprintable() and v.strip()
                                              for v in value):
        raise check.fail(key, "a list of function names or globs such as [\"check_*\", \"verify\"]", value)
    return tuple(v.strip() for v in value)


def _base(check: _Checker, ladder: Mapping[str, Any]) -> Optional[str]:
    value = ladder.get("base")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or value.startswith("-"):
        raise check.fail("base", "a git revision such as \"origin/main\"", value)
    return value.strip()


def _history(file: Path, ladder: Mapping[str, Any]) -> HistorySettings:
    table = _sub_table(file, ladder, "history")
    check = _Checker(file, "tool.ladder.history")
    check.unknown(table, [f.name for f in dataclasses.fields(HistorySettings)])
    return HistorySettings(
        retention_days=check.integer(table, "retention_days", 90, 1, 36500),
        max_mb=check.number(table, "max_mb", 20.0, 0.01, 100_000),
    )


def _feedback(file: Path, ladder: Mapping[str, Any]) -> FeedbackSettings:
    table = _sub_table(file, ladder, "feedback")
    check = _Checker(file, "tool.ladder.feedback")
    check.unknown(table, [f.name for f in dataclasses.fields(FeedbackSettings)])
    state = _path_text(check, table, "state", "a file path relative to the project root")
    memory = _path_text(check, table, "memory_dir", "a directory path (absolute, ~ or relative to the project root)")
    grace = check.integer(table, "grace_days", -1, 0, 36500) if "grace_days" in table else None
    return FeedbackSettings(check.relative("state", state or FeedbackSettings.state), memory, grace,
                            check.flag(table, "store_prompts", False))


def _rules(file: Path, ladder: Mapping[str, Any]) -> RulesSettings:
    table = _sub_table(file, ladder, "rules")
    check = _Checker(file, "tool.ladder.rules")
    check.unknown(table, [f.name for f in dataclasses.fields(RulesSettings)])
    files = _file_list(check, table.get("files", list(RulesSettings.files)))
    return RulesSettings(files, check.integer(table, "max_bytes", RulesSettings.max_bytes, 512, 1_000_000))


def _file_list(check: _Checker, files: Any) -> tuple[str, ...]:
    if not isinstance(files, list) or not files or not all(isinstance(f, str) and f.strip() for f in files):
        raise check.fail("files", "a non-empty list of file paths relative to the project root", files)
    return tuple(check.relative("files", f) for f in files)


def _hooks(file: Path, ladder: Mapping[str, Any]) -> HooksSettings:
    table = _sub_table(file, ladder, "hooks")
    check = _Checker(file, "tool.ladder.hooks")
    check.unknown(table, [f.name for f in dataclasses.fields(HooksSettings)])
    return HooksSettings(check.flag(table, "block_on_hotspot", False))


def _worklog(file: Path, ladder: Mapping[str, Any]) -> WorklogSettings:
    table = _sub_table(file, ladder, "worklog")
    check = _Checker(file, "tool.ladder.worklog")
    check.unknown(table, [f.name for f in dataclasses.fields(WorklogSettings)])
    files = _file_list(check, table["files"]) if "files" in table else ()
    kb = _path_text(check, table, "kb", "a directory path relative to the project root, such as \"kb\"")
    return WorklogSettings(files, check.relative("kb", kb) if kb is not None else None,
                           check.flag(table, "allow_gaps", False))


def _path_text(check: _Checker, table: Mapping[str, Any], key: str, expected: str) -> Optional[str]:
    """A path given as text (``None`` when the key is absent): printable, not blank."""
    value = table.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip() or not value.isprintable()):
        raise check.fail(key, expected, value)
    return value


def _history_dir(check: _Checker, ladder: Mapping[str, Any]) -> str:
    value = ladder.get("history_dir", ".ladder")
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise check.fail("history_dir", "a directory path relative to the project root (no control characters)",
                         value)
    return check.relative("history_dir", value)


def _skip_roles(check: _Checker, ladder: Mapping[str, Any]) -> tuple[str, ...]:
    value = ladder.get("skip_roles", list(DEFAULT_SKIP_ROLES))
    if not isinstance(value, list) or any(role not in ROLES for role in value):
        raise check.fail("skip_roles", f"a list of roles from {', '.join(ROLES)}", value)
    return tuple(value)


def settings_from_table(
    ladder: Mapping[str, Any], root: Path, file: Path, rules: Mapping[str, Rule]
) -> Settings:
    """Validate a ``[tool.ladder]`` table into :class:`Settings`."""
    check = _Checker(file, "tool.ladder")
    check.unknown(ladder, _TOP_KEYS)
    return Settings(
        root=root,
        config_file=file,
        paths=check.paths(ladder, "paths", globs=False),
        exclude=check.paths(ladder, "exclude", globs=True),
        history_dir=_history_dir(check, ladder),
        yellow_ratio=check.number(ladder, "yellow_ratio", 0.8, 0.0, 1.0),
        show_yellow=check.flag(ladder, "show_yellow", False),
        skip_roles=_skip_roles(check, ladder),
        role_globs=_role_globs(file, ladder.get("roles", {})),
        thresholds=_thresholds(file, ladder.get("thresholds", {}), rules),
        **_gate_keys(check, ladder),
        **_sub_tables(file, ladder),
    )


def _sub_tables(file: Path, ladder: Mapping[str, Any]) -> dict[str, Any]:
    """The tables below ``[tool.ladder]`` that hold settings of their own."""
    return {"recurrence": _recurrence(file, ladder), "history": _history(file, ladder),
            "feedback": _feedback(file, ladder), "rules": _rules(file, ladder), "hooks": _hooks(file, ladder),
            "worklog": _worklog(file, ladder)}


def _gate_keys(check: _Checker, ladder: Mapping[str, Any]) -> dict[str, Any]:
    """The keys the gate and the metrics read besides thresholds: mode, base, assertion helpers."""
    return {"mode": check.choice(ladder, "mode", "recurrence", MODES), "base": _base(check, ladder),
            "assertion_helpers": _names(check, ladder, "assertion_helpers")}


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
        from .plugins import known_rules

        rules = {rule.key: rule for rule in known_rules()}
    root, file, found = _locate(start)
    pyproject = read_pyproject(file) if file is not None and file.is_file() else {}  # read once for both
    if table is None:
        table = (_ladder_table(file, pyproject) if file else None) or {}
    settings = settings_from_table(table, root, file or root / "pyproject.toml", rules)
    return dataclasses.replace(settings, project_name=_project_name(pyproject), in_project=found)
