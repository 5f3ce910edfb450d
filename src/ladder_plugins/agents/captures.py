"""The prompt hook's captures: one JSON line per dissatisfied prompt, appended under a lock, inside the root.

The tracker reads ``<root>/<history_dir>/feedback/captures.jsonl`` as level-1 feedback
(:mod:`.journal`), one occurrence per capture ``id``. A capture holds what the classifier
found (reason codes, keywords), a SHA-256 of the prompt (so the same prompt can be
recognised without being kept) and the session; the prompt's own words only with
``[tool.ladder.feedback] store_prompts = true``, because prompts carry whatever the user
pasted.

Its ``text`` is what the tracker matches and shows: the keywords the complaint is about
(``bare except``), and the reason codes only when the prompt named no topic. The reason
codes are never mixed into a topical text, because the tracker derives keywords from the
text too: two captures that share ``negative_evaluation`` would share the words
``negative`` and ``evaluation`` and be merged into one item whatever they were about.

The hook must not wait: the lock is tried for a fraction of a second and the capture is
skipped, silently, when someone else holds it. Nothing is written where there is no
project (no ``pyproject.toml`` or ``.git`` at the root), and no path that leads out of the
root through a symlink is followed. The line is appended as the journal's notes are
(:func:`ladder_plugins.ladderdir.append.append_line`): whole, and a torn line before it
costs that line only.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional, Sequence

from ..ladderdir.append import append_line, lock_of
from ..ladderdir.paths import CAPTURES_FILE, JOURNAL_DIR, first_outside, make_dirs
from .classify import Classification

__all__ = ["LOCK_TIMEOUT", "MAX_PROMPT", "in_project", "capture_path", "capture_entry", "append_capture"]

#: how long the lock is tried, at most (the hook's remaining budget may make it shorter)
LOCK_TIMEOUT = 0.2
#: the most of a prompt kept with ``store_prompts`` (a pasted log is not feedback)
MAX_PROMPT = 4000
_MAX_ID = 100


def in_project(root: Path) -> bool:
    """Whether ``root`` is a project the hook may write in: it holds a ``pyproject.toml`` or ``.git``."""
    return (root / "pyproject.toml").is_file() or (root / ".git").exists()


def capture_path(root: Path, history_dir: str = ".ladder") -> Path:
    """``<root>/<history_dir>/feedback/captures.jsonl``, where the tracker reads captures."""
    return root / history_dir / JOURNAL_DIR / CAPTURES_FILE


def _session(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value.isprintable() and 0 < len(value) <= _MAX_ID else None


def _text(reasons: Sequence[str], keywords: Sequence[str]) -> str:
    return (" ".join(keywords) or " ".join(reasons))[:4000]


def capture_entry(prompt: str, found: Classification, *, session_id: Any = None, now: Optional[datetime] = None,
                  store_prompt: bool = False) -> dict[str, Any]:
    """The capture's JSON object: the shape the journal trusts (a printable ``id``, a date-time ``when``, a
    ``text`` of at most 4,000 characters, keywords of at most 50 characters each)."""
    when = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    keywords = [k for k in found.keywords if len(k) <= 50]
    entry: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "when": when.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "text": _text(found.reasons, keywords),
        "keywords": keywords,
        "reasons": list(found.reasons),
        "hash": hashlib.sha256(prompt.encode("utf-8", "surrogatepass")).hexdigest(),
        "session_id": _session(session_id),
    }
    if store_prompt:
        entry["prompt"] = prompt[:MAX_PROMPT]
        if len(prompt) > MAX_PROMPT:
            entry["prompt_cut"] = True
    return entry


def append_capture(root: Path, entry: dict[str, Any], history_dir: str = ".ladder",
                   timeout: float = LOCK_TIMEOUT) -> Optional[Path]:
    """Append ``entry`` to the captures file of ``root``; the file written, or ``None`` when nothing was:
    no project, a path leading out of the root, the lock held by someone else for ``timeout`` seconds, or
    the file system refusing. Never raises for those: a capture is worth less than the user's prompt."""
    real = Path(os.path.realpath(root))
    path = capture_path(real, history_dir)
    lock = lock_of(path)
    if not in_project(real) or first_outside([path.parent.parent, path.parent, path, lock], real):
        return None
    try:
        make_dirs(path.parent.parent, path.parent)
        if first_outside([path.parent, path, lock], real):  # created meanwhile, through a symlink
            return None
        if not append_line(path, entry, timeout=max(0.0, timeout), sync=False):
            return None
    except OSError:
        return None
    return path
