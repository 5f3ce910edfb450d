"""The key table: every key of ``[tool.ladder]``, written once, and the reading of a table through it.

A key is its name below ``[tool.ladder]`` (``"recurrence.count"``), the kind of value it takes (its type,
range or choices, from :mod:`.values`), and one line saying what it does; its default is the settings
field's (:mod:`.model`). The parser and its errors (unknown keys with a "did you mean"), ``ladder init``'s
starter table and the configuration reference (:mod:`.reference`) are all read from :data:`KEYS`. A new key
is a field of a settings class and a row here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..catalogue import Rule
from .limits import Limits, RoleGlobs
from .model import COUNT_MODES, MODES, SOURCES, Mode, Settings, section_class
from .values import (Checker, Choice, Command, CommitIds, EnvNames, FileList, Flag, GitSince, Names, Number,
                     PathList, PathText, Revision, RoleList, Value, Whole)

__all__ = ["Key", "KEYS", "TOP_KEYS", "SECTIONS", "settings_from_table"]


@dataclass(frozen=True)
class Key:
    """One key of ``[tool.ladder]``."""

    #: as written below ``[tool.ladder]``: ``"mode"``, ``"recurrence.count"``
    name: str
    value: Value
    #: what it does, one line of the reference
    doc: str
    #: the reference's default where the default value alone would not say it (``None``, or a fallback)
    default_doc: str = ""
    #: the settings field it fills, where that is not the name's last part
    field: str = ""
    #: the reference's names, for a table whose keys the user names (``"roles.<role>"``)
    names: tuple[str, ...] = ()
    #: read even when unset (as an empty table): the thresholds fill in the rules' defaults
    read_unset: bool = False
    #: ``ladder init`` writes it
    starter: bool = False

    @property
    def table(self) -> str:
        """The table below ``[tool.ladder]`` that holds it (``"recurrence"``); empty for ``[tool.ladder]`` itself."""
        return self.name.rpartition(".")[0]

    @property
    def last(self) -> str:
        """Its name inside its table."""
        return self.name.rpartition(".")[2]

    @property
    def attribute(self) -> str:
        return self.field or self.last

    @property
    def default(self) -> Any:
        """The settings' value when the key is unset."""
        found = {f.name: f for f in dataclasses.fields(section_class(self.table) if self.table else Settings)}
        field = found[self.attribute]
        if field.default is not dataclasses.MISSING:
            return field.default
        make: Any = field.default_factory  # every field of the settings has a default or a factory
        return make()


_RELATIVE_DIR = "a directory path relative to the project root"
_MODE_DOCS = (
    ("advisory", "never fails: reports and records only"),
    ("recurrence", "fails on a unit that keeps breaking a limit (a recurring hotspot)"),
    ("new", "also fails on what a branch adds or makes worse than its base"),
    ("strict", "fails on every red violation"),
)

KEYS: tuple[Key, ...] = (
    Key("paths", PathList(globs=False), "what is analysed when no path is given",
        default_doc="`[]` (then `src`, `tests`, `test`, or `.`)", starter=True),
    Key("exclude", PathList(globs=True),
        "files and directories never analysed, on top of `.git`, `.tox`, `.venv`, `venv`, `__pycache__`, "
        "`*.egg-info`, `node_modules`, `.ladder` and the like"),
    Key("mode", Choice(MODES, Mode, _MODE_DOCS), "what fails the run", starter=True),
    Key("base", Revision(), "the base of mode `new`", default_doc="merge base with the default branch"),
    Key("assertion_helpers", Names(),
        "the project's own assertion helpers (`[\"check_*\", \"verify\"]`): a call of one counts as an assertion "
        "for `min_assertions`"),
    Key("history_dir", PathText(f"{_RELATIVE_DIR} (no control characters)"), "where the history lives"),
    Key("yellow_ratio", Number(0.0, 1.0), "start of the yellow band, as a fraction of the limit"),
    Key("skip_roles", RoleList(), "roles not analysed"),
    Key("show_yellow", Flag(),
        "`ladder check` text lists yellow findings too (as `--show-yellow`); they are counted and recorded either way"),
    Key("thresholds", Limits(), "the limits: the app role's at the table's top, another role's in its sub-table",
        default_doc="the rule's default for the role (see \"Default limits per role\")",
        names=("thresholds.<key>", "thresholds.<role>.<key>"), read_unset=True),
    Key("roles", RoleGlobs(), "files of that role", field="role_globs", names=("roles.<role>",)),

    Key("recurrence.hotspot_min_count", Whole(1, 10_000), "the occurrences that make a violation a hotspot, at least"),
    Key("recurrence.hotspot_min_days", Whole(1, 3650), "the distinct UTC days they must fall on, at least"),
    Key("recurrence.count", Choice(COUNT_MODES),
        "what one occurrence is: an edit that is not an improvement, or a run that found it"),
    Key("recurrence.pattern_min_count", Whole(1, 1_000_000),
        "the occurrences of one rule that make a pattern, at least"),
    Key("recurrence.pattern_min_files", Whole(1, 1_000_000), "the files of one role or area they must span, at least"),
    Key("recurrence.source", Choice(SOURCES), "where occurrences come from (see \"Recurrence from git\")",
        default_doc="`\"both\"` in a git work tree, else `\"log\"`"),
    Key("recurrence.git_since", GitSince(),
        "the adoption point: hotspots fail only on occurrences from it on (older ones are listed as known); "
        "`ladder check --git-since` overrides it", default_doc="the commit that added `[tool.ladder]`"),
    Key("recurrence.git_max_commits", Whole(1, 1_000_000), "versions per file read from git (a cap reached is said)"),
    Key("recurrence.shallow", Choice(("error", "warn")),
        "a shallow clone in CI: exit 2 with the fix, or a warning and no git history"),
    Key("recurrence.sweep_files", Whole(0, 1_000_000),
        "a commit changing more Python files is a mechanical sweep, no occurrence (0: none is)"),
    Key("recurrence.ignore_revs", CommitIds(), "mechanical commits, besides the repository's ignore-revs file"),

    Key("history.retention_days", Whole(1, 36500), "days the log's events count; older ones are folded"),
    Key("history.max_mb", Number(0.01, 100_000), "the log's size cap; past it its oldest days are folded"),

    Key("feedback.state", PathText("a file path relative to the project root"), "the feedback tracker's state file"),
    Key("feedback.memory_dir",
        PathText("a directory path (absolute, ~ or relative to the project root)",
                 "path (absolute, `~` or relative)", inside=False),
        "the Claude Code memory directory the tracker reads", default_doc="found as Claude Code names it"),
    Key("feedback.grace_days", Whole(0, 36500),
        "days an item may need promotion before `ladder feedback check` fails", default_doc="unset (off)"),
    Key("feedback.store_prompts", Flag(),
        "a prompt capture keeps its keywords and the prompt's text (by default only reason codes, opaque keys of "
        "its keywords and a hash)"),
    Key("feedback.review", Flag(),
        "a captured complaint is reviewed by a detached process that publishes a lesson to `.agent/reflections/`"),
    Key("feedback.reviewer", Command(),
        "the reviewer's command, given the review request on stdin; it answers with the JSON verdict on stdout",
        default_doc="unset (the first host CLI found on PATH: `claude -p`, `codex exec`, `gemini -p`)"),
    Key("feedback.reviewer_timeout", Whole(1, 3600),
        "seconds one review may take; past them it is killed and the lesson is made from the user's words"),
    Key("feedback.reviewer_env", EnvNames(),
        "environment variables the reviewer gets besides PATH, HOME, TMPDIR, LANG, LC_ALL, LC_CTYPE, TZ and "
        "`LADDER_REVIEW_*`"),

    Key("rules.files", FileList(), "the files that hold the managed rules block"),
    Key("rules.max_bytes", Whole(512, 1_000_000), "the block's size cap in UTF-8 bytes, markers included"),

    Key("hooks.block_on_hotspot", Flag(),
        "the edit hook blocks (the host's block form) when an edit leaves a recurring hotspot unfixed"),

    Key("worklog.files", FileList(),
        "the work logs: `pytest --ladder` items, and what every `ladder worklog` command reads when given none",
        default_doc="unset (`ladder worklog` then reads `work-log.md`)"),
    Key("worklog.kb", PathText(f"{_RELATIVE_DIR}, such as \"kb\""),
        "the knowledge base: a `pytest --ladder` item, and what every `ladder kb` command reads when given none",
        default_doc="unset (`ladder kb` then reads `kb`)"),
    Key("worklog.allow_gaps", Flag(),
        "report numbers may skip (as `--allow-gaps`); they must still decrease downwards"),
)

#: the keys of ``[tool.ladder]`` itself, tables included, in the table's order
TOP_KEYS = tuple(dict.fromkeys(key.name.partition(".")[0] for key in KEYS))
#: the tables below ``[tool.ladder]`` that hold settings of their own
SECTIONS = tuple(dict.fromkeys(key.table for key in KEYS if key.table))


def _read(check: Checker, table: Mapping[str, Any], keys: list[Key]) -> dict[str, Any]:
    """The settings' values of the keys set in ``table``; an unset key keeps its field's default."""
    found: dict[str, Any] = {}
    for key in keys:
        value = table.get(key.last)
        # TOML has no null: only a table given from Python holds None, which leaves a key whose default is None unset
        if key.last in table and not (value is None and key.default is None):
            found[key.attribute] = key.value.read(check, key.last, value)
        elif key.read_unset:
            found[key.attribute] = key.value.read(check, key.last, {})
    return found


def settings_from_table(
    ladder: Mapping[str, Any], root: Path, file: Path, rules: Mapping[str, Rule]
) -> Settings:
    """Validate a ``[tool.ladder]`` table into :class:`Settings`."""
    check = Checker(file, "tool.ladder", rules)
    check.unknown(ladder, TOP_KEYS)
    values = _read(check, ladder, [key for key in KEYS if not key.table])
    for name in SECTIONS:
        table = ladder.get(name, {})
        if not isinstance(table, dict):
            raise check.fail(name, "a table", table)
        inner = check.within(f"tool.ladder.{name}")
        keys = [key for key in KEYS if key.table == name]
        inner.unknown(table, [key.last for key in keys])
        values[name] = section_class(name)(**_read(inner, table, keys))
    return Settings(root=root, config_file=file, **values)
