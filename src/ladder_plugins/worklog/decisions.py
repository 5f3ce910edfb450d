"""The knowledge base as the FAIL gate reads it (``--final``): its own check, and the D#-E# mapping (the skill's §3.1).

The gate fails whenever ``ladder kb check`` fails on the same knowledge base: one gate
item at the log's line 1 sums its problems up, and the front end lists them under their
own files. A *key decision* is a note whose ``decision_id`` is a ``D#``; its *linked
evidence* is the E# entries of its ``## Evidence`` section that its ``evidence:`` list
names (all of them when it names none). A decision is mapped when it has linked
evidence and each linked entry has ``fetched_at`` and ``method``; the gate fails when no
note is a key decision, and names every decision that is not mapped. A ``D#`` the log's
reports name that no note carries is a note, not a failure: a log names decisions in
passing ("D1-D3 mapped"), and only the notes say which are key.

Its own module: the gate's reading of the notes, between the walk and the note reader
below it (:mod:`.kbscan`, :mod:`.kb`, :mod:`.notes`) and the lint above it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from ..catalogue import plural
from .kb import check_scan
from .kbscan import scan_kb
from .model import Problem, problem
from .notes import Entry, Note
from .parse import WorkLog

__all__ = ["GateKb", "gate_kb", "kb_items", "decision_notes"]

_DECISION = re.compile(r"D[0-9]{1,9}\Z")
_NAMED = re.compile(r"\bD([0-9]{1,9})\b")
_FIELDS = ("fetched_at", "method")
#: problems of the knowledge base's own check named in the gate's item (the rest are counted)
_SHOWN = 3


@dataclass(frozen=True)
class GateKb:
    """A knowledge base as the gate reads it: how messages name it, whether it could be listed, its notes
    (paths as shown), and what its own check finds (paths as ``ladder kb check`` shows them)."""

    shown: str
    listed: bool
    notes: tuple[Note, ...]
    problems: tuple[Problem, ...]


def _prefixed(path: str, prefix: Optional[str]) -> str:
    return path if prefix is None else posixpath.normpath(posixpath.join(prefix, path))


def gate_kb(root: Path, directory: str, shown: str, prefix: Optional[str] = None) -> GateKb:
    """The knowledge base at ``root / directory`` (``shown`` in messages), walked and checked once; ``prefix``
    goes before every path (a knowledge base checked as its own root: ``directory`` is ``.``)."""
    scan = scan_kb(root, directory)
    problems = tuple(replace(p, path=_prefixed(p.path, prefix)) for p in check_scan(scan))
    notes = tuple(replace(n, shown=_prefixed(n.shown, prefix)) for n in scan.notes)
    return GateKb(shown, scan.listed, notes, problems)


def _gate(path: str, line: int, message: str) -> Problem:
    return problem("worklog_fail_gate", path, line, f"FAIL gate: {message}")


def _own_check(path: str, kb: GateKb) -> list[Problem]:
    if not kb.problems:
        return []
    codes = ", ".join(sorted({p.code for p in kb.problems}))
    places = ", ".join(f"{p.path}:{p.line} ({p.code})" for p in kb.problems[:_SHOWN])
    more = f" and {len(kb.problems) - _SHOWN} more" if len(kb.problems) > _SHOWN else ""
    return [_gate(path, 1, f"the knowledge base {kb.shown} fails its own check ('ladder kb check'): "
                  f"{plural(len(kb.problems), 'problem')} ({codes}), at {places}{more}")]


def _decision(note: Note) -> Optional[str]:
    value = note.data.get("decision_id") if note.read else None
    return value.strip() if isinstance(value, str) and _DECISION.match(value.strip()) else None


def _linked(note: Note) -> list[Entry]:
    """The E# entries ``note``'s ``evidence:`` names (an entry E1.2 is named by E1), else all of them."""
    named = [v.strip() for v in note.data.get("evidence") or () if isinstance(v, str)] \
        if isinstance(note.data.get("evidence"), list) else []
    if not named:
        return list(note.entries)
    return [e for e in note.entries if any(e.name == n or e.name.startswith(n + ".") for n in named)]


def _unmapped(note: Note) -> Optional[str]:
    """Why the decision of ``note`` is not mapped to evidence, or ``None``."""
    linked = _linked(note)
    if not linked:
        return "no E# entry in its ## Evidence section" if not note.entries else \
            "its evidence: list names no E# entry of its ## Evidence section"
    lacking = [f"{e.name} has no {' and '.join(f for f in _FIELDS if f not in e.fields)}" for e in linked
               if len(e.fields) < len(_FIELDS)]
    return ", ".join(lacking) or None


def _decision_items(path: str, kb: GateKb) -> list[Problem]:
    decisions = [(note, d) for note in kb.notes if (d := _decision(note)) is not None]
    if not decisions:
        return [_gate(path, 1, f"no key decision in {kb.shown}: no note has a decision_id (D#) with linked evidence "
                      "(E# entries, each with fetched_at and method, in its ## Evidence section; the skill's §3.1)")]
    unmapped = [f"{d} ({note.shown}: {why})" for note, d in decisions if (why := _unmapped(note)) is not None]
    if not unmapped:
        return []
    return [_gate(path, 1, f"key decisions without linked evidence (§3.1): {'; '.join(unmapped)}")]


def kb_items(log: WorkLog, kb: Optional[GateKb]) -> list[Problem]:
    """The gate's items of the knowledge base: its own check, and the D#-E# mapping (when it could be listed)."""
    if kb is None:
        return []
    return [*_own_check(log.path, kb), *(_decision_items(log.path, kb) if kb.listed else [])]


def _named(log: WorkLog) -> dict[int, int]:
    """Each ``D#`` the reports' bodies name, by number, with the line it is first named at."""
    found: dict[int, int] = {}
    for report in log.reports:
        for offset, text in enumerate(report.body):
            for match in _NAMED.finditer(text):
                found.setdefault(int(match[1]), report.start + 1 + offset)
    return found


def _uncarried(log: WorkLog, kb: GateKb) -> list[tuple[int, int]]:
    """The ``D#`` the log names that no note carries, by number, with the line each is first named at."""
    carried = {d for note in kb.notes if (d := _decision(note)) is not None}
    return sorted((n, line) for n, line in _named(log).items() if f"D{n}" not in carried)


def decision_notes(log: WorkLog, kb: Optional[GateKb]) -> list[Problem]:
    """A note naming the ``D#`` the log names that no note of the knowledge base carries."""
    if kb is None or not kb.listed:
        return []
    missing = _uncarried(log, kb)
    if not missing:
        return []
    names = ", ".join(f"D{n}" for n, _ in missing)
    lines = ", ".join(str(line) for _, line in missing)
    one = len(missing) == 1
    return [_gate(log.path, min(line for _, line in missing),
                  f"{names} {'is' if one else 'are'} named in the work log (first at line{'' if one else 's'} "
                  f"{lines}) but no note of {kb.shown} carries {'it' if one else 'them'} as decision_id; the skill "
                  "maps every key decision to evidence (§3.1)")]
