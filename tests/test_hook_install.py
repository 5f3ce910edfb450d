"""``ladder hook install|uninstall``: our two entries merged into Claude Code's, Codex's and Gemini CLI's settings.

Every settings file here holds other keys and other hooks: they must come back as they were, in
their order, byte for byte apart from our entries; installing twice changes nothing; the old
file is kept as a timestamped backup; a dry run shows the diff and writes nothing; Codex's
``config.toml`` gets our tables between markers; timeouts are in each host's unit.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.feedback.install import (
    BEGIN_MARKER, END_MARKER, HOSTS, _toml_block, install, installed, installed_kinds, ladder_hook_kind, settings_path,
    uninstall,
)

RUFF = {"type": "command", "command": "ruff check --fix", "timeout": 30}
CLAUDE = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {"allow": ["Bash(pytest:*)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [RUFF]}],
    },
    "env": {"FOO": "bär"},
    "model": "opus",
}
GEMINI = {"theme": "GitHub", "hooks": {"AfterTool": [{"matcher": "run_shell_command", "hooks": [
    {"type": "command", "command": "log.sh", "timeout": 5000}]}]}, "general": {"vimMode": True}}
CODEX_TOML = """# my Codex configuration
model = "gpt-5-codex"  # the default model
approval_policy = "on-request"

[[hooks.PostToolUse]]
matcher = "Bash"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "audit.sh"

[projects."/work/app"]
trust_level = "trusted"
"""
BACKUP = re.compile(r"\.bak-\d{8}T\d{6}Z(-\d+)?$")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def json_file(path: Path, data: dict, indent=2) -> Path:
    return write(path, json.dumps(data, indent=indent, ensure_ascii=False) + "\n")


@pytest.fixture
def root(tmp_path) -> Path:
    project = tmp_path / "project"
    write(project / "pyproject.toml", "[project]\nname = 'app'\n")
    return project


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def ours(data: dict, event: str) -> list:
    return [hook for group in data["hooks"][event] for hook in group["hooks"] if "ladder hook" in hook["command"]]


def backups(directory: Path) -> list:
    return sorted(p.name for p in directory.iterdir() if BACKUP.search(p.name))


# ---------------------------------------------------------------------------
# JSON settings


def test_claude_gets_both_entries_and_keeps_everything_else(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE, indent=4)
    install("claude", "project", home, root)
    data = json.loads(path.read_text())
    assert list(data) == list(CLAUDE) and data["permissions"] == CLAUDE["permissions"]
    assert data["hooks"]["PreToolUse"] == CLAUDE["hooks"]["PreToolUse"]
    assert data["hooks"]["PostToolUse"][0] == {"matcher": "Edit|Write", "hooks": [RUFF]}
    assert data["hooks"]["PostToolUse"][1]["matcher"] == "Edit|Write|MultiEdit"
    assert ours(data, "UserPromptSubmit") == [{"type": "command", "command": "ladder hook prompt", "timeout": 10}]


def test_uninstall_gives_the_file_back_byte_for_byte(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE, indent=4)
    original = path.read_bytes()
    install("claude", "project", home, root)
    assert path.read_bytes() != original
    uninstall("claude", "project", home, root)
    assert path.read_bytes() == original


@pytest.mark.parametrize("indent", [2, 4, "\t"])
def test_the_files_indentation_is_kept(root, home, indent):
    path = json_file(root / ".claude" / "settings.json", CLAUDE, indent=indent)
    install("claude", "project", home, root)
    assert path.read_text() == json.dumps(json.loads(path.read_text()), indent=indent, ensure_ascii=False) + "\n"


def test_installing_twice_changes_nothing(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE)
    install("claude", "project", home, root)
    after_first = path.read_bytes()
    assert install("claude", "project", home, root) == ("", [])
    assert path.read_bytes() == after_first and len(backups(path.parent)) == 1


def test_the_old_file_is_kept_as_a_timestamped_backup(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE)
    original = path.read_bytes()
    diff, changed = install("claude", "project", home, root)
    assert changed[0] == path and BACKUP.search(changed[1].name)
    assert changed[1].read_bytes() == original
    assert re.search(r'^\+ +"command": "ladder hook post-edit",$', diff, re.M)


def test_a_dry_run_shows_the_diff_and_writes_nothing(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE)
    original = path.read_bytes()
    diff, changed = install("claude", "project", home, root, dry_run=True)
    assert changed == [path] and diff.startswith(f"--- {path}\n+++ {path}\n")
    assert re.search(r'^\+ +"command": "ladder hook prompt",$', diff, re.M)
    assert path.read_bytes() == original and backups(path.parent) == []


def test_a_dry_run_of_a_new_file_creates_nothing(root, home):
    diff, changed = install("gemini", "project", home, root, dry_run=True)
    assert diff.startswith("--- /dev/null\n") and changed == [root / ".gemini" / "settings.json"]
    assert not (root / ".gemini").exists()


def test_gemini_gets_its_events_its_matcher_and_milliseconds(root, home):
    path = json_file(home / ".gemini" / "settings.json", GEMINI)
    install("gemini", "user", home, root)
    data = json.loads(path.read_text())
    assert data["hooks"]["AfterTool"][0] == GEMINI["hooks"]["AfterTool"][0]
    assert data["hooks"]["AfterTool"][1]["matcher"] == "write_file|replace"
    assert ours(data, "AfterTool")[0]["timeout"] == 10000 and ours(data, "BeforeAgent")[0]["timeout"] == 10000
    assert data["hooks"]["BeforeAgent"][0]["matcher"] == ""


def test_claude_and_codex_timeouts_are_in_seconds(root, home):
    install("claude", "project", home, root)
    install("codex", "project", home, root)
    claude = json.loads((root / ".claude" / "settings.json").read_text())
    codex = json.loads((root / ".codex" / "hooks.json").read_text())
    assert [ours(d, "PostToolUse")[0]["timeout"] for d in (claude, codex)] == [10, 10]
    assert codex["hooks"]["PostToolUse"][0]["matcher"] == "Edit|Write|MultiEdit|apply_patch"


def test_our_entry_is_recognised_by_its_command_and_updated_in_place(root, home):
    old = {"matcher": "Edit", "hooks": [{"type": "command", "command": "/venv/bin/ladder hook post-edit", "timeout": 3}]}
    settings = {"hooks": {"PostToolUse": [old, {"matcher": "Write", "hooks": [RUFF]}]}}
    path = json_file(root / ".claude" / "settings.json", settings)
    install("claude", "project", home, root)
    groups = json.loads(path.read_text())["hooks"]["PostToolUse"]
    assert [g["matcher"] for g in groups] == ["Edit|Write|MultiEdit", "Write"]
    assert groups[0]["hooks"][0]["timeout"] == 10


def test_our_hook_inside_a_users_group_leaves_the_rest_of_the_group(root, home):
    mixed = {"matcher": "Edit|Write", "hooks": [RUFF, {"type": "command", "command": "ladder hook post-edit"}]}
    path = json_file(root / ".claude" / "settings.json", {"hooks": {"PostToolUse": [mixed]}})
    install("claude", "project", home, root)
    uninstall("claude", "project", home, root)
    assert json.loads(path.read_text()) == {"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [RUFF]}]}}


def test_a_file_without_hooks_gets_a_hooks_key_at_the_end_and_loses_it_again(root, home):
    path = json_file(root / ".claude" / "settings.json", {"model": "opus", "env": {}})
    original = path.read_bytes()
    install("claude", "project", home, root)
    assert list(json.loads(path.read_text())) == ["model", "env", "hooks"]
    uninstall("claude", "project", home, root)
    assert path.read_bytes() == original


@pytest.mark.parametrize("text, said", [
    ('{"model": "opus",}', "not valid JSON (Expecting property name enclosed in double quotes at line 1"),
    ('["a list"]', "the top level is not a JSON object"),
    ('{"hooks": ["PostToolUse"]}', "`hooks` is not a mapping"),
    ('{"hooks": {"PostToolUse": {"matcher": "Edit"}}}', "hooks.PostToolUse is not a list"),
])
def test_a_file_that_is_not_settings_json_is_refused_and_left_alone(root, home, text, said):
    path = write(root / ".claude" / "settings.json", text)
    with pytest.raises(LadderError, match=re.escape(said)) as raised:
        install("claude", "project", home, root)
    assert str(path) in str(raised.value) and "nothing changed" in str(raised.value)
    assert path.read_text() == text and backups(path.parent) == []


def test_keys_of_hooks_that_are_no_event_lists_are_kept(root, home):
    path = json_file(home / ".gemini" / "settings.json", {"hooks": {"enabled": True, "disabled": ["x"]}})
    install("gemini", "user", home, root)
    uninstall("gemini", "user", home, root)
    assert json.loads(path.read_text()) == {"hooks": {"enabled": True, "disabled": ["x"]}}


def test_gemini_settings_with_comments_are_refused_with_the_reason(root, home):
    path = write(root / ".gemini" / "settings.json", '{\n  // my theme\n  "theme": "GitHub"\n}\n')
    with pytest.raises(LadderError, match="allows comments there, which a rewrite would lose"):
        install("gemini", "project", home, root)
    assert "// my theme" in path.read_text()


def test_a_symlink_leading_outside_the_project_is_refused(root, home, tmp_path):
    outside = tmp_path / "outside"
    json_file(outside / "settings.json", {"model": "opus"})
    (root / ".claude").symlink_to(outside, target_is_directory=True)
    with pytest.raises(LadderError, match="leads outside the project root"):
        install("claude", "project", home, root)
    assert json.loads((outside / "settings.json").read_text()) == {"model": "opus"}


def test_a_symlinked_settings_file_leading_outside_is_refused_too(root, home, tmp_path):
    outside = json_file(tmp_path / "elsewhere.json", {"model": "opus"})
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").symlink_to(outside)
    with pytest.raises(LadderError, match="leads outside the project root"):
        uninstall("claude", "project", home, root)
    assert outside.read_text() == json.dumps({"model": "opus"}, indent=2) + "\n"


def test_the_user_scope_writes_under_home(root, home):
    _, changed = install("claude", "user", home, root)
    assert changed == [home / ".claude" / "settings.json"]
    assert not (root / ".claude").exists()


def test_unknown_agents_and_scopes_are_errors(root, home):
    with pytest.raises(LadderError, match="unknown agent 'cursor'"):
        install("cursor", "project", home, root)
    with pytest.raises(LadderError, match="unknown scope 'global'"):
        uninstall("claude", "global", home, root)


def test_uninstalling_what_was_never_installed_changes_nothing(root, home):
    json_file(root / ".claude" / "settings.json", CLAUDE)
    assert uninstall("claude", "project", home, root) == ("", [])
    assert uninstall("gemini", "project", home, root) == ("", [])


def test_crlf_line_endings_are_kept(root, home):
    path = root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_bytes(json.dumps(CLAUDE, indent=2).replace("\n", "\r\n").encode() + b"\r\n")
    install("claude", "project", home, root)
    assert b"\r\n" in path.read_bytes() and b"\n" not in path.read_bytes().replace(b"\r\n", b"")


# ---------------------------------------------------------------------------
# Codex: hooks.json by default, config.toml between markers


def test_codex_writes_hooks_json_by_default(root, home):
    write(root / ".codex" / "config.toml", 'model = "gpt-5-codex"\n')
    assert settings_path("codex", "project", home, root) == root / ".codex" / "hooks.json"
    _, changed = install("codex", "project", home, root)
    assert changed == [root / ".codex" / "hooks.json"]
    assert (root / ".codex" / "config.toml").read_text() == 'model = "gpt-5-codex"\n'


def test_codex_config_toml_that_configures_hooks_gets_our_block_between_markers(root, home):
    path = write(home / ".codex" / "config.toml", CODEX_TOML)
    _, changed = install("codex", "user", home, root)
    text = path.read_text()
    assert changed[0] == path and text.startswith(CODEX_TOML + "\n" + BEGIN_MARKER + "\n")
    assert text.endswith(END_MARKER + "\n") and 'command = "ladder hook post-edit"\ntimeout = 10\n' in text
    assert 'matcher = "Edit|Write|MultiEdit|apply_patch"' in text


def test_codex_toml_install_is_idempotent_and_uninstall_gives_the_file_back(root, home):
    path = write(home / ".codex" / "config.toml", CODEX_TOML)
    install("codex", "user", home, root)
    assert install("codex", "user", home, root) == ("", [])
    uninstall("codex", "user", home, root)
    assert path.read_text() == CODEX_TOML


def test_codex_toml_block_is_replaced_where_it_is(root, home):
    stale = f"{BEGIN_MARKER}\n[[hooks.PostToolUse]]\nmatcher = \"Edit\"\n{END_MARKER}\n"
    path = write(root / ".codex" / "config.toml", f'model = "o3"\n\n{stale}\n[tui]\nnotifications = true\n')
    install("codex", "project", home, root)
    text = path.read_text()
    assert text.startswith(f'model = "o3"\n\n{BEGIN_MARKER}\n') and text.endswith("\n[tui]\nnotifications = true\n")
    assert 'matcher = "Edit"\n' not in text and text.count(BEGIN_MARKER) == 1


@pytest.mark.parametrize("text, said", [
    (f"{BEGIN_MARKER}\nx = 1\n", "are not one pair in order"),
    (f"{END_MARKER}\n{BEGIN_MARKER}\n", "are not one pair in order"),
    (f"model = \n{BEGIN_MARKER}\n{END_MARKER}\n", "not valid TOML"),
    ("[hooks]\nPostToolUse = [{ matcher = \"Bash\", hooks = [] }]\n", "would not fit into it"),
], ids=["no-end", "out-of-order", "invalid", "inline-array"])
def test_codex_toml_that_cannot_take_our_block_is_refused(root, home, text, said):
    path = write(root / ".codex" / "config.toml", text)
    with pytest.raises(LadderError, match=said):
        install("codex", "project", home, root)
    assert path.read_text() == text and not (root / ".codex" / "hooks.json").exists()


def test_codex_uninstall_cleans_both_files(root, home):
    hooks_json = json_file(root / ".codex" / "hooks.json", {"hooks": {}})
    install("codex", "project", home, root)
    toml = write(root / ".codex" / "config.toml", CODEX_TOML + "\n" + _toml_block(HOSTS["codex"]))
    _, changed = uninstall("codex", "project", home, root)
    assert changed[:2] == [hooks_json, toml]
    assert toml.read_text() == CODEX_TOML and json.loads(hooks_json.read_text()) == {}


def test_codex_keeps_our_entries_in_one_file_only(root, home):
    hooks_json = root / ".codex" / "hooks.json"
    install("codex", "project", home, root)
    toml = write(root / ".codex" / "config.toml", CODEX_TOML + "\n" + _toml_block(HOSTS["codex"]).replace("10", "5"))
    _, changed = install("codex", "project", home, root)
    assert changed[:2] == [toml, hooks_json] and json.loads(hooks_json.read_text()) == {}
    assert "timeout = 10" in toml.read_text()


# ---------------------------------------------------------------------------
# which hosts have them


def test_installed_says_which_hosts_run_the_edit_hook(root, home):
    install("claude", "project", home, root)
    install("gemini", "user", home, root)
    assert installed(root, home) == {"claude": True, "codex": False, "gemini": True}


def test_installed_reads_settings_local_json_and_codex_toml(root, home):
    json_file(root / ".claude" / "settings.local.json", {"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "ladder hook prompt"}]}]}})
    write(home / ".codex" / "config.toml", CODEX_TOML)
    install("codex", "user", home, root)
    assert installed_kinds(root, home) == {"claude": ("prompt",), "codex": ("post-edit", "prompt"), "gemini": ()}


@pytest.mark.parametrize("command, kind", [
    ("ladder hook post-edit", "post-edit"), ("/home/u/.venv/bin/ladder hook prompt", "prompt"),
    ('"C:\\Tools\\ladder.exe" hook post-edit', "post-edit"), ("python -m ladder_plugins hook prompt", "prompt"),
    (["ladder", "hook", "post-edit"], "post-edit"), ("ladder check", None), ("myladder hook prompt", None),
    ("ladder hook post-editor", None), (42, None),
])
def test_our_commands_are_recognised_in_every_form(command, kind):
    assert ladder_hook_kind(command) == kind


def test_a_file_that_cannot_be_read_is_refused(root, home):
    (root / ".claude" / "settings.json").mkdir(parents=True)
    with pytest.raises(LadderError, match="not a regular settings file"):
        install("claude", "project", home, root)
    assert os.path.isdir(root / ".claude" / "settings.json")
