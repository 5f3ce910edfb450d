"""Pruning the log (DESIGN §6), in memory proportional to what it folds, not to the log.

Records older than retention leave the log; when what remains exceeds the size cap,
whole days, oldest first, leave it too, down to 80 % of the cap, never the newest
day. Everything that leaves is folded into an :class:`Aggregate` (on top of what
earlier prunings folded, so a sighting can still find the event it refers to), the
same structure recurrence reads, so recurrence results do not change. Unreadable
lines leave the log too, but are not folded: the store keeps the old log whole under
another name.

Two passes over the log: the first measures (bytes per day, where the unreadable
lines are); the second folds what leaves and writes what stays straight to the new
log. Neither holds the log's lines, so a log of any size, or a gigabyte of garbage,
costs memory for the fold and a few numbers per day only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Callable, Collection, Iterable, Optional

from .aggregate import Aggregate
from .events import Record
from .log import ReadResult, decode_line

__all__ = ["Survey", "survey", "days_to_fold", "prune_into", "leaving"]

Lines = Callable[[], Iterable[tuple[bytes, int]]]  # a fresh pass: (line, bytes consumed) pairs


@dataclass
class Survey:
    """The first pass: readable bytes per day of the records retention keeps, unreadable lines, schema."""

    day_sizes: dict[str, int] = field(default_factory=dict)
    unreadable: list[tuple[int, int]] = field(default_factory=list)  # (offset, length) in the log
    leaving: int = 0  # records older than retention
    newer: bool = False
    end: int = 0  # bytes of complete lines: beyond them, a torn last line


def _decode(raw: bytes) -> tuple[Optional[Record], bool]:
    probe = ReadResult()
    decode_line(raw, probe)
    return (probe.events[0] if probe.events else None), probe.newer


def survey(lines: Iterable[tuple[bytes, int]], cutoff: str) -> Survey:
    """Pass one; stops early (``newer``) at a record of a newer schema, which is never rewritten."""
    found = Survey()
    offset = 0
    for raw, consumed in lines:
        record, found.newer = _decode(raw)
        if found.newer:
            return found
        _count(found, record, raw, (offset, consumed), cutoff)
        offset += consumed
    found.end = offset
    return found


def _count(found: Survey, record: Optional[Record], raw: bytes, where: tuple[int, int], cutoff: str) -> None:
    if record is None:
        if raw.strip():
            found.unreadable.append(where)
    elif record.timestamp < cutoff:
        found.leaving += 1
    else:
        found.day_sizes[record.day] = found.day_sizes.get(record.day, 0) + where[1]


def days_to_fold(day_sizes: dict[str, int], cap: int) -> set[str]:
    """Oldest days whose removal brings the log to 80 % of the cap (never the newest day)."""
    total, target = sum(day_sizes.values()), int(cap * 0.8)
    leaving: set[str] = set()
    if total <= cap:
        return leaving
    for day in sorted(day_sizes)[:-1]:
        if total <= target:
            break
        leaving.add(day)
        total -= day_sizes[day]
    return leaving


def prune_into(lines: Iterable[tuple[bytes, int]], leaves: Callable[[Record], bool], base: Aggregate,
               keep: IO[bytes]) -> int:
    """Pass two: fold what ``leaves`` into ``base`` (changed in place), write the rest to ``keep``;
    returns how many records left."""
    moved = 0
    for raw, _ in lines:
        record, _newer = _decode(raw)
        if record is not None and leaves(record):
            base.add(record)
            moved += 1
        elif record is not None:
            keep.write(raw + b"\n")
    return moved


def leaving(cutoff: str, days: Collection[str]) -> Callable[[Record], bool]:
    """Whether a record leaves the log: older than retention, or of a day the size cap folds."""
    return lambda record: record.timestamp < cutoff or record.day in days
