"""The history store: ``<history_dir>/history/`` with its log and caches, read and written under its lock.

Guarantees (each backed by a test):

* appends are whole lines written under a file lock, never glued to a torn last
  line (see :mod:`.log`), so concurrent writers lose, duplicate and interleave
  nothing;
* a held lock makes a writer give up after ``lock_timeout`` seconds with one
  warning; a failure to write is one warning; neither changes the run's result;
* nothing is read or written outside the project root, even through symlinks;
* unreadable lines are skipped, counted and kept; damaged caches are moved aside,
  never deleted; a log or summary of a newer schema is read, never rewritten;
* ``summaries.json`` catches up on new lines only, and is rebuildable from the log
  plus ``folded.json`` (what pruning took out of the log, folded into the same
  aggregate recurrence reads, so pruning never changes a recurrence result).

The store decides when a prune is due and holds the lock while :mod:`.pruning` rewrites
the log (and finishes a prune a killed process left); merging other logs is
:mod:`.combine`. Both are imported only by a run that needs them.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence

from ..catalogue import plural
from ..config import Settings
from ..ladderdir.aside import damaged_suffix, keep_aside
from ..ladderdir.paths import first_outside, inside, make_dirs, outside_root
from .aggregate import AGGREGATE_FORMAT, Aggregate
from .events import SCHEMA_VERSION, Event, Record, compact
from .log import EventLog, ReadResult
from .recurrence import cutoff
from .run import CLOCK_SKEW, format_timestamp

if TYPE_CHECKING:
    from .stats import StoreStats

__all__ = ["HistoryStore", "Transaction", "LoadState"]

LOG_NAME = "events.jsonl"
SUMMARY_NAME = "summaries.json"
FOLDED_NAME = "folded.json"
LOCK_NAME = "events.lock"
_CACHE_LIMIT = 64 << 20


@dataclass
class LoadState:
    """The history as loaded: aggregate, how far the log was read, cache generation."""

    aggregate: Aggregate
    end: int
    skipped: int
    generation: int
    read_only: bool


#: What decoding a cache file that parses but holds values of the wrong shape or size raises.
_DAMAGE = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)


def _generation(data: dict[str, Any]) -> int:
    value = data.get("generation", 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"generation {value!r} is not a count")
    return value


def _newer(data: Optional[dict[str, Any]]) -> bool:
    """Whether a cache file says a newer schema wrote it (a value that is no version says nothing)."""
    version = data.get("schema_version", 1) if data else 1
    return isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION


class HistoryStore:
    """Reads and writes one project's history. Collects warnings instead of raising."""

    def __init__(self, settings: Settings, *, lock_timeout: float = 2.0,
                 warn: Optional[Callable[[str], None]] = None) -> None:
        self.settings = settings
        self.root = Path(os.path.realpath(settings.root))
        self.base = settings.root / settings.history_dir
        self.dir = self.base / "history"
        self.log = self.dir / LOG_NAME
        self.lock_timeout = lock_timeout
        self.warnings: list[str] = []
        self._warn = warn
        self.track_runs = settings.recurrence.count == "runs"
        self.log_file = EventLog(self.log, self.inside_root, self.warn)
        self.fold_untrusted = 0  # entries of folded.json skipped on read: keep the file before rewriting it
        self._holding_lock = False  # set while this store's own transaction or append holds the lock
        # append_events, called once per file by flake8: the directory is checked and made on the first
        # call only, and the log's first record, once seen within retention, is not read again
        self._appends_ready = False
        self._first_record_young = False

    # The files beside the log, named in one place.

    @property
    def summary_path(self) -> Path:
        return self.dir / SUMMARY_NAME

    @property
    def folded_path(self) -> Path:
        return self.dir / FOLDED_NAME

    @property
    def journal_path(self) -> Path:
        return self.dir / "prune.journal"

    @property
    def lock_path(self) -> Path:
        return self.dir / LOCK_NAME

    # -- warnings and safety -------------------------------------------------

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            if self._warn is not None:
                self._warn(message)

    def locked(self, consequence: str) -> str:
        """The one wording for giving up on a lock another process holds."""
        return (f"history is locked by another process ({self.lock_path}) for more than "
                f"{self.lock_timeout:g} s; {consequence}")

    def inside_root(self, path: Path) -> bool:
        return inside(path, self.root)

    def unsafe_reason(self) -> Optional[str]:
        """Why the history location must not be used (a symlink leading outside the root)."""
        return first_outside((self.base, self.dir, self.log, self.summary_path, self.folded_path, self.lock_path),
                             self.root)

    def ensure_dir(self) -> bool:
        reason = self.unsafe_reason()
        if reason:
            self.warn(reason)
            return False
        try:
            make_dirs(self.base, self.dir)
        except OSError as exc:
            self.warn(f"cannot create {self.dir}: {exc.strerror or exc}; history not recorded")
            return False
        return self.unsafe_reason() is None

    # -- caches ------------------------------------------------------------------

    def read_log(self, start: int = 0, path: Optional[Path] = None,
                 sink: Optional[Callable[[Record], None]] = None) -> ReadResult:
        return self.log_file.read(start, path, sink)

    def _load_json(self, path: Path) -> Optional[dict[str, Any]]:
        """A cache file's JSON; a damaged one is moved aside with one warning."""
        try:
            if not self.inside_root(path):
                raise PermissionError(outside_root(path, self.root))
            with self.log_file.open_read(path) as handle:
                data = json.loads(handle.read(_CACHE_LIMIT))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return data
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:  # unreadable is not damaged: leave it where it is
            self.warn(f"cannot read {path}: {exc.strerror or exc}; rebuilt from the log")
            return None
        except (ValueError, RecursionError, UnicodeDecodeError) as exc:
            self.set_aside(path, type(exc).__name__)
            return None

    def set_aside(self, path: Path, why: str) -> None:
        """Keep a damaged file aside (never outside the project), with one warning."""
        if not self.inside_root(path):  # never rename anything outside the project
            self.warn(outside_root(path, self.root))
            return
        keep_aside(path, damaged_suffix(), self.warn, f"{path} ({why})", "rebuilt from the log")

    def folded(self) -> tuple[Aggregate, int, bool]:
        """(aggregate of pruned events, generation, newer schema?)."""
        self._recover()
        data = self._load_json(self.folded_path)
        if data is None:
            return Aggregate(self.track_runs), 0, False
        try:
            agg = Aggregate.from_json(data.get("aggregate", {}))
            generation = _generation(data)
        except _DAMAGE:
            self.set_aside(self.folded_path, "unexpected structure")
            return Aggregate(self.track_runs), 0, False
        if agg.untrusted and not self.fold_untrusted:  # it cannot be rebuilt from the log: skip, keep, say once
            self.fold_untrusted = agg.untrusted
            self.warn(f"{self.folded_path}: {agg.untrusted} entr{'y' if agg.untrusted == 1 else 'ies'} not of the "
                      f"expected shape (damaged or foreign); skipped and kept (the next pruning keeps this file "
                      f"whole as {self.folded_path.name}.damaged-<time> and goes on without them)")
        agg.track_runs = self.track_runs
        return agg, generation, _newer(data)

    def _from_summary(self, summary: Optional[dict[str, Any]], generation: int) -> Optional[tuple[Aggregate, int, int]]:
        """(aggregate, offset, skipped) from a summary that still matches the log, else ``None``."""
        if not summary:
            return None
        try:
            info = summary["log"]
            if not self._summary_matches(summary, info, generation):
                return None
            aggregate = Aggregate.from_json(summary["aggregate"])
            if aggregate.untrusted:  # a cache: rebuilt from the log, nothing lost
                raise ValueError(f"{aggregate.untrusted} entries not of the expected shape")
            return aggregate, int(info["offset"]), int(info.get("skipped", 0))
        except _DAMAGE:
            self.set_aside(self.summary_path, "unexpected structure")
            return None

    def _summary_matches(self, summary: dict[str, Any], info: dict[str, Any], generation: int) -> bool:
        return (
            info.get("head") == self.log_file.head()
            and int(info.get("offset", -1)) <= self.log_file.size()
            and int(summary.get("generation", -1)) == generation
            and bool(summary.get("aggregate", {}).get("track_runs")) == self.track_runs
            and summary.get("aggregate", {}).get("format") == AGGREGATE_FORMAT  # an older layout: rebuilt
        )

    def _warn_unreadable(self, read: ReadResult) -> None:
        self.warn(f"{self.log}: {plural(read.skipped, 'unreadable line')}, the first at byte {read.first_skipped} "
                  f"(not an event: damaged or foreign); skipped and kept (the next pruning keeps this log "
                  f"whole as {self.log.name}.damaged-<time> and goes on without them)")

    def load(self, *, save: bool = True, save_if_free: bool = False) -> LoadState:
        """The whole history: summary cache plus new lines, or a rebuild; saves the catch-up (with
        ``save_if_free``: only when nobody holds the lock, and silently not otherwise)."""
        reason = self.unsafe_reason()
        if reason:
            self.warn(reason)
            return LoadState(Aggregate(self.track_runs), 0, 0, 0, read_only=True)
        agg, start, skipped, generation, newer = self._starting_point()
        read = self.read_log(start, sink=agg.add)
        state = LoadState(agg, read.end, skipped + read.skipped, generation, newer or read.newer)
        if read.skipped:
            self._warn_unreadable(read)
        if state.read_only:
            self._warn_newer()
        elif save and read.end != start:
            self.save_summary(state)
        elif save_if_free and read.end != start:
            self._save_summary_if_free(state)
        return state

    def _save_summary_if_free(self, state: LoadState) -> None:
        """Save a reader's catch-up when the lock is free this instant; never wait, never warn.

        The summary is a cache: a reader that finds the log grown since the last save (after a
        flake8 run, whose workers only append) reads the new lines once instead of on every
        run. A prune between the read and the lock changes the generation, so such a summary
        is discarded on its next load, never trusted.
        """
        from filelock import FileLock, Timeout

        try:
            with FileLock(str(self.lock_path), timeout=0):
                if self.unsafe_reason() is None and self.dir.is_dir():
                    head = self._summary_head(state)
                    self.write_whole(self.summary_path, lambda write: state.aggregate.write_document(head, write))
        except (Timeout, OSError):
            pass  # busy, read-only or full: the next reader catches up instead

    def _starting_point(self) -> tuple[Aggregate, int, int, int, bool]:
        """(aggregate, log offset, skipped lines, generation, newer schema?) before new lines."""
        folded, generation, folded_newer = self.folded()
        summary = self._load_json(self.summary_path)
        cached = None if _newer(summary) else self._from_summary(summary, generation)
        agg, start, skipped = cached or (folded.copy(), 0, 0)
        return agg, start, skipped, generation, folded_newer or _newer(summary)

    def _warn_newer(self) -> None:
        self.warn(f"{self.dir} was written by a newer ladder-plugins (schema > {SCHEMA_VERSION}); "
                  "reading it, never rewriting it: upgrade ladder-plugins to record again")

    def peek(self) -> Aggregate:
        """The whole history for reading only: records nothing; the summary cache's catch-up is saved
        when the lock is free (see :meth:`_save_summary_if_free`)."""
        return self.load(save=False, save_if_free=True).aggregate

    def load_readonly(self) -> tuple[Aggregate, ReadResult, bool]:
        """The whole history without writing anything (a full read of the log)."""
        reason = self.unsafe_reason()
        if reason:
            self.warn(reason)
            return Aggregate(self.track_runs), ReadResult(), True
        folded, _, folded_newer = self.folded()
        aggregate = folded.copy()
        read = self.read_log(0, sink=aggregate.add)
        return aggregate, read, read.newer or folded_newer

    # -- writing -----------------------------------------------------------------

    def write_whole(self, path: Path, produce: Callable[[Callable[[str], object]], object]) -> None:
        """Write ``path`` whole or not at all: ``produce`` writes the text piece by piece to a temporary
        file that then replaces it."""
        temp = self.written_beside(path, produce)
        try:
            os.replace(temp, path)
        except BaseException:
            _remove(temp)
            raise

    def written_beside(self, path: Path, produce: Callable[[Callable[[str], object]], object], *,
                       durable: bool = False) -> str:
        """A temporary file beside ``path`` with what ``produce`` writes (synced with ``durable``)."""
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(self.dir))
        try:
            os.fchmod(fd, 0o644)  # like the log, not mkstemp's private 0600
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                produce(handle.write)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
        except BaseException:
            _remove(temp)
            raise
        return temp

    def _summary_head(self, state: LoadState) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "generation": state.generation,
                "log": {"offset": state.end, "head": self.log_file.head(), "skipped": state.skipped}}

    def save_summary(self, state: LoadState) -> None:
        if self.unsafe_reason() or not self.dir.is_dir():
            return
        try:
            head = self._summary_head(state)
            self.write_whole(self.summary_path, lambda write: state.aggregate.write_document(head, write))
        except OSError as exc:
            self.warn(f"cannot write {self.summary_path}: {exc.strerror or exc}")

    def append_events(self, events: Sequence[Event], *, now: datetime,
                      known: Callable[[str], bool] = lambda key: False) -> Optional[int]:
        """Append under the lock without reloading the summary (it catches up on its next load).

        For front ends that record file by file from many processes (flake8 workers):
        the history was read once, before the run; this only adds lines, events whose
        observation ``known`` holds as one sighting. Pruning still happens on write,
        under the lock, once the size cap or retention calls for it. Returns how many
        events were recorded, or ``None`` when it gave up (with one warning): a caller
        recording file by file should stop trying.
        """
        from filelock import FileLock, Timeout

        if not events:
            return 0
        if not self._appends_ready and not self.ensure_dir():
            return None
        self._appends_ready = True
        try:
            with FileLock(str(self.lock_path), timeout=self.lock_timeout):
                self._holding_lock = True
                try:
                    self.log_file.append(compact(events, known))
                    if self._append_due(now):
                        self.prune(self.load(), now, run_id=events[0].run_id)
                finally:
                    self._holding_lock = False
        except Timeout:
            self.warn(self.locked("this process records nothing more"))
            return None
        except OSError as exc:
            self.warn(f"cannot write {self.log}: {exc.strerror or exc}; this process records nothing more")
            return None
        return len(events)

    def transaction(self, *, quiet: bool = False) -> "Transaction":
        """The write side: ``with store.transaction() as tx: tx.history; tx.append(events)``. ``quiet``:
        why it could not write goes to ``tx.refusal`` only, for a caller that makes it its error (said
        once, not as a warning and then again as the error)."""
        return Transaction(self, quiet=quiet)

    # -- maintenance -------------------------------------------------------------

    def _due(self, now: datetime) -> bool:
        """Whether the log is over its size cap or starts with a record older than retention.

        The log's first record, not the history's oldest: once something was folded the
        history is always older than retention, and every write would survey the log.
        """
        over = self.log_file.size() > self.settings.history.max_mb * 1024 * 1024
        first = self.log_file.first_timestamp()
        return over or (first is not None and first < cutoff(self.settings, now))

    def _append_due(self, now: datetime) -> bool:
        """:meth:`_due` after an append: the log's first record stays where it is (appends add at the end, and a
        prune by another process leaves a younger one), so once it was within retention only the size is read."""
        if self._first_record_young:
            return self.log_file.size() > self.settings.history.max_mb * 1024 * 1024
        due = self._due(now)
        self._first_record_young = not due
        return due

    def prune(self, state: LoadState, now: datetime, *, force: bool = False, run_id: Optional[str] = None) -> bool:
        """Retention and size cap, under the caller's lock. True if the log was rewritten.

        ``run_id``: the recording run whose clock ``now`` is. Its clock is trusted no further
        than a day past the newest record of any other run (see :meth:`_trusted_now`).
        """
        if run_id is not None:
            now = self._trusted_now(state.aggregate, now, run_id)
        if not (force or self._due(now)):
            return False
        from .pruning import prune_log  # imported only by a run that prunes

        return prune_log(self, state, now)

    def _trusted_now(self, history: Aggregate, now: datetime, run_id: str) -> datetime:
        """The time a recording run prunes by: its clock, but never more than :data:`CLOCK_SKEW` past the
        newest record of the other runs.

        A run whose clock is ahead (a CI runner set months forward) would otherwise prune
        away what every correct clock keeps, and with ``count = "runs"`` erase hotspots for
        good. Going by the history's time only ever keeps more: after a real pause, the
        next run prunes as usual. A clock more than the retention period ahead is said once.
        """
        from .run import parse_timestamp

        others = [entry[0] for day in history.days.values() for run, entry in day.runs.items()
                  if run.rpartition("/")[0] != run_id]  # day counts key runs as "<run id>/<tool>"
        if not others:
            return now
        newest = parse_timestamp(max(others))
        trusted = min(now, newest + CLOCK_SKEW)
        if now - newest > timedelta(days=self.settings.history.retention_days):
            self.warn(f"this run's clock ({format_timestamp(now)}) is more than history.retention_days ahead of "
                      f"the newest record of another run ({format_timestamp(newest)}); pruning goes by the "
                      "history's time, so nothing a correct clock keeps is pruned (check the machine's clock)")
        return trusted

    def _recover(self) -> None:
        """Finish a prune that was killed between its two replaces (a journal is left): under the lock,
        which this process may already hold (a transaction, a flake8 worker's append)."""
        if not self.journal_path.exists() or not self.inside_root(self.journal_path):
            return
        from .pruning import commit_journal  # a prune left its journal: a rare start

        if self._holding_lock:
            commit_journal(self)
            return
        from filelock import FileLock, Timeout

        try:
            with FileLock(str(self.lock_path), timeout=self.lock_timeout):
                commit_journal(self)
        except (Timeout, OSError):
            pass  # a live prune holds the lock and finishes its own journal

    def stats(self) -> StoreStats:
        from .stats import StoreStats

        agg, read, read_only = self.load_readonly()
        folded, _, _ = self.folded()
        return StoreStats(
            path=str(self.log), exists=self.log.exists(), size=self.log_file.size(), events=agg.events - folded.events,
            oldest=agg.oldest, newest=agg.newest, skipped_lines=read.skipped, schema_version=SCHEMA_VERSION,
            newer_schema=read_only, fingerprints=len(agg.fingerprints), folded_fingerprints=len(folded.fingerprints),
            lines_by_schema=dict(sorted(read.versions.items())), unresolved=agg.unresolved,
            untrusted_entries=folded.untrusted,
        )

    def combine(self, files: Sequence[Path], *, force: bool = False) -> tuple[int, int, int]:
        """Merge other logs into this one, deduplicating by event id (see :func:`.combine.combine`)."""
        from .combine import combine  # imported only by ``ladder history combine``

        return combine(self, files, force=force)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class Transaction:
    """Holds the lock; ``history`` is the aggregate before this run's appends.

    When the lock cannot be had, the location is unsafe or the history is of a
    newer schema, the transaction is read-only: ``history`` is still loaded (for
    the gate) and ``append`` records nothing, with one warning.
    """

    def __init__(self, store: HistoryStore, *, quiet: bool = False) -> None:
        self.store = store
        self.quiet = quiet
        self.refusal: Optional[str] = None  # why this transaction cannot write, when it cannot
        self.history = Aggregate(store.track_runs)
        self.read_only = True
        self.recorded = 0
        self.run_id: Optional[str] = None
        self._lock: Any = None
        self._state: Optional[LoadState] = None

    @property
    def state(self) -> Optional[LoadState]:
        """The history as loaded under the lock (``None`` when the transaction is read-only)."""
        return self._state

    def _fallback(self, message: Optional[str] = None) -> "Transaction":
        self.refusal = message
        if message and not self.quiet:
            self.store.warn(message)
        self.history, _, _ = self.store.load_readonly()
        return self

    def __enter__(self) -> "Transaction":
        from filelock import FileLock, Timeout

        store = self.store
        if not store.ensure_dir():
            return self._fallback()
        lock = FileLock(str(store.lock_path), timeout=store.lock_timeout)
        try:
            lock.acquire()
        except Timeout:
            return self._fallback(store.locked("this run was not recorded"))
        except OSError as exc:
            return self._fallback(f"cannot lock {store.lock_path}: {exc.strerror or exc}; this run was not recorded")
        self._lock = lock
        store._holding_lock = True
        self._state = store.load()
        self.history = self._state.aggregate
        self.read_only = self._state.read_only
        return self

    def append(self, events: Iterable[Record], now: Optional[datetime] = None, *, as_written: bool = False) -> int:
        """Append ``events``, then prune if due (``now`` given); returns how many were recorded.

        Events whose observation the history already holds are appended as one sighting
        per run (see ``events.compact``); ``as_written`` appends records exactly as they
        are (``combine``, which must keep other logs' event ids).
        """
        events = list(events)
        if not events or self.read_only or self._state is None:
            return 0
        records = events if as_written else compact(events, self._state.aggregate.knows)  # type: ignore[arg-type]
        try:
            self.store.log_file.append(records)
        except OSError as exc:
            self.store.warn(f"cannot write {self.store.log}: {exc.strerror or exc}; this run was not recorded")
            self.read_only = True
            return 0
        self.recorded += len(events)
        # a run's own clock is checked against the others' before it prunes; combine's records are no run's
        self.run_id = None if as_written else getattr(events[0], "run_id", None)
        self._catch_up(self._state, now)
        return len(events)

    def _catch_up(self, state: LoadState, now: Optional[datetime]) -> None:
        """Fold our own lines (and a torn line we just terminated) into the state, prune, save."""
        store = self.store
        read = store.read_log(state.end, sink=state.aggregate.add)
        state.end, state.skipped = read.end, state.skipped + read.skipped
        try:
            if now is None or not store.prune(state, now, run_id=self.run_id):
                store.save_summary(state)
        except OSError as exc:
            store.warn(f"cannot prune {store.log}: {exc.strerror or exc}")

    def __exit__(self, *exc_info: object) -> None:
        if self._lock is not None:
            self.store._holding_lock = False
            self._lock.release()
