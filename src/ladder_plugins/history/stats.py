"""What ``ladder doctor`` and ``ladder history`` say about a project's stored history.

Apart from the store because only those commands ask: a run that records or gates does not define it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

__all__ = ["StoreStats"]


@dataclass(frozen=True)
class StoreStats:
    """The log's file, its records' span and schemas, and what reading it skipped
    (:meth:`~.store.HistoryStore.stats`)."""

    path: str
    exists: bool
    size: int
    events: int
    oldest: Optional[str]
    newest: Optional[str]
    skipped_lines: int
    schema_version: int
    newer_schema: bool
    fingerprints: int
    folded_fingerprints: int
    lines_by_schema: dict[int, int] = field(default_factory=dict)
    unresolved: int = 0
    untrusted_entries: int = 0  # entries of folded.json not of their shape: skipped, kept
