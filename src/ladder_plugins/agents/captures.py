"""The prompt hook's captures: one JSON line per dissatisfied prompt, appended under a lock, inside the root.

The tracker reads ``<root>/<history_dir>/feedback/captures.jsonl`` as level-1 feedback
(:mod:`.journal`), one occurrence per capture ``id``. A capture holds what the classifier
found (reason codes, keywords), a SHA-256 of the prompt (so the same prompt can be
recognised without being kept) and the session; the prompt's own words only with
``[tool.ladder.feedback] store_prompts = true``, because prompts carry whatever the user
pasted.

Its ``text`` is what the tracker matches and shows: the keywords the complaint is about
(``bare except``), and the reason codes only when the prompt named no topic. The reason
codes are never mixed into a topical text, because the tracker derives keywords from the
text too: two captures that share ``negative_evaluation`` would share the words
``negative`` and ``evaluation`` and be merged into one item whatever they were about.

The hook must not wait: the lock is tried for a fraction of a second and the capture is
skipped, silently, when someone else holds it. Nothing is written where there is no
project (no ``pyproject.toml`` or ``.git`` at the root), and no path that leads out of the
root through a symlink is followed. A line is written in one ``write`` after making sure
the file ends with a line break, so a line torn by a killed process costs that line only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from ..ladderdir.paths import first_outside, make_dirs
from .classify import Classification

__all__ = ["CAPTURES_FILE", "LOCK_TIMEOUT", "MAX_PROMPT", "in_project", "capture_path", "capture_entry",
           "append_capture"]

#: the journal's file name for captures (:data:`ladder_plugins.tracker.sources.journal.CAPTURES`)
CAPTURES_FILE = "captures.jsonl"
#: how long the lock is tried, at most (the hook's remaining budget may make it shorter)
LOCK_TIMEOUT = 0.2
#: the most of a prompt kept with ``store_prompts`` (a pasted log is not feedback)
MAX_PROMPT = 4000
_MAX_ID = 100
_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def in_project(root: Path) -> bool:
    """Whether ``root`` is a project the hook may write in: it holds a ``pyproject.toml`` or ``.git``."""
    return (root / "pyproject.toml").is_file() or (root / ".git").exists()


def capture_path(root: Path, history_dir: str = ".ladder") -> Path:
    """``<root>/<history_dir>/feedback/captures.jsonl``, where the tracker reads captures."""
    return root / history_dir / "feedback" / CAPTURES_FILE


def _session(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value.isprintable() and 0 < len(value) <= _MAX_ID else None


def _text(reasons: Sequence[str], keywords: Sequence[str]) -> str:
    return (" ".join(keywords) or " ".join(reasons))[:4000]


def capture_entry(prompt: str, found: Classification, *, session_id: Any = None, now: Optional[datetime] = None,
                  store_prompt: bool = False) -> dict[str, Any]:
    """The capture's JSON object: the shape the journal trusts (a printable ``id``, a date-time ``when``, a
    ``text`` of at most 4,000 characters, keywords of at most 50 characters each)."""
    when = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    keywords = [k for k in found.keywords if len(k) <= 50]
    entry: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "when": when.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "text": _text(found.reasons, keywords),
        "keywords": keywords,
        "reasons": list(found.reasons),
        "hash": hashlib.sha256(prompt.encode("utf-8", "surrogatepass")).hexdigest(),
        "session_id": _session(session_id),
    }
    if store_prompt:
        entry["prompt"] = prompt[:MAX_PROMPT]
        if len(prompt) > MAX_PROMPT:
            entry["prompt_cut"] = True
    return entry


def _line(entry: dict[str, Any]) -> bytes:
    """One line of UTF-8; a prompt with lone surrogates (possible in JSON) is written ASCII-escaped."""
    try:
        return (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(entry) + "\n").encode("ascii")


def _write(path: Path, data: bytes) -> None:
    fd = os.open(path, _FLAGS, 0o644)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file")  # a FIFO, a device: not ours to write
        if info.st_size:
            os.lseek(fd, -1, os.SEEK_END)
            if os.read(fd, 1) != b"\n":
                data = b"\n" + data  # a line torn by a killed writer ends here; this one starts afresh
        os.write(fd, data)
    finally:
        os.close(fd)


def append_capture(root: Path, entry: dict[str, Any], history_dir: str = ".ladder",
                   timeout: float = LOCK_TIMEOUT) -> Optional[Path]:
    """Append ``entry`` to the captures file of ``root``; the file written, or ``None`` when nothing was:
    no project, a path leading out of the root, the lock held by someone else for ``timeout`` seconds, or
    the file system refusing. Never raises for those: a capture is worth less than the user's prompt."""
    real = Path(os.path.realpath(root))
    path = capture_path(real, history_dir)
    lock = path.with_name(path.name + ".lock")
    if not in_project(real) or first_outside([path.parent.parent, path.parent, path, lock], real):
        return None
    try:
        make_dirs(path.parent.parent, path.parent)
        if first_outside([path.parent, path, lock], real):  # created meanwhile, through a symlink
            return None
        with _locked(lock, max(0.0, timeout)) as held:
            if not held:
                return None
            _write(path, _line(entry))
    except OSError:
        return None
    return path


@contextlib.contextmanager
def _locked(lock: Path, timeout: float) -> Iterator[bool]:
    """The journal's lock, as filelock takes it on POSIX (``flock`` on the lock file, so the two exclude each
    other) without filelock's 30 ms import on the prompt's path; filelock itself where there is no ``fcntl``.
    Yields whether the lock was taken within ``timeout``."""
    try:
        import fcntl
    except ImportError:  # Windows
        from filelock import FileLock, Timeout

        try:
            with FileLock(str(lock), timeout=timeout):
                yield True
        except Timeout:
            yield False
        return
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        yield _flock(fcntl, fd, time.monotonic() + timeout)
    finally:
        os.close(fd)  # closing releases the lock


def _flock(fcntl: Any, fd: int, deadline: float) -> bool:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
