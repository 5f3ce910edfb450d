"""``ladder feedback merge`` and ``split``: a person corrects the matcher, and the correction holds.

Each test builds a real project (a CLAUDE.md whose bullets the matcher keeps apart or joins), runs a real
scan, corrects it through the CLI, and scans again: the sources stay where the person put them (a scan
never moves a source whose identity an item holds), the counts and levels are what a scan computes, and a
second scan changes nothing."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.tracker.correct import merge, split
from ladder_plugins.tracker.keywords import kebab_id, keywords_of

STATE = ".claude/feedback-ladder-state.json"
TESTS = ["Run the tests before you commit.", "Make sure pytest passes before pushing.",
         "Never push without running the test suite first."]
ERRORS = ["Never write a bare except clause.", "Always name the exception you catch.",
          "Handle errors explicitly instead of swallowing them."]


@pytest.fixture
def project(tmp_path, ladder_in_process):
    """A project whose CLAUDE.md has the bullets given, scanned once; ``run(args)`` runs ``ladder feedback``."""
    def make(bullets):
        (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
        (tmp_path / "CLAUDE.md").write_text("# Rules\n\n" + "".join(f"- {b}\n" for b in bullets))
        assert run("scan").returncode == 0
        return tmp_path

    def run(*args):
        return ladder_in_process(["feedback", *args], tmp_path, HOME=str(tmp_path / "home"),
                                 LADDER_NOW="2026-06-01T00:00:00Z")

    make.run = run
    return make


def _items(root):
    return json.loads((root / STATE).read_text())["feedbacks"]


def _holder(root, text):
    """The item counting the bullet ``text``, and the 1-based number of its source there."""
    for item in _items(root):
        for number, src in enumerate(item["ladder"]["sources"], 1):
            if src["text"] == text:
                return item, number
    raise AssertionError(f"no item counts {text!r}")


def _rescan_holds(project, root):
    """A scan keeps the state as the correction left it, and one more writes the same bytes."""
    before = _items(root)
    assert project.run("scan").returncode == 0
    assert _items(root) == before
    written = (root / STATE).read_bytes()
    assert project.run("scan").returncode == 0
    assert (root / STATE).read_bytes() == written


def _merged(root, ids):
    """The item ``ids[0]`` holds the three test bullets, counted and levelled as a scan would."""
    kept = next(i for i in _items(root) if i["id"] == ids[0])
    assert kept["topic"] == TESTS[0] and kept["occurrences"] == 3
    assert sorted(s["text"] for s in kept["ladder"]["sources"]) == sorted(TESTS)
    assert kept["current_level"] == 2 and kept["current_location"] in ("CLAUDE.md:3", "CLAUDE.md:4", "CLAUDE.md:5")
    assert kept["recommended_level"] in (3, 4) and kept["promoted"] is False  # 3 occurrences, written down only
    assert kept["ladder"]["due_since"] and kept["first_seen"] == kept["last_seen"]


def test_a_merge_of_feedback_kept_apart_holds_across_scans(project):
    root = project(TESTS + ["Add type hints to public functions."])
    ids = [_holder(root, text)[0]["id"] for text in TESTS]
    assert len(set(ids)) == 3, f"the matcher now joins these: {ids} (pick bullets it keeps apart)"
    done = project.run("merge", ids[0], ids[1], ids[2])
    assert done.returncode == 0, done.stderr
    assert f"merge {ids[1]}, {ids[2]} into {ids[0]}; 2 sources moved" in done.stdout
    _merged(root, ids)
    assert {i["id"] for i in _items(root)} == {ids[0], _holder(root, "Add type hints to public functions.")[0]["id"]}
    _rescan_holds(project, root)
    _merged(root, ids)


def _was_split(root, item, new_id):
    """The bullet ``ERRORS[2]`` is an item of its own, ``new_id``; ``item`` keeps the rest."""
    left, new = (next(i for i in _items(root) if i["id"] == name) for name in (item["id"], new_id))
    assert new["topic"] == ERRORS[2] and new["occurrences"] == 1 and new["recommended_level"] == 1
    assert new["current_location"] == "CLAUDE.md:5" and new["promoted"] is True
    assert left["occurrences"] == item["occurrences"] - 1 and left["topic"] == item["topic"]
    assert ERRORS[2] not in [s["text"] for s in left["ladder"]["sources"]]
    assert left["recommended_level"] == (2 if left["occurrences"] == 2 else 1)
    assert left["current_location"] != "CLAUDE.md:5"


def test_a_split_of_feedback_joined_wrongly_holds_across_scans(project):
    root = project(ERRORS)
    item, number = _holder(root, ERRORS[2])
    assert len(item["ladder"]["sources"]) > 1, "the matcher now keeps these apart (pick bullets it joins)"
    listed = project.run("list", "--sources")
    shown = [line for line in listed.stdout.splitlines() if line.startswith(f"      {number}. level 2 docs at CLAUDE.md:5 (")]
    assert len(shown) == 1 and shown[0].endswith(f"): {ERRORS[2]}")
    done = project.run("split", item["id"], str(number))
    assert done.returncode == 0, done.stderr
    new_id = kebab_id(keywords_of(ERRORS[2], limit=None), [item["id"]])
    assert f"into new item {new_id}" in done.stdout
    _was_split(root, item, new_id)
    _rescan_holds(project, root)
    _was_split(root, item, new_id)
    assert _holder(root, ERRORS[2])[0]["id"] == new_id


@pytest.mark.parametrize("action", [("merge", "{a}", "{b}"), ("split", "{c}", "1")], ids=["merge", "split"])
def test_a_dry_run_writes_nothing(project, action):
    root = project(TESTS[:2] + ERRORS[:2])
    a, b = (_holder(root, text)[0]["id"] for text in TESTS[:2])
    c = _holder(root, ERRORS[0])[0]["id"]
    if action[0] == "split" and len(_holder(root, ERRORS[0])[0]["ladder"]["sources"]) < 2:
        pytest.fail("the matcher now keeps the two except bullets apart (pick bullets it joins)")
    written = (root / STATE).read_bytes()
    done = project.run(*(part.format(a=a, b=b, c=c) for part in action), "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "(not written)" in done.stdout and done.stdout.startswith(f"would {action[0]}")
    assert (root / STATE).read_bytes() == written


def _error(project, root, *args):
    written = (root / STATE).read_bytes()
    done = project.run(*args)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert (root / STATE).read_bytes() == written
    return done.stderr


def test_wrong_ids_and_numbers_are_errors_naming_what_exists(project):
    root = project(TESTS[:2])
    a, b = (_holder(root, text)[0]["id"] for text in TESTS[:2])
    assert f"no item 'nope' in the feedback state; its items: {a}, {b}" in _error(project, root, "merge", a, "nope")
    assert "no item 'nope'" in _error(project, root, "merge", "nope", a)
    assert "no item 'nope'" in _error(project, root, "split", "nope", "1")
    assert f"cannot merge item {a!r} into itself" in _error(project, root, "merge", a, a)
    for wrong in ("0", "2", "x", "-1"):
        said = _error(project, root, "split", a, wrong)
        assert f"item {a!r} has no source {wrong!r}: it has source 1" in said
    assert f"cannot split every source away from item {a!r}" in _error(project, root, "split", a, "1")


def test_an_item_the_tracker_cannot_read_is_refused_and_left_as_it_is(project):
    root = project(TESTS[:2])
    a, b = (_holder(root, text)[0]["id"] for text in TESTS[:2])
    data = json.loads((root / STATE).read_text())
    next(i for i in data["feedbacks"] if i["id"] == b)["occurrences"] = "many"
    (root / STATE).write_text(json.dumps(data))
    assert f"item {b!r} of the feedback state: occurrences is not a whole number" in _error(
        project, root, "merge", a, b)
    assert f"item {b!r}" in _error(project, root, "merge", b, a)
    assert f"item {b!r}" in _error(project, root, "split", b, "1")


def _source(identity, text, when, location="CLAUDE.md:3"):
    return {"identity": identity, "level": 2, "source": "docs", "location": location, "when": when, "text": text}


def test_occurrences_another_tool_counted_without_a_source_stay_counted():
    seed = {"id": "no-merge-without-tests", "topic": "Do not merge without tests", "occurrences": 3,
            "first_seen": "2026-04-10", "last_seen": "2026-04-16", "current_level": 1,
            "current_location": "MEMORY.md feedback entry", "recommended_level": 4, "promoted": False}
    ours = {"id": "run-test-commit", "topic": TESTS[0], "occurrences": 1, "first_seen": "2026-05-02",
            "last_seen": "2026-05-02", "current_level": 2, "current_location": "CLAUDE.md:3", "recommended_level": 1,
            "promoted": True, "ladder": {"sources": [_source("CLAUDE.md#1", TESTS[0], "2026-05-02")]}}
    items = [seed, ours]
    done = merge(items, "no-merge-without-tests", ["run-test-commit"], [], date(2026, 6, 1))
    assert [i["id"] for i in items] == ["no-merge-without-tests"] and done.moved == 1
    assert seed["occurrences"] == 4 and (seed["first_seen"], seed["last_seen"]) == ("2026-04-10", "2026-05-02")
    assert (seed["current_level"], seed["current_location"]) == (2, "CLAUDE.md:3")
    assert seed["recommended_level"] == 3 and seed["promoted"] is False
    with pytest.raises(Exception, match="cannot split every source away"):
        split(items, "no-merge-without-tests", ["1"], [], date(2026, 6, 1))


@pytest.mark.parametrize("wrong", ["\u00b2", "9" * 5000, "\u2460"], ids=["superscript", "5000-digits", "circled"])
def test_a_source_number_int_cannot_read_is_an_error_not_a_traceback(wrong):
    """``str.isdigit`` is true of '²', '①' and of 5,000 nines, which ``int`` refuses (a ValueError, a traceback)."""
    items = [{"id": "run-test-commit", "topic": TESTS[0], "occurrences": 2, "current_level": 2,
              "ladder": {"sources": [_source("CLAUDE.md#1", TESTS[0], "2026-05-02"),
                                     _source("CLAUDE.md#2", TESTS[1], "2026-05-02", "CLAUDE.md:4")]}}]
    with pytest.raises(LadderError, match="has no source .*: it has sources 1-2"):
        split(items, "run-test-commit", [wrong], [], date(2026, 6, 1))


@pytest.mark.parametrize("damage", ['{"version": 1, "feedbacks": 5}', "{not json"])
def test_a_correction_of_a_damaged_state_is_refused_and_leaves_it_where_it_is(project, damage):
    """A scan keeps a damaged state aside and starts anew; a correction of named items has nothing to correct
    then, so it says the file is damaged and moves nothing aside."""
    root = project(TESTS[:2])
    (root / STATE).write_text(damage)
    for dry in ((), ("--dry-run",)):
        said = _error(project, root, "merge", "a", "b", *dry)
        assert "is damaged" in said and "a new state file is started" not in said, said
        assert "or damaged (see the warning above)" in said and "no item" not in said, said
    assert not list((root / STATE).parent.glob("*.damaged-*"))


def test_a_merge_counts_the_sources_a_listing_numbers_not_junk_beside_them(project):
    root = project(TESTS[:2])
    a, b = (_holder(root, text)[0]["id"] for text in TESTS[:2])
    data = json.loads((root / STATE).read_text())
    next(i for i in data["feedbacks"] if i["id"] == b)["ladder"]["sources"].append(5)
    (root / STATE).write_text(json.dumps(data))
    done = project.run("merge", a, b)
    assert done.returncode == 0, done.stderr
    assert "1 source moved" in done.stdout or "moved 1 source" in done.stdout, done.stdout
