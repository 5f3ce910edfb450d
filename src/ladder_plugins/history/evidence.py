"""What git adds to a run's gate: past occurrences, the adoption point, the base of ``mode = "new"``.

``docs/explanation/recurrence.md`` ("Recurrence from git") says what each of them means to a user.

:class:`GitEvidence` is the gate's one way into git, for one run (one process): it asks
each question at most once and keeps the answers. The parts it puts together:

* *occurrences* (:mod:`.occurrences`): each past version of what the run has red, moved
  units' versions before their moves included (:mod:`.lineage`), as red events dated
  by their commits. They join the history's in one aggregate, where a version keeps its
  earliest sighting: log and git are one set, so a laptop (log and git) and a fresh CI
  clone (git alone) count the same versions. A blob never changes, so what its analysis
  found is kept in the analysis cache under its blob id (:mod:`.blobs`), and a warm run
  reads no blob at all;
* *evidence and trigger are separate*: the evidence is each file's history, bounded by
  ``recurrence.git_max_commits`` versions per file (said when reached), never by the
  log's retention; the adoption point (:mod:`.adoption`) decides which of its
  occurrences may fail the run;
* *mechanical edits* (:class:`~.commits.Mechanical`: an ignore-revs file, ``ignore_revs``,
  sweeps of more than ``sweep_files`` Python files, bots) are no occurrence: the version
  such a commit leaves is the baseline of the next edit;
* *the base* of ``mode = "new"`` (:mod:`.newcode`): the red violations it had, by
  fingerprint, are what is not new.

Git is untrusted and optional: no git, no repository, a corrupt one or git failing
is one warning and the log alone decides. A shallow clone is not read: in CI (``CI``
set) it is a configuration error with the fix unless ``recurrence.shallow = "warn"``,
elsewhere one warning; :meth:`GitEvidence.read_note` says what was read, for the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Optional, Sequence, Union

from ..config import Mode, Settings
from ..errors import ConfigError
from .adoption import EVERYTHING, NOT_COMMITTED, Adoption, adoption_point
from .blobs import BlobFindings
from .commits import Commits, LogCache, Mechanical, commit_datetime
from .events import Event
from .git import SHALLOW_HINT, Repository
from .gitprocess import GitUnavailable
from .lineage import Lineage
from .newcode import find_base, moved_values, values_at_base
from .occurrences import Asked, Walked, as_events, asked_of, keep_walk, kept_walk, walk, walk_key
from .run import format_timestamp, now_utc
from .workspace import git_wanted

if TYPE_CHECKING:
    import pluggy

    from ..analysis.cache import AnalysisCache

__all__ = ["Baseline", "GitEvidence", "GitFacts"]


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
    log: Optional[LogCache] = None  # what git log said for this HEAD, kept in the cache
    mechanical: Optional[Mechanical] = None  # the Mechanical classifier, once read
    lineage: Optional[Lineage] = None  # the moves of units, once the window is read
    adoption: Optional[Adoption] = None  # the Adoption, once worked out
    branch: Optional[frozenset[str]] | Literal[False] = False  # the commits after the base (mode new)
    versions: int = 0  # past versions read
    cut: tuple[str, ...] = ()  # files whose history git_max_commits cut short
    not_read: str = ""  # why git was not read ("shallow clone"), said in the verdict and by doctor
    error: Optional[ConfigError] = None  # what check() raises: a shallow clone in CI
    mechanical_commits: dict[str, str] = field(default_factory=dict)  # of the versions read: commit -> reason
    base_time: Union[str, None, Literal[False]] = False  # the base's committer time (mode new), once asked


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
        if self.mode != Mode.NEW or not self.base_ref:
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
        wanted = asked_of(events)
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

    def _prior(self, wanted: Mapping[str, Asked]) -> list[Event]:
        """One event per (fingerprint, version), dated by the version's earliest commit: all recurrence reads.

        The answer for this HEAD, window and set of fingerprints is kept in the cache too (one entry per
        call: a whole ``ladder check``, or one file of flake8), and a run that finds it there reads no
        commit list."""
        log, cache, cap = self._log(), self.blobs.cache, self.settings.recurrence.git_max_commits
        assert log is not None  # prior() found a repository
        key = walk_key(cache, log.head, cap, self._mechanical, wanted)
        walked = kept_walk(cache, key, wanted)
        if walked is None:
            lineage = self._lineage()
            walked = walk(lineage, wanted) if lineage is not None else Walked({rel: [] for rel in wanted})
            keep_walk(cache, key, walked)
        self._found.cut, self._found.versions = walked.cut, walked.versions
        self._found.mechanical_commits = {commit: why for items in walked.found.values()
                                          for _, commit, _, why in items if why}
        if walked.cut:
            cut = walked.cut
            named = ", ".join(cut[:5]) + (f" and {len(cut) - 5} more" if len(cut) > 5 else "")
            self._warn(f"git: the history of {len(cut)} file(s) was cut at git_max_commits = {cap} ({named}); "
                       "older versions are not counted: raise [tool.ladder.recurrence] git_max_commits to read them")
        return as_events(walked.found, self.settings, self.blobs, self.now)

    # -- what git said, asked once ---------------------------------------------------------

    def _log(self) -> Optional[LogCache]:
        """What git log said for this HEAD, kept in the cache; ``None`` without a repository. The evidence
        starts at the first commit: neither the adoption point nor the log's retention bound it."""
        if self._found.log is None:
            repo = self.repository()
            if repo is None:
                return None
            self._found.log = LogCache(self.blobs.cache, repo)
        return self._found.log

    def _window(self) -> Optional[Commits]:
        """The window's commits: from the cache when it holds them for this HEAD, else from git log."""
        if self._found.commits is False:
            log = self._log()
            self._found.commits = None if log is None else log.commits(0)
        return self._found.commits

    def _mechanical(self) -> Mechanical:
        """Which commits are mechanical: the repository's ignore-revs file, ``ignore_revs``, ``sweep_files``."""
        if self._found.mechanical is None:
            repo, rec = self.repository(), self.settings.recurrence
            listed = repo.ignored_revs() if repo is not None else ()
            self._found.mechanical = Mechanical(tuple(sorted(set(listed) | set(rec.ignore_revs))), rec.sweep_files)
        return self._found.mechanical

    def _lineage(self) -> Optional[Lineage]:
        """The moves of units, followed back through the window (which this reads, if nothing did yet)."""
        if self._found.lineage is None:
            repo, commits = self.repository(), self._window()
            if repo is None or commits is None:
                return None
            self._found.lineage = Lineage(repo, commits, self.blobs, self.settings.recurrence.git_max_commits,
                                          self._mechanical)
        return self._found.lineage

    def adoption(self) -> Adoption:
        """From when occurrences may fail the run (see :class:`~.adoption.Adoption`)."""
        if self._found.adoption is None:
            repo = self.repository() if self.uses_git else None
            log = self._log() if repo is not None else None
            if repo is None or log is None:
                self._found.adoption = EVERYTHING
            else:
                try:
                    self._found.adoption = adoption_point(self.settings, repo, log, self._warn)
                except GitUnavailable as exc:
                    self._fail(exc)
                    self._found.adoption = NOT_COMMITTED
        return self._found.adoption

    def facts(self) -> GitFacts:
        """The adoption point, the mechanical commits among the versions read, the branch, and the note."""
        if not self.uses_git or self.repository() is None:
            return GitFacts(note=self.read_note())
        branch = self._branch()
        if branch is not None and self._found.base_time is False:  # asked once: flake8 asks per file
            base, repo = self._base_commit(), self.repository()
            stamp = repo.commit_time(base) if base is not None and repo is not None else None
            self._found.base_time = format_timestamp(commit_datetime(stamp)) if stamp is not None else None
        base_time = self._found.base_time if branch is not None and self._found.base_time is not False else None
        return GitFacts(self.adoption(), dict(self._found.mechanical_commits), branch, base_time, self.read_note())

    def _branch(self) -> Optional[frozenset[str]]:
        """The commits of the branch after the base (mode new): a hotspot fails there only when one holds an
        occurrence of it."""
        if self.mode != Mode.NEW:
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

    # -- the base of mode "new" ----------------------------------------------------------

    def baseline(self, events: Sequence[Event]) -> Optional[Baseline]:
        """The base's red violations of the files ``events`` has red; ``None`` when there is no base."""
        if self.mode != Mode.NEW:
            return None
        wanted = asked_of(events)
        base = self._base_commit() if wanted else None
        repo = self.repository()
        if base is None or repo is None:
            return None
        try:
            if self._found.renames is None:
                self._found.renames = repo.renames_since(base)
            values = values_at_base(repo, self.blobs, base, self._found.renames, wanted)
            lineage, branch = self._lineage(), self._branch()
            if lineage is not None and branch:
                values.update(moved_values(lineage, branch, wanted, values))
            return Baseline(base, values)
        except GitUnavailable as exc:
            self._warn(f"git: {exc}; mode new compares with nothing, only the recurrence gate applies")
            self._found.base = None
            return None

    def _base_commit(self) -> Optional[str]:
        if self._found.base is False:
            self._found.base = find_base(self.repository(), self.base_ref, self._warn)
        return self._found.base
