"""A file replaced whole: a synced temporary file beside it, renamed over it.

A reader sees the old file or the new one, never half of either; a write that fails
leaves the old file as it was and no temporary file behind. The one way the tracker,
the rules block, the hook installer and the edit hook's session files write.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Optional

__all__ = ["write_atomic"]


def write_atomic(path: Path, data: bytes, mode: Optional[int] = None, *, sync: bool = True) -> None:
    """Replace ``path`` by ``data``; ``mode``: its permissions (default: the old file's, else 0644). ``sync``
    false skips the fsync, for files that are a cache of something else (a lost one costs nothing)."""
    if mode is None:
        mode = stat.S_IMODE(os.stat(path).st_mode) if path.exists() else 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
