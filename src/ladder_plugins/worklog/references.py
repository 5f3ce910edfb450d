"""References inside report bodies: relative ones resolve, absolute ones are errors, corrections are exact.

A *relative reference* is ``K-report-below`` or ``K-reports-below`` (either number,
any case), optionally followed by ``line N below`` (a comma between them or not): the
K-th report under this one, counted by place (not by number; a FINAL REPORT is a place),
and its N-th line, the header being line 1 (the skill's §2.4). Messages give K and N as
written, however many digits they have. An *absolute reference* is ``Report #N`` or
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

from ..catalogue import plural
from .model import Problem, problem
from .parse import Report, WorkLog

__all__ = ["Correction", "Reference", "relative_references", "corrections", "acknowledged", "is_correction",
           "check_references", "correction_line", "relative_for"]

# Linear by construction: no two adjacent quantifiers take the same character (the spaces before an optional
# comma are one run, those after it another, the comma between them), and numbers are [0-9], never \d.
_RELATIVE = re.compile(
    r"\b(?P<steps>[0-9]+)-reports?-below\b(?:\s*(?:,\s*)?line\s+(?P<line>[0-9]+)\s+below\b)?", re.I)
_ABSOLUTE = re.compile(r"\bReport\s*#\s*[0-9]+|\bR#[0-9]+", re.I)
_DIGITS = re.compile(r"[0-9]+")
_OPENS = re.compile(r"^\s*CORRECTION:")
_CORRECTION = re.compile(
    r"^\s*CORRECTION:\s*(?P<steps>[0-9]+)-reports?-below\s+header\s+declares\s+lines:\s*(?P<declared>[0-9]+),"
    r"\s*actual\s+is\s+(?P<actual>[0-9]+)\.?\s*$")
_FORM = "'CORRECTION: K-reports-below header declares lines: X, actual is Y.'"
#: beyond this many digits a number in a reference is no place in any log (and int() of it is costly)
_MAX_DIGITS = 9
_HUGE = 10 ** _MAX_DIGITS
#: a number as written is shown whole up to this many digits, then cut
_SHOWN_DIGITS = 30


def _number(text: Optional[str]) -> Optional[int]:
    """The number, for looking a report or a line up: one of more digits than any log reaches is ``_HUGE``
    (messages show it as written, :func:`_written`)."""
    return None if text is None else (int(text) if len(text) <= _MAX_DIGITS else _HUGE)


def _written(text: str) -> str:
    """A number as written (its leading zeros dropped), cut when it is longer than any message needs."""
    digits = text.lstrip("0") or "0"
    return digits if len(digits) <= _SHOWN_DIGITS else f"{digits[:_SHOWN_DIGITS]}… ({len(digits)} digits)"


def _cut(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _body(report: Report) -> Iterator[tuple[int, str]]:
    """The body's lines with their line numbers in the file."""
    for offset, text in enumerate(report.body):
        yield report.start + 1 + offset, text


def _ordinal(text: str) -> str:
    """``1st``, ``12th``, ``99999999999th``: the number as written, however long."""
    digits = text.lstrip("0") or "0"
    suffix = "th" if digits[-2:-1] == "1" else {"1": "st", "2": "nd", "3": "rd"}.get(digits[-1], "th")
    if len(digits) <= _SHOWN_DIGITS:
        return digits + suffix
    return f"{digits[:_SHOWN_DIGITS]}…{suffix} ({len(digits)} digits)"


def _below(log: WorkLog, report: Report) -> int:
    return len(log.reports) - report.index - 1


def _standing(count: int) -> str:
    """``no report stands``, ``1 report stands``, ``2 reports stand``."""
    return "no report stands" if count == 0 else f"{plural(count, 'report')} {'stands' if count == 1 else 'stand'}"


def is_correction(report: Report) -> bool:
    """Whether ``report`` is a correction report (a body line opens with ``CORRECTION:``)."""
    return any(_OPENS.match(text) for text in report.body)


def correction_line(steps: int, declared: int, actual: int) -> str:
    """The skill's correction line (the form the writer writes and this module reads)."""
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
    #: K and N as written (the numbers above are clamped past 9 digits, for looking them up)
    written: tuple[str, Optional[str]] = ("", None)


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
                                       log.below(report, steps), (match["steps"], match["line"])))
    return found


def _unresolved(log: WorkLog, ref: Reference) -> Optional[str]:
    """Why ``ref`` names no report and line, or ``None`` when it does."""
    where = f"line {ref.line}: '{_cut(ref.text)}' in {ref.report.name}"
    steps, line = ref.written
    if ref.steps < 1:
        return f"{where} names no report below: K counts from 1 (1-report-below is the report under this one)"
    if ref.target is None:
        below = _below(log, ref.report)
        return (f"{where} names the {_ordinal(steps)} report below it, but {'only ' if below else ''}"
                f"{_standing(below)} below it")
    if ref.target_line is not None and not 1 <= ref.target_line <= ref.target.count:
        return (f"{where} names line {_written(line or '0')} of {ref.target.located}, which has "
                f"{plural(ref.target.count, 'line')}, its header being line 1")
    return None


def _relative(log: WorkLog) -> list[Problem]:
    found = []
    for ref in relative_references(log):
        why = _unresolved(log, ref)
        if why:
            found.append(problem("worklog_reference", log.path, ref.line, why))
    return found


def relative_for(log: WorkLog, report: Report, number: Optional[int]) -> str:
    """How ``report``'s body names the report numbered ``number`` relatively, counted by place (a FINAL REPORT is
    one), or why it cannot: ``: '2-reports-below' (...)``."""
    if number is not None and number == report.number:
        return f"; Report #{number} is this report itself: a body names only reports below it, relatively"
    target = next((r for r in log.reports[report.index + 1:] if r.kind == "report" and r.number == number), None)
    if target is None:
        return (f"; no Report #{number} stands below {report.name}: a body names only reports below it, relatively "
                "('K-reports-below, line N below')")
    steps = target.index - report.index
    return (f"; inside a body name it relatively: '{steps}-{'report' if steps == 1 else 'reports'}-below' "
            f"({target.name} is the {_ordinal(str(steps))} report below; add ', line N below' for its N-th line)")


def _absolute(log: WorkLog) -> list[Problem]:
    found = []
    for report in log.reports:
        if is_correction(report):
            continue
        for line, text in _body(report):
            found += [problem("worklog_absolute_reference", log.path, line,
                              f"line {line}: '{_cut(match[0])}' in {report.name} names a report absolutely"
                              f"{relative_for(log, report, _number(_DIGITS.findall(match[0])[-1]))}, which survives "
                              "reports added on top") for match in _ABSOLUTE.finditer(text)]
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
        return (f"names its report absolutely ('{_cut(absolute[0])}'); a correction names it relatively: "
                f"{_FORM}")
    return f"does not read {_FORM}"


def _target(log: WorkLog, report: Report, steps: int, written: str) -> tuple[Optional[Report], Optional[str]]:
    target = log.below(report, steps)
    if target is None:
        return None, (f"names the {_ordinal(written)} report below, but {_standing(_below(log, report))} below "
                      f"{report.name}" if steps >= 1 else "names no report below (K counts from 1)")
    if target.kind != "report" or target.declared is None:
        return None, f"names {target.located}, whose header has no 'lines:' count to correct"
    return target, None


def _numbers(target: Report, steps: int, match: re.Match[str]) -> Optional[str]:
    real = f"{target.name} ({steps} below, line {target.start}) declares lines: {target.declared} and has " \
           f"{plural(target.count, 'line')}"
    declared, actual = _number(match["declared"]), _number(match["actual"])
    if (declared, actual) != (target.declared, target.count):
        return f"says declares lines: {_written(match['declared'])}, actual is {_written(match['actual'])}, but " \
               f"{real}; the line would read " + repr(correction_line(steps, target.declared or 0, target.count))
    if target.declared == target.count:
        return f"has nothing to correct: {real}"
    return None


def _correction(log: WorkLog, report: Report, line: int, text: str) -> Correction:
    match = _CORRECTION.match(text)
    if not match:
        return Correction(report, line, None, None, None, _form(text))
    steps, declared, actual = (_number(match[name]) or 0 for name in ("steps", "declared", "actual"))
    target, wrong = _target(log, report, steps, match["steps"])
    if target is not None:
        wrong = _numbers(target, steps, match)
    return Correction(report, line, target, declared, actual, wrong)


def corrections(log: WorkLog) -> list[Correction]:
    """Every ``CORRECTION:`` line of ``log``, read and judged, in file order (once per log: three checks ask)."""
    if "corrections" not in log.memo:
        log.memo["corrections"] = [_correction(log, report, line, text)
                                   for report in log.reports for line, text in _body(report) if _OPENS.match(text)]
    corrections: list[Correction] = log.memo["corrections"]
    return corrections


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
