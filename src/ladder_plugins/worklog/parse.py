"""A work log read into its reports: headers, bodies, the lines between them, and both ways of counting.

The file is cut at its header lines. A *header* is any line that opens with ``===`` and
names a report or the final block, well-formed or not, so that one malformed header
does not merge two reports into one. A report runs from its header to the line before
the next header; its *count* is the skill's prose definition: header through the last
content line, where the lines after it (blank lines and the ``---`` separator) are not
counted and interior blank lines are. The skill's awk one-liner counts differently (it
skips every empty line and every line that starts with ``---``, and counts lines made
of spaces); :attr:`Report.awk_count` is what it would say, so a message can warn where
the two disagree (``docs/how-to/worklog.md``, "The skill's awk one-liner, compared").
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import LadderError

__all__ = ["Report", "WorkLog", "parse_text", "read_log", "is_blank", "is_separator", "REPORT_TYPES",
           "HEADER_FORM", "FINAL_FORM", "header_text", "WorkLogError", "is_header", "decode", "read_bytes",
           "elapsed_seconds", "COUNT_FORM"]

REPORT_TYPES = ("feedback", "milestone", "synthesis")
HEADER_FORM = "=== Report #N | lines: L | elapsed: MM:SS | type: feedback|milestone|synthesis ==="
#: the header in count mode (the skill's §5: "log loop N of M in every report header")
COUNT_FORM = "=== Report #N | lines: L | elapsed: MM:SS | type: T | loop: N of M ==="
FINAL_FORM = "=== FINAL REPORT | elapsed: MM:SS | loops: N ==="

#: the largest work log read (it is read whole, and a session writes nothing near it)
MAX_BYTES = 64 * 1024 * 1024
_TOO_BIG = "larger than 64 MiB; a work log is read whole"
#: opening a FIFO that slipped in after the stat must not wait for a writer, nor a terminal become ours
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)

# Every pattern below is linear in its line: no two adjacent quantifiers can take the same character (a run
# of spaces belongs to one of them, the next one starts at a character the first cannot take), and numbers
# are read with [0-9], never \d, which takes every script's digits and hands int() a '٣'.

#: a line that is meant as a header: ``===`` then ``Report`` or ``FINAL``, however the rest is written; every
#: line the skill's awk one-liner takes for a header (``^=== Report``, ``=== Reports`` too) is one, so that
#: ``awk_count`` is what it counts
_CANDIDATE = re.compile(r"^\s*={2,}\s*(?:report|final\b)", re.I)
_REPORT = re.compile(
    r"^=== Report #(?P<number>[0-9]+) \| lines: (?P<lines>[0-9]+) \| elapsed: (?P<elapsed>[^|]*) "
    r"\| type: (?P<type>[^|]*?)(?: \| loop: (?P<loop>[^|]*))? ===$")
#: ``elapsed: MM:SS``: minutes two digits at least (nine at most: a count, not a typo), seconds 00-59
_ELAPSED = re.compile(r"^(?P<minutes>[0-9]{2,9}):(?P<seconds>[0-5][0-9])$")
_FINAL = re.compile(r"^=== FINAL REPORT \| elapsed: (?P<elapsed>[^|]*) \| loops: (?P<loops>[0-9]+) ===$")
_FINAL_CANDIDATE = re.compile(r"^\s*={2,}\s*final\b", re.I)
_LOOSE_NUMBER = re.compile(r"#\s*([0-9]+)")
_LOOSE_LINES = re.compile(r"lines\s*:\s*([0-9]+)", re.I)
#: the largest number a header may carry: beyond it, it is a typo, not a count (and int() of it is costly)
_MAX_DIGITS = 9


class WorkLogError(LadderError):
    """The work log cannot be read at all (missing, a directory, not UTF-8): the message says which and why;
    ``reason`` is it without the file's name, ``line`` where it is."""

    def __init__(self, name: str, reason: str, line: int = 1) -> None:
        super().__init__(f"{name}:{line}: {reason}")
        self.reason, self.line = reason, line


def elapsed_seconds(text: Optional[str]) -> Optional[int]:
    """``MM:SS`` as seconds, or ``None`` when it is not in that form: the one reading of an elapsed time, for
    the header check, the FAIL gate's time boundary and the writer alike."""
    match = _ELAPSED.match(text or "")
    return int(match["minutes"]) * 60 + int(match["seconds"]) if match else None


def is_blank(line: str) -> bool:
    return not line.strip()


def is_separator(line: str) -> bool:
    return line.strip() == "---"


def is_header(line: str) -> bool:
    """Whether ``line`` is meant as a header (well-formed or not): it cuts the log there."""
    return bool(_CANDIDATE.match(line))


def _number(text: Optional[str]) -> Optional[int]:
    return int(text) if text is not None and len(text) <= _MAX_DIGITS else None


@dataclass(frozen=True)
class Report:
    """One report (or the final block) as written: where it is, what its header says, what it holds."""

    #: its place from the top, 0 for the newest
    index: int
    #: the header's 1-based line number in the file
    start: int
    header: str
    #: ``"report"`` or ``"final"`` (the ``FINAL REPORT`` block)
    kind: str
    #: why the header is not in its form, or ``None`` when it is
    malformed: Optional[str]
    number: Optional[int]
    declared: Optional[int]
    elapsed: Optional[str]
    type: Optional[str]
    loops: Optional[int]
    #: the lines after the header through the last content line
    body: tuple[str, ...]
    #: the lines after the last content line, up to the next header: blank lines and separators
    tail: tuple[str, ...]
    #: what the skill's awk one-liner counts for this report
    awk_count: int
    #: the header's ``loop:`` field as written (count mode's ``N of M``), ``None`` when it has none
    loop: Optional[str] = None

    @property
    def count(self) -> int:
        """Header through last content line, the skill's prose definition."""
        return 1 + len(self.body)

    @property
    def last_line(self) -> int:
        """The 1-based line number of its last content line (its header when it has no body)."""
        return self.start + len(self.body)

    @property
    def lines(self) -> tuple[str, ...]:
        """Its counted lines, header first: what ``line N below`` refers to (``lines[N - 1]``)."""
        return (self.header, *self.body)

    @property
    def name(self) -> str:
        """How messages name it: ``Report #3``, ``the FINAL REPORT``, or by its line when its number is lost."""
        if self.kind == "final":
            return "the FINAL REPORT"
        return f"Report #{self.number}" if self.number is not None else f"the report at line {self.start}"

    @property
    def located(self) -> str:
        """Its name with its line, once: ``Report #3 (line 8)``, ``the FINAL REPORT (line 1)``, ``the report at
        line 12``."""
        return self.name if self.kind == "report" and self.number is None else f"{self.name} (line {self.start})"


@dataclass(frozen=True)
class WorkLog:
    """A whole work log: its path as shown, its lines, what stands before the first header, its reports."""

    path: str
    lines: tuple[str, ...]
    #: lines before the first header (the protocol reads line 1 as a header: anything here is a problem)
    preamble: tuple[str, ...]
    reports: tuple[Report, ...]
    #: what the checks compute once per log and share (the correction reports): the log never changes
    memo: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def numbered(self) -> tuple[Report, ...]:
        """The reports proper, top to bottom: the final block left out."""
        return tuple(r for r in self.reports if r.kind == "report")

    def below(self, report: Report, steps: int) -> Optional[Report]:
        """The report ``steps`` places below ``report`` (``1-report-below``), or ``None`` past the bottom."""
        place = report.index + steps
        return self.reports[place] if 0 < steps and place < len(self.reports) else None


def header_text(number: int, lines: int, elapsed: str, kind: str, loop: Optional[tuple[int, int]] = None) -> str:
    """A report header in the skill's exact form; ``loop`` (N, M) adds count mode's ``| loop: N of M``."""
    field = f" | loop: {loop[0]} of {loop[1]}" if loop is not None else ""
    return f"=== Report #{number} | lines: {lines} | elapsed: {elapsed} | type: {kind}{field} ==="


def _header_fields(line: str) -> dict[str, object]:
    """What a header line says, as far as it can be read, and why it is not in its form."""
    text = line.rstrip("\r")
    final = _FINAL.match(text)
    if final:
        return {"kind": "final", "malformed": None, "elapsed": final["elapsed"], "loops": _number(final["loops"])}
    strict = _REPORT.match(text)
    if strict:
        return {"kind": "report", "malformed": None, "number": _number(strict["number"]),
                "declared": _number(strict["lines"]), "elapsed": strict["elapsed"], "type": strict["type"],
                "loop": strict["loop"]}
    if _FINAL_CANDIDATE.match(text):
        return {"kind": "final", "malformed": f"a final block's header reads '{FINAL_FORM}'"}
    number, lines = _LOOSE_NUMBER.search(text), _LOOSE_LINES.search(text)
    return {"kind": "report", "malformed": f"a report header reads '{HEADER_FORM}' (in count mode '{COUNT_FORM}')",
            "number": _number(number[1]) if number else None, "declared": _number(lines[1]) if lines else None}


def _awk_count(lines: Sequence[str]) -> int:
    """The skill's one-liner's count of a report's lines (header included): every line but the empty ones and
    those that start with ``---``; a carriage return or a space makes a line count."""
    return sum(1 for i, line in enumerate(lines) if i == 0 or not (line == "" or line.startswith("---")))


_NO_FIELDS = {"malformed": None, "number": None, "declared": None, "elapsed": None, "type": None, "loops": None,
              "loop": None}


def _last_content(region: Sequence[str]) -> int:
    """The place in ``region`` of its last line that is neither blank nor a separator (0: the header)."""
    return max((i for i, line in enumerate(region) if i and not (is_blank(line) or is_separator(line))), default=0)


def _report(index: int, start: int, region: Sequence[str]) -> Report:
    """The report whose header is ``region[0]`` (line ``start``) and whose lines run to the next header."""
    lines = [line.rstrip("\r") for line in region]
    last = _last_content(region)
    fields = {**_NO_FIELDS, **_header_fields(region[0])}
    return Report(index=index, start=start, header=lines[0], body=tuple(lines[1:last + 1]),
                  tail=tuple(lines[last + 1:]), awk_count=_awk_count(region), **fields)  # type: ignore[arg-type]


def _split_lines(text: str) -> list[str]:
    """The lines of ``text``, split on LF (a CR before it kept); the newline that ends the last line opens no
    line of its own."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_text(text: str, path: str = "work-log.md") -> WorkLog:
    """The work log in ``text`` (a CR before a line's LF is kept for the awk count only)."""
    lines = _split_lines(text)
    starts = [i for i, line in enumerate(lines) if is_header(line)] + [len(lines)]
    reports = tuple(_report(n, a + 1, lines[a:b]) for n, (a, b) in enumerate(zip(starts, starts[1:])))
    preamble = lines[: starts[0]]  # as written: a CR counts for the awk one-liner
    return WorkLog(path, tuple(line.rstrip("\r") for line in lines), tuple(preamble), reports)


def _not_readable(status: os.stat_result) -> Optional[str]:
    """Why a file of ``status`` is not read as a work log: not a regular file (a FIFO would block the read for
    ever, a device never end), or too large to read whole."""
    if stat.S_ISDIR(status.st_mode):
        return "is a directory, not a work log file"
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file (a FIFO, a device or a socket); a work log is a regular file"
    return _TOO_BIG if status.st_size > MAX_BYTES else None


def _checked(name: str, status: os.stat_result) -> None:
    why = _not_readable(status)
    if why:
        raise WorkLogError(name, why)


def _read_regular(file: Path, name: str) -> bytes:
    """The bytes of ``file`` (symlinks followed), read only when it is a regular file of at most ``MAX_BYTES``:
    looked at before it is opened, and the file opened looked at again (it may have been replaced)."""
    _checked(name, os.stat(file))
    with os.fdopen(os.open(file, _OPEN_FLAGS), "rb") as stream:
        _checked(name, os.fstat(stream.fileno()))
        data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise WorkLogError(name, _TOO_BIG)
    return data


def read_bytes(file: Path, name: str) -> bytes:
    """The bytes of the work log ``file`` (``name``: as messages name it), for the lint and the writer alike: only
    a regular file is read (a FIFO, a device or a socket is refused, never waited on), and one of at most 64 MiB;
    one that cannot be read raises :class:`WorkLogError` naming it and the reason."""
    try:
        return _read_regular(file, name)
    except FileNotFoundError:
        raise WorkLogError(name, "no such file (a work log is a Markdown file of reports, newest on top)") from None
    except IsADirectoryError:
        raise WorkLogError(name, "is a directory, not a work log file") from None
    except OSError as exc:
        raise WorkLogError(name, f"cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:  # a path with a NUL byte in it
        raise WorkLogError(name, f"cannot be read ({exc})") from None


def read_log(file: Path, shown: Optional[str] = None) -> WorkLog:
    """Read (:func:`read_bytes`) and parse ``file``; ``shown`` is its path as messages name it; a byte that is not
    UTF-8 is a :class:`WorkLogError` by its offset and line."""
    name = shown or file.as_posix()
    return parse_text(decode(read_bytes(file, name), name), name)


def decode(data: bytes, name: str) -> str:
    """UTF-8 (a byte-order mark dropped); anything else is a :class:`WorkLogError` naming where."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise WorkLogError(name, f"not UTF-8 (byte {exc.start} is 0x{data[exc.start]:02x}); a work log is UTF-8 "
                           "text", line) from None
