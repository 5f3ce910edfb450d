"""The tracker's core: keywords and matching, the state file (the seed's schema, kept), counting once, the
seed's promotion rules, Claude Code memory and ladder's own notes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from ladder_plugins.hookspecs import hookimpl
from ladder_plugins.tracker.keywords import kebab_id, keywords_of, stem
from ladder_plugins.tracker.sources.memory import find_memory_dir, memory_sightings
from ladder_plugins.tracker.model import Sighting, SourceContext
from ladder_plugins.tracker.state import StateFile
from ladder_plugins.tracker.promotion import recommended_level
from ladder_plugins.tracker.scan import apply_sightings

SEED_STATE = {
    "version": 1,
    "owner": "written by the seed's skill",
    "feedbacks": [{
        "id": "no-merge-without-tests", "topic": "Do not merge without tests", "keywords": ["test", "merge", "coverage"],
        "occurrences": 3, "first_seen": "2026-04-10", "last_seen": "2026-04-16", "current_level": 1,
        "current_location": "MEMORY.md feedback entry", "recommended_level": 4, "promoted": False,
        "reviewer": "kept as it is",
    }],
}


class NoPlugins:
    """A plugin manager whose matcher hook has no plugin answers: the built-in rule decides."""

    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


@pytest.mark.parametrize("word, base", [("tests", "test"), ("testing", "test"), ("tested", "test"),
                                        ("dependencies", "dependency"), ("classes", "class"), ("status", "status"),
                                        ("uses", "uses"), ("branches", "branch")])
def test_stemming_meets_plurals_and_verb_forms(word, base):
    assert stem(word) == base


def test_keywords_drop_stop_words_and_split_names():
    assert keywords_of("Don't use a bare-except; catch specific exceptions") == (
        "bare", "except", "catch", "specific", "exception")


def test_ids_are_kebab_case_and_unique():
    assert kebab_id(("bare", "except", "clause"), ["bare-except-clause"]) == "bare-except-clause-2"
    assert kebab_id((), []) == "feedback"


@pytest.mark.parametrize("count, topic, level", [(1, None, 1), (2, None, 2), (3, None, 3), (3, "check", 4),
                                                 (9, "check", 4)])
def test_the_seeds_promotion_rules(count, topic, level):
    assert recommended_level(count, topic) == level


def _state_file(tmp_path, warned=None):
    return StateFile(tmp_path / ".claude" / "feedback-ladder-state.json", tmp_path,
                     (warned if warned is not None else []).append)


def test_a_seed_state_file_round_trips_with_unknown_fields_kept(tmp_path):
    state_file = _state_file(tmp_path)
    state_file.path.parent.mkdir()
    state_file.path.write_text(json.dumps(SEED_STATE))
    with state_file.updating() as state:
        apply_sightings(state.items, [], NoPlugins, [], date(2026, 5, 1))
    data = json.loads(state_file.path.read_text())
    assert data["owner"] == SEED_STATE["owner"] and data["feedbacks"][0]["reviewer"] == "kept as it is"
    kept = {k: v for k, v in data["feedbacks"][0].items() if k not in ("ladder", "recommended_level", "promoted")}
    assert kept == {k: v for k, v in SEED_STATE["feedbacks"][0].items() if k not in ("recommended_level", "promoted")}
    assert data["feedbacks"][0]["recommended_level"] == 3  # no topic table given: no known check


@pytest.mark.parametrize("content, why", [(b"{not json", "not JSON"), (b"[1, 2]", "not a JSON object"),
                                          (b'{"version": "one"}', "version"), (b'\xff\xfe', "not JSON")])
def test_a_damaged_state_file_is_kept_aside_and_said_once(tmp_path, content, why):
    warned = []
    state_file = _state_file(tmp_path, warned)
    state_file.path.parent.mkdir()
    state_file.path.write_bytes(content)
    with state_file.updating() as state:
        assert state.items == []
    [kept] = state_file.path.parent.glob("feedback-ladder-state.json.damaged-*")
    assert kept.read_bytes() == content and len(warned) == 1 and why in warned[0]


def test_a_newer_state_file_is_read_and_never_overwritten(tmp_path):
    warned = []
    state_file = _state_file(tmp_path, warned)
    state_file.path.parent.mkdir()
    newer = json.dumps({"version": 2, "feedbacks": [], "future": True})
    state_file.path.write_text(newer)
    with state_file.updating() as state:
        state.items.append({"id": "x"})
    assert state_file.path.read_text() == newer and "newer" in warned[0]


def test_a_malformed_item_is_kept_and_not_updated(tmp_path):
    items = [{"id": "broken", "topic": "t", "occurrences": "many", "keywords": ["bare", "except"]}]
    scan = apply_sightings(items, [Sighting(1, "bare except again", "memory", "memory", "m#1")], NoPlugins, [],
                           date(2026, 5, 1))
    assert items[0] == {"id": "broken", "topic": "t", "occurrences": "many", "keywords": ["bare", "except"]}
    assert scan.untrusted == ["broken"] and len(items) == 2  # the sighting started an item of its own


def _sighting(identity, text="never write a bare except clause", level=1, when="2026-05-01"):
    return Sighting(level, text, f"{identity} location", "memory", identity, when)


def test_scanning_twice_counts_each_identity_once_and_another_place_again():
    items: list = []
    first = [_sighting("a.md#1"), _sighting("b.md#2", "bare except clauses hide bugs", when="2026-05-03")]
    apply_sightings(items, first, NoPlugins, [], date(2026, 5, 4))
    before = json.dumps(items, sort_keys=True)
    again = apply_sightings(items, first, NoPlugins, [], date(2026, 5, 4))
    assert json.dumps(items, sort_keys=True) == before and again.new_occurrences == 0
    assert items[0]["occurrences"] == 2
    assert (items[0]["first_seen"], items[0]["last_seen"]) == ("2026-05-01", "2026-05-03")
    apply_sightings(items, first + [_sighting("c.md#3")], NoPlugins, [], date(2026, 5, 4))
    assert items[0]["occurrences"] == 3 and items[0]["recommended_level"] == 3 and not items[0]["promoted"]


def test_an_enforced_check_sets_the_level_but_starts_no_item():
    items: list = []
    enforced = Sighting(4, "bare except clause E722", "setup.cfg [flake8]", "enforced", "setup.cfg#1:bare-except")
    apply_sightings(items, [enforced], NoPlugins, [], date(2026, 5, 4))
    assert items == []
    apply_sightings(items, [_sighting("a.md#1"), _sighting("b.md#2"), enforced], NoPlugins, [], date(2026, 5, 4))
    assert (items[0]["current_level"], items[0]["current_location"], items[0]["promoted"]) == (
        4, "setup.cfg [flake8]", True)
    assert items[0]["occurrences"] == 2  # the check is where it is encoded, not one more time it was said


def _memory(folder: Path, name: str, front: str, body: str = "**Why:** it hides bugs") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"---\n{front}---\n{body}\n")


def test_memory_files_of_type_feedback_in_both_front_matter_forms(tmp_path):
    folder = tmp_path / "memory"
    _memory(folder, "old.md", "name: bare except\ndescription: never catch everything\ntype: feedback\n")
    _memory(folder, "new.md", "name: tests\ndescription: add a test\nmetadata:\n  type: feedback\n")
    _memory(folder, "user.md", "name: me\ntype: user\n")
    _memory(folder, "broken.md", "name: [unclosed\n")
    (folder / "MEMORY.md").write_text("- [Bare except](old.md) — the hook line\n## Feedback\n- keep PRs small\n")
    warned = []
    found = list(memory_sightings(SourceContext(tmp_path, folder, warned.append)))
    assert sorted(s.location for s in found) == ["MEMORY.md:3 (Claude Code memory)", "new.md (Claude Code memory)",
                                                 "old.md (Claude Code memory)"]
    assert "the hook line" in next(s.text for s in found if s.location.startswith("old.md"))
    assert len(warned) == 1 and "broken.md" in warned[0]


def test_the_memory_directory_is_found_as_claude_code_names_it(tmp_path):
    root = tmp_path / "work" / "my_app.v2"
    folder = tmp_path / "home" / "projects" / str(root.resolve()).replace("/", "-").replace("_", "-").replace(
        ".", "-") / "memory"
    folder.mkdir(parents=True)
    root.mkdir(parents=True)
    assert find_memory_dir(root, environ={"CLAUDE_CONFIG_DIR": str(tmp_path / "home")}) == folder
    assert find_memory_dir(root, "~/elsewhere", environ={}) == Path(os.path.expanduser("~/elsewhere"))
    assert find_memory_dir(root, "notes/mem", environ={}) == root / "notes/mem"


def test_a_symlink_out_of_the_memory_directory_is_not_followed(tmp_path):
    folder = tmp_path / "memory"
    _memory(tmp_path / "outside", "secret.md", "name: s\ntype: feedback\n")
    folder.mkdir()
    os.symlink(tmp_path / "outside" / "secret.md", folder / "secret.md")
    warned = []
    assert list(memory_sightings(SourceContext(tmp_path / "project", folder, warned.append))) == []
    assert len(warned) == 1 and "outside" in warned[0]


def test_two_scans_at_once_lose_no_note(tmp_path):
    """Real processes adding notes at the same time: every note is kept, each counted once."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    script = ("import sys; from ladder_plugins.cli.main import main; "
              "sys.exit(main(['feedback', 'add', f'bare except number {sys.argv[1]}']))")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(n)], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env={**os.environ, "HOME": str(tmp_path / "home")})
             for n in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    state = json.loads((tmp_path / ".claude" / "feedback-ladder-state.json").read_text())
    assert sum(item["occurrences"] for item in state["feedbacks"]) == 4
    notes = (tmp_path / ".ladder" / "feedback" / "notes.jsonl").read_text().splitlines()
    assert len(notes) == 4


@pytest.mark.parametrize("garbage", [b"{not json", b"\xff\xfe", b'{"id": "x"}', b"[1, 2]",
                                     b'{"id": "x\\u0007", "when": "2026-05-01", "text": "t"}'])
def test_a_damaged_journal_line_is_skipped_counted_kept_and_said_once(tmp_path, garbage):
    from ladder_plugins.tracker.sources.journal import NOTES, add_note, entries

    folder = tmp_path / ".ladder" / "feedback"
    add_note(folder, tmp_path, "first note", [])
    with open(folder / NOTES, "ab") as handle:
        handle.write(garbage + b"\n")
    add_note(folder, tmp_path, "second note", [])
    warned = []
    found = list(entries(folder / NOTES, SourceContext(tmp_path, None, warned.append)))
    assert [e["text"] for e in found] == ["first note", "second note"]
    assert len(warned) == 1 and "1 unreadable lines" in warned[0] and garbage in (folder / NOTES).read_bytes()


class _Broken:
    """A source plugin with a bug."""

    @hookimpl
    def ladder_feedback_sources(self, context):
        raise RuntimeError("boom")


class _Junk:
    """A source plugin that returns one good sighting among junk."""

    @hookimpl
    def ladder_feedback_sources(self, context):
        return [Sighting(1, "a good one", "here", "junk", "j#1"), "not a sighting", Sighting(9, "x", "y", "z", "w")]


class _Everything:
    """A matcher that puts every piece of feedback into the first item."""

    @hookimpl
    def ladder_feedback_match(self, sighting, keywords, items):
        return items[0]["id"] if items else ""


def _manager(*plugins):
    import pluggy

    from ladder_plugins import hookspecs

    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs.LadderSpec)
    for plugin in plugins:
        pm.register(plugin)
    return pm


def test_a_failing_source_or_junk_from_one_is_said_and_skipped(tmp_path):
    from ladder_plugins.tracker.scan import scan_sources

    warned = []
    found = scan_sources(_manager(_Broken(), _Junk()), SourceContext(tmp_path, None, warned.append))
    assert [s.text for s in found] == ["a good one"]
    assert any("failed (RuntimeError: boom)" in w for w in warned) and any("2 malformed" in w for w in warned)


def test_a_plugin_matcher_decides_before_the_keyword_rule():
    items: list = []
    unrelated = [_sighting("a#1", "bare except clauses"), _sighting("b#2", "pull requests too large")]
    apply_sightings(items, unrelated, _manager(_Everything()), [], date(2026, 5, 4))
    assert len(items) == 1 and items[0]["occurrences"] == 2


def test_scan_dry_run_and_list_write_nothing(tmp_path):
    from tests.helpers.reports import ladder

    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "CLAUDE.md").write_text("- Never write a bare except clause.\n")
    env = {"HOME": str(tmp_path / "home")}
    dry = ladder(["feedback", "scan", "--dry-run"], tmp_path, **env)
    assert dry.returncode == 0 and "would add 1 new item" in dry.stdout and "(not written)" in dry.stdout
    assert not (tmp_path / ".claude").exists()
    listed = ladder(["feedback", "list"], tmp_path, **env)
    assert listed.returncode == 0 and "0 items" in listed.stdout and not (tmp_path / ".claude").exists()
    assert ladder(["feedback", "scan"], tmp_path, **env).returncode == 0
    assert "never write a bare except clause" in ladder(["feedback", "list"], tmp_path, **env).stdout.lower()


HAND_MADE = [
    {"version": 1, "feedbacks": [{"id": "a", "topic": "bare except"}]},  # the seed's other fields missing
    {"version": 1, "feedbacks": [{"id": "a", "topic": "t", "ladder": {"sources": [{"identity": [1]}]}}]},
    {"version": 1, "feedbacks": ["oops", {"id": "b", "topic": "t", "ladder": {"sources": ["x"]}}]},
    {"version": 1, "feedbacks": [{"id": "a", "topic": "t", "current_location": 12, "first_seen": 20240101,
                                  "ladder": {"due_since": 20240101}}]},
    {"version": 1, "feedbacks": [{"id": "a", "topic": "t", "keywords": "[" * 100_000}]},
]


@pytest.mark.parametrize("state", HAND_MADE, ids=["missing", "unhashable", "not-items", "not-text", "deep"])
def test_every_command_survives_a_hand_made_state(tmp_path, state):
    from tests.helpers.reports import ladder

    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n[tool.ladder.feedback]\ngrace_days = 1\n")
    path = tmp_path / ".claude" / "feedback-ladder-state.json"
    path.parent.mkdir()
    path.write_text(json.dumps(state))
    env = {"HOME": str(tmp_path / "home"), "LADDER_NOW": "2026-06-01T00:00:00Z"}
    for args in (["list"], ["report", "--no-scan"], ["scan", "--dry-run"], ["report", "--format", "text"],
                 ["add", "never write a bare except"], ["check"]):
        done = ladder(["feedback", *args], tmp_path, **env)
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, (args, done.stderr)


def test_a_dry_run_never_moves_a_damaged_state_aside(tmp_path):
    from tests.helpers.reports import ladder

    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    path = tmp_path / ".claude" / "feedback-ladder-state.json"
    path.parent.mkdir()
    path.write_text("not json")
    for args in (["scan", "--dry-run"], ["list"], ["report", "--no-scan"]):
        assert ladder(["feedback", *args], tmp_path, HOME=str(tmp_path / "home")).returncode == 0
        assert path.read_text() == "not json"


def test_a_note_is_never_written_through_a_ladder_directory_leading_out(tmp_path):
    from tests.helpers.reports import ladder

    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    (project / "pyproject.toml").write_text("[tool.ladder]\n")
    os.symlink(elsewhere, project / ".ladder")
    done = ladder(["feedback", "add", "keep it small"], project, HOME=str(tmp_path / "home"))
    assert done.returncode == 2 and "outside" in done.stderr and list(elsewhere.iterdir()) == []


def test_hotspots_of_a_rule_with_a_long_name_make_one_item():
    from ladder_plugins.tracker.sources.hotspots import _sighting

    rule = "exported_cyclomatic_max"
    found = [_sighting(rule, f"history:src/lib/m{n}.py::f::{rule}", f"hotspot {n}", None) for n in range(3)]
    items: list = []
    apply_sightings(items, found, _manager(_hotspots_module()), [], date(2026, 5, 4))
    assert len(items) == 1 and items[0]["occurrences"] == 3


def _hotspots_module():
    from ladder_plugins.tracker.sources import hotspots

    return hotspots


def test_rewording_a_memorys_index_line_is_no_new_occurrence(tmp_path):
    folder = tmp_path / "memory"
    _memory(folder, "m.md", "name: bare except\ndescription: never write a bare except\ntype: feedback\n")
    (folder / "MEMORY.md").write_text("- [Bare except](m.md) — first wording\n")
    first = list(memory_sightings(SourceContext(tmp_path, folder, [].append)))
    (folder / "MEMORY.md").write_text("- [Bare except](m.md) — another wording\n")
    again = list(memory_sightings(SourceContext(tmp_path, folder, [].append)))
    assert [s.identity for s in first] == [s.identity for s in again]
