"""``ladder worklog read``: the newest reports, read by their headers as the skill's protocol reads them.

The protocol reads line 1, takes ``lines: L`` from it, reads L lines, then the next
header after the separator, and so on. A count that is wrong makes it cut a report
short or read into the next one, so a header whose count is wrong (and that no
correction report acknowledges) stops the reading with an error that says so; what
was read before it is still printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .parse import Report, WorkLog

__all__ = ["Reading", "read_reports"]


@dataclass(frozen=True)
class Reading:
    """The reports read, as text (separated by ``---``), and why the reading stopped early, if it did."""

    text: str
    problem: Optional[str] = None


def read_reports(log: WorkLog, count: int) -> Reading:
    """The newest ``count`` reports of ``log`` (the final block counts as one), stopped at a header the protocol
    cannot trust."""
    from .lint import unacknowledged_mismatches

    wrong = {r.index for r in unacknowledged_mismatches(log)}
    if log.preamble and log.reports:
        return Reading("", f"{log.path}:1: line 1 is not a report header, so the protocol cannot start; "
                           "ladder worklog check says what is there")
    shown: list[str] = []
    for report in log.reports[:count]:
        stop = _untrusted(log, report, wrong)
        if stop:
            return Reading(_joined(shown), stop)
        shown.append("\n".join(report.lines))
    return Reading(_joined(shown))


def _untrusted(log: WorkLog, report: Report, wrong: set[int]) -> Optional[str]:
    where = f"{log.path}:{report.start}"
    if report.malformed:
        return f"{where}: {report.name}'s header cannot be read ({report.malformed})"
    if report.kind == "report" and report.declared is None:
        return f"{where}: {report.name}'s count cannot be read (more than 9 digits), so its end is not known"
    if report.index in wrong:
        return (f"{where}: {report.name} declares lines: {report.declared}, but has {report.count}; reading by "
                "its header would go wrong here. Run 'ladder worklog correct' to write a correction report")
    return None


def _joined(reports: list[str]) -> str:
    return "\n---\n".join(reports) + ("\n" if reports else "")
