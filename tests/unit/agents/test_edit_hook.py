"""``ladder hook post-edit``: the edit hook (DESIGN §12), in-process through ``run(stdin, environ)``.

Payloads are recorded in the shapes the hosts document (Claude Code's Edit/Write/MultiEdit,
Codex's apply_patch, Gemini CLI's replace/write_file), with fields missing, extra and wrong.
The history scenario is the demo project's (``reports_helpers.three_edits``): ``price`` was
checked, edited, checked, edited, checked over two days, so it is a recurring hotspot; an edit
through the hook that leaves it unfixed must say so, with the session's count. A few tests run
the real entry point in a subprocess: fails open, exit 0, nothing on stderr.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from ladder_plugins.config import load_settings
from ladder_plugins.errors import LadderError
from ladder_plugins.agents import edit_findings, edit_hook, edit_session
from ladder_plugins.agents.edit_hook import EMPTY, parse_payload, run
from ladder_plugins.agents.edit_session import SessionCounter, session_file_name

from tests.helpers.reports import FINAL, demo_copy, three_edits

PRICING = "src/shop/pricing.py"
ENV = {"LADDER_NOW": FINAL, "PATH": os.environ.get("PATH", "")}
PATCH = ("*** Begin Patch\n*** Update File: src/shop/pricing.py\n@@ def price(order, customer, coupons, today):\n"
         "-                    amount *= 0.95\n+                    amount *= 0.94\n*** End Patch\n")


def claude_edit(root: Path, path: str = PRICING, session: str = "5f1c2a9e-claude", **extra) -> dict:
    """Claude Code's PostToolUse for Edit, as it sends it."""
    file_path = str(root / path)
    return {
        "session_id": session, "transcript_path": f"/home/dev/.claude/projects/shop/{session}.jsonl",
        "cwd": str(root), "permission_mode": "acceptEdits", "hook_event_name": "PostToolUse",
        "tool_name": "Edit", "tool_use_id": "toolu_01ABCdef",
        "tool_input": {"file_path": file_path, "old_string": "0.95", "new_string": "0.94", "replace_all": False},
        "tool_response": {"filePath": file_path, "oldString": "0.95", "newString": "0.94", "structuredPatch": [],
                          "userModified": False, "replaceAll": False},
        **extra,
    }


def claude_write(root: Path, path: str = PRICING) -> dict:
    data = claude_edit(root, path)
    data.update(tool_name="Write", tool_input={"file_path": str(root / path), "content": "..."})
    return data


def claude_multiedit(root: Path, path: str = PRICING) -> dict:
    data = claude_edit(root, path)
    data.update(tool_name="MultiEdit", tool_input={"file_path": str(root / path),
                                                   "edits": [{"old_string": "a", "new_string": "b"}]})
    return data


def codex_patch(root: Path, patch: str = PATCH) -> dict:
    """Codex's PostToolUse for apply_patch: the patch as ``tool_input.command``, paths relative to ``cwd``."""
    return {
        "session_id": "019a-codex-thread", "turn_id": "turn-7", "transcript_path": None, "cwd": str(root),
        "hook_event_name": "PostToolUse", "model": "gpt-5-codex", "permission_mode": "default",
        "tool_name": "apply_patch", "tool_use_id": "call_Xy12", "tool_input": {"command": patch},
        "tool_response": "Success. Updated the following files:\nM src/shop/pricing.py\n",
    }


def gemini_replace(root: Path, path: str = PRICING) -> dict:
    """Gemini CLI's AfterTool for replace."""
    return {
        "session_id": "gemini-3c9d", "transcript_path": "/home/dev/.gemini/tmp/chats/session.json",
        "cwd": str(root), "hook_event_name": "AfterTool", "timestamp": "2026-11-03T12:00:00.000Z",
        "tool_name": "replace",
        "tool_input": {"file_path": str(root / path), "old_string": "0.95", "new_string": "0.94"},
        "tool_response": {"llmContent": f"Successfully modified file: {root / path} (1 replacements).",
                          "returnDisplay": "...", "error": None},
    }


def gemini_write(root: Path, path: str = PRICING) -> dict:
    data = gemini_replace(root, path)
    data.update(tool_name="write_file", tool_input={"file_path": str(root / path), "content": "..."})
    return data


def hook(payload, env: dict = ENV) -> str:
    """The hook's stdout for ``payload`` (a dict is sent as JSON, bytes as they are)."""
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return run(stdin, env)


def context(output: str) -> str:
    return json.loads(output)["hookSpecificOutput"]["additionalContext"]


def edit(project: Path, old: str, new: str) -> None:
    pricing = project / PRICING
    pricing.write_text(pricing.read_text().replace(old, new))


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    """The demo project after three checks of price() over two days (built once: three `ladder check` runs)."""
    return three_edits(tmp_path_factory.mktemp("history") / "shop")


@pytest.fixture
def project(history, tmp_path) -> Path:
    """A fresh copy of the history project, its ``.ladder`` included."""
    return Path(shutil.copytree(history, tmp_path / "shop", symlinks=True))


@pytest.fixture
def plain(tmp_path) -> Path:
    """The demo project with no history at all."""
    return demo_copy(tmp_path / "plain")


# ---------------------------------------------------------------------------
# the host's stdin


@pytest.mark.parametrize("make, dialect", [
    (claude_edit, "claude"), (claude_write, "claude"), (claude_multiedit, "claude"), (codex_patch, "claude"),
    (gemini_replace, "gemini"), (gemini_write, "gemini"),
])
def test_each_hosts_payload_names_the_edited_file(tmp_path, make, dialect):
    payload = parse_payload(json.dumps(make(tmp_path)).encode(), {})
    assert (payload.dialect, payload.cwd) == (dialect, tmp_path)
    assert [Path(tmp_path, p) for p in payload.paths] == [tmp_path / PRICING]


def test_a_codex_patch_names_added_updated_and_moved_files_not_deleted_ones(tmp_path):
    patch = ("*** Begin Patch\n*** Add File: a.py\n+x = 1\n*** Delete File: gone.py\n*** Update File: b.py\n"
             "*** Move to: c.py\n@@\n-y\n+z\n*** End Patch\n")
    assert parse_payload(json.dumps(codex_patch(tmp_path, patch)).encode(), {}).paths == ("a.py", "b.py", "c.py")


def test_without_an_event_name_the_fields_present_decide_the_dialect(tmp_path):
    gemini, claude = gemini_replace(tmp_path), claude_edit(tmp_path)
    del gemini["hook_event_name"], claude["hook_event_name"]
    assert [parse_payload(json.dumps(p).encode(), {}).dialect for p in (gemini, claude)] == ["gemini", "claude"]


def test_without_cwd_the_hosts_project_directory_is_used(tmp_path):
    payload = claude_edit(tmp_path)
    del payload["cwd"]
    assert parse_payload(json.dumps(payload).encode(), {"GEMINI_PROJECT_DIR": str(tmp_path)}).cwd == tmp_path


@pytest.mark.parametrize("tool", ["Read", "Grep", "read_file", "read_many_files"])
def test_a_tool_that_only_reads_a_file_is_no_edit(tmp_path, tool):
    assert parse_payload(json.dumps(claude_edit(tmp_path, tool_name=tool)).encode(), {}) is None


def test_the_path_comes_from_tool_response_when_tool_input_has_none(tmp_path):
    payload = claude_edit(tmp_path, tool_input={"old_string": "a"})
    assert parse_payload(json.dumps(payload).encode(), {}).paths == (str(tmp_path / PRICING),)


GARBAGE = [
    b"", b"   ", b"not json", b"\xff\xfe\x00garbage\x80", bytes(range(256)), b"[1, 2, 3]", b'"a string"', b"null",
    b"[" * 100_000, b'{"hook_event_name": "PostToolUse"}', b'{"tool_input": {"file_path": 42}}',
    b'{"hook_event_name": "UserPromptSubmit", "prompt": "hi", "tool_input": {"file_path": "x.py"}}',
    b'{"hook_event_name": "PostToolUse", "cwd": "relative/dir", "tool_input": {"file_path": "x.py"}}',
    b'{"hook_event_name": "PostToolUse", "cwd": "/", "tool_input": {"file_path": "a\\u0000b.py"}}',
    b'{"hook_event_name": "PostToolUse", "cwd": "/", "tool_input": "not a mapping"}',
]


@pytest.mark.parametrize("stdin", GARBAGE, ids=range(len(GARBAGE)))
def test_stdin_it_cannot_use_is_answered_with_an_empty_object(stdin):
    assert hook(stdin) == EMPTY


# ---------------------------------------------------------------------------
# what is ignored


def outside_payload(root: Path) -> dict:
    outside = root.parent / "elsewhere.py"
    outside.write_text("def f():\n    return 1\n")
    return claude_edit(root, str(outside))


def symlink_payload(root: Path) -> dict:
    outside = root.parent / "secret.py"
    outside.write_text("def f():\n    return 1\n")
    (root / "src" / "shop" / "link.py").symlink_to(outside)
    return claude_edit(root, "src/shop/link.py")


def syntax_error_payload(root: Path) -> dict:
    edit(root, "def shipping(weight):", "def shipping(weight:")
    return claude_edit(root)


def text_file_payload(root: Path) -> dict:
    (root / "README.md").write_text("# shop\n")
    return claude_edit(root, "README.md")


def excluded_payload(root: Path) -> dict:
    venv = root / ".venv" / "lib"
    venv.mkdir(parents=True)
    shutil.copy(root / PRICING, venv / "pricing.py")
    return claude_edit(root, ".venv/lib/pricing.py")


@pytest.mark.parametrize("make", [
    outside_payload, symlink_payload, syntax_error_payload, text_file_payload, excluded_payload,
    lambda root: claude_edit(root, "src/shop/missing.py"), lambda root: claude_edit(root, "src/shop"),
], ids=["outside-root", "symlink-out", "syntax-error", "not-python", "excluded", "missing", "directory"])
def test_what_is_not_a_python_file_of_the_project_is_ignored(project, make):
    edit(project, "amount *= 0.95", "amount *= 0.94")
    assert hook(make(project)) == EMPTY
    assert not (project / ".ladder" / "hooks").exists()


def test_in_no_project_nothing_is_said_or_written(tmp_path):
    shutil.copy(Path(demo_copy(tmp_path / "demo")) / PRICING, tmp_path / "m.py")
    assert hook(claude_edit(tmp_path, "m.py")) == EMPTY
    assert not (tmp_path / ".ladder").exists()


def test_a_project_without_history_is_told_nothing_and_gets_no_ladder_directory(plain):
    edit(plain, "amount *= 0.95", "amount *= 0.94")
    assert hook(claude_edit(plain)) == EMPTY
    assert not (plain / ".ladder").exists()


def test_a_violation_the_history_does_not_know_is_not_mentioned(project):
    (project / "src" / "shop" / "fresh.py").write_text((project / PRICING).read_text())
    assert hook(claude_edit(project, "src/shop/fresh.py")) == EMPTY


def test_an_edit_that_does_not_change_the_unit_is_not_mentioned(project):
    assert hook(claude_edit(project)) == EMPTY  # price is as the last check saw it


def test_an_edit_that_fixes_the_unit_is_not_mentioned(project):
    (project / PRICING).write_text("def price(order):\n    return sum(line.total for line in order.lines)\n")
    assert hook(claude_edit(project)) == EMPTY


# ---------------------------------------------------------------------------
# the history scenario


def test_an_edit_that_leaves_the_hotspot_unfixed_says_unit_rule_before_and_after(project):
    edit(project, "if line.quantity <= 0:", "if line.quantity <= 0 or line.void:")
    said = context(hook(claude_edit(project)))
    assert "src/shop/pricing.py:1 'price'" in said
    assert "LAD101 cyclomatic complexity before 12, after 13 (> 10)" in said
    assert "LAD102 cognitive complexity before 25, after 26 (> 15)" in said
    assert "recurring hotspot counting this edit (4 versions over the limit on 2 days)" in said


def session_count(output: str) -> int:
    return int(re.search(r"edits in this session that left it over the limit: (\d+)", context(output)).group(1))


def test_the_session_count_goes_up_with_each_edit_that_leaves_it_unfixed(project):
    counts = []
    for old, new in (("0.95", "0.94"), ("0.94", "0.93")):
        edit(project, f"amount *= {old}", f"amount *= {new}")
        counts.append(session_count(hook(claude_edit(project))))
    assert counts == [1, 2]
    assert session_count(hook(claude_edit(project, session="another-session"))) == 1
    assert sorted(os.listdir(project / ".ladder/hooks/sessions")) == [".lock", "5f1c2a9e-claude.json",
                                                                      "another-session.json"]


def test_each_edit_is_counted_once_for_its_session(project):
    edit(project, "0.95", "0.94")
    first = context(hook(claude_edit(project)))
    edit(project, "def shipping(weight):\n    return 5", "def shipping(weight):\n    return 6")
    assert "left it over the limit: 1" in first
    assert hook(claude_edit(project)) == EMPTY  # price unchanged since this session's last edit of it


def test_the_hook_records_nothing_in_the_history(project):
    log = project / ".ladder" / "history" / "events.jsonl"
    before = log.read_bytes()
    edit(project, "0.95", "0.94")
    assert hook(claude_edit(project)) != EMPTY
    assert log.read_bytes() == before


@pytest.mark.parametrize("make, event", [(gemini_replace, "AfterTool"), (codex_patch, "PostToolUse"),
                                         (claude_multiedit, "PostToolUse")])
def test_every_host_gets_its_own_output_shape(project, make, event):
    edit(project, "0.95", "0.94")
    output = json.loads(hook(make(project)))
    assert list(output) == ["hookSpecificOutput"]
    assert output["hookSpecificOutput"]["hookEventName"] == event
    assert "'price'" in output["hookSpecificOutput"]["additionalContext"]


def test_block_on_hotspot_answers_with_the_hosts_block_form(project, monkeypatch):
    monkeypatch.setattr(edit_hook, "_blocks", lambda settings: True)
    edit(project, "0.95", "0.94")
    claude = json.loads(hook(claude_edit(project)))
    gemini = json.loads(hook(gemini_replace(project)))
    assert (claude["decision"], gemini["decision"]) == ("block", "deny")
    assert "'price'" in claude["reason"] and "recurring hotspot" in gemini["reason"]


def test_block_on_hotspot_in_pyproject_toml_blocks(project):
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n[tool.ladder.hooks]\nblock_on_hotspot = true\n")
    try:
        load_settings(project)
    except LadderError:
        pytest.skip("[tool.ladder.hooks] is not a configuration table yet")
    edit(project, "0.95", "0.94")
    assert json.loads(hook(codex_patch(project)))["decision"] == "block"


def test_block_on_hotspot_is_read_from_the_settings_and_off_without_them(plain):
    table = SimpleNamespace(hooks=SimpleNamespace(block_on_hotspot=True))
    blocks = [edit_hook._blocks(s) for s in (table, SimpleNamespace(hooks=None), load_settings(plain))]
    assert blocks == [True, False, False]


def test_a_unit_only_over_the_limit_is_told_but_never_blocked():
    finding = edit_findings.Finding("m.py", 3, "f", "LAD102", "cognitive complexity", 20, 21, 15, "> 15", False)
    output = json.loads(edit_hook.render("claude", [finding], block=True))
    assert "before 20, after 21 (> 15)" in output["hookSpecificOutput"]["additionalContext"]


def test_many_findings_are_cut_to_a_bounded_context():
    findings = [edit_findings.Finding(f"m{n}.py", n, f"f{n}", "LAD104", "body length", 900, 901, 50, "> 50", True,
                                      "5 versions over the limit on 3 days", n) for n in range(40)]
    said = context(edit_hook.render("gemini", findings))
    assert "and 34 more units" in said and len(said) < 10_000


def test_an_internal_failure_fails_open(project, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(edit_hook, "findings_of", broken)
    edit(project, "0.95", "0.94")
    assert hook(claude_edit(project)) == EMPTY


# ---------------------------------------------------------------------------
# the session counter


def test_session_ids_become_safe_distinct_file_names():
    ids = ("abc-123", "../../etc/passwd", ".hidden", "hidden", "-abc", "abc", "a/b", "a_b", "x" * 300, "")
    names = [session_file_name(s) for s in ids]
    assert names[0] == "abc-123.json"
    assert all("/" not in n and n[0].isalnum() and len(n) < 80 for n in names)
    assert len(set(names)) == len(names)


def counter(root: Path, session: str = "s") -> SessionCounter:
    return SessionCounter.open(load_settings(root), session)


def test_the_session_file_is_bounded_and_old_sessions_are_pruned(plain):
    sessions = plain / ".ladder" / "hooks" / "sessions"
    sessions.mkdir(parents=True)
    old = time.time() - 8 * 86400
    for n in range(edit_session.SESSION_FILES + 20):
        (sessions / f"old-{n}.json").write_text("{}")
        os.utime(sessions / f"old-{n}.json", (old + n, old + n))
    (sessions / "recent.json").write_text("{}")
    left = sessions / ".s.json.k3j9.tmp"  # a killed hook's temporary file, as write_atomic names it
    left.write_text("{")
    os.utime(left, (old, old))
    mine = counter(plain)
    for n in range(edit_session.SESSION_UNITS + 50):
        mine.count(f"m.py::f{n}::cognitive_max", "2:abc", 20, f"2026-11-03T12:00:{n % 60:02d}.{n:06d}Z")
    mine.save()
    assert sorted(p.name for p in sessions.glob("*.json")) == ["recent.json", "s.json"] and not left.exists()
    assert len(json.loads((sessions / "s.json").read_text())["units"]) == edit_session.SESSION_UNITS


def test_a_damaged_session_file_counts_from_zero(plain):
    sessions = plain / ".ladder" / "hooks" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "s.json").write_bytes(b"\x00{not json")
    assert counter(plain).count("m.py::f::cognitive_max", "2:abc", 20, "t") == 1


def test_a_session_file_locked_by_another_hook_is_left_alone(plain, monkeypatch):
    fcntl = pytest.importorskip("fcntl")
    monkeypatch.setattr(edit_session, "LOCK_TIMEOUT", 0.05)
    mine = counter(plain)
    mine.count("m.py::f::cognitive_max", "2:abc", 20, "t")
    mine.directory.mkdir(parents=True)
    with open(mine.directory / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        mine.save()
    assert not (mine.directory / mine.name).exists()


def test_a_sessions_directory_leading_outside_the_root_is_not_used(plain, tmp_path):
    (tmp_path / "outside").mkdir()
    (plain / ".ladder").mkdir()
    (plain / ".ladder" / "hooks").symlink_to(tmp_path / "outside")
    assert counter(plain) is None
    assert SessionCounter.open(load_settings(plain), "") is None


# ---------------------------------------------------------------------------
# the real entry point, in a subprocess


def entry(stdin: bytes, cwd: Path, env: dict = ENV) -> subprocess.CompletedProcess:
    code = "import sys; from ladder_plugins.agents.edit_hook import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code], input=stdin, cwd=cwd, capture_output=True, timeout=60,
                          env={**os.environ, **env})


def test_the_entry_point_fails_open_with_exit_0_and_nothing_on_stderr(tmp_path):
    done = entry(b"\xff\xfe garbage {", tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"{}\n", b"")


def test_the_entry_point_says_it_for_a_real_edit(project):
    edit(project, "0.95", "0.94")
    done = entry(json.dumps(gemini_replace(project)).encode(), project)
    assert (done.returncode, done.stderr) == (0, b"")
    assert "'price'" in context(done.stdout.decode())


def test_ladder_hook_post_edit_once_the_cli_knows_it(tmp_path):
    pytest.importorskip("ladder_plugins.cli.hook", reason="`ladder hook` is not wired into the CLI yet")
    done = subprocess.run([sys.executable, "-m", "ladder_plugins", "hook", "post-edit"], input=b"not json",
                          cwd=tmp_path, capture_output=True, timeout=60)
    if done.returncode == 2 and b"invalid choice" in done.stderr:
        pytest.skip("`ladder hook` is not wired into the CLI yet")
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, b"{}", b"")


def _open_stdin_entry(written: bytes, cwd: Path, **env: str) -> tuple[int, bytes, bytes]:
    """``ladder hook post-edit`` given ``written`` on a stdin that is never closed: exit status, stdout, stderr.
    The wait is a hang detector, not a timing: a hook that waits for the end of its stdin never ends here."""
    command = [sys.executable, "-m", "ladder_plugins", "hook", "post-edit"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                          env={**os.environ, **ENV, **env}) as process:
        process.stdin.write(written)
        process.stdin.flush()
        try:
            status = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("the edit hook waited for a stdin its host never closes")
        return status, process.stdout.read(), process.stderr.read()


def test_a_host_that_never_closes_stdin_gets_the_answer_once_the_payload_is_whole(project):
    edit(project, "0.95", "0.94")
    status, out, err = _open_stdin_entry(json.dumps(gemini_replace(project)).encode(), project)
    assert (status, err) == (0, b"")
    assert "'price'" in context(out.decode())


def test_a_host_that_never_finishes_its_payload_gets_an_empty_object(tmp_path):
    partial = json.dumps(claude_edit(tmp_path)).encode()[:-20]
    assert _open_stdin_entry(partial, tmp_path, LADDER_HOOK_BUDGET_MS="100") == (0, b"{}\n", b"")


@pytest.mark.parametrize("blocked", ["a file where the hooks directory goes", "a directory where the session file goes"])
def test_a_session_counter_that_cannot_be_written_still_says_the_finding(project, blocked):
    hooks = project / ".ladder" / "hooks"
    if blocked.startswith("a file"):
        hooks.write_text("not a directory")
    else:
        (hooks / "sessions" / session_file_name("5f1c2a9e-claude")).mkdir(parents=True)
    edit(project, "0.95", "0.94")
    said = context(hook(claude_edit(project)))
    assert "'price'" in said and "recurring hotspot" in said


def test_an_edit_of_a_file_the_history_does_not_know_writes_nothing(tmp_path):
    """Most edits are of such files: no analysis, no cache, not even a .ladder directory."""
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\npaths = ["src"]\n')
    (tmp_path / "src").mkdir()
    edited = tmp_path / "src" / "new.py"
    edited.write_text("def f(a):\n" + "".join(f"    if a > {i}:\n        a -= 1\n" for i in range(12)) + "    return a\n")
    found = edit_findings.findings_of(load_settings(tmp_path), [(edited, "src/new.py")], "session-1", {})
    assert found == [] and not (tmp_path / ".ladder").exists()
