"""The red violations of a file as one git blob holds it, found once per blob (DESIGN §10).

A blob never changes, so what the analysis finds in it, for the path the file has
now and under the current settings, is kept in the analysis cache keyed by the blob
id (and, through the cache's own key, by the settings, the plugins and the package
version): a warm run asks git for no blob at all. Entries are validated when read;
one of the wrong shape is set aside like any damaged cache entry.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from ..config import Settings
from .git import Repository

__all__ = ["BlobFindings", "Row"]

_MAX_BLOB = 16 << 20  # larger files are not source the history means
_ENTRY = "git-blob-1"

#: One red violation of a blob: code, unit, line, role, actual, limit, fingerprint, unit hash.
Row = list[Any]


def _valid_row(row: Any) -> bool:
    return (isinstance(row, list) and len(row) == 8 and isinstance(row[0], str) and isinstance(row[6], str)
            and isinstance(row[7], str) and isinstance(row[2], int) and isinstance(row[3], str)
            and all(v is None or isinstance(v, (int, float)) for v in row[4:6]))


class BlobFindings:
    """(blob id, path as named now) -> its red violations, from memory, the cache, or the analysis."""

    def __init__(self, settings: Settings, cache: Any = None, pm: Any = None) -> None:
        self.settings = settings
        self.cache = cache  # an AnalysisCache, or None
        self._pm = pm
        self._analyzer: Any = None
        self._rows: dict[tuple[str, str], list[Row]] = {}

    def analyzer(self) -> Any:
        """The analyzer for blobs, also the run's rules by code."""
        if self._analyzer is None:
            from ..analysis.analyzer import Analyzer

            self._analyzer = Analyzer(self.settings, self._pm)  # no content cache: entries are kept per blob
        return self._analyzer

    def rows(self, repo: Repository, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], list[Row]]:
        """The red violations of each (blob, path); blobs neither remembered nor cached are read in one stream."""
        missing = [pair for pair in dict.fromkeys(pairs) if pair not in self._rows and not self._remember(pair)]
        if missing:
            contents = repo.blobs([blob for blob, _ in missing], _MAX_BLOB)
            for blob, rel in missing:
                self._rows[(blob, rel)] = self._analyse(contents.get(blob), blob, rel)
        return self._rows

    def _key(self, blob: str, rel: str) -> str:
        return self.cache.key(f"{_ENTRY}:{blob}".encode("ascii"), rel, _ENTRY)

    def _remember(self, pair: tuple[str, str]) -> bool:
        """Whether the cache had the pair (now remembered)."""
        if self.cache is None:
            return False
        key = self._key(*pair)
        entry = self.cache.get(key)
        if entry is None:
            return False
        rows = entry.get("red")
        if not isinstance(rows, list) or not all(_valid_row(row) for row in rows):
            self.cache.discard(key, "unexpected content")
            return False
        self._rows[pair] = rows
        return True

    def _analyse(self, data: Optional[bytes], blob: str, rel: str) -> list[Row]:
        if data is None:  # missing or too large: nothing known, nothing cached
            return []
        report = self.analyzer().source(data, rel)
        rows = [[v.code, v.unit, v.line, v.role, v.actual, v.limit, v.fingerprint, v.unit_hash] for v in report.red]
        if self.cache is not None:
            self.cache.put(self._key(blob, rel), {"red": rows})
        return rows
