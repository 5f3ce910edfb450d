"""The lessons the prompt hook adds next to the rules block: a lesson the block already gives in full is not
given a second time, whatever the block's rendering did to its title (cut to the title cap, ``<`` turned into
``‹``, a count that grew since the block was written); one the block only names in a shortened line is given."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ladder_plugins.agents.prompt_hook import HookConfig, lessons_for
from ladder_plugins.lessons.store import Draft, publish, read_lessons
from ladder_plugins.rules_block.block import TITLE_CAP, gives_in_full, lesson_sections, render_block

NOW = "2026-11-01T10:00:00Z"
CUTOFF = "2026-12-01T00:00:00Z"
LONG = "Never swallow parser errors " + "in the configuration loader and its helpers " * 5


def _publish(root, title: str, count: int = 3) -> None:
    draft = Draft(title, "reviewer", "Major", title, "Name the exception class.", "Search the diff for except.",
                  ("parser", "except"), ("h1",), "2026-10-31T09:00:00Z")
    for number in range(1, count + 1):  # the same family from another capture: a recurrence
        publish(root, ".ladder", replace(draft, sources=(f"h{number}",)), NOW)


@pytest.mark.parametrize("title", [LONG, "Never catch <Exception> in the parser"], ids=["over the cap", "angle brackets"])
def test_a_lesson_the_block_gives_in_full_is_not_given_again(tmp_path, title):
    assert len(LONG) > TITLE_CAP
    _publish(tmp_path, title)
    block = render_block(lesson_sections(read_lessons(tmp_path))).text
    assert "### Major:" in block  # the block gives it in full, under its rendered title
    config = HookConfig(root=tmp_path)
    assert lessons_for("the parser except clause again", config, CUTOFF, block) == ""


def test_a_lesson_the_block_only_names_or_does_not_hold_is_given(tmp_path):
    _publish(tmp_path, "Never catch Exception in the parser")
    sections = lesson_sections(read_lessons(tmp_path))
    full = render_block(sections).text
    demoted = render_block(sections, max_bytes=len(full.encode("utf-8")) - 1).text  # room for its name only
    assert "(shortened to fit)" in demoted and "How to apply" not in demoted
    config = HookConfig(root=tmp_path)
    for block in (demoted, ""):
        given = lessons_for("the parser except clause again", config, CUTOFF, block)
        assert "How to apply: Search the diff for except." in given


def test_a_count_grown_since_the_block_was_written_still_finds_the_lesson_in_it(tmp_path):
    _publish(tmp_path, "Never catch Exception in the parser")
    block = render_block(lesson_sections(read_lessons(tmp_path))).text
    _publish(tmp_path, "Never catch Exception in the parser", count=5)
    assert "(5\u00d7)" not in block
    assert lessons_for("the parser except clause again", HookConfig(root=tmp_path), CUTOFF, block) == ""


def test_a_lesson_whose_title_begins_another_given_in_full_is_still_given(tmp_path):
    # "### Major: Never catch Exception (in the parser) (3×)" gives that lesson, not one titled "Never catch Exception"
    _publish(tmp_path, "Never catch Exception (in the parser)")
    block = render_block(lesson_sections(read_lessons(tmp_path))).text
    assert gives_in_full(block, "Major", "Never catch Exception (in the parser)")
    assert not gives_in_full(block, "Major", "Never catch Exception")


def test_the_heading_looked_for_is_the_one_the_block_writes():
    from ladder_plugins.rules_block.block import Section, gives_in_full, heading_line

    written = heading_line(Section("k", "Critical", "Pin <every> dependency", count=7))
    assert gives_in_full(written, "Critical", "Pin <every> dependency")
    assert not gives_in_full(written, "Major", "Pin <every> dependency")
    assert not gives_in_full(written, "Trivial", "Pin <every> dependency")  # no such severity: no heading, no error
