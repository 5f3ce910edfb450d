"""A lock file held while a file is read, changed and replaced, so two writers at once lose nothing.

The file itself cannot be the lock: :func:`~.atomic.write_atomic` renames a new file
over it, and a writer waiting on the old one would then work on a copy nobody reads.
A timeout is an error that says what was left unchanged, never a wait without end.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import LadderError

__all__ = ["held", "project_lock", "LOCK_TIMEOUT"]

#: how long a writer waits for another before it gives up (seconds)
LOCK_TIMEOUT = 10.0


@contextmanager
def held(lock: Path, what: str, *, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold ``lock`` (made if missing) for the block; ``what`` names the file it guards, for the messages."""
    from filelock import FileLock, Timeout

    guard = FileLock(str(lock))
    try:
        guard.acquire(timeout=timeout)
    except Timeout:
        raise LadderError(f"{what} is locked by another process for more than {timeout:g} s ({lock}); nothing "
                          "was changed") from None
    except OSError as exc:
        raise LadderError(f"{what}: its lock {lock} cannot be made ({exc.strerror or exc}); nothing was changed") \
            from None
    try:
        yield
    finally:
        guard.release()


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
