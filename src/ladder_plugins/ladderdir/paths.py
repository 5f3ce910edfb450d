"""Where the ``.ladder`` directory's files may be: inside the project root, and nowhere else.

The one place that decides what lies inside the project (symlinks resolved), and
the one way directories under ``history_dir`` are made, for the history and the
analysis cache alike.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

__all__ = ["JOURNAL_DIR", "CAPTURES_FILE", "first_outside", "inside", "make_dirs", "outside_root"]

#: the feedback journal's folder under ``history_dir``: notes (``ladder feedback add``) and the prompt hook's
#: captures, which the tracker reads as level 1 (``tracker.sources.journal``)
JOURNAL_DIR = "feedback"
#: the prompt hook's captures there: written by ``agents.captures``, read by the journal
CAPTURES_FILE = "captures.jsonl"

_GITIGNORE = "# created by ladder-plugins: history and cache are local to this checkout\n*\n"


def inside(path: Path, root: Path) -> bool:
    """Whether ``path``, symlinks resolved, is the (already resolved) ``root`` or below it."""
    real = Path(os.path.realpath(path))
    return real == root or root in real.parents


def outside_root(path: Path, root: Path) -> str:
    """The one wording for a location under ``history_dir`` that leads out of the project."""
    return f"{path} resolves outside the project root {root}; nothing is read or written there"


def first_outside(paths: Sequence[Path], root: Path) -> Optional[str]:
    """Why the first of ``paths`` that exists (or is a dangling symlink) must not be used, or ``None``."""
    for path in paths:
        if (path.exists() or path.is_symlink()) and not inside(path, root):
            return outside_root(path, root)
    return None


def make_dirs(base: Path, directory: Path) -> None:
    """Create ``directory`` (inside ``base``); a ``base`` created here gets a ``.gitignore``.

    The one way directories under ``history_dir`` are made, so whichever part of a
    run comes first (the write-access check, the cache, the store), the history and
    the cache are not committed by accident.
    """
    created = not base.exists()
    directory.mkdir(parents=True, exist_ok=True)
    if created:
        (base / ".gitignore").write_text(_GITIGNORE)
