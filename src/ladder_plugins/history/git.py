"""Reading a git repository through the ``git`` command (DESIGN §10).

Only what recurrence from git and new-code gating need: where the work tree is,
whether the clone is shallow, which versions of each Python file the commits of a
time window hold (following renames), the bytes of blobs, the base commit of a
branch and the renames between it and the work tree.

The ``git`` command line is used rather than a library: it is present wherever a
repository is, it reads every repository format and configuration git itself
reads, and ``git log --raw`` plus one ``git cat-file --batch`` stream are all the
traffic a run needs (a pure-Python reader would be slower on packs, a libgit2
binding is a compiled dependency). Output is parsed as untrusted input: anything
that does not parse raises :class:`GitUnavailable` with a reason, never another
exception.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Sequence

__all__ = ["GitUnavailable", "Repository", "FileVersion", "Change", "Commits", "Mechanical", "clamp_time",
           "ignore_revs"]

_TIMEOUT = 300  # seconds for one git command; a hung git is one warning, not a hung run
_BATCH = 256  # blobs per cat-file request: bounded memory for the answer
_PY = ":(glob)**/*.py"


class GitUnavailable(Exception):
    """Git cannot answer (not installed, not a repository, corrupt, failing); the message says why."""


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


def _environment() -> dict[str, str]:
    """git's environment: no pager, no prompts, no locale surprises, no user diff drivers."""
    env = dict(os.environ)
    env.update(GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0", LC_ALL="C", GIT_OPTIONAL_LOCKS="0")
    return env


class Repository:
    """A git work tree containing the project root ``root``."""

    def __init__(self, root: Path, toplevel: Path, prefix: str, shallow: bool) -> None:
        self.root = root
        self.toplevel = toplevel
        self.prefix = prefix  # the project root relative to the work tree's top, "" or "sub/dir/"
        self.shallow = shallow
        self._head: Any = False  # asked once

    @classmethod
    def discover(cls, root: Path) -> "Repository":
        """The repository whose work tree holds ``root``; :class:`GitUnavailable` says why there is none."""
        try:
            out = _run(root, ["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix",
                              "--is-shallow-repository"]).decode("utf-8", "surrogateescape").split("\n")
        except GitUnavailable as exc:
            if "not a git repository" in str(exc):
                raise GitUnavailable(f"{root} is not inside a git work tree") from None
            raise
        if len(out) < 4 or out[0] != "true":
            raise GitUnavailable(f"{root} is not inside a git work tree")
        return cls(root, Path(out[1]), out[2], out[3] == "true")

    def git(self, args: Sequence[str], stdin: Optional[bytes] = None) -> bytes:
        return _run(self.root, args, stdin)

    def to_repo(self, rel: str) -> str:
        """A project-relative path as the repository names it."""
        return self.prefix + rel

    def to_project(self, path: str) -> Optional[str]:
        """A repository path relative to the project root; ``None`` outside it."""
        return path[len(self.prefix):] if path.startswith(self.prefix) else None

    def head(self) -> Optional[str]:
        """The commit id HEAD names (``None`` in a new repository); the commit itself is not read."""
        if self._head is False:
            try:
                sha = self.git(["rev-parse", "--verify", "--quiet", "HEAD"]).decode("ascii", "replace").strip()
            except GitUnavailable:
                sha = ""
            self._head = sha if _is_sha(sha) else None
        return self._head

    def commits(self, since: Optional[int]) -> "Commits":
        """Commits reachable from HEAD (newest first) with the Python files each changed, renames paired."""
        args = ["log", "-z", "--raw", "-M", "--no-abbrev", "--no-color", "--no-ext-diff", "--no-textconv",
                "--no-show-signature", "--format=%x01%H %ct %an <%ae>"]
        if since is not None and since > 0:
            # seconds since the epoch; git reads a negative @-N as no date at all and lists nothing
            args.append(f"--since=@{since}")
        return Commits(_parse_log(self.git(args + ["HEAD", "--", _PY])))

    def resolve(self, ref: str) -> Optional[str]:
        """The commit ``ref`` names, or ``None``."""
        try:
            out = self.git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"])
        except GitUnavailable:
            return None
        sha = out.decode("ascii", "replace").strip()
        return sha if _is_sha(sha) else None

    def merge_base(self, a: str, b: str) -> Optional[str]:
        try:
            out = self.git(["merge-base", "--end-of-options", a, b])
        except GitUnavailable:
            return None
        sha = out.decode("ascii", "replace").strip()
        return sha if _is_sha(sha) else None

    def default_branch(self) -> Optional[str]:
        """The remote's default branch (``origin/HEAD``), else the first of main/master that exists."""
        try:
            head = self.git(["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"]).decode("utf-8", "replace").strip()
        except GitUnavailable:
            head = ""
        candidates = [head] if head else []
        candidates += ["refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main",
                       "refs/heads/master"]
        return next((ref for ref in candidates if self.resolve(ref)), None)

    def renames_since(self, base: str) -> dict[str, str]:
        """Repository path now -> its path at ``base``, for Python files renamed since (work tree included)."""
        out = self.git(["diff", "-z", "--name-status", "-M", "--no-ext-diff", "--no-textconv", base, "--", _PY])
        tokens = [t for t in out.decode("utf-8", "surrogateescape").split("\0")]
        renames: dict[str, str] = {}
        i = 0
        while i < len(tokens) and tokens[i]:
            status = tokens[i]
            if status[:1] in ("R", "C"):
                if i + 2 >= len(tokens):
                    raise GitUnavailable("git diff gave a rename without its two paths")
                renames[tokens[i + 2]] = tokens[i + 1]
                i += 3
            else:
                i += 2
        return renames

    def blob_ids(self, specs: Sequence[str]) -> dict[str, Optional[str]]:
        """``<commit>:<path>`` -> the blob id there (``None`` when it is no file there)."""
        if not specs:
            return {}
        out = self.git(["cat-file", "--batch-check=%(objectname) %(objecttype)"],
                       stdin="".join(f"{s}\n" for s in specs).encode("utf-8", "surrogateescape"))
        lines = out.decode("utf-8", "surrogateescape").split("\n")
        if len(lines) < len(specs):
            raise GitUnavailable("git cat-file --batch-check gave fewer answers than asked")
        return {spec: _blob_of(line) for spec, line in zip(specs, lines)}

    def blobs(self, ids: Iterable[str], max_size: int) -> dict[str, Optional[bytes]]:
        """The content of each blob (``None`` for a missing blob or one larger than ``max_size``)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, Optional[bytes]] = {}
        for start in range(0, len(wanted), _BATCH):
            found.update(self._blob_batch(wanted[start:start + _BATCH], max_size))
        return found

    def _blob_batch(self, ids: list[str], max_size: int) -> dict[str, Optional[bytes]]:
        sizes = self.git(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], stdin=_lines(ids))
        small = [i for i, line in zip(ids, sizes.decode("ascii", "replace").split("\n")) if _fits(line, i, max_size)]
        found: dict[str, Optional[bytes]] = dict.fromkeys(ids)
        if small:
            out = self.git(["cat-file", "--batch"], stdin=_lines(small))
            found.update(_parse_batch(out, small))
        return found

    def ignored_revs(self) -> tuple[str, ...]:
        """The commits git blame is told to ignore: the file ``blame.ignoreRevsFile`` names, else
        ``.git-blame-ignore-revs`` at the top of the work tree (the file GitHub also reads)."""
        try:
            named = self.git(["config", "--path", "--get", "blame.ignoreRevsFile"])
        except GitUnavailable:
            named = b""  # unset: git config exits 1
        path = self.toplevel / (named.decode("utf-8", "surrogateescape").strip() or ".git-blame-ignore-revs")
        try:
            with open(path, "rb") as handle:
                text = handle.read(1 << 20).decode("utf-8", "replace")  # a list of ids: a megabyte is plenty
        except OSError:
            return ()
        return ignore_revs(text)

    def commit_time(self, sha: str) -> Optional[int]:
        """The committer time of ``sha``."""
        try:
            out = self.git(["show", "-s", "--no-show-signature", "--format=%ct", "--end-of-options", sha])
        except GitUnavailable:
            return None
        text = out.decode("ascii", "replace").strip()
        return clamp_time(int(text)) if text.lstrip("-").isdigit() and len(text) <= 20 else None

    def commits_after(self, base: str) -> frozenset[str]:
        """The commits reachable from HEAD and not from ``base``: what a branch added."""
        out = self.git(["rev-list", "HEAD", "--not", "--end-of-options", base]).decode("ascii", "replace").split()
        if not all(_is_sha(line) for line in out):
            raise GitUnavailable(f"git rev-list gave lines that are not commit ids: {out[:1]!r}")
        return frozenset(out)

    def introduced(self, text: str, rel: str) -> Optional[int]:
        """Committer time of the oldest commit that added ``text`` to the file ``rel``; ``None`` if none did."""
        out = self.git(["log", "--format=%ct", "--reverse", "--no-show-signature", f"-S{text}", "HEAD", "--",
                        f":(literal){rel}"])
        lines = out.decode("ascii", "replace").split()
        if not all(line.isdigit() and len(line) <= 20 for line in lines):
            raise GitUnavailable(f"git log gave commit times that do not parse: {out[:60]!r}")
        return clamp_time(int(lines[0])) if lines else None


def _lines(ids: Sequence[str]) -> bytes:
    return "".join(f"{i}\n" for i in ids).encode("ascii")


def _blob_of(line: str) -> Optional[str]:
    """The id in a ``%(objectname) %(objecttype)`` answer when it is a blob."""
    parts = line.split(" ")
    return parts[0] if len(parts) == 2 and parts[1] == "blob" and _is_sha(parts[0]) else None


def _fits(line: str, sha: str, max_size: int) -> bool:
    parts = line.split(" ")
    return len(parts) == 3 and parts[0] == sha and parts[1] == "blob" and parts[2].isdigit() \
        and int(parts[2]) <= max_size


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def _run(cwd: Path, args: Sequence[str], stdin: Optional[bytes] = None) -> bytes:
    import subprocess  # only a run that asks git pays for the import

    try:
        done = subprocess.run(["git", "-c", "core.quotepath=off", "-c", "color.ui=false", *args], cwd=cwd,
                              input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(),
                              timeout=_TIMEOUT, check=False)
    except FileNotFoundError:
        raise GitUnavailable("git is not installed (no 'git' on PATH)") from None
    except subprocess.TimeoutExpired:
        raise GitUnavailable(f"git {args[0]} did not finish in {_TIMEOUT} s") from None
    except OSError as exc:
        raise GitUnavailable(f"git cannot be run: {exc.strerror or exc}") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitUnavailable(f"git {args[0]} failed: {reason[-1] if reason else f'exit status {done.returncode}'}")
    return done.stdout


def _parse_log(out: bytes) -> list[_Commit]:
    """``git log -z --raw --format=%x01%H %ct`` output to commits; :class:`GitUnavailable` if it does not parse."""
    commits: list[_Commit] = []
    tokens = iter(out.decode("utf-8", "surrogateescape").split("\0"))
    for token in tokens:
        token = token.lstrip("\n")
        if token.startswith("\x01"):
            commits.append(_header(token[1:]))
        elif token.startswith(":") and commits:
            commits[-1].changes.append(_change(token, tokens))
        elif token:
            raise GitUnavailable(f"git log gave output that does not parse: {token[:60]!r}")
    return commits


_LAST_TIME = 253402300799  # 9999-12-31T23:59:59Z: the last time a datetime holds


def clamp_time(stamp: int) -> int:
    """A committer time as datetime can hold it (git accepts any number; a commit may lie)."""
    return min(max(stamp, 0), _LAST_TIME)


def _header(text: str) -> _Commit:
    sha, _, rest = text.partition(" ")
    stamp, _, author = rest.partition(" ")
    stamp = stamp.strip()
    if not _is_sha(sha) or not stamp.lstrip("-").isdigit() or len(stamp) > 20:
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
    return Change(status, second, first, blob, old_blob)


def _parse_batch(out: bytes, ids: list[str]) -> dict[str, Optional[bytes]]:
    """``git cat-file --batch`` output: ``<id> blob <size>\\n<bytes>\\n`` per id, in order."""
    found: dict[str, Optional[bytes]] = {}
    pos = 0
    for sha in ids:
        found[sha], pos = _batch_entry(out, pos, sha)
    return found


def _batch_entry(out: bytes, pos: int, sha: str) -> tuple[Optional[bytes], int]:
    """The content of the entry at ``pos`` (``None`` for "<id> missing" and the like) and where the next starts."""
    end = out.find(b"\n", pos)
    if end < 0:
        raise GitUnavailable("git cat-file --batch stopped early")
    head = out[pos:end].decode("ascii", "replace").split(" ")
    if len(head) != 3 or head[0] != sha or not head[2].isdigit():
        return None, end + 1  # no content follows
    start, size = end + 1, int(head[2])
    if start + size > len(out):
        raise GitUnavailable("git cat-file --batch gave less content than it announced")
    return out[start:start + size], start + size + 1


class Commits:
    """The commits of a window, newest first, indexed by the paths they changed."""

    def __init__(self, commits: Sequence[_Commit]) -> None:
        self.commits = list(commits)
        self._at: Optional[dict[str, int]] = None  # commit id -> position, built when first asked
        self._index: dict[str, list[int]] = {}
        for n, commit in enumerate(self.commits):
            for change in commit.changes:
                self._index.setdefault(change.path, []).append(n)

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
            found.append(FileVersion(commit.sha, commit.time, change.blob, name, mechanical.reason(commit)))
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
