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

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from ..analysis.identity import HASH_VERSION
from ..config import Settings
from ..errors import ConfigError
from .blobs import BlobFindings, Row, Wanted
from .events import SCHEMA_VERSION, Event
from .git import Commits, FileVersion, GitUnavailable, Repository, clamp_time
from .run import format_timestamp, now_utc, parse_timestamp
from .workspace import git_wanted

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
    log: Any = None  # the LogCache, once the window's start is known
    start: Optional[int] = None
    window: str = ""  # HEAD and window start: the key of answers for this window


#: A past version's finding: its row, the commit, the commit's time.
Found = tuple[Row, str, int]


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
        if not git_wanted(self.settings):
            return None  # not a git project: the log alone, and nothing to say
        try:
            repo = Repository.discover(root)
            if repo.head() is None:
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
                self._window()  # forked workers inherit the commits
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
        return [self._event(row, rel, commit, time) for rel, items in found.items() for row, commit, time in items]

    def _walk(self, wanted: Mapping[str, _Asked]) -> dict[str, list[Found]]:
        """Per file: (row, commit, time) of the earliest commit of each (fingerprint, version) asked about."""
        versions = self._versions(wanted)
        rows = self._rows([(v.blob, rel) for rel, v in versions], wanted) if versions else {}
        walked: dict[str, list[Found]] = {rel: [] for rel in wanted}
        for (rel, _, _), item in sorted(_earliest(versions, rows, wanted).items()):
            walked[rel].append(item)
        return walked

    def _prior_key(self, wanted: Mapping[str, _Asked]) -> Optional[str]:
        cache, window = self.blobs.cache, self._found.window
        if cache is None or not window:
            return None
        asked = sorted((rel, sorted(a.fingerprints)) for rel, a in wanted.items())
        return cache.key(b"git-prior-1", "", f"{window}|{self.settings.recurrence.git_max_commits}|{asked}")

    def _cached_prior(self, wanted: Mapping[str, _Asked]) -> Optional[dict[str, list[Found]]]:
        if self._start() is None:
            return {}
        key = self._prior_key(wanted)
        entry = self.blobs.cache.get(key) if key else None
        if entry is None:
            return None
        found = _decode_found(entry, wanted)
        if found is None:
            self.blobs.cache.discard(key, "unexpected content")
        return found

    def _store_prior(self, wanted: Mapping[str, _Asked], found: Mapping[str, list[Found]]) -> None:
        key = self._prior_key(wanted)
        if key:
            self.blobs.cache.put(key, {"found": {rel: [list(i) for i in items] for rel, items in found.items()}})

    def _versions(self, files: Iterable[str]) -> list[tuple[str, FileVersion]]:
        """(path now, version) of every version of ``files`` in the window."""
        repo, commits = self.repository(), self._window()
        if repo is None or commits is None:
            return []
        limit = self.settings.recurrence.git_max_commits
        return [(rel, v) for rel in sorted(files) for v in commits.versions_of(repo.to_repo(rel), limit)]

    def _rows(self, pairs: Iterable[tuple[str, str]], wanted: Mapping[str, _Asked]) -> dict[tuple[str, str], list[Row]]:
        repo = self.repository()
        assert repo is not None
        return self.blobs.rows(repo, pairs, {rel: asked.measure for rel, asked in wanted.items()})

    def _window(self) -> Optional[Commits]:
        """The window's commits: from the cache when it holds them for this HEAD, else from git log."""
        if self._found.commits is False:
            start = self._start()
            self._found.commits = None if start is None else self._found.log.commits(start)
        return self._found.commits

    def _start(self) -> Optional[int]:
        """Where the window starts (``None``: git has nothing to count); sets the window's cache key."""
        if self._found.log is None:
            repo = self.repository()
            if repo is None:
                return None
            self._found.log = LogCache(self.blobs.cache, repo)
            since = self._since(self._found.log)
            # From the start of that UTC day: a key that holds all day. Recurrence applies retention itself.
            self._found.start = None if since is None else int(since.timestamp()) // 86400 * 86400
            self._found.window = f"{self._found.log.head}|{self._found.start}"
        return self._found.start

    def _since(self, log: "LogCache") -> Optional[datetime]:
        """The start of the window; ``None`` when git has nothing to count (not adopted in a commit)."""
        from datetime import timedelta

        floor = self.now - timedelta(days=self.settings.history.retention_days)
        given = self.settings.recurrence.git_since
        if given == "all":
            return floor
        if given is not None:
            return max(floor, parse_timestamp(given, source="[tool.ladder.recurrence] git_since"))
        config = self.settings.config_file
        if config is None or not config.is_file():
            return None
        try:
            rel = config.relative_to(self.settings.root).as_posix()
        except ValueError:
            return None
        stamp = log.adopted(rel)
        return None if stamp is None else max(floor, _moment(stamp))

    def _event(self, row: Row, rel: str, commit: str, time: int) -> Event:
        """A red event of a past version, dated by its commit (never later than this run)."""
        code, unit, line, role, actual, limit, fingerprint, unit_hash = row
        rule = self._rule(code)
        when = min(_moment(time), self.now)
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

    def _rule(self, code: str) -> Any:
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


class LogCache:
    """What git log said for one HEAD, kept in the analysis cache: the window's commits, and when
    ``[tool.ladder]`` was adopted (apart, so a run whose answers are all cached reads no commit list).
    Commits read for an earlier window start serve a later one."""

    def __init__(self, cache: Any, repo: Repository) -> None:
        self.cache, self.repo = cache, repo
        self.head = repo.head() or ""

    def _key(self, kind: bytes) -> str:
        return self.cache.key(kind, self.repo.prefix, self.head)

    def _read(self, kind: bytes, valid: Callable[[Any], bool]) -> Optional[dict[str, Any]]:
        if self.cache is None:
            return None
        data = self.cache.get(self._key(kind))
        if data is not None and not valid(data):
            self.cache.discard(self._key(kind), "unexpected content")
            return None
        return data

    def adopted(self, rel: str) -> Optional[int]:
        """When ``[tool.ladder]`` was first committed to ``rel`` (the pyproject.toml)."""
        entry = self._read(b"git-adopted-1", lambda d: d.get("rel") == rel and (
            d.get("at") is None or isinstance(d.get("at"), int)))
        if entry is not None:
            return entry["at"]
        at = self.repo.introduced("[tool.ladder", rel)
        if self.cache is not None:
            self.cache.put(self._key(b"git-adopted-1"), {"rel": rel, "at": at})
        return at

    def commits(self, start: int) -> Commits:
        entry = self._read(b"git-log-1", lambda d: isinstance(d.get("since"), int) and "commits" in d)
        if entry is not None and entry["since"] <= start:
            try:
                return Commits.from_json(entry["commits"]).since(start)
            except ValueError:
                self.cache.discard(self._key(b"git-log-1"), "unexpected content")
        found = self.repo.commits(start)
        if self.cache is not None:
            self.cache.put(self._key(b"git-log-1"), {"since": start, "commits": found.to_json()})
        return found


@dataclass(frozen=True)
class _Asked:
    """A file's red fingerprints in the run, and what of its past versions to measure for them."""

    fingerprints: frozenset[str]
    measure: Wanted


def _moment(stamp: int) -> datetime:
    return datetime.fromtimestamp(clamp_time(stamp), timezone.utc)


def _earliest(versions: Sequence[tuple[str, FileVersion]], rows: Mapping[tuple[str, str], list[Row]],
              wanted: Mapping[str, _Asked]) -> dict[tuple[str, str, str], Found]:
    """(path, fingerprint, version) -> the finding of its earliest commit."""
    earliest: dict[tuple[str, str, str], Found] = {}
    for rel, version in versions:  # newest first: a later write is an earlier commit
        asked = wanted[rel].fingerprints
        for row in (r for r in rows.get((version.blob, rel), ()) if r[6] in asked):
            found = earliest.get((rel, row[6], row[7]))
            if found is None or version.time <= found[2]:
                earliest[(rel, row[6], row[7])] = (row, version.commit, version.time)
    return earliest


def _valid_found(items: Any) -> bool:
    return isinstance(items, list) and all(
        isinstance(i, list) and len(i) == 3 and isinstance(i[0], list) and len(i[0]) == 8 and isinstance(i[2], int)
        for i in items)


def _decode_found(entry: Mapping[str, Any], wanted: Mapping[str, _Asked]) -> Optional[dict[str, list[Found]]]:
    """A cached answer, if it is one for exactly these files."""
    found = entry.get("found")
    if not isinstance(found, dict) or set(found) != set(wanted) or not all(map(_valid_found, found.values())):
        return None
    return {rel: [(row, commit, time) for row, commit, time in items] for rel, items in found.items()}


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
