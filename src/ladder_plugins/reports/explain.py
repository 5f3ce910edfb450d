"""``ladder explain RULE_OR_CODE``: what a rule measures, why it matters, how it counts, its limits, its source.

Two shipped documents hold the texts, each read here and nowhere else: ``rules.md`` says why a rule matters,
with an example and what to write instead (:func:`rule_page`), and ``metrics.md`` how its metric counts
(:func:`counting_rules`). The documentation site's rule pages (``docs/_hooks/ladder_docs/rules.py``) are made
from these two functions too, so the terminal and the site show one text, not two. What ``explain`` points to
is a shipped section or an outside source's address, never a file of the repository, which is not installed
with the package.
"""

from __future__ import annotations

import difflib
import functools
import re
from importlib import resources
from typing import Optional, Sequence

from ..catalogue import ROLES, Rule, RuleIndex
from ..errors import LadderError

__all__ = ["counting_rules", "explain", "find_rule", "for_terminal", "rule_list", "rule_notes", "rule_page"]

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


@functools.lru_cache(maxsize=1)
def rule_notes() -> dict[str, str]:
    """The shipped ``rules.md`` cut at its ``## CODE ...`` headings: each code a heading names gets the section,
    its ``###`` headings made ``##`` (the level they have where the section is shown)."""
    text = resources.files("ladder_plugins").joinpath("rules.md").read_text(encoding="utf-8")
    found: dict[str, str] = {}
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2]):
        for code in re.findall(r"LAD\d{3}", heading):
            found[code] = re.sub(r"^### ", "## ", body.strip(), flags=re.M)
    return found


def rule_page(rule: Rule) -> str:
    """Why ``rule`` matters, an example and what to write instead, in Markdown: what the site's page for the rule
    shows and ``ladder explain`` prints (empty for a rule ``rules.md`` has no section for, such as a plugin's)."""
    return rule_notes().get(rule.code, "")


#: a link to another page of the documentation site: relative, so it leads nowhere from a terminal
_SITE_LINK = re.compile(r"\[([^\]\n]+)\]\((?![a-z]+://)[^)\s]+\)")
#: a line that is only an HTML comment (the marker of an example the tests run), which a page does not show
_COMMENT_LINE = re.compile(r"^<!--.*-->\n", re.M)


def for_terminal(markdown: str) -> str:
    """A rule's text as ``ladder explain`` prints it: what the site's page shows, a link to another page of the
    site as its text alone."""
    return _SITE_LINK.sub(r"\1", _COMMENT_LINE.sub("", markdown))


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
    notes = rule_page(rule)
    if notes:
        lines += [for_terminal(notes), ""]
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
