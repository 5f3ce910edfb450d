"""When a piece of feedback in a project file was written: the date git gives its line, else the file's time.

Instruction and rules files (and hook configurations) are dated from their source, never from the
day of the scan: the author date ``git blame --porcelain`` gives the piece's first line; for a line
blame gives no date in a file with nothing uncommitted, the file's last commit (``git log``); for a line
not committed yet (or a file git does not track), the file's modification time. A name that is a
symlink (or lies below one) leading inside the project is dated by the real file's path, which is the
one git knows (git blames a link as a one-line file holding its target). Outside a git
repository, in a shallow clone (where blame gives the clone's boundary commit to every old line),
or when git fails or runs out of time, every date is the file's modification time, and the
sighting says which (:attr:`Dated.how`). Every call is one bounded git process
(``history/gitprocess.py``: ``LADDER_GIT_TIMEOUT``); a scan asks git at most twice per file.
Dates are UTC days, ``YYYY-MM-DD``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Optional

from .model import SourceContext

__all__ = ["Dated", "Dating", "day_of", "file_day"]

#: how a date was found, as a sighting records it
BLAME, LAST_COMMIT, FILE_TIME = "git blame", "git log", "file time"
_NOT_COMMITTED = "0" * 40


def day_of(seconds: float) -> Optional[str]:
    """A POSIX time as a UTC day, or ``None`` for one that is no time."""
    try:
        return datetime.fromtimestamp(seconds, timezone.utc).date().isoformat()
    except (ValueError, OverflowError, OSError):
        return None


def file_day(path: Path) -> Optional[str]:
    """A file's modification time as a UTC day (``None`` when it cannot be read)."""
    try:
        return day_of(path.stat().st_mtime)
    except OSError:
        return None


@dataclass(frozen=True)
class Dated:
    """A day and how it was found (``git blame``, ``git log``, ``file time (not a git repository)`` ...)."""

    day: Optional[str]
    how: str


@dataclass
class Dating:
    """The dates of one scan's project files: git asked once whether it can date them, then once per file."""

    context: SourceContext
    #: whether a shallow clone is said (by one source of a scan, so that it is said once)
    say: bool = True
    _why_not: Optional[str] = field(default=None, init=False)
    _asked: bool = field(default=False, init=False)

    def _git(self, args: list[str]) -> str:
        """git's answer; a git that cannot answer at all (out of time, garbled: not one that refused this
        file) is the reason every later date of the scan is a file time, and that date says it."""
        from ..history.gitprocess import GitSaidNo, GitUnavailable, run

        try:
            return run(self.context.root, args).decode("utf-8", "replace")
        except GitSaidNo:
            raise
        except GitUnavailable as exc:
            if self._asked:
                self._why_not = f"git: {exc}"
            raise

    def why_not(self) -> str:
        """Why git cannot date this project's files (``""``: it can)."""
        if not self._asked:
            self._asked = True
            self._why_not = self._ask()
        return self._why_not or ""

    def _ask(self) -> str:
        from ..history.gitprocess import GitUnavailable

        try:
            shallow = self._git(["rev-parse", "--is-inside-work-tree", "--is-shallow-repository"]).split()
        except GitUnavailable as exc:
            return "not a git repository" if "not a git repository" in str(exc).lower() else f"git: {exc}"
        if shallow[-1:] == ["true"] and self.say:
            self.context.warn("this is a shallow clone: git cannot say when older lines of instruction and rules "
                              "files were written, so they are dated by their files' modification times "
                              "(git fetch --unshallow dates them by their lines)")
        return "a shallow clone" if shallow[-1:] == ["true"] else ""

    def _file_time(self, path: Path) -> Dated:
        """``path``'s modification time, saying why when git could not date it."""
        return Dated(file_day(path), f"{FILE_TIME} ({self.why_not()})" if self.why_not() else FILE_TIME)

    def lines(self, path: Path, rel: str) -> tuple[dict[int, Dated], Callable[[], Dated]]:
        """The day each committed line of ``path`` was written (by line number), and how to date any other line:
        the file's last commit when git tracks it and blame found no uncommitted line, else its modification
        time. That second answer is asked of git only when a line needs it (a committed file's lines are all
        blamed), once per file. ``rel`` is ``path`` as the sighting names it; git is asked about the real file
        (:meth:`_tracked`)."""
        if self.why_not():
            return {}, _once(lambda: self._file_time(path))
        from ..history.gitprocess import GitUnavailable

        rel = self._tracked(path, rel)
        try:
            blamed = self._git(["blame", "--porcelain", "--", rel])
        except GitUnavailable:
            return {}, _once(lambda: self._last_commit(path, rel))
        if re.search(f"^{_NOT_COMMITTED} ", blamed, re.M) is not None:
            return _parse_blame(blamed), _once(lambda: self._file_time(path))
        return _parse_blame(blamed), _once(lambda: self._last_commit(path, rel))

    def _tracked(self, path: Path, rel: str) -> str:
        """The path git knows ``path`` by: the real file's, relative to the root, when ``path`` is a symlink (or
        lies below a symlinked directory) leading inside the root; else ``rel``."""
        try:
            return Path(os.path.realpath(path)).relative_to(self.context.root.resolve()).as_posix()
        except (ValueError, OSError):
            return rel

    def file(self, path: Path, rel: str) -> Dated:
        """The day a whole file (a hook configuration) was last changed: its last commit when it has none
        uncommitted, else its modification time."""
        if self.why_not():
            return self._file_time(path)
        from ..history.gitprocess import GitUnavailable

        rel = self._tracked(path, rel)
        try:
            changed = self._git(["status", "--porcelain", "--", rel]).strip()
        except GitUnavailable:
            return self._file_time(path)
        return self._file_time(path) if changed else self._last_commit(path, rel)

    def _last_commit(self, path: Path, rel: str) -> Dated:
        from ..history.gitprocess import GitUnavailable

        try:
            seconds = "" if self.why_not() else self._git(["log", "-1", "--format=%at", "--", rel]).strip()
        except GitUnavailable:
            seconds = ""
        day = day_of(int(seconds)) if seconds.isdigit() else None
        return Dated(day, LAST_COMMIT) if day else self._file_time(path)


def _once(answer: Callable[[], Dated]) -> Callable[[], Dated]:
    """``answer``, asked at most once."""
    kept: list[Dated] = []

    def ask() -> Dated:
        if not kept:
            kept.append(answer())
        return kept[0]

    return ask


_HEADER = re.compile(r"^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$")


def _parse_blame(text: str) -> dict[int, Dated]:
    """``git blame --porcelain``: each final line number and its commit's author day (uncommitted lines left out)."""
    times: dict[str, int] = {}
    lines: dict[int, str] = {}
    commit = ""
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            commit = header[1]
            lines[int(header[2])] = commit
        elif line.startswith("author-time ") and line[12:].strip().isdigit():
            times.setdefault(commit, int(line[12:]))
    days = {sha: day_of(seconds) for sha, seconds in times.items() if sha != _NOT_COMMITTED}
    return {number: Dated(days[sha], BLAME) for number, sha in lines.items() if days.get(sha)}
