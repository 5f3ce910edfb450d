"""Whether git has anything to say for this run: the cheap test before git, or its modules, are touched.

A project outside any git work tree with ``recurrence.source`` left to ``auto`` (and
not in mode ``new``) reads its log alone, silently; its runs need not import the git
side of the history at all.
"""

from __future__ import annotations

from pathlib import Path

from ..config import Mode, Settings

__all__ = ["in_work_tree", "git_wanted"]


def in_work_tree(root: Path) -> bool:
    """Whether a ``.git`` (directory or file) is at or above ``root``: a cheap test before running git."""
    return any((directory / ".git").exists() for directory in (root, *root.parents))


def git_wanted(settings: Settings) -> bool:
    """Whether this run asks git at all: always when git is configured or mode ``new`` needs a base,
    otherwise only inside a work tree."""
    if settings.recurrence.source != "auto" or settings.mode == Mode.NEW:
        return True
    return in_work_tree(settings.root)
