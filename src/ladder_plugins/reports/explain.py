"""``ladder explain RULE_OR_CODE``: what a rule measures, how, its limits, its source.

The counting rules are the section of the packaged ``metrics.md`` for the rule's
metric, the same text the README links to: there is one definition, not two. What
``explain`` points to is that shipped section or an outside source's address, never
the README, which is not installed with the package.
"""

from __future__ import annotations

import difflib
from importlib import resources
from typing import Optional, Sequence

from ..catalogue import ROLES, Rule, RuleIndex
from ..errors import LadderError

__all__ = ["explain", "find_rule", "rule_list"]

#: the shipped document of counting rules, as a reader of ``explain`` finds it in the installed package
_DOC = "ladder_plugins/metrics.md"


def find_rule(name: str, rules: Sequence[Rule]) -> Rule:
    """The rule of ``rules`` whose code or key is ``name``; an error naming the closest one otherwise."""
    rule = RuleIndex.of(rules).find(name)
    if rule is not None:
        return rule
    names = [r.code for r in rules] + [r.key for r in rules]
    hint = difflib.get_close_matches(name, names, n=1)
    extra = f"; did you mean {hint[0]!r}?" if hint else "; 'ladder explain --list' lists them"
    raise LadderError(f"unknown rule {name!r}{extra}")


def counting_rules(metric: Optional[str]) -> str:
    """The ``metrics.md`` section whose heading names ``metric`` (empty if none)."""
    if not metric:
        return ""
    text = resources.files("ladder_plugins").joinpath("metrics.md").read_text(encoding="utf-8")
    sections = text.split("\n## ")
    for section in sections[1:]:
        heading = section.splitlines()[0]
        if f"`{metric}`" in heading:
            return "## " + section.strip()
    return ""


def _limits(rule: Rule, settings: Optional[object]) -> list[str]:
    lines = []
    for role in ROLES:
        default = rule.defaults.get(role)
        current = settings.limit(role, rule.key) if settings is not None else default  # type: ignore[attr-defined]
        shown = "off" if default is None else f"{default:g}"
        note = "" if current == default else f" (this project: {'off' if current is None else f'{current:g}'})"
        lines.append(f"  {role:<9} {shown}{note}")
    return lines


def explain(name: str, rules: Sequence[Rule], settings: Optional[object] = None) -> str:
    rule = find_rule(name, rules)
    lines = [f"{rule.code} {rule.key} ({rule.family}, {rule.scope}, source: {rule.source})", "",
             rule.summary, ""]
    if rule.has_limit:
        bound = "minimum" if rule.is_minimum else "maximum"
        lines += [f"default {bound} per role:"] + _limits(rule, settings) + [""]
    counting = counting_rules(rule.metric or rule.key)
    if counting:
        lines += [counting, ""]
    lines.append(f"definition: {_definition(rule, counting)}")
    return "\n".join(lines)


def _definition(rule: Rule, counting: str) -> str:
    """Where the definition is: an outside source by its address; else the shipped section printed above,
    by its title (a built-in reference to a file of the repository would not exist where this is read)."""
    if rule.reference.startswith(("https://", "http://")) or not counting:
        return rule.reference  # an outside source, or a plugin's own reference
    title = counting.splitlines()[0].lstrip("# ").split(" (")[0]
    return f'{_DOC}, section "{title}" (printed above)'


def rule_list(rules: Sequence[Rule]) -> str:
    return "\n".join(f"{r.code}  {r.key:<26} {r.what}" for r in rules)
