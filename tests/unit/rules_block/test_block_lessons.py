"""The block carries lessons: those that recurred enough, as their title and how to apply them; and within its
budget every family keeps its name and count (titles shortened) before any is only counted."""

from __future__ import annotations

from pathlib import Path

from ladder_plugins.lessons.store import Lesson
from ladder_plugins.rules_block.block import (
    DEMOTED_CAPS, DEMOTED_SUFFIX, FULL_PREFIX, MORE_PREFIX, Section, lesson_sections, render_block,
)


def _lesson(n: int, severity: str, count: int) -> Lesson:
    return Lesson(f"f{n:016x}", f"family-{n}", "reviewer", severity, f"Lesson {n}", "Do the thing.",
                  f"Check the thing {n} before saying it is done.", ("thing",), "2026-11-01T00:00:00Z",
                  "2026-10-01T00:00:00Z", count, (), "", Path(f"f{n:016x}.md"))


def test_lessons_qualify_by_severity_and_count_and_say_how_to_apply_them():
    lessons = [_lesson(1, "Major", 3), _lesson(2, "Major", 2), _lesson(3, "Critical", 2), _lesson(4, "Blocker", 1),
               _lesson(5, "Minor", 50)]
    sections = lesson_sections(lessons)
    assert [(s.title, s.severity, s.count) for s in sections] == [
        ("Lesson 1", "Major", 3), ("Lesson 3", "Critical", 2), ("Lesson 4", "Blocker", 1)]
    assert sections[0].body == ("How to apply: Check the thing 1 before saying it is done.",)
    assert sections[0].last == "2026-10-01"


def _families(count: int) -> list[Section]:
    return [Section(f"k{n}", "Major", f"A recurring family of feedback with a long descriptive title, number {n}",
                    (f"How to apply to family {n}: " + "say what to do in a full sentence; " * 6,), 3 + n % 7,
                    "2026-11-01")
            for n in range(count)]


def test_48_families_in_6_kb_are_all_named_with_their_counts():
    block = render_block(_families(48), max_bytes=6144)
    assert block.size <= 6144 and not block.counted and MORE_PREFIX not in block.text
    assert block.text.count(DEMOTED_SUFFIX) == len(block.demoted) and len(block.full) + len(block.demoted) == 48
    for section in block.demoted:
        assert f"({section.count}\u00d7)" in block.text
    assert block.full, "the room left after the names goes to sections in full"


def test_names_are_shortened_before_any_family_is_only_counted():
    block = render_block(_families(80), max_bytes=6144)
    assert block.title_cap < DEMOTED_CAPS[0] and not block.counted and block.text.count(FULL_PREFIX) == len(block.full)
    crowded = render_block(_families(400), max_bytes=6144)
    assert crowded.counted and crowded.title_cap == DEMOTED_CAPS[-1] and crowded.size <= 6144
