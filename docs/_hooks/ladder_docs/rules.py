"""One page per rule code, as ruff has one per rule: what it measures and why, how it counts, an example and
what to write instead, its options and its limits per role.

What the rule is comes from the catalogue (``ladder_plugins.catalogue``: the codes ``ladder explain --list``
prints), how it counts from the section of the shipped ``metrics.md`` that ``ladder explain`` prints, the
limits from the rule's defaults, the options from the configuration keys its definition names. Why it
matters, the example and what to write instead are the rule's section of the package's ``rules.md`` (one
``## CODE`` section, or one for several codes), read through ``ladder_plugins.reports.explain.rule_page``, which
``ladder explain`` prints too; a code without one is a build warning.
"""

from __future__ import annotations

import re
from typing import Any

from . import log, table

NOTES = "src/ladder_plugins/rules.md"
_KINDS = {"max": "a maximum: red above the limit, yellow from `yellow_ratio` x the limit",
          "min": "a minimum: red below the limit",
          "meta": "raised by ladder itself, not a threshold"}


def catalogue() -> list[Any]:
    """The built-in rules and the lint's, in catalogue order: what ``ladder explain --list`` lists."""
    from ladder_plugins.catalogue import RULES, WORKLOG_RULES

    return [*RULES.values(), *WORKLOG_RULES.values()]


def _section(rule: Any) -> str:
    """The ``metrics.md`` section ``ladder explain`` prints for the rule, without its heading."""
    from ladder_plugins.reports.explain import counting_rules

    text = counting_rules(rule.metric or rule.key)
    return text.partition("\n")[2].strip() if text else ""


def _limits(rule: Any) -> str:
    from ladder_plugins.catalogue import ROLES

    if rule.kind not in ("max", "min"):
        return "No limit: this code is not a threshold.\n"
    rows = [[role, "off" if rule.defaults.get(role) is None else f"{rule.defaults[role]:g}"] for role in ROLES]
    return table(["role", f"default {'maximum' if rule.kind == 'max' else 'minimum'}"], rows) + "\n"


def _options(rule: Any, section: str, config_keys: list[str]) -> str:
    lines = []
    if rule.kind in ("max", "min"):
        lines.append(f"- `{rule.key} = N` in `[tool.ladder.thresholds]` sets app's limit, in "
                     f"`[tool.ladder.thresholds.<role>]` another role's; `{rule.key} = false` turns it off.")
        if rule.kind == "max":
            lines.append("- [`yellow_ratio`](../configuration.md): where the yellow (advisory) band starts.")
    if rule.source != "worklog-lint":
        lines.append(f"- Suppress one unit: `# ladder: ignore[{rule.key}] reason` or `# noqa: {rule.code}` on its "
                     "`def` line ([Suppressing](../../how-to/suppress.md)).")
    named = [key for key in config_keys if key not in ("yellow_ratio",) and _names(section, key)]
    lines += [f"- [`{key}`](../configuration.md), named in the definition above." for key in named]
    return "\n".join(lines) + "\n" if lines else "None.\n"


def _names(section: str, key: str) -> bool:
    """Whether the definition names a configuration key: dotted as written, or by a last part with an ``_``."""
    last = key.rpartition(".")[2]
    words = [key] + ([last] if "_" in last else [])
    return any(re.search(rf"`[^`\n]*\b{re.escape(word)}\b[^`\n]*`", section) for word in words)


def page(rule: Any, config_keys: list[str]) -> str:
    from ladder_plugins.reports.explain import rule_page

    section, note = _section(rule), rule_page(rule)
    reference = rule.reference
    where = (f"[{reference}]({reference})" if reference.startswith("https://")
             else "`ladder_plugins/metrics.md`, printed below")
    facts = table(["code", "key", "family", "scope", "kind", "source", "definition"],
                  [[f"`{rule.code}`", f"`{rule.key}`", rule.family, rule.scope, _KINDS.get(rule.kind, rule.kind),
                    rule.source, where]])
    parts = [f"# {rule.code} {rule.key}", "", f"**{rule.what}.** {rule.summary}", "", facts, ""]
    parts += [note, ""] if note else []
    parts += ["## Limits per role", "", _limits(rule)]
    if section:
        parts += ["## How it counts", "", section, ""]
    parts += ["## Options", "", _options(rule, section, config_keys),
              f"`ladder explain {rule.code}` prints this rule's definition in a terminal.", ""]
    return "\n".join(parts)


def index(rules: list[Any]) -> str:
    rows = [[f"[{r.code}]({r.code}.md)", f"`{r.key}`", r.family, r.scope, r.what] for r in rules]
    return ("# Rules\n\nEvery code of the catalogue (`ladder explain --list`), each with a page: what it measures "
            "and why, how it counts, an example and what to write instead, its options and its limits per "
            "role.\n\nMessages name the unit, the value and the limit: `LAD102 cognitive complexity of "
            "'Parser.parse' is 22 (> 15)`.\n\n" + table(["code", "key", "family", "scope", "what"], rows) + "\n")


def pages(config_keys: list[str]) -> dict[str, str]:
    """``reference/rules/<CODE>.md`` for every code, and the index."""
    from ladder_plugins.reports.explain import rule_notes

    rules, written = catalogue(), rule_notes()
    result = {"reference/rules/index.md": index(rules)}
    for rule in rules:
        if rule.code not in written:
            log.warning("%s has no section in %s (why, an example, what to write instead)", rule.code, NOTES)
        result[f"reference/rules/{rule.code}.md"] = page(rule, config_keys)
    for stale in sorted(set(written) - {r.code for r in rules}):
        log.warning("%s has a section for %s, which the catalogue does not have", NOTES, stale)
    return result
