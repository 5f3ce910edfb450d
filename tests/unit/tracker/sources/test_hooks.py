"""Level 3, tool design: the hook commands of Claude Code, Codex, Gemini CLI and Claude Code plugins.

Each test builds a project in ``tmp_path`` with configurations in the shapes the hosts
document, broken ones included, and runs
the source through its hook: what is right is found, what is wrong is one warning per file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ladder_plugins.tracker.sources import hooks
from tests.helpers.feedback import locations, scan_with, texts, write


def scan(root: Path, max_bytes: int = 1 << 20) -> tuple[list, list]:
    return scan_with(hooks, root, max_bytes)


def write_json(root: Path, rel: str, data: object) -> Path:
    return write(root, rel, json.dumps(data, indent=2))


def identities(root: Path) -> list:
    return [sighting.identity for sighting in scan(root)[0]]


CLAUDE_SETTINGS = {
    "permissions": {"allow": ["Bash(pytest:*)"]},
    "hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "ladder context", "timeout": 10}]}],
        "PostToolUse": [{
            "matcher": "Edit|Write",
            "hooks": [
                {"type": "command", "command": "ruff format \"$CLAUDE_PROJECT_DIR\""},
                {"type": "command", "command": "ruff check --fix", "timeout": 30},
            ],
        }],
        "Stop": [{"hooks": [{"type": "prompt", "prompt": "Check that every changed function has a test."}]}],
    },
}


def test_claude_code_settings_give_one_sighting_per_hook(tmp_path):
    write_json(tmp_path, ".claude/settings.json", CLAUDE_SETTINGS)
    found, warnings = scan(tmp_path)
    assert locations(found) == [
        ".claude/settings.json: hooks.UserPromptSubmit[0].hooks[0]",
        ".claude/settings.json: hooks.PostToolUse[0].hooks[0] (matcher Edit|Write)",
        ".claude/settings.json: hooks.PostToolUse[0].hooks[1] (matcher Edit|Write)",
        ".claude/settings.json: hooks.Stop[0].hooks[0]",
    ]
    assert {(s.level, s.source, s.dated) for s in found} == {(3, "hooks", "file time (not a git repository)")}
    assert warnings == []


def test_a_hooks_text_holds_its_command_or_prompt_and_its_event_and_matcher_in_words(tmp_path):
    write_json(tmp_path, ".claude/settings.json", CLAUDE_SETTINGS)
    found, _ = scan(tmp_path)
    assert texts(found)[2] == "ruff check --fix; on PostToolUse (after tool use); matcher Edit|Write (edit write)"
    assert texts(found)[3] == "Check that every changed function has a test.; on Stop (stop)"
    assert {"ruff", "after", "edit"} <= set(texts(found)[2].replace("(", " ").split())


def test_the_local_settings_codex_hooks_json_and_gemini_settings_are_read(tmp_path):
    one_hook = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}]}}
    write_json(tmp_path, ".claude/settings.local.json", one_hook)
    write_json(tmp_path, ".codex/hooks.json", one_hook)
    write(tmp_path, ".gemini/settings.json", """\
        {
          // Gemini CLI strips comments from its settings
          "hooks": {"BeforeAgent": [{"matcher": "", "hooks": [
            {"type": "command", "command": "ladder context // not a comment", "timeout": 5000} /* ms */
          ]}]}
        }
        """)
    found, warnings = scan(tmp_path)
    assert locations(found) == [
        ".claude/settings.local.json: hooks.PreToolUse[0].hooks[0] (matcher Bash)",
        ".codex/hooks.json: hooks.PreToolUse[0].hooks[0] (matcher Bash)",
        ".gemini/settings.json: hooks.BeforeAgent[0].hooks[0]",
    ]
    assert texts(found)[2] == "ladder context // not a comment; on BeforeAgent (before agent)"
    assert warnings == []


CODEX_CONFIG = """\
model = "o3"

[[hooks.UserPromptSubmit]]

[[hooks.UserPromptSubmit.hooks]]
type = "command"
command = "ladder context"
timeout = 10

[[hooks.PostToolUse]]
matcher = "apply_patch"

[[hooks.PostToolUse.hooks]]
type = "command"
command = ["pytest", "-q"]
"""


def test_codex_config_toml_hook_tables_are_read(tmp_path):
    write(tmp_path, ".codex/config.toml", CODEX_CONFIG)
    found, warnings = scan(tmp_path)
    assert texts(found) == [
        "ladder context; on UserPromptSubmit (user prompt submit)",
        "pytest -q; on PostToolUse (after tool use); matcher apply_patch (apply patch)",
    ]
    assert locations(found)[1] == ".codex/config.toml: hooks.PostToolUse[0].hooks[0] (matcher apply_patch)"
    assert warnings == []


PLUGIN_HOOKS = {"description": "lint on edit", "hooks": {
    "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "flake8"}]}]}}


def test_plugin_hooks_are_read_at_the_root_and_in_plugin_directories(tmp_path):
    write_json(tmp_path, "hooks/hooks.json", PLUGIN_HOOKS)
    write_json(tmp_path, "plugins/lint/.claude-plugin/plugin.json", {"name": "lint"})
    write_json(tmp_path, "plugins/lint/hooks/hooks.json", PLUGIN_HOOKS)
    write_json(tmp_path, "not-a-plugin/hooks/hooks.json", PLUGIN_HOOKS)
    write_json(tmp_path, "a/b/c/deep/.claude-plugin/plugin.json", {"name": "deep"})
    write_json(tmp_path, "a/b/c/deep/hooks/hooks.json", PLUGIN_HOOKS)
    found, warnings = scan(tmp_path)
    assert locations(found) == [
        "hooks/hooks.json: hooks.PostToolUse[0].hooks[0] (matcher Edit)",
        "plugins/lint/hooks/hooks.json: hooks.PostToolUse[0].hooks[0] (matcher Edit)",
    ]
    assert warnings == []


def test_plugins_behind_a_symlinked_directory_are_not_searched(tmp_path):
    outside, root = tmp_path / "outside", tmp_path / "project"
    write_json(outside, "evil/.claude-plugin/plugin.json", {"name": "evil"})
    write_json(outside, "evil/hooks/hooks.json", PLUGIN_HOOKS)
    root.mkdir()
    os.symlink(outside / "evil", root / "evil")
    assert scan(root) == ([], [])


def test_identities_are_stable_and_change_only_for_the_hook_that_changed(tmp_path):
    write_json(tmp_path, ".claude/settings.json", CLAUDE_SETTINGS)
    before = identities(tmp_path)
    assert identities(tmp_path) == before
    assert len(set(before)) == 4
    changed = json.loads(json.dumps(CLAUDE_SETTINGS))
    changed["hooks"]["PostToolUse"][0]["hooks"][1]["timeout"] = 60
    write(tmp_path, ".claude/settings.json", json.dumps(changed, sort_keys=True))  # reformatted and reordered
    after = identities(tmp_path)
    assert set(before) - set(after) == {before[2]}
    assert len(set(after) - set(before)) == 1


def test_the_same_hook_in_another_file_is_another_sighting(tmp_path):
    write_json(tmp_path, ".claude/settings.json", PLUGIN_HOOKS)
    write_json(tmp_path, ".codex/hooks.json", PLUGIN_HOOKS)
    first, second = identities(tmp_path)
    assert first.startswith(".claude/settings.json#") and second.startswith(".codex/hooks.json#")


WRONG_SHAPES = [
    ({"hooks": [{"matcher": "Edit"}]}, "`hooks` is a list, not a mapping"),
    ({"hooks": {"Stop": "ruff check"}}, "hooks.Stop is a string, not a list of matcher groups"),
    ({"hooks": {"Stop": ["ruff check"]}}, "hooks.Stop[0] is a string, not a matcher group"),
    ({"hooks": {"Stop": [{"matcher": 3, "hooks": []}]}}, "hooks.Stop[0].matcher is a number"),
    ({"hooks": {"Stop": [{"hooks": {"type": "command"}}]}}, "hooks.Stop[0].hooks is a mapping, not a list"),
    ({"hooks": {"Stop": [{"hooks": [{"type": "command", "timeout": 5}]}]}}, "hooks.Stop[0].hooks[0] has no command"),
    ({"hooks": {"Stop": [{"hooks": [{"type": "prompt"}]}]}}, "hooks.Stop[0].hooks[0] has no prompt"),
    ({"hooks": {"Stop": [{"hooks": [{"timeout": 5}]}]}}, "has neither a type nor a command"),
    (["hooks"], "the top level is a list"),
]


@pytest.mark.parametrize("data, problem", WRONG_SHAPES, ids=[str(n) for n in range(len(WRONG_SHAPES))])
def test_a_hooks_value_of_the_wrong_shape_is_one_warning_naming_the_file(tmp_path, data, problem):
    write_json(tmp_path, ".claude/settings.json", data)
    found, warnings = scan(tmp_path)
    assert found == []
    assert len(warnings) == 1
    assert warnings[0].startswith(".claude/settings.json: ") and problem in warnings[0]


def test_what_is_right_is_kept_beside_what_is_wrong(tmp_path):
    good = {"type": "command", "command": "ruff check"}
    data = {"hooks": {"PostToolUse": [{"hooks": [good, "oops", {"type": "command"}]}, 7], "Stop": {}, "X": [good]}}
    write_json(tmp_path, ".gemini/settings.json", data)
    found, warnings = scan(tmp_path)
    assert locations(found) == [".gemini/settings.json: hooks.PostToolUse[0].hooks[0]"]
    assert len(warnings) == 1 and warnings[0].startswith(".gemini/settings.json: ")
    assert "hooks.PostToolUse[0].hooks[1] is a string" in warnings[0] and warnings[0].endswith("and 2 more")


def test_other_hook_types_are_skipped_without_a_warning(tmp_path):
    data = {"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "https://example.test/hook"}]}]}}
    write_json(tmp_path, ".claude/settings.json", data)
    assert scan(tmp_path) == ([], [])


@pytest.mark.parametrize("rel, text, problem", [
    (".claude/settings.json", '{"hooks": {"Stop": [}', "not valid JSON (Expecting value at line 1, column 21)"),
    (".codex/hooks.json", "[" * 10_000, "not valid JSON (nested too deeply)"),
    (".gemini/settings.json", '{"hooks": {} /* unclosed', "not valid JSON"),
    (".codex/config.toml", "[[hooks.Stop]]\ncommand = \n", "not valid TOML (Invalid value (at line 2, column 11))"),
], ids=["bad-json", "deep-json", "unclosed-comment", "bad-toml"])
def test_a_file_that_does_not_parse_is_one_warning_with_where(tmp_path, rel, text, problem):
    write(tmp_path, rel, text)
    found, warnings = scan(tmp_path)
    assert found == []
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{rel}: {problem}")


def test_huge_non_utf8_and_empty_files_are_skipped(tmp_path):
    write_json(tmp_path, ".claude/settings.json", {"hooks": {}, "padding": "x" * 200})
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex/hooks.json").write_bytes(b'{"hooks": {"Stop": "\xff"}}')
    write(tmp_path, ".gemini/settings.json", "")
    write(tmp_path, ".codex/config.toml", "")
    found, warnings = scan(tmp_path, max_bytes=100)
    assert found == []
    assert [w.split(":")[0] for w in warnings] == [".claude/settings.json", ".codex/hooks.json"]
    assert "bytes" in warnings[0] and "UTF-8" in warnings[1]


def test_settings_without_hooks_are_silent(tmp_path):
    write_json(tmp_path, ".claude/settings.json", {"permissions": {"deny": ["Read(.env)"]}})
    assert scan(tmp_path) == ([], [])


def test_symlinks_leading_outside_the_root_are_never_followed(tmp_path):
    outside, root = tmp_path / "outside", tmp_path / "project"
    write_json(outside, "settings.json", CLAUDE_SETTINGS)
    write_json(outside, "gemini/settings.json", CLAUDE_SETTINGS)
    (root / ".claude").mkdir(parents=True)
    os.symlink(outside / "settings.json", root / ".claude/settings.json")
    os.symlink(outside / "gemini", root / ".gemini")
    found, warnings = scan(root)
    assert found == []
    assert [w.split(":")[0] for w in warnings] == [".claude/settings.json", ".gemini/settings.json"]
    assert all("leads outside" in w for w in warnings)


def test_ladders_own_edit_hook_is_seen_as_tool_design_for_the_structural_rules(tmp_path):
    write_json(tmp_path, ".claude/settings.json", {"hooks": {"PostToolUse": [{"matcher": "Edit|Write|MultiEdit",
                                                                             "hooks": [{"type": "command",
                                                                                        "command": "ladder hook post-edit"}]}]}})
    [found], warned = scan(tmp_path)
    assert found.level == 3 and "cyclomatic complexity" in found.text.splitlines()[0] and warned == []
