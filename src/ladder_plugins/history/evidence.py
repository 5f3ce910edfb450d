"""What git adds to a run's gate: past occurrences, and the base of ``mode = "new"`` (DESIGN §10).

*Occurrences from git.* For each file with a red violation in the run, the commits
of the window that changed it (renames followed, at most
``recurrence.git_max_commits``) give its past versions. Each version is analysed
under the current settings as the file is named now, and every red violation of a
fingerprint the run violates becomes a red event dated by the commit's committer
time. Those events join the history's in one aggregate, where a version keeps its
earliest sighting: log and git are one set, so a laptop (log and git) and a fresh
CI clone (git alone) count the same versions. A blob never changes, so what its
analysis found is kept in the analysis cache under its blob id, and a warm run
reads no blob at all.

*Evidence and trigger are separate.* The evidence is each file's history, bounded
by ``recurrence.git_max_commits`` versions per file (said when reached), never by the
log's retention. The *adoption point* (:class:`Adoption`) decides which of those
occurrences may fail the run: by default the commit that added ``[tool.ladder]`` to
pyproject.toml, so adopting the tool does not fail on history nobody was told about
(a chronic hotspot from before it is known, and fails on its next edit);
``recurrence.git_since`` a commit, a date or ``"all"``.

*Mechanical edits* (:class:`~.git.Mechanical`: an ignore-revs file, ``ignore_revs``,
sweeps of more than ``sweep_files`` Python files, bots) are no occurrence: the version
such a commit leaves is the baseline of the next edit.

*The base* of ``mode = "new"`` (``--base``, ``[tool.ladder] base``, else the merge
base of HEAD with the default branch) is analysed the same way: the red violations
it had, by fingerprint, are what is not new.

Git is untrusted and optional: no git, no repository, a corrupt one or git failing
is one warning and the log alone decides. A shallow clone is not read: in CI (``CI``
set) it is a configuration error with the fix unless ``recurrence.shallow = "warn"``,
elsewhere one warning; :meth:`GitEvidence.read_note` says what was read, for the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal, Mapping, Optional, Sequence, Union

from ..analysis.identity import HASH_VERSION, text_hash, text_tokens
from ..config import Settings
from ..errors import ConfigError
from .blobs import BlobFindings, Row, Wanted, likeness
from .events import SCHEMA_VERSION, Event
from .commits import Change, Commits, FileVersion, LogCache, Mechanical, clamp_time
from .git import Repository
from .gitprocess import GitUnavailable
from .run import format_timestamp, now_utc, parse_timestamp
from .workspace import git_wanted

if TYPE_CHECKING:
    import pluggy

    from ..analysis.cache import AnalysisCache
    from ..catalogue import Rule

__all__ = ["Adoption", "Baseline", "GitEvidence", "GitFacts", "SHALLOW_HINT"]

SHALLOW_HINT = ("this is a shallow clone, so its git history is not read (it holds only the commits fetched); "
                "fetch the whole history (GitHub Actions: actions/checkout with fetch-depth: 0; GitLab CI: "
                "GIT_DEPTH: 0; or git fetch --unshallow), or set [tool.ladder.recurrence] shallow = \"warn\" to "
                "go on without it")


@dataclass(frozen=True)
class Adoption:
    """From when an occurrence may fail the run. ``git``: the first moment a commit's occurrence counts
    (``None``: none does, ``[tool.ladder]`` is not committed yet); ``log``: the same for occurrences the
    log recorded or the run itself makes (``None``: all of them)."""

    git: Optional[datetime]
    log: Optional[datetime]
    said: str  # "since 2024-03-01 (the commit that added [tool.ladder])", for the verdict and reports
    #: where the adoption point is a commit: it and the commits after it (not its ancestors), which decide
    #: for a commit's occurrence by history, not by a clock (a rebase gives many commits one second)
    after: Optional[frozenset[str]] = None

    def triggers(self, when: str, commit: Optional[str]) -> bool:
        """Whether an occurrence at ``when`` (a stored timestamp) may fail the run; ``commit``: the commit it
        was first seen in, ``None`` for an occurrence the log recorded or the run makes."""
        if commit is not None and self.after is not None:
            return commit in self.after
        since = self.git if commit is not None else self.log
        if since is None:
            return commit is None
        return when >= format_timestamp(since)


#: No git, or git not read: every occurrence is the log's or the run's, and each may fail the run.
EVERYTHING = Adoption(None, None, "")


@dataclass(frozen=True)
class GitFacts:
    """What the gate needs of git besides the past versions: the adoption point, the mechanical commits,
    the commits of the branch (mode new), and what was read."""

    adoption: Adoption = EVERYTHING
    mechanical: Mapping[str, str] = field(default_factory=dict)  # commit -> reason
    branch: Optional[frozenset[str]] = None  # commits after the base (mode new), None without a base
    #: the base's committer time (mode new): work only the log saw counts on the branch when it is later
    base_time: Optional[str] = None
    note: str = ""


@dataclass(frozen=True)
class Baseline:
    """The red violations the base commit had, by fingerprint (value at the base)."""

    commit: str
    values: Mapping[str, Optional[float]]

    @property
    def short(self) -> str:
        return self.commit[:12]


@dataclass
class _Found:
    """What git said, asked once each: False where not asked yet, None where there is nothing."""

    repo: Optional[Repository] | Literal[False] = False
    commits: Optional[Commits] | Literal[False] = False
    base: Optional[str] | Literal[False] = False
    renames: Optional[dict[str, str]] = None
    log: Optional[LogCache] = None  # the LogCache, once the window's start is known
    start: Optional[int] = None
    window: str = ""  # HEAD and window start: the key of answers for this window
    mechanical: Optional[Mechanical] = None  # the Mechanical classifier, once read
    adoption: Optional[Adoption] = None  # the Adoption, once worked out
    branch: Optional[frozenset[str]] | Literal[False] = False  # the commits after the base (mode new)
    versions: int = 0  # past versions read
    cut: tuple[str, ...] = ()  # files whose history git_max_commits cut short
    not_read: str = ""  # why git was not read ("shallow clone"), said in the verdict and by doctor
    error: Optional[ConfigError] = None  # what check() raises: a shallow clone in CI
    mechanical_commits: dict[str, str] = field(default_factory=dict)  # of the versions read: commit -> reason
    base_time: Union[str, None, Literal[False]] = False  # the base's committer time (mode new), once asked
    lineage: dict[tuple[str, str], tuple["_Hop", ...]] = field(default_factory=dict)  # (path, unit) -> its moves


#: A past version's finding: its row, the commit, the commit's moment (``FileVersion.moment``, microseconds),
#: why the commit is mechanical ("" if not).
Found = tuple[Row, str, int, str]


class GitEvidence:
    """Per-run (per-process) access to git's side of the gate; every git call is made at most once."""

    def __init__(self, settings: Settings, *, cache: Optional[AnalysisCache] = None,
                 pm: Optional[pluggy.PluginManager] = None,
                 warn: Optional[Callable[[str], None]] = None, now: Optional[datetime] = None) -> None:
        """``settings`` carry the mode and base (front ends apply their options first); ``cache`` is the
        run's AnalysisCache and ``pm`` its plugin manager; ``now`` the run's clock."""
        self.settings = settings
        self.mode, self.base_ref = settings.mode, settings.base
        self.blobs = BlobFindings(settings, cache, pm, warn=lambda message: self._warn(message))
        self._warn = warn or (lambda message: None)
        self.now = now or now_utc()
        self._found = _Found()

    # -- the repository ------------------------------------------------------------------

    def warn_to(self, warn: Callable[[str], None]) -> None:
        """Say later warnings through ``warn`` (a process that took over another's sink)."""
        self._warn = warn

    @property
    def uses_git(self) -> bool:
        """Whether occurrences are read from git (``source`` git or both, edit counting)."""
        rec = self.settings.recurrence
        return rec.source != "log" and rec.count == "edits"

    def repository(self) -> Optional[Repository]:
        if self._found.repo is False:
            self._found.repo = self._discover()
        return self._found.repo

    def _discover(self) -> Optional[Repository]:
        root = self.settings.root
        if not git_wanted(self.settings):
            return None  # not a git project: the log alone, and nothing to say
        try:
            repo = Repository.discover(root)
            if repo.head() is None:
                self._found.not_read = "the repository has no commits yet"
                return None  # a repository without commits has no history to read
        except GitUnavailable as exc:
            self._warn(f"git: {exc}; recurrence uses the stored history alone")
            self._found.not_read = "git failed (see the warning)"
            return None
        if repo.shallow and self.uses_git:
            self._shallow()
            return None
        return repo

    def _shallow(self) -> None:
        """A shallow clone holds a few commits: counting from them would read cleaner than the truth. In CI
        that is an error with the fix, unless configured to warn; elsewhere a warning."""
        import os

        in_ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
        if in_ci and self.settings.recurrence.shallow != "warn":
            self._found.error = ConfigError(f"git: {SHALLOW_HINT} (CI is set, so this is an error)")
        else:
            self._warn(f"git: {SHALLOW_HINT}")
        self._found.not_read = "shallow clone"

    def prepare(self) -> None:
        """Ask git now what every later question needs (the repository, the window's commits): a process
        that forks workers asks once for all of them, and says once what went wrong."""
        self.repository()
        if self.uses_git:
            try:
                self._window()  # forked workers inherit the commits
            except GitUnavailable as exc:
                self._fail(exc)

    def check(self) -> None:
        """Fail early on a shallow clone in CI and on a ``--base`` that names no commit (usage errors, not
        warnings)."""
        repo = self.repository()
        if self._found.error is not None:
            raise self._found.error
        if repo is not None and self.uses_git:
            self.adoption()  # a git_since git does not know is a usage error here, not halfway through a run
        if self.mode != "new" or not self.base_ref:
            return
        if repo is not None and repo.resolve(self.base_ref) is None:
            raise ConfigError(f"base {self.base_ref!r} does not name a commit of {repo.toplevel.name}; expected "
                              "a branch, tag or commit such as origin/main (a shallow clone may lack it: "
                              "fetch-depth: 0)")

    # -- occurrences ---------------------------------------------------------------------

    def prior(self, events: Sequence[Event]) -> list[Event]:
        """Red events, one per past version from git, of the fingerprints ``events`` has red."""
        if not self.uses_git:
            return []
        wanted = _wanted(events)
        if not wanted or self.repository() is None:
            return []
        try:
            return self._prior(wanted)
        except GitUnavailable as exc:
            self._fail(exc)
            return []

    def _fail(self, exc: GitUnavailable) -> None:
        self._warn(f"git: {exc}; recurrence uses the stored history alone")
        self._found.repo = None

    def _prior(self, wanted: Mapping[str, _Asked]) -> list[Event]:
        """One event per (fingerprint, version), dated by the version's earliest commit: all recurrence reads.

        The answer for this HEAD, window and set of fingerprints is kept in the cache too (one entry per
        call: a whole ``ladder check``, or one file of flake8)."""
        found = self._cached_prior(wanted)
        if found is None:
            found = self._walk(wanted)
            self._store_prior(wanted, found)
        self._found.mechanical_commits = {commit: why for items in found.values() for _, commit, _, why in items
                                          if why}
        if self._found.cut:
            cap = self.settings.recurrence.git_max_commits
            cut = self._found.cut
            named = ", ".join(cut[:5]) + (f" and {len(cut) - 5} more" if len(cut) > 5 else "")
            self._warn(f"git: the history of {len(cut)} file(s) was cut at git_max_commits = {cap} ({named}); "
                       "older versions are not counted: raise [tool.ladder.recurrence] git_max_commits to read them")
        return [self._event(row, rel, commit, time) for rel, items in found.items() for row, commit, time, _ in items]

    def _walk(self, wanted: Mapping[str, _Asked]) -> dict[str, list[Found]]:
        """Per file: (row, commit, time, mechanical) of the earliest commit of each (fingerprint, version) asked
        about, a moved unit's versions before its move included (the files the cap cut short are kept in
        ``self._found.cut``)."""
        versions = self._versions(wanted)
        rows = self._rows([(v.blob, rel) for rel, v in versions], wanted) if versions else {}
        seen = [(rel, v, rows.get((v.blob, rel), [])) for rel, v in versions] + self._moved_pasts(wanted, versions)
        walked: dict[str, list[Found]] = {rel: [] for rel in wanted}
        for (rel, _, _), item in sorted(_earliest(seen, wanted).items()):
            walked[rel].append(item)
        return walked

    # -- lineage: a unit keeps its past when it moves --------------------------------------

    def _moved_pasts(self, wanted: Mapping[str, _Asked], versions: Sequence[tuple[str, FileVersion]]) -> list[_Seen]:
        """The versions before their moves of the units asked about, counted among the versions read (and the
        files the cap cut, said)."""
        cut, seen = set(self._found.cut), []
        for rel, asked in wanted.items():
            own = [v for path, v in versions if path == rel]
            for unit in sorted(asked.measure.units):
                hops = self._lineage(rel, unit, own, rel in self._found.cut)
                seen += self._inherited(rel, unit, hops)
                self._found.versions += sum(len(hop.versions) for hop in hops)
                cut.update(self._project_path(hop.path) for hop in hops if hop.cut)
        self._found.cut = tuple(sorted(cut))
        return seen

    def _lineage(self, rel: str, unit: str, own: Sequence[FileVersion], cut: bool) -> tuple["_Hop", ...]:
        """The moves that brought ``unit`` to ``rel`` (its versions ``own``, newest first; ``cut`` when
        git_max_commits cut them), newest first, at most ``_MAX_HOPS``."""
        memo = self._found.lineage.get((rel, unit))
        if memo is not None:
            return memo
        hops: list[_Hop] = []
        key, versions = unit, list(own)
        while len(hops) < _MAX_HOPS:
            hop = self._hop(rel, key, versions, cut)
            if hop is None:
                break
            hops.append(hop)
            key, versions, cut = hop.key, list(hop.versions), hop.cut
        self._found.lineage[(rel, unit)] = found = tuple(hops)
        return found

    def _hop(self, rel: str, key: str, versions: list[FileVersion], cut: bool) -> Optional["_Hop"]:
        """The move that brought unit ``key`` to the file of ``versions``, if one did: the unit that the commit
        where ``key`` first appears there took away, with the same body or nearly. The unit's versions before it
        are measured as ``rel`` is now (its role, its limits)."""
        commits = self._window()
        first = self._first_sighting(rel, key, versions, cut)
        body, now = self.blobs.bodies(first.blob, rel)[key] if first else ("", "")
        found = self._ancestor(first, key, body) if first else None
        if commits is None or first is None or found is None:
            return None
        path, old_key, exact = found
        older, older_cut = commits.versions_of(path, self.settings.recurrence.git_max_commits, self._mechanical(),
                                               older_than=first.commit)
        before = self.blobs.bodies(older[0].blob, rel).get(old_key) if self._holding(rel, old_key, older) else None
        # moved unchanged (renamed, perhaps): the version before the move is the version after it
        same = (before[1], now) if exact and before is not None and before[0] == body else None
        return _Hop(first.commit, path, old_key, tuple(older), older_cut, same)

    def _first_sighting(self, rel: str, key: str, versions: list[FileVersion], cut: bool) -> Optional[FileVersion]:
        """The oldest of ``versions`` (newest first) that holds unit ``key``; ``None`` when none does, or when
        it is the oldest version read and the cap cut the history (the unit was there before)."""
        present = self._holding(rel, key, versions)
        return None if not present or (cut and present[-1] is versions[-1]) else present[-1]

    def _holding(self, rel: str, key: str, versions: Sequence[FileVersion]) -> list[FileVersion]:
        """Those of ``versions`` that hold unit ``key``, measured (as ``rel`` is now) for it."""
        repo = self.repository()
        if repo is None:
            return []
        self.blobs.rows(repo, [(v.blob, rel) for v in versions], {rel: Wanted(frozenset({key}))})
        return [v for v in versions if key in self.blobs.bodies(v.blob, rel)]

    def _inherited(self, rel: str, unit: str, hops: Sequence["_Hop"]) -> list[_Seen]:
        """The rows of ``unit``'s versions before its moves, under the fingerprints and versions it has now."""
        repo = self.repository()
        renamed: dict[str, str] = {}
        seen: list[_Seen] = []
        if repo is None:
            return seen
        for hop in hops:
            if hop.same is not None:
                renamed[hop.same[0]] = renamed.get(hop.same[1], hop.same[1])
            prefix = f"{rel}::{hop.key}::"
            rows = self.blobs.rows(repo, [(v.blob, rel) for v in hop.versions], {rel: Wanted(frozenset({hop.key}))})
            seen += [(rel, version, [[*row[:6], f"{rel}::{unit}::{row[6][len(prefix):]}", renamed.get(row[7], row[7])]
                                     for row in rows.get((version.blob, rel), ()) if row[6].startswith(prefix)])
                     for version in hop.versions]
        return seen

    def _project_path(self, path: str) -> str:
        repo = self.repository()
        return (repo.to_project(path) if repo is not None else None) or path

    def _ancestor(self, at: FileVersion, key: str, body: str) -> Optional[tuple[str, str, bool]]:
        """The unit that commit ``at.commit`` took away and that became ``key`` of ``at.path``: (its file in
        the commit's parent, its key there, whether its body is the same); ``None`` where the unit was new.
        A commit never changes, so the answer is kept in the cache."""
        cache = self.blobs.cache
        if cache is None:
            return self._search_move(at, key, body)
        ckey = cache.key(b"git-lineage-1", "", f"{at.commit}|{at.path}|{key}|{body}|{_ALIKE}")
        entry = cache.get(ckey)
        if entry is not None and _valid_move(entry.get("from")):
            return None if entry["from"] is None else (entry["from"][0], entry["from"][1], entry["from"][2])
        if entry is not None:
            cache.discard(ckey, "unexpected content")
        answer = self._search_move(at, key, body)
        cache.put(ckey, {"from": list(answer) if answer else None})
        return answer

    def _search_move(self, at: FileVersion, key: str, body: str) -> Optional[tuple[str, str, bool]]:
        """Among the units commit ``at.commit`` took away from the files it changed (``at.path`` itself
        included: a unit renamed), the one whose name-less body is ``body``; else the most alike one, if
        it is at least ``_ALIKE`` alike (a move with a small edit). Ties go to the first path and key."""
        repo, commits = self.repository(), self._window()
        if repo is None or commits is None:
            return None
        changes = commits.changes_at(at.commit)
        gone, nodes = _gone(changes, self.blobs, repo, at)
        if not gone:
            return None
        same = min(((path, old_key) for path, old_key, text in gone if text_hash(text) == body), default=None)
        if same is not None:
            return same[0], same[1], True
        alike = _most_alike(nodes[at.blob].get(key), gone)
        return (alike[0], alike[1], False) if alike else None

    def _prior_key(self, wanted: Mapping[str, _Asked]) -> Optional[str]:
        """Every setting the answer depends on is in the key: a changed setting never meets an old answer."""
        cache, window = self.blobs.cache, self._found.window
        if cache is None or not window:
            return None
        asked = sorted((rel, sorted(a.fingerprints)) for rel, a in wanted.items())
        mechanical = self._mechanical()
        return cache.key(b"git-prior-4", "", f"{window}|{self.settings.recurrence.git_max_commits}|"
                                             f"{mechanical.sweep_files}|{sorted(mechanical.revs)}|{asked}")

    def _cached_prior(self, wanted: Mapping[str, _Asked]) -> Optional[dict[str, list[Found]]]:
        if self._start() is None:
            return {}
        key, cache = self._prior_key(wanted), self.blobs.cache
        entry = cache.get(key) if key and cache is not None else None
        if entry is None:
            return None
        assert key is not None and cache is not None  # an entry was read from the cache under the key
        found = _decode_found(entry, wanted)
        cut, versions = entry.get("cut"), entry.get("versions")
        if found is None or not isinstance(cut, list) or not isinstance(versions, int):
            cache.discard(key, "unexpected content")
            return None
        self._found.cut, self._found.versions = tuple(map(str, cut)), versions
        return found

    def _store_prior(self, wanted: Mapping[str, _Asked], found: Mapping[str, list[Found]]) -> None:
        key, cache = self._prior_key(wanted), self.blobs.cache
        if key and cache is not None:
            cache.put(key, {"found": {rel: [list(i) for i in items] for rel, items in found.items()},
                            "cut": list(self._found.cut), "versions": self._found.versions})

    def _versions(self, files: Iterable[str]) -> list[tuple[str, FileVersion]]:
        """(path now, version) of every version of ``files`` git holds, up to ``git_max_commits`` per file;
        the files cut short are kept to be said."""
        repo, commits = self.repository(), self._window()
        if repo is None or commits is None:
            return []
        limit, mechanical = self.settings.recurrence.git_max_commits, self._mechanical()
        walks = {rel: commits.versions_of(repo.to_repo(rel), limit, mechanical) for rel in sorted(files)}
        found = [(rel, v) for rel, (versions, _) in walks.items() for v in versions]
        self._found.cut, self._found.versions = tuple(rel for rel, (_, cut) in walks.items() if cut), len(found)
        return found

    def _mechanical(self) -> Mechanical:
        """Which commits are mechanical: the repository's ignore-revs file, ``ignore_revs``, ``sweep_files``."""
        if self._found.mechanical is None:
            repo, rec = self.repository(), self.settings.recurrence
            listed = repo.ignored_revs() if repo is not None else ()
            self._found.mechanical = Mechanical(tuple(sorted(set(listed) | set(rec.ignore_revs))), rec.sweep_files)
        return self._found.mechanical

    def _rows(self, pairs: Iterable[tuple[str, str]], wanted: Mapping[str, _Asked]) -> dict[tuple[str, str], list[Row]]:
        repo = self.repository()
        assert repo is not None
        return self.blobs.rows(repo, pairs, {rel: asked.measure for rel, asked in wanted.items()})

    def _window(self) -> Optional[Commits]:
        """The window's commits: from the cache when it holds them for this HEAD, else from git log."""
        if self._found.commits is False:
            start = self._start()
            log = self._found.log  # set by _start when it found a start
            self._found.commits = None if start is None or log is None else log.commits(start)
        return self._found.commits

    def _start(self) -> Optional[int]:
        """Where the evidence starts: the first commit (``None``: git has nothing to read); sets the cache key
        of answers for this HEAD. Neither the adoption point nor the log's retention bound the evidence."""
        if self._found.log is None:
            repo = self.repository()
            if repo is None:
                return None
            self._found.log = LogCache(self.blobs.cache, repo)
            self._found.start = 0
            self._found.window = f"{self._found.log.head}|0"
        return self._found.start

    def adoption(self) -> Adoption:
        """From when occurrences may fail the run (see :class:`Adoption`)."""
        if self._found.adoption is None:
            self._found.adoption = self._adoption() if self.uses_git and self.repository() is not None \
                else EVERYTHING
        return self._found.adoption

    def _adoption(self) -> Adoption:
        given = self.settings.recurrence.git_since
        if given == "all":
            return Adoption(_moment(0), None, "from all history")
        if given is not None:
            return self._given_since(given)
        adopted = self._adopted()
        if adopted is None:
            return Adoption(None, None, "from this working tree on ([tool.ladder] is not committed yet)")
        stamp, sha = adopted
        when = _moment(stamp)
        return Adoption(when, when, f"since {format_timestamp(when)[:10]} (the commit that added [tool.ladder])",
                        self._from_commit(sha))

    def _from_commit(self, sha: str) -> Optional[frozenset[str]]:
        """``sha`` and the commits after it; ``None`` (the clock decides) where git cannot say."""
        repo = self.repository()
        try:
            return None if repo is None else repo.commits_after(sha) | {sha}
        except GitUnavailable as exc:
            self._warn(f"git: {exc}; commits are taken as after the adoption point by their time")
            return None

    def _given_since(self, given: str) -> Adoption:
        """``git_since`` as a date or as a commit (its committer time); a commit git does not know is an error."""
        if _is_date(given):
            since = parse_timestamp(given, source="[tool.ladder.recurrence] git_since")
            return Adoption(since, since, f"since {format_timestamp(since)[:10]} (git_since)")
        repo = self.repository()
        assert repo is not None
        sha = repo.resolve(given)
        stamp = repo.commit_time(sha) if sha else None
        if stamp is None:
            raise ConfigError(f"[tool.ladder.recurrence] git_since: {given!r} is neither \"all\", an ISO-8601 "
                              f"date nor a commit of {repo.toplevel.name}; expected e.g. 2024-03-01 or v2.0")
        when = _moment(stamp)
        assert sha is not None  # a time was found for it
        return Adoption(when, when, f"since {given} ({format_timestamp(when)[:10]})", self._from_commit(sha))

    def _adopted(self) -> Optional[tuple[int, str]]:
        """When and in which commit ``[tool.ladder]`` was first committed to the configuration file, if it was."""
        config = self.settings.config_file
        if config is None or not config.is_file() or self._start() is None:
            return None
        try:
            rel = config.relative_to(self.settings.root).as_posix()
        except ValueError:
            return None
        log = self._found.log
        assert log is not None  # _start found a start
        try:
            return log.adopted(rel)
        except GitUnavailable as exc:
            self._fail(exc)
            return None

    def facts(self) -> GitFacts:
        """The adoption point, the mechanical commits among the versions read, the branch, and the note."""
        if not self.uses_git or self.repository() is None:
            return GitFacts(note=self.read_note())
        branch = self._branch()
        if branch is not None and self._found.base_time is False:  # asked once: flake8 asks per file
            base, repo = self._base_commit(), self.repository()
            stamp = repo.commit_time(base) if base is not None and repo is not None else None
            self._found.base_time = format_timestamp(_moment(stamp)) if stamp is not None else None
        base_time = self._found.base_time if branch is not None and self._found.base_time is not False else None
        return GitFacts(self.adoption(), dict(self._found.mechanical_commits), branch, base_time, self.read_note())

    def _branch(self) -> Optional[frozenset[str]]:
        """The commits of the branch after the base (mode new): a hotspot fails there only when one holds an
        occurrence of it."""
        if self.mode != "new":
            return None
        if self._found.branch is False:
            base, repo = self._base_commit(), self.repository()
            try:
                self._found.branch = None if base is None or repo is None else repo.commits_after(base)
            except GitUnavailable as exc:
                self._warn(f"git: {exc}; mode new fails on every recurring hotspot")
                self._found.branch = None
        return self._found.branch

    def health(self) -> dict[str, Any]:
        """What ``ladder doctor`` says of git: whether its history is read, and if not why; the adoption point,
        the mechanical commits listed and the caps. Raises :class:`ConfigError` for a ``git_since`` git does not
        know."""
        repo = self.repository() if self.uses_git else None
        if repo is None:
            rec = self.settings.recurrence
            chosen = ("recurrence.source is \"log\"" if rec.source == "log"
                      else "count = \"runs\" reads no git" if rec.count != "edits" else "")
            # a choice of the configuration, or a repository with nothing to read yet: nothing to fix
            intended = bool(chosen) or self._found.not_read == "the repository has no commits yet"
            return {"read": False, "why": chosen or self._found.not_read or "no repository", "intended": intended,
                    "shallow": self._found.not_read == "shallow clone"}
        rec = self.settings.recurrence
        return {"read": True, "adoption": self.adoption().said, "committed": self.adoption().git is not None,
                "ignore_revs": len(self._mechanical().revs), "sweep_files": rec.sweep_files,
                "git_max_commits": rec.git_max_commits}

    def read_note(self) -> str:
        """What git history this run read, for the verdict: ``12 past versions from git; fails on occurrences
        since 2024-03-01 (the commit that added [tool.ladder])``, or why git was not read."""
        if not git_wanted(self.settings) or not self.uses_git:
            return ""
        if self.repository() is None:
            return f"git history not read: {self._found.not_read}" if self._found.not_read else "git history not read"
        cut = ""
        if self._found.cut:
            cap = self.settings.recurrence.git_max_commits
            cut = f"; {len(self._found.cut)} file(s) cut at git_max_commits = {cap}"
        versions = self._found.versions
        trigger = self.adoption().said
        if self._branch() is not None:
            trigger = f"the branch holds (after the base {(self._base_commit() or '')[:12]})"
        return f"{versions} past version{'s' if versions != 1 else ''} from git{cut}; fails on occurrences {trigger}"

    def _event(self, row: Row, rel: str, commit: str, moment: int) -> Event:
        """A red event of a past version, dated by its commit (never later than this run): commits of one second
        a microsecond apart in history's order, so the earlier of two is never the later by its hash."""
        from datetime import timedelta

        code, unit, line, role, actual, limit, fingerprint, unit_hash = row
        rule = self._rule(code)
        when = min(_moment(moment // 1_000_000) + timedelta(microseconds=moment % 1_000_000), self.now)
        return Event(
            # never recorded, so its id only has to be unique among git's: the commit and the fingerprint
            schema_version=SCHEMA_VERSION, event_id=f"git:{commit}:{fingerprint}", timestamp=format_timestamp(when),
            repo_id=self.settings.repo_id, run_id=f"git:{commit}", tool="git", mode=self.mode, path=rel,
            unit_name=unit, line=line, role=role, rule_key=rule.key if rule else code,
            metric_family=rule.family if rule else "plugin", scope=rule.scope if rule else "unit",
            severity="red", actual=actual, limit=limit, delta=None if actual is None or limit is None
            else actual - limit, fingerprint=fingerprint, unit_hash=unit_hash,
            source=rule.source if rule else "external-plugin", hash_version=HASH_VERSION,
        )

    def _rule(self, code: str) -> Optional[Rule]:
        return self.blobs.analyzer().by_code.get(code)

    # -- the base of mode "new" ----------------------------------------------------------

    def baseline(self, events: Sequence[Event]) -> Optional[Baseline]:
        """The base's red violations of the files ``events`` has red; ``None`` when there is no base."""
        if self.mode != "new":
            return None
        wanted = _wanted(events)
        base = self._base_commit() if wanted else None
        if base is None:
            return None
        try:
            return Baseline(base, self._base_values(base, wanted))
        except GitUnavailable as exc:
            self._warn(f"git: {exc}; mode new compares with nothing, only the recurrence gate applies")
            self._found.base = None
            return None

    def _base_commit(self) -> Optional[str]:
        if self._found.base is False:
            self._found.base = self._find_base()
        return self._found.base

    def _find_base(self) -> Optional[str]:
        repo = self.repository()
        if repo is None:
            self._warn("mode new needs git to find the base; only the recurrence gate applies")
            return None
        if self.base_ref:
            found = repo.resolve(self.base_ref)
            if found is None:
                self._warn(f"mode new: base {self.base_ref!r} does not name a commit; only the recurrence gate "
                           "applies")
            return found
        branch = repo.default_branch()
        base = repo.merge_base("HEAD", branch) if branch else None
        if base is None:
            hint = " (" + SHALLOW_HINT + ")" if repo.shallow else ""
            self._warn("mode new: no base to compare with (no merge base of HEAD with origin/HEAD, main or "
                       f"master){hint}; pass --base REF or set [tool.ladder] base; only the recurrence gate applies")
        return base

    def _base_values(self, base: str, wanted: Mapping[str, _Asked]) -> dict[str, Optional[float]]:
        """Fingerprint -> value of the red violations the base had in the files asked about (renames followed)."""
        pairs = self._base_blobs(base, sorted(wanted))
        rows = self._rows(pairs, wanted)
        values = {row[6]: row[4] for pair in pairs for row in rows.get(pair, ())}
        values.update(self._moved_values(wanted, values))
        return values

    def _moved_values(self, wanted: Mapping[str, _Asked],
                      values: Mapping[str, Optional[float]]) -> dict[str, Optional[float]]:
        """The base's red values of units the branch moved to another file or name, under their fingerprints
        now: a unit the base held elsewhere is not new. Only units without a value at the base are followed."""
        repo, commits, branch = self.repository(), self._window(), self._branch()
        if repo is None or commits is None or not branch:
            return {}
        moved: dict[str, Optional[float]] = {}
        for rel, asked in wanted.items():
            units = _unvalued(rel, asked, values)
            if units:
                own, cut = commits.versions_of(repo.to_repo(rel), self.settings.recurrence.git_max_commits,
                                               self._mechanical())
                for unit in units:
                    moved.update(self._value_at_base(rel, unit, self._lineage(rel, unit, own, cut), branch))
        return moved

    def _value_at_base(self, rel: str, unit: str, hops: Sequence["_Hop"],
                       branch: frozenset[str]) -> dict[str, Optional[float]]:
        """Fingerprint now -> the base's value, of a unit whose moves after the base are ``hops`` (and more)."""
        key = unit
        versions: tuple[FileVersion, ...] = ()
        for hop in hops:
            if hop.commit not in branch:
                break  # moved before the base: the base had it where the later move found it
            key, versions = hop.key, hop.versions
        at_base = next((v for v in versions if v.commit not in branch), None)
        repo = self.repository()
        if at_base is None or repo is None:
            return {}
        prefix = f"{rel}::{key}::"
        found = self.blobs.rows(repo, [(at_base.blob, rel)], {rel: Wanted(frozenset({key}))})
        return {f"{rel}::{unit}::{row[6][len(prefix):]}": row[4] for row in found.get((at_base.blob, rel), ())
                if row[6].startswith(prefix)}

    def _base_blobs(self, base: str, files: Sequence[str]) -> list[tuple[str, str]]:
        """(blob at the base, path now) of each of ``files`` the base has (renames followed)."""
        repo = self.repository()
        assert repo is not None
        if self._found.renames is None:
            self._found.renames = repo.renames_since(base)
        specs = {rel: f"{base}:{self._found.renames.get(repo.to_repo(rel), repo.to_repo(rel))}" for rel in files}
        blobs = repo.blob_ids(list(specs.values()))
        return [(blob, rel) for rel, spec in specs.items() if (blob := blobs.get(spec))]


#: Moves followed back from one unit: past this, a chain of moves is no history anyone reads.
_MAX_HOPS = 10
#: How alike (:func:`~.blobs.likeness` of the canonical tokens) a new unit and one its commit took away must be
#: to be one unit, edited as it moved: one statement added to a unit of 20 lines is about 0.98, four are about 0.92.
_ALIKE = 0.95


@dataclass(frozen=True)
class _Hop:
    """One move of a unit, walking back: in ``commit`` it came from unit ``key`` of ``path`` (the repository
    path in the commit's parent), whose versions before the move are ``versions`` (newest first; ``cut`` when
    git_max_commits cut them); ``same``: (version before, version after) when it moved unchanged."""

    commit: str
    path: str
    key: str
    versions: tuple[FileVersion, ...]
    cut: bool
    same: Optional[tuple[str, str]]


#: A version read, as (the path of the unit now, the version, its rows under the fingerprints now).
_Seen = tuple[str, FileVersion, list[Row]]


def _is_blob(blob: str) -> bool:
    """Not git's all-zeros id of no file (before an addition, after a deletion), nor unknown."""
    return bool(blob.strip("0"))


def _gone(changes: Sequence[Change], blobs: BlobFindings, repo: Repository,
          at: FileVersion) -> tuple[list[tuple[str, str, str]], Mapping[str, Mapping[str, str]]]:
    """(path in the parent, key, body text) of each unit ``changes`` took away: in a file's old blob, not in
    its new one under the same key (a deleted file took all of its units); and the units of the blobs read,
    ``at``'s included. A commit that only added files took nothing away, and nothing is read."""
    taken = [change for change in changes if _is_blob(change.old_blob)]
    if not taken:
        return [], {}
    nodes = blobs.nodes(repo, [(at.blob, at.path)] + [(c.old_blob, c.old_path) for c in taken]
                        + [(c.blob, c.path) for c in changes if _is_blob(c.blob)])
    return [(change.old_path, key, text) for change in taken for key, text in _lost(change, nodes)], nodes


def _lost(change: Change, nodes: Mapping[str, Mapping[str, str]]) -> list[tuple[str, str]]:
    """The units of a change's old blob that its new one has not under the same key."""
    kept = nodes[change.blob] if _is_blob(change.blob) else {}
    return [(key, text) for key, text in sorted(nodes[change.old_blob].items()) if key not in kept]


def _most_alike(mine: Optional[str], gone: Sequence[tuple[str, str, str]]) -> Optional[tuple[str, str]]:
    """(path, key) of the unit of ``gone`` most alike ``mine`` (body texts), if it is at least ``_ALIKE``
    alike; ties go to the first path and key."""
    if mine is None:
        return None
    tokens = text_tokens(mine)
    scored = [(-likeness(tokens, text_tokens(text)), path, key) for path, key, text in gone]
    score, path, key = min(scored, default=(0.0, "", ""))
    return (path, key) if -score >= _ALIKE else None


def _unvalued(rel: str, asked: "_Asked", values: Mapping[str, Optional[float]]) -> list[str]:
    """The units asked about in ``rel`` with a fingerprint the base has no value for."""
    return sorted(unit for unit in asked.measure.units
                  if any(fp.startswith(f"{rel}::{unit}::") and fp not in values for fp in asked.fingerprints))


def _valid_move(found: Any) -> bool:
    return found is None or (isinstance(found, list) and len(found) == 3 and isinstance(found[0], str)
                             and isinstance(found[1], str) and isinstance(found[2], bool))


@dataclass(frozen=True)
class _Asked:
    """A file's red fingerprints in the run, and what of its past versions to measure for them."""

    fingerprints: frozenset[str]
    measure: Wanted


def _is_date(text: str) -> bool:
    try:
        datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _moment(stamp: int) -> datetime:
    return datetime.fromtimestamp(clamp_time(stamp), timezone.utc)


def _earliest(seen: Iterable[tuple[str, FileVersion, Sequence[Row]]],
              wanted: Mapping[str, _Asked]) -> dict[tuple[str, str, str], Found]:
    """(path, fingerprint, version) -> the finding of its earliest commit, of each (path now, version, its
    rows)."""
    earliest: dict[tuple[str, str, str], Found] = {}
    for rel, version, rows in seen:  # newest first: a later write is an earlier commit
        asked = wanted[rel].fingerprints
        for row in (r for r in rows if r[6] in asked):
            found = earliest.get((rel, row[6], row[7]))
            if found is None or version.moment <= found[2]:
                earliest[(rel, row[6], row[7])] = (row, version.commit, version.moment, version.mechanical)
    return earliest


def _valid_found(items: Any) -> bool:
    return isinstance(items, list) and all(
        isinstance(i, list) and len(i) == 4 and isinstance(i[0], list) and len(i[0]) == 8 and isinstance(i[2], int)
        and isinstance(i[1], str) and isinstance(i[3], str) for i in items)


def _decode_found(entry: Mapping[str, Any], wanted: Mapping[str, _Asked]) -> Optional[dict[str, list[Found]]]:
    """A cached answer, if it is one for exactly these files."""
    found = entry.get("found")
    if not isinstance(found, dict) or set(found) != set(wanted) or not all(map(_valid_found, found.values())):
        return None
    return {rel: [(row, commit, time, why) for row, commit, time, why in items] for rel, items in found.items()}


def _unit_key(event: Event) -> str:
    """The unit key a unit fingerprint names: ``path::unit key::rule key``."""
    return event.fingerprint[len(event.path) + 2:len(event.fingerprint) - len(event.rule_key) - 2]


def _wanted(events: Sequence[Event]) -> dict[str, _Asked]:
    """By path: the red fingerprints of ``events`` and the unit keys (or file rules) they name."""
    by_path: dict[str, list[Event]] = {}
    for event in events:
        if event.severity == "red":
            by_path.setdefault(event.path, []).append(event)
    return {path: _asked(found) for path, found in sorted(by_path.items())}


def _asked(events: Sequence[Event]) -> _Asked:
    units = frozenset(_unit_key(e) for e in events if e.unit_name is not None)
    return _Asked(frozenset(e.fingerprint for e in events), Wanted(units, any(e.unit_name is None for e in events)))
