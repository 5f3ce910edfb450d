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

*The window* starts at the later of the retention cutoff and ``recurrence.git_since``:
by default the commit that added ``[tool.ladder]`` to pyproject.toml, so adopting
the tool does not fail on history nobody was told about; ``"all"`` or a date opt in.

*The base* of ``mode = "new"`` (``--base``, ``[tool.ladder] base``, else the merge
base of HEAD with the default branch) is analysed the same way: the red violations
it had, by fingerprint, are what is not new.

Git is untrusted and optional: no git, no repository, a corrupt one or git failing
is one warning and the log alone decides; a shallow clone is said once, with the fix.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from ..analysis.identity import HASH_VERSION
from ..config import Settings
from ..errors import ConfigError
from .blobs import BlobFindings, Row
from .events import SCHEMA_VERSION, Event
from .git import Commits, FileVersion, GitUnavailable, Repository
from .run import format_timestamp, now_utc, parse_timestamp

__all__ = ["Baseline", "GitEvidence", "SHALLOW_HINT"]

SHALLOW_HINT = ("this is a shallow clone, so recurrence from git sees only the commits it fetched; fetch the "
                "whole history (GitHub Actions: actions/checkout with fetch-depth: 0; GitLab CI: GIT_DEPTH: 0; "
                "or git fetch --unshallow)")


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

    repo: Any = False
    commits: Any = False
    base: Any = False
    renames: Optional[dict[str, str]] = None


class GitEvidence:
    """Per-run (per-process) access to git's side of the gate; every git call is made at most once."""

    def __init__(self, settings: Settings, *, cache: Any = None, pm: Any = None,
                 warn: Optional[Callable[[str], None]] = None, now: Optional[datetime] = None) -> None:
        """``settings`` carry the mode and base (front ends apply their options first); ``cache`` is the
        run's AnalysisCache and ``pm`` its plugin manager; ``now`` the run's clock."""
        self.settings = settings
        self.mode, self.base_ref = settings.mode, settings.base
        self.blobs = BlobFindings(settings, cache, pm)
        self._warn = warn or (lambda message: None)
        self.now = now or now_utc()
        self._found = _Found()

    @classmethod
    def for_run(cls, settings: Settings, *, use_cache: bool = True, warn: Optional[Callable[[str], None]] = None,
                now: Optional[datetime] = None) -> "GitEvidence":
        """Evidence that keeps blob results in the shared analysis cache (unless it is off)."""
        from ..analysis.analyzer import Analyzer

        run_analyzer = Analyzer.for_run(settings, use_cache=use_cache, warn=warn)
        return cls(settings, cache=run_analyzer.cache, pm=run_analyzer.pm, warn=warn, now=now)

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
        if self.settings.recurrence.source == "auto" and self.mode != "new" and not _in_work_tree(root):
            return None  # not a git project: the log alone, and nothing to say
        try:
            repo = Repository.discover(root)
            if not repo.has_commits():
                return None  # a repository without commits has no history to read
        except GitUnavailable as exc:
            self._warn(f"git: {exc}; recurrence uses the stored history alone")
            return None
        if repo.shallow:
            self._warn(f"git: {SHALLOW_HINT}")
        return repo

    def prepare(self) -> None:
        """Ask git now what every later question needs (the repository, the window's commits): a process
        that forks workers asks once for all of them, and says once what went wrong."""
        self.repository()
        if self.uses_git:
            try:
                self._window()
            except GitUnavailable as exc:
                self._fail(exc)

    def check(self) -> None:
        """Fail early on a ``--base`` that names no commit (a usage error, not a warning)."""
        if self.mode != "new" or not self.base_ref:
            return
        repo = self.repository()
        if repo is not None and repo.resolve(self.base_ref) is None:
            raise ConfigError(f"base {self.base_ref!r} does not name a commit of {repo.toplevel.name}; expected "
                              "a branch, tag or commit such as origin/main (a shallow clone may lack it: "
                              "fetch-depth: 0)")

    # -- occurrences ---------------------------------------------------------------------

    def prior(self, events: Sequence[Event]) -> list[Event]:
        """Red events, one per past version from git, of the fingerprints ``events`` has red."""
        if not self.uses_git:
            return []
        wanted: dict[str, set[str]] = {}
        for event in events:
            if event.severity == "red":
                wanted.setdefault(event.path, set()).add(event.fingerprint)
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

    def _prior(self, wanted: Mapping[str, set[str]]) -> list[Event]:
        versions = self._versions(wanted)
        rows = self._rows([(v.blob, rel) for rel, v in versions])
        return [self._event(row, rel, version) for rel, version in versions
                for row in rows.get((version.blob, rel), ()) if row[6] in wanted[rel]]

    def _versions(self, files: Iterable[str]) -> list[tuple[str, FileVersion]]:
        """(path now, version) of every version of ``files`` in the window."""
        repo, commits = self.repository(), self._window()
        if repo is None or commits is None:
            return []
        limit = self.settings.recurrence.git_max_commits
        return [(rel, v) for rel in sorted(files) for v in commits.versions_of(repo.to_repo(rel), limit)]

    def _rows(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], list[Row]]:
        repo = self.repository()
        assert repo is not None
        return self.blobs.rows(repo, pairs)

    def _window(self) -> Optional[Commits]:
        if self._found.commits is False:
            since, repo = self._since(), self.repository()
            self._found.commits = None if since is None or repo is None else repo.commits(int(since.timestamp()))
        return self._found.commits

    def _since(self) -> Optional[datetime]:
        """The start of the window; ``None`` when git has nothing to count (not adopted in a commit)."""
        from datetime import timedelta

        floor = self.now - timedelta(days=self.settings.history.retention_days)
        given = self.settings.recurrence.git_since
        if given == "all":
            return floor
        if given is not None:
            return max(floor, parse_timestamp(given, source="[tool.ladder.recurrence] git_since"))
        adopted = self._adopted()
        return None if adopted is None else max(floor, adopted)

    def _adopted(self) -> Optional[datetime]:
        repo, config = self.repository(), self.settings.config_file
        if repo is None or config is None or not config.is_file():
            return None
        try:
            rel = config.relative_to(self.settings.root).as_posix()
        except ValueError:
            return None
        stamp = repo.introduced("[tool.ladder", rel)
        return None if stamp is None else datetime.fromtimestamp(stamp, timezone.utc)

    def _event(self, row: Row, rel: str, version: FileVersion) -> Event:
        """A red event of a past version, dated by its commit (never later than this run)."""
        code, unit, line, role, actual, limit, fingerprint, unit_hash = row
        rule = self._rule(code)
        when = min(datetime.fromtimestamp(version.time, timezone.utc), self.now)
        return Event(
            schema_version=SCHEMA_VERSION, event_id=uuid.uuid4().hex, timestamp=format_timestamp(when),
            repo_id=self.settings.repo_id, run_id=f"git:{version.commit}", tool="git", mode=self.mode, path=rel,
            unit_name=unit, line=line, role=role, rule_key=rule.key if rule else code,
            metric_family=rule.family if rule else "plugin", scope=rule.scope if rule else "unit",
            severity="red", actual=actual, limit=limit, delta=None if actual is None or limit is None
            else actual - limit, fingerprint=fingerprint, unit_hash=unit_hash,
            source=rule.source if rule else "external-plugin", hash_version=HASH_VERSION,
        )

    def _rule(self, code: str) -> Any:
        return self.blobs.analyzer().by_code.get(code)

    # -- the base of mode "new" ----------------------------------------------------------

    def baseline(self, events: Sequence[Event]) -> Optional[Baseline]:
        """The base's red violations of the files ``events`` has red; ``None`` when there is no base."""
        if self.mode != "new":
            return None
        files = sorted({e.path for e in events if e.severity == "red"})
        base = self._base_commit()
        if base is None:
            return None
        try:
            return Baseline(base, self._base_values(base, files))
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

    def _base_values(self, base: str, files: Sequence[str]) -> dict[str, Optional[float]]:
        """Fingerprint -> value of the red violations the base had in ``files`` (renames followed)."""
        pairs = self._base_blobs(base, files)
        rows = self._rows(pairs)
        return {row[6]: row[4] for pair in pairs for row in rows.get(pair, ())}

    def _base_blobs(self, base: str, files: Sequence[str]) -> list[tuple[str, str]]:
        """(blob at the base, path now) of each of ``files`` the base has (renames followed)."""
        repo = self.repository()
        assert repo is not None
        if self._found.renames is None:
            self._found.renames = repo.renames_since(base)
        specs = {rel: f"{base}:{self._found.renames.get(repo.to_repo(rel), repo.to_repo(rel))}" for rel in files}
        blobs = repo.blob_ids(list(specs.values()))
        return [(blobs[spec], rel) for rel, spec in specs.items() if blobs.get(spec)]


def _in_work_tree(root: Path) -> bool:
    """Whether a ``.git`` (directory or file) is at or above ``root``: a cheap test before running git."""
    return any((directory / ".git").exists() for directory in (root, *root.parents))
