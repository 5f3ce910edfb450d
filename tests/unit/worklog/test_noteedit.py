"""``worklog.noteedit``: a note's frontmatter keys set in place (every other byte kept, a trailing comment
kept, CRLF kept), ``updated`` stamped in the note's own style, and each edit that cannot be made safely an
error naming the note (and the line, where there is one)."""

from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest
import yaml

from ladder_plugins.errors import LadderError
from ladder_plugins.worklog.noteedit import edit_front_matter, stamp, yaml_text
from ladder_plugins.worklog.notes import note_of_text

from tests.helpers.kb import RAW, note_text

SHOWN = f"kb/raw/{RAW}.md"
NOW = datetime(2026, 3, 4, 10, 0, 0, 123456, tzinfo=timezone.utc)


@pytest.fixture
def utc(monkeypatch):
    """The local zone is UTC, so a zoneless stamp (local wall-clock time) is known."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _note(**values):
    return note_of_text(note_text(RAW, "raw", **values), SHOWN, "raw", RAW)


def test_a_zoneless_note_gets_a_zoneless_stamp_to_the_second(utc):
    assert stamp(_note(), NOW) == "2026-03-04T10:00:00"


def test_a_zoned_note_gets_the_stamp_with_its_offset():
    assert stamp(_note(updated="2026-03-03T15:00:00+02:00"), NOW) == "2026-03-04T10:00:00+00:00"


def test_without_updated_the_created_decides_the_style():
    assert stamp(_note(updated=None, created="2026-03-03T14:30:00Z"), NOW) == "2026-03-04T10:00:00+00:00"


def test_a_stamp_before_created_is_refused_naming_the_note(utc):
    with pytest.raises(LadderError) as caught:
        stamp(_note(), datetime(2026, 3, 1, tzinfo=timezone.utc))
    assert str(caught.value) == (f"{SHOWN}: the new updated 2026-03-01T00:00:00 would be before created "
                                 "2026-03-03T14:30:00 as 'ladder kb check' compares them (is the clock behind?); "
                                 "nothing was changed")


@pytest.mark.parametrize("value", ["curated", 'a "quoted" word', "two\nlines", "colon: inside", "# not a comment",
                                   "ünïcode"])
def test_yaml_text_is_one_line_that_reads_back(value):
    text = yaml_text(value)
    assert "\n" not in text and text.startswith('"')
    assert yaml.safe_load(f"k: {text}") == {"k": value}


def test_a_key_is_replaced_and_a_new_one_added_after_the_last():
    old = note_text(RAW, "raw").replace("status: raw", "status: raw  # keep me")
    new = edit_front_matter(old, {"status": yaml_text("curated"), "archived_reason": yaml_text("done")}, SHOWN)
    old_lines, new_lines = old.split("\n"), new.split("\n")
    assert new_lines[3] == 'status: "curated"  # keep me'
    assert new_lines[11] == 'archived_reason: "done"'
    assert new_lines[:3] == old_lines[:3] and new_lines[4:11] == old_lines[4:11]
    assert new_lines[12:] == old_lines[11:]


def test_a_multi_line_value_becomes_one_line():
    old = note_text(RAW, "raw", tags="\n  - topic/a\n  - type/b")
    new = edit_front_matter(old, {"tags": "[topic/c]"}, SHOWN)
    assert "  - topic/a" not in new and "\ntags: [topic/c]\ncreated:" in new


def test_crlf_lines_stay_crlf():
    old = note_text(RAW, "raw").replace("\n", "\r\n")
    new = edit_front_matter(old, {"status": yaml_text("curated"), "extra": "1"}, SHOWN)
    assert 'status: "curated"\r\n' in new and "extra: 1\r\n" in new
    assert new.count("\n") == new.count("\r\n") == old.count("\r\n") + 1


@pytest.mark.parametrize("text, message", [
    ("---\nid: [x\n---\nbody\n", "kb/n.md:3: front matter is not valid YAML at line 3; expected a YAML mapping of "
                                 "the note's fields between '---' lines; fix the frontmatter first"),
    ("---\n{id: a, status: raw}\n---\nbody\n", "kb/n.md: the frontmatter is not one key per line (block style); "
                                               "expected 'key: value' lines to edit in place"),
    ("---\nid: a\nid: b\n---\nbody\n", "kb/n.md: key 'id' appears 2 times in the frontmatter; expected once"),
])
def test_what_cannot_be_edited_in_place_is_an_error(text, message):
    with pytest.raises(LadderError) as caught:
        edit_front_matter(text, {"id": yaml_text("z")}, "kb/n.md")
    assert str(caught.value) == message


def test_an_edit_that_does_not_read_back_as_meant_is_refused():
    old = note_text(RAW, "raw")
    with pytest.raises(LadderError, match=f"{SHOWN}: the frontmatter cannot be edited in place safely; set status "
                                          "by hand"):
        edit_front_matter(old, {"status": "[unclosed"}, SHOWN)
