"""The configuration reference: every key ``[tool.ladder]`` accepts, its default and what it does.

The keys and their defaults come from the code: the fields of :class:`ladder_plugins.config.Settings` and of
its sub-tables' settings classes, held against the validator's list of top-level keys, and every rule of the
catalogue with its per-role default limits. What a key means is text (below, moved from the README's
Configuration section), because the code cannot say it; a key the text does not cover is a build warning.
Where the package has one declarative table of keys (``ladder_plugins.settings.keys.KEYS``) with its renderer
(``ladder_plugins.settings.reference.reference_markdown``), the page is that instead, and the text below is
not used.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple, Optional

from . import log, table

#: fields of Settings that are not keys of the table (found, not configured) or are tables of their own
_NOT_KEYS = {"root", "config_file", "project_name", "in_project", "role_globs", "thresholds"}
_TABLES = ("recurrence", "history", "feedback", "rules", "hooks", "worklog")


class Key(NamedTuple):
    name: str        # dotted, below [tool.ladder]: ``recurrence.git_since``
    kind: str        # the TOML type and range
    default: str     # as written in TOML, or said in words
    meaning: str


#: key -> (type, meaning, default in words where the code's default is not what a user writes)
MEANINGS: dict[str, tuple[str, str, Optional[str]]] = {
    "paths": ("list of paths", "what is analysed when no path is given", "`[]` (then `src`, `tests`, `test`, or `.`)"),
    "exclude": ("list of globs", "files and directories never analysed, on top of `.git`, `.tox`, `.venv`, `venv`, "
                "`__pycache__`, `*.egg-info`, `node_modules`, `.ladder` and the like", None),
    "mode": ("string", "`advisory` never fails; `recurrence` fails on recurring hotspots; `new` also on red "
             "violations the base did not have or had better; `strict` fails on every red violation", None),
    "base": ("git revision", "the base of mode `new`", "merge base with the default branch"),
    "assertion_helpers": ("list of names or globs", "the project's own assertion helpers (`[\"check_*\", "
                          "\"verify\"]`): a call of one counts as an assertion for `min_assertions`", None),
    "history_dir": ("path", "where the history lives", None),
    "yellow_ratio": ("number 0-1", "start of the yellow band", None),
    "show_yellow": ("boolean", "`ladder check` text lists yellow findings too (as `--show-yellow`); they are "
                    "counted and recorded either way", None),
    "skip_roles": ("list of roles", "roles not analysed", None),
    "recurrence.hotspot_min_count": ("1 to 10,000", "occurrences a fingerprint needs to be a recurring hotspot",
                                     None),
    "recurrence.hotspot_min_days": ("1 to 3,650", "distinct UTC days those occurrences must fall on", None),
    "recurrence.count": ("`\"edits\"`, `\"runs\"`", "what an occurrence is: a new version of the code that is "
                         "not an improvement (`edits`), or every run in which the fingerprint is red (`runs`, "
                         "read from the log alone)", None),
    "recurrence.pattern_min_count": ("1 to 1,000,000", "occurrences of one rule a pattern needs", None),
    "recurrence.pattern_min_files": ("1 to 1,000,000", "files of one area or role those occurrences must span",
                                     None),
    "recurrence.source": ("`\"log\"`, `\"git\"`, `\"both\"`", "where occurrences come from (see "
                          "[Recurrence](../explanation/recurrence.md#recurrence-from-git))",
                          "`\"both\"` in a git work tree, else `\"log\"`"),
    "recurrence.git_since": ("`\"all\"`, an ISO-8601 date or a commit", "the adoption point: hotspots fail only "
                             "on occurrences from it on (older ones are listed as known); `ladder check "
                             "--git-since` overrides it", "the commit that added `[tool.ladder]`"),
    "recurrence.git_max_commits": ("1 to 1,000,000", "versions per file read from git (a cap reached is said)",
                                   None),
    "recurrence.shallow": ("`\"error\"`, `\"warn\"`", "a shallow clone in CI: exit 2 with the fix, or a warning "
                           "and no git history", None),
    "recurrence.sweep_files": ("0 to 1,000,000", "a commit changing more Python files is a mechanical sweep, no "
                               "occurrence (0: none is)", None),
    "recurrence.ignore_revs": ("list of commit ids (7 to 64 hex digits)", "mechanical commits, besides the "
                               "repository's ignore-revs file", None),
    "history.retention_days": ("1 to 36,500", "how long the log's events count; older ones are folded", None),
    "history.max_mb": ("0.01 to 100,000", "the log's size cap in MB; past it its oldest days are folded", None),
    "feedback.state": ("path", "the feedback tracker's state file", None),
    "feedback.memory_dir": ("path (absolute, `~` or relative)", "the Claude Code memory directory the tracker "
                            "reads", "found as Claude Code names it"),
    "feedback.grace_days": ("0 to 36,500", "days an item may need promotion before `ladder feedback check` fails",
                            "unset (off)"),
    "feedback.store_prompts": ("boolean", "a prompt capture keeps the prompt's text too (by default only reason "
                               "codes, keywords and a hash)", None),
    "rules.files": ("list of paths", "the files that hold the managed rules block", None),
    "rules.max_bytes": ("512 to 1,000,000", "the block's size cap in UTF-8 bytes, markers included", None),
    "hooks.block_on_hotspot": ("boolean", "the edit hook blocks (the host's block form) when an edit leaves a "
                               "recurring hotspot unfixed", None),
    "worklog.files": ("list of paths", "the work logs: `pytest --ladder` items, and what every `ladder worklog` "
                      "command reads when given none", "unset (`ladder worklog` then reads `work-log.md`)"),
    "worklog.kb": ("path", "the knowledge base: a `pytest --ladder` item, and what every `ladder kb` command reads "
                   "when given none", "unset (`ladder kb` then reads `kb`)"),
    "worklog.allow_gaps": ("boolean", "report numbers may skip (as `--allow-gaps`); they must still decrease "
                           "downwards", None),
}


def _toml(value: Any) -> str:
    """A default as written in TOML."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, tuple):
        return "`[" + ", ".join(f'"{v}"' for v in value) + "]`"
    return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"


def _default(field: dataclasses.Field) -> Any:  # type: ignore[type-arg]
    if field.default is not dataclasses.MISSING:
        return field.default
    return field.default_factory()  # type: ignore[misc]


def _names() -> tuple[list[str], dict[str, Any]]:
    """The keys' dotted names, and each one's default from the settings classes."""
    from ladder_plugins import config

    settings = {f.name: f for f in dataclasses.fields(config.Settings)}
    names = [name for name in settings if name not in _NOT_KEYS and name not in _TABLES]
    defaults = {name: _default(settings[name]) for name in names}
    for table_name in _TABLES:
        owner = _default(settings[table_name])
        for field in dataclasses.fields(type(owner)):
            names.append(f"{table_name}.{field.name}")
            defaults[names[-1]] = getattr(owner, field.name)
    _against_validator(config, {name.split(".")[0] for name in names} | {"thresholds", "roles"})
    return names, defaults


def _against_validator(config: Any, tops: set[str]) -> None:
    """The top-level keys found must be those the validator accepts (its own list, while config.py has one)."""
    validated = getattr(config, "_TOP_KEYS", None)
    if validated is not None and set(validated) != tops:
        log.warning("the configuration reference and the validator's keys differ: %s", sorted(set(validated) ^ tops))


def keys() -> list[Key]:
    """Every key of ``[tool.ladder]`` but the per-rule limits, found from the settings classes."""
    names, defaults = _names()
    result = []
    for name in names:
        kind, meaning, said = MEANINGS.get(name, ("", "", None))
        if not meaning:
            log.warning("configuration key %r has no meaning in docs/_hooks/ladder_docs/configuration.py", name)
        result.append(Key(name, kind, said or _toml(defaults[name]), meaning))
    for stale in sorted(set(MEANINGS) - set(names)):
        log.warning("configuration key %r is described but the settings have no such key", stale)
    return result


def declared() -> Optional[tuple[list[str], str]]:
    """The names of the package's own key table and its reference in Markdown, where the package has them."""
    try:
        from ladder_plugins.settings.keys import KEYS
        from ladder_plugins.settings.reference import reference_markdown
    except ImportError:
        return None
    return [name for key in KEYS for name in (key.names or (key.name,))], reference_markdown()


def key_names() -> list[str]:
    """Every key the configuration page lists (by its dotted name, or the pattern of a table of named keys)."""
    table_of_keys = declared()
    return table_of_keys[0] if table_of_keys is not None else [key.name for key in keys()]


def limits_table() -> str:
    """Every rule with a limit: its key, code and default per role (``off``: no limit)."""
    from ladder_plugins.catalogue import ROLES, RULES

    rows = []
    for rule in RULES.values():
        if rule.kind in ("max", "min"):
            limits = ["off" if rule.defaults.get(r) is None else f"{rule.defaults[r]:g}" for r in ROLES]
            rows.append([f"[`{rule.key}`](rules/{rule.code}.md)", rule.code, rule.kind, *limits])
    return table(["key", "code", "kind", *ROLES], rows)


def keys_table() -> str:
    rows = [[f"`{k.name}`", k.kind, k.default, k.meaning] for k in keys()]
    rows[len(rows):] = [
        ["`thresholds.<key>`", "number >= 0 or `false`", "see below", "app limits (`false` turns a rule off)"],
        ["`thresholds.<role>.<key>`", "number >= 0 or `false`", "see below", "per-role limits"],
        ["`roles.<role>`", "list of globs", "`[]`", "files of that role"],
    ]
    return table(["key", "type", "default", "meaning"], rows)


def page() -> str:
    """The generated part of ``reference/configuration.md``: the key table and the limits per role."""
    table_of_keys = declared()
    reference = table_of_keys[1] if table_of_keys is not None else keys_table()
    return ("Every key below `[tool.ladder]` in `pyproject.toml` (a dotted name is a key of a sub-table: "
            "`recurrence.git_since` is `git_since` in `[tool.ladder.recurrence]`):\n\n" + reference.strip()
            + "\n\n## Default limits per role\n\nThe per-rule keys of `[tool.ladder.thresholds]` (app) and "
            "`[tool.ladder.thresholds.<role>]`, with their defaults; `generated` and `vendor` use app's limits "
            "but are skipped by default (see [Roles](roles.md)).\n\n" + limits_table() + "\n")
