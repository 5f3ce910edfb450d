"""The knowledge base's ``_index.md``: the text ``ladder kb index`` writes, and how a stale one differs from it.

Deterministic: no clock (``Updated:`` is the newest ``updated`` of the notes, the text of
its YAML scalar as the note writes it, ``-`` when none has a readable one), no file order
or time (tags and ids sorted). A note is listed by its file name without ``.md`` (what a
reader can open; ``kb_id`` says when it is not the note's id).
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime
from typing import Iterable, Mapping, Optional

from .notes import FOLDERS, Note, moment, valid_tag, written

__all__ = ["render", "difference"]

_TAG_LINE = re.compile(r"- (\S+): \[(.*)\]\Z")


def _updated(notes: Iterable[Note]) -> str:
    """The newest readable ``updated``, as the note writes it (``2026-03-03 17:00:00Z`` stays so: the text of
    the scalar, not the datetime YAML reads); ``-`` when there is none."""
    best: Optional[tuple[datetime, str]] = None
    for note in notes:
        when = moment(note.data.get("updated"))
        if when is not None and (best is None or (when, written(note, "updated")) > best):
            best = (when, written(note, "updated"))
    return best[1] if best is not None else "-"


def _tag_index(notes: Iterable[Note]) -> dict[str, list[str]]:
    tags: dict[str, set[str]] = defaultdict(set)
    for note in notes:
        value = note.data.get("tags")
        for tag in value if isinstance(value, list) else ():
            if valid_tag(tag):
                tags[tag].add(note.stem)
    return {tag: sorted(tags[tag]) for tag in sorted(tags)}


def render(counts: Mapping[str, int], notes: Iterable[Note]) -> str:
    """The index of ``notes`` (the readable ones give tags and ``Updated:``); ``counts``: files per folder."""
    notes = [n for n in notes if n.read]
    per = ", ".join(f"{folder}: {counts.get(folder, 0)}" for folder in FOLDERS)
    lines = ["# KB Index", f"Updated: {_updated(notes)}",
             f"Total notes: {sum(counts.get(f, 0) for f in FOLDERS)} ({per})", "", "## Tag Index"]
    lines += [f"- {tag}: [{', '.join(ids)}]" for tag, ids in _tag_index(notes).items()]
    return "\n".join(lines) + "\n"


def _tags_of(text: str) -> dict[str, str]:
    found = {}
    for line in text.split("\n"):
        match = _TAG_LINE.match(line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def _cut(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _tag_differences(actual: str, expected: str) -> list[str]:
    have, want = _tags_of(actual), _tags_of(expected)
    said = [f"tag {t} is missing" for t in want if t not in have]
    said += [f"tag {_cut(t)} is in no note" for t in have if t not in want]
    said += [f"tag {t} lists [{have[t][:80]}], expected [{want[t]}]" for t in want if t in have and have[t] != want[t]]
    return said


def difference(actual: str, expected: str) -> Optional[tuple[int, str]]:
    """Where and how the index file ``actual`` differs from ``expected`` (line endings and trailing blank lines
    aside), or ``None``: the first differing line, and the tags missing, extra or listing other notes."""
    have = actual.replace("\r\n", "\n").rstrip("\n").split("\n")
    want = expected.rstrip("\n").split("\n")
    if have == want:
        return None
    line = next((n for n, (a, b) in enumerate(zip(have, want), 1) if a != b), min(len(have), len(want)) + 1)
    return line, _how(have, want, line)


def _how(have: list[str], want: list[str], line: int) -> str:
    tags = _tag_differences("\n".join(have), "\n".join(want))
    if tags:
        return "; ".join(tags[:3]) + (f" and {len(tags) - 3} more" if len(tags) > 3 else "")
    return f"line {line} is {_at(have, line)}, expected {_at(want, line)}"


def _at(lines: list[str], line: int) -> str:
    return _cut(lines[line - 1]) if line <= len(lines) else "the end of the file"
