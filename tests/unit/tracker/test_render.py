"""``tracker.render``: ``ladder feedback report`` as the seed's Markdown analysis, as text and as JSON, from
items read in the test; what came from the state file is escaped for each kind of output."""

from __future__ import annotations

import json

from ladder_plugins.tracker.item import Tracked, TrackerItem
from ladder_plugins.tracker.render import report_json, report_markdown, report_text
from ladder_plugins.tracker.topics import shipped_topics

TOPICS = shipped_topics()

#: due, four occurrences, its topic's check known: level 1 → 4 (the most urgent)
EXCEPT = TrackerItem(id="bare-except", topic="No bare except", keywords=("bare", "except"), occurrences=4,
                     current_level=1, current_location="CLAUDE.md", recommended_level=4, first_seen="2026-04-01",
                     last_seen="2026-04-09", topic_id="bare-except", due_since="2026-04-05",
                     sources=({"level": 1, "source": "notes", "location": "note 1", "when": "2026-04-01",
                               "identity": "note:1", "text": "t"},))
#: due, two occurrences, no topic: level 1 → 2
NAMES = TrackerItem(id="names", topic="Use *clear* names | please", occurrences=2, recommended_level=2,
                    first_seen="2026-04-02", last_seen="2026-04-02")
#: encoded where it should be
TESTS = TrackerItem(id="tests", topic="Write tests", occurrences=3, current_level=4, current_location="pytest",
                    recommended_level=4, promoted=True)

TRACKED = Tracked((NAMES, EXCEPT, TESTS), malformed=("broken",))


def test_json_is_the_versioned_contract():
    data = json.loads(report_json(TRACKED, TOPICS, ".claude/state.json"))
    assert (data["schema"], data["version"], data["state"]) == ("ladder-feedback", 1, ".claude/state.json")
    assert (data["items_tracked"], data["promotion_required"], data["untrusted"]) == (3, 2, 1)
    assert data["most_urgent"] == "bare-except"
    assert [i["id"] for i in data["items"]] == ["names", "bare-except", "tests"]


def test_json_item_carries_its_suggestion_and_sources():
    items = {i["id"]: i for i in json.loads(report_json(TRACKED, TOPICS, "s"))["items"]}
    hot = items["bare-except"]
    assert hot["needs_promotion"] is True and hot["due_since"] == "2026-04-05"
    assert hot["suggestion"]["topic"] == "bare-except"
    assert hot["suggestion"]["snippet"] and hot["suggestion"]["file"]
    assert hot["sources"] == [{"level": 1, "source": "notes", "location": "note 1", "when": "2026-04-01"}]
    assert items["names"]["suggestion"] == {"action": items["names"]["suggestion"]["action"], "check": None,
                                            "tool": None, "file": None, "format": None, "snippet": None,
                                            "topic": None}
    assert items["names"]["suggestion"]["action"].startswith("Write it down where agents and people read it")
    assert items["tests"]["suggestion"] is None and items["tests"]["needs_promotion"] is False


def test_markdown_lists_items_to_promote_then_the_encoded_ones():
    text = report_markdown(TRACKED, TOPICS, ".claude/state.json")
    lines = text.splitlines()
    assert lines[:5] == ["## Feedback Encoding Ladder Analysis", "", "### State file: .claude/state.json",
                         "- Feedback items tracked: 3", "- Promotion required: 2"]
    assert '#### 1. "Use \\*clear\\* names \\| please" (id: names)' in lines
    assert '#### 2. "No bare except" (id: bare-except)' in lines
    assert "- Current level: Level 1 (Review Comment) — recorded in CLAUDE.md" in lines
    assert "- Recommended level: Level 4 (Linter/Test)" in lines
    assert "- Occurrences: 4 (2026-04-01 \\~ 2026-04-09)" in lines
    assert "- Occurrences: 2 (2026-04-02)" in lines
    assert '- "Write tests" → ' in text and "(pytest) ✅" in text
    assert lines[-1] == ('- Most urgent promotion: "No bare except" (id: bare-except), Level 1 (Review Comment) '
                         '→ Level 4 (Linter/Test)')
    assert text.endswith("\n")


def test_markdown_fences_the_snippet_of_the_topic():
    text = report_markdown(Tracked((EXCEPT,)), TOPICS, "s")
    topic = next(t for t in TOPICS if t.id == "bare-except")
    assert f"  ```{topic.format}" in text.splitlines()
    assert "\n".join(f"  {line}" for line in topic.snippet.rstrip("\n").splitlines()) in text


def test_markdown_with_nothing_tracked_says_none():
    lines = report_markdown(Tracked(()), TOPICS, "s").splitlines()
    assert lines[lines.index("### Items Requiring Promotion") + 2] == "none"
    assert lines[lines.index("### Already Appropriately Encoded") + 2] == "none"
    assert lines[-1] == "- Most urgent promotion: none"
    assert "- 0 total feedback clusters" in lines


def test_text_puts_the_most_urgent_first_and_cleans_values():
    hostile = TrackerItem(id="x\x1b[2J", topic="clear\u202escreen", occurrences=1, promoted=True)
    lines = report_text(Tracked((TESTS, NAMES, EXCEPT, hostile)), TOPICS, "state.json").splitlines()
    assert lines[0] == "feedback ladder: 4 items in state.json, 2 to promote"
    assert lines[1] == "  [promote] bare-except: No bare except"
    assert lines[2] == ("      level 1 (Review Comment) at CLAUDE.md; 4 occurrences (2026-04-01 ~ 2026-04-09); "
                        "recommended level 4")
    assert lines[3].startswith("      do: ") and lines[3].endswith(" (pyproject.toml)")
    assert lines[4] == "  [promote] names: Use *clear* names | please"
    assert "  [ok] x: clearscreen" in lines
    assert all("\x1b" not in line and "\u202e" not in line for line in lines)
