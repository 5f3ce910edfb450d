"""A tracker item read from the state once (``tracker/item.py``), and promotion decided in one place
(``tracker/promotion.py``): the recommended level, due, the suggestion, the most urgent, the overdue."""

from __future__ import annotations

from datetime import date

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.tracker.item import ItemError, TrackerItem, number_of, read_items, readable
from ladder_plugins.tracker.promotion import (
    Overdue, Suggestion, due, gap, is_promoted, most_urgent, overdue, recommended_level, suggestion,
)
from ladder_plugins.tracker.topics import shipped_topics

SEED_ITEM = {
    "id": "no-merge-without-tests", "topic": "Do not merge without tests", "keywords": ["test", "merge"],
    "occurrences": 3, "first_seen": "2026-04-10", "last_seen": "2026-04-16", "current_level": 1,
    "current_location": "MEMORY.md feedback entry", "recommended_level": 4, "promoted": False, "owner": "team-a",
    "ladder": {"sources": [{"identity": "notes:1", "level": 1}, "not a source"], "topic": "bare-except",
               "due_since": "2026-04-16", "severity": "critical"},
    "severity": "Major",
}


def _item(**fields: object) -> TrackerItem:
    return TrackerItem.read({"id": "an-item", "topic": "a topic", **fields})


# -- the item, read once ---------------------------------------------------------------------------------------

def test_a_seed_item_reads_into_typed_fields():
    item = TrackerItem.read(SEED_ITEM)
    assert (item.id, item.topic, item.keywords) == ("no-merge-without-tests", "Do not merge without tests",
                                                    ("test", "merge"))
    assert (item.occurrences, item.current_level, item.recommended_level, item.promoted) == (3, 1, 4, False)
    assert (item.first_seen, item.last_seen, item.current_location) == ("2026-04-10", "2026-04-16",
                                                                        "MEMORY.md feedback entry")
    assert (item.topic_id, item.due_since) == ("bare-except", "2026-04-16")
    assert item.severities == ("critical", "Major")  # the ladder extra's first
    assert item.sources == ({"identity": "notes:1", "level": 1},)  # what is not a source is left out


def test_missing_fields_read_as_a_scan_starts_an_item():
    item = _item()
    assert (item.occurrences, item.current_level, item.recommended_level, item.promoted) == (0, 1, 1, False)
    assert (item.keywords, item.sources, item.severities) == ((), (), ())
    assert (item.first_seen, item.last_seen, item.current_location, item.topic_id, item.due_since) == (None,) * 5


@pytest.mark.parametrize("promoted, read", [(True, True), (False, False), (1, False), ("yes", False), (None, False)])
def test_only_a_json_true_is_promoted(promoted, read):
    assert _item(promoted=promoted).promoted is read


@pytest.mark.parametrize("entry, item_id, key", [
    ({"id": "x", "topic": ""}, "x", "topic"),
    ({"topic": "no id"}, "?", "id"),
    ({"id": 7, "topic": "t"}, "7", "id"),
    ({"id": "x", "topic": "t", "occurrences": "3"}, "x", "occurrences"),
    ({"id": "x", "topic": "t", "current_level": True}, "x", "current_level"),
    ({"id": "x", "topic": "t", "recommended_level": -1}, "x", "recommended_level"),
    ({"id": "x", "topic": "t", "occurrences": 10**9 + 1}, "x", "occurrences"),
    ({"id": "x", "topic": "t", "keywords": "a, b"}, "x", "keywords"),
    ({"id": "x", "topic": "t", "ladder": []}, "x", "ladder"),
    ({"id": "x", "topic": "t", "ladder": {"sources": {}}}, "x", "ladder"),
])
def test_a_malformed_entry_is_an_error_naming_the_item_and_the_key(entry, item_id, key):
    with pytest.raises(ItemError) as caught:
        TrackerItem.read(entry)
    assert (caught.value.item_id, caught.value.key) == (item_id, key)
    assert isinstance(caught.value, LadderError)
    message = str(caught.value)
    assert f"item {item_id!r}" in message and f": {key} " in message and "kept as it is" in message
    assert not readable(entry)


def test_an_entry_that_is_not_an_object_is_said_so():
    with pytest.raises(ItemError, match=r"^an item of the feedback state is not an object \(found list\)"):
        TrackerItem.read(["id", "x"])


def test_the_first_wrong_field_is_the_one_named_in_the_seeds_order():
    with pytest.raises(ItemError) as caught:
        TrackerItem.read({"id": "x", "topic": "", "occurrences": "many"})
    assert caught.value.key == "topic"


def test_reading_a_state_keeps_the_items_and_names_the_malformed():
    tracked = read_items([SEED_ITEM, {"id": "bad", "topic": "t", "occurrences": -1}, "junk", {"topic": "t"}])
    assert [item.id for item in tracked.items] == ["no-merge-without-tests"]
    assert tracked.malformed == ("bad", "?", "?")


def test_a_count_is_read_the_same_way_by_the_scan_and_the_item():
    assert [number_of({}, key) for key in ("occurrences", "current_level", "recommended_level")] == [0, 1, 1]
    assert number_of(SEED_ITEM, "recommended_level") == TrackerItem.read(SEED_ITEM).recommended_level == 4


# -- promotion ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("occurrences, known_check, level", [
    (0, False, 1), (1, True, 1), (2, True, 2), (3, False, 3), (3, True, 4), (40, False, 3), (40, True, 4)])
def test_the_recommended_level_is_the_seeds_rule(occurrences, known_check, level):
    assert recommended_level(occurrences, shipped_topics()[0] if known_check else None) == level


@pytest.mark.parametrize("current, recommended, promoted", [(1, 1, True), (1, 2, False), (4, 3, True), (3, 4, False)])
def test_promoted_means_at_or_above_the_recommended_level(current, recommended, promoted):
    assert is_promoted(current, recommended) is promoted


def test_due_and_gap_read_the_item():
    item = _item(occurrences=5, current_level=1, recommended_level=4, promoted=False)
    assert due(item) and gap(item) == (3, 5)
    assert not due(_item(promoted=True))


def test_a_due_item_with_a_known_topic_at_level_4_gets_its_topics_check():
    topic = shipped_topics()[0]
    hint = suggestion(_item(recommended_level=4, ladder={"topic": topic.id}), shipped_topics())
    assert hint == Suggestion(topic.action, topic.check, topic.tool, topic.file, topic.format, topic.snippet, topic.id)


@pytest.mark.parametrize("level, start", [(1, "Write it down"), (2, "Write it down"), (3, "Encode it in the tools"),
                                          (4, "Add a check")])
def test_otherwise_the_ladders_generic_step_for_the_recommended_level(level, start):
    hint = suggestion(_item(recommended_level=level, ladder={"topic": "no-such-topic"}), shipped_topics())
    assert hint is not None and hint.action.startswith(start) and hint.check is hint.snippet is hint.topic is None


def test_an_item_that_is_not_due_gets_no_suggestion():
    assert suggestion(_item(promoted=True, recommended_level=4), shipped_topics()) is None


def test_the_most_urgent_is_furthest_below_then_most_seen_then_due_longest():
    def waiting(name: str, current: int, occurrences: int, since: str) -> TrackerItem:
        return TrackerItem.read({"id": name, "topic": name, "current_level": current, "recommended_level": 4,
                                 "occurrences": occurrences, "ladder": {"due_since": since}})

    far, seen, old, new = (waiting("far", 1, 3, "2026-05-01"), waiting("seen", 2, 9, "2026-05-01"),
                           waiting("old", 2, 3, "2026-01-01"), waiting("new", 2, 3, "2026-06-01"))
    assert most_urgent([seen, old, new, far]) == far
    assert most_urgent([new, old, seen]) == seen
    assert most_urgent([new, old]) == old
    assert most_urgent([_item(promoted=True)]) is None


def test_overdue_is_due_for_more_than_the_grace_days():
    late = _item(ladder={"due_since": "2026-01-01"})
    items = [late, _item(id="today", ladder={"due_since": "2026-01-11"}), _item(id="done", promoted=True,
             ladder={"due_since": "2026-01-01"}), _item(id="odd", ladder={"due_since": "soon"}), _item(id="never")]
    assert overdue(items, 3, date(2026, 1, 11)) == [Overdue("an-item", "a topic", "2026-01-01", 10)]
    assert overdue(items, 10, date(2026, 1, 11)) == []
    assert overdue(items, None, date(2030, 1, 1)) == []  # grace_days unset: the check is off
