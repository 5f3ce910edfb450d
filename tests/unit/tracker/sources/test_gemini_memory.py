"""Gemini CLI's memory as a level-1 source: the facts its memory tool appends under ``## Gemini Added Memories``
in the project's GEMINI.md (one ``- fact`` line each), read as review feedback, left out of the documentation
the rest of GEMINI.md is."""

from __future__ import annotations

from datetime import date

from ladder_plugins.tracker.model import SourceContext
from ladder_plugins.tracker.scan import apply_sightings
from ladder_plugins.tracker.sources import docs, memory
from ladder_plugins.tracker.topics import shipped_topics

from tests.helpers.feedback import write
from tests.helpers.git import commit, git, needs_git

#: as Gemini CLI leaves it: the project's own instructions, then the section its memory tool keeps
GEMINI_MD = """\
# Project context

- Run the tests with `pytest -q` before saying a change works.

## Gemini Added Memories
- Always use English for file content.
- Do not leave print() calls for debugging in the code.
- Never comment code, except to follow the current project pattern.

## Layout
- The package lives in src/shop.
"""


class NoPlugins:
    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


def test_each_added_memory_is_a_level_1_sighting(tmp_path):
    write(tmp_path, "GEMINI.md", GEMINI_MD)
    found = memory.ladder_feedback_sources(context=SourceContext(root=tmp_path))
    assert [(s.level, s.source, s.text, s.location) for s in found] == [
        (1, "gemini-memory", "Always use English for file content.", "GEMINI.md:6 (Gemini CLI memory)"),
        (1, "gemini-memory", "Do not leave print() calls for debugging in the code.", "GEMINI.md:7 (Gemini CLI memory)"),
        (1, "gemini-memory", "Never comment code, except to follow the current project pattern.",
         "GEMINI.md:8 (Gemini CLI memory)"),
    ]
    assert all(s.when for s in found)


def test_the_rest_of_gemini_md_is_documentation_and_the_memories_are_not(tmp_path):
    write(tmp_path, "GEMINI.md", GEMINI_MD)
    found = docs.ladder_feedback_sources(context=SourceContext(root=tmp_path))
    assert [(s.text, s.location) for s in found] == [
        ("Run the tests with `pytest -q` before saying a change works.", "GEMINI.md:3"),
        ("The package lives in src/shop.", "GEMINI.md:11"),
    ]


def test_a_gemini_md_without_the_section_gives_no_memories(tmp_path):
    write(tmp_path, "GEMINI.md", "# Context\n\n- Use uv to run everything.\n")
    assert memory.ladder_feedback_sources(context=SourceContext(root=tmp_path)) == []


@needs_git
def test_a_memory_is_dated_by_its_line_and_meets_the_same_rule_written_down(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main")
    commit(tmp_path, {"GEMINI.md": GEMINI_MD, "CLAUDE.md": "- Use logging instead of print\n"}, "2026-02-10T09:00:00Z")
    context = SourceContext(root=tmp_path)
    found = memory.ladder_feedback_sources(context=context) + docs.ladder_feedback_sources(context=context)
    assert {s.when for s in found} == {"2026-02-10"}
    items: list = []
    apply_sightings(items, found, NoPlugins(), shipped_topics(), date(2026, 6, 1))
    printing = next(i for i in items if i["ladder"].get("topic") == "print-statements")
    assert printing["occurrences"] == 2 and printing["current_level"] == 2
    assert {s["source"] for s in printing["ladder"]["sources"]} == {"gemini-memory", "docs"}
