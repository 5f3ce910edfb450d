"""Deciding what pruning takes out of the log (DESIGN §6).

Events older than retention leave the log; when what remains exceeds the size cap,
whole days, oldest first, leave it too, down to 80 % of the cap, never the newest
day. Everything that leaves is folded into an :class:`Aggregate`, the same structure
recurrence reads, so recurrence results do not change. Unreadable lines stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Optional, Sequence

from .aggregate import Aggregate
from .events import Event
from .logfile import ReadResult, decode_line

__all__ = ["PrunePlan", "plan_prune"]

Entry = tuple[Optional[Event], bytes]


@dataclass(frozen=True)
class PrunePlan:
    keep: tuple[bytes, ...]
    folded: Aggregate


def _decode(raw: bytes) -> tuple[Optional[Event], bool]:
    probe = ReadResult()
    decode_line(raw, probe)
    return (probe.events[0] if probe.events else None), probe.newer


def _size(entries: Sequence[Entry]) -> int:
    return sum(len(raw) + 1 for _, raw in entries)


def _days_to_fold(entries: Sequence[Entry], cap: int) -> set[str]:
    """Oldest days whose removal brings the log to 80 % of the cap (never the newest day)."""
    if _size(entries) <= cap:
        return set()
    sizes: dict[str, int] = {}
    for event, raw in entries:
        if event is not None:
            sizes[event.day] = sizes.get(event.day, 0) + len(raw) + 1
    total, target = _size(entries), int(cap * 0.8)
    leaving: set[str] = set()
    for day in sorted(sizes)[:-1]:
        if total <= target:
            break
        leaving.add(day)
        total -= sizes[day]
    return leaving


def _leaves(event: Optional[Event], cutoff: str, days: Collection[str]) -> bool:
    return event is not None and (event.timestamp < cutoff or event.day in days)


def _decode_all(lines: Sequence[bytes]) -> Optional[list[Entry]]:
    entries: list[Entry] = []
    for raw in lines:
        event, newer = _decode(raw)
        if newer:
            return None
        entries.append((event, raw))
    return entries


def _split(entries: Sequence[Entry], cutoff: str, days: Collection[str], track_runs: bool) -> PrunePlan:
    keep: list[bytes] = []
    leaving: list[Event] = []
    for event, raw in entries:
        if event is not None and _leaves(event, cutoff, days):
            leaving.append(event)
        elif raw.strip():
            keep.append(raw)
    return PrunePlan(tuple(keep), Aggregate(track_runs).add_all(leaving))


def plan_prune(lines: Sequence[bytes], cutoff: str, cap: int, track_runs: bool) -> Optional[PrunePlan]:
    """What to keep and what to fold; ``None`` when a line is of a newer schema (never rewrite)."""
    entries = _decode_all(lines)
    if entries is None:
        return None
    current = [(e, raw) for e, raw in entries if not _leaves(e, cutoff, ())]
    return _split(entries, cutoff, _days_to_fold(current, cap), track_runs)
