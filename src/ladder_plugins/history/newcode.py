"""The base of ``mode = "new"``: what the base commit already had is not new.

The base is ``--base`` (or ``[tool.ladder] base``), else the merge base of HEAD with
the default branch. Its versions of the files the run has red (renames since the base
followed) are measured like any past version: the red violations it had, by
fingerprint, are what is not new. A unit the branch moved from another file or name is
followed back (:mod:`.lineage`) to where the base held it, so moving code is not
writing it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping, Optional, Sequence

from .blobs import BlobFindings, Wanted
from .commits import FileVersion
from .git import SHALLOW_HINT, Repository
from .lineage import Hop, Lineage

if TYPE_CHECKING:
    from .occurrences import Asked

__all__ = ["find_base", "moved_values", "values_at_base"]


def find_base(repo: Optional[Repository], ref: Optional[str], warn: Callable[[str], None]) -> Optional[str]:
    """The commit ``ref`` names, else the merge base of HEAD with the default branch; ``None``, said through
    ``warn``, where there is none (the recurrence gate alone applies then)."""
    if repo is None:
        warn("mode new needs git to find the base; only the recurrence gate applies")
        return None
    if ref:
        found = repo.resolve(ref)
        if found is None:
            warn(f"mode new: base {ref!r} does not name a commit; only the recurrence gate applies")
        return found
    branch = repo.default_branch()
    base = repo.merge_base("HEAD", branch) if branch else None
    if base is None:
        hint = " (" + SHALLOW_HINT + ")" if repo.shallow else ""
        warn("mode new: no base to compare with (no merge base of HEAD with origin/HEAD, main or "
             f"master){hint}; pass --base REF or set [tool.ladder] base; only the recurrence gate applies")
    return base


def values_at_base(repo: Repository, blobs: BlobFindings, base: str, renames: Mapping[str, str],
                   wanted: Mapping[str, Asked]) -> dict[str, Optional[float]]:
    """Fingerprint -> value of the red violations the base had in the files asked about; ``renames``: the
    repository path now -> its path at the base, of the files renamed since."""
    specs = {rel: f"{base}:{renames.get(repo.to_repo(rel), repo.to_repo(rel))}" for rel in sorted(wanted)}
    ids = repo.blob_ids(list(specs.values()))
    pairs = [(blob, rel) for rel, spec in specs.items() if (blob := ids.get(spec))]
    rows = blobs.rows(repo, pairs, {rel: asked.measure for rel, asked in wanted.items()})
    return {row[6]: row[4] for pair in pairs for row in rows.get(pair, ())}


def moved_values(lineage: Lineage, branch: frozenset[str], wanted: Mapping[str, Asked],
                 values: Mapping[str, Optional[float]]) -> dict[str, Optional[float]]:
    """The base's red values of units the branch (its commits ``branch``) moved to another file or name, under
    their fingerprints now: a unit the base held elsewhere is not new. Only units without a value at the base
    are followed."""
    moved: dict[str, Optional[float]] = {}
    for rel, asked in wanted.items():
        units = sorted(unit for unit in asked.measure.units
                       if any(fp.startswith(f"{rel}::{unit}::") and fp not in values for fp in asked.fingerprints))
        if units:
            own, cut = lineage.commits.versions_of(lineage.repo.to_repo(rel), lineage.limit, lineage.mechanical())
            for unit in units:
                moved.update(_value_at_base(lineage, rel, unit, lineage.hops(rel, unit, own, cut), branch))
    return moved


def _value_at_base(lineage: Lineage, rel: str, unit: str, hops: Sequence[Hop],
                   branch: frozenset[str]) -> dict[str, Optional[float]]:
    """Fingerprint now -> the base's value, of a unit whose moves after the base are ``hops`` (and more)."""
    key = unit
    versions: tuple[FileVersion, ...] = ()
    for hop in hops:
        if hop.commit not in branch:
            break  # moved before the base: the base had it where the later move found it
        key, versions = hop.key, hop.versions
    at_base = next((v for v in versions if v.commit not in branch), None)
    if at_base is None:
        return {}
    prefix = f"{rel}::{key}::"
    found = lineage.blobs.rows(lineage.repo, [(at_base.blob, rel)], {rel: Wanted(frozenset({key}))})
    return {f"{rel}::{unit}::{row[6][len(prefix):]}": row[4] for row in found.get((at_base.blob, rel), ())
            if row[6].startswith(prefix)}
