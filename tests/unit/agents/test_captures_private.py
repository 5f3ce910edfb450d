"""What a capture keeps: reason codes, keys and hashes only, unless ``store_prompts`` is set; a capture the
classifier is not sure of is marked for the reviewer; the reviewer's verdict has its own line."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

from ladder_plugins.agents.captures import ASK, ASK_REVIEWER, capture_entry, verdict_entry
from ladder_plugins.agents.classify import Classification, classify
from ladder_plugins.tracker.keywords import keyword_key

NOW = datetime(2026, 12, 1, 9, 30, tzinfo=timezone.utc)
PROMPT = "You used a bare except again, I already told you. 你写的测试根本没有断言。"


def _entry(prompt: str = PROMPT, store_prompt: bool = False, found=None) -> dict:
    found = found or classify(prompt, lambda: True)
    return capture_entry(prompt, found, session_id="s-1", now=NOW, store_prompt=store_prompt)


def test_without_store_prompts_no_word_of_the_prompt_is_kept():
    entry = _entry()
    line = json.dumps(entry, ensure_ascii=False)
    assert [w for w in ("bare", "except", "测试", "断言", "already") if w in line] == []
    keys = [keyword_key(w) for w in ("bare", "except", "测试", "断言")]
    assert (entry["keys"], entry["keywords"], entry["text"]) == (keys, [], " ".join("#" + k for k in keys))
    assert entry["hash"] == hashlib.sha256(PROMPT.encode()).hexdigest() and "prompt" not in entry


def test_with_store_prompts_the_words_and_the_prompt_are_kept():
    entry = _entry(store_prompt=True)
    assert entry["keywords"] == ["bare", "except", "测试", "断言"] and entry["text"] == "bare except 测试 断言"
    assert entry["prompt"] == PROMPT and entry["keys"] == [keyword_key(k) for k in entry["keywords"]]


def test_a_capture_without_a_topic_is_keyed_by_its_reason_codes():
    first, second = _entry("你又在绕圈子。"), _entry("You did it again.")
    assert first["keys"] == second["keys"] == [] and first["text"] == second["text"]
    assert first["text"] != _entry("Why did you do that?")["text"]


def test_a_capture_the_classifier_is_not_sure_of_asks_the_reviewer():
    unsure = _entry("Why did you delete the tests?", found=classify("Why did you delete the tests?", lambda: None))
    from_plugin = _entry("hmm", found=Classification((ASK_REVIEWER,), ()))
    assert (unsure["ask"], from_plugin["ask"], from_plugin["reasons"]) == (ASK, ASK, [])
    assert "ask" not in _entry()


def test_a_verdict_names_the_capture_and_carries_only_words_of_code():
    verdict = verdict_entry("abc", True, reasons=["negative_evaluation", "not a code", 7], now=NOW)
    assert verdict == {"verdict": "abc", "when": "2026-12-01T09:30:00Z", "dissatisfied": True,
                       "reasons": ["negative_evaluation"]}
