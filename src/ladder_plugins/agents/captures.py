"""The prompt hook's captures: one JSON line per dissatisfied prompt, appended under a lock, inside the root.

The tracker reads ``<root>/<history_dir>/feedback/captures.jsonl`` as level-1 feedback
(``tracker/sources/journal.py``), one occurrence per capture ``id``. A capture holds reason
codes, counters and hashes only: the reason codes the classifier found, ``keys`` (each keyword
the complaint is about as an opaque key, :func:`~ladder_plugins.tracker.keywords.keyword_key`),
a SHA-256 of the prompt (so the same prompt can be recognised, in the transcript too, without
being kept) and the session id. The keywords themselves and the prompt are kept only with
``[tool.ladder.feedback] store_prompts = true``, because prompts carry whatever the user pasted.

Its ``text`` is what the tracker matches and shows. Without ``store_prompts`` it is the keys,
each after a ``#`` (``#zofxhssjgh #dekrzjlyst``), or, when the prompt named no topic, one key of
its reason codes: captures about the same words meet, topic-less ones meet by reason code,
and nothing else is shared. With ``store_prompts`` it is the keywords (``bare except``), or
the reason codes when there are none. The reason codes are never mixed into a topical text,
because the tracker derives keywords from the text too: two captures that share
``negative_evaluation`` would share the words ``negative`` and ``evaluation`` and be merged
into one item whatever they were about.

A capture the classifier is not sure of (the referent unknown, or a classifier plugin answering
:data:`ASK_REVIEWER`) carries ``"ask": "classify"``: the tracker does not count it until a
verdict line (:func:`verdict_entry`, appended to the same file by the reviewer) says it is
dissatisfaction.

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
from ..tracker.keywords import keyword_key
from .classify import Classification

__all__ = ["LOCK_TIMEOUT", "MAX_PROMPT", "ASK_REVIEWER", "ASK", "in_project", "capture_path", "capture_entry",
           "verdict_entry", "append_capture"]

#: how long the lock is tried, at most (the hook's remaining budget may make it shorter)
LOCK_TIMEOUT = 0.2
#: the most of a prompt kept with ``store_prompts`` (a pasted log is not feedback)
MAX_PROMPT = 4000
_MAX_ID = 100
#: the reason code a classifier plugin answers for "this may be dissatisfaction: let the reviewer decide"
ASK_REVIEWER = "ask_reviewer"
#: a capture's ``ask`` value: not counted until a verdict says it is dissatisfaction (the tracker's journal
#: source reads the same literal: it may not import this module)
ASK = "classify"


def in_project(root: Path) -> bool:
    """Whether ``root`` is a project the hook may write in: it holds a ``pyproject.toml`` or ``.git``."""
    return (root / "pyproject.toml").is_file() or (root / ".git").exists()


def capture_path(root: Path, history_dir: str = ".ladder") -> Path:
    """``<root>/<history_dir>/feedback/captures.jsonl``, where the tracker reads captures."""
    return root / history_dir / JOURNAL_DIR / CAPTURES_FILE


def _session(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value.isprintable() and 0 < len(value) <= _MAX_ID else None


def _text(reasons: Sequence[str], keywords: Sequence[str], keys: Sequence[str], store_prompt: bool) -> str:
    if store_prompt:
        return (" ".join(keywords) or " ".join(reasons))[:4000]
    return " ".join(f"#{key}" for key in keys or [keyword_key("reasons:" + ",".join(sorted(reasons)))])


def capture_entry(prompt: str, found: Classification, *, session_id: Any = None, now: Optional[datetime] = None,
                  store_prompt: bool = False) -> dict[str, Any]:
    """The capture's JSON object: the shape the journal trusts (a printable ``id``, a date-time ``when``, a
    ``text`` of at most 4,000 characters, keywords of at most 50 characters each); words only with
    ``store_prompt``."""
    keywords = [k for k in found.keywords if len(k) <= 50]
    keys = list(dict.fromkeys(map(keyword_key, keywords)))
    reasons = [r for r in found.reasons if r != ASK_REVIEWER]
    entry: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "when": _stamp(now),
        "text": _text(reasons, keywords, keys, store_prompt),
        "keywords": keywords if store_prompt else [],
        "keys": keys,
        "reasons": reasons,
        "hash": hashlib.sha256(prompt.encode("utf-8", "surrogatepass")).hexdigest(),
        "session_id": _session(session_id),
    }
    if found.ask or ASK_REVIEWER in found.reasons:
        entry["ask"] = ASK
    if store_prompt:
        entry["prompt"] = prompt[:MAX_PROMPT]
        if len(prompt) > MAX_PROMPT:
            entry["prompt_cut"] = True
    return entry


def _stamp(now: Optional[datetime]) -> str:
    when = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


def verdict_entry(capture_id: str, dissatisfied: bool, *, reasons: Sequence[str] = (),
                  now: Optional[datetime] = None) -> dict[str, Any]:
    """The line the reviewer appends (with :func:`append_capture`) once it has judged a capture marked
    ``"ask"``: ``{"verdict": <capture id>, "when", "dissatisfied", "reasons"}``. With ``dissatisfied`` the
    tracker counts the capture (the reviewer's reason codes, words, replace the capture's when given); without,
    never. The last verdict on a capture is the one that holds."""
    return {"verdict": capture_id, "when": _stamp(now), "dissatisfied": bool(dissatisfied),
            "reasons": [r for r in reasons if isinstance(r, str) and r.isidentifier() and len(r) <= 50]}


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
