"""The few lessons that apply to a prompt: those whose keywords the prompt names, as lines for the agent.

The prompt hook gives the agent the managed block on every prompt; a lesson that has not (yet) recurred
enough to be in the block reaches the agent only when the prompt is about it. A lesson applies when the
prompt names at least two of its keywords (all of them when it has fewer): an English keyword as the
tracker's keywords are compared (lower case, stemmed), one in another script (Chinese has no spaces to
split words at) as a substring of the prompt. The best :data:`MAX_APPLICABLE` are given, the most matched
first, then by severity, count and the most recent occurrence, each as one line of agent data.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..reports.sanitize import agent_data
from .store import SEVERITIES, Lesson, REFLECTIONS_DIR

__all__ = ["MAX_APPLICABLE", "HEADER", "matched", "applicable", "lesson_line", "lessons_context"]

MAX_APPLICABLE = 3
HEADER = (f"Lessons recorded by ladder-plugins ({REFLECTIONS_DIR}) whose keywords this prompt names; "
          "each was learnt from the user's earlier complaints:")


def _prompt_words(prompt: str) -> frozenset[str]:
    from ..tracker.keywords import keywords_of

    return frozenset(keywords_of(prompt, limit=None))


def matched(lesson: Lesson, words: frozenset[str], text: str) -> int:
    """How many of the lesson's keywords the prompt names."""
    from ..tracker.keywords import stem

    found = 0
    for keyword in lesson.keywords:
        parts = [p for p in keyword.split("-") if p]
        if keyword.isascii():
            found += bool(parts) and all(stem(p) in words for p in parts)
        else:
            found += keyword.replace("-", "") in text
    return found


def applicable(lessons: Iterable[Lesson], prompt: str, limit: int = MAX_APPLICABLE) -> list[Lesson]:
    """The lessons the prompt is about, best first, at most ``limit``."""
    words, text = _prompt_words(prompt), "".join(prompt.casefold().split())
    scored = []
    for lesson in lessons:
        hits = matched(lesson, words, text) if lesson.keywords else 0
        if hits and hits >= min(2, len(lesson.keywords)):
            scored.append((-hits, SEVERITIES.index(lesson.severity), -lesson.count, _negated(lesson.last), lesson))
    scored.sort(key=lambda row: row[:4])
    return [row[4] for row in scored[:limit]]


def _negated(text: str) -> tuple[int, ...]:
    """A date sorting the most recent first."""
    return tuple(-ord(c) for c in text)


def lesson_line(lesson: Lesson) -> str:
    """``- Major: <title>. What to do: ... How to apply: ...`` as one line of agent data."""
    return "- " + agent_data(f"{lesson.severity}: {lesson.title}. What to do: {lesson.do} How to apply: {lesson.apply}")


def lessons_context(lessons: Sequence[Lesson], room: int) -> str:
    """The header and the lessons' lines that fit in ``room`` UTF-8 bytes, whole lines only; ``""`` for none."""
    lines = [HEADER]
    used = len(HEADER.encode("utf-8")) + 1
    for lesson in lessons:
        line = lesson_line(lesson)
        size = len(line.encode("utf-8")) + 1
        if used + size > room:
            continue
        lines.append(line)
        used += size
    return "\n".join(lines) if len(lines) > 1 else ""
