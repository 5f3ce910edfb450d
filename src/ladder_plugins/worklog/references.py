"""References inside report bodies: relative ones resolve, absolute ones are errors, corrections are exact.

A *relative reference* is ``K-report-below`` or ``K-reports-below`` (either number,
any case), optionally followed by ``line N below`` (a comma between them or not): the
K-th report under this one, counted by place (not by number), and its N-th line, the
header being line 1 (the seed's §2.4). An *absolute reference* is ``Report #N`` or
``R#N`` in a body (headers are exempt). A *correction* is a body line that opens with
``CORRECTION:``; a report holding one is a *correction report*, whose other lines may
name reports absolutely (the line itself may not). A correction that names a real
mismatch with its real numbers acknowledges it: the skill forbids editing old reports,
so that is the fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Optional

from .model import Problem, problem
from .parse import Report, WorkLog

__all__ = ["Correction", "Reference", "relative_references", "corrections", "acknowledged", "is_correction",
           "check_references", "correction_line"]

_RELATIVE = re.compile(r"\b(?P<steps>[0-9]+)-reports?-below\b(?:\s*,?\s*line\s+(?P<line>[0-9]+)\s+below\b)?",
                       re.I)
_ABSOLUTE = re.compile(r"\bReport\s*#\s*[0-9]+|\bR#[0-9]+", re.I)
_OPENS = re.compile(r"^\s*CORRECTION:")
_CORRECTION = re.compile(
    r"^\s*CORRECTION:\s*(?P<steps>[0-9]+)-reports?-below\s+header\s+declares\s+lines:\s*(?P<declared>[0-9]+),"
    r"\s*actual\s+is\s+(?P<actual>[0-9]+)\.?\s*$")
_FORM = "'CORRECTION: K-reports-below header declares lines: X, actual is Y.'"
#: beyond this many digits a number in a reference is no place in any log (and int() of it is costly)
_MAX_DIGITS = 9
_HUGE = 10 ** _MAX_DIGITS


def _number(text: Optional[str]) -> Optional[int]:
    return None if text is None else (int(text) if len(text) <= _MAX_DIGITS else _HUGE)


def _body(report: Report) -> Iterator[tuple[int, str]]:
    """The body's lines with their line numbers in the file."""
    for offset, text in enumerate(report.body):
        yield report.start + 1 + offset, text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _below(log: WorkLog, report: Report) -> int:
    return len(log.reports) - report.index - 1


def is_correction(report: Report) -> bool:
    """Whether ``report`` is a correction report (a body line opens with ``CORRECTION:``)."""
    return any(_OPENS.match(text) for text in report.body)


def correction_line(steps: int, declared: int, actual: int) -> str:
    """The seed's correction line (the form the writer writes and this module reads)."""
    return f"CORRECTION: {steps}-{'report' if steps == 1 else 'reports'}-below header declares lines: " \
           f"{declared}, actual is {actual}."


# --- relative references ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Reference:
    """One relative reference: where it is, what it says, what it names (``None`` past the bottom)."""

    report: Report
    line: int
    text: str
    steps: int
    target_line: Optional[int]
    target: Optional[Report]


def relative_references(log: WorkLog) -> list[Reference]:
    """Every relative reference outside correction lines, in file order."""
    found = []
    for report in log.reports:
        for line, text in _body(report):
            if _OPENS.match(text):
                continue
            for match in _RELATIVE.finditer(text):
                steps = _number(match["steps"]) or 0
                found.append(Reference(report, line, match[0], steps, _number(match["line"]),
                                       log.below(report, steps)))
    return found


def _unresolved(log: WorkLog, ref: Reference) -> Optional[str]:
    """Why ``ref`` names no report and line, or ``None`` when it does."""
    where = f"line {ref.line}: '{ref.text}' in {ref.report.name}"
    if ref.steps < 1:
        return f"{where} names no report below: K counts from 1 (1-report-below is the report under this one)"
    if ref.target is None:
        return (f"{where} names the {_ordinal(ref.steps)} report below it, but only {_below(log, ref.report)} "
                "stand below it")
    if ref.target_line is not None and not 1 <= ref.target_line <= ref.target.count:
        return (f"{where} names line {ref.target_line} of {ref.target.name} (line {ref.target.start}), which has "
                f"{ref.target.count} lines, its header being line 1")
    return None


def _relative(log: WorkLog) -> list[Problem]:
    found = []
    for ref in relative_references(log):
        why = _unresolved(log, ref)
        if why:
            found.append(problem("worklog_reference", log.path, ref.line, why))
    return found


def _absolute(log: WorkLog) -> list[Problem]:
    found = []
    for report in log.reports:
        if is_correction(report):
            continue
        for line, text in _body(report):
            found += [problem("worklog_absolute_reference", log.path, line,
                              f"line {line}: '{match[0]}' in {report.name} names a report absolutely; inside a "
                              "body name it relatively ('2-reports-below, line 4 below'), which survives reports "
                              "added on top") for match in _ABSOLUTE.finditer(text)]
    return found


# --- corrections -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Correction:
    """One ``CORRECTION:`` line: where, what it names and states, and why it is wrong (``None`` when right)."""

    report: Report
    line: int
    target: Optional[Report]
    declared: Optional[int]
    actual: Optional[int]
    wrong: Optional[str]

    @property
    def valid(self) -> bool:
        return self.wrong is None


def _form(text: str) -> str:
    absolute = _ABSOLUTE.search(text)
    if absolute:
        return (f"names its report absolutely ('{absolute[0]}'); a correction names it relatively: "
                f"{_FORM}")
    return f"does not read {_FORM}"


def _target(log: WorkLog, report: Report, steps: int) -> tuple[Optional[Report], Optional[str]]:
    target = log.below(report, steps)
    if target is None:
        below = _below(log, report)
        return None, (f"names the {_ordinal(steps)} report below, but {below} stand below {report.name}"
                      if steps >= 1 else "names no report below (K counts from 1)")
    if target.kind != "report" or target.declared is None:
        return None, f"names {target.name} (line {target.start}), whose header has no 'lines:' count to correct"
    return target, None


def _numbers(target: Report, steps: int, declared: int, actual: int) -> Optional[str]:
    real = f"{target.name} ({steps} below, line {target.start}) declares lines: {target.declared} and has " \
           f"{target.count} lines"
    if (declared, actual) != (target.declared, target.count):
        return f"says declares lines: {declared}, actual is {actual}, but {real}; the line would read " + \
               repr(correction_line(steps, target.declared or 0, target.count))
    if target.declared == target.count:
        return f"has nothing to correct: {real}"
    return None


def _correction(log: WorkLog, report: Report, line: int, text: str) -> Correction:
    match = _CORRECTION.match(text)
    if not match:
        return Correction(report, line, None, None, None, _form(text))
    steps, declared, actual = (_number(match[name]) or 0 for name in ("steps", "declared", "actual"))
    target, wrong = _target(log, report, steps)
    if target is not None:
        wrong = _numbers(target, steps, declared, actual)
    return Correction(report, line, target, declared, actual, wrong)


def corrections(log: WorkLog) -> list[Correction]:
    """Every ``CORRECTION:`` line of ``log``, read and judged, in file order."""
    return [_correction(log, report, line, text)
            for report in log.reports for line, text in _body(report) if _OPENS.match(text)]


def acknowledged(log: WorkLog) -> dict[int, Correction]:
    """The reports (by place) whose wrong count a valid correction above acknowledges, with the nearest one."""
    found: dict[int, Correction] = {}
    for correction in reversed(corrections(log)):
        if correction.valid and correction.target is not None:
            found[correction.target.index] = correction
    return found


def _corrections(log: WorkLog) -> list[Problem]:
    return [problem("worklog_correction", log.path, c.line, f"line {c.line}: the CORRECTION in {c.report.name} "
                    f"{c.wrong}") for c in corrections(log) if c.wrong]


def check_references(log: WorkLog) -> list[Problem]:
    """Unresolved relative references, absolute references and wrong corrections."""
    return [*_relative(log), *_absolute(log), *_corrections(log)]
