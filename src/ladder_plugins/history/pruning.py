"""Pruning the log, in memory proportional to what it folds, not to the log (``docs/explanation/store.md``).

Records older than retention leave the log; when what remains exceeds the size cap,
whole days, oldest first, leave it too, down to 80 % of the cap, never the newest
day. Everything that leaves is folded into an :class:`Aggregate` (on top of what
earlier prunings folded, so a sighting can still find the event it refers to), the
same structure recurrence reads, so recurrence results do not change. Unreadable
lines leave the log too, but are not folded: the old log is kept whole under another
name first (a hard link, or the unreadable lines copied out), as is a ``folded.json``
whose entries were skipped on read.

Two passes over the log: the first measures (bytes per day, where the unreadable
lines are); the second folds what leaves and writes what stays straight to the new
log. Neither holds the log's lines, so a log of any size, or a gigabyte of garbage,
costs memory for the fold and a few numbers per day only.

The new fold and the new log are written beside the old ones, then a journal names
both, then each replaces its old file: a prune killed anywhere after the journal is
written is finished by the next process that reads the history
(:func:`commit_journal`), so the fold and the log always change together, never a
folded event still in the log, never one lost. The store decides when a prune is due
and holds the lock; this module is imported only by a run that prunes (or finds a
journal).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Collection, Iterable, Optional, Sequence

from ..ladderdir.aside import damaged_suffix
from ..ladderdir.paths import outside_root
from .aggregate import Aggregate
from .events import SCHEMA_VERSION, Record
from .log import ReadResult, complete_lines, decode_line, lines_between
from .recurrence import cutoff

if TYPE_CHECKING:
    from .store import HistoryStore, LoadState

__all__ = ["Survey", "commit_journal", "days_to_fold", "leaving", "prune_into", "prune_log", "survey"]


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
        if record is None:
            if raw.strip():
                found.unreadable.append((offset, consumed))
        elif record.timestamp < cutoff:
            found.leaving += 1
        else:
            found.day_sizes[record.day] = found.day_sizes.get(record.day, 0) + consumed
        offset += consumed
    found.end = offset
    return found


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


def prune_log(store: HistoryStore, state: LoadState, now: datetime) -> bool:
    """Retention and the size cap as of ``now``, under the store's lock (the store found a prune due); True
    if the log was rewritten. ``state``, the history as loaded, is the history after the prune on return."""
    limit = cutoff(store.settings, now)
    found, days = _survey_log(store, limit)
    if found.newer or not (found.leaving or days or found.unreadable):
        return False
    state.aggregate.take(Aggregate(store.track_runs))  # one history in memory at a time
    try:
        state.generation, folded = _rewrite(store, leaving(limit, days), limit, found.unreadable)
    except BaseException:
        state.aggregate.take(store.load_readonly()[0])  # the history as it still is on disk
        raise
    reread = store.read_log(0, sink=folded.add)  # what stays, on top of what was folded: the same history
    state.aggregate.take(folded)
    state.end, state.skipped = reread.end, reread.skipped
    store.save_summary(state)
    return True


def _survey_log(store: HistoryStore, limit: str) -> tuple[Survey, set[str]]:
    """The log measured, and the days the size cap folds (none when a newer schema wrote it)."""
    with store.log_file.open_read() as handle:
        found = survey(complete_lines(handle), limit)
        size = os.fstat(handle.fileno()).st_size
    if size > found.end:  # a torn last line: not a record, but kept with the old log, never dropped
        found.unreadable.append((found.end, size - found.end))
    cap = int(store.settings.history.max_mb * 1024 * 1024)
    return found, set() if found.newer else days_to_fold(found.day_sizes, cap)


def _rewrite(store: HistoryStore, leaves: Callable[[Record], bool], limit: str,
             unreadable: Sequence[tuple[int, int]]) -> tuple[int, Aggregate]:
    """Fold what leaves into ``folded.json``, keep the old log if it had unreadable lines, and replace the
    log by what stays, through the journal; returns the new generation and the fold."""
    folded, generation, _ = store.folded()
    fd, temp = tempfile.mkstemp(prefix=f".{store.log.name}.", dir=str(store.dir))
    fold_temp = ""
    try:
        os.fchmod(fd, 0o644)  # like the log, not mkstemp's private 0600
        with os.fdopen(fd, "wb") as keep, store.log_file.open_read() as handle:
            prune_into(lines_between(handle, unreadable), leaves, folded, keep)
            keep.flush()
            os.fsync(keep.fileno())
        if unreadable:  # before anything is committed: a failure here changes nothing
            _keep_whole(store, store.log, lambda aside: store.log_file.copy_ranges(unreadable, aside))
        fold_temp = _fold_aside(store, folded, generation + 1, limit)
    except BaseException:
        for left in (temp, fold_temp):
            with contextlib.suppress(OSError):
                os.unlink(left)
        raise
    journal = json.dumps({"folded": fold_temp, "log": temp})
    store.write_whole(store.journal_path, lambda write: write(journal))
    commit_journal(store)
    return generation + 1, folded


def _fold_aside(store: HistoryStore, folded: Aggregate, generation: int, limit: str) -> str:
    """The new ``folded.json``, written (and synced) beside the old one."""
    if store.fold_untrusted:  # the entries it skipped are kept, never silently dropped
        path = store.folded_path
        _keep_whole(store, path, lambda aside: shutil.copyfile(path, aside, follow_symlinks=False))
        store.fold_untrusted = 0
    folded.forget_runs_before(limit)
    head = {"schema_version": SCHEMA_VERSION, "generation": generation}
    return store.written_beside(store.folded_path, lambda write: folded.write_document(head, write), durable=True)


def _keep_whole(store: HistoryStore, path: Path, otherwise: Callable[[Path], Any]) -> None:
    """Before ``path`` is rewritten, keep it whole under a ``.damaged-<time>`` name: a hard link costs nothing
    (a gigabyte of garbage stays sparse, and the atomic replace that follows leaves the old content there);
    ``otherwise(aside)`` where links are not possible (the log's unreadable lines copied out byte for byte)."""
    aside = path.with_name(path.name + damaged_suffix())
    if not store.inside_root(aside):
        raise PermissionError(outside_root(aside, store.root))
    try:
        os.link(path, aside, follow_symlinks=False)
    except FileExistsError:
        pass
    except OSError:
        otherwise(aside)


def commit_journal(store: HistoryStore) -> None:
    """Move the files a prune's journal names into place (those not moved yet), then end the journal; the
    caller holds the lock."""
    try:
        data = json.loads(store.journal_path.read_text(encoding="utf-8"))
        moves = [(str(data[key]), target) for key, target in (("folded", store.folded_path), ("log", store.log))]
    except FileNotFoundError:
        return
    except (OSError, ValueError, TypeError, KeyError):
        store.set_aside(store.journal_path, "not a prune journal")
        return
    for temp, target in moves:
        if Path(temp).parent == store.dir and Path(temp).name.startswith(f".{target.name}.") \
                and os.path.exists(temp):
            os.replace(temp, target)
    with contextlib.suppress(OSError):
        os.unlink(store.journal_path)
