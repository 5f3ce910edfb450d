"""Before a run writes under ``history_dir``: can it? Checked once, said once.

A run writes two things there: the history (when it records) and the analysis
cache. A full disk, a read-only checkout, missing permissions or a symlink leading
out of the project would make every write fail, file after file and worker after
worker. Checking once, before the run, turns that into one warning and a run that
reads what it can and writes nothing; its lint or test result is unchanged. A fault
that only appears during the run is still caught where it happens. Outside any
project (no root was found) nothing is written at all: a ``.ladder`` in whatever
directory a command happened to run in is clutter nobody asked for.
"""

from __future__ import annotations

import errno
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from ..config import Settings, no_project
from ..ladderdir.paths import first_outside, make_dirs

__all__ = ["WriteAccess", "check_write_access", "no_space"]


@dataclass(frozen=True)
class WriteAccess:
    """What this run may write, and the warnings that explain what it may not."""

    record: bool
    cache: bool
    warnings: tuple[str, ...] = ()


def no_space(directory: Path) -> Optional[str]:
    """``"No space left on device"`` when the file system has no block left for us, else ``None``.

    Opening a file on a full disk usually succeeds and only the write fails, so the
    free-block count is the only up-front sign. File systems that report no blocks
    at all (``f_blocks == 0``, e.g. some virtual ones) are not judged.
    """
    statvfs = getattr(os, "statvfs", None)
    if statvfs is None:
        return None
    try:
        st = statvfs(directory)
    except OSError:
        return None
    root = getattr(os, "geteuid", lambda: -1)() == 0
    free = st.f_bfree if root else st.f_bavail  # root may use the reserved blocks
    return os.strerror(errno.ENOSPC) if st.f_blocks and not free else None


def _probe(base: Path, directory: Path, files: Sequence[Path]) -> Optional[str]:
    """Why nothing can be written in ``directory`` (created if missing), or ``None``.

    ``files`` are opened for appending (created empty if missing: the log and the
    lock file exist anyway once a run records); without ``files`` a temporary file
    is created and removed again.
    """
    try:
        make_dirs(base, directory)
        for path in files:
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
        if not files:
            fd, name = tempfile.mkstemp(prefix=".probe-", dir=directory)
            os.close(fd)
            os.unlink(name)
    except OSError as exc:
        return exc.strerror or str(exc)
    return no_space(directory)


@dataclass(frozen=True)
class _Problem:
    """Why one part cannot be written: a whole ``message`` (a symlink leading out) or a bare ``reason``."""

    message: Optional[str] = None
    reason: Optional[str] = None


def _found(unsafe: Optional[str], directory: Path, files: Sequence[Path]) -> Optional[_Problem]:
    if unsafe:
        return _Problem(message=unsafe)
    reason = _probe(directory.parent, directory, files)
    return _Problem(reason=reason) if reason else None


def _history_problem(settings: Settings) -> Optional[_Problem]:
    from .store import HistoryStore

    store = HistoryStore(settings)
    return _found(store.unsafe_reason(), store.dir, [store.log, store.lock_path]) or _lock_problem(store)


def _lock_problem(store: Any) -> Optional[_Problem]:
    """A lock another process keeps (a hung run): give up once, here, not in every worker for every file."""
    from filelock import FileLock, Timeout

    try:
        with FileLock(str(store.lock_path), timeout=store.lock_timeout):
            return None
    except Timeout:
        return _Problem(message=store.locked("history not recorded"))
    except OSError as exc:
        return _Problem(reason=exc.strerror or str(exc))


def _cache_problem(settings: Settings) -> Optional[_Problem]:
    from ..analysis.cache import cache_dir

    directory = cache_dir(settings)
    root = Path(os.path.realpath(settings.root))
    return _found(first_outside((directory.parent, directory), root), directory, [])


def _messages(base: Path, history: Optional[_Problem], cache: Optional[_Problem]) -> list[str]:
    """One message per distinct problem: the same reason for both parts is said once, of ``base``."""
    if history and cache and history.reason and history.reason == cache.reason:
        return [f"cannot write in {base}: {history.reason}; history not recorded, analysis cache not used"]
    parts = ((history, "history", "history not recorded"), (cache, "cache", "analysis cache not used"))
    return [p.message or f"cannot write in {base / name}: {p.reason}; {then}" for p, name, then in parts if p]


def check_write_access(settings: Settings, *, record: bool, cache: bool) -> WriteAccess:
    """Probe the history (if ``record``) and the cache (if ``cache`` and not ``LADDER_NO_CACHE``) once."""
    from ..analysis.cache import cache_disabled_by_env

    if not settings.in_project:  # said only to a run that meant to record; a cache nobody sees is no loss
        said = (f"{no_project(settings.root)}; history not recorded, analysis cache not used ('ladder init' "
                "makes it a project)")
        return WriteAccess(False, False, (said,) if record else ())
    cache = cache and not cache_disabled_by_env()
    history = _history_problem(settings) if record else None
    cached = _cache_problem(settings) if cache else None
    messages = _messages(settings.root / settings.history_dir, history, cached)
    return WriteAccess(record and history is None, cache and cached is None, tuple(dict.fromkeys(messages)))
