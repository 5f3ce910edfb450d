"""``ladder feedback report``: the "Feedback Encoding Ladder Analysis" (Markdown), text, and JSON
(schema ``ladder-feedback``, version 1).

Every value read from the state, the sources or the topic table is made safe here, by
kind: Markdown-escaped, terminal-cleaned, or as JSON data.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Optional, Sequence

from ..catalogue import plural
from ..reports.sanitize import clean, md_escape
from .item import Tracked, TrackerItem
from .model import LEVELS, level_name
from .promotion import Suggestion, due, gap, most_urgent, suggestion
from .topics import Topic

__all__ = ["LEVEL_CHOICES", "report_json", "report_markdown", "report_text"]

#: where the tracker departs from the ladder's usual table of levels (docs/explanation/ladder.md), and why:
#: said under every report
LEVEL_CHOICES = ("Levels: instruction files and rules files loaded every session are Level 2; a rules file "
                 "scoped by `paths:` (Cursor: `globs`) is Level 3, loaded by the tool when a matching file is "
                 "touched; hooks are Level 3 (tool design) and a hook that blocks (exit 2, `decision: block`) "
                 "Level 4, where the usual table puts every hooks.json check at Level 4")


def _dates(item: TrackerItem) -> str:
    first, last = item.first_seen, item.last_seen
    if not first:
        return ""
    return f" ({first})" if first == last or not last else f" ({first} ~ {last})"


def _item_json(item: TrackerItem, topics: Sequence[Topic]) -> dict[str, Any]:
    hint = suggestion(item, topics)
    return {"id": item.id, "topic": item.topic, "keywords": list(item.keywords), "occurrences": item.occurrences,
            "first_seen": item.first_seen, "last_seen": item.last_seen, "current_level": item.current_level,
            "current_location": item.current_location, "recommended_level": item.recommended_level,
            "promoted": item.promoted, "needs_promotion": due(item), "due_since": item.due_since,
            "suggestion": dataclasses.asdict(hint) if hint is not None else None,
            "sources": [{k: s.get(k) for k in ("level", "source", "location", "when")} for s in item.sources]}


def report_json(tracked: Tracked, topics: Sequence[Topic], state_path: str) -> str:
    urgent = most_urgent(tracked.items)
    payload = {"schema": "ladder-feedback", "version": 1, "state": state_path, "items_tracked": len(tracked.items),
               "promotion_required": sum(due(i) for i in tracked.items),
               "items": [_item_json(i, topics) for i in tracked.items], "untrusted": len(tracked.malformed),
               "most_urgent": urgent.id if urgent else None}
    return json.dumps(payload, indent=2, ensure_ascii=False)


def _fence(snippet: str, language: str) -> list[str]:
    ticks = "```" if "```" not in snippet else "````"
    return [f"  {ticks}{language}"] + [f"  {line}" for line in snippet.rstrip("\n").splitlines()] + [f"  {ticks}"]


def _md_hint(hint: Optional[Suggestion]) -> list[str]:
    lines = [f"- Suggested action: {md_escape(hint.action if hint else '-')}"]
    if hint is not None and hint.snippet:
        lines.append(f"  ({md_escape(hint.file or '')}, {md_escape(hint.check or '')})")
        lines += _fence(hint.snippet, hint.format or "")
    return lines


def _md_item(number: int, item: TrackerItem, topics: Sequence[Topic]) -> list[str]:
    where = md_escape(item.current_location or "-")
    return [f"#### {number}. \"{md_escape(item.topic)}\" (id: {md_escape(item.id)})",
            f"- Current level: {level_name(item.current_level)} — recorded in {where}",
            f"- Occurrences: {item.occurrences}{md_escape(_dates(item))}",
            f"- Recommended level: {level_name(item.recommended_level)}"
            ] + _md_hint(suggestion(item, topics)) + [""]


def _md_done(item: TrackerItem) -> str:
    return (f"- \"{md_escape(item.topic)}\" → {level_name(item.current_level)} "
            f"({md_escape(item.current_location or '-')}) ✅")


def _md_urgent(urgent: Optional[TrackerItem]) -> str:
    if urgent is None:
        return "- Most urgent promotion: none"
    return (f"- Most urgent promotion: \"{md_escape(urgent.topic)}\" (id: {md_escape(urgent.id)}), "
            f"{level_name(urgent.current_level)} → {level_name(urgent.recommended_level)}")


def report_markdown(tracked: Tracked, topics: Sequence[Topic], state_path: str) -> str:
    """The "Feedback Encoding Ladder Analysis" (its layout: ``docs/how-to/feedback-tracker.md``, "Reports")."""
    items = tracked.items
    waiting, done = [i for i in items if due(i)], [i for i in items if not due(i)]
    lines = ["## Feedback Encoding Ladder Analysis", "", f"### State file: {md_escape(state_path)}",
             f"- Feedback items tracked: {len(items)}", f"- Promotion required: {len(waiting)}",
             f"- {LEVEL_CHOICES}", "",
             "### Items Requiring Promotion", ""]
    lines += [line for n, item in enumerate(waiting, 1) for line in _md_item(n, item, topics)] or ["none", ""]
    lines += ["### Already Appropriately Encoded", ""] + ([_md_done(i) for i in done] or ["none"])
    lines += ["", "### Summary", "", f"- {plural(len(items), 'total feedback cluster')}",
              f"- {len(waiting)} need stronger encoding than their current level", _md_urgent(most_urgent(items))]
    return "\n".join(lines) + "\n"


def _text_item(item: TrackerItem, topics: Sequence[Topic]) -> list[str]:
    level, where = item.current_level, clean(item.current_location or "-")
    counted = f"{plural(item.occurrences, 'occurrence')}{clean(_dates(item))}"
    lines = [f"  [{'promote' if due(item) else 'ok'}] {clean(item.id)}: {clean(item.topic)}",
             f"      level {level} ({LEVELS.get(level, '?')}) at {where}; {counted}; "
             f"recommended level {item.recommended_level}"]
    hint = suggestion(item, topics)
    if hint:
        lines.append(f"      do: {clean(hint.action)}" + (f" ({clean(hint.file)})" if hint.file else ""))
    return lines


def _text_sources(item: TrackerItem) -> list[str]:
    """An item's counted sources, numbered from 1 as ``ladder feedback split`` names them, each on one line."""
    lines = []
    for number, src in enumerate(item.sources, 1):
        said = clean(" ".join(str(src.get("text") or "").split()))
        when = f" ({clean(str(src['when']))})" if src.get("when") else ""
        found = f"level {clean(str(src.get('level', '?')))} {clean(str(src.get('source') or '?'))}"
        lines.append(f"      {number}. {found} at {clean(str(src.get('location') or '-'))}{when}: {said}")
    return lines or ["      (no sources counted)"]


def report_text(tracked: Tracked, topics: Sequence[Topic], state_path: str, sources: bool = False) -> str:
    """One item after another, those to promote first; with ``sources`` each item's sources numbered under it."""
    items = tracked.items
    ordered = sorted(items, key=lambda i: (not due(i), -gap(i)[0], i.id))
    head = f"feedback ladder: {plural(len(items), 'item')} in {clean(state_path)}, {sum(map(due, items))} to promote"
    note = LEVEL_CHOICES.replace("`", "")
    return "\n".join([head] + [line for item in ordered
                               for line in _text_item(item, topics) + (_text_sources(item) if sources else [])]
                     + [note])
