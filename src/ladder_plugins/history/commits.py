"""The commits of a time window as ``git log --raw`` gives them: parsed, indexed by path, followed through renames.

A file's past versions are the commits of the window that changed it, newest first, walked back through
renames until the file was added or ``recurrence.git_max_commits`` versions were read
(:meth:`Commits.versions_of`). Which commits are mechanical edits (an ignore-revs file, sweeps of many
files, bots) is :class:`Mechanical`. What git log said for one HEAD is kept in the analysis cache
(:class:`LogCache`), so a warm run reads no commit list. git's output is untrusted: what does not parse
raises :class:`~.gitprocess.GitUnavailable`, as soon as it stops parsing.
"""

from __future__ import annotations

import bisect
import re
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Sequence

from .gitprocess import GitUnavailable

if TYPE_CHECKING:
    from ..analysis.cache import AnalysisCache
    from .git import Repository

__all__ = ["Change", "Commits", "FileVersion", "LogCache", "Mechanical", "clamp_time", "commit_datetime", "ignore_revs",
           "is_sha"]


_MAX_FIELD = 1 << 20  # bytes of one field of git log's answer (a header, a path)


@dataclass(frozen=True)
class Change:
    """One file changed by one commit, as ``git log --raw`` reports it."""

    status: str  # A, M, R, T, D (C is not asked for)
    path: str  # repository-relative, after the change
    old_path: str  # before a rename; ``path`` otherwise
    blob: str  # the new blob id (all zeros for a deletion)
    old_blob: str = ""  # the blob before the change (all zeros for an addition; "" where not known)


@dataclass(frozen=True)
class FileVersion:
    """The content of a file as one commit left it."""

    commit: str
    time: int  # committer time, seconds since the epoch (UTC)
    blob: str
    path: str  # repository-relative, as the file was called in that commit
    #: why the commit is a mechanical edit (see :class:`Mechanical`), or "" for an ordinary one
    mechanical: str = ""
    #: the commit's place among the commits of the same second, older lower: a rebase or ``git am`` gives many
    #: commits one committer time, and their order is history's, not their hashes'
    tick: int = 0

    @property
    def moment(self) -> int:
        """Microseconds since the epoch: the committer time, commits of one second in history's order."""
        return self.time * 1_000_000 + self.tick


@dataclass(frozen=True)
class _Commit:
    sha: str
    time: int
    changes: list[Change]
    author: str = ""  # "name <email>", as untrusted as the rest of git's output


#: Authors that are programs: GitHub's app accounts end in [bot]; the rest are the common bots by name.
_BOT = re.compile(r"\[bot\]|^(dependabot|renovate|pre-commit-ci|github-actions|snyk-bot|pyup-bot|"
                  r"allcontributors|imgbot|greenkeeper)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Mechanical:
    """Which commits are mechanical edits, not feedback coming back: listed in an ignore-revs file or in
    ``recurrence.ignore_revs`` (full ids or unambiguous prefixes of 7 or more digits), changing more than
    ``sweep_files`` Python files (a formatter, pyupgrade, an annotation sweep), or made by a bot."""

    revs: tuple[str, ...] = ()
    sweep_files: int = 0  # 0: no commit is a sweep by its size

    def reason(self, commit: "_Commit") -> str:
        """"ignore-revs", "sweep", "bot", or "" for an ordinary commit."""
        if any(commit.sha.startswith(rev) for rev in self.revs):
            return "ignore-revs"
        if self.sweep_files and len(commit.changes) > self.sweep_files:
            return "sweep"
        return "bot" if _BOT.search(commit.author) else ""


def ignore_revs(text: str) -> tuple[str, ...]:
    """The commit ids of an ignore-revs file: one per line, ``#`` comments and blank lines skipped, as git
    blame reads it; a line that is not a hexadecimal id of 7 to 64 digits is skipped."""
    revs = []
    for line in text.splitlines():
        word = line.split("#", 1)[0].strip().lower()
        if 7 <= len(word) <= 64 and all(c in "0123456789abcdef" for c in word):
            revs.append(word)
    return tuple(revs)


def _parse_log(chunks: Iterable[bytes]) -> list[_Commit]:
    """``git log -z --raw --format=%x01%H %ct`` output, as it comes, to commits; :class:`GitUnavailable` if it
    does not parse (as soon as it stops parsing: a flood is not read to its end)."""
    commits: list[_Commit] = []
    fields = _fields(chunks)
    for token in fields:
        token = token.lstrip("\n")
        if token.startswith("\x01"):
            commits.append(_header(token[1:]))
        elif token.startswith(":") and commits:
            commits[-1].changes.append(_change(token, fields))
        elif token:
            raise GitUnavailable(f"git log gave output that does not parse: {token[:60]!r}")
        elif next(fields, None) is not None:  # the answer ends with an empty field, nothing else is one
            raise GitUnavailable("git log gave output that does not parse: an empty field before its end")
    return commits


def _fields(chunks: Iterable[bytes]) -> Iterator[str]:
    """The NUL-separated fields of ``chunks``; one longer than any header or path does not parse."""
    rest = b""
    for chunk in chunks:
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        for part in parts + [rest]:
            if len(part) > _MAX_FIELD:
                raise GitUnavailable(f"git log gave output that does not parse: a field of more than "
                                     f"{_MAX_FIELD >> 20} MiB ({part[:40]!r}...)")
        yield from (part.decode("utf-8", "surrogateescape") for part in parts)
    yield rest.decode("utf-8", "surrogateescape")


_LAST_TIME = 253402300799  # 9999-12-31T23:59:59Z: the last time a datetime holds


def clamp_time(stamp: int) -> int:
    """A committer time as datetime can hold it (git accepts any number; a commit may lie)."""
    return min(max(stamp, 0), _LAST_TIME)


def commit_datetime(stamp: int) -> datetime:
    """A committer time (seconds since the epoch) as a UTC datetime, clamped to what datetime holds."""
    return datetime.fromtimestamp(clamp_time(stamp), timezone.utc)


def _header(text: str) -> _Commit:
    sha, _, rest = text.partition(" ")
    stamp, _, author = rest.partition(" ")
    stamp = stamp.strip()
    if not is_sha(sha) or not stamp.lstrip("-").isdigit() or len(stamp) > 20:
        raise GitUnavailable(f"git log gave a commit header that does not parse: {text[:60]!r}")
    return _Commit(sha, clamp_time(int(stamp)), [], author.strip()[:200])


def _change(meta: str, tokens: Iterator[str]) -> Change:
    """One raw entry (``:<modes> <blobs> <status>``) and its one path, or two for a rename."""
    fields = meta[1:].split(" ")
    if len(fields) != 5 or not fields[4]:
        raise GitUnavailable(f"git log gave a raw line that does not parse: {meta[:80]!r}")
    status, old_blob, blob = fields[4][0], fields[2], fields[3]
    first = next(tokens, None)
    second = next(tokens, None) if status in ("R", "C") else first
    if first is None or second is None:
        raise GitUnavailable("git log gave a change without its path")
    # a path recurs in every commit that changed it: one string each, not one per change
    return Change(status, sys.intern(second), sys.intern(first), blob, old_blob)


def is_sha(text: str) -> bool:
    """Whether ``text`` is a whole commit or object id as git prints it (SHA-1 or SHA-256, lower case)."""
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


class Commits:
    """The commits of a window, newest first, indexed by the paths they changed."""

    def __init__(self, commits: Sequence[_Commit]) -> None:
        self.commits = list(commits)
        self._at: Optional[dict[str, int]] = None  # commit id -> position, built when first asked
        self._index: dict[str, list[int]] = {}
        for n, commit in enumerate(self.commits):
            for change in commit.changes:
                self._index.setdefault(change.path, []).append(n)
        # each commit's FileVersion.tick: how many older commits of the list share its second
        self._ticks = [0] * len(self.commits)
        seen: dict[int, int] = {}
        for n in range(len(self.commits) - 1, -1, -1):
            second = self.commits[n].time
            self._ticks[n] = min(seen.get(second, 0), 999_999)
            seen[second] = seen.get(second, 0) + 1

    @classmethod
    def from_log(cls, chunks: Iterable[bytes]) -> "Commits":
        """The commits of ``git log -z --raw --format=%x01%H %ct %an <%ae>`` output, read as it comes."""
        return cls(_parse_log(chunks))

    def __len__(self) -> int:
        return len(self.commits)

    def since(self, start: int) -> "Commits":
        """The commits at or after ``start`` (seconds since the epoch)."""
        return Commits([c for c in self.commits if c.time >= start])

    def to_json(self) -> list[Any]:
        return [[c.sha, c.time, [[ch.status, ch.path, ch.old_path, ch.blob, ch.old_blob] for ch in c.changes],
                 c.author] for c in self.commits]

    @classmethod
    def from_json(cls, data: Any) -> "Commits":
        """Decode :meth:`to_json`; ``ValueError`` when it is not that shape (a damaged cache entry)."""
        try:
            return cls([_Commit(str(sha), int(time), [Change(*map(str, ch)) for ch in changes],
                                str(author[0]) if author else "") for sha, time, changes, *author in data])
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a list of commits: {exc}") from None

    def versions_of(self, path: str, limit: int, mechanical: Mechanical = Mechanical(),
                    older_than: str = "") -> tuple[list[FileVersion], bool]:
        """The versions of ``path`` (repository-relative, as HEAD names it, or as the parent of commit
        ``older_than`` named it) the commits made, newest first, each with the reason its commit is mechanical
        (if it is); and whether ``limit`` cut the walk short.

        Walks back through renames; stops where the file was added, or after ``limit`` versions.
        """
        found: list[FileVersion] = []
        name, after = path, self._position(older_than) if older_than else -1
        if after is None:
            return found, False
        while True:
            step = self._next_change(name, after)
            if step is None:
                return found, False
            if len(found) == limit:
                return found, True  # there was more to read
            after, change = step
            commit = self.commits[after]
            found.append(FileVersion(commit.sha, commit.time, change.blob, name, mechanical.reason(commit),
                                     self._ticks[after]))
            if change.status == "A":
                return found, False
            name = change.old_path

    def changes_at(self, sha: str) -> list[Change]:
        """The Python files commit ``sha`` changed (none when the window does not hold it)."""
        at = self._position(sha)
        return [] if at is None else list(self.commits[at].changes)

    def _position(self, sha: str) -> Optional[int]:
        if self._at is None:
            self._at = {commit.sha: n for n, commit in enumerate(self.commits)}
        return self._at.get(sha)

    def _next_change(self, name: str, after: int) -> Optional[tuple[int, Change]]:
        """The next older commit than ``after`` that left a file at ``name``, and that change."""
        positions = self._index.get(name, [])
        for at in positions[bisect.bisect_right(positions, after):]:
            # a deletion (on a branch a merge did not follow) left nothing there: look further back
            change = next((c for c in self.commits[at].changes if c.path == name and c.status != "D"), None)
            if change is not None:
                return at, change
        return None


class LogCache:
    """What git log said for one HEAD, kept in the analysis cache: the window's commits, and when
    ``[tool.ladder]`` was adopted (apart, so a run whose answers are all cached reads no commit list).
    Commits read for an earlier window start serve a later one."""

    def __init__(self, cache: Optional[AnalysisCache], repo: Repository) -> None:
        self.cache, self.repo = cache, repo
        self.head = repo.head() or ""

    def _key(self, kind: bytes) -> str:
        assert self.cache is not None  # asked only where answers are kept
        return self.cache.key(kind, self.repo.prefix, self.head)

    def _read(self, kind: bytes, valid: Callable[[Any], bool]) -> Optional[dict[str, Any]]:
        if self.cache is None:
            return None
        data = self.cache.get(self._key(kind))
        if data is not None and not valid(data):
            self._discard(kind)
            return None
        return data

    def _discard(self, kind: bytes) -> None:
        if self.cache is not None:
            self.cache.discard(self._key(kind), "unexpected content")

    def adopted(self, rel: str) -> Optional[tuple[int, str]]:
        """When and in which commit ``[tool.ladder]`` was first committed to ``rel`` (the pyproject.toml)."""
        entry = self._read(b"git-adopted-2", lambda d: d.get("rel") == rel and (d.get("at") is None or (
            isinstance(d.get("at"), list) and len(d["at"]) == 2 and isinstance(d["at"][0], int)
            and isinstance(d["at"][1], str))))
        if entry is not None:
            return None if entry["at"] is None else (entry["at"][0], entry["at"][1])
        at = self.repo.introduced("[tool.ladder", rel)
        if self.cache is not None:
            self.cache.put(self._key(b"git-adopted-2"), {"rel": rel, "at": None if at is None else list(at)})
        return at

    def commits(self, start: int) -> Commits:
        # git-log-4: commits carry their author, changes their old blob, in --date-order; and no entry of the
        # first key, which a negative --since once filled with nothing, is ever read again
        entry = self._read(b"git-log-4", lambda d: isinstance(d.get("since"), int) and "commits" in d)
        if entry is not None and entry["since"] <= start:
            try:
                return Commits.from_json(entry["commits"]).since(start)
            except ValueError:
                self._discard(b"git-log-4")
        found = self.repo.commits(start)
        if self.cache is not None:
            self.cache.put(self._key(b"git-log-4"), {"since": start, "commits": found.to_json()})
        return found
