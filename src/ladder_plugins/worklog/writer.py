"""Reports written so their headers are right by construction: ``ladder worklog add`` and ``correct``.

A report goes on top with its number (one more than the top report's), its count
(computed from the body, never typed by hand), its elapsed time and one ``---`` under
it. The log is read, changed and replaced whole (a temporary file renamed over it)
while a lock is held, so agents writing at once each see the other's report and
lose none. Old reports are never edited: a wrong count is corrected by a new report
on top that names it relatively, as the skill requires.

A report written here is right by the skill's prose count and by its awk one-liner
alike: an interior blank line of the body is written as a line holding one space (blank
to the prose, to Markdown and to the start contract's key block, yet no empty line for
the one-liner, which then counts it too), and a body line starting with ``---`` (which
the one-liner skips) is refused. In count mode each header gets its ``loop: N of M``
(:mod:`.loops`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, time
from pathlib import Path
from typing import Optional, Sequence

from ..errors import LadderError
from ..ladderdir.atomic import write_atomic
from ..ladderdir.lock import held
from .parse import (REPORT_TYPES, Report, WorkLog, decode, header_text, is_blank, is_header, is_separator, parse_text,
                    read_bytes)

__all__ = ["Written", "LogFile", "Timing", "add_report", "correct_log", "elapsed_since", "parse_elapsed",
           "correction_body", "prepared_body"]

#: ASCII digits only: ``str.isdigit`` also takes ``²`` and ``٠``, which the header's form does not
_ELAPSED = re.compile(r"[0-9]{1,9}:[0-5][0-9]")  # once padded, what parse.elapsed_seconds reads
_CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
_CANDIDATE_HINT = "a line that opens with '===' and names a report would start a report of its own"
_LOOP_GIVEN = re.compile(r"([0-9]{1,9})(?:\s*(?:of|/)\s*([0-9]{1,9}))?")
#: what an interior blank line of a body is written as: blank to the prose count, counted by the awk one-liner
BLANK = " "


@dataclass(frozen=True)
class Written:
    """A report written: its number, its count and its elapsed time."""

    number: int
    lines: int
    elapsed: str


@dataclass(frozen=True)
class LogFile:
    """The work log a writer changes: where it is, how messages name it, the lock writers take turns by."""

    path: Path
    shown: str
    lock: Path


@dataclass(frozen=True)
class Timing:
    """How a report's elapsed time is found: given (``MM:SS``), or counted to ``now`` from a start."""

    now: datetime
    elapsed: Optional[str] = None
    #: ``HH:MM`` of the system clock the loop started at (``--start``); else the start contract's
    start: Optional[str] = None


def parse_elapsed(text: str) -> str:
    """``MM:SS`` as the header writes it (minutes two digits at least, seconds 00-59), or a clear error."""
    if not _ELAPSED.fullmatch(text.strip()):
        raise LadderError(f"elapsed {text!r}: expected minutes and seconds as MM:SS, such as 14:30")
    minutes, _, seconds = text.strip().partition(":")
    return f"{int(minutes):02d}:{seconds}"


def _clock(text: str, what: str) -> time:
    match = _CLOCK.fullmatch(text.strip())
    if match is None:
        raise LadderError(f"{what} {text!r}: expected a time of day as HH:MM, such as 09:05")
    return time(int(match[1]), int(match[2]))


def elapsed_since(start: str, now: datetime, *, what: str = "start") -> str:
    """``MM:SS`` from ``start`` (HH:MM of the local clock) to ``now``; a start later in the day than ``now`` was
    the day before's (a loop that ran past midnight). The contract's date is not used: a resumed session's
    loops count from the start of the day's loop, not from days ago."""
    began = _clock(start, what)
    local = now.astimezone()
    seconds = (local - datetime.combine(local.date(), began, tzinfo=local.tzinfo)).total_seconds()
    whole = int(seconds + 24 * 3600 if seconds < 0 else seconds)
    return f"{whole // 60:02d}:{whole % 60:02d}"


def _elapsed(log: WorkLog, timing: Timing, body: Sequence[str] = ()) -> str:
    """The elapsed time ``timing`` gives, else counted from the start contract's ``start_time``: Report #0's,
    or, when ``body`` is Report #0 itself (an empty log), the body's."""
    if timing.elapsed is not None:
        return parse_elapsed(timing.elapsed)
    if timing.start is not None:
        return elapsed_since(timing.start, timing.now, what="--start")
    from .contract import contract_values

    contract = log if log.reports else parse_text("\n".join([header_text(0, 1, "00:00", "milestone"), *body]))
    values = contract_values(contract) or {}
    if values.get("start_time"):
        return elapsed_since(values["start_time"], timing.now, what="Report #0's start_time")
    raise LadderError(f"{log.path}: no Report #0 with a start_time to count the elapsed time from; give "
                      "--elapsed MM:SS or --start HH:MM")


def _trimmed(text: str) -> list[str]:
    """``text`` as lines, line ends made LF, the blank lines around it dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if not is_blank(line)), len(lines))
    last = max((i for i, line in enumerate(lines) if not is_blank(line)), default=-1)
    return lines[first:last + 1]


def prepared_body(text: str) -> list[str]:
    """The report body read from stdin as lines (trailing spaces dropped, an interior blank line written as
    :data:`BLANK`). A body that is empty, holds a header, ends in ``---`` (which reads as the separator) or holds a
    line starting with ``---`` (which the skill's awk one-liner does not count) is refused."""
    lines = _trimmed(text)
    if not lines:
        raise LadderError("the report body is empty: write it to stdin, one line per line of the report")
    header = next((n for n, line in enumerate(lines, 1) if is_header(line)), None)
    if header is not None:
        raise LadderError(f"line {header} of the body, {lines[header - 1][:60]!r}: {_CANDIDATE_HINT}; reword it")
    if is_separator(lines[-1]):
        raise LadderError(f"line {len(lines)} of the body is '---', which reads as the separator under the report;"
                          " end the body with a line of content")
    _refuse_dashes(lines)
    return [line.rstrip() or BLANK for line in lines]


def _refuse_dashes(lines: Sequence[str]) -> None:
    dashed = next((n for n, line in enumerate(lines, 1) if line.startswith("---")), None)
    if dashed is not None:
        raise LadderError(f"line {dashed} of the body starts with '---', {lines[dashed - 1][:60]!r}: the skill's awk "
                          "one-liner does not count such a line (and '---' alone reads as the separator between "
                          "reports); reword it or indent it")


def _top_number(log: WorkLog) -> int:
    """The number the next report takes: one more than the newest numbered report's (a FINAL REPORT on top
    closed a session; a resumed one goes on above it, skill §14). A log whose top cannot take one more is an
    error naming why."""
    if any(not is_blank(line) for line in log.preamble):
        raise LadderError(f"{log.path}:1: the log does not open with a report header, so a report on top would "
                          "take in its first lines; fix line 1 first (ladder worklog check shows it)")
    top = next((r for r in log.reports if r.kind == "report"), None)
    if top is None:
        return 0
    if top.number is None:
        why = top.malformed or "more than 9 digits"
        raise LadderError(f"{log.path}:{top.start}: the newest report's number cannot be read ({why}); fix its "
                          "header first")
    return top.number + 1


class _Log:
    """The work log file as text: read whole, its line ending and byte-order mark kept when written back."""

    def __init__(self, file: Path, shown: str) -> None:
        # through a symlink to the file it names: replacing the link itself would leave its target behind
        self.file, self.shown = Path(os.path.realpath(file)), shown
        data = read_bytes(self.file, shown) if os.path.lexists(self.file) else b""
        self.bom = data.startswith(b"\xef\xbb\xbf")
        self.text = decode(data, shown)
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        self.log = parse_text(self.text, shown)

    def _text(self, reports: Sequence[Sequence[str]]) -> str:
        nl, old = self.newline, self.text
        blocks = [nl.join(lines) for lines in reports]
        rest = old.lstrip("\r\n")
        return (nl + "---" + nl).join(blocks) + nl + ("---" + nl + rest if rest.strip() else "")

    def as_written(self, reports: Sequence[Sequence[str]]) -> WorkLog:
        """The log as :meth:`put_on_top` would leave it."""
        return parse_text(self._text(reports), self.shown)

    def put_on_top(self, reports: Sequence[Sequence[str]]) -> None:
        """Write ``reports`` (each its lines, header first; the first one ends up on top) above the old text."""
        text = self._text(reports)
        data = (b"\xef\xbb\xbf" if self.bom else b"") + text.encode("utf-8")
        self.file.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.file, data)


def _loop_given(text: str, loops: Optional[int]) -> tuple[int, int]:
    """``--loop N`` (M the contract's ``min_required_loops``) or ``--loop 'N of M'`` (or ``N/M``) as (N, M)."""
    match = _LOOP_GIVEN.fullmatch(text.strip())
    if match is None:
        raise LadderError(f"--loop {text!r}: expected N or 'N of M', such as 2 or '2 of 5'")
    if match[2] is None and loops is None:
        raise LadderError(f"--loop {text!r}: no M: the start contract sets no min_required_loops and no header "
                          f"below has a loop field; give it as '{match[1]} of M'")
    return int(match[1]), int(match[2]) if match[2] is not None else int(loops or 0)


def _m_below(log: WorkLog) -> Optional[int]:
    """The M of the newest loop field below the report on top of ``log``."""
    from .loops import loop_numbers

    below = next((n for n in (loop_numbers(r.loop) for r in log.reports[1:]) if n is not None), None)
    return below[1] if below else None


def _loop(log: WorkLog, given: Optional[str]) -> Optional[tuple[int, int]]:
    """The ``loop: N of M`` of the report on top of ``log`` (the log as it will be written): the one given (its M,
    when not given, the contract's, else the newest loop field's below), else, in count mode, the loops at and
    below it of the contract's M; else none."""
    from .contract import termination
    from .loops import loops_at

    terms = termination(log)
    loops = terms.loops if terms is not None else None
    if given is not None:
        return _loop_given(given, loops if loops is not None else _m_below(log))
    if terms is None or terms.mode != "count" or loops is None:
        return None
    return loops_at(log, log.reports[0]), loops


def add_report(target: LogFile, body: str, kind: str, timing: Timing, loop: Optional[str] = None) -> Written:
    """Put one report on top of the log (made if missing): ``body`` under a computed header, then ``---``;
    ``loop`` is ``--loop`` as given (count mode writes the field without it)."""
    if kind not in REPORT_TYPES:
        raise LadderError(f"type {kind!r}: expected one of {', '.join(REPORT_TYPES)}")
    lines = prepared_body(body)
    with held(target.lock, target.shown):
        current = _Log(target.path, target.shown)
        number, elapsed = _top_number(current.log), _elapsed(current.log, timing, lines)
        header = header_text(number, len(lines) + 1, elapsed, kind)
        field = _loop(current.as_written([[header, *lines]]), loop)
        current.put_on_top([[header_text(number, len(lines) + 1, elapsed, kind, field), *lines]])
    return Written(number, len(lines) + 1, elapsed)


def correction_body(steps: int, declared: int, actual: int) -> list[str]:
    """The skill's correction report body, naming the corrected report ``steps`` reports below (its first line
    the form the lint reads, :func:`.references.correction_line`)."""
    from .references import correction_line

    return [correction_line(steps, declared, actual),
            "This report acknowledges the discrepancy. Incremental-read offset adjusted."]


def _corrections(wrong: Sequence[Report], number: int, elapsed: str,
                 loop: Optional[tuple[int, int]] = None) -> list[list[str]]:
    """The correction reports for ``wrong`` (top first), numbered from ``number``: the newest on top, each
    naming its report by its distance once all are written; ``loop`` their ``loop: N of M`` (a correction is
    no loop, so all say the loops done so far)."""
    blocks = []
    for done, report in enumerate(wrong):
        body = correction_body(report.index + done + 1, report.declared or 0, report.count)
        blocks.append([header_text(number + done, len(body) + 1, elapsed, "feedback", loop), *body])
    return blocks[::-1]


def correct_log(target: LogFile, timing: Timing) -> list[Written]:
    """One correction report on top for each wrong count no correction acknowledges yet; none when all are
    right."""
    from .lint import unacknowledged_mismatches

    with held(target.lock, target.shown):
        current = _Log(target.path, target.shown)
        wrong = unacknowledged_mismatches(current.log)
        if not wrong:
            return []
        number, elapsed = _top_number(current.log), _elapsed(current.log, timing)
        blocks = _corrections(wrong, number, elapsed)
        loop = _loop(current.as_written(blocks[:1]), None)
        if loop is not None:
            blocks = _corrections(wrong, number, elapsed, loop)
        current.put_on_top(blocks)
    return [Written(number + done, len(block), elapsed) for done, block in enumerate(blocks[::-1])]
