"""Reading a git repository through the ``git`` command: the questions a run asks it.

Only what recurrence from git and new-code gating need: where the work tree is,
whether the clone is shallow, the commits of a time window with the Python files
each changed (parsed in :mod:`.commits`), the bytes of blobs, the base commit of a
branch and the renames between it and the work tree.

The ``git`` command line is used rather than a library: it is present wherever a
repository is, it reads every repository format and configuration git itself
reads, and ``git log --raw`` plus one ``git cat-file --batch`` stream are all the
traffic a run needs (a pure-Python reader would be slower on packs, a libgit2
binding is a compiled dependency). Each call is one bounded process
(:mod:`.gitprocess`). Output is parsed as untrusted input: anything that does not
parse raises :class:`~.gitprocess.GitUnavailable` with a reason, never another
exception.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Callable, Iterable, Literal, Optional, Sequence

from .commits import Commits, clamp_time, ignore_revs, is_sha
from .gitprocess import GitSaidNo, GitUnavailable, run, streaming

__all__ = ["Repository", "SHALLOW_HINT"]

#: What to do about a shallow clone, whose few commits would read cleaner than the truth.
SHALLOW_HINT = ("this is a shallow clone, so its git history is not read (it holds only the commits fetched); "
                "fetch the whole history (GitHub Actions: actions/checkout with fetch-depth: 0; GitLab CI: "
                "GIT_DEPTH: 0; or git fetch --unshallow), or set [tool.ladder.recurrence] shallow = \"warn\" to "
                "go on without it")

_MAX_HEADER = 256  # bytes of one cat-file --batch header line ("<id> <type> <size>")
_BATCH = 256  # blobs per cat-file request: bounded memory for the answer
_PY = ":(glob)**/*.py"


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
            out = run(root, ["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix",
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
        return run(self.root, args, stdin)

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
            except GitSaidNo:
                out = b""  # no commit yet: --verify --quiet says so by its exit status alone
            sha = out.decode("ascii", "replace").strip()
            if sha and not is_sha(sha):
                raise GitUnavailable(f"git rev-parse gave output that does not parse: {out[:60]!r}")
            self._head = sha or None
        return self._head

    def commits(self, since: Optional[int]) -> Commits:
        """Commits reachable from HEAD (newest first) with the Python files each changed, renames paired."""
        # --date-order: never a parent before its children, so commits of one second keep history's order
        args = ["log", "-z", "--raw", "-M", "--date-order", "--no-abbrev", "--no-color", "--no-ext-diff",
                "--no-textconv", "--no-show-signature", "--format=%x01%H %ct %an <%ae>"]
        if since is not None and since > 0:
            # seconds since the epoch; git reads a negative @-N as no date at all and lists nothing
            args.append(f"--since=@{since}")
        with streaming(self.root, args + ["HEAD", "--", _PY]) as out:
            return Commits.from_log(iter(lambda: out.read(1 << 16), b""))

    def resolve(self, ref: str) -> Optional[str]:
        """The commit ``ref`` names, or ``None``."""
        try:
            out = self.git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"])
        except GitUnavailable:
            return None
        sha = out.decode("ascii", "replace").strip()
        return sha if is_sha(sha) else None

    def merge_base(self, a: str, b: str) -> Optional[str]:
        try:
            out = self.git(["merge-base", "--end-of-options", a, b])
        except GitUnavailable:
            return None
        sha = out.decode("ascii", "replace").strip()
        return sha if is_sha(sha) else None

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
            with streaming(self.root, ["cat-file", "--batch"], _lines(small)) as out:
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
        if not all(is_sha(line) for line in out):
            raise GitUnavailable(f"git rev-list gave lines that are not commit ids: {out[:1]!r}")
        return frozenset(out)

    def introduced(self, text: str, rel: str) -> Optional[tuple[int, str]]:
        """Committer time and id of the oldest commit that added ``text`` to the file ``rel``; ``None`` if none
        did."""
        out = self.git(["log", "--format=%ct %H", "--reverse", "--no-show-signature", f"-S{text}", "HEAD", "--",
                        f":(literal){rel}"])
        lines = [line.split(" ") for line in out.decode("ascii", "replace").splitlines() if line]
        if not all(len(f) == 2 and f[0].isdigit() and len(f[0]) <= 20 and is_sha(f[1]) for f in lines):
            raise GitUnavailable(f"git log gave commits that do not parse: {out[:60]!r}")
        return (clamp_time(int(lines[0][0])), lines[0][1]) if lines else None


def _lines(ids: Sequence[str]) -> bytes:
    return "".join(f"{i}\n" for i in ids).encode("ascii")


def _blob_of(line: str) -> Optional[str]:
    """The id in a ``%(objectname) %(objecttype)`` answer when it is a blob."""
    parts = line.split(" ")
    return parts[0] if len(parts) == 2 and parts[1] == "blob" and is_sha(parts[0]) else None


def _blob_size(line: str, sha: str) -> Optional[int]:
    """The size in a ``%(objectname) %(objecttype) %(objectsize)`` answer about ``sha`` when it is a blob."""
    parts = line.split(" ")
    ok = len(parts) == 3 and parts[0] == sha and parts[1] == "blob" and parts[2].isdigit() and len(parts[2]) < 20
    return int(parts[2]) if ok else None


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
