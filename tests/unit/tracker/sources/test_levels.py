"""Levels counted as what the encodings are: a rules file the host loads only for the paths it names is tool
design (level 3), a hook that blocks the agent (exit 2, a block decision) is enforcement (level 4); the rest keep
the project's documented levels (instruction files and unscoped rules 2, hooks 3)."""

from __future__ import annotations

import json

import pytest

from ladder_plugins.tracker.sources import docs, hooks

from tests.helpers.feedback import scan_with, write

SCOPED = "---\npaths:\n  - src/**/*.py\n---\n- Never use a bare except clause\n"
CURSOR_GLOBS = "---\ndescription: errors\nglobs: src/**/*.py\n---\n- Catch specific exceptions\n"
CURSOR_ALWAYS = "---\nalwaysApply: true\nglobs: src/**/*.py\n---\n- Catch specific exceptions\n"


def test_a_rules_file_scoped_by_paths_is_tool_design(tmp_path):
    write(tmp_path, ".claude/rules/errors.md", SCOPED)
    write(tmp_path, ".claude/rules/general.md", "- Answer in English\n")
    write(tmp_path, "CLAUDE.md", "- Keep pull requests small\n")
    write(tmp_path, ".cursor/rules/errors.mdc", CURSOR_GLOBS)
    write(tmp_path, ".cursor/rules/always.mdc", CURSOR_ALWAYS)
    found, _ = scan_with(docs, tmp_path)
    assert {s.location: s.level for s in found} == {
        "CLAUDE.md:1": 2,
        ".claude/rules/errors.md:5 (paths: src/**/*.py)": 3,
        ".claude/rules/general.md:1": 2,
        ".cursor/rules/always.mdc:5 (alwaysApply; globs: src/**/*.py)": 2,
        ".cursor/rules/errors.mdc:2 (globs: src/**/*.py)": 3,
        ".cursor/rules/errors.mdc:5 (globs: src/**/*.py)": 3,
    }


def _settings(tmp_path, command: str, event: str = "PreToolUse") -> None:
    write(tmp_path, ".claude/settings.json", json.dumps({"hooks": {event: [
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": command}]}]}}))


@pytest.mark.parametrize("command", [
    "grep -q 'print(' \"$CLAUDE_PROJECT_DIR/src\" && exit 2 || exit 0",
    """echo '{"decision": "block", "reason": "no print calls"}'""",
    """echo '{"hookSpecificOutput": {"permissionDecision": "deny"}}'""",
])
def test_a_hook_that_blocks_in_its_command_is_level_4(tmp_path, command):
    _settings(tmp_path, command)
    [found], _ = scan_with(hooks, tmp_path)
    assert found.level == 4 and found.text.endswith("blocks the agent (exit 2 or a block decision)")


@pytest.mark.parametrize("script, level", [
    ("#!/usr/bin/env python3\nimport json, sys\nif 'print(' in sys.stdin.read():\n"
     "    print('no print calls', file=sys.stderr)\n    sys.exit(2)\n", 4),
    ("#!/bin/sh\necho '{\"decision\": \"block\", \"reason\": \"run the tests\"}'\n", 4),
    ("#!/bin/sh\nruff format \"$1\"\nexit 0\n", 3),
    ("#!/bin/sh\nruff check || exit 1\n", 3),  # exit 1 does not block
])
def test_a_hook_whose_script_blocks_is_level_4(tmp_path, script, level):
    write(tmp_path, ".claude/hooks/check.sh", script)
    _settings(tmp_path, "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh")
    [found], _ = scan_with(hooks, tmp_path)
    assert found.level == level


def test_a_script_outside_the_project_is_never_read(tmp_path):
    outside = tmp_path / "elsewhere" / "block.sh"
    write(tmp_path, "elsewhere/block.sh", "exit 2\n")
    project = tmp_path / "project"
    _settings(project, f"sh {outside}")
    [found], _ = scan_with(hooks, project)
    assert found.level == 3


def test_a_plugin_hook_names_its_script_through_the_plugin_root(tmp_path):
    write(tmp_path, "tools/guard/.claude-plugin/plugin.json", "{}")
    write(tmp_path, "tools/guard/scripts/guard.py", "import sys\nsys.exit(2)\n")
    write(tmp_path, "tools/guard/hooks/hooks.json", json.dumps({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "python3 ${CLAUDE_PLUGIN_ROOT}/scripts/guard.py"}]}]}}))
    [found], _ = scan_with(hooks, tmp_path)
    assert found.level == 4
