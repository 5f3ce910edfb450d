"""Damaged files are kept aside, never deleted: the one way this project does it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

__all__ = ["keep_aside", "damaged_suffix"]


def damaged_suffix() -> str:
    """``.damaged-<UTC time>``: what a damaged file is renamed to, so it is kept, never deleted (and a second
    damaged file does not replace the first one kept)."""
    from datetime import datetime, timezone

    return ".damaged-" + datetime.now(timezone.utc).strftime("%Y-%m-%dT%H%M%S.%fZ")


def keep_aside(path: Path, suffix: str, warn: Callable[[str], None], what: str, then: str) -> None:
    """Rename ``path`` to ``<name><suffix>`` and say so once; if it cannot be moved, say that."""
    aside = path.with_name(path.name + suffix)
    try:
        os.replace(path, aside)
        warn(f"{what} is damaged; kept as {aside.name}, {then}")
    except OSError:
        warn(f"{what} is damaged and could not be moved aside; {then}")
