"""The occurrences git adds: the past versions of what the run has red, walked once, as red events.

For each file with a red violation in the run, the commits of the window that changed it
(renames followed, at most ``recurrence.git_max_commits``) give its past versions, and the
units asked about keep the versions they had before they moved (:mod:`.lineage`). Each
version is measured for the fingerprints the run has red (:mod:`.blobs`), as the file is
named now; a (fingerprint, version) counts once, at the earliest commit that held it, and
becomes a red event dated by that commit. The walk's answer for one HEAD, the settings it
depends on and the set of fingerprints is kept in the analysis cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence

from ..analysis.identity import HASH_VERSION
from ..config import Settings
from .blobs import BlobFindings, Row, Wanted
from .commits import FileVersion, Mechanical, commit_datetime
from .events import SCHEMA_VERSION, Event
from .lineage import Lineage, Seen
from .run import format_timestamp

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10+; only the type checker reads it

    from ..analysis.cache import AnalysisCache
    from ..catalogue import Rule

__all__ = ["Asked", "Found", "Walked", "as_events", "asked_of", "keep_walk", "kept_walk", "walk", "walk_key"]

#: A past version's finding: its row, the commit, the commit's moment (``FileVersion.moment``, microseconds),
#: why the commit is mechanical ("" if not).
Found = tuple[Row, str, int, str]


@dataclass(frozen=True)
class Asked:
    """A file's red fingerprints in the run, and what of its past versions to measure for them."""

    fingerprints: frozenset[str]
    measure: Wanted


@dataclass(frozen=True)
class Walked:
    """What the walk found: by file, the finding of each (fingerprint, version) at its earliest commit; how
    many past versions were read; the files whose history ``git_max_commits`` cut short."""

    found: dict[str, list[Found]]
    versions: int = 0
    cut: tuple[str, ...] = ()


def asked_of(events: Sequence[Event]) -> dict[str, Asked]:
    """By path: the red fingerprints of ``events``, the unit keys they name (a unit fingerprint is
    ``path::unit key::rule key``) and whether any is a file rule's."""
    by_path: dict[str, list[Event]] = {}
    for event in events:
        if event.severity == "red":
            by_path.setdefault(event.path, []).append(event)
    asked = {}
    for path, found in sorted(by_path.items()):
        units = frozenset(e.fingerprint[len(e.path) + 2:len(e.fingerprint) - len(e.rule_key) - 2]
                          for e in found if e.unit_name is not None)
        file_rules = any(e.unit_name is None for e in found)
        asked[path] = Asked(frozenset(e.fingerprint for e in found), Wanted(units, file_rules))
    return asked


def walk(lineage: Lineage, wanted: Mapping[str, Asked]) -> Walked:
    """The versions of the files asked about that the window holds (read through ``lineage``'s repository
    and commits), and the versions of their units before they moved, measured for the fingerprints asked."""
    mechanical = lineage.mechanical()
    walks = {rel: lineage.commits.versions_of(lineage.repo.to_repo(rel), lineage.limit, mechanical)
             for rel in sorted(wanted)}
    versions = [(rel, v) for rel, (own, _) in walks.items() for v in own]
    measure = {rel: asked.measure for rel, asked in wanted.items()}
    rows = lineage.blobs.rows(lineage.repo, [(v.blob, rel) for rel, v in versions], measure) if versions else {}
    moved, read, cut = _moved_pasts(lineage, wanted, walks)
    seen = [(rel, v, rows.get((v.blob, rel), [])) for rel, v in versions] + moved
    return Walked(_earliest(seen, wanted), len(versions) + read, cut)


def _moved_pasts(lineage: Lineage, wanted: Mapping[str, Asked],
                 walks: Mapping[str, tuple[list[FileVersion], bool]]) -> tuple[list[Seen], int, tuple[str, ...]]:
    """The versions before their moves of the units asked about (a moved unit's past is its own), how many;
    and the files whose history the cap cut (``walks``: each file's own versions, and whether it cut them)."""
    seen: list[Seen] = []
    read, cut = 0, {rel for rel, (_, was_cut) in walks.items() if was_cut}
    for rel, asked in wanted.items():
        own, was_cut = walks[rel]
        for unit in sorted(asked.measure.units):
            hops = lineage.hops(rel, unit, own, was_cut)
            seen += lineage.inherited(rel, unit, hops)
            read += sum(len(hop.versions) for hop in hops)
            cut.update(lineage.project_path(hop.path) for hop in hops if hop.cut)
    return seen, read, tuple(sorted(cut))


def _earliest(seen: Iterable[Seen], wanted: Mapping[str, Asked]) -> dict[str, list[Found]]:
    """By file asked about: the finding of the earliest commit of each (fingerprint, version) among ``seen``
    (path now, version, its rows), in the order of fingerprint and version."""
    earliest: dict[tuple[str, str, str], Found] = {}
    for rel, version, rows in seen:  # newest first: a later write is an earlier commit
        asked = wanted[rel].fingerprints
        for row in (r for r in rows if r[6] in asked):
            found = earliest.get((rel, row[6], row[7]))
            if found is None or version.moment <= found[2]:
                earliest[(rel, row[6], row[7])] = (row, version.commit, version.moment, version.mechanical)
    by_file: dict[str, list[Found]] = {rel: [] for rel in wanted}
    for (rel, _, _), item in sorted(earliest.items()):
        by_file[rel].append(item)
    return by_file


def walk_key(cache: Optional[AnalysisCache], head: str, limit: int, mechanical: Callable[[], Mechanical],
             wanted: Mapping[str, Asked]) -> Optional[str]:
    """Where the walk's answer is kept for HEAD ``head``: every setting the answer depends on is in the key,
    so a changed setting never meets an old answer (``None`` without a cache; ``mechanical`` asked only with one)."""
    if cache is None:
        return None
    asked = sorted((rel, sorted(a.fingerprints)) for rel, a in wanted.items())
    revs, sweep = sorted(mechanical().revs), mechanical().sweep_files
    # "|0": the window starts at the first commit, as the key has always said
    return cache.key(b"git-prior-4", "", f"{head}|0|{limit}|{sweep}|{revs}|{asked}")


def kept_walk(cache: Optional[AnalysisCache], key: Optional[str], wanted: Mapping[str, Asked]) -> Optional[Walked]:
    """The answer kept under ``key``, if it is one for exactly these files; one of another shape is set aside."""
    entry = cache.get(key) if key and cache is not None else None
    if entry is None:
        return None
    assert key is not None and cache is not None  # an entry was read from the cache under the key
    found, cut, versions = entry.get("found"), entry.get("cut"), entry.get("versions")
    if not _valid_found(found, wanted) or not isinstance(cut, list) or not isinstance(versions, int):
        cache.discard(key, "unexpected content")
        return None
    return Walked({rel: [(row, commit, time, why) for row, commit, time, why in items] for rel, items in found.items()},
                  versions, tuple(map(str, cut)))


def _valid_found(found: Any, wanted: Mapping[str, Asked]) -> TypeGuard[dict[str, list[Any]]]:
    """Whether kept findings are lists of findings of their shape, for exactly the files asked about."""
    return isinstance(found, dict) and set(found) == set(wanted) and all(
        isinstance(items, list) and all(map(_valid_finding, items)) for items in found.values())


def _valid_finding(item: Any) -> bool:
    """``[row of 8, commit, moment, why]``."""
    return isinstance(item, list) and len(item) == 4 and isinstance(item[0], list) and len(item[0]) == 8 \
        and isinstance(item[1], str) and isinstance(item[2], int) and isinstance(item[3], str)


def keep_walk(cache: Optional[AnalysisCache], key: Optional[str], walked: Walked) -> None:
    if key and cache is not None:
        cache.put(key, {"found": {rel: [list(i) for i in items] for rel, items in walked.found.items()},
                        "cut": list(walked.cut), "versions": walked.versions})


def as_events(found: Mapping[str, list[Found]], settings: Settings, blobs: BlobFindings, now: datetime) -> list[Event]:
    """A red event per finding, never later than ``now`` (the run's clock)."""
    return [_event(rel, finding, blobs.analyzer().by_code.get(finding[0][0]), settings, now)
            for rel, items in found.items() for finding in items]


def _event(rel: str, finding: Found, rule: Optional[Rule], settings: Settings, now: datetime) -> Event:
    """The red event of a past version, dated by its commit: commits of one second a microsecond apart in
    history's order, so the earlier of two is never the later by its hash."""
    (code, unit, line, role, actual, limit, fingerprint, unit_hash), commit, moment, _ = finding
    when = min(commit_datetime(moment // 1_000_000) + timedelta(microseconds=moment % 1_000_000), now)
    return Event(
        # never recorded, so its id only has to be unique among git's: the commit and the fingerprint
        schema_version=SCHEMA_VERSION, event_id=f"git:{commit}:{fingerprint}", timestamp=format_timestamp(when),
        repo_id=settings.repo_id, run_id=f"git:{commit}", tool="git", mode=settings.mode, path=rel,
        unit_name=unit, line=line, role=role, rule_key=rule.key if rule else code,
        metric_family=rule.family if rule else "plugin", scope=rule.scope if rule else "unit",
        severity="red", actual=actual, limit=limit, delta=None if actual is None or limit is None
        else actual - limit, fingerprint=fingerprint, unit_hash=unit_hash,
        source=rule.source if rule else "external-plugin", hash_version=HASH_VERSION,
    )
