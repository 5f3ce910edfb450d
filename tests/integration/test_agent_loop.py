"""The loop end to end, through the real commands: a history with hotspots and a tracker state, the rules
block synced within its budget, the prompt hook giving it to Claude Code as context, the edit hook saying
an edit left the hotspot unfixed, dissatisfied prompts captured, counted by the tracker, and the item they
make promoted into the block."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.helpers.reports import FINAL, ladder, three_edits

BLOCK = ".agent/rules/feedback-loop.md"


def _hook(project, name, payload):
    done = subprocess.run([sys.executable, "-m", "ladder_plugins", "hook", name], cwd=project, timeout=60,
                          input=json.dumps(payload).encode(), capture_output=True,
                          env={**os.environ, "LADDER_NOW": FINAL, "HOME": str(project.parent / "home")})
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    return json.loads(done.stdout or b"{}")


def _prompt(project, text, session="s1"):
    return _hook(project, "prompt", {"session_id": session, "transcript_path": None, "cwd": str(project),
                                     "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
                                     "prompt": text})


def _context(answer):
    return answer.get("hookSpecificOutput", {}).get("additionalContext", "")


def _synced_block(project, env):
    assert ladder(["feedback", "scan"], project, **env).returncode == 0
    synced = ladder(["rules", "sync"], project, **env)
    assert synced.returncode == 0, synced.stderr
    return (project / BLOCK).read_text(encoding="utf-8")


def _edit_left_unfixed(project):
    pricing = project / "src" / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text().replace("amount *= 0.88\n", "amount *= 0.87\n"))
    return _context(_hook(project, "post-edit", {"session_id": "s1", "cwd": str(project),
                                                 "hook_event_name": "PostToolUse", "tool_name": "Edit",
                                                 "tool_input": {"file_path": str(pricing)}}))


def _complain(project):
    for text in ("you did it again: a bare except in the parser", "I already told you not to write a bare except",
                 "for the third time, no bare except in the parser"):
        _prompt(project, text)
    return (project / ".ladder" / "feedback" / "captures.jsonl").read_text().splitlines()


def _item_about(project, word):
    state = json.loads((project / ".claude" / "feedback-ladder-state.json").read_text())
    [item] = [i for i in state["feedbacks"] if word in i["keywords"]]
    return item


def _keep_words_and_review_nothing(project):
    """This loop follows a complaint's words from capture to block, so captures keep them (``store_prompts``);
    no detached review runs beside it (the reviewer's loop is tests/integration/test_feedback_reviewer.py)."""
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(
        "[tool.ladder]\n", "[tool.ladder]\nfeedback = { store_prompts = true, review = false }\n", 1))


def test_the_loop_from_hotspot_to_rule_and_from_complaint_to_promotion(tmp_path):
    project = three_edits(tmp_path / "shop")
    _keep_words_and_review_nothing(project)
    env = {"LADDER_NOW": FINAL, "HOME": str(tmp_path / "home")}
    block = _synced_block(project, env)
    assert len(block.encode()) <= 6144 and "'price' in src/shop/pricing.py" in block
    assert "'price' in src/shop/pricing.py" in _context(_prompt(project, "add a coupon type for students"))
    told = _edit_left_unfixed(project)
    assert "'price'" in told and "before" in told
    assert len(_complain(project)) == 3
    scanned = ladder(["feedback", "scan"], project, **env)
    assert "3 new occurrences" in scanned.stdout, scanned.stdout
    item = _item_about(project, "bare")
    assert item["occurrences"] == 3 and not item["promoted"] and item["recommended_level"] == 4
    assert ladder(["rules", "check"], project, **env).returncode == 1  # the block is out of date now
    assert "bare except" in _synced_block(project, env).lower()
    assert ladder(["rules", "check"], project, **env).returncode == 0


def test_complaints_kept_without_their_words_never_reach_the_block_as_opaque_keys(tmp_path):
    """By default a capture keeps keys, not words; the item they make counts, but an agent is never shown
    ``#zofxhssjgh``-like text (the complaints reach the block as their lesson, from the reviewer)."""
    project = three_edits(tmp_path / "shop")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.ladder]\n", "[tool.ladder]\nfeedback.review = false\n", 1))
    env = {"LADDER_NOW": FINAL, "HOME": str(tmp_path / "home")}
    assert len(_complain(project)) == 3
    block = _synced_block(project, env)
    state = json.loads((project / ".claude" / "feedback-ladder-state.json").read_text())
    assert any(item["occurrences"] == 3 and item["topic"].startswith("#") for item in state["feedbacks"])
    assert "'price' in src/shop/pricing.py" in block and "#" not in block.replace("###", "").replace("##", "")
