"""The edit hook's per-session counter: how many edits of one session left each unit over its limit.

One small JSON file per session, ``<history_dir>/hooks/sessions/<id>.json``, so the hook can say
"edits in this session that left it over the limit: 3". Bounded (:data:`SESSION_UNITS` units a file,
:data:`SESSION_FILES` files, :data:`SESSION_DAYS` days), written atomically under the directory's
lock (hosts run the hooks of parallel tool calls at once), inside the root only, never where there
is no project; a counter, not a record: a damaged file starts again, and one that cannot be written
costs the next edit its count, never a finding.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional

__all__ = ["SESSION_UNITS", "SESSION_FILES", "SESSION_DAYS", "LOCK_TIMEOUT", "session_file_name", "SessionCounter"]

SESSION_UNITS = 200  # fingerprints one session file keeps (the least recently seen go first)
SESSION_FILES = 200  # session files kept (the oldest go first)
SESSION_DAYS = 7  # a session file untouched this long is removed
_SESSION_BYTES = 256 << 10
#: seconds the directory's lock is tried; a save that does not get it is skipped
LOCK_TIMEOUT = 0.5


def session_file_name(session_id: str) -> str:
    """A file name for a session id: its safe characters, and a hash when anything was dropped or cut, so
    two ids never share a file and no id can name a path (``../x``) or a hidden file."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", session_id)[:64].lstrip("-_")
    if safe != session_id or not safe:
        digest = hashlib.blake2b(session_id.encode("utf-8", "replace"), digest_size=6).hexdigest()
        safe = f"{safe[:40] or 'session'}-{digest}"
    return f"{safe}.json"


@dataclass(frozen=True)
class SessionCounter:
    """How many edits of one session left each fingerprint over its limit, in ``hooks/sessions/``.

    ``units`` maps a fingerprint to ``{"version", "edits", "value", "at"}``: an edit counts
    when the unit's version is new to the session (an edit elsewhere in the file does not
    count again). A session file is a counter, not a record: a damaged one starts again.
    """

    directory: Path
    name: str
    units: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Any, session_id: str) -> Optional["SessionCounter"]:
        """The session's counter, or ``None`` when there is no session id or its place is not safe to use."""
        from ..ladderdir.paths import first_outside

        if not session_id or not settings.in_project:
            return None
        base = settings.root / settings.history_dir
        directory = base / "hooks" / "sessions"
        name = session_file_name(session_id)
        places = (base, base / "hooks", directory, directory / name, directory / ".lock")
        if first_outside(places, Path(os.path.realpath(settings.root))):
            return None
        return cls(directory, name, _read_units(directory / name))

    def seen(self, fingerprint: str) -> Optional[dict[str, Any]]:
        return self.units.get(fingerprint)

    def count(self, fingerprint: str, version: str, value: Optional[float], at: str) -> Optional[int]:
        """This edit's count for ``fingerprint``: one more when ``version`` is new to the session, ``None``
        when the session has already counted this version (the edit did not touch the unit)."""
        entry = self.units.get(fingerprint)
        if entry is not None and entry.get("version") == version:
            return None
        edits = (entry.get("edits", 0) if entry else 0) + 1
        self.units[fingerprint] = {"version": version, "edits": edits, "value": value, "at": at}
        return edits

    def save(self) -> None:
        """Write the counter atomically under the directory's lock (hosts run the hooks of parallel tool
        calls at once), keep it bounded, prune old sessions; a lock held too long skips the save."""
        from ..ladderdir.lock import taken
        from ..ladderdir.paths import make_dirs

        make_dirs(self.directory.parent.parent, self.directory)
        with taken(self.directory / ".lock", LOCK_TIMEOUT) as held:
            if held:
                units = {**_read_units(self.directory / self.name), **self.units}
                _write_atomic(self.directory / self.name, _bounded(units))
                _prune(self.directory, keep=self.name)


def _read_units(path: Path) -> dict[str, dict[str, Any]]:
    """A session file's units; a missing, oversized or damaged file counts from zero."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(_SESSION_BYTES + 1)[:_SESSION_BYTES])
        units = data.get("units") if isinstance(data, dict) else None
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(units, dict):
        return {}
    return {fp: entry for fp, entry in units.items()
            if isinstance(fp, str) and isinstance(entry, dict) and isinstance(entry.get("edits"), int)}


def _bounded(units: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """The file's content with at most :data:`SESSION_UNITS` fingerprints, the most recently seen."""
    recent = sorted(units.items(), key=lambda item: str(item[1].get("at", "")), reverse=True)[:SESSION_UNITS]
    return {"version": 1, "units": dict(sorted(recent))}


def _write_atomic(path: Path, data: Mapping[str, Any]) -> None:
    """A reader sees the old file or the new one; a session count lost to a crash costs nothing (no fsync)."""
    from ..ladderdir.atomic import write_atomic

    write_atomic(path, json.dumps(data, separators=(",", ":")).encode("utf-8"), sync=False)


def _age(entry: "os.DirEntry[str]", now: float) -> Optional[float]:
    """How old a file of the sessions directory is, for pruning: a session file by its time, a temporary
    file left by a killed hook as infinitely old after an hour; ``None`` for anything else (kept)."""
    if not entry.is_file(follow_symlinks=False):
        return None
    age = now - entry.stat(follow_symlinks=False).st_mtime
    if entry.name.startswith(".") and entry.name.endswith(".tmp"):  # write_atomic's, left by a killed hook
        return float("inf") if age > 3600 else None
    return age if entry.name.endswith(".json") else None


def _prune(directory: Path, keep: str) -> None:
    """Remove session files untouched for :data:`SESSION_DAYS` days and all but the newest
    :data:`SESSION_FILES`, and a temporary file a killed hook left behind, after an hour."""
    now = time.time()
    with os.scandir(directory) as listing:
        aged = sorted((age, entry.name) for entry in listing if entry.name != keep
                      for age in (_age(entry, now),) if age is not None)
    for number, (age, name) in enumerate(aged, 2):  # the kept file is the newest, number 1
        if age > SESSION_DAYS * 86400 or number > SESSION_FILES:
            with contextlib.suppress(OSError):
                (directory / name).unlink()
