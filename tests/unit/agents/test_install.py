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
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.agents.commands import hook_command, is_our_command, ladder_hook_kind, our_kind
from ladder_plugins.agents.install import Outcome, install, settings_path, uninstall
from ladder_plugins.agents.installed import installed, installed_kinds
from ladder_plugins.agents.merge import BEGIN_MARKER, END_MARKER, toml_block as _toml_block
from ladder_plugins.hosts import CODEX as CODEX_HOST
from ladder_plugins.reports.sanitize import toml_string

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
    return [hook for group in data["hooks"][event] for hook in group["hooks"] if is_our_command(hook["command"])]


def beside(path: Path) -> list:
    """The other files in ``path``'s directory: none is what install and uninstall may leave (a backup, a
    temporary file of an atomic write)."""
    return sorted(p.name for p in path.parent.iterdir() if p != path)


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
    assert ours(data, "UserPromptSubmit") == [{"type": "command", "command": hook_command("prompt"), "timeout": 10}]


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
    assert install("claude", "project", home, root) == Outcome()
    assert path.read_bytes() == after_first and beside(path) == []


def test_install_says_what_it_wrote_and_leaves_no_backup_beside_it(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE)
    outcome = install("claude", "project", home, root)
    assert outcome.written == (path,) and outcome.removed == () and beside(path) == []
    assert re.search(rf'^\+ +"command": {re.escape(json.dumps(hook_command("post-edit")))},$', outcome.diff, re.M)


def test_a_dry_run_shows_the_diff_and_writes_nothing(root, home):
    path = json_file(root / ".claude" / "settings.json", CLAUDE)
    original = path.read_bytes()
    outcome = install("claude", "project", home, root, dry_run=True)
    assert outcome.written == (path,) and outcome.diff.startswith(f"--- {path}\n+++ {path}\n")
    assert re.search(rf'^\+ +"command": {re.escape(json.dumps(hook_command("prompt")))},$', outcome.diff, re.M)
    assert path.read_bytes() == original and beside(path) == []


def test_a_dry_run_of_a_new_file_creates_nothing(root, home):
    outcome = install("gemini", "project", home, root, dry_run=True)
    assert outcome.diff.startswith("--- /dev/null\n") and outcome.written == (root / ".gemini" / "settings.json",)
    assert not (root / ".gemini").exists() and not home.exists()


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
    old = {"matcher": "Edit", "hooks": [{"type": "command", "command": hook_command("post-edit", "/venv/bin/python"),
                                         "timeout": 3}]}
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
    assert path.read_text() == text and beside(path) == []


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
    assert install("claude", "user", home, root).written == (home / ".claude" / "settings.json",)
    assert not (root / ".claude").exists()


def test_unknown_agents_and_scopes_are_errors(root, home):
    with pytest.raises(LadderError, match="unknown agent 'cursor'"):
        install("cursor", "project", home, root)
    with pytest.raises(LadderError, match="unknown scope 'global'"):
        uninstall("claude", "global", home, root)


def test_uninstalling_what_was_never_installed_changes_nothing(root, home):
    json_file(root / ".claude" / "settings.json", CLAUDE)
    assert uninstall("claude", "project", home, root) == Outcome()
    assert uninstall("gemini", "project", home, root) == Outcome()


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
    assert install("codex", "project", home, root).written == (root / ".codex" / "hooks.json",)
    assert (root / ".codex" / "config.toml").read_text() == 'model = "gpt-5-codex"\n'


def test_codex_config_toml_that_configures_hooks_gets_our_block_between_markers(root, home):
    path = write(home / ".codex" / "config.toml", CODEX_TOML)
    outcome = install("codex", "user", home, root)
    text = path.read_text()
    assert outcome.written == (path,) and text.startswith(CODEX_TOML + "\n" + BEGIN_MARKER + "\n")
    assert text.endswith(END_MARKER + "\n") and f'command = {toml_string(hook_command("post-edit"))}\ntimeout = 10\n' in text
    assert 'matcher = "Edit|Write|MultiEdit|apply_patch"' in text


def test_codex_toml_install_is_idempotent_and_uninstall_gives_the_file_back(root, home):
    path = write(home / ".codex" / "config.toml", CODEX_TOML)
    install("codex", "user", home, root)
    assert install("codex", "user", home, root) == Outcome()
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
    toml = write(root / ".codex" / "config.toml", CODEX_TOML + "\n" + _toml_block(CODEX_HOST))
    outcome = uninstall("codex", "project", home, root)
    assert outcome.written == (hooks_json, toml)
    assert toml.read_text() == CODEX_TOML and json.loads(hooks_json.read_text()) == {"hooks": {}}


def test_codex_keeps_our_entries_in_one_file_only(root, home):
    hooks_json = root / ".codex" / "hooks.json"
    install("codex", "project", home, root)
    toml = write(root / ".codex" / "config.toml", CODEX_TOML + "\n" + _toml_block(CODEX_HOST).replace("10", "5"))
    outcome = install("codex", "project", home, root)
    assert outcome.written == (toml,) and outcome.removed == (hooks_json,) and not hooks_json.exists()
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


# ---------------------------------------------------------------------------
# ours by an exact marker; the user's variants kept and reported


def our_hooks(data: dict, event: str) -> list:
    return [hook for group in data["hooks"][event] for hook in group["hooks"] if is_our_command(hook["command"])]


def all_commands(data: dict) -> list:
    return [hook["command"] for groups in data["hooks"].values() for group in groups for hook in group["hooks"]]


VARIANTS = {"hooks": {
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "LADDER_HOOK_BUDGET_MS=3000 ladder hook prompt"}]}],
    "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "cd backend && ladder hook post-edit"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "echo 'did you run ladder hook prompt' >> notes.txt"}]}],
}}


def test_the_users_variants_and_an_unrelated_hook_are_kept_and_reported(root, home):
    path = json_file(root / ".claude" / "settings.json", VARIANTS)
    original = path.read_bytes()
    outcome = install("claude", "project", home, root)
    data = json.loads(path.read_text())
    assert set(all_commands(VARIANTS)) < set(all_commands(data))
    assert [hook["command"] for hook in our_hooks(data, "UserPromptSubmit")] == [hook_command("prompt")]
    assert [hook["command"] for hook in our_hooks(data, "PostToolUse")] == [hook_command("post-edit")]
    assert set(outcome.kept) >= {"LADDER_HOOK_BUDGET_MS=3000 ladder hook prompt", "cd backend && ladder hook post-edit"}
    uninstall("claude", "project", home, root)
    assert path.read_bytes() == original


def test_uninstall_keeps_the_users_variants_even_without_a_record(root, home):
    path = json_file(root / ".claude" / "settings.json", VARIANTS)
    outcome = uninstall("claude", "project", home, root)
    assert outcome.written == () and json.loads(path.read_text()) == VARIANTS
    assert "cd backend && ladder hook post-edit" in outcome.kept


@pytest.mark.parametrize("command, kind", [
    (hook_command("prompt", "/opt/venv/bin/python"), "prompt"),
    (hook_command("post-edit", "/home/u/my tools/bin/python3"), "post-edit"),
    ("ladder hook post-edit", "post-edit"),  # what earlier versions wrote
    ("ladder hook prompt # ladder-plugins", None), ("LADDER_HOOK_BUDGET_MS=3000 ladder hook prompt", None),
    ("/opt/venv/bin/python -m ladder_plugins hook prompt", None), ("cd x && ladder hook post-edit", None),
    (hook_command("prompt", "/opt/venv/bin/python") + " --fast", None), (42, None),
])
def test_only_the_exact_commands_install_writes_are_ours(command, kind):
    assert our_kind(command) == kind and is_our_command(command) is (kind is not None)


def test_an_entry_written_from_another_interpreter_is_ours_and_updated_where_it_is(root, home, monkeypatch):
    path = root / ".claude" / "settings.json"
    with monkeypatch.context() as patch:
        patch.setattr(sys, "executable", "/old/venv/bin/python")
        install("claude", "project", home, root)
    install("claude", "project", home, root)
    data = json.loads(path.read_text())
    assert [hook["command"] for hook in our_hooks(data, "PostToolUse")] == [hook_command("post-edit")]
    assert len(data["hooks"]["PostToolUse"]) == 1


def test_the_plain_command_of_earlier_versions_is_replaced(root, home):
    old = {"matcher": "Edit", "hooks": [{"type": "command", "command": "ladder hook post-edit", "timeout": 3}]}
    path = json_file(root / ".claude" / "settings.json", {"hooks": {"PostToolUse": [old]}})
    install("claude", "project", home, root)
    assert all_commands(json.loads(path.read_text())) == [hook_command("post-edit"), hook_command("prompt")]


# ---------------------------------------------------------------------------
# a command that resolves without the environment on the host's PATH


def test_the_installed_command_runs_with_a_path_that_lacks_the_environment(root, home):
    path = install("claude", "project", home, root).written[0]
    command = our_hooks(json.loads(path.read_text()), "PostToolUse")[0]["command"]
    assert command.startswith(shlex.quote(sys.executable) + " ")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    done = subprocess.run(["/bin/sh", "-c", command], input=b"{}", capture_output=True, cwd=root, env=env, timeout=60)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, b"{}", b"")


def test_doctor_says_when_an_installed_command_no_longer_resolves(root, home, monkeypatch, tmp_path):
    from ladder_plugins.cli.doctor import diagnose, doctor_text

    monkeypatch.setenv("HOME", str(home))
    gone = tmp_path / "deleted-venv" / "bin" / "python"
    with monkeypatch.context() as patch:
        patch.setattr(sys, "executable", str(gone))
        install("claude", "project", home, root)
    json_file(home / ".gemini" / "settings.json", {"hooks": {"BeforeAgent": [{"matcher": "", "hooks": [
        {"type": "command", "command": "ladder hook prompt"}]}]}})
    install("codex", "project", home, root)
    problems = [p["problem"] for p in diagnose(root).problems]
    assert [p for p in problems if "hook" in p] == [
        f"agent hook: {root / '.claude' / 'settings.json'} runs {gone}, which does not exist (any more)",
        f"agent hook: {home / '.gemini' / 'settings.json'} runs a bare `ladder`, found only where the host's PATH "
        "holds the environment ladder-plugins is installed in (most hosts' PATH does not: exit 127)",
    ]
    assert "fix: run 'ladder hook install --agent claude' again" in doctor_text(diagnose(root))


# ---------------------------------------------------------------------------
# the user's directories as they were: symlinks, formatting, created files, no backups


def test_a_symlinked_user_settings_file_is_written_through_and_given_back(root, home):
    target = json_file(home / "dotfiles" / "claude.json", CLAUDE)
    original = target.read_bytes()
    link = home / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(target)
    assert install("claude", "user", home, root).written == (target,)
    assert link.is_symlink() and our_hooks(json.loads(target.read_text()), "PostToolUse")
    uninstall("claude", "user", home, root)
    assert link.is_symlink() and os.readlink(link) == str(target) and target.read_bytes() == original
    assert sorted(os.listdir(home / ".claude")) == ["settings.json"]


def test_a_symlink_leading_outside_home_is_refused_with_the_reason(root, home, tmp_path):
    target = json_file(tmp_path / "etc" / "claude.json", CLAUDE)
    link = home / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(target)
    with pytest.raises(LadderError, match=r"leads outside your home directory .* \(a symlink to .*claude\.json\)"):
        install("claude", "user", home, root)
    assert link.is_symlink() and json.loads(target.read_text()) == CLAUDE


@pytest.mark.parametrize("text", ['{"model": "opus", "env": {"A": "1"}}', '{"model":"opus"}\n',
                                  '{\n  "model" : "opus" ,\n\n  "env": {}\n}\n'])
def test_a_file_of_any_formatting_comes_back_byte_for_byte(root, home, text):
    path = write(root / ".claude" / "settings.json", text)
    install("claude", "project", home, root)
    uninstall("claude", "project", home, root)
    assert path.read_text() == text


def test_a_compact_file_edited_since_loses_only_our_entries_and_stays_compact(root, home):
    path = write(root / ".claude" / "settings.json", '{"model": "opus"}')
    install("claude", "project", home, root)
    assert path.read_text().count("\n") == 0
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "theme": "dark"}))
    uninstall("claude", "project", home, root)
    assert path.read_text() == '{"model": "opus", "theme": "dark"}'


def test_a_four_space_file_edited_since_keeps_its_indentation(root, home):
    path = json_file(root / ".claude" / "settings.json", {"model": "opus"}, indent=4)
    install("claude", "project", home, root)
    path.write_text(path.read_text().replace('"opus"', '"sonnet"'))
    uninstall("claude", "project", home, root)
    assert path.read_text() == '{\n    "model": "sonnet"\n}\n'


def test_uninstall_removes_the_file_and_directory_install_created(root, home):
    install("codex", "project", home, root)
    install("gemini", "user", home, root)
    assert (root / ".codex" / "hooks.json").is_file() and (home / ".gemini" / "settings.json").is_file()
    outcome = uninstall("codex", "project", home, root)
    assert outcome.removed == (root / ".codex" / "hooks.json",) and not (root / ".codex").exists()
    uninstall("gemini", "user", home, root)
    assert not (home / ".gemini").exists()


def test_install_and_uninstall_leave_no_file_beside_the_settings(root, home, monkeypatch):
    claude = json_file(root / ".claude" / "settings.json", CLAUDE)
    gemini = json_file(root / ".gemini" / "settings.json", GEMINI)
    for _ in range(2):
        with monkeypatch.context() as patch:
            patch.setattr(sys, "executable", "/a/python")
            install("claude", "project", home, root)
        install("claude", "project", home, root)
        install("gemini", "project", home, root)
        uninstall("claude", "project", home, root)
        uninstall("gemini", "project", home, root)
    assert os.listdir(claude.parent) == ["settings.json"] and os.listdir(gemini.parent) == ["settings.json"]
    assert json.loads(claude.read_text()) == CLAUDE and json.loads(gemini.read_text()) == GEMINI


def test_the_cli_reports_a_kept_variant(root, home, ladder_in_process):
    json_file(root / ".claude" / "settings.json", VARIANTS)
    done = ladder_in_process(["hook", "install", "--agent", "claude", "--home", str(home)], root)
    assert done.returncode == 0
    out = done.stdout
    assert "claude: installed in" in out
    assert "kept your own hook command `cd backend && ladder hook post-edit`" in out
