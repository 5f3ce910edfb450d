"""The journal source reads captures that keep no words: they still meet by what they are about, Chinese
ones too, topic-less ones by reason code; older captures with words are read as before; a capture marked for
the reviewer counts only once a verdict says it is dissatisfaction."""

from __future__ import annotations

import json
from datetime import date, datetime, timezone
from pathlib import Path

from ladder_plugins.agents.captures import append_capture, capture_entry, verdict_entry
from ladder_plugins.agents.classify import classify
from ladder_plugins.tracker.model import SourceContext
from ladder_plugins.tracker.scan import apply_sightings
from ladder_plugins.tracker.sources import journal

NOW = datetime(2026, 12, 1, 9, 30, tzinfo=timezone.utc)


class NoPlugins:
    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    return tmp_path


def _capture(root: Path, prompt: str, referent=True, store_prompt: bool = False) -> dict:
    entry = capture_entry(prompt, classify(prompt, lambda: referent), now=NOW, store_prompt=store_prompt)
    assert append_capture(root, entry) is not None
    return entry


def _sightings(root: Path, warnings: list | None = None):
    context = SourceContext(root=root, journal_dir=root / ".ladder" / "feedback",
                            warn=(warnings if warnings is not None else []).append)
    return journal.ladder_feedback_sources(context)


def _groups(root: Path) -> list[int]:
    items: list = []
    apply_sightings(items, _sightings(root), NoPlugins(), [], date(2026, 12, 2))
    return sorted(item["occurrences"] for item in items)


def test_captures_without_words_meet_by_topic_and_stay_apart_otherwise(tmp_path):
    root = _project(tmp_path)
    _capture(root, "你又把日志级别改成 DEBUG 了。")
    _capture(root, "不对，日志级别不能是 DEBUG。")
    _capture(root, "迁移文件你又手动修改了。")
    _capture(root, "You used a bare except again.")
    _capture(root, "Why is there a bare except in the parser? I told you.")
    assert _groups(root) == [1, 2, 2]
    assert "日志" not in (root / ".ladder" / "feedback" / "captures.jsonl").read_text(encoding="utf-8")


def test_topic_less_captures_meet_by_reason_code(tmp_path):
    root = _project(tmp_path)
    for prompt in ("你又在绕圈子。", "You keep doing it.", "Why did you do that?"):
        _capture(root, prompt)
    assert _groups(root) == [1, 2]


def test_a_capture_with_words_is_shown_by_its_words_and_carries_its_keys(tmp_path):
    root = _project(tmp_path)
    entry = _capture(root, "You used a bare except again.", store_prompt=True)
    [sighting] = _sightings(root)
    assert (sighting.text, sighting.keywords) == ("bare except", ("bare", "except", *entry["keys"]))


def test_an_older_capture_with_words_is_read_as_before(tmp_path):
    root = _project(tmp_path)
    folder = root / ".ladder" / "feedback"
    folder.mkdir(parents=True)
    old = {"id": "a" * 32, "when": "2026-05-01T10:00:00Z", "text": "bare except", "keywords": ["bare", "except"],
           "reasons": ["recurrence_complaint"], "hash": "0" * 64, "session_id": None}
    (folder / "captures.jsonl").write_text(json.dumps(old) + "\n", encoding="utf-8")
    [sighting] = _sightings(root)
    assert (sighting.text, sighting.keywords, sighting.identity) == ("bare except", ("bare", "except"), "capture:" + "a" * 32)
    assert "recurrence_complaint" in sighting.location


def test_a_capture_marked_for_the_reviewer_counts_only_after_a_verdict_says_so(tmp_path):
    root = _project(tmp_path)
    yes = _capture(root, "Why did you delete the tests?", referent=None)
    no = _capture(root, "Why did you pick asyncio here?", referent=None)
    waiting = _capture(root, "Why did you rename the module?", referent=None)
    assert yes["ask"] == no["ask"] == waiting["ask"] == "classify"
    warnings: list = []
    assert _sightings(root, warnings) == []
    append_capture(root, verdict_entry(yes["id"], True, reasons=["rhetorical_accountability"], now=NOW))
    append_capture(root, verdict_entry(no["id"], True, now=NOW))
    append_capture(root, verdict_entry(no["id"], False, now=NOW))  # the last verdict holds
    assert [s.identity for s in _sightings(root, warnings)] == [f"capture:{yes['id']}"]
    assert warnings == []  # a verdict is not an unreadable line
