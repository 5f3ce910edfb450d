"""``ladder feedback report``: the seed's "Feedback Encoding Ladder Analysis" (Markdown), text, and JSON
(schema ``ladder-feedback``, version 1).

Every value read from the state, the sources or the topic table is made safe here, by
kind: Markdown-escaped, terminal-cleaned, or as JSON data.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence

from ..catalogue import plural
from ..reports.sanitize import clean, md_escape
from .model import LEVELS, level_name
from .state import item_problem
from .scan import needs_promotion

__all__ = ["report_json", "report_markdown", "report_text", "suggestion_of", "most_urgent"]

_GENERIC = {
    2: ("Write it down where agents and people read it (CLAUDE.md, AGENTS.md, CODING_STANDARDS.md or "
        ".claude/rules/*.md)", None, None),
    3: ("Encode it in the tools: a PreToolUse or PostToolUse hook in .claude/settings.json that checks it, "
        "or a tool description that prevents it", None, None),
    4: ("Add a check that fails on it (a linter rule, a test, a CI step)", None, None),
}


def suggestion_of(item: dict[str, Any], topics: Sequence[Any]) -> Optional[dict[str, Any]]:
    """What to do for an item that needs promotion: its topic's check and snippet at level 4, else the
    ladder's generic step for the recommended level."""
    if not needs_promotion(item):
        return None
    level = int(item.get("recommended_level", 1))
    topic = next((t for t in topics if t.id == item.get("ladder", {}).get("topic")), None)
    if level == 4 and topic is not None:
        return {"action": topic.action, "check": topic.check, "tool": topic.tool, "file": topic.file,
                "format": topic.format, "snippet": topic.snippet, "topic": topic.id}
    action, _, _ = _GENERIC.get(level, _GENERIC[2])
    return {"action": action, "check": None, "tool": None, "file": None, "format": None, "snippet": None,
            "topic": None}


def _int(item: dict[str, Any], key: str, default: int) -> int:
    """A level or count of an item as a whole number (the seed's fields may be missing from a file written by
    hand; ``item_problem`` has checked that those present are whole numbers)."""
    return int(item.get(key, default))


def _gap(item: dict[str, Any]) -> tuple[int, int]:
    """How many levels an item is below its recommended one, and its occurrences: what makes it urgent."""
    return _int(item, "recommended_level", 1) - _int(item, "current_level", 1), _int(item, "occurrences", 0)


def most_urgent(items: Sequence[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """The item furthest below its level, then with the most occurrences, then due the longest."""
    due = sorted((i for i in items if needs_promotion(i)), key=lambda i: str(i.get("ladder", {}).get("due_since")))
    return max(due, key=_gap, default=None)


def _dates(item: dict[str, Any]) -> str:
    first, last = item.get("first_seen"), item.get("last_seen")
    if not first:
        return ""
    first, last = str(first), str(last) if last else last
    return f" ({first})" if first == last or not last else f" ({first} ~ {last})"


def _trusted(items: Sequence[Any]) -> list[dict[str, Any]]:
    return [i for i in items if item_problem(i) is None]


_SHOWN = ("id", "topic", "keywords", "occurrences", "first_seen", "last_seen", "current_level", "current_location",
          "recommended_level", "promoted")


def _item_json(item: dict[str, Any], topics: Sequence[Any]) -> dict[str, Any]:
    sources = [{k: s.get(k) for k in ("level", "source", "location", "when")}
               for s in item.get("ladder", {}).get("sources", []) if isinstance(s, dict)]
    return {**{k: item.get(k) for k in _SHOWN}, "needs_promotion": needs_promotion(item),
            "due_since": item.get("ladder", {}).get("due_since"), "suggestion": suggestion_of(item, topics),
            "sources": sources}


def report_json(items: Sequence[dict[str, Any]], topics: Sequence[Any], state_path: str) -> str:
    trusted = _trusted(items)
    urgent = most_urgent(trusted)
    payload = {"schema": "ladder-feedback", "version": 1, "state": state_path, "items_tracked": len(trusted),
               "promotion_required": sum(needs_promotion(i) for i in trusted),
               "items": [_item_json(i, topics) for i in trusted], "untrusted": len(items) - len(trusted),
               "most_urgent": urgent["id"] if urgent else None}
    return json.dumps(payload, indent=2, ensure_ascii=False)


def _fence(snippet: str, language: str) -> list[str]:
    ticks = "```" if "```" not in snippet else "````"
    return [f"  {ticks}{language}"] + [f"  {line}" for line in snippet.rstrip("\n").splitlines()] + [f"  {ticks}"]


def _md_hint(hint: dict[str, Any]) -> list[str]:
    lines = [f"- Suggested action: {md_escape(hint.get('action') or '-')}"]
    if hint.get("snippet"):
        lines.append(f"  ({md_escape(hint['file'])}, {md_escape(hint['check'])})")
        lines += _fence(hint["snippet"], hint["format"] or "")
    return lines


def _md_item(number: int, item: dict[str, Any], topics: Sequence[Any]) -> list[str]:
    where = md_escape(str(item.get("current_location") or "-"))
    return [f"#### {number}. \"{md_escape(item['topic'])}\" (id: {md_escape(item['id'])})",
            f"- Current level: {level_name(_int(item, 'current_level', 1))} — recorded in {where}",
            f"- Occurrences: {_int(item, 'occurrences', 0)}{md_escape(_dates(item))}",
            f"- Recommended level: {level_name(_int(item, 'recommended_level', 1))}"
            ] + _md_hint(suggestion_of(item, topics) or {}) + [""]


def _md_done(item: dict[str, Any]) -> str:
    return (f"- \"{md_escape(item['topic'])}\" → {level_name(_int(item, 'current_level', 1))} "
            f"({md_escape(str(item.get('current_location') or '-'))}) ✅")


def _md_urgent(urgent: Optional[dict[str, Any]]) -> str:
    if urgent is None:
        return "- Most urgent promotion: none"
    return (f"- Most urgent promotion: \"{md_escape(urgent['topic'])}\" (id: {md_escape(urgent['id'])}), "
            f"{level_name(_int(urgent, 'current_level', 1))} → {level_name(_int(urgent, 'recommended_level', 1))}")


def report_markdown(items: Sequence[dict[str, Any]], topics: Sequence[Any], state_path: str) -> str:
    """The seed's "Feedback Encoding Ladder Analysis"."""
    trusted = _trusted(items)
    due, done = _split(trusted)
    lines = _md_head(state_path, len(trusted), len(due))
    lines += [line for n, item in enumerate(due, 1) for line in _md_item(n, item, topics)] or ["none", ""]
    lines += ["### Already Appropriately Encoded", ""] + ([_md_done(i) for i in done] or ["none"])
    return "\n".join(lines + _md_summary(trusted, len(due))) + "\n"


def _split(items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the items needing promotion, the ones appropriately encoded)."""
    return [i for i in items if needs_promotion(i)], [i for i in items if not needs_promotion(i)]


def _md_head(state_path: str, tracked: int, due: int) -> list[str]:
    return ["## Feedback Encoding Ladder Analysis", "", f"### State file: {md_escape(state_path)}",
            f"- Feedback items tracked: {tracked}", f"- Promotion required: {due}", "",
            "### Items Requiring Promotion", ""]


def _md_summary(trusted: list[dict[str, Any]], due: int) -> list[str]:
    return ["", "### Summary", "", f"- {plural(len(trusted), 'total feedback cluster')}",
            f"- {due} need stronger encoding than their current level", _md_urgent(most_urgent(trusted))]


def _counted(item: dict[str, Any]) -> str:
    return f"{plural(_int(item, 'occurrences', 0), 'occurrence')}{clean(_dates(item))}"


def _text_item(item: dict[str, Any], topics: Sequence[Any]) -> list[str]:
    level, where = _int(item, "current_level", 1), clean(str(item.get("current_location") or "-"))
    lines = [f"  [{'promote' if needs_promotion(item) else 'ok'}] {clean(item['id'])}: {clean(item['topic'])}",
             f"      level {level} ({LEVELS.get(level, '?')}) at {where}; {_counted(item)}; "
             f"recommended level {_int(item, 'recommended_level', 1)}"]
    hint = suggestion_of(item, topics)
    if hint:
        lines.append(f"      do: {clean(hint['action'])}" + (f" ({clean(hint['file'])})" if hint["file"] else ""))
    return lines


def report_text(items: Sequence[dict[str, Any]], topics: Sequence[Any], state_path: str) -> str:
    trusted = _trusted(items)
    due = sum(needs_promotion(i) for i in trusted)
    ordered = sorted(trusted, key=lambda i: (not needs_promotion(i), -_gap(i)[0], str(i["id"])))
    head = f"feedback ladder: {plural(len(trusted), 'item')} in {clean(state_path)}, {due} to promote"
    return "\n".join([head] + [line for item in ordered for line in _text_item(item, topics)])
