"""Correcting the matcher by hand: ``ladder feedback merge`` and ``split``.

The matcher (:mod:`.similarity`) joins and keeps apart what it should not on new wording; a person
says which feedback is the same. A correction moves counted sources (``ladder.sources``, each with
its identity) between items, and a scan never moves a source whose identity an item already holds,
so the correction holds across scans. The items it changes are counted and levelled again as a
scan counts and levels them (:func:`.scan.recount`, :func:`.scan.settle`): occurrences and dates from
their sources (an occurrence another tool counted without a source stays with its item), the level
from their sources and where the items were encoded, the recommended level by :mod:`.promotion`.
An item that does not read as one (:mod:`.item`) is refused, named, and left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Sequence

from ..errors import LadderError
from .item import TrackerItem, name_of, number_of
from .keywords import keywords_of
from .model import Sighting
from .scan import recount, scan_order, settle, start_item, stored_sighting
from .topics import Topic

__all__ = ["Correction", "merge", "split"]

_NAMED = 30  # the most item ids an error lists


@dataclass(frozen=True)
class Correction:
    """What a correction did: the items it left (as they now read), those it removed, the sources it moved."""

    items: tuple[TrackerItem, ...]
    removed: tuple[str, ...] = ()
    created: tuple[str, ...] = ()
    moved: int = 0


def _sources(item: dict[str, Any]) -> list[Any]:
    sources: list[Any] = item.setdefault("ladder", {}).setdefault("sources", [])
    return sources


def _counted(item: dict[str, Any]) -> list[dict[str, Any]]:
    """An item's counted sources as a listing numbers them (the entries that are objects, in order)."""
    return [s for s in _sources(item) if isinstance(s, dict)]


def _unbacked(item: dict[str, Any]) -> int:
    """The occurrences of an item no source of it stands for (counted by another tool)."""
    return max(0, number_of(item, "occurrences") - len(_counted(item)))


def _find(items: Sequence[Any], item_id: str) -> dict[str, Any]:
    """The item ``item_id``, read (an item that does not read as one: its :class:`.item.ItemError`)."""
    for raw in items:
        if isinstance(raw, dict) and raw.get("id") == item_id:
            TrackerItem.read(raw)
            return raw
    names = [name_of(i) for i in items]
    shown = ", ".join(names[:_NAMED]) + (f" and {len(names) - _NAMED} more" if len(names) > _NAMED else "")
    raise LadderError(f"no item {item_id!r} in the feedback state; its items: {shown or 'none'}")


def _encoding(item: dict[str, Any]) -> Sighting:
    """Where an item is encoded now, as a sighting of it (an enforced check's topic kept with a level 4)."""
    level = number_of(item, "current_level")
    topic = item.get("ladder", {}).get("topic") if level >= 4 else None
    return Sighting(level, str(item["topic"]), str(item.get("current_location") or ""), "current",
                    f"current:{item['id']}", topic=topic if isinstance(topic, str) else None)


def _seen(*items: dict[str, Any]) -> list[Sighting]:
    """The sightings the sources of ``items`` were, in the order a scan finds them."""
    found = [s for item in items for s in map(stored_sighting, _counted(item)) if s is not None]
    return sorted(found, key=scan_order)


def _dates(keep: dict[str, Any], group: Sequence[dict[str, Any]]) -> None:
    """The dates of the occurrences no source stands for: the span of the items that have some."""
    for key, pick in (("first_seen", min), ("last_seen", max)):
        days = [str(i[key]) for i in group if _unbacked(i) and isinstance(i.get(key), str) and i[key]]
        if days:
            keep[key] = pick(days)


def _absorb(items: list[Any], keep: dict[str, Any], others: Sequence[dict[str, Any]]) -> int:
    """The sources of ``others`` moved into ``keep``, and ``others`` removed: how many counted sources moved (as a
    listing numbers them; an entry that is no source moves along, uncounted)."""
    moved = [src for other in others for src in _sources(other)]
    _sources(keep).extend(moved)
    items[:] = [i for i in items if not any(i is other for other in others)]
    return sum(isinstance(src, dict) for src in moved)


def merge(items: list[Any], keep_id: str, other_ids: Sequence[str], topics: Sequence[Topic],
          today: date) -> Correction:
    """The feedback of ``other_ids`` is the same as ``keep_id``'s: their sources move into it, they are
    removed, and it is counted and levelled again (its id and topic stay)."""
    others_named = list(dict.fromkeys(other_ids))
    if keep_id in others_named:
        raise LadderError(f"cannot merge item {keep_id!r} into itself: name the items to merge into it after it")
    keep = _find(items, keep_id)
    others = [_find(items, name) for name in others_named]
    group = [keep, *others]
    unbacked = sum(map(_unbacked, group))
    seen = _seen(*group) + [_encoding(item) for item in group]  # where they are encoded counts on a tie last
    _dates(keep, group)
    moved = _absorb(items, keep, others)
    recount(keep, unbacked)
    settle(items, [(keep, seen)], topics, today)
    return Correction((TrackerItem.read(keep),), removed=tuple(others_named), moved=moved)


def _numbers(given: Sequence[str], item_id: str, count: int) -> list[int]:
    """The 1-based source numbers ``given`` (each once, in order), or a :class:`LadderError` naming the wrong one;
    every source of the item is an error too (a split leaves at least one)."""
    numbers: list[int] = []
    for text in given:
        digits = str(text).strip()
        number = int(digits) if digits.isdecimal() and len(digits) <= 9 else 0  # isdigit: also '²', int refuses
        if not 1 <= number <= count:
            has = f"sources 1-{count}" if count > 1 else "source 1" if count else "no sources"
            raise LadderError(f"item {item_id!r} has no source {text!r}: it has {has} "
                              f"(ladder feedback list --sources numbers them)")
        numbers.append(number)
    if len(set(numbers)) == count:
        raise LadderError(f"cannot split every source away from item {item_id!r} ({count}): "
                          "leave at least one in it, or name only those that are other feedback")
    return list(dict.fromkeys(numbers))


def _started(items: Sequence[Any], moved: Sequence[dict[str, Any]], named: str, today: date) -> dict[str, Any]:
    """The new item for ``moved`` (named ``named`` in an error), as a scan starts one for the first of them."""
    first = stored_sighting(moved[0])
    if first is None:
        raise LadderError(f"{named} does not read as feedback (no level, text or identity); name another source "
                          "first")
    day = min(first.when or today.isoformat(), today.isoformat())
    new = start_item(first, keywords_of(first.text, first.keywords, limit=None), items, day)
    new["ladder"]["sources"] = list(moved)
    return new


def _carve(item: dict[str, Any], moved: Sequence[dict[str, Any]]) -> list[Sighting]:
    """``moved`` taken out of ``item``'s sources; where the item is encoded now, as a sighting of what stays in
    it, unless that is where a moved source was found (nothing, then)."""
    item["ladder"]["sources"] = [s for s in _sources(item) if not any(s is m for m in moved)]
    places = {str(src.get("location") or "") for src in moved}
    return [] if str(item.get("current_location") or "") in places else [_encoding(item)]


def split(items: list[Any], item_id: str, given: Sequence[str], topics: Sequence[Topic],
          today: date) -> Correction:
    """The sources numbered ``given`` (1-based, as ``ladder feedback list --sources`` shows them) of
    ``item_id`` are other feedback: they move to a new item (its id made as a scan makes one, from the first
    moved source's text), and both are counted and levelled again."""
    item = _find(items, item_id)
    counted = _counted(item)
    numbers = _numbers(given, item_id, len(counted))
    moved = [counted[n - 1] for n in numbers]
    new = _started(items, moved, f"source {numbers[0]} of item {item_id!r}", today)
    unbacked = _unbacked(item)
    kept_at = _carve(item, moved)
    items.insert(next(n for n, i in enumerate(items) if i is item) + 1, new)
    recount(item, unbacked)
    recount(new)
    settle(items, [(item, _seen(item) + kept_at), (new, _seen(new))], topics, today, new=[new["id"]])
    return Correction((TrackerItem.read(item), TrackerItem.read(new)), created=(new["id"],), moved=len(moved))
