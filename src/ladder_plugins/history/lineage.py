"""A unit keeps its past when it moves: the moves that brought a unit to where it is, followed back.

A unit of the run may have come from another file or another name. The commit where the
unit first appears in its file moved it when that commit took away a unit with the same
name-less body, or one at least ``_ALIKE`` alike (a move with a small edit). Each move,
walking back, is a :class:`Hop` (at most ``_MAX_HOPS``); the unit's versions before a move
are measured as its file is named now, and what they violate counts under the
fingerprints the unit has now. A commit never changes, so which unit it moved is kept in
the analysis cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from ..analysis.identity import text_hash, text_tokens
from .blobs import BlobFindings, Row, Wanted, likeness
from .commits import Change, Commits, FileVersion, Mechanical
from .git import Repository

__all__ = ["Hop", "Lineage", "Seen"]

#: Moves followed back from one unit: past this, a chain of moves is no history anyone reads.
_MAX_HOPS = 10
#: How alike (:func:`~.blobs.likeness` of the canonical tokens) a new unit and one its commit took away must be
#: to be one unit, edited as it moved: one statement added to a unit of 20 lines is about 0.98, four are about 0.92.
_ALIKE = 0.95

#: A version read, as (the path of the unit now, the version, its rows under the fingerprints now).
Seen = tuple[str, FileVersion, list[Row]]


@dataclass(frozen=True)
class Hop:
    """One move of a unit, walking back: in ``commit`` it came from unit ``key`` of ``path`` (the repository
    path in the commit's parent), whose versions before the move are ``versions`` (newest first; ``cut`` when
    git_max_commits cut them); ``same``: (version before, version after) when it moved unchanged."""

    commit: str
    path: str
    key: str
    versions: tuple[FileVersion, ...]
    cut: bool
    same: Optional[tuple[str, str]]


class Lineage:
    """The moves of the units a run asks about, followed back through the window's commits, each unit's once.

    ``mechanical`` is asked for only when a version is listed (it reads the ignore-revs file); ``limit`` is
    ``recurrence.git_max_commits``, the versions read per file."""

    def __init__(self, repo: Repository, commits: Commits, blobs: BlobFindings, limit: int,
                 mechanical: Callable[[], Mechanical]) -> None:
        self.repo, self.commits, self.blobs = repo, commits, blobs
        self.limit, self.mechanical = limit, mechanical
        self._hops: dict[tuple[str, str], tuple[Hop, ...]] = {}  # (path, unit) -> its moves

    def hops(self, rel: str, unit: str, own: Sequence[FileVersion], cut: bool) -> tuple[Hop, ...]:
        """The moves that brought ``unit`` to ``rel`` (its versions ``own``, newest first; ``cut`` when
        git_max_commits cut them), newest first, at most ``_MAX_HOPS``."""
        memo = self._hops.get((rel, unit))
        if memo is not None:
            return memo
        hops: list[Hop] = []
        key, versions = unit, list(own)
        while len(hops) < _MAX_HOPS:
            hop = self._hop(rel, key, versions, cut)
            if hop is None:
                break
            hops.append(hop)
            key, versions, cut = hop.key, list(hop.versions), hop.cut
        self._hops[(rel, unit)] = found = tuple(hops)
        return found

    def _hop(self, rel: str, key: str, versions: list[FileVersion], cut: bool) -> Optional[Hop]:
        """The move that brought unit ``key`` to the file of ``versions`` (newest first), if one did: the unit
        that the commit where ``key`` first appears there took away, with the same body or nearly. The unit's
        versions before it are measured as ``rel`` is now (its role, its limits)."""
        present = self._holding(rel, key, versions)
        if not present or (cut and present[-1] is versions[-1]):
            return None  # never there, or there in the oldest version read of a history the cap cut: no move known
        first = present[-1]
        body, now = self.blobs.bodies(first.blob, rel)[key]
        found = self._ancestor(first, key, body)
        if found is None:
            return None
        path, old_key, exact = found
        older, older_cut = self.commits.versions_of(path, self.limit, self.mechanical(), older_than=first.commit)
        before = self.blobs.bodies(older[0].blob, rel).get(old_key) if self._holding(rel, old_key, older) else None
        # moved unchanged (renamed, perhaps): the version before the move is the version after it
        same = (before[1], now) if exact and before is not None and before[0] == body else None
        return Hop(first.commit, path, old_key, tuple(older), older_cut, same)

    def _holding(self, rel: str, key: str, versions: Sequence[FileVersion]) -> list[FileVersion]:
        """Those of ``versions`` that hold unit ``key``, measured (as ``rel`` is now) for it."""
        self.blobs.rows(self.repo, [(v.blob, rel) for v in versions], {rel: Wanted(frozenset({key}))})
        return [v for v in versions if key in self.blobs.bodies(v.blob, rel)]

    def inherited(self, rel: str, unit: str, hops: Sequence[Hop]) -> list[Seen]:
        """The rows of ``unit``'s versions before its moves, under the fingerprints and versions it has now."""
        renamed: dict[str, str] = {}
        seen: list[Seen] = []
        for hop in hops:
            if hop.same is not None:
                renamed[hop.same[0]] = renamed.get(hop.same[1], hop.same[1])
            prefix = f"{rel}::{hop.key}::"
            rows = self.blobs.rows(self.repo, [(v.blob, rel) for v in hop.versions],
                                   {rel: Wanted(frozenset({hop.key}))})
            seen += [(rel, version, [[*row[:6], f"{rel}::{unit}::{row[6][len(prefix):]}", renamed.get(row[7], row[7])]
                                     for row in rows.get((version.blob, rel), ()) if row[6].startswith(prefix)])
                     for version in hop.versions]
        return seen

    def project_path(self, path: str) -> str:
        """A repository path as the project names it (itself outside the project)."""
        return self.repo.to_project(path) or path

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
        gone, nodes = _gone(self.commits.changes_at(at.commit), self.blobs, self.repo, at)
        if not gone:
            return None
        same = min(((path, old_key) for path, old_key, text in gone if text_hash(text) == body), default=None)
        if same is not None:
            return same[0], same[1], True
        mine = nodes[at.blob].get(key)
        if mine is None:
            return None
        tokens = text_tokens(mine)
        score, path, old_key = min(((-likeness(tokens, text_tokens(text)), path, old_key)
                                    for path, old_key, text in gone), default=(0.0, "", ""))
        return (path, old_key, False) if -score >= _ALIKE else None


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


def _valid_move(found: Any) -> bool:
    """Whether a cached answer of :meth:`Lineage._ancestor` is of its shape: none, or [path, key, same]."""
    return found is None or (isinstance(found, list) and len(found) == 3 and isinstance(found[0], str)
                             and isinstance(found[1], str) and isinstance(found[2], bool))
