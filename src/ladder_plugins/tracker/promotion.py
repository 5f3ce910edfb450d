"""Promotion: which level a piece of feedback should be encoded at, whether it is due, what to do about
it, which item is most urgent and which are overdue. The one place these are decided: the scan
writes ``recommended_level`` and ``promoted`` with :func:`recommended_level` and
:func:`is_promoted`; the reports, ``ladder feedback check``, the pytest item and the HTML report
read the rest from here.

The rule (``docs/explanation/ladder.md``, "Levels and promotion"): 1 occurrence → level 1,
2 → level 2, 3 or more → level 4 where the topic
table knows a check for the topic, else level 3. An item needs promotion (is *due*) while it is
not promoted; the most urgent is the one furthest below its level, then with the most
occurrences, then due the longest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Iterable, Optional, Sequence

from .item import TrackerItem
from .topics import Topic

__all__ = ["recommended_level", "is_promoted", "due", "gap", "most_urgent", "Suggestion", "suggestion",
           "Overdue", "overdue"]

#: the ladder's own next step for a recommended level, where no topic gives a check
_GENERIC = {
    2: "Write it down where agents and people read it (CLAUDE.md, AGENTS.md, CODING_STANDARDS.md or "
       ".claude/rules/*.md)",
    3: "Encode it in the tools: a PreToolUse or PostToolUse hook in .claude/settings.json that checks it, "
       "or a tool description that prevents it",
    4: "Add a check that fails on it (a linter rule, a test, a CI step)",
}


def recommended_level(occurrences: int, topic: Optional[Topic]) -> int:
    """1 → 1, 2 → 2, 3 or more → 4 with a known check for the topic, else 3."""
    if occurrences <= 1:
        return 1
    if occurrences == 2:
        return 2
    return 4 if topic is not None else 3


def is_promoted(current_level: int, recommended: int) -> bool:
    """Whether an item encoded at ``current_level`` is where its occurrences call for."""
    return current_level >= recommended


def due(item: TrackerItem) -> bool:
    """Whether an item needs promotion: it is not promoted (as the last scan, or another tool of the schema,
    wrote it)."""
    return not item.promoted


def gap(item: TrackerItem) -> tuple[int, int]:
    """How many levels an item is below its recommended one, and its occurrences: what makes it urgent."""
    return item.recommended_level - item.current_level, item.occurrences


def most_urgent(items: Iterable[TrackerItem]) -> Optional[TrackerItem]:
    """The due item furthest below its level, then with the most occurrences, then due the longest."""
    waiting = sorted((i for i in items if due(i)), key=lambda i: str(i.due_since))
    return max(waiting, key=gap, default=None)


@dataclass(frozen=True)
class Suggestion:
    """What to do for an item that needs promotion: its topic's check and snippet (at level 4), or the
    ladder's generic next step (``check`` … ``topic`` then ``None``)."""

    action: str
    check: Optional[str] = None
    tool: Optional[str] = None
    file: Optional[str] = None
    format: Optional[str] = None
    snippet: Optional[str] = None
    topic: Optional[str] = None


def suggestion(item: TrackerItem, topics: Sequence[Topic]) -> Optional[Suggestion]:
    """The suggestion for a due item (``None`` when it is not due): its topic's check and snippet when the
    recommended level is 4 and the topic is in ``topics``, else the generic step for the recommended level
    (level 2's below 2)."""
    if not due(item):
        return None
    topic = next((t for t in topics if t.id == item.topic_id), None)
    if item.recommended_level == 4 and topic is not None:
        return Suggestion(topic.action, topic.check, topic.tool, topic.file, topic.format, topic.snippet, topic.id)
    return Suggestion(_GENERIC.get(item.recommended_level, _GENERIC[2]))


@dataclass(frozen=True)
class Overdue:
    """An item that has needed promotion for longer than the grace period."""

    item_id: str
    topic: str
    since: str
    days: int


def overdue(items: Iterable[TrackerItem], grace_days: Optional[int], today: date) -> list[Overdue]:
    """The due items whose ``due_since`` is more than ``grace_days`` before ``today`` (none while
    ``grace_days`` is unset; an item without a readable ``due_since`` is never overdue)."""
    if grace_days is None:
        return []
    found = []
    for item in filter(due, items):
        try:
            since = item.due_since or ""
            days = (today - date.fromisoformat(since)).days
        except ValueError:
            continue
        if days > grace_days:
            found.append(Overdue(item.id, item.topic, since, days))
    return found
