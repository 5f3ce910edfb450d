"""The work-log lint: every check of a parsed log, as problems (errors) and notes (explanations).

Run here: nothing before the first header, each header in its form, ``elapsed`` and
``type`` of their forms, numbers strictly decreasing downwards (no gaps unless
allowed; they go on across FINAL REPORTs, each of which closes a session), one ``---``
between reports and none after the last, and ``lines:`` equal to the prose count.
``contract``, ``references`` and ``final`` add theirs; with ``final=True`` the FAIL gate
comes last, as it reads what the others found.

Notes say where the skill's awk one-liner would disagree (it counts other lines, see
``parse``) and which mismatches a correction report acknowledges, so that a user who
runs the one-liner is not surprised. :func:`awk_verdicts` emulates the one-liner
exactly; the tests hold it against real gawk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional

from .contract import check_contract, suggestion
from .decisions import GateKb, decision_notes, gate_kb, kb_items
from .final import check_final, check_gate
from .loops import check_loops
from ..catalogue import plural
from .model import Problem, ordered, problem
from .parse import (HEADER_FORM, REPORT_TYPES, Report, WorkLog, WorkLogError, elapsed_seconds, is_blank, is_separator,
                    read_log)
from .references import Correction, acknowledged, check_references

__all__ = ["LintResult", "check_log", "check_file", "unacknowledged_mismatches", "AwkVerdict", "awk_verdicts",
           "awk_output"]

_AWK_HEADER = re.compile(r"^=== Report")
_AWK_LINES = re.compile(r"lines: ([0-9]+)")
_ONE_LINER = "the skill's awk one-liner"


@dataclass(frozen=True)
class LintResult:
    """What the lint found: problems (the check fails on any) and notes (explanations, never a failure)."""

    problems: tuple[Problem, ...]
    notes: tuple[Problem, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.problems


def _shown(text: str, width: int = 70) -> str:
    """``text`` quoted for a message, cut at ``width`` (its spaces kept: they may be the problem)."""
    return repr(text if len(text) <= width else text[: width - 1] + "…")


# --- the structure ---------------------------------------------------------------------------------------------

def _preamble(log: WorkLog) -> list[Problem]:
    if not log.reports:
        content = [n for n, text in enumerate(log.preamble, 1) if not is_blank(text)]
        return [problem("worklog_header", log.path, content[0], f"line {content[0]}: the log has no report header; "
                        f"a work log opens with '{HEADER_FORM}' at line 1")] if content else []
    if not log.preamble:
        return []
    first = log.reports[0].start
    return [problem("worklog_header", log.path, 1,
                    f"{'lines 1-' + str(first - 1) + ' stand' if first > 2 else 'line 1 stands'} before the first "
                    f"header (line {first}); the protocol reads line 1 as the newest report's header, so nothing "
                    "precedes it")]


def _header(path: str, report: Report) -> list[Problem]:
    if report.malformed:
        return [problem("worklog_header", path, report.start,
                        f"line {report.start}, {_shown(report.header)}: {report.malformed}")]
    if report.kind == "report" and (report.number is None or report.declared is None):
        return [problem("worklog_header", path, report.start,
                        f"line {report.start}, {_shown(report.header)}: a report number or count of more than 9 "
                        "digits, which no log reaches (a typo?)")]
    return []


def _elapsed(path: str, report: Report) -> list[Problem]:
    if report.elapsed is None or elapsed_seconds(report.elapsed) is not None:
        return []
    return [problem("worklog_elapsed", path, report.start,
                    f"line {report.start}: elapsed: {_shown(report.elapsed, 20)} in {report.name}: expected MM:SS, "
                    "the minutes two digits or more, the seconds 00 to 59 (such as 05:07)")]


def _type(path: str, report: Report) -> list[Problem]:
    if report.kind != "report" or report.type is None or report.type in REPORT_TYPES:
        return []
    return [problem("worklog_type", path, report.start,
                    f"line {report.start}: type: {_shown(report.type, 30)} in {report.name}: expected feedback, "
                    f"milestone or synthesis{suggestion(report.type, REPORT_TYPES)}")]


def _where(above: Report, below: Report, between: tuple[Report, ...]) -> str:
    """Where ``below`` stands against ``above``, the next numbered report over it, and what stands between."""
    if not between:
        return f"line {below.start}: Report #{below.number} stands right below Report #{above.number} (line " \
               f"{above.start})"
    names = ", ".join(r.located for r in between[:3]) + (f" and {len(between) - 3} more" if len(between) > 3 else "")
    return (f"line {below.start}: Report #{below.number} is the next numbered report below Report #{above.number} "
            f"(line {above.start}); {names} {'stands' if len(between) == 1 else 'stand'} between them")


def _gap(a: int, b: int, unread: int) -> str:
    missing = f"#{b + 1}" if a - b == 2 else f"#{a - 1} to #{b + 1}"
    unknown = (f" ({plural(unread, 'report')} between them without a readable number cannot carry all of them)"
               if unread else "")
    return f"{missing} missing{unknown}; numbers decrease by one (unless gaps are allowed)"


def _step(log: WorkLog, above: Report, below: Report, allow_gaps: bool) -> Optional[str]:
    """Why ``below`` cannot be the next numbered report under ``above``, or ``None``. A FINAL REPORT between
    them takes no number; a report between them whose number cannot be read may carry a missing one."""
    a, b = above.number or 0, below.number or 0
    between = log.reports[above.index + 1: below.index]
    where = _where(above, below, between)
    if b == a:
        return f"{where}: the same number twice; each report has its own"
    if b > a:
        return f"{where}; reports stack newest on top, so numbers decrease downwards"
    unread = sum(1 for r in between if r.kind == "report")
    if a - b - 1 > unread and not allow_gaps:
        return f"{where}: {_gap(a, b, unread)}"
    return None


def _order(log: WorkLog, allow_gaps: bool) -> list[Problem]:
    """Each numbered report against the next numbered one below it, whatever stands between (FINAL REPORTs,
    reports whose number cannot be read): numbers go on across FINAL REPORTs."""
    numbered = [r for r in log.numbered if r.number is not None]
    found = []
    for above, below in zip(numbered, numbered[1:]):
        why = _step(log, above, below, allow_gaps)
        if why:
            found.append(problem("worklog_order", log.path, below.start, why))
    return found


def _separators(log: WorkLog, report: Report) -> list[Problem]:
    lines = [report.last_line + 1 + i for i, text in enumerate(report.tail) if is_separator(text)]
    if report.index == len(log.reports) - 1:
        return [problem("worklog_separator", log.path, line, f"line {line}: '---' after the last report "
                        f"({report.name}); the separator stands only between two reports") for line in lines]
    below = log.reports[report.index + 1]
    if not lines:
        return [problem("worklog_separator", log.path, below.start,
                        f"line {below.start}: no '---' line between {report.located} and {below.located}; exactly "
                        "one separates two reports (a FINAL REPORT too)")]
    return [problem("worklog_separator", log.path, line, f"line {line}: a second '---' between {report.name} and "
                    f"{below.name} (the first at line {lines[0]}); exactly one separates two reports")
            for line in lines[1:]]


def _structure(log: WorkLog, allow_gaps: bool) -> list[Problem]:
    found = [*_preamble(log), *_order(log, allow_gaps)]
    for report in log.reports:
        found += [*_header(log.path, report), *_elapsed(log.path, report), *_type(log.path, report),
                  *_separators(log, report)]
    return found


# --- the awk one-liner -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AwkVerdict:
    """One stretch the skill's awk one-liner counts as a report: from a line that starts with ``=== Report``
    (``start``; ``None`` for the lines above the first one) to the next such line."""

    start: Optional[int]
    #: the digits it reads after ``lines: `` in the header, ``None`` when there are none
    declared: Optional[str]
    actual: int
    #: our reports it counts into this stretch, their headers not starting with ``=== Report``
    merged: tuple[Report, ...] = ()

    @property
    def mismatch(self) -> bool:
        """Whether it prints a MISMATCH line for this stretch (it compares the numbers as numbers)."""
        if self.start is None:
            return self.actual != 0
        return self.declared is None or (self.declared.lstrip("0") or "0") != str(self.actual)

    def text(self) -> str:
        """The line it prints."""
        start = "" if self.start is None else self.start
        return f"MISMATCH at line {start}: declared={self.declared or ''} actual={self.actual}"


def _awk_lines(lines: tuple[str, ...]) -> int:
    return _how_many(lines, _awk_counts)


def awk_verdicts(log: WorkLog) -> list[AwkVerdict]:
    """What the one-liner counts, stretch by stretch, the lines above its first header first."""
    stretches = [AwkVerdict(None, None, _awk_lines(log.preamble))]
    for report in log.reports:
        if _AWK_HEADER.match(report.header):
            declared = _AWK_LINES.search(report.header)
            stretches.append(AwkVerdict(report.start, declared[1] if declared else None, report.awk_count))
        else:
            last = stretches[-1]
            stretches[-1] = AwkVerdict(last.start, last.declared, last.actual + report.awk_count,
                                       (*last.merged, report))
    return stretches


def awk_output(log: WorkLog) -> list[str]:
    """The lines the one-liner prints for ``log``, in order."""
    return [verdict.text() for verdict in awk_verdicts(log) if verdict.mismatch]


def _empty(text: str) -> bool:
    return text == ""


def _dashed(text: str) -> bool:
    return text.startswith("---")


def _awk_counts(text: str) -> bool:
    return not (_empty(text) or _dashed(text))


def _spaces(text: str) -> bool:
    return bool(text) and not text.strip()


def _indented(text: str) -> bool:
    return is_separator(text) and not _dashed(text)


def _how_many(lines: tuple[str, ...], test: Callable[[str], bool]) -> int:
    return sum(1 for text in lines if test(text))


def _cr_blanks(report: Report) -> tuple[int, int]:
    """How many blank lines of the body and of the tail end in a carriage return (which the one-liner counts).
    The parse keeps only their sum (in ``awk_count``); it goes to the tail first."""
    body_empty, tail_empty = _how_many(report.body, _empty), _how_many(report.tail, _empty)
    without = report.count - body_empty - _how_many(report.body, _dashed) + _how_many(report.tail, _awk_counts)
    cr = max(report.awk_count - without, 0)
    return min(cr - min(cr, tail_empty), body_empty), min(cr, tail_empty)


#: the ways the one-liner's count of a report's own lines differs from the prose count, in the order of
#: :func:`_count_reasons`'s numbers
_REASONS = (("blank line", "it skips {} inside the report"),
            ("line", "it skips {} starting with '---' inside the report"),
            ("line", "it counts {} of only spaces after the last content line"),
            ("indented separator", "it counts {} (' ---')"),
            ("blank line", "it counts {} after the last content line ending in a carriage return (CRLF line "
                           "endings)"))


def _count_reasons(report: Report) -> list[str]:
    """Why the one-liner's count of ``report``'s own lines differs from the prose count."""
    cr_body, cr_tail = _cr_blanks(report)
    counts = (_how_many(report.body, _empty) - cr_body, _how_many(report.body, _dashed),
              _how_many(report.tail, _spaces), _how_many(report.tail, _indented), cr_tail)
    return [form.format(plural(n, word)) for (word, form), n in zip(_REASONS, counts) if n > 0]


def _at(report: Report) -> str:
    """``Report #3 at line 8``, ``the FINAL REPORT at line 1``, ``the report at line 12`` (its line named once)."""
    return report.name if report.kind == "report" and report.number is None else f"{report.name} at line {report.start}"


def _awk_reasons(report: Report, verdict: AwkVerdict) -> str:
    """``counts 6: it skips 1 blank line inside the report`` and the like."""
    reasons = _count_reasons(report) if verdict.actual != report.count else []
    reasons += [f"it counts the {plural(m.awk_count, 'line')} of {_at(m)} into this report, as its header does "
                "not start with '=== Report'" for m in verdict.merged]
    if verdict.declared is None:
        reasons.append("it reads no 'lines: N' (one space, then digits) in the header, so declared is empty")
    return f"counts {verdict.actual}" + (": " + "; ".join(reasons) if reasons else "")


def _awk_clause(report: Report, verdict: Optional[AwkVerdict]) -> str:
    if verdict is None:
        return f"; {_ONE_LINER} does not check this header (it does not start with '=== Report')"
    if verdict.actual == report.count and verdict.declared is not None:
        return ""
    return f"; {_ONE_LINER} {_awk_reasons(report, verdict)}"


# --- the counts ------------------------------------------------------------------------------------------------

def _mismatched(report: Report) -> bool:
    return report.kind == "report" and report.declared is not None and report.declared != report.count


def unacknowledged_mismatches(log: WorkLog) -> list[Report]:
    """Reports whose ``lines:`` is not their count and that no valid correction report above acknowledges,
    top to bottom: what ``ladder worklog correct`` corrects and ``ladder worklog read`` stops at."""
    acks = acknowledged(log)
    return [r for r in log.numbered if _mismatched(r) and r.index not in acks]


def _by_start(verdicts: list[AwkVerdict]) -> dict[int, AwkVerdict]:
    return {v.start: v for v in verdicts if v.start is not None}


def _lines(log: WorkLog, awk: dict[int, AwkVerdict]) -> list[Problem]:
    return [problem("worklog_lines", log.path, r.start,
                    f"{r.name} declares lines: {r.declared}, but the report has {plural(r.count, 'line')} (header "
                    f"through last content line, line {r.last_line}){_awk_clause(r, awk.get(r.start))}")
            for r in unacknowledged_mismatches(log)]


def _acknowledged_note(log: WorkLog, correction: Correction) -> Problem:
    r = correction.target
    assert r is not None  # a valid correction has its target
    return problem("worklog_lines", log.path, r.start,
                   f"{r.name} declares lines: {r.declared} and has {plural(r.count, 'line')}; the CORRECTION at line "
                   f"{correction.line} ({correction.report.name}) acknowledges it, so it is no error (old reports "
                   "are never edited)")


def _no_count_note(log: WorkLog, report: Report, verdict: Optional[AwkVerdict]) -> list[Problem]:
    if verdict is None or not verdict.mismatch:
        return []
    return [problem("worklog_lines", log.path, report.start,
                    f"{_ONE_LINER} prints '{verdict.text()}' for {report.name}, whose header has no count it can "
                    "read (see the header problem there)")]


def _awk_note(log: WorkLog, report: Report, verdict: Optional[AwkVerdict]) -> list[Problem]:
    if report.declared is None:
        return _no_count_note(log, report, verdict)
    wrong = report.declared != report.count
    if verdict is None:
        return [problem("worklog_lines", log.path, report.start,
                        f"{_ONE_LINER} does not see the header of {report.located} (it does not start with "
                        "'=== Report'): it counts its lines into the report above")]
    if verdict.mismatch == wrong:
        return []
    if wrong:
        message = (f"{_ONE_LINER} reports no mismatch for {report.name} (it {_awk_reasons(report, verdict)}), but "
                   f"by the prose definition the report has {plural(report.count, 'line')}, not {report.declared}")
    else:
        message = (f"{report.name}: lines: {report.declared} is right (header through last content line, line "
                   f"{report.last_line}), but {_ONE_LINER} prints '{verdict.text()}' (it "
                   f"{_awk_reasons(report, verdict)}){_agree(report)}")
    return [problem("worklog_lines", log.path, report.start, message)]


def _agree(report: Report) -> str:
    """How to make the one-liner agree where empty lines inside the report are what it skips."""
    if not _how_many(report.body, _empty):
        return ""
    return ("; to make both agree, put one space on each empty line inside it: a blank line holding one space is "
            "blank to both the prose and Markdown, and the one-liner counts it (ladder worklog add writes them so; "
            "a tool that strips trailing spaces undoes it)")


def _above_first_note(log: WorkLog, verdict: AwkVerdict) -> list[Problem]:
    if not verdict.mismatch:
        return []
    what = ["the lines before the first header"] if _awk_lines(log.preamble) else []
    what += [_at(m) for m in verdict.merged]
    return [problem("worklog_lines", log.path, 1,
                    f"{_ONE_LINER} prints '{verdict.text()}' for the {plural(verdict.actual, 'line')} above its "
                    f"first '=== Report' header ({', '.join(what)}): they are no report with a count; ignore that "
                    "line of its output")]


def _notes(log: WorkLog, verdicts: list[AwkVerdict]) -> list[Problem]:
    awk = _by_start(verdicts)
    notes = _above_first_note(log, verdicts[0])
    notes += [_acknowledged_note(log, correction) for correction in acknowledged(log).values()]
    for report in log.numbered:
        notes += _awk_note(log, report, awk.get(report.start))
    return notes


# --- the whole -------------------------------------------------------------------------------------------------

def check_log(log: WorkLog, *, allow_gaps: bool = False, final: bool = False,  # ladder: ignore[params_max] options
              kb_dir: Optional[Path] = None, kb_shown: Optional[str] = None, kb: Optional[GateKb] = None) -> LintResult:
    """Every problem of ``log`` and the notes that explain it; ``final`` adds the strict FAIL gate, which needs
    ``kb_dir`` (the knowledge base) for the registers, its own check and its D#-E# mapping; ``kb_shown`` is how
    its messages name that directory (``kb_dir.as_posix()`` when not given). ``kb`` is that knowledge base read
    already (a front end reads it once for several logs); else it is read at ``kb_dir`` as its own root."""
    verdicts = awk_verdicts(log)  # what the one-liner says, once: the count problems and the notes both use it
    found = [*_structure(log, allow_gaps), *_lines(log, _by_start(verdicts)), *check_contract(log),
             *check_references(log), *check_final(log), *check_loops(log)]
    notes = _notes(log, verdicts)
    if final:
        if kb is None and kb_dir is not None:
            shown = kb_dir.as_posix() if kb_shown is None else kb_shown
            kb = gate_kb(kb_dir, ".", shown, shown)
        found += [*check_gate(log, found, kb_dir, kb_shown), *kb_items(log, kb)]
        notes += decision_notes(log, kb)
    return LintResult(_in_context(found, log), _in_context(notes, log))


def _in_context(found: list[Problem], log: WorkLog) -> tuple[Problem, ...]:
    """Ordered, each with the text of its line: what stays the same as reports are added on top (the SARIF
    fingerprint is made of it)."""
    return tuple(replace(p, context=log.lines[p.line - 1]) if 0 < p.line <= len(log.lines) else p
                 for p in ordered(found))


def check_file(file: Path, shown: Optional[str] = None, **options: Any) -> LintResult:
    """:func:`check_log` of the file (``options`` are its keywords: ``allow_gaps``, ``final``, ``kb_dir``,
    ``kb_shown``, ``kb``); one that cannot be read is one ``worklog_unreadable`` problem."""
    try:
        log = read_log(file, shown)
    except WorkLogError as exc:
        return LintResult((problem("worklog_unreadable", shown or file.as_posix(), exc.line, exc.reason),))
    return check_log(log, **options)
