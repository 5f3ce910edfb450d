"""The prompt hook's classifier: reason codes in English and Chinese, operation turns skipped, the referent rule,
the transcript read from its end only, and precision and recall on the labelled prompts kept above their floors.

Floors, measured on ``tests/data/prompts.tsv`` when they were set (202 prompts, 111 dissatisfied): all prompts
precision 0.98, recall 0.92 (floors 0.95 and 0.90); English 1.00 / 0.91, Chinese 0.95 / 0.95; the held-out
batch, which the patterns were never tuned to (34 prompts), precision 0.90, recall 0.50 (floors 0.85 and 0.45):
a word list misses what is said in other words, which is what classifier plugins are for. After the second
round of tuning on ``benchmarks/data/prompts.jsonl`` (this file's rows not looked at): all 0.98 / 0.95,
English 0.99 / 0.95, Chinese 0.97 / 0.97, the held-out batch 1.00 / 0.72.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

from ladder_plugins.agents.classify import (
    CHINESE, ENGLISH, PATTERNS, REASONS, TRANSCRIPT_TAIL, capture_keywords, classify, cleaned, is_operation_turn,
    matches, transcript_referent,
)

from tests.helpers.paths import DATA

PROMPTS = DATA / "prompts.tsv"
REFERENT = {"yes": True, "no": False, "none": None}


class Row(NamedTuple):
    dissatisfied: bool
    lang: str
    referent: Optional[bool]
    prompt: str
    held_out: bool


def labelled() -> list[Row]:
    """The labelled set (also what ``benchmarks/prompt_hook.py`` scores)."""
    rows, held = [], False
    for line in PROMPTS.read_text(encoding="utf-8").splitlines():
        held = held or line.startswith("# held out")
        if line and not line.startswith(("#", "label\t")):
            label, lang, referent, prompt = line.split("\t")
            rows.append(Row(label == "1", lang, REFERENT[referent], prompt, held))
    return rows


def _predicted(row: Row) -> bool:
    return classify(row.prompt, lambda: row.referent) is not None


def _scores(rows: list[Row]) -> tuple[float, float]:
    """(precision, recall) of the classifier on ``rows``."""
    counts = Counter((row.dissatisfied, _predicted(row)) for row in rows)
    hits = counts[True, True]
    return hits / (hits + counts[False, True]), hits / (hits + counts[True, False])


def test_the_labelled_set_is_big_enough_and_mixed():
    rows = labelled()
    by = {(lang, want) for _, want, lang in ((r.prompt, r.dissatisfied, r.lang) for r in rows)}
    assert len(rows) >= 60 and by == {("en", True), ("en", False), ("zh", True), ("zh", False)}


@pytest.mark.parametrize("subset, precision_floor, recall_floor", [
    ("all", 0.95, 0.90), ("en", 0.95, 0.88), ("zh", 0.90, 0.90), ("held_out", 0.85, 0.45),
])
def test_precision_and_recall_stay_above_their_floors(subset, precision_floor, recall_floor):
    rows = [r for r in labelled() if subset in ("all", r.lang) or (subset == "held_out" and r.held_out)]
    precision, recall = _scores(rows)
    assert (precision >= precision_floor, recall >= recall_floor) == (True, True), (precision, recall)


@pytest.mark.parametrize("prompt, reasons", [
    ("You used a bare except again.", ("recurrence_complaint",)),
    ("That's wrong, it must return None.", ("negative_evaluation",)),
    ("That's not what I asked: it must return None.", ("explicit_correction",)),
    ("No, use pathlib instead.", ("explicit_correction",)),
    ("I already told you not to touch the migrations.", ("restating_known",)),
    ("Why did you delete the tests?", ("rhetorical_accountability",)),
    ("You should have run the tests first.", ("expected_process_contrast",)),
    ("The tests are still failing.", ("recurrence_complaint",)),
    ("你又用了 bare except。", ("recurrence_complaint",)),
    ("不对，应该返回 None。", ("negative_evaluation",)),
    ("我说过不要改迁移文件。", ("restating_known",)),
    ("你为什么删掉了测试？", ("rhetorical_accountability",)),
    ("应该先跑测试再提交。", ("expected_process_contrast",)),
    ("不是这个意思，我要的是命令行参数。", ("explicit_correction",)),
])
def test_each_reason_code_is_named_in_both_languages(prompt, reasons):
    found = classify(prompt, lambda: True)
    assert found is not None and found.reasons == reasons


def test_every_reason_code_has_patterns_in_both_languages():
    assert {p.code for p in ENGLISH} == {p.code for p in CHINESE} == set(REASONS)


@pytest.mark.parametrize("prompt", [
    "continue", "ok", "OK!", "go on.", "yes", "thanks!", "Thank you", "let's go", "ok, continue", "yes please go on",
    "继续", "好的", "等等", "好的，继续", "继续吧", "嗯嗯", "👍", "", "   ",
])
def test_operation_turns_are_skipped_before_the_referent_is_asked(prompt):
    def referent():
        raise AssertionError("an operation turn must not read the transcript")

    assert is_operation_turn(prompt) and classify(prompt, referent) is None


@pytest.mark.parametrize("prompt", ["no", "不好", "好不好", "again", "stop", "👎", "ok but you broke it again"])
def test_words_that_are_not_moving_on_are_looked_at(prompt):
    assert not is_operation_turn(prompt)


def test_a_slash_command_is_skipped():
    assert classify("/compact you broke it again", lambda: True) is None


@pytest.mark.parametrize("prompt", ["This test is broken, that's wrong.", "Why did you use asyncio?",
                                    "You should have a look at the parser.", "这里不对，帮我看看。"])
def test_weak_patterns_need_an_assistant_turn(prompt):
    assert (classify(prompt, lambda: False), classify(prompt, lambda: True) is not None) == (None, True)


@pytest.mark.parametrize("prompt", ["I already told you: no prints.", "You did it again.", "You keep adding comments.",
                                    "For the third time, no lock files.", "我说过不要用 print。", "你又忘了类型注解。"])
def test_words_that_point_at_earlier_work_stand_alone(prompt):
    def referent():
        raise AssertionError("a standalone pattern does not need the transcript")

    assert classify(prompt, referent) is not None


def test_an_unknown_referent_leaves_a_weak_pattern_to_the_reviewer():
    found = classify("Why did you delete the tests?", lambda: None)
    assert found is not None and found.ask


@pytest.mark.parametrize("prompt", ["again, please run the tests", "Can you run it again?", "Thank you again!",
                                    "What's wrong with this regex?", "Why do you think the cache is slower?",
                                    "每次提交前都运行测试。", "这个方案对不对？", "这个函数行不行？", "没用过这个库。"])
def test_tricky_requests_are_not_dissatisfaction(prompt):
    assert classify(prompt, lambda: True) is None


def test_pasted_code_and_quotes_are_not_the_user_speaking():
    prompt = "Here is the log:\n```\nERROR: that's wrong, you broke it again\n```\n> why did you do that\nPlease look."
    assert (cleaned(prompt), classify(prompt, lambda: True)) == ("Here is the log: Please look.", None)


def test_a_long_prompt_is_read_at_its_head_and_tail():
    prompt = "You broke it. " + "filler words here. " * 2000 + "Why did you delete the tests?"
    assert matches(cleaned(prompt))[0] == ("negative_evaluation", "rhetorical_accountability")
    assert len(cleaned(prompt)) < 4100


def test_a_prompt_of_megabytes_is_read_at_its_ends_quickly():
    prompt = "You broke the build.\n" + "log line\n" * 600_000 + "Why did you delete the tests?"
    began = time.perf_counter()
    found = classify(prompt, lambda: True)
    assert found is not None and found.reasons == ("negative_evaluation", "rhetorical_accountability")
    assert time.perf_counter() - began < 0.3


def test_keywords_say_what_the_complaint_is_about():
    assert capture_keywords("You used a bare except AGAIN, I already told you!") == ("bare", "except")
    assert capture_keywords("又错了") == ()


def _unsound(pattern, text: str) -> bool:
    """A match without any of the pattern's triggers: the trigger test would have skipped a real match."""
    return re.search(pattern.source, text) is not None and not any(t in text for t in pattern.triggers)


def test_the_triggers_of_every_pattern_are_in_every_match():
    texts = [cleaned(row.prompt).lower() for row in labelled()] + ["no, stop it", "you did that again, ugh"]
    assert [(p.source[:40], t) for p in PATTERNS for t in texts if _unsound(p, t)] == []


# ---------------------------------------------------------------------------
# the transcript


def _jsonl(path: Path, *records: dict) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


USER = {"type": "user", "message": {"role": "user", "content": "hi"}}


@pytest.mark.parametrize("records, expected", [
    ([USER, {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "x"}]}}],
     True),
    ([{"type": "session_meta", "payload": {"cwd": "/p"}},
      {"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": []}}], True),
    ([USER, {"type": "summary", "summary": "s"}], False),
    ([{"type": "user", "message": {"role": "user", "content": 'say "role": "assistant" and "type":"assistant"'}}],
     False),
])
def test_an_assistant_turn_is_found_in_claude_and_codex_transcripts(tmp_path, records, expected):
    assert transcript_referent(_jsonl(tmp_path / "t.jsonl", *records)) is expected


def test_a_gemini_transcript_is_one_json_document(tmp_path):
    path = tmp_path / "session.json"
    path.write_text(json.dumps({"sessionId": "g", "messages": [{"type": "user", "content": [{"text": "hi"}]},
                                                               {"type": "gemini", "content": "hello"}]}, indent=2))
    assert transcript_referent(str(path)) is True


@pytest.mark.parametrize("path, expected", [(None, None), ("", None), (7, None), ("a\x00b", None)])
def test_no_usable_path_is_an_unknown_referent(path, expected):
    assert transcript_referent(path) is expected


def test_a_transcript_not_written_yet_is_the_first_turn_and_a_directory_is_unknown(tmp_path):
    assert (transcript_referent(str(tmp_path / "absent.jsonl")), transcript_referent(str(tmp_path))) == (False, None)


def test_a_fifo_is_not_opened_as_a_transcript(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "fifo")
    assert transcript_referent(str(tmp_path / "fifo")) is None


def test_only_the_end_of_a_huge_transcript_is_read(tmp_path):
    path = tmp_path / "huge.jsonl"
    assistant = json.dumps({"type": "assistant", "message": {"role": "assistant", "content": "early"}}) + "\n"
    user = json.dumps({"type": "user", "message": {"role": "user", "content": "x" * 1000}}) + "\n"
    path.write_text(assistant + user * 4000 + user[:500], encoding="utf-8")  # 4 MB, the last line half-written
    began = time.perf_counter()
    assert (transcript_referent(str(path)), path.stat().st_size > 60 * TRANSCRIPT_TAIL) == (False, True)
    assert time.perf_counter() - began < 0.5
