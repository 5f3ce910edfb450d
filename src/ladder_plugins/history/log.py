"""The bytes of ``events.jsonl``: tolerant chunked reading and torn-line-proof appends.

Reading yields only complete lines (a torn last line is left for later) and never
raises on bad content: a line that is not a trustworthy event is counted in
``skipped``. Appending writes whole lines in one ``O_APPEND`` write and starts on a
fresh line when the file ends in a torn one. Callers hold the store's lock for
appends; reads need no lock because lines are only ever added whole.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterator, Optional, Sequence

from .events import NewerSchema, Record, record_from_json

__all__ = ["ReadResult", "EventLog", "decode_line", "complete_lines", "lines_between"]

_CHUNK = 1 << 20
MAX_LINE = 1 << 20  # longer than any event: skipped and counted, never held in memory whole
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass
class ReadResult:
    """Records (events and sightings) read from a log, and what could not be read.

    With a ``sink`` the records are handed to it as they are read instead of being
    kept in ``events``: a log of any size is then read in memory proportional to what
    the sink keeps.
    """

    events: list[Record] = field(default_factory=list)
    end: int = 0
    skipped: int = 0
    newer: bool = False
    first_skipped: Optional[int] = None  # byte offset of the first unreadable line, for the warning
    versions: dict[int, int] = field(default_factory=dict)  # schema_version -> readable lines
    sink: Optional[Callable[[Record], None]] = field(default=None, repr=False, compare=False)

    def take(self, record: Record) -> None:
        self.versions[record.schema_version] = self.versions.get(record.schema_version, 0) + 1
        if self.sink is None:
            self.events.append(record)
        else:
            self.sink(record)


def decode_line(raw: bytes, result: ReadResult, offset: int = 0) -> None:
    """Add the record on ``raw`` (at byte ``offset``) to ``result``, or count the line as unreadable."""
    if not raw.strip():
        return
    try:
        if len(raw) > MAX_LINE:
            raise ValueError("longer than any event")
        result.take(record_from_json(json.loads(raw)))
    except NewerSchema as newer:
        result.newer = True
        if newer.args[0] is not None:
            result.take(newer.args[0])
    except (ValueError, TypeError, LookupError, ArithmeticError, RecursionError, UnicodeDecodeError):
        result.skipped += 1
        if result.first_skipped is None:
            result.first_skipped = offset


def complete_lines(handle: IO[bytes]) -> Iterator[tuple[bytes, int]]:
    """(line without newline, bytes consumed) for each complete line, in chunks."""
    pending = b""
    for chunk in iter(lambda: handle.read(_CHUNK), b""):
        *lines, pending = (pending + chunk).split(b"\n")
        for raw in lines:
            yield raw, len(raw) + 1
        if len(pending) > MAX_LINE:  # a runaway line: give it up now, it is not an event
            yield pending, len(pending)
            pending = b""


class _Bounded:
    """At most ``left`` bytes of ``handle`` from where it stands (``None``: to the end)."""

    def __init__(self, handle: IO[bytes], left: Optional[int]) -> None:
        self.handle, self.left = handle, left

    def read(self, size: int) -> bytes:
        if self.left is None:
            return self.handle.read(size)
        data = self.handle.read(min(size, self.left))
        self.left -= len(data)
        return data


def lines_between(handle: IO[bytes], skip: Sequence[tuple[int, int]]) -> Iterator[tuple[bytes, int]]:
    """:func:`complete_lines`, without reading the byte ranges ``skip`` (offset, length): a second pass
    over a log need not read again the garbage the first pass found."""
    position = 0
    for offset, length in sorted(skip):
        handle.seek(position)
        yield from complete_lines(_Bounded(handle, offset - position))  # type: ignore[arg-type]
        position = offset + length
    handle.seek(position)
    yield from complete_lines(handle)


class EventLog:
    """One ``events.jsonl``; ``inside_root`` guards every open against symlinks leading out."""

    def __init__(self, path: Path, inside_root: Callable[[Path], bool], warn: Callable[[str], None]) -> None:
        self.path = path
        self.inside_root = inside_root
        self.warn = warn

    def open_read(self, path: Optional[Path] = None) -> IO[bytes]:
        target = path or self.path
        if path is None and not self.inside_root(target):
            raise PermissionError(f"{target} resolves outside the project root")
        return os.fdopen(os.open(target, os.O_RDONLY | (NOFOLLOW if path is None else 0)), "rb")

    def read(self, start: int = 0, path: Optional[Path] = None,
             sink: Optional[Callable[[Record], None]] = None) -> ReadResult:
        """Complete lines from byte ``start`` of this log (or of another file ``path``); records go to
        ``sink`` as they are read when one is given."""
        result = ReadResult(end=start, sink=sink)
        try:
            handle = self.open_read(path)
        except (FileNotFoundError, NotADirectoryError):  # no history yet
            return result
        except OSError as exc:
            self.warn(f"cannot read {path or self.path}: {exc.strerror or exc}")
            return result
        with handle:
            handle.seek(start)
            for raw, consumed in complete_lines(handle):
                decode_line(raw, result, result.end)
                result.end += consumed
        return result

    def copy_ranges(self, ranges: Sequence[tuple[int, int]], target: Path) -> None:
        """Append byte ranges of this log to ``target`` (created if missing), in bounded chunks."""
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o644)
        with self.open_read() as source, os.fdopen(fd, "ab") as sink:
            for offset, length in ranges:
                source.seek(offset)
                while length > 0:
                    chunk = source.read(min(length, _CHUNK))
                    if not chunk:
                        break
                    sink.write(chunk)
                    length -= len(chunk)
            sink.flush()
            os.fsync(sink.fileno())  # before the log is rewritten without them

    def first_timestamp(self) -> Optional[str]:
        """The timestamp of the log's first record, or ``None`` (no log, or an unreadable first line)."""
        try:
            with self.open_read() as handle:
                first = handle.readline(MAX_LINE)
        except OSError:
            return None
        probe = ReadResult()
        decode_line(first.rstrip(b"\n"), probe)
        return probe.events[0].timestamp if probe.events else None

    def head(self) -> str:
        """A digest of the first line: changes when the log is rewritten, not when appended."""
        try:
            with self.open_read() as handle:
                first = handle.readline(4096)
        except OSError:
            return ""
        return hashlib.blake2b(first, digest_size=8).hexdigest()

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def append(self, events: Sequence[Record]) -> None:
        """Whole lines in one append; a torn last line gets its newline first."""
        data = "".join(e.to_json() + "\n" for e in events).encode("utf-8")
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o644)
        try:
            if self._ends_torn(fd):
                data = b"\n" + data
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)

    @staticmethod
    def _ends_torn(fd: int) -> bool:
        size = os.fstat(fd).st_size
        if not size:
            return False
        os.lseek(fd, size - 1, os.SEEK_SET)  # O_APPEND still writes at the end
        return os.read(fd, 1) != b"\n"
