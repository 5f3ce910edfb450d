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
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Literal, Optional, Sequence

__all__ = ["DEFAULT_TIMEOUT", "GitUnavailable", "Repository", "FileVersion", "Change", "Commits", "Mechanical",
           "TIMEOUT_ENV", "clamp_time", "ignore_revs"]

TIMEOUT_ENV = "LADDER_GIT_TIMEOUT"  # seconds one git call may take
#: by default: a hung git holds an interactive run this long, once, and the run goes on without git
DEFAULT_TIMEOUT = 20.0
_GAVE_UP_ENV = "LADDER_GIT_GAVE_UP"  # "<pid> <why>": a process that gave up on git, for it and its workers
_MAX_ANSWER = 64 << 20  # bytes of an answer read whole (ids, names, times): more is not what was asked
_MAX_FIELD = 1 << 20  # bytes of one field of git log's answer (a header, a path)
_MAX_HEADER = 256  # bytes of one cat-file --batch header line ("<id> <type> <size>")
_MAX_ERRORS = 64 << 10  # bytes of git's complaints kept: its reason comes first, a flood is drained unread
_BATCH = 256  # blobs per cat-file request: bounded memory for the answer
_PY = ":(glob)**/*.py"


class GitUnavailable(Exception):
    """Git cannot answer (not installed, not a repository, corrupt, failing); the message says why."""


class _GitSaidNo(GitUnavailable):
    """git ran and exited with a failure: to some questions ("which commit is HEAD?") an answer, where a
    time-out or garbage never is."""


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
        self._head: Optional[str] | Literal[False] = False  # asked once

    @classmethod
    def discover(cls, root: Path) -> "Repository":
        """The repository whose work tree holds ``root``; :class:`GitUnavailable` says why there is none."""
        try:
            out = _run(root, ["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix",
                              "--is-shallow-repository"], limit=4 * 4096 + 64)  # two paths, two words
        except GitUnavailable as exc:
            if "not a git repository" in str(exc):
                raise GitUnavailable(f"{root} is not inside a git work tree") from None
            raise
        lines = out.decode("utf-8", "surrogateescape").split("\n")
        if lines[0] == "false":  # inside .git, or a bare repository
            raise GitUnavailable(f"{root} is not inside a git work tree")
        if len(lines) != 5 or lines[0] != "true" or not os.path.isabs(lines[1]) or lines[3] not in ("true", "false") \
                or lines[4]:
            raise GitUnavailable(f"git rev-parse gave output that does not parse: {out[:60]!r}")
        return cls(root, Path(lines[1]), lines[2], lines[3] == "true")

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
                out = self.git(["rev-parse", "--verify", "--quiet", "HEAD"])
            except _GitSaidNo:
                out = b""  # no commit yet: --verify --quiet says so by its exit status alone
            sha = out.decode("ascii", "replace").strip()
            if sha and not _is_sha(sha):
                raise GitUnavailable(f"git rev-parse gave output that does not parse: {out[:60]!r}")
            self._head = sha or None
        return self._head

    def commits(self, since: Optional[int]) -> "Commits":
        """Commits reachable from HEAD (newest first) with the Python files each changed, renames paired."""
        # --date-order: never a parent before its children, so commits of one second keep history's order
        args = ["log", "-z", "--raw", "-M", "--date-order", "--no-abbrev", "--no-color", "--no-ext-diff",
                "--no-textconv", "--no-show-signature", "--format=%x01%H %ct %an <%ae>"]
        if since is not None and since > 0:
            # seconds since the epoch; git reads a negative @-N as no date at all and lists nothing
            args.append(f"--since=@{since}")
        with _streaming(self.root, args + ["HEAD", "--", _PY]) as out:
            return Commits(_parse_log(iter(lambda: out.read(1 << 16), b"")))

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

    def blobs(self, ids: Iterable[str], max_size: int,
              too_large: Optional[Callable[[str, int], None]] = None) -> dict[str, Optional[bytes]]:
        """The content of each blob (``None`` for a missing blob or one larger than ``max_size``, which is not
        read: ``too_large`` is told its id and size)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, Optional[bytes]] = {}
        for start in range(0, len(wanted), _BATCH):
            found.update(self._blob_batch(wanted[start:start + _BATCH], max_size, too_large))
        return found

    def _blob_batch(self, ids: list[str], max_size: int,
                    too_large: Optional[Callable[[str, int], None]]) -> dict[str, Optional[bytes]]:
        sizes = self.git(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], stdin=_lines(ids))
        small = []
        for sha, line in zip(ids, sizes.decode("ascii", "replace").split("\n")):
            size = _blob_size(line, sha)
            if size is not None and size <= max_size:
                small.append(sha)
            elif size is not None and too_large is not None:
                too_large(sha, size)
        found: dict[str, Optional[bytes]] = dict.fromkeys(ids)
        if small:  # read entry by entry: at most one blob of max_size is being read at a time
            with _streaming(self.root, ["cat-file", "--batch"], _lines(small)) as out:
                found.update(_parse_batch(out, small, max_size))
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

    def introduced(self, text: str, rel: str) -> Optional[tuple[int, str]]:
        """Committer time and id of the oldest commit that added ``text`` to the file ``rel``; ``None`` if none
        did."""
        out = self.git(["log", "--format=%ct %H", "--reverse", "--no-show-signature", f"-S{text}", "HEAD", "--",
                        f":(literal){rel}"])
        lines = [line.split(" ") for line in out.decode("ascii", "replace").splitlines() if line]
        if not all(len(f) == 2 and f[0].isdigit() and len(f[0]) <= 20 and _is_sha(f[1]) for f in lines):
            raise GitUnavailable(f"git log gave commits that do not parse: {out[:60]!r}")
        return (clamp_time(int(lines[0][0])), lines[0][1]) if lines else None


def _lines(ids: Sequence[str]) -> bytes:
    return "".join(f"{i}\n" for i in ids).encode("ascii")


def _blob_of(line: str) -> Optional[str]:
    """The id in a ``%(objectname) %(objecttype)`` answer when it is a blob."""
    parts = line.split(" ")
    return parts[0] if len(parts) == 2 and parts[1] == "blob" and _is_sha(parts[0]) else None


def _blob_size(line: str, sha: str) -> Optional[int]:
    """The size in a ``%(objectname) %(objecttype) %(objectsize)`` answer about ``sha`` when it is a blob."""
    parts = line.split(" ")
    ok = len(parts) == 3 and parts[0] == sha and parts[1] == "blob" and parts[2].isdigit() and len(parts[2]) < 20
    return int(parts[2]) if ok else None


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def _run(cwd: Path, args: Sequence[str], stdin: Optional[bytes] = None, limit: int = _MAX_ANSWER) -> bytes:
    """git's whole answer to ``args``, for the questions with short answers (ids, names, times): more than
    ``limit`` bytes is no answer to what was asked, and git is stopped there."""
    with _streaming(cwd, args, stdin) as out:
        answer = out.read(limit + 1)
        if len(answer) > limit:
            raise GitUnavailable(f"git {args[0]} gave more than {limit >> 10} KiB of output, far more than was "
                                 "asked for")
    return answer


@contextmanager
def _streaming(cwd: Path, args: Sequence[str], stdin: Optional[bytes] = None) -> Iterator[IO[bytes]]:
    """git running ``args``, its answer read as it comes (never held whole here).

    Each call is bounded by ``LADDER_GIT_TIMEOUT``: past it git and every process it started (its own
    session) are killed, and this process and the workers it starts ask git nothing more (a hung git is
    one wait, not one per question or per worker). Leaving the block early (an answer that does not parse)
    kills git too; a failing git is said once its answer was read.
    """
    call = _Call(cwd, args, stdin)
    try:
        yield call.stdout
        call.finish()
    except BaseException:
        _kill(call.proc)
        if call.expired.is_set():
            raise _gave_up(args, call.limit) from None  # the answer was cut by the kill, not garbled by git
        raise
    finally:
        call.close()
    if call.expired.is_set():
        raise _gave_up(args, call.limit)
    if call.proc.returncode != 0:
        raise _failure(args, call.proc.returncode, bytes(call.errors))


class _Call:
    """One git process: the pipe of its answer, its complaints (drained beside it), what it is given to read
    (written beside it: git answers while it reads, and pipes are small), and the timer that kills it."""

    def __init__(self, cwd: Path, args: Sequence[str], stdin: Optional[bytes]) -> None:
        import subprocess  # only a run that asks git pays for the imports
        import threading

        self.limit = _timeout()
        _refuse_after_giving_up()
        try:
            self.proc = subprocess.Popen(["git", "-c", "core.quotepath=off", "-c", "color.ui=false", *args],
                                         cwd=cwd, stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(),
                                         start_new_session=True)
        except FileNotFoundError:
            raise GitUnavailable("git is not installed (no 'git' on PATH)") from None
        except OSError as exc:
            raise GitUnavailable(f"git cannot be run: {exc.strerror or exc}") from None
        assert self.proc.stdout is not None  # a pipe was asked for
        self.stdout = self.proc.stdout
        self.expired, self.errors = threading.Event(), bytearray()
        self.timer = threading.Timer(self.limit, self._expire)
        self.helpers = [threading.Thread(target=_drain, args=(self.proc.stderr, self.errors), daemon=True)]
        if stdin is not None:
            self.helpers.append(threading.Thread(target=_feed, args=(self.proc.stdin, stdin), daemon=True))
        for started in (self.timer, *self.helpers):
            started.start()

    def _expire(self) -> None:
        self.expired.set()
        _kill(self.proc)

    def finish(self) -> None:
        """The answer was read: git ends, and its complaints are complete (the timer still bounds both)."""
        self.proc.wait()
        for helper in self.helpers:
            helper.join(self.limit)

    def close(self) -> None:
        self.timer.cancel()
        _kill(self.proc)  # whatever git left running holds nothing of ours
        self.stdout.close()  # its complaints' pipe is the drain's to close: closing it here would wait on the read


def _timeout() -> float:
    """Seconds one git call may take: ``LADDER_GIT_TIMEOUT``, else :data:`DEFAULT_TIMEOUT`."""
    given = os.environ.get(TIMEOUT_ENV, "").strip()
    if not given:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 3600:  # NaN fails too
        raise GitUnavailable(f"{TIMEOUT_ENV}={given[:40]!r} is not a number of seconds from 0 to 3600; set it "
                             f"to e.g. 60, or unset it for {DEFAULT_TIMEOUT:g}")
    return seconds


def _refuse_after_giving_up() -> None:
    """A process that gave up on git (or whose parent did, before starting it) does not ask again."""
    gave_up = os.environ.get(_GAVE_UP_ENV, "").split(" ", 1)
    if len(gave_up) == 2 and gave_up[0] in (str(os.getpid()), str(os.getppid())):
        raise GitUnavailable(gave_up[1])


def _gave_up(args: Sequence[str], limit: float) -> GitUnavailable:
    """A call that ran out of time; said the same way by every later call of this process and its workers,
    which inherit the environment (flake8's, xdist's), so the run's sinks say it once."""
    why = (f"git {args[0]} did not finish in {limit:g} s ({TIMEOUT_ENV} sets the limit); git is not asked again "
           "in this run")
    os.environ[_GAVE_UP_ENV] = f"{os.getpid()} {why}"
    return GitUnavailable(why)


_DUBIOUS = re.compile(r"detected dubious ownership in repository at '([^\n]*)'")


def _failure(args: Sequence[str], status: int, errors: bytes) -> GitUnavailable:
    """What a failing git said: its last line, or what its safe.directory refusal means and its fix."""
    text = errors.decode("utf-8", "replace")
    dubious = _DUBIOUS.search(text)
    if dubious:
        import shlex

        where = shlex.quote(dubious.group(1))
        return GitUnavailable(f"the repository {where} is owned by another user, and git reads such a repository "
                              "only once it is marked safe; if you trust it: git config --global --add "
                              f"safe.directory {where}")
    lines = text.strip().splitlines()
    return _GitSaidNo(f"git {args[0]} failed: {lines[-1] if lines else f'exit status {status}'}")


def _kill(proc: Any) -> None:
    """Kill git and every process it started: a child holding the pipe would keep a read waiting."""
    try:
        os.killpg(proc.pid, 9)  # SIGKILL; the group is git's own session, so nothing else is in it
    except AttributeError:  # no process groups (Windows)
        proc.kill()
    except OSError:
        pass  # the group is gone already


def _drain(pipe: IO[bytes], kept: bytearray) -> None:
    """Read git's complaints to their end (a full pipe would stop git), keeping their first part."""
    with pipe:
        for chunk in iter(lambda: pipe.read(1 << 16), b""):
            kept.extend(chunk[:max(_MAX_ERRORS - len(kept), 0)])


def _feed(pipe: Any, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except OSError:
        pass  # git ended or was stopped before reading it all: its answer (or the time-out) says why


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
    # a path recurs in every commit that changed it: one string each, not one per change
    return Change(status, sys.intern(second), sys.intern(first), blob, old_blob)


def _parse_batch(out: IO[bytes], ids: list[str], max_size: int) -> dict[str, Optional[bytes]]:
    """``git cat-file --batch`` output as it comes: ``<id> <type> <size>\\n<bytes>\\n`` per id, in order,
    each at most ``max_size`` bytes (what ``--batch-check`` said); nothing after the last."""
    found = {sha: _batch_entry(out, sha, max_size) for sha in ids}
    if out.read(1):
        raise GitUnavailable("git cat-file --batch gave more answers than it was asked for")
    return found


def _batch_entry(out: IO[bytes], sha: str, max_size: int) -> Optional[bytes]:
    """The content of the next entry, which answers ``sha`` (``None`` for "<id> missing" or no blob)."""
    line = out.readline(_MAX_HEADER)
    if not line:
        raise GitUnavailable("git cat-file --batch stopped early")
    kind, size = _batch_header(line, sha, max_size)
    if kind == "missing":
        return None  # nothing follows
    data = out.read(size)
    if len(data) < size or out.read(1) != b"\n":
        raise GitUnavailable(f"git cat-file --batch gave content that is not the {size} bytes it announced")
    return data if kind == "blob" else None


def _batch_header(line: bytes, sha: str, max_size: int) -> tuple[str, int]:
    """(type, size) of ``<id> <type> <size>\\n``, or ("missing", 0) for ``<id> missing\\n``."""
    head = line.decode("ascii", "replace").rstrip("\n").split(" ")
    if not line.endswith(b"\n") or len(head) not in (2, 3) or head[0] != sha:
        raise GitUnavailable(f"git cat-file --batch gave output that does not parse: {line[:60]!r}")
    if len(head) == 2:
        return "missing", 0  # or "ambiguous": no content either way
    if not head[2].isdigit() or len(head[2]) > 19 or int(head[2]) > max_size:
        raise GitUnavailable(f"git cat-file --batch gave a size that is not what --batch-check said: {line[:60]!r}")
    return head[1], int(head[2])


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
