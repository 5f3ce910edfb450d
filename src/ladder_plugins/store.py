"""The history store: ``<history_dir>/history/events.jsonl`` and its caches.

Guarantees (each backed by a test):

* appends are whole lines written under a file lock, never glued to a torn last
  line, so concurrent writers lose, duplicate and interleave nothing;
* a held lock makes a writer give up after ``lock_timeout`` seconds with one
  warning; a failure to write is one warning; neither changes the run's result;
* nothing is read or written outside the project root, even through symlinks;
* unreadable lines are skipped, counted and kept; damaged caches are moved aside,
  never deleted; a log or summary of a newer schema is read, never rewritten;
* ``summaries.json`` catches up on new lines only, and is rebuildable from the log
  plus ``folded.json`` (what pruning took out of the log, folded into the same
  aggregate recurrence reads, so pruning never changes a recurrence result).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

from .aggregate import Aggregate
from .config import Settings
from .events import SCHEMA_VERSION, Event, NewerSchema, event_from_json
from .recurrence import cutoff
from .runinfo import format_timestamp

__all__ = ["HistoryStore", "Transaction", "ReadResult", "StoreStats"]

LOG_NAME = "events.jsonl"
SUMMARY_NAME = "summaries.json"
FOLDED_NAME = "folded.json"
LOCK_NAME = "events.lock"
_CHUNK = 1 << 20
_MAX_LINE = 1 << 20  # a line longer than this is not an event: skipped and counted
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass
class ReadResult:
    """Events read from a log, and what could not be read."""

    events: list[Event] = field(default_factory=list)
    end: int = 0
    skipped: int = 0
    newer: bool = False


@dataclass
class LoadState:
    """The history as loaded: aggregate, how far the log was read, cache generation."""

    aggregate: Aggregate
    end: int
    skipped: int
    generation: int
    read_only: bool


@dataclass(frozen=True)
class StoreStats:
    path: str
    exists: bool
    size: int
    events: int
    oldest: Optional[str]
    newest: Optional[str]
    skipped_lines: int
    schema_version: int
    newer_schema: bool
    fingerprints: int
    folded_fingerprints: int


class HistoryStore:
    """Reads and writes one project's history. Collects warnings instead of raising."""

    def __init__(self, settings: Settings, *, lock_timeout: float = 2.0, warn: Optional[Callable[[str], None]] = None):
        self.settings = settings
        self.root = Path(os.path.realpath(settings.root))
        self.base = settings.root / settings.history_dir
        self.dir = self.base / "history"
        self.log = self.dir / LOG_NAME
        self.summary_path = self.dir / SUMMARY_NAME
        self.folded_path = self.dir / FOLDED_NAME
        self.lock_path = self.dir / LOCK_NAME
        self.lock_timeout = lock_timeout
        self.warnings: list[str] = []
        self._warn = warn
        self.track_runs = settings.recurrence.count == "runs"

    # -- warnings and safety -------------------------------------------------

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            if self._warn is not None:
                self._warn(message)

    def _inside_root(self, path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return real == self.root or self.root in real.parents

    def unsafe_reason(self) -> Optional[str]:
        """Why the history location must not be used (a symlink leading outside the root)."""
        for path in (self.base, self.dir, self.log, self.summary_path, self.folded_path, self.lock_path):
            if (path.exists() or path.is_symlink()) and not self._inside_root(path):
                return f"{path} resolves outside the project root {self.root}; not reading or writing history"
        if not self._inside_root(self.base.parent):
            return f"{self.base} is outside the project root {self.root}"
        return None

    def _ensure_dir(self) -> bool:
        reason = self.unsafe_reason()
        if reason:
            self.warn(reason)
            return False
        try:
            created = not self.base.exists()
            self.dir.mkdir(parents=True, exist_ok=True)
            if created:
                (self.base / ".gitignore").write_text("# created by ladder-plugins\n*\n")
        except OSError as exc:
            self.warn(f"cannot create {self.dir}: {exc.strerror or exc}; history not recorded")
            return False
        return self.unsafe_reason() is None

    def _open_read(self, path: Path):
        if not self._inside_root(path):
            raise PermissionError(f"{path} resolves outside the project root")
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        return os.fdopen(fd, "rb")

    # -- reading ---------------------------------------------------------------

    def read_log(self, start: int = 0, path: Optional[Path] = None) -> ReadResult:
        """Complete lines from byte ``start``; a torn last line is left for later."""
        result = ReadResult(end=start)
        target = path or self.log
        try:
            handle = self._open_read(target) if path is None else open(target, "rb")
        except (FileNotFoundError, NotADirectoryError):  # no history yet
            return result
        except OSError as exc:
            self.warn(f"cannot read {target}: {exc.strerror or exc}")
            return result
        with handle:
            handle.seek(start)
            pending = b""
            position = start
            while True:
                chunk = handle.read(_CHUNK)
                if not chunk:
                    break
                pending += chunk
                lines = pending.split(b"\n")
                pending = lines.pop()
                for raw in lines:
                    position += len(raw) + 1
                    self._decode_line(raw, result)
                if len(pending) > _MAX_LINE:  # a runaway line: skip it, keep reading
                    position += len(pending)
                    pending = b""
                    result.skipped += 1
            result.end = position
        return result

    @staticmethod
    def _decode_line(raw: bytes, result: ReadResult) -> None:
        if not raw.strip():
            return
        if len(raw) > _MAX_LINE:
            result.skipped += 1
            return
        try:
            result.events.append(event_from_json(json.loads(raw)))
        except NewerSchema as newer:
            result.newer = True
            result.events.append(newer.args[0])
        except (ValueError, TypeError, KeyError, RecursionError, UnicodeDecodeError):
            result.skipped += 1

    def _log_head(self) -> str:
        try:
            with self._open_read(self.log) as handle:
                first = handle.readline(4096)
        except OSError:
            return ""
        return hashlib.blake2b(first, digest_size=8).hexdigest()

    def _log_size(self) -> int:
        try:
            return self.log.stat().st_size
        except OSError:
            return 0

    def _load_json(self, path: Path) -> Optional[dict]:
        """A cache file's JSON; a damaged one is moved aside with one warning."""
        try:
            with self._open_read(path) as handle:
                data = json.loads(handle.read(64 << 20))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return data
        except (FileNotFoundError, NotADirectoryError):
            return None
        except (ValueError, RecursionError, UnicodeDecodeError, OSError) as exc:
            self._set_aside(path, f"{type(exc).__name__}")
            return None

    def _set_aside(self, path: Path, why: str) -> None:
        stamp = format_timestamp(datetime.now().astimezone()).replace(":", "")
        aside = path.with_name(f"{path.name}.damaged-{stamp}")
        try:
            os.replace(path, aside)
            self.warn(f"{path} is damaged ({why}); kept as {aside.name} and rebuilt")
        except OSError:
            self.warn(f"{path} is damaged ({why}); left in place, using a rebuilt copy in memory")

    def folded(self) -> tuple[Aggregate, int, bool]:
        """(aggregate of pruned events, generation, newer schema?)."""
        data = self._load_json(self.folded_path)
        if data is None:
            return Aggregate(self.track_runs), 0, False
        newer = int(data.get("schema_version", 1)) > SCHEMA_VERSION
        try:
            agg = Aggregate.from_json(data.get("aggregate", {}))
            agg.track_runs = self.track_runs
            return agg, int(data.get("generation", 0)), newer
        except (KeyError, TypeError, ValueError):
            self._set_aside(self.folded_path, "unexpected structure")
            return Aggregate(self.track_runs), 0, False

    def load(self, *, save: bool = True) -> "LoadState":
        """The whole history: summary cache plus new lines, or a rebuild; saves the catch-up."""
        folded, generation, folded_newer = self.folded()
        summary = self._load_json(self.summary_path)
        summary_newer = bool(summary) and int(summary.get("schema_version", 1)) > SCHEMA_VERSION
        head = self._log_head()
        start, agg, skipped = 0, None, 0
        if summary and not summary_newer:
            log_info = summary.get("log", {})
            try:
                if (
                    log_info.get("head") == head
                    and int(log_info.get("offset", -1)) <= self._log_size()
                    and int(summary.get("generation", -1)) == generation
                    and bool(summary.get("aggregate", {}).get("track_runs")) == self.track_runs
                ):
                    agg = Aggregate.from_json(summary["aggregate"])
                    start = int(log_info["offset"])
                    skipped = int(log_info.get("skipped", 0))
            except (KeyError, TypeError, ValueError):
                self._set_aside(self.summary_path, "unexpected structure")
                agg = None
        if agg is None:
            agg, start, skipped = folded.copy(), 0, 0
        read = self.read_log(start)
        agg.add_all(read.events)
        read_only = read.newer or summary_newer or folded_newer
        state = LoadState(agg, read.end, skipped + read.skipped, generation, read_only)
        if state.read_only:
            self.warn(
                f"{self.dir} was written by a newer ladder-plugins (schema > {SCHEMA_VERSION}); "
                "reading it, never rewriting it: upgrade ladder-plugins to record again"
            )
        elif save and (read.end != start or summary is None):
            self._save_summary(agg, read.end, state.skipped, generation)
        return state

    # -- writing ---------------------------------------------------------------

    def _atomic_write(self, path: Path, text: str) -> None:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(self.dir))
        try:
            os.fchmod(fd, 0o644)  # like the log, not mkstemp's private 0600
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(temp, path)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise

    def _save_summary(self, agg: Aggregate, offset: int, skipped: int, generation: int) -> None:
        if self.unsafe_reason() or not self.dir.is_dir():
            return
        payload = {
            "schema_version": SCHEMA_VERSION,
            "generation": generation,
            "log": {"offset": offset, "head": self._log_head(), "skipped": skipped},
            "aggregate": agg.to_json(),
        }
        try:
            self._atomic_write(self.summary_path, json.dumps(payload, separators=(",", ":")))
        except OSError as exc:
            self.warn(f"cannot write {self.summary_path}: {exc.strerror or exc}")

    def _append(self, events: Sequence[Event]) -> bool:
        data = "".join(e.to_json() + "\n" for e in events).encode("utf-8")
        fd = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size:
                with open(self.log, "rb") as probe:  # torn last line: start on a fresh one
                    probe.seek(size - 1)
                    if probe.read(1) != b"\n":
                        data = b"\n" + data
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        finally:
            os.close(fd)
        return True

    def transaction(self) -> "Transaction":
        """The write side: ``with store.transaction() as tx: tx.history; tx.append(events)``."""
        return Transaction(self)

    # -- maintenance -------------------------------------------------------------

    def prune(self, agg: Aggregate, now: datetime, *, force: bool = False) -> bool:
        """Retention and size cap, under the caller's lock. Returns True if the log was rewritten.

        Events older than retention, and (when the log exceeds ``max_mb``) the oldest
        days inside retention, move from the log into ``folded.json``. Unreadable
        lines stay in the log. Recurrence results are unchanged by construction: the
        same events feed the same aggregate, from two files instead of one.
        """
        limit = cutoff(self.settings, now)
        cap = int(self.settings.history.max_mb * 1024 * 1024)
        size = self._log_size()
        if not force and size <= cap and (agg.oldest is None or agg.oldest >= limit):
            return False
        lines = self._raw_lines()
        keep: list[tuple[Optional[Event], bytes]] = []
        fold = Aggregate(self.track_runs)
        for raw in lines:
            probe = ReadResult()
            self._decode_line(raw, probe)
            if probe.newer:
                return False  # never rewrite what a newer version wrote
            event = probe.events[0] if probe.events else None
            if event is not None and event.timestamp < limit:
                fold.add(event)
            elif raw.strip():
                keep.append((event, raw))
        total = sum(len(raw) + 1 for _, raw in keep)
        if total > cap:
            days = sorted({e.day for e, _ in keep if e is not None})
            newest = days[-1] if days else None
            target = int(cap * 0.8)
            for day in days:
                if total <= target or day == newest:
                    break
                remaining = []
                for event, raw in keep:
                    if event is not None and event.day == day:
                        fold.add(event)
                        total -= len(raw) + 1
                    else:
                        remaining.append((event, raw))
                keep = remaining
        if not fold.events:
            return False
        folded, generation, _ = self.folded()
        folded.merge(fold)
        folded.forget_runs_before(limit)
        generation += 1
        self._atomic_write(
            self.folded_path,
            json.dumps({"schema_version": SCHEMA_VERSION, "generation": generation, "aggregate": folded.to_json()},
                       separators=(",", ":")),
        )
        self._atomic_write(self.log, "".join(raw.decode("utf-8", "surrogateescape") + "\n" for _, raw in keep))
        agg.forget_runs_before(limit)
        read = self.read_log(0)
        self._save_summary(agg, read.end, read.skipped, generation)
        return True

    def _raw_lines(self) -> list[bytes]:
        try:
            with self._open_read(self.log) as handle:
                data = handle.read()
        except OSError:
            return []
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        return lines

    def event_ids(self) -> set[str]:
        return {e.event_id for e in self.read_log(0).events}

    def stats(self) -> StoreStats:
        agg, read, read_only = self.load_readonly()
        folded, _, _ = self.folded()
        return StoreStats(
            path=str(self.log),
            exists=self.log.exists(),
            size=self._log_size(),
            events=len(read.events),
            oldest=agg.oldest,
            newest=agg.newest,
            skipped_lines=read.skipped,
            schema_version=SCHEMA_VERSION,
            newer_schema=read_only,
            fingerprints=len(agg.fingerprints),
            folded_fingerprints=len(folded.fingerprints),
        )

    def peek(self) -> Aggregate:
        """The whole history for reading only (uses the summary cache, writes nothing)."""
        reason = self.unsafe_reason()
        if reason:
            self.warn(reason)
            return Aggregate(self.track_runs)
        return self.load(save=False).aggregate

    def combine(self, files: Sequence[Path]) -> tuple[int, int, int]:
        """Merge other logs into this one, deduplicating by event id (``coverage combine``).

        Returns (added, duplicates, unreadable lines). Raises :class:`LadderError`
        when the history cannot be written or an input cannot be read.
        """
        from .errors import LadderError

        incoming: list[Event] = []
        unreadable = 0
        for file in files:
            if not Path(file).is_file():
                raise LadderError(f"{file}: no such file")
            read = self.read_log(0, path=Path(file))
            if read.newer:
                raise LadderError(
                    f"{file}: written by a newer ladder-plugins (schema > {SCHEMA_VERSION}); upgrade first"
                )
            incoming.extend(read.events)
            unreadable += read.skipped
        with self.transaction() as tx:
            if tx.read_only:
                raise LadderError("; ".join(self.warnings) or f"cannot write {self.log}")
            seen = self.event_ids()
            new: list[Event] = []
            for event in incoming:
                if event.event_id not in seen:
                    seen.add(event.event_id)
                    new.append(event)
            tx.append(new)
        return len(new), len(incoming) - len(new), unreadable

    def load_readonly(self) -> tuple[Aggregate, ReadResult, bool]:
        """The whole history without writing anything (a full read of the log)."""
        reason = self.unsafe_reason()
        if reason:
            self.warn(reason)
            return Aggregate(self.track_runs), ReadResult(), True
        folded, _, folded_newer = self.folded()
        read = self.read_log(0)
        agg = folded.copy().add_all(read.events)
        return agg, read, read.newer or folded_newer


class Transaction:
    """Holds the lock; ``history`` is the aggregate before this run's appends.

    When the lock cannot be had, the location is unsafe or the history is of a
    newer schema, the transaction is read-only: ``history`` is still loaded (for
    the gate) and ``append`` records nothing, with one warning.
    """

    def __init__(self, store: HistoryStore) -> None:
        self.store = store
        self.history = Aggregate(store.track_runs)
        self.read_only = True
        self.recorded = 0
        self._lock = None
        self._state: Optional[LoadState] = None

    def _fallback(self) -> "Transaction":
        self.history, _, _ = self.store.load_readonly()
        return self

    def __enter__(self) -> "Transaction":
        from filelock import FileLock, Timeout

        store = self.store
        if not store._ensure_dir():
            return self._fallback()
        lock = FileLock(str(store.lock_path), timeout=store.lock_timeout)
        try:
            lock.acquire()
        except Timeout:
            store.warn(
                f"history is locked by another process ({store.lock_path}) for more than "
                f"{store.lock_timeout:g} s; this run was not recorded"
            )
            return self._fallback()
        except OSError as exc:
            store.warn(f"cannot lock {store.lock_path}: {exc.strerror or exc}; this run was not recorded")
            return self._fallback()
        self._lock = lock
        try:
            self._state = store.load()
        except OSError as exc:
            store.warn(f"cannot read {store.log}: {exc.strerror or exc}; this run was not recorded")
            return self._fallback()
        self.history = self._state.aggregate
        self.read_only = self._state.read_only
        return self

    def append(self, events: Iterable[Event], now: Optional[datetime] = None) -> int:
        """Append ``events``, then prune if due (``now`` given); returns how many were written."""
        events = list(events)
        state = self._state
        if not events or self.read_only or state is None:
            return 0
        store = self.store
        try:
            store._append(events)
        except OSError as exc:
            store.warn(f"cannot write {store.log}: {exc.strerror or exc}; this run was not recorded")
            self.read_only = True
            return 0
        self.recorded += len(events)
        read = store.read_log(state.end)  # our lines, plus a torn line we just terminated
        self.history.add_all(read.events)
        state.end, state.skipped = read.end, state.skipped + read.skipped
        try:
            if now is None or not store.prune(self.history, now):
                store._save_summary(self.history, state.end, state.skipped, state.generation)
        except OSError as exc:
            store.warn(f"cannot prune {store.log}: {exc.strerror or exc}")
        return len(events)

    def __exit__(self, *exc_info: object) -> None:
        if self._lock is not None:
            self._lock.release()
