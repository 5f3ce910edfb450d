"""A JSON line appended to a file under its lock: the feedback journal's notes and the prompt hook's captures.

Each line is written whole under ``<file>.lock`` (:func:`~.lock.taken`), after making sure the
file ends with a line break, so a line torn by a killed writer costs that line only and the next
one starts afresh. Only a regular file is written, and never through a symlink at its own name
(the callers check the directories above it). A line that cannot be UTF-8 (a lone surrogate, which
JSON allows) is written ASCII-escaped.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Mapping

from .lock import taken

__all__ = ["append_line", "json_line", "lock_of"]

_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def lock_of(path: Path) -> Path:
    """``<path>.lock``: the lock the writers of ``path`` take."""
    return path.with_name(path.name + ".lock")


def json_line(entry: Mapping[str, Any]) -> bytes:
    """``entry`` as one line of UTF-8 JSON (non-ASCII kept as it is, unless it cannot be encoded)."""
    try:
        return (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(entry) + "\n").encode("ascii")


def append_line(path: Path, entry: Mapping[str, Any], *, timeout: float, sync: bool = True) -> bool:
    """Append ``entry`` to ``path`` (made if missing) as one JSON line, under ``<path>.lock`` tried for ``timeout``
    seconds; whether it was written (``False``: another writer held the lock all that time). ``sync``: the line
    is on disk before this returns. A file system's refusal (or ``path`` not a regular file) is an ``OSError``."""
    data = json_line(entry)
    with taken(lock_of(path), timeout) as got:
        if not got:
            return False
        _write(path, data, sync)
    return True


def _write(path: Path, data: bytes, sync: bool) -> None:
    fd = os.open(path, _FLAGS, 0o644)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file")  # a FIFO, a device: not ours to write
        if info.st_size:
            os.lseek(fd, -1, os.SEEK_END)
            if os.read(fd, 1) != b"\n":
                data = b"\n" + data  # a line torn by a killed writer ends here; this one starts afresh
        while data:
            data = data[os.write(fd, data):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
