"""A lock file held while a file is read, changed and replaced, so two writers at once lose nothing.

The file itself cannot be the lock: :func:`~.atomic.write_atomic` renames a new file
over it, and a writer waiting on the old one would then work on a copy nobody reads.

One lock for every writer: :func:`taken` is an exclusive ``flock`` on the lock file where
there is ``fcntl`` (filelock elsewhere: on POSIX filelock takes the same ``flock``, so the
two exclude each other), waited for at most a timeout. The agent hooks use it as it is: a
lock not taken in time skips their write. :func:`held` is it for the commands: a timeout is
an error that says what was left unchanged, never a wait without end.
"""

from __future__ import annotations

import contextlib
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..errors import LadderError

__all__ = ["held", "taken", "project_lock", "LOCK_TIMEOUT"]

#: how long a writer waits for another before it gives up (seconds)
LOCK_TIMEOUT = 10.0
#: seconds between two tries of a lock someone else holds
_POLL = 0.005


@contextmanager
def taken(lock: Path, timeout: float) -> Iterator[bool]:
    """Try for ``timeout`` seconds (0: once) to hold the file ``lock`` (made if missing) for the block, and
    yield whether it is held: the block runs either way and decides what to do without it. An ``OSError``
    (the lock file cannot be made) is raised. ``fcntl`` directly where there is one: importing filelock
    costs the prompt hook a tenth of its budget."""
    try:
        import fcntl
    except ImportError:  # Windows
        with _file_locked(lock, timeout) as got:
            yield got
        return
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        yield _flocked(fcntl, fd, time.monotonic() + max(0.0, timeout))
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _flocked(fcntl: Any, fd: int, deadline: float) -> bool:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:  # held by someone else: another try until the deadline
            if time.monotonic() >= deadline:
                return False
            time.sleep(_POLL)


@contextmanager
def _file_locked(lock: Path, timeout: float) -> Iterator[bool]:
    """:func:`taken` where there is no ``fcntl``: filelock's lock."""
    from filelock import FileLock, Timeout

    guard = FileLock(str(lock))
    try:
        guard.acquire(timeout=max(0.0, timeout))
    except Timeout:
        yield False
        return
    try:
        yield True
    finally:
        guard.release()


@contextmanager
def held(lock: Path, what: str, *, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold ``lock`` (made if missing) for the block; ``what`` names the file it guards, for the messages."""
    with contextlib.ExitStack() as stack:
        try:
            got = stack.enter_context(taken(lock, timeout))
        except OSError as exc:
            raise LadderError(f"{what}: its lock {lock} cannot be made ({exc.strerror or exc}); nothing was "
                              "changed") from None
        if not got:
            raise LadderError(f"{what} is locked by another process for more than {timeout:g} s ({lock}); nothing "
                              "was changed")
        yield


def project_lock(root: Path, history_dir: str, name: str) -> Path:
    """``<history_dir>/<name>``: a lock in the directory nobody commits (made, with its ``.gitignore``, if
    missing); a history directory that leads out of the project is an error, not a place to write."""
    from .paths import first_outside, make_dirs

    base = root / history_dir
    problem = first_outside([base], Path(os.path.realpath(root)))
    if problem is not None:
        raise LadderError(problem)
    try:
        make_dirs(base, base)
    except OSError as exc:
        raise LadderError(f"{base}: cannot be made ({exc.strerror or exc}); nothing was changed") from None
    return base / name
