"""The FINAL REPORT blocks (the skill's §13 end block) and, with ``--final``, the strict FAIL gate (§12).

A FINAL REPORT closes a *session*: the reports below it, down to the next FINAL REPORT
below (or the bottom of the log). A session resumed after it (the skill's §14: "create
Report #(N+1), continue the feedback loop") writes its reports on top of it, numbered
on from the reports below, and is closed by a FINAL REPORT of its own; so a log holds
one FINAL REPORT per closed session, each one's ``loops:`` and ``total_feedback_loops``
counting its own session. The log is *closed* when its topmost block is a FINAL REPORT.

The loops ``loops:`` and ``total_feedback_loops`` count are the *loop reports* of
:mod:`.loops`: typed feedback, or recording two of the loop's steps (a loop typed
synthesis is one), never Report #0 nor a correction report. The gate checks what a program can know from the log
and the knowledge base's folder; what needs judgement (novelty of a proposal, the
search sub-agent, prohibitions) is left to the reader.
"""

from __future__ import annotations

import datetime
import posixpath
import re
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..catalogue import plural
from .contract import Termination, contract_report, read_block, termination
from .model import Problem, problem
from .notes import REGISTERS
from .loops import is_loop, loop_reports
from .parse import Report, WorkLog, elapsed_seconds

__all__ = ["FIELDS", "SECTIONS", "feedback_reports", "final_block", "final_blocks", "closing_block",
           "session", "final_fields", "check_final", "check_gate"]

FIELDS = ("end_time", "termination_mode", "total_feedback_loops", "total_proposals_generated",
          "total_proposals_validated", "total_proposals_falsified")
SECTIONS = ("Summary: Confirmed / Uncertain / Follow-up Required", "Key Artifacts", "Biggest Surprise",
            "Recommendation for Next Session")
MODES = ("time", "count", "both")

# Linear by construction: a field's value runs greedily to the end of the line (stripped after), never a lazy
# run next to a run of spaces; the other runs of spaces stand between characters they cannot take. Numbers
# are [0-9], never \d (which takes every script's digits).
_FIELD = re.compile(r"^(?P<key>[a-z_]+):(?P<value>.*)$")
_COUNT = re.compile(r"^[0-9]{1,9}$")
_GENERATED = re.compile(r"^(?P<total>[0-9]{1,9})\s*\(\s*convergent:\s*(?P<convergent>[0-9]{1,9})\s*,\s*"
                        r"divergent:\s*(?P<divergent>[0-9]{1,9})\s*\)$")
#: the system time: HH:MM or HH:MM:SS, the date before it allowed (ISO 8601, a space or a T between)
_END_TIME = re.compile(r"^(?:(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})[ T])?(?P<hours>[0-9]{2}):(?P<minutes>[0-9]{2})"
                       r"(?::(?P<seconds>[0-9]{2}))?$")
_REPRODUCIBILITY = re.compile(r"^#+\s.*reproducibility", re.I)
_GATE_HEADERS = ("worklog_lines", "worklog_header")


def feedback_reports(log: WorkLog) -> list[Report]:
    """The loops of the whole log, every session's: :func:`.loops.loop_reports`."""
    return loop_reports(log)


def final_blocks(log: WorkLog) -> list[Report]:
    """Every FINAL REPORT block, top to bottom: one for each closed session."""
    return [r for r in log.reports if r.kind == "final"]


def final_block(log: WorkLog) -> Optional[Report]:
    """The first FINAL REPORT block from the top, if any: the newest closed session's."""
    return next(iter(final_blocks(log)), None)


def closing_block(log: WorkLog) -> Optional[Report]:
    """The FINAL REPORT that closes the log: its topmost block when that is one, else ``None`` (the newest
    session is open, or there is no report)."""
    return log.reports[0] if log.reports and log.reports[0].kind == "final" else None


def session(log: WorkLog, block: Report) -> tuple[Report, ...]:
    """The reports the FINAL REPORT ``block`` closes: those below it down to the next FINAL REPORT (or the
    bottom of the log)."""
    below = log.reports[block.index + 1:]
    end = next((i for i, r in enumerate(below) if r.kind == "final"), len(below))
    return below[:end]


def _session_loops(log: WorkLog, block: Report) -> int:
    return sum(1 for r in session(log, block) if is_loop(r))


def final_fields(report: Report) -> dict[str, tuple[int, str]]:
    """The block's ``field: value`` lines, each field's first: its line and value (stripped)."""
    found: dict[str, tuple[int, str]] = {}
    for offset, text in enumerate(report.body):
        match = _FIELD.match(text)
        if match and match["key"] in FIELDS:
            found.setdefault(match["key"], (report.start + 1 + offset, match["value"].strip()))
    return found


# --- the blocks ------------------------------------------------------------------------------------------------

def _empty_session(log: WorkLog, block: Report) -> list[Problem]:
    """A FINAL REPORT that closes no report: right above another one, or the last block of the log."""
    if session(log, block):
        return []
    below = log.below(block, 1)
    where = (f"stands right above another FINAL REPORT (line {below.start})" if below is not None else
             "is the last block of the log, no report below it")
    return [problem("worklog_final", log.path, block.start,
                    f"line {block.start}: the FINAL REPORT {where}, so it closes an empty session; a FINAL REPORT "
                    "closes the session whose reports stand below it (a resumed session writes its reports, "
                    "numbered on, above the last FINAL REPORT, then its own FINAL REPORT on top)")]


def _mode(value: str, terms: Optional[Termination]) -> Optional[str]:
    if value not in MODES:
        return f"'{value[:40]}': expected time, count or both"
    if terms is not None and terms.mode != value:
        return f"'{value}', but the start contract's minimums make the mode {terms.mode}"
    return None


def _generated(value: str) -> Optional[str]:
    match = _GENERATED.match(value)
    if not match:
        return f"'{value[:60]}': expected 'N (convergent: n1, divergent: n2)'"
    total, parts = int(match["total"]), int(match["convergent"]) + int(match["divergent"])
    return None if total == parts else f"says {total}, but convergent and divergent add up to {parts}"


def _real_date(text: Optional[str]) -> bool:
    try:
        return text is None or bool(datetime.date.fromisoformat(text))
    except ValueError:
        return False


def _end_time(value: str) -> Optional[str]:
    match = _END_TIME.match(value)
    if match and int(match["hours"]) < 24 and int(match["minutes"]) < 60 and int(match["seconds"] or 0) < 60 \
            and _real_date(match["date"]):
        return None
    return (f"'{value[:40]}': expected the system time of day, HH:MM or HH:MM:SS (00:00 to 23:59), the date "
            "before it allowed (YYYY-MM-DD, then a space or T), such as 14:35 or 2026-03-03 14:35:07")


def _loops_field(value: str, loops: int) -> Optional[str]:
    if not _COUNT.match(value):
        return f"'{value[:40]}': expected the number of feedback loops"
    return None if int(value) == loops else \
        f"says {value}, but the session it closes has {plural(loops, 'loop report')}"


def _checks(log: WorkLog, loops: int) -> dict[str, Callable[[str], Optional[str]]]:
    terms = termination(log)
    return {
        "end_time": _end_time,
        "termination_mode": lambda v: _mode(v, terms),
        "total_feedback_loops": lambda v: _loops_field(v, loops),
        "total_proposals_generated": _generated,
        "total_proposals_validated": lambda v: None if _COUNT.match(v) else f"'{v[:40]}': expected a number",
        "total_proposals_falsified": lambda v: None if _COUNT.match(v) else f"'{v[:40]}': expected a number",
    }


def _fields(log: WorkLog, block: Report, loops: int) -> list[Problem]:
    fields, checks = final_fields(block), _checks(log, loops)
    absent = [f"'{key}:'" for key in FIELDS if key not in fields]
    found = [problem("worklog_final", log.path, block.start, f"line {block.start}: the FINAL REPORT lacks "
                     f"{', '.join(absent)}; its fields are {', '.join(FIELDS)}")] if absent else []
    for key, (line, value) in fields.items():
        wrong = checks[key](value)
        if wrong:
            found.append(problem("worklog_final", log.path, line, f"line {line}: {key} {wrong}"))
    return found


def _sections(log: WorkLog, block: Report) -> list[Problem]:
    titles = {text[3:].strip() for text in block.body if text.startswith("## ")}
    absent = [f"'## {title}'" for title in SECTIONS if title not in titles]
    if not absent:
        return []
    return [problem("worklog_final", log.path, block.start, f"line {block.start}: the FINAL REPORT lacks the "
                    f"section{'s' if len(absent) > 1 else ''} {', '.join(absent)} of the skill's end block")]


def _extent(log: WorkLog, block: Report) -> str:
    """Where ``block``'s session ends, in words."""
    reports = session(log, block)
    after = log.below(reports[-1], 1) if reports else None
    return f"down to the FINAL REPORT at line {after.start}" if after is not None else "down to the bottom of the log"


def _loops_header(log: WorkLog, block: Report, loops: int) -> list[Problem]:
    if block.malformed or block.loops == loops:
        return []
    said = "more digits than a count" if block.loops is None else f"loops: {block.loops}"
    return [problem("worklog_final", log.path, block.start,
                    f"line {block.start}: the FINAL REPORT header says {said}, but its session has "
                    f"{plural(loops, 'loop report')} among the reports below it {_extent(log, block)} (a loop report "
                    "is typed feedback or records two of the loop's steps, DIAGNOSE, PROPOSE, TEST, UPDATE, META; "
                    "Report #0 and correction reports are no loops)")]


def _block(log: WorkLog, block: Report) -> list[Problem]:
    loops = _session_loops(log, block)
    return [*_empty_session(log, block), *_fields(log, block, loops), *_sections(log, block),
            *_loops_header(log, block, loops)]


def check_final(log: WorkLog) -> list[Problem]:
    """Each FINAL REPORT's problems: an empty session, its fields, its sections, its session's loop count."""
    return [p for block in final_blocks(log) for p in _block(log, block)]


# --- the strict FAIL gate --------------------------------------------------------------------------------------

def _gate(path: str, line: int, message: str) -> Problem:
    return problem("worklog_fail_gate", path, line, f"FAIL gate: {message}")


def _contract_items(log: WorkLog, found: Sequence[Problem]) -> list[Problem]:
    report = contract_report(log)
    if report is None:
        return [_gate(log.path, 1, "no start contract: Report #0 with the keys of the skill's §1")]
    if any(p.rule.key == "worklog_contract_keys" for p in found) or not read_block(report).entries:
        return [_gate(log.path, report.start, "Report #0 does not use the exact key names of the skill's §1 "
                      "(see the worklog_contract_keys problems)")]
    return []


def _loop_items(log: WorkLog, block: Optional[Report]) -> list[Problem]:
    items = [] if feedback_reports(log) else [
        _gate(log.path, 1, "no feedback loop completed (no loop report: typed feedback or recording two of the "
              "loop's steps, besides Report #0 and corrections)")]
    generated = final_fields(block).get("total_proposals_generated") if block else None
    match = _GENERATED.match(generated[1]) if generated else None
    if match and generated and int(match["total"]) < 1:
        items.append(_gate(log.path, generated[0], "no proposal generated (total_proposals_generated is 0)"))
    return items


def _register_items(path: str, kb_dir: Optional[Path], kb_shown: Optional[str]) -> list[Problem]:
    if kb_dir is None:
        return [_gate(path, 1, "the uncertainty and gap registers cannot be checked: no knowledge base directory "
                      "was given")]
    shown = kb_dir.as_posix() if kb_shown is None else kb_shown
    return [_gate(path, 1, f"{posixpath.normpath(posixpath.join(shown, 'curated', name))} does not exist (the "
                  "skill's §8 register)") for name in (f"{stem}.md" for stem in REGISTERS)
            if not (kb_dir / "curated" / name).is_file()]


def _final_items(log: WorkLog, block: Optional[Report]) -> list[Problem]:
    if block is None and final_blocks(log):
        top = log.reports[0]
        return [_gate(log.path, top.start, f"the log is not closed: its topmost block is {top.located}, not a "
                      "FINAL REPORT (a resumed session ends with a FINAL REPORT of its own on top; §13, §14)")]
    if block is None:
        return [_gate(log.path, 1, "no FINAL REPORT block (the skill's §13 end block, written on top)")]
    if any(_REPRODUCIBILITY.match(text) for text in block.body):
        return []
    return [_gate(log.path, block.start, "the FINAL REPORT has no reproducibility section (a heading with "
                  "'Reproducibility': commands, sources with timestamps, assumptions, decisions, rerun notes; §10)")]


def _lines_of(found: Sequence[Problem], keys: Sequence[str]) -> list[int]:
    return sorted({p.line for p in found if p.rule.key in keys})


def _verified_items(path: str, found: Sequence[Problem]) -> list[Problem]:
    items = []
    headers = _lines_of(found, _GATE_HEADERS)
    if headers:
        items.append(_gate(path, 1, "not every report header is verified: header or count problems at line"
                           f"{'s' if len(headers) > 1 else ''} {', '.join(map(str, headers[:10]))}"))
    absolute = _lines_of(found, ("worklog_absolute_reference",))
    if absolute:
        items.append(_gate(path, 1, "cross-references are not all relative: absolute references at line"
                           f"{'s' if len(absolute) > 1 else ''} {', '.join(map(str, absolute[:10]))}"))
    return items


def _unmet(log: WorkLog, terms: Termination, block: Optional[Report]) -> list[str]:
    """What of the execution boundary is not met, against the contract's minimums: the closing FINAL REPORT's
    elapsed time (the top report's when the log is not closed) and the loops of every session."""
    top = block or (log.reports[0] if log.reports else None)
    elapsed = top.elapsed if top else None
    seconds, loops = elapsed_seconds(elapsed), len(feedback_reports(log))
    unmet = []
    if terms.minutes is not None and seconds is not None and seconds < terms.minutes * 60:
        unmet.append(f"elapsed {elapsed} is under min_required_minutes: {terms.minutes}")
    if terms.loops is not None and loops < terms.loops:
        unmet.append(f"{plural(loops, 'feedback loop')} under min_required_loops: {terms.loops}")
    return unmet


def _termination_items(log: WorkLog, block: Optional[Report]) -> list[Problem]:
    terms = termination(log)
    unmet = _unmet(log, terms, block) if terms else []
    if terms is None or not unmet:
        return []
    return [_gate(log.path, block.start if block else 1,
                  f"the execution boundary is not met ({terms.mode} mode): {'; '.join(unmet)}")]


def check_gate(log: WorkLog, found: Sequence[Problem], kb_dir: Optional[Path],
               kb_shown: Optional[str] = None) -> list[Problem]:
    """The FAIL gate items a program can check, given the problems ``found`` so far; each missing one is a
    problem (the gate has no conditional pass). The log must be closed (a FINAL REPORT on top: that one's
    proposals, reproducibility section and elapsed time are read); loops count over every session.
    ``kb_shown`` is how messages name ``kb_dir`` (its POSIX form when not given)."""
    block = closing_block(log)
    return [*_contract_items(log, found), *_loop_items(log, block), *_register_items(log.path, kb_dir, kb_shown),
            *_final_items(log, block), *_verified_items(log.path, found), *_termination_items(log, block)]
