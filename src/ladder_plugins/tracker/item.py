"""A tracker item as the read side sees it: the state file's dict read once, checked, typed.

The state file keeps items in the schema's form (``state``): the scan changes
those dicts in place, so that unknown keys survive. Everything that only reads an item (the
reports, the rules block, ``ladder feedback check``, the HTML report, ``ladder doctor``)
reads it here, into a :class:`TrackerItem`, and nowhere else:

- the schema's fields must have the schema's types where present (``id`` and ``topic``
  non-empty strings, ``occurrences`` and the two levels whole numbers from 0 to 10⁹,
  ``keywords`` a list, ``ladder`` an object with a ``sources`` list); an item that has not
  is not read (:class:`ItemError`, naming the item and the key) and is kept in the file as
  it is, never updated;
- a missing field reads as the scan starts it: ``occurrences`` 0, both levels 1,
  ``promoted`` false (only a JSON ``true`` is promoted);
- the fields nobody checked before (locations, dates, ``due_since``) are read leniently,
  as text or ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional

from ..errors import LadderError

__all__ = ["TrackerItem", "ItemError", "Tracked", "read_items", "readable", "name_of", "number_of"]

_TEXT_FIELDS = ("id", "topic")
_INT_FIELDS = ("occurrences", "current_level", "recommended_level")
#: what a missing field reads as: what a scan starts an item with
_DEFAULTS = {"occurrences": 0, "current_level": 1, "recommended_level": 1}
_MAX_COUNT = 10**9


class ItemError(LadderError):
    """An item of the state file that cannot be read: which item, which key, what is wrong."""

    def __init__(self, item_id: str, key: str, problem: str) -> None:
        self.item_id, self.key, self.problem = item_id, key, problem
        who = f"item {item_id!r} of the feedback state" if item_id else "an item of the feedback state"
        super().__init__(f"{who}{f': {key}' if key else ''} {problem}; it is kept as it is and not updated "
                         "(correct it in the state file, or remove it)")


def name_of(raw: Any) -> str:
    """What an entry is called in a warning: its ``id`` as text, ``?`` without one."""
    return str(raw.get("id", "?")) if isinstance(raw, dict) else "?"


def number_of(raw: Mapping[str, Any], key: str) -> int:
    """A count or level of an entry (``occurrences``, ``current_level``, ``recommended_level``) as a number:
    what a scan starts an item with when it is missing. The one reading of these fields, for the scan's
    dicts and for :class:`TrackerItem` alike (an entry that :meth:`TrackerItem.read` accepts has them whole)."""
    return int(raw.get(key, _DEFAULTS[key]))


def readable(raw: Any) -> bool:
    """Whether an entry reads as an item: the items a scan updates."""
    try:
        TrackerItem.read(raw)
    except ItemError:
        return False
    return True


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_COUNT


def _text_or_none(value: Any) -> Optional[str]:
    return None if value is None else str(value)


@dataclass(frozen=True)
class TrackerItem:
    """One tracked piece of feedback (the schema's fields, and what ladder keeps under ``ladder``)."""

    id: str
    topic: str
    keywords: tuple[str, ...] = ()
    #: the distinct places it was given or written down
    occurrences: int = 0
    #: the ladder level it is encoded at now (1 review comment … 4 linter/test), and where
    current_level: int = 1
    current_location: Optional[str] = None
    #: the level its occurrences call for, and whether it is there (as the last scan wrote them)
    recommended_level: int = 1
    promoted: bool = False
    first_seen: Optional[str] = None
    last_seen: Optional[str] = None
    #: ``ladder.topic``: the row of the topic table it is about
    topic_id: Optional[str] = None
    #: ``ladder.due_since``: the day it first needed promotion
    due_since: Optional[str] = None
    #: severities set by hand, strings only: ``ladder.severity`` first, then the item's own ``severity``
    severities: tuple[str, ...] = ()
    #: ``ladder.sources``: each counted source as stored (identity, level, source, location, when, text)
    sources: tuple[Mapping[str, Any], ...] = ()

    @classmethod
    def read(cls, raw: Any) -> TrackerItem:  # ladder: ignore[abc_max] one call naming each of the 14 fields
        """The item a state file's entry is, or :class:`ItemError` (see the module docstring)."""
        _check(raw)
        extra = raw.get("ladder", {})
        hand = (extra.get("severity"), raw.get("severity"))
        return cls(
            id=raw["id"], topic=raw["topic"], keywords=tuple(str(k) for k in raw.get("keywords", [])),
            occurrences=number_of(raw, "occurrences"), current_level=number_of(raw, "current_level"),
            current_location=_text_or_none(raw.get("current_location")),
            recommended_level=number_of(raw, "recommended_level"), promoted=raw.get("promoted") is True,
            first_seen=_text_or_none(raw.get("first_seen")), last_seen=_text_or_none(raw.get("last_seen")),
            topic_id=_text_or_none(extra.get("topic")), due_since=_text_or_none(extra.get("due_since")),
            severities=tuple(s for s in hand if isinstance(s, str)),
            sources=tuple(s for s in extra.get("sources", []) if isinstance(s, dict)),
        )


def _check(raw: Any) -> None:
    """:class:`ItemError` for the first of the schema's fields (in its order) that has not the schema's type."""
    if not isinstance(raw, dict):
        raise ItemError("", "", f"is not an object (found {type(raw).__name__})")
    name = name_of(raw)
    for key in _TEXT_FIELDS:
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise ItemError(name, key, "is not a non-empty string")
    for key in _INT_FIELDS:
        if not _whole(raw.get(key, _DEFAULTS[key])):
            raise ItemError(name, key, f"is not a whole number from 0 to {_MAX_COUNT:,}")
    if not isinstance(raw.get("keywords", []), list):
        raise ItemError(name, "keywords", "is not a list")
    extra = raw.get("ladder", {})
    if not isinstance(extra, dict) or not isinstance(extra.get("sources", []), list):
        raise ItemError(name, "ladder", "is not an object with a sources list")


@dataclass(frozen=True)
class Tracked:
    """The items of a state that could be read, and the names of those that could not (kept as they are)."""

    items: tuple[TrackerItem, ...]
    malformed: tuple[str, ...] = ()


def read_items(raw_items: Iterable[Any]) -> Tracked:
    """Each entry of a state's ``feedbacks`` read (see :meth:`TrackerItem.read`)."""
    items: list[TrackerItem] = []
    malformed: list[str] = []
    for raw in raw_items:
        try:
            items.append(TrackerItem.read(raw))
        except ItemError:
            malformed.append(name_of(raw))
    return Tracked(tuple(items), tuple(malformed))
