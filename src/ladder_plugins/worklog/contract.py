"""Report #0, the start contract: the skill's keys in its order, each value of its form, a termination mode.

The *key block* is Report #0's body from the line under its header to the first blank
line (or the end of the report). Every line in it is ``key: value`` or, under
``done_definition:``, a ``- bullet`` (indented or not). What follows the first blank
line is free text (assumptions, notes) and is not read: the skill asks for assumptions
to be noted, and a blank line is the one boundary that needs no new syntax.
"""

from __future__ import annotations

import datetime
import difflib
import re
from dataclasses import dataclass
from typing import Callable, Optional

from .model import Problem, problem
from .parse import Report, WorkLog, elapsed_seconds, is_blank

__all__ = ["KEYS", "TASK_TYPES", "Entry", "Block", "Termination", "contract_report", "read_block",
           "contract_values", "termination", "check_contract", "closest", "suggestion"]

KEYS = ("task_type", "task_goal", "in_scope", "out_of_scope", "min_required_minutes", "min_required_loops",
        "done_definition", "deliverables", "as_of_date", "start_time")
TASK_TYPES = ("research", "project", "document", "code", "analysis", "design", "other")
#: the minimum the skill applies when both minimums are null
DEFAULT_MINUTES = 5
#: the skill's §1: "Write as Report #0 in work-log.md within 1 minute"
WRITTEN_WITHIN = 60

# linear by construction: the key runs greedily to the first colon (its trailing spaces are stripped after),
# never a lazy run next to a run of spaces; numbers are [0-9], never \d (other scripts' digits)
_KEY_LINE = re.compile(r"^(?P<key>[^\s:-][^:]*):(?P<value>.*)$")
_BULLET = re.compile(r"^\s*-(?P<text>(?:\s.*)?)$")
_PLACEHOLDER = re.compile(r"^<[^>]*>$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_TIME = re.compile(r"^(?P<hours>[0-9]{2}):(?P<minutes>[0-9]{2})$")
_INTEGER = re.compile(r"^[0-9]{1,9}$")


@dataclass(frozen=True)
class Entry:
    """One ``key: value`` line of the key block, with the bullets under it (line, text)."""

    key: str
    value: str
    line: int
    bullets: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Block:
    """The key block read: its entries in order and the lines that are neither an entry nor a bullet."""

    report: Report
    entries: tuple[Entry, ...]
    stray: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Termination:
    """What ends the loop: minutes, loops or both (``None`` where not set; both null means the default)."""

    minutes: Optional[int]
    loops: Optional[int]

    @property
    def mode(self) -> str:
        if self.minutes is not None and self.loops is not None:
            return "both"
        return "count" if self.loops is not None else "time"


def contract_report(log: WorkLog) -> Optional[Report]:
    """Report #0 (the lowest one when it is there twice: the first written)."""
    zeros = [r for r in log.numbered if r.number == 0]
    return zeros[-1] if zeros else None


def _key_lines(report: Report) -> list[tuple[int, str]]:
    """The key block's lines with their line numbers: the body up to the first blank line."""
    block: list[tuple[int, str]] = []
    for offset, text in enumerate(report.body):
        if is_blank(text):
            break
        block.append((report.start + 1 + offset, text))
    return block


def read_block(report: Report) -> Block:
    """The key block of ``report`` read into entries; bullets go to the entry above them."""
    entries: list[Entry] = []
    stray: list[tuple[int, str]] = []
    for line, text in _key_lines(report):
        bullet, key = _BULLET.match(text), _KEY_LINE.match(text)
        if bullet and entries:
            last = entries[-1]
            entries[-1] = Entry(last.key, last.value, last.line, (*last.bullets, (line, bullet["text"].lstrip())))
        elif key and not bullet:
            entries.append(Entry(key["key"].rstrip(), key["value"].strip(), line))
        else:
            stray.append((line, text))
    return Block(report, tuple(entries), tuple(stray))


def _first(block: Block) -> dict[str, Entry]:
    """Each key's first entry."""
    found: dict[str, Entry] = {}
    for entry in block.entries:
        found.setdefault(entry.key, entry)
    return found


def contract_values(log: WorkLog) -> Optional[dict[str, str]]:
    """Report #0's keys and their values as written (stripped; the first entry of a key that is there twice);
    ``done_definition`` is its bullets' texts, one a line, when nothing follows its colon. ``None`` without a
    Report #0."""
    report = contract_report(log)
    if report is None:
        return None
    values = {}
    for key, entry in _first(read_block(report)).items():
        bullets = "\n".join(text.strip() for _, text in entry.bullets)
        values[key] = entry.value if entry.value or not entry.bullets else bullets
    return values


def _minimum(value: str) -> Optional[int]:
    return int(value) if _INTEGER.match(value) and int(value) >= 1 else None


def _bound(value: Optional[str]) -> Optional[int]:
    """A minimum's value: 0 for null, ``None`` when it is missing or of no form."""
    return 0 if value == "null" else _minimum(value or "")


def termination(log: WorkLog) -> Optional[Termination]:
    """The contract's termination condition, the skill's default (5 minutes) when both minimums are null;
    ``None`` without a contract or when a minimum is neither null nor an integer of at least 1."""
    values = contract_values(log) or {}
    minutes, loops = _bound(values.get("min_required_minutes")), _bound(values.get("min_required_loops"))
    if minutes is None or loops is None:
        return None
    return Termination(minutes or (None if loops else DEFAULT_MINUTES), loops or None)


def closest(word: str, choices: tuple[str, ...]) -> Optional[str]:
    """The choice ``word`` most likely means (case, spaces and hyphens aside), or ``None``."""
    folded = word.strip().lower().replace(" ", "_").replace("-", "_")
    if len(folded) > 3 * max(map(len, choices), default=0):
        return None  # too long to be 60% alike (and difflib's cost grows with it)
    close = difflib.get_close_matches(folded, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def suggestion(word: str, choices: tuple[str, ...]) -> str:
    """``"; did you mean 'x'?"`` for the closest choice, or nothing."""
    close = closest(word, choices)
    return f"; did you mean '{close}'?" if close else ""


def _shown(text: str, width: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= width else text[: width - 1] + "…")


# --- the keys --------------------------------------------------------------------------------------------------

_ORDER = ", ".join(KEYS)


def _unknown(block: Block, path: str) -> tuple[list[Problem], set[str]]:
    """Problems for keys the schema does not have, and the schema keys they look like (not also missing)."""
    found, meant = [], set()
    for entry in block.entries:
        if entry.key in KEYS:
            continue
        hint, close = suggestion(entry.key, KEYS), closest(entry.key, KEYS)
        meant.update([close] if close else [])
        found.append(problem("worklog_contract_keys", path, entry.line,
                             f"line {entry.line}: the start contract has no key {_shown(entry.key)}{hint} "
                             "(keys are case-sensitive and spelled as the skill's schema: " + _ORDER + ")"))
    return found, meant


def _duplicates(block: Block, path: str) -> list[Problem]:
    first: dict[str, int] = {}
    found = []
    for entry in block.entries:
        if entry.key in first:
            found.append(problem("worklog_contract_keys", path, entry.line,
                                 f"line {entry.line}: '{entry.key}' again (first at line {first[entry.key]}); each "
                                 "key of the start contract is there once"))
        first.setdefault(entry.key, entry.line)
    return found


def _missing(block: Block, meant: set[str], path: str) -> list[Problem]:
    present = {entry.key for entry in block.entries} | meant
    absent = [key for key in KEYS if key not in present]
    if not absent:
        return []
    names = ", ".join(f"'{key}'" for key in absent)
    return [problem("worklog_contract_keys", path, block.report.start,
                    f"Report #0 (line {block.report.start}) lacks {names}: the start contract has every key, in "
                    f"this order: {_ORDER} (the key block ends at the first blank line)")]


def _order(block: Block, path: str) -> list[Problem]:
    known = list(_first(block).values())
    known = [entry for entry in known if entry.key in KEYS]
    found = []
    for above, below in zip(known, known[1:]):
        if KEYS.index(below.key) < KEYS.index(above.key):
            found.append(problem("worklog_contract_keys", path, below.line,
                                 f"line {below.line}: '{below.key}' comes after '{above.key}' (line {above.line}); "
                                 f"the start contract's order is {_ORDER}"))
    return found


def _stray(block: Block, path: str) -> list[Problem]:
    return [problem("worklog_contract_keys", path, line,
                    f"line {line}, {_shown(text)}, is not 'key: value' in the start contract's key block (which "
                    "ends at the first blank line: free text goes after one)")
            for line, text in block.stray]


# --- the values ------------------------------------------------------------------------------------------------

def _text(entry: Entry) -> Optional[str]:
    if not entry.value:
        return "is empty; write the value after the colon"
    if _PLACEHOLDER.match(entry.value):
        return f"is the schema's placeholder {_shown(entry.value)}; write the value itself"
    return None


def _listed(entry: Entry) -> Optional[str]:
    empty = _text(entry)
    if empty:
        return empty + " (a comma-separated list)"
    if any(not item.strip() for item in entry.value.split(",")):
        return f"{_shown(entry.value)} has an empty item; expected a comma-separated list of items"
    return None


def _task_type(entry: Entry) -> Optional[str]:
    if entry.value in TASK_TYPES:
        return None
    return f"{_shown(entry.value)}: expected one of {'|'.join(TASK_TYPES)}{suggestion(entry.value, TASK_TYPES)}"


def _minimum_value(entry: Entry) -> Optional[str]:
    if entry.value == "null" or _minimum(entry.value) is not None:
        return None
    return f"{_shown(entry.value)}: expected an integer of at least 1 (at most 9 digits) or null"


def _done(entry: Entry) -> Optional[str]:
    if entry.value:
        return (f"has {_shown(entry.value)} after the colon; expected nothing there and the items as "
                "'  - bullet' lines under it")
    if not entry.bullets:
        return "has no bullets; expected at least one '  - bullet' line under it"
    empty = [line for line, text in entry.bullets if not text.strip()]
    return f"has an empty bullet at line {empty[0]}; write what is done" if empty else None


def _date(entry: Entry) -> Optional[str]:
    try:
        if _DATE.match(entry.value):
            datetime.date.fromisoformat(entry.value)
            return None
    except ValueError:
        return f"{_shown(entry.value)} is not a day of the calendar; expected a real date YYYY-MM-DD"
    return f"{_shown(entry.value)}: expected a date YYYY-MM-DD, such as 2026-03-03"


def _time(entry: Entry) -> Optional[str]:
    match = _TIME.match(entry.value)
    if match and int(match["hours"]) < 24 and int(match["minutes"]) < 60:
        return None
    return f"{_shown(entry.value)}: expected the system time as HH:MM (00:00 to 23:59), such as 09:05"


_VALUES: dict[str, Callable[[Entry], Optional[str]]] = {
    "task_type": _task_type, "task_goal": _text, "in_scope": _listed, "out_of_scope": _listed,
    "min_required_minutes": _minimum_value, "min_required_loops": _minimum_value, "done_definition": _done,
    "deliverables": _listed, "as_of_date": _date, "start_time": _time,
}


def _values(block: Block, path: str) -> list[Problem]:
    found = []
    for key, entry in _first(block).items():
        check = _VALUES.get(key)
        wrong = check(entry) if check else None
        if wrong:
            found.append(problem("worklog_contract_value", path, entry.line, f"line {entry.line}: {key} {wrong}"))
    return found


def _stray_bullets(block: Block, path: str) -> list[Problem]:
    return [problem("worklog_contract_value", path, entry.bullets[0][0],
                    f"line {entry.bullets[0][0]}: a '- ' bullet under '{entry.key}'; only done_definition takes "
                    "bullets (the other lists are comma-separated on the key's line)")
            for entry in block.entries if entry.bullets and entry.key != "done_definition"]


def _termination(block: Block, path: str) -> list[Problem]:
    found = _first(block)
    minutes, loops = found.get("min_required_minutes"), found.get("min_required_loops")
    if not (minutes and loops and minutes.value == "null" and loops.value == "null"):
        return []
    return [problem("worklog_termination", path, minutes.line,
                    f"line {minutes.line}: min_required_minutes and min_required_loops (line {loops.line}) are both "
                    f"null, so there is no termination mode; the skill then applies its default, "
                    f"min_required_minutes: {DEFAULT_MINUTES}. Set one of them")]


def _late(report: Report, path: str) -> list[Problem]:
    seconds = elapsed_seconds(report.elapsed)
    if seconds is None or seconds <= WRITTEN_WITHIN:
        return []  # a malformed elapsed is the header check's
    return [problem("worklog_contract_value", path, report.start,
                    f"line {report.start}: Report #0, the start contract, has elapsed: {report.elapsed}; the skill "
                    "writes it within one minute of the start (elapsed 01:00 at most), before any work")]


def check_contract(log: WorkLog) -> list[Problem]:
    """Every start contract problem of ``log``; none when it has no Report #0 (``--final`` asks for one)."""
    report = contract_report(log)
    if report is None:
        return []
    block = read_block(report)
    unknown, meant = _unknown(block, log.path)
    return [*unknown, *_duplicates(block, log.path), *_missing(block, meant, log.path), *_order(block, log.path),
            *_stray(block, log.path), *_values(block, log.path), *_stray_bullets(block, log.path),
            *_termination(block, log.path), *_late(report, log.path)]
