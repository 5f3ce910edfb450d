"""Deciding what pruning takes out of the log (DESIGN §6).

Events older than retention leave the log; when what remains exceeds the size cap,
whole days, oldest first, leave it too, down to 80 % of the cap, never the newest
day. Everything that leaves is folded into an :class:`Aggregate`, the same structure
recurrence reads, so recurrence results do not change. Unreadable lines leave the
log too, but are not folded: the store keeps the old log whole under another name.
The plan holds events, and only the position of unreadable content, so a log full
of garbage (say, a gigabyte of NULs) costs no more memory than its events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Optional, Sequence

from .aggregate import Aggregate
from .events import Event
from .log import ReadResult, decode_line

__all__ = ["PrunePlan", "plan_prune"]

Entry = tuple[Optional[Event], bytes, int, int]  # event (None: unreadable), its line, offset, length


@dataclass(frozen=True)
class PrunePlan:
    keep: tuple[bytes, ...]
    folded: Aggregate
    unreadable: tuple[tuple[int, int], ...] = ()  # (offset, length) of each unreadable line in the log


def _decode(raw: bytes) -> tuple[Optional[Event], bool]:
    probe = ReadResult()
    decode_line(raw, probe)
    return (probe.events[0] if probe.events else None), probe.newer


def _size(entries: Sequence[Entry]) -> int:
    return sum(length for _, _, _, length in entries)


def _days_to_fold(entries: Sequence[Entry], cap: int) -> set[str]:
    """Oldest days whose removal brings the log to 80 % of the cap (never the newest day)."""
    if _size(entries) <= cap:
        return set()
    sizes: dict[str, int] = {}
    for event, _, _, length in entries:
        if event is not None:
            sizes[event.day] = sizes.get(event.day, 0) + length
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


def _decode_all(lines: Iterable[tuple[bytes, int]]) -> Optional[list[Entry]]:
    """Entries for (line, bytes consumed) pairs; an unreadable line's bytes are not kept."""
    entries: list[Entry] = []
    offset = 0
    for raw, consumed in lines:
        event, newer = _decode(raw)
        if newer:
            return None
        if event is not None or raw.strip():
            entries.append((event, raw if event is not None else b"", offset, consumed))
        offset += consumed
    return entries


def _split(entries: Sequence[Entry], cutoff: str, days: Collection[str], track_runs: bool) -> PrunePlan:
    keep: list[bytes] = []
    leaving: list[Event] = []
    unreadable: list[tuple[int, int]] = []
    for event, raw, offset, length in entries:
        if event is None:
            unreadable.append((offset, length))
        elif _leaves(event, cutoff, days):
            leaving.append(event)
        else:
            keep.append(raw)
    return PrunePlan(tuple(keep), Aggregate(track_runs).add_all(leaving), tuple(unreadable))


def plan_prune(lines: Iterable[tuple[bytes, int]], cutoff: str, cap: int, track_runs: bool) -> Optional[PrunePlan]:
    """What to keep, fold and move aside; ``None`` when a line is of a newer schema (never rewrite)."""
    entries = _decode_all(lines)
    if entries is None:
        return None
    current = [entry for entry in entries if entry[0] is not None and not _leaves(entry[0], cutoff, ())]
    return _split(entries, cutoff, _days_to_fold(current, cap), track_runs)
