"""The frozen settings of one run: :class:`Settings` and the settings of each table below ``[tool.ladder]``.

A field's default is written here and only here; what the field means, the values it takes and how it is
read are in the key table (:mod:`.keys`), which reads these defaults for the reference and ``ladder init``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Optional

from ..errors import ConfigError

__all__ = [
    "Mode", "MODES", "COUNT_MODES", "SOURCES", "DEFAULT_SKIP_ROLES", "Thresholds", "RecurrenceSettings",
    "HistorySettings", "FeedbackSettings", "RulesSettings", "HooksSettings", "WorklogSettings", "Settings",
]


class Mode(str, Enum):
    """The gate's mode. A ``str``: a mode compares equal to its name, and JSON writes it as its name."""

    ADVISORY = "advisory"
    RECURRENCE = "recurrence"
    NEW = "new"
    STRICT = "strict"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:  # an f-string shows the name on every Python, not ``Mode.NEW``
        return format(self.value, spec)


MODES = tuple(mode.value for mode in Mode)
COUNT_MODES = ("edits", "runs")
#: Where occurrences come from; "auto" (the default) is "both" inside a git work tree and "log" elsewhere.
SOURCES = ("log", "git", "both")
DEFAULT_SKIP_ROLES = ("generated", "vendor")

Thresholds = Mapping[str, Mapping[str, Optional[float]]]


@dataclass(frozen=True)
class RecurrenceSettings:
    """When a recurring violation becomes a hotspot or a pattern, and what git adds (``[tool.ladder.recurrence]``)."""

    hotspot_min_count: int = 3
    hotspot_min_days: int = 2
    count: str = "edits"
    pattern_min_count: int = 5
    pattern_min_files: int = 3
    source: str = "auto"
    #: None: since the commit that added ``[tool.ladder]`` to pyproject.toml
    git_since: Optional[str] = None
    git_max_commits: int = 200
    shallow: str = "error"
    #: 15 from click, jinja and requests: 21 of their 22 commits of 16-20 files were sweeps
    #: (``docs/explanation/performance.md``, "Recurrence from git on real repositories")
    sweep_files: int = 15
    ignore_revs: tuple[str, ...] = ()


@dataclass(frozen=True)
class HistorySettings:
    """How long and how much history the store keeps (``[tool.ladder.history]``)."""

    retention_days: int = 90
    max_mb: float = 20.0


@dataclass(frozen=True)
class FeedbackSettings:
    """The feedback-ladder tracker's table, ``[tool.ladder.feedback]``."""

    state: str = ".claude/feedback-ladder-state.json"
    #: None: found as Claude Code derives it
    memory_dir: Optional[str] = None
    #: None: never
    grace_days: Optional[int] = None
    store_prompts: bool = False
    #: a captured complaint is reviewed by a detached process (``agents.review``)
    review: bool = True
    #: the reviewer's command; empty: the first host CLI found on PATH (``hosts.HOSTS``' review commands)
    reviewer: tuple[str, ...] = ()
    #: seconds one review may take before it is killed (and the lesson made from the user's words)
    reviewer_timeout: int = 300
    #: environment variables passed to the reviewer besides PATH, HOME, TMPDIR, LANG, LC_ALL, LC_CTYPE and TZ
    reviewer_env: tuple[str, ...] = ()


@dataclass(frozen=True)
class RulesSettings:
    """The managed rules block, ``[tool.ladder.rules]``."""

    files: tuple[str, ...] = (".agent/rules/feedback-loop.md",)
    max_bytes: int = 6144


@dataclass(frozen=True)
class HooksSettings:
    """The agent hooks, ``[tool.ladder.hooks]``."""

    block_on_hotspot: bool = False


@dataclass(frozen=True)
class WorklogSettings:
    """The work-log and knowledge-base lint, ``[tool.ladder.worklog]``."""

    #: empty: none configured (the commands then read ``work-log.md``)
    files: tuple[str, ...] = ()
    #: None: none configured (the commands read ``kb``)
    kb: Optional[str] = None
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
    mode: Mode = Mode.RECURRENCE
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
    #: None: the merge base with the default branch
    base: Optional[str] = None
    assertion_helpers: tuple[str, ...] = ()
    show_yellow: bool = False

    def __post_init__(self) -> None:
        """A mode given as its name (``replace(mode="strict")``, a front end's flag) becomes a :class:`Mode`."""
        mode: object = self.mode
        if not isinstance(mode, Mode):
            if mode not in MODES:
                raise ConfigError(f"mode {mode!r} is not one of {', '.join(MODES)}")
            object.__setattr__(self, "mode", Mode(mode))

    def replace(self, **changes: Any) -> "Settings":
        """A copy with some fields changed (command-line overrides); a mode is checked."""
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


def section_class(name: str) -> type:
    """The settings class of the table ``[tool.ladder.NAME]``: the class :class:`Settings` makes its default from."""
    for each in dataclasses.fields(Settings):
        made: object = each.default_factory
        if each.name == name and isinstance(made, type):
            return made
    raise KeyError(name)
