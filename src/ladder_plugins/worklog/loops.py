"""What the skill counts as a loop, and count mode's ``loop: N of M`` in every report header (its §5).

A *loop report* is what one turn of the skill's feedback loop (§4.1: DIAGNOSE, PROPOSE,
TEST, UPDATE, META-ASSESS) writes in its step 4: a numbered report that is neither
Report #0 (the start contract) nor a correction report, and that is typed ``feedback``
or records at least two of the loop's steps (body lines opening with ``DIAGNOSE:``,
``PROPOSE:``, ``TEST:``, ``UPDATE:``, ``META:``). The skill lets a loop write a report of
any of its three types, so a loop typed ``synthesis`` is one; the initial pass's
synthesis (§9 D) and a milestone, which record no loop, are not. ``loops:`` and
``total_feedback_loops`` of a FINAL REPORT count these (:mod:`.final`), and so does the
gate's execution boundary.

In count mode (the contract sets ``min_required_loops`` and leaves
``min_required_minutes`` null) every report header ends in ``| loop: N of M``: M the
contract's ``min_required_loops``, N the loop reports at and below it (Report #0 and the
initial pass say ``0 of M``; a loop report its own place; any other report the loops
done so far). The field is allowed in the other modes and then checked the same way.
Its problems are header problems (``worklog_header``).
"""

from __future__ import annotations

import re
from typing import Optional

from .contract import termination
from .model import Problem, problem
from .parse import Report, WorkLog
from .references import is_correction

__all__ = ["STEPS", "is_loop", "loop_reports", "loops_at", "loop_numbers", "check_loops"]

#: the loop's steps as a report records them (the skill's §4.1 and its example report)
STEPS = ("DIAGNOSE", "PROPOSE", "TEST", "UPDATE", "META")
# linear: one optional run of markup, then a word of letters and hyphens, then the colon
_STEP = re.compile(r"^[ \t>*_-]*(?P<step>[A-Z][A-Z-]*)[*_]*:")
_LOOP = re.compile(r"^(?P<n>[0-9]{1,9}) of (?P<m>[0-9]{1,9})$")
_LOOP_STEPS = 2


def _steps(report: Report) -> set[str]:
    found = set()
    for text in report.body:
        match = _STEP.match(text)
        step = match["step"].split("-")[0] if match else ""
        if step in STEPS:
            found.add(step)
    return found


def is_loop(report: Report) -> bool:
    """Whether ``report`` is a loop report (see the module's account)."""
    if report.kind != "report" or report.number == 0 or is_correction(report):
        return False
    return report.type == "feedback" or len(_steps(report)) >= _LOOP_STEPS


def loop_reports(log: WorkLog) -> list[Report]:
    """The loop reports of the whole log, every session's, top to bottom."""
    return [r for r in log.reports if is_loop(r)]


def loops_at(log: WorkLog, report: Report) -> int:
    """The loop reports at and below ``report``: the N its ``loop: N of M`` says."""
    return _loops_below(log)[report.index]


def loop_numbers(text: Optional[str]) -> Optional[tuple[int, int]]:
    """``N of M`` as (N, M), or ``None`` when it is not in that form."""
    match = _LOOP.match((text or "").strip())
    return (int(match["n"]), int(match["m"])) if match else None


def _expected(done: int, loops: Optional[int]) -> str:
    return f"{done} of {loops if loops is not None else 'M'}"


def _loops_below(log: WorkLog) -> dict[int, int]:
    """:func:`loops_at` of every report, by its index, counted in one pass from the bottom (a log of thousands
    of reports is checked in linear time)."""
    found, done = {}, 0
    for report in reversed(log.reports):
        done += is_loop(report)
        found[report.index] = done
    return found


def _loop_problem(report: Report, loops: Optional[int], done: int) -> Optional[str]:
    """What is wrong with ``report``'s loop field, or ``None``; ``done`` is the loop reports at and below it."""
    where = f"line {report.start}: {report.name}"
    expected = _expected(done, loops)
    numbers = loop_numbers(report.loop)
    if numbers is None:
        return f"{where} has loop: {report.loop!r}; expected 'N of M', here '{expected}'"
    said = f"{where} says loop: {numbers[0]} of {numbers[1]}"
    if numbers[0] != done:
        return (f"{said}, but it is loop {expected}: {done} loop report{'' if done == 1 else 's'} at and below it "
                "(typed feedback or recording two of DIAGNOSE, PROPOSE, TEST, UPDATE, META; not Report #0 nor a "
                "correction)")
    if loops is not None and numbers[1] != loops:
        return f"{said}, but the start contract has min_required_loops: {loops}; expected '{expected}'"
    return None


def check_loops(log: WorkLog) -> list[Problem]:
    """In count mode, a numbered report whose header has no ``loop: N of M``; in any mode, a loop field that is
    not in its form, whose N is not the loops at and below it, or whose M is not the contract's."""
    terms = termination(log)
    count = terms is not None and terms.mode == "count"
    loops = terms.loops if terms is not None else None
    found = []
    below = _loops_below(log)
    for report in log.numbered:
        if report.malformed is not None:
            continue  # the header problem says what it should read
        if report.loop is None and count:
            found.append(problem("worklog_header", log.path, report.start,
                                 f"line {report.start}: count mode (the start contract sets min_required_loops: "
                                 f"{loops} and no minutes), so every report header logs its loop (the skill's §5): "
                                 f"expected '| loop: {_expected(below[report.index], loops)}' before ' ==='"))
        elif report.loop is not None:
            why = _loop_problem(report, loops, below[report.index])
            if why:
                found.append(problem("worklog_header", log.path, report.start, why))
    return found
