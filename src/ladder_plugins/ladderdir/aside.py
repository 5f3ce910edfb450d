"""Damaged files are kept aside, never deleted: the one way this project does it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

__all__ = ["keep_aside"]


def keep_aside(path: Path, suffix: str, warn: Callable[[str], None], what: str, then: str) -> None:
    """Rename ``path`` to ``<name><suffix>`` and say so once; if it cannot be moved, say that."""
    aside = path.with_name(path.name + suffix)
    try:
        os.replace(path, aside)
        warn(f"{what} is damaged; kept as {aside.name}, {then}")
    except OSError:
        warn(f"{what} is damaged and could not be moved aside; {then}")
