"""The FINAL REPORT block (the skill's §13 end block) and, with ``--final``, the strict FAIL gate (§12).

A *feedback report* is a numbered report of type ``feedback`` that is neither Report #0
(the start contract) nor a correction report: those are the loops ``loops:`` and
``total_feedback_loops`` count. The gate checks what a program can know from the log
and the knowledge base's folder; what needs judgement (novelty of a proposal, the
search sub-agent, prohibitions) is left to the reader.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Optional, Sequence

from .contract import Termination, contract_report, read_block, termination
from .model import Problem, problem
from .parse import Report, WorkLog
from .references import is_correction

__all__ = ["FIELDS", "SECTIONS", "REGISTERS", "feedback_reports", "final_block", "final_fields", "check_final",
           "check_gate", "elapsed_seconds"]

FIELDS = ("end_time", "termination_mode", "total_feedback_loops", "total_proposals_generated",
          "total_proposals_validated", "total_proposals_falsified")
SECTIONS = ("Summary: Confirmed / Uncertain / Follow-up Required", "Key Artifacts", "Biggest Surprise",
            "Recommendation for Next Session")
REGISTERS = ("UNCERTAINTY-REGISTER.md", "GAP-REGISTER.md")
MODES = ("time", "count", "both")

_FIELD = re.compile(r"^(?P<key>[a-z_]+):\s*(?P<value>.*?)\s*$")
_COUNT = re.compile(r"^[0-9]{1,9}$")
_GENERATED = re.compile(r"^(?P<total>[0-9]{1,9})\s*\(\s*convergent:\s*(?P<convergent>[0-9]{1,9})\s*,\s*"
                        r"divergent:\s*(?P<divergent>[0-9]{1,9})\s*\)$")
_CLOCK = re.compile(r"\b[0-9]{1,2}:[0-9]{2}\b")
_ELAPSED = re.compile(r"^(?P<minutes>[0-9]{2,9}):(?P<seconds>[0-5][0-9])$")
_REPRODUCIBILITY = re.compile(r"^#+\s.*reproducibility", re.I)
_GATE_HEADERS = ("worklog_lines", "worklog_header")


def feedback_reports(log: WorkLog) -> list[Report]:
    """The loops: type feedback, not Report #0, not a correction report."""
    return [r for r in log.numbered if r.type == "feedback" and r.number != 0 and not is_correction(r)]


def final_block(log: WorkLog) -> Optional[Report]:
    """The first FINAL REPORT block from the top, if any."""
    return next((r for r in log.reports if r.kind == "final"), None)


def final_fields(report: Report) -> dict[str, tuple[int, str]]:
    """The block's ``field: value`` lines, each field's first: its line and value."""
    found: dict[str, tuple[int, str]] = {}
    for offset, text in enumerate(report.body):
        match = _FIELD.match(text)
        if match and match["key"] in FIELDS:
            found.setdefault(match["key"], (report.start + 1 + offset, match["value"]))
    return found


def elapsed_seconds(text: Optional[str]) -> Optional[int]:
    """``MM:SS`` as seconds, or ``None`` when it is not in that form."""
    match = _ELAPSED.match(text or "")
    return int(match["minutes"]) * 60 + int(match["seconds"]) if match else None


# --- the block -------------------------------------------------------------------------------------------------

def _placement(log: WorkLog, path: str) -> list[Problem]:
    finals = [r for r in log.reports if r.kind == "final"]
    found = [problem("worklog_final", path, r.start, f"line {r.start}: a second FINAL REPORT (the first at line "
                     f"{finals[0].start}); the end block is written once") for r in finals[1:]]
    if finals and finals[0].index != 0:
        above = log.reports[finals[0].index - 1]
        found.append(problem("worklog_final", path, finals[0].start,
                             f"line {finals[0].start}: the FINAL REPORT stands below {above.name} (line "
                             f"{above.start}); it is written last, on top of the log"))
    return found


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


def _loops_field(value: str, loops: int) -> Optional[str]:
    if not _COUNT.match(value):
        return f"'{value[:40]}': expected the number of feedback loops"
    return None if int(value) == loops else f"says {value}, but the log has {loops} feedback reports"


def _checks(log: WorkLog) -> dict[str, Callable[[str], Optional[str]]]:
    loops, terms = len(feedback_reports(log)), termination(log)
    return {
        "end_time": lambda v: None if _CLOCK.search(v) else f"'{v[:40]}': expected the system time, such as 14:35",
        "termination_mode": lambda v: _mode(v, terms),
        "total_feedback_loops": lambda v: _loops_field(v, loops),
        "total_proposals_generated": _generated,
        "total_proposals_validated": lambda v: None if _COUNT.match(v) else f"'{v[:40]}': expected a number",
        "total_proposals_falsified": lambda v: None if _COUNT.match(v) else f"'{v[:40]}': expected a number",
    }


def _fields(log: WorkLog, block: Report) -> list[Problem]:
    fields, checks = final_fields(block), _checks(log)
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


def _loops_header(log: WorkLog, block: Report) -> list[Problem]:
    loops = len(feedback_reports(log))
    if block.malformed or block.loops == loops:
        return []
    said = "more digits than a count" if block.loops is None else f"loops: {block.loops}"
    return [problem("worklog_final", log.path, block.start,
                    f"line {block.start}: the FINAL REPORT header says {said}, but the log has {loops} feedback "
                    "reports (type feedback; Report #0 and correction reports are not loops)")]


def check_final(log: WorkLog) -> list[Problem]:
    """The end block's problems: where it stands, its fields, its sections, its loop count."""
    block = final_block(log)
    if block is None:
        return []
    return [*_placement(log, log.path), *_fields(log, block), *_sections(log, block), *_loops_header(log, block)]


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
        _gate(log.path, 1, "no feedback loop completed (no report of type feedback besides Report #0 and "
              "corrections)")]
    generated = final_fields(block).get("total_proposals_generated") if block else None
    match = _GENERATED.match(generated[1]) if generated else None
    if match and int(match["total"]) < 1:
        items.append(_gate(log.path, generated[0], "no proposal generated (total_proposals_generated is 0)"))
    return items


def _register_items(path: str, kb_dir: Optional[Path]) -> list[Problem]:
    if kb_dir is None:
        return [_gate(path, 1, "the uncertainty and gap registers cannot be checked: no knowledge base directory "
                      "was given")]
    return [_gate(path, 1, f"{(kb_dir / 'curated' / name).as_posix()} does not exist (the skill's §8 register)")
            for name in REGISTERS if not (kb_dir / "curated" / name).is_file()]


def _final_items(log: WorkLog, block: Optional[Report]) -> list[Problem]:
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
    """What of the execution boundary is not met: the final block's elapsed time (the top report's without one)
    and the number of loops, against the contract's minimums."""
    top = block or (log.reports[0] if log.reports else None)
    elapsed = top.elapsed if top else None
    seconds, loops = elapsed_seconds(elapsed), len(feedback_reports(log))
    unmet = []
    if terms.minutes is not None and seconds is not None and seconds < terms.minutes * 60:
        unmet.append(f"elapsed {elapsed} is under min_required_minutes: {terms.minutes}")
    if terms.loops is not None and loops < terms.loops:
        unmet.append(f"{loops} feedback loop{'' if loops == 1 else 's'} under min_required_loops: {terms.loops}")
    return unmet


def _termination_items(log: WorkLog, block: Optional[Report]) -> list[Problem]:
    terms = termination(log)
    unmet = _unmet(log, terms, block) if terms else []
    if terms is None or not unmet:
        return []
    return [_gate(log.path, block.start if block else 1,
                  f"the execution boundary is not met ({terms.mode} mode): {'; '.join(unmet)}")]


def check_gate(log: WorkLog, found: Sequence[Problem], kb_dir: Optional[Path]) -> list[Problem]:
    """The FAIL gate items a program can check, given the problems ``found`` so far; each missing one is a
    problem (the gate has no conditional pass)."""
    block = final_block(log)
    return [*_contract_items(log, found), *_loop_items(log, block), *_register_items(log.path, kb_dir),
            *_final_items(log, block), *_verified_items(log.path, found), *_termination_items(log, block)]
