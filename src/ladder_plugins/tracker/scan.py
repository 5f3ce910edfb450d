"""The tracker: sightings from every source, matched into the state's items, counted once, promoted.

A scan asks every source plugin (each on its own: one that fails is said and
skipped), then, in a fixed order, puts each sighting into the item it matches (a
plugin matcher first, the matcher of :mod:`.similarity` otherwise: the same topic, or
close enough in words, compared with the item's topic line and every text counted in it)
or starts an item. A sighting whose identity an item already holds changes nothing: scanning twice
counts nothing twice. Occurrences are the distinct places the feedback was given or
written down (levels 1-3, a hook that blocks, and ladder's own hotspots); an enforced
check (level 4) only says where an item is encoded and never starts one. The levels follow the rule of
``docs/explanation/ladder.md``, as :mod:`.promotion` decides it: 1 occurrence → level 1, 2 → level 2, 3 or more →
level 4 where a known check exists for the topic, else level 3; ``promoted`` is
``current_level >= recommended_level``. The scan changes the state's dicts in place (so
unknown keys survive); it updates only those that read as items (:mod:`.item`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Iterable, Optional, Sequence

from .item import name_of, number_of, readable
from .keywords import MAX_KEYWORDS, kebab_id, keywords_of, topic_of
from .model import Sighting, SourceContext
from .promotion import is_promoted, recommended_level
from .similarity import Matcher
from .topics import Topic

__all__ = ["Scan", "scan_sources", "apply_sightings", "topic_for", "start_item", "recount",
           "stored_sighting", "settle", "scan_order"]

_EXCERPT = 200


@dataclass
class Scan:
    """What one scan did to the state."""

    new_items: list[str] = field(default_factory=list)
    new_occurrences: int = 0
    sightings: int = 0
    untrusted: list[str] = field(default_factory=list)


def _valid_sighting(found: Any) -> bool:
    return (isinstance(found, Sighting) and found.level in (1, 2, 3, 4) and isinstance(found.text, str)
            and bool(found.text.strip()) and isinstance(found.identity, str) and bool(found.identity))


def scan_sources(pm: Any, context: SourceContext) -> list[Sighting]:
    """Every source's sightings, each source asked on its own; a source that raises is said once and skipped."""
    found: list[Sighting] = []
    for impl in pm.hook.ladder_feedback_sources.get_hookimpls():
        try:
            given = list(impl.function(context=context) or ())
        except Exception as exc:  # a plugin's bug must not stop the scan
            context.warn(f"feedback source {impl.plugin_name} failed ({exc.__class__.__name__}: {exc}); skipped")
            continue
        bad = [s for s in given if not _valid_sighting(s)]
        if bad:
            context.warn(f"feedback source {impl.plugin_name} gave {len(bad)} malformed sightings; skipped")
        found += [s for s in given if _valid_sighting(s)]
    return sorted(found, key=lambda s: (s.level, s.source, s.identity))


def topic_for(texts: Sequence[str], topics: Sequence[Topic], matcher: Optional[Matcher] = None) -> Optional[Topic]:
    """The row of the topic table most of ``texts`` are about (an item's topic line first, then the texts counted
    in it), by :meth:`.similarity.Matcher.topic`; of topics as many texts are about, the one the earliest text is
    about; ``None`` when none is. One aside in an item of many texts does not pick its suggestion."""
    matcher = matcher or Matcher(topics)
    counted = Counter(t for t in map(matcher.topic, texts) if t is not None)  # in the order first met
    if not counted:
        return None
    best = max(counted, key=counted.__getitem__)  # the first of the most met: max keeps the first of equals
    return next((t for t in topics if t.id == best), None)


def _texts(item: dict[str, Any]) -> list[str]:
    """What an item is known by: its topic line, then the words of every source counted in it."""
    said = [str(src.get("text")) for src in _sources(item) if isinstance(src, dict) and src.get("text")]
    return list(dict.fromkeys([str(item.get("topic") or ""), *said]))


class _Apply:
    """One scan's changes to the items (see the module docstring)."""

    def __init__(self, items: list[Any], pm: Any, topics: Sequence[Topic], today: date) -> None:
        self.items, self.pm, self.topics, self.today = items, pm, topics, today.isoformat()
        self.matcher = Matcher(topics)
        self.trusted: list[dict[str, Any]] = [i for i in items if readable(i)]
        self.untrusted = {id(i) for i in items if not readable(i)}
        self.scan = Scan(untrusted=[name_of(i) for i in items if id(i) in self.untrusted])
        self.held = _identities([i for i in items if isinstance(i, dict)])  # a malformed item's count stays its own
        self.seen: dict[int, list[Sighting]] = {}

    def add(self, sighting: Sighting) -> None:
        self.scan.sightings += 1
        item = self.held.get(sighting.identity)
        if item is not None and id(item) in self.untrusted:
            return  # counted by an item the tracker does not update: not counted again elsewhere
        if item is None:
            item = self._matched(sighting)
        if item is None:
            return
        self.seen.setdefault(id(item), []).append(sighting)
        if sighting.identity not in self.held and _counts(sighting):
            self._count(item, sighting)

    def _matched(self, sighting: Sighting) -> Optional[dict[str, Any]]:
        keywords = keywords_of(sighting.text, sighting.keywords, limit=None)
        answer = self.pm.hook.ladder_feedback_match(sighting=sighting, keywords=list(keywords),
                                                    items=[dict(i) for i in self.trusted])
        if isinstance(answer, str) and answer:
            return next((i for i in self.trusted if i["id"] == answer), None)
        best = self._closest(sighting) if answer is None else None
        if best is not None:
            return best
        if not _starts_items(sighting):
            return None  # an enforced check says where an item is encoded; it starts none
        return self._new_item(sighting, keywords)

    def _closest(self, sighting: Sighting) -> Optional[dict[str, Any]]:
        """The item ``sighting`` is the same feedback as (the highest score, then the first item), if any."""
        scored = [(self.matcher.score(sighting.text, _texts(item), sighting.topic), -index)
                  for index, item in enumerate(self.trusted)]
        best = max(scored, default=(0.0, 0))
        return self.trusted[-best[1]] if best[0] > 0 else None

    def _new_item(self, sighting: Sighting, keywords: Sequence[str]) -> dict[str, Any]:
        item = start_item(sighting, keywords, self.items, self._when(sighting))
        self.items.append(item)
        self.trusted.append(item)
        self.scan.new_items.append(item["id"])
        return item

    def _when(self, sighting: Sighting) -> str:
        """The day a sighting was written (its source's date; a day after today, as a clock ahead of the scan's
        gives it, is today), or today when its source cannot say."""
        return min(sighting.when or self.today, self.today)

    def _count(self, item: dict[str, Any], sighting: Sighting) -> None:
        when = self._when(sighting)
        _tally(item, when)
        counted = {"identity": sighting.identity, "level": sighting.level, "source": sighting.source,
                   "location": sighting.location, "when": when, "text": sighting.text[:_EXCERPT]}
        item.setdefault("ladder", {}).setdefault("sources", []).append(
            {**counted, "dated": sighting.dated} if sighting.dated else counted)
        self.held[sighting.identity] = item
        self.scan.new_occurrences += 1

    def finish(self) -> Scan:
        for item in self.trusted:
            self._levels(item, self.seen.get(id(item), []))
        return self.scan

    def _levels(self, item: dict[str, Any], seen: list[Sighting]) -> None:
        """Where the item is encoded now, what it should be, and since when it needs promotion."""
        extra = item.setdefault("ladder", {})
        was_promoted = item.get("promoted") is True and item["id"] not in self.scan.new_items
        _locate(item, extra, seen)
        topic = self._topic(item, seen)
        item["recommended_level"] = recommended_level(number_of(item, "occurrences"), topic)
        item["promoted"] = is_promoted(number_of(item, "current_level"), item["recommended_level"])
        _mark(extra, "topic", topic.id if topic is not None else None)
        # due since the occurrence that made it due (its source's day), or today when it was promoted before
        # this scan and a weaker encoding made it due now
        since = self.today if was_promoted else min(str(item.get("last_seen") or self.today), self.today)
        _mark(extra, "due_since", None if item["promoted"] else extra.get("due_since", since))

    def _topic(self, item: dict[str, Any], seen: list[Sighting]) -> Optional[Topic]:
        """What an item is about: the topic a check found in it enforces, else its texts' (topic line first)."""
        named = next((s.topic for s in seen if s.topic), None)
        if named is not None:
            return next((t for t in self.topics if t.id == named), None)
        return topic_for(_texts(item), self.topics, self.matcher)


def start_item(sighting: Sighting, keywords: Sequence[str], items: Sequence[Any], when: str) -> dict[str, Any]:
    """A new item for ``sighting`` (not yet counted), as a scan starts one: its id from ``keywords`` (the text's
    keywords, as :func:`.keywords.keywords_of` gives them), unique among ``items``; its topic line from the
    text."""
    named = [str(i.get("id")) for i in items if isinstance(i, dict)]
    return {"id": kebab_id(keywords, named), "topic": topic_of(sighting.text),
            "keywords": list(keywords[:MAX_KEYWORDS]), "occurrences": 0, "first_seen": when, "last_seen": when,
            "current_level": sighting.level, "current_location": sighting.location,
            "recommended_level": 1, "promoted": True, "ladder": {"sources": []}}


def _tally(item: dict[str, Any], when: Optional[str]) -> None:
    """One occurrence more, on the day ``when`` (no day: the dates stay)."""
    item["occurrences"] = number_of(item, "occurrences") + 1
    if when:
        item["first_seen"] = min(str(item.get("first_seen") or when), when)
        item["last_seen"] = max(str(item.get("last_seen") or when), when)


def recount(item: dict[str, Any], unbacked: int = 0) -> None:
    """An item's ``occurrences``, ``first_seen`` and ``last_seen`` counted again from its sources as a scan
    counts them, one occurrence on its day each, after ``unbacked`` occurrences no source of it stands for
    (another tool counted them; their days are the item's dates as stored, kept only while there are some)."""
    dates = ("first_seen", "last_seen")
    item["occurrences"] = unbacked
    if not unbacked:
        item.update({key: None for key in dates if key in item})  # counted again below, each in its place
    for src in _sources(item):
        if isinstance(src, dict):
            _tally(item, _day(src))
    for key in dates:
        if key in item and item[key] is None:
            del item[key]


def _day(src: dict[str, Any]) -> Optional[str]:
    when = src.get("when")
    return when if isinstance(when, str) and when else None


def stored_sighting(src: Any) -> Optional[Sighting]:
    """The sighting a counted source (as an item keeps it under ``ladder.sources``) was, or ``None`` when it
    does not read as one."""
    if not _shaped(src):
        return None
    found = Sighting(src["level"], src["text"], str(src.get("location") or ""), str(src.get("source") or ""),
                     src["identity"], _day(src), dated=str(src.get("dated") or ""))
    return found if _valid_sighting(found) else None


def _shaped(src: Any) -> bool:
    return isinstance(src, dict) and all(isinstance(src.get(key), kind)
                                         for key, kind in (("level", int), ("text", str), ("identity", str)))


def settle(items: list[Any], changed: Sequence[tuple[dict[str, Any], list[Sighting]]], topics: Sequence[Topic],
           today: date, new: Sequence[str] = ()) -> None:
    """Where each item of ``changed`` (items of ``items``, each with the sightings of it) is encoded, its
    recommended level, ``promoted`` and ``due_since``, decided as a scan decides them at its end; the items
    named in ``new`` as the items a scan starts."""
    work = _Apply(items, None, topics, today)
    work.scan.new_items = list(new)
    for item, seen in changed:
        work._levels(item, seen)


def _locate(item: dict[str, Any], extra: dict[str, Any], seen: list[Sighting]) -> None:
    """The strongest level this scan found the item at (as stored when it found nothing of it; a level a
    file written elsewhere gives is never lowered by a weaker sighting)."""
    if not seen:
        return
    strongest = max(seen, key=lambda s: s.level)
    if extra.get("located") or strongest.level >= number_of(item, "current_level"):
        item["current_level"], item["current_location"] = strongest.level, strongest.location
        extra["located"] = True


def _mark(extra: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        extra.pop(key, None)
    else:
        extra[key] = value


def _identities(items: Sequence[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    """Each counted source's identity, and the item holding it."""
    return {src["identity"]: item for item in items for src in _sources(item)
            if isinstance(src, dict) and isinstance(src.get("identity"), str)}


def _sources(item: dict[str, Any]) -> list[Any]:
    extra = item.get("ladder")
    sources = extra.get("sources") if isinstance(extra, dict) else None
    return sources if isinstance(sources, list) else []


def _starts_items(sighting: Sighting) -> bool:
    """Whether a sighting may start an item: feedback given or written down, one of ladder's hotspots, or a hook
    (one that blocks is level 4, and still a place the feedback was encoded in by hand)."""
    return sighting.level < 4 or sighting.source in ("history", "hooks")


def _counts(sighting: Sighting) -> bool:
    """Whether a sighting is an occurrence: feedback given or written down, or one of ladder's hotspots."""
    return _starts_items(sighting)  # a pattern ("history-pattern") sums hotspots: not counted again


def scan_order(sighting: Sighting) -> tuple[bool, int, str, str]:
    """The order a scan puts sightings in (see :func:`apply_sightings`): where an item is encoded is the first
    of its strongest sightings in it."""
    return not _starts_items(sighting), sighting.level, sighting.source, sighting.identity


def apply_sightings(items: list[Any], sightings: Iterable[Sighting], pm: Any, topics: Sequence[Topic],
                    today: date) -> Scan:
    """Put ``sightings`` into ``items`` (the state's list, changed in place). Those that may start an item go
    first, the enforced checks (which only say where an item is encoded) after them: so a first scan and the
    next one find the same items for each check, and a second scan changes nothing."""
    work = _Apply(items, pm, topics, today)
    for sighting in sorted(sightings, key=scan_order):
        work.add(sighting)
    return work.finish()


def scan_context(settings: Any, warn: Callable[[str], None], memory_dir: Optional[str] = None) -> SourceContext:
    """What the sources get for this project."""
    from .sources.journal import journal_dir
    from .sources.memory import find_memory_dir

    memory = find_memory_dir(settings.root, memory_dir or settings.feedback.memory_dir)
    return SourceContext(settings.root, memory, warn, journal_dir=journal_dir(settings.root, settings.history_dir),
                         settings=settings)
