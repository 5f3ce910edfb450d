"""The stored and printed shapes: the event log's fields, and the golden files the tests pin outputs to.

The event fields are those of :class:`ladder_plugins.history.events.Event` (and ``Sighting``), each with what
it means (text here, since the code cannot say it); a field the text does not cover is a build warning. The
output examples are the golden files of ``tests/golden/``, the very files the tests compare ``ladder check``,
``ladder summary`` and ``ladder feedback report`` with.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from . import log, table

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"

#: an event's fields, by name (several names may share a row)
EVENT_FIELDS: dict[tuple[str, ...], str] = {
    ("schema_version",): "2 (1 in lines written before it)",
    ("event_id",): "unique id (deduplication key for `ladder history combine`)",
    ("timestamp",): "UTC, ISO-8601 (`2026-11-01T09:00:00.000000Z`)",
    ("repo_id",): "`[project] name`, else the root directory's name",
    ("run_id",): "one per invocation, shared by its worker processes (`LADDER_RUN_ID` overrides)",
    ("tool", "mode"): "`flake8`, `pytest` or `cli`; the gate mode of the run",
    ("path", "unit_name", "line", "role"): "where: POSIX path relative to the root, qualified unit name (`null` "
                                           "for file rules)",
    ("rule_key", "metric_family", "scope", "source"): "what: from the catalogue; `source` is `built-in-metric` "
                                                      "or `external-plugin`",
    ("severity",): "`yellow`, `red` or `gate-fail`",
    ("actual", "limit", "delta"): "the value, the limit, `actual - limit`",
    ("fingerprint", "unit_hash"): "identity: `path::qualified_unit::rule_key` (`path::rule_key` for file rules), "
                                  "and the hash of the unit's code (see [Recurrence](../explanation/recurrence.md))",
    ("hash_version",): "the form of `unit_hash`: 2; missing (read as 1) in events written before it was added",
    ("actor_type", "actor_id"): "optional: `human`, `agent` or `ci` (`LADDER_ACTOR`, or `ci` when `CI` is true) "
                                "and `LADDER_ACTOR_ID`",
}

#: the golden files shown as examples: file, what it is
GOLDEN_FILES = (
    ("check.txt", "`ladder check` text"),
    ("check.json", "`ladder check --format json` (schema `ladder-check`, version 1)"),
    ("check.md", "`ladder check --format markdown`"),
    ("summary.txt", "`ladder summary`"),
    ("summary.json", "`ladder summary --format json` (schema `ladder-summary`, version 1)"),
    ("summary.md", "`ladder summary --format markdown`"),
    ("feedback.json", "`ladder feedback report --format json` (schema `ladder-feedback`, version 1)"),
)


def event_table() -> str:
    from ladder_plugins.history.events import SCHEMA_VERSION, Event

    names = [f.name for f in dataclasses.fields(Event)]
    described = {name for group in EVENT_FIELDS for name in group}
    for missing in [n for n in names if n not in described]:
        log.warning("event field %r has no meaning in docs/_hooks/ladder_docs/schemas.py", missing)
    for stale in sorted(described - set(names)):
        log.warning("docs/_hooks/ladder_docs/schemas.py describes event field %r, which Event does not have", stale)
    rows = [[", ".join(f"`{n}`" for n in group), meaning] for group, meaning in EVENT_FIELDS.items()]
    return f"The current schema is version {SCHEMA_VERSION}.\n\n" + table(["field", "meaning"], rows) + "\n"


def sighting_fields() -> str:
    from ladder_plugins.history.events import Sighting

    return ", ".join(f"`{f.name}`" for f in dataclasses.fields(Sighting))


def golden_examples() -> str:
    parts = []
    for name, what in GOLDEN_FILES:
        path = GOLDEN / name
        if not path.is_file():
            log.warning("tests/golden/%s is missing: the output formats page shows it", name)
            continue
        language = {"json": "json", "md": "markdown"}.get(path.suffix[1:], "text")
        lines = path.read_text(encoding="utf-8").rstrip().splitlines()
        parts += [f'??? example "{what}: `tests/golden/{name}`"', "", f"    ````{language}",
                  *("    " + line if line else "" for line in lines), "    ````", ""]
    return "\n".join(parts)


def state_version() -> str:
    from ladder_plugins.tracker.state import STATE_VERSION

    return str(STATE_VERSION)
