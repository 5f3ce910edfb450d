"""``ladder history combine``: other logs merged into this one, each event once (like ``coverage combine``).

CI jobs and machines each keep a log; combining them gives one history. An input must
be a regular file of no newer schema holding this project's records (another project's
hotspots are not this one's, unless forced); events are appended exactly as written,
under the store's lock, and an event id the history already holds is not appended again.
Imported only by that command.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..errors import LadderError
from .events import SCHEMA_VERSION, Record

if TYPE_CHECKING:
    from .store import HistoryStore

__all__ = ["combine"]


def combine(store: HistoryStore, files: Sequence[Path], *, force: bool = False) -> tuple[int, int, int]:
    """Merge the logs ``files`` into ``store``'s, deduplicating by event id.

    Returns (added, duplicates, unreadable lines). Raises :class:`LadderError` when the history cannot be
    written, an input cannot be read, or (unless ``force``) an input holds another project's records.
    """
    incoming, unreadable = _read_inputs(store, files, force)
    with store.transaction(quiet=True) as tx:
        if tx.read_only:
            raise LadderError(tx.refusal or f"cannot write {store.log} (see the warning above)")
        seen: set[str] = set()
        store.read_log(0, sink=lambda record: seen.add(record.event_id))
        new = []
        for record in incoming:  # in order, each id once: neither one the log holds nor one repeated
            if record.event_id not in seen:
                seen.add(record.event_id)
                new.append(record)
        tx.append(new, as_written=True)
    return len(new), len(incoming) - len(new), unreadable


def _read_inputs(store: HistoryStore, files: Sequence[Path], force: bool) -> tuple[list[Record], int]:
    """The records of every input, and how many of their lines were unreadable; an input of a newer schema,
    or (unless ``force``) with another project's records, is refused whole."""
    incoming: list[Record] = []
    unreadable = 0
    this = store.settings.repo_id
    for file in map(Path, files):
        _check_input(file)
        read = store.read_log(0, path=file)
        if read.newer:
            raise LadderError(f"{file}: written by a newer ladder-plugins (schema > {SCHEMA_VERSION}); "
                              "upgrade first")
        foreign = sorted({r.repo_id for r in read.events if r.repo_id and r.repo_id != this})
        if foreign and not force:
            shown = ", ".join(repr(_printable(name)) for name in foreign[:3])
            raise LadderError(f"{file}: records of another project ({shown}, this one is {this!r}); not combined "
                              "(--force combines them anyway)")
        incoming.extend(read.events)
        unreadable += read.skipped
    return incoming, unreadable


def _check_input(file: Path) -> None:
    """A file to combine must be a regular file; anything else is said as what it is."""
    try:
        mode = os.stat(file).st_mode
    except FileNotFoundError:
        raise LadderError(f"{file}: no such file") from None
    except OSError as exc:
        raise LadderError(f"{file}: cannot be read: {exc.strerror or exc}") from None
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
             (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))
    kind = next((name for test, name in kinds if test(mode)), None)
    if kind is not None:
        raise LadderError(f"{file}: is {kind}, not a log file; expected an events.jsonl")


def _printable(text: str) -> str:
    """A name read from an untrusted file, as a message may show it."""
    return "".join(c if c.isprintable() else "?" for c in text)[:80]
