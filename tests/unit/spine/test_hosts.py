"""The table of agent hosts is the one source: what install writes for a host, the tracker's hooks source
and doctor find, and each hook answers a host's payload in that host's form, all from ``ladder_plugins.hosts``.

Nothing here names a host's file or event: every expectation is read from the table, so a row added
to it is tested by these tests as it is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ladder_plugins.agents import edit_findings, edit_hook, prompt_hook
from ladder_plugins.agents.commands import hook_command
from ladder_plugins.agents.install import install, settings_path, uninstall
from ladder_plugins.agents.installed import installed_kinds
from ladder_plugins.hosts import (
    HOSTS, NAMES, PLUGIN_HOOK_FILE, RECOGNITION, answering, host, own_tools, sender,
)
from ladder_plugins.tracker.sources import hooks
from tests.helpers.feedback import locations, scan_with

BY_NAME = pytest.mark.parametrize("one", HOSTS, ids=NAMES)


@pytest.fixture
def root(tmp_path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    return project


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def test_the_table_names_each_host_once_and_is_what_the_hooks_source_reads():
    assert len(set(NAMES)) == len(HOSTS) and all(host(h.name) is h for h in HOSTS) and host("nosuch") is None
    files = [(f"{h.directory}/{f.name}", f.form) for h in HOSTS for f in h.files]
    assert hooks.HOOK_FILES == (*files, PLUGIN_HOOK_FILE)
    assert all(h.files[0].installs and h.files[0].form != "toml" for h in HOSTS)  # the default file is JSON


@BY_NAME
def test_every_host_installs_where_the_table_says_with_its_events_matchers_and_timeout(root, home, one):
    outcome = install(one.name, "project", home, root)
    target = root / one.directory / one.files[0].name
    assert outcome.written == (target,) and settings_path(one.name, "project", home, root) == target
    data = json.loads(target.read_text())
    prompt, edit = data["hooks"][one.prompt_event], data["hooks"][one.edit_event]
    assert [hook["command"] for group in prompt for hook in group["hooks"]] == [hook_command("prompt")]
    assert [hook["command"] for group in edit for hook in group["hooks"]] == [hook_command("post-edit")]
    assert [group.get("matcher") for group in prompt] == [one.prompt_matcher]
    assert [group["matcher"] for group in edit] == [one.edit_matcher]
    assert {hook["timeout"] for group in prompt + edit for hook in group["hooks"]} == {one.timeout}


@BY_NAME
def test_the_hooks_source_and_doctor_find_what_install_wrote_for_each_host(root, home, one):
    install(one.name, "project", home, root)
    found, warnings = scan_with(hooks, root)
    rel = f"{one.directory}/{one.files[0].name}"
    edit_suffix = f" (matcher {one.edit_matcher})"
    prompt_suffix = f" (matcher {one.prompt_matcher})" if one.prompt_matcher else ""
    assert locations(found) == [f"{rel}: hooks.{one.prompt_event}[0].hooks[0]{prompt_suffix}",
                                f"{rel}: hooks.{one.edit_event}[0].hooks[0]{edit_suffix}"]
    assert warnings == [] and "ladder's edit hook: structural rules" in found[1].text
    assert installed_kinds(root, home) == {h.name: ("post-edit", "prompt") if h is one else () for h in HOSTS}
    uninstall(one.name, "project", home, root)
    assert scan_with(hooks, root)[0] == [] and not any(installed_kinds(root, home).values())


@pytest.mark.parametrize("one, file", [(h, f) for h in HOSTS for f in h.files if f.form == "toml"],
                         ids=[f"{h.name}-{f.name}" for h in HOSTS for f in h.files if f.form == "toml"])
def test_a_toml_file_the_host_already_configures_hooks_in_is_written_and_found(root, home, one, file):
    path = root / one.directory / file.name
    path.parent.mkdir(parents=True)
    path.write_text('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "notify.sh"\n')
    assert install(one.name, "project", home, root).written == (path,)
    found, warnings = scan_with(hooks, root)
    events = [location.split(": ")[1].split("[")[0] for location in locations(found)]
    assert warnings == [] and events == ["hooks.Stop", f"hooks.{one.prompt_event}", f"hooks.{one.edit_event}"]
    assert installed_kinds(root, home)[one.name] == ("post-edit", "prompt")


def test_doctor_reads_a_file_the_host_reads_that_install_leaves_to_the_user(root, home):
    for one in HOSTS:
        for file in (f for f in one.files if not f.installs):
            path = root / one.directory / file.name
            path.parent.mkdir(parents=True, exist_ok=True)
            group = {"hooks": [{"type": "command", "command": hook_command("prompt")}]}
            path.write_text(json.dumps({"hooks": {one.prompt_event: [group]}}))
            assert installed_kinds(root, home)[one.name] == ("prompt",)
            path.unlink()


def _payload(one, kind: str, named: bool) -> dict:
    data: dict = {field: "x" for field in one.own_fields}
    if named:
        data["hook_event_name"] = one.event(kind)
    return data


@BY_NAME
@pytest.mark.parametrize("named", [True, False], ids=["event named", "no event name"])
def test_each_hosts_payload_is_taken_for_that_host(one, named):
    assert sender(_payload(one, "prompt", named), _payload(one, "prompt", named).get("hook_event_name"),
                  "prompt") is one
    edit = _payload(one, "post-edit", named)
    assert sender(edit, edit.get("hook_event_name"), "post-edit") is one
    for tool in own_tools(one):  # a tool only this host has says which host it is, without an event name
        assert sender({}, None, "post-edit", tool) is one


def test_a_payload_with_two_hosts_fields_is_taken_for_the_first_of_the_recognition_order():
    both = {field: "x" for h in RECOGNITION for field in h.own_fields}
    assert sender(both, None, "prompt") is RECOGNITION[0]
    assert sender({"hook_event_name": "NoSuchEvent"}, "NoSuchEvent", "prompt") is None


@BY_NAME
def test_the_prompt_hook_answers_each_host_in_its_form(tmp_path, one):
    stdin = json.dumps({**_payload(one, "prompt", True), "cwd": str(tmp_path), "prompt": "hello"}).encode()
    assert prompt_hook.run(stdin, {}) == one.prompt_nothing  # nothing to add: the host's nothing
    output = json.loads(prompt_hook.render(one, "a fact"))["hookSpecificOutput"]
    assert output == {"hookEventName": one.prompt_event, "additionalContext": "a fact"}


@BY_NAME
def test_the_edit_hook_answers_each_host_in_its_form(tmp_path, one):
    payload = {**_payload(one, "post-edit", True), "cwd": str(tmp_path), "tool_name": one.edit_tools[0],
               "tool_input": {"file_path": str(tmp_path / "m.py")}}
    dialect = edit_hook.parse_payload(json.dumps(payload).encode(), {}).dialect
    assert dialect == answering(one, "post-edit").name
    finding = edit_findings.Finding("m.py", 3, "f", "LAD102", "cognitive complexity", 20, 21, 15, "> 15", True)
    said = json.loads(edit_hook.render(dialect, [finding]))["hookSpecificOutput"]
    assert said["hookEventName"] == one.edit_event
    assert json.loads(edit_hook.render(dialect, [finding], block=True))["decision"] == one.block_decision


@BY_NAME
def test_a_read_only_tool_of_each_host_is_no_edit(tmp_path, one):
    for tool in one.read_only_tools:
        payload = {**_payload(one, "post-edit", True), "cwd": str(tmp_path), "tool_name": tool,
                   "tool_input": {"file_path": str(tmp_path / "m.py")}}
        assert edit_hook.parse_payload(json.dumps(payload).encode(), {}) is None


@BY_NAME
def test_the_project_directory_a_host_sets_is_where_it_works(tmp_path, one):
    from ladder_plugins.readers.stdin import working_dir

    if one.project_dir_env is None:
        pytest.skip(f"{one.title} sets no project directory")
    assert working_dir({}, {one.project_dir_env: str(tmp_path)}) == str(tmp_path)
    assert working_dir({"cwd": str(tmp_path / "missing")}, {one.project_dir_env: "relative"}) is None
