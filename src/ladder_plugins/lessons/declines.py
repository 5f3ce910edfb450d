"""The reviewer's declines, and the lesson a family declined again and again gets.

A reviewer that keeps declining the same recurring complaint, each time with a fresh excuse,
must not have the last word: once a family has been declined :data:`ESCALATE_AFTER` times within
:data:`WINDOW_DAYS` days, a Major lesson is synthesised from the declines' summaries and published
directly, unless the family has a lesson already (its recurrences are then counted as usual).

A decline is one line of ``<history_dir>/feedback/declines.jsonl`` (local, not committed): when the
complaint was made, the normalised family key, the capture's hash and the reviewer's reason, one
line of at most :data:`SUMMARY_CAP` characters (it is the synthesised lesson's material).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterable, Optional

from ..ladderdir.paths import JOURNAL_DIR
from .store import Draft, Lesson, family_id, normal_key

__all__ = ["Decline", "DECLINES_FILE", "WINDOW_DAYS", "ESCALATE_AFTER", "SUMMARY_CAP", "declines_path",
           "record_decline", "recent_declines", "escalation"]

DECLINES_FILE = "declines.jsonl"
WINDOW_DAYS = 14
ESCALATE_AFTER = 3
SUMMARY_CAP = 300
_READ_CAP = 4 << 20


def declines_path(root: Path, history_dir: str) -> Path:
    return root / history_dir / JOURNAL_DIR / DECLINES_FILE


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Decline:
    """One decline: the family, the reviewer's reason, when the complaint was made, the capture's hash."""

    family_key: str
    reason: str
    when: datetime
    source: str


def record_decline(root: Path, history_dir: str, decline: Decline) -> bool:
    """Append a decline; whether it was written (the file's lock held by another for ten seconds: not)."""
    from ..ladderdir.append import append_line
    from ..ladderdir.paths import make_dirs
    from ..reports.sanitize import agent_data

    path = declines_path(root, history_dir)
    make_dirs(root / history_dir, path.parent)
    entry = {"when": _iso(decline.when), "family_key": normal_key(decline.family_key), "source": decline.source,
             "summary": agent_data(decline.reason)[:SUMMARY_CAP]}
    return append_line(path, entry, timeout=10.0)


def _parsed(line: str) -> Optional[tuple[datetime, str, str, str]]:
    try:
        entry = json.loads(line)
        when = datetime.fromisoformat(str(entry["when"]).replace("Z", "+00:00"))
    except (ValueError, KeyError, TypeError):
        return None
    fields = [entry.get(k) for k in ("family_key", "source", "summary")]
    if when.tzinfo is None or not all(isinstance(f, str) for f in fields):
        return None
    return when, str(fields[0]), str(fields[1]), str(fields[2])


def recent_declines(root: Path, history_dir: str, family_key: str, now: datetime,
                    days: int = WINDOW_DAYS) -> list[tuple[datetime, str, str]]:
    """``(when, source, summary)`` of the family's declines within ``days`` days up to ``now``, oldest first,
    each capture once."""
    try:
        with open(declines_path(root, history_dir), "rb") as handle:
            text = handle.read(_READ_CAP).decode("utf-8", "replace")
    except OSError:
        return []
    key, since = normal_key(family_key), now - timedelta(days=days)
    found: dict[str, tuple[datetime, str, str]] = {}
    for line in text.splitlines():
        parsed = _parsed(line)
        if parsed is not None and parsed[1] == key and since <= parsed[0] <= now:
            found.setdefault(parsed[2] or str(len(found)), (parsed[0], parsed[2], parsed[3]))
    return sorted(found.values())


def escalation(root: Path, history_dir: str, family_key: str, now: datetime,
               lessons: Iterable[Lesson]) -> Optional[Draft]:
    """The synthesised Major lesson of a family declined :data:`ESCALATE_AFTER` times or more within
    :data:`WINDOW_DAYS` days, or ``None``: declined fewer times, or the family has a lesson already."""
    declined = recent_declines(root, history_dir, family_key, now)
    if len(declined) < ESCALATE_AFTER or family_id(family_key, "escalation") in {x.family for x in lessons}:
        return None
    key = normal_key(family_key)
    summaries = "; ".join(dict.fromkeys(summary for _, _, summary in declined if summary))
    return Draft(
        key, "escalation", "Major", f"Recurring complaint: {key.replace('-', ' ')}",
        f"The user raised this {len(declined)} times in {WINDOW_DAYS} days and each review declined it "
        f"({summaries or 'no reason given'}). Treat it as a real problem with the work, not as noise.",
        "When work touches this, check it against the user's complaint before saying it is done; where the "
        "reviews found an excuse, verify the claim instead of repeating it.",
        tuple(key.split("-")), tuple(source for _, source, _ in declined), _iso(declined[0][0]))
