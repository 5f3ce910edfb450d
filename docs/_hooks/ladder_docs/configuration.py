"""The configuration reference: every key ``[tool.ladder]`` accepts, its default and what it does.

The key table the parser reads (``ladder_plugins.settings.keys.KEYS``) is the one source: the page is its
renderer's Markdown (``ladder_plugins.settings.reference.reference_markdown``), the same table
``tests/unit/settings/test_keys.py`` holds to the settings classes, followed by every rule of the catalogue with its
per-role default limits. Nothing here describes a key: a key's kind, default and meaning are its row of
``KEYS``, so a key added there is on the page at the next build.
"""

from __future__ import annotations

from . import table


def key_names() -> list[str]:
    """Every key the configuration page lists: its dotted name, or the pattern of a table of named keys
    (``roles.<role>``)."""
    from ladder_plugins.settings.keys import KEYS

    return [name for key in KEYS for name in (key.names or (key.name,))]


def limits_table() -> str:
    """Every rule with a limit: its key, code and default per role (``off``: no limit)."""
    from ladder_plugins.catalogue import ROLES, RULES

    rows = []
    for rule in RULES.values():
        if rule.kind in ("max", "min"):
            limits = ["off" if rule.defaults.get(r) is None else f"{rule.defaults[r]:g}" for r in ROLES]
            rows.append([f"[`{rule.key}`](rules/{rule.code}.md)", rule.code, rule.kind, *limits])
    return table(["key", "code", "kind", *ROLES], rows)


def page() -> str:
    """The generated part of ``reference/configuration.md``: the key table and the limits per role."""
    from ladder_plugins.settings.reference import reference_markdown

    return ("Every key below `[tool.ladder]` in `pyproject.toml` (a dotted name is a key of a sub-table: "
            "`recurrence.git_since` is `git_since` in `[tool.ladder.recurrence]`), made from the key table the "
            "parser reads (`settings/keys.py`):\n\n" + reference_markdown().strip()
            + "\n\n## Default limits per role\n\nThe per-rule keys of `[tool.ladder.thresholds]` (app) and "
            "`[tool.ladder.thresholds.<role>]`, with their defaults; `generated` and `vendor` use app's limits "
            "but are skipped by default (see [Roles](roles.md)).\n\n" + limits_table() + "\n")
