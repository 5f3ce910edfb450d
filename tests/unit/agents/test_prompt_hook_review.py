"""The prompt hook's side of the learning loop: a capture leaves a review job and starts the review (without
waiting for it), the applicable lessons published before the prompt was handled are given with the block, all
of it within the block's budget."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ladder_plugins.agents import review_queue
from ladder_plugins.agents.prompt_hook import run
from ladder_plugins.lessons.store import Draft, publish
from ladder_plugins.rules_block.block import Section, render_block

NOW = datetime(2026, 11, 2, 12, tzinfo=timezone.utc)


@pytest.fixture
def started(monkeypatch):
    calls: list[Path] = []
    monkeypatch.setattr(review_queue, "start_review", lambda root, environ=None, history_dir="": calls.append(root))
    return calls


def _project(tmp_path: Path, toml: str = "") -> Path:
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text(f"[tool.ladder]\n{toml}", encoding="utf-8")
    return root


def _ask(root: Path, prompt: str, now: datetime = NOW) -> str:
    payload = {"session_id": "s", "transcript_path": None, "cwd": str(root), "hook_event_name": "UserPromptSubmit",
               "prompt": prompt}
    answer = run(json.dumps(payload).encode(), {}, now)
    return json.loads(answer)["hookSpecificOutput"]["additionalContext"] if answer else ""


def test_a_capture_writes_its_review_job_and_starts_the_review(tmp_path, started):
    root = _project(tmp_path)
    _ask(root, "You used a bare except again, I already told you.")
    [job_file] = review_queue.reviews_dir(root, ".ladder").glob("*.json")
    job = json.loads(job_file.read_text(encoding="utf-8"))
    assert job["complaint"] == "You used a bare except again, I already told you." and len(job["hash"]) == 64
    assert started == [root]


def test_review_false_captures_without_a_job_or_a_review(tmp_path, started):
    root = _project(tmp_path, "[tool.ladder.feedback]\nreview = false\n")
    assert "recorded this prompt" in _ask(root, "You used a bare except again, I already told you.")
    assert not review_queue.reviews_dir(root, ".ladder").exists() and started == []


def _lesson(root: Path, published: str) -> None:
    publish(root, ".ladder", Draft("bare-except", "reviewer", "Minor", "Never a bare except", "Name the class.",
                                   "Search the diff for 'except:'.", ("bare", "except")), published)


def test_a_lesson_published_after_the_prompt_was_handled_reaches_only_later_prompts(tmp_path, started):
    root = _project(tmp_path)
    _lesson(root, "2026-11-02T12:00:01Z")
    assert "Never a bare except" not in _ask(root, "Is a bare except fine in the loader?")
    assert "Never a bare except" in _ask(root, "Is a bare except fine in the loader?",
                                         datetime(2026, 11, 2, 12, 0, 1, tzinfo=timezone.utc))
    assert "Never a bare except" not in _ask(root, "Rename the loader module.",
                                             datetime(2026, 11, 3, tzinfo=timezone.utc))


def test_the_lessons_and_a_full_block_share_the_blocks_budget(tmp_path, started):
    root = _project(tmp_path)
    _lesson(root, "2026-11-01T00:00:00Z")
    sections = [Section(f"k{n}", "Major", f"Rule {n}", (f"Fact {n}: " + "say it plainly. " * 20,), 3)
                for n in range(30)]
    (root / ".agent" / "rules").mkdir(parents=True)
    (root / ".agent" / "rules" / "feedback-loop.md").write_text(render_block(sections).text, encoding="utf-8")
    context = _ask(root, "Is a bare except fine in the loader?")
    assert context.startswith("Lessons recorded by ladder-plugins") and "Never a bare except" in context
    assert "### Major: Rule 0 (3\u00d7)" in context and len(context.encode("utf-8")) <= 6144 + 200
