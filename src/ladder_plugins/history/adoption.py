"""The adoption point: from when an occurrence may fail the run.

The evidence is each file's whole history; the adoption point decides which of its
occurrences may fail the run. By default it is the commit that added ``[tool.ladder]``
to the configuration file, so adopting the tool does not fail on history nobody was told
about (a chronic hotspot from before it is known, and fails on its next edit);
``recurrence.git_since`` sets a commit, a date or ``"all"`` instead. Where the point is a
commit, the commits after it decide for a commit's occurrence, by history rather than by
a clock (a rebase gives many commits one second).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Optional

from ..config import Settings
from ..errors import ConfigError
from .commits import LogCache, commit_datetime
from .git import Repository
from .gitprocess import GitUnavailable
from .run import format_timestamp, parse_timestamp

__all__ = ["Adoption", "EVERYTHING", "NOT_COMMITTED", "adoption_point"]


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
#: ``[tool.ladder]`` is in no commit (or git could not say which): only the log's and the run's occurrences count.
NOT_COMMITTED = Adoption(None, None, "from this working tree on ([tool.ladder] is not committed yet)")


def adoption_point(settings: Settings, repo: Repository, log: LogCache, warn: Callable[[str], None]) -> Adoption:
    """The adoption point of ``settings`` in ``repo``. Raises :class:`GitUnavailable` where git log cannot say
    which commit added ``[tool.ladder]`` (the caller then reads git no further, and it is :data:`NOT_COMMITTED`),
    and :class:`ConfigError` for a ``git_since`` that is neither a date nor a commit git knows."""
    given = settings.recurrence.git_since
    if given == "all":
        return Adoption(commit_datetime(0), None, "from all history")
    if given is not None:
        return _given_since(given, repo, warn)
    config = settings.config_file
    try:
        rel = config.relative_to(settings.root).as_posix() if config is not None and config.is_file() else None
    except ValueError:
        rel = None  # a configuration file outside the project: no commit of it is the project's
    adopted = log.adopted(rel) if rel is not None else None
    if adopted is None:
        return NOT_COMMITTED
    stamp, sha = adopted
    when = commit_datetime(stamp)
    return Adoption(when, when, f"since {format_timestamp(when)[:10]} (the commit that added [tool.ladder])",
                    _from_commit(repo, sha, warn))


def _given_since(given: str, repo: Repository, warn: Callable[[str], None]) -> Adoption:
    """``git_since`` as a date or as a commit (its committer time); a commit git does not know is an error."""
    try:
        datetime.fromisoformat(given.strip().replace("Z", "+00:00"))
    except ValueError:
        pass  # not a date: a commit
    else:
        since = parse_timestamp(given, source="[tool.ladder.recurrence] git_since")
        return Adoption(since, since, f"since {format_timestamp(since)[:10]} (git_since)")
    sha = repo.resolve(given)
    stamp = repo.commit_time(sha) if sha else None
    if sha is None or stamp is None:
        raise ConfigError(f"[tool.ladder.recurrence] git_since: {given!r} is neither \"all\", an ISO-8601 "
                          f"date nor a commit of {repo.toplevel.name}; expected e.g. 2024-03-01 or v2.0")
    when = commit_datetime(stamp)
    return Adoption(when, when, f"since {given} ({format_timestamp(when)[:10]})", _from_commit(repo, sha, warn))


def _from_commit(repo: Repository, sha: str, warn: Callable[[str], None]) -> Optional[frozenset[str]]:
    """``sha`` and the commits after it; ``None`` (the clock decides) where git cannot say."""
    try:
        return repo.commits_after(sha) | {sha}
    except GitUnavailable as exc:
        warn(f"git: {exc}; commits are taken as after the adoption point by their time")
        return None
