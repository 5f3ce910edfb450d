"""What the tracker works with: a piece of feedback found somewhere (a sighting), and what a source is given.

A sighting carries its source's identity (a file's path and content hash, a capture's
id): the tracker counts each identity once however often it scans, and the same
feedback found again under another identity (another file, another capture) as a
new occurrence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

__all__ = ["Sighting", "SourceContext", "LEVELS", "level_name"]

#: the feedback encoding ladder, weakest first
LEVELS = {1: "Review Comment", 2: "Documentation", 3: "Tool Design", 4: "Linter/Test"}


def level_name(level: int) -> str:
    """``Level 2 (Documentation)``."""
    return f"Level {level} ({LEVELS.get(level, 'unknown')})"


@dataclass(frozen=True)
class Sighting:
    """One piece of feedback found in one place, at one level of the ladder."""

    #: 1 review comment (memory, captures, notes), 2 documentation, 3 tool design (hooks), 4 linter/test
    level: int
    #: the feedback's own words (a memory's description and body, a rules file's paragraph, a hook's command)
    text: str
    #: where, for people: ``CLAUDE.md:12``, ``.claude/settings.json: hooks.PreToolUse[0] (matcher Edit|Write)``
    location: str
    #: which source found it: ``memory``, ``captures``, ``notes``, ``docs``, ``hooks``, ``enforced``, a plugin's name
    source: str
    #: what makes it this sighting and no other: ``<path>#<sha256 of the text>``, or a capture's id
    identity: str
    #: when it was written or seen (ISO date, ``YYYY-MM-DD``), if known
    when: Optional[str] = None
    #: keywords given with it (``ladder feedback add --keywords``); otherwise they are derived from ``text``
    keywords: tuple[str, ...] = ()
    #: the row of the topic table it is about, when the source knows (a level-4 check enforcing a topic)
    topic: Optional[str] = None
    #: how ``when`` was found: ``git blame``, ``git log``, ``file time`` (and why not git), ``front matter`` ...
    dated: str = ""
    #: where it stands, for people only (a rules file's heading): never matched, so a shared heading joins nothing
    context: str = ""


@dataclass(frozen=True)
class SourceContext:
    """What a source gets: the project root, the tracker's settings, and a warning sink."""

    root: Path
    #: the Claude Code memory directory of this project (found or configured), or None
    memory_dir: Optional[Path] = None
    warn: Callable[[str], None] = field(default=lambda message: None)
    #: the largest file a source reads (bigger files are skipped with a warning)
    max_bytes: int = 1 << 20
    #: where ladder keeps its own notes and the prompt hook's captures (``.ladder/feedback``), or None
    journal_dir: Optional[Path] = None
    #: the project's :class:`~ladder_plugins.config.Settings`, when the tracker has them
    settings: Any = None
