"""One knowledge-base note judged alone: its fields as the schema says, id and file name, status and folder, dates,
evidence and archived reason.

Its own module: the schema (:data:`EXPECTED`, a checker per field) follows the skill's
reference and is no part of reading a note (:mod:`.notes`); :mod:`.kb` runs it on every
note and :mod:`.kbmove` on a note as it would be once moved.
"""

from __future__ import annotations

import difflib
import re
from datetime import datetime
from typing import Any, Callable, Iterator, Optional, Sequence

from .model import Problem, problem
from .notes import (DOMAINS, STATUS_OF_FOLDER, TAG_PREFIXES, Entry, Note, link_target, moment, shown_value,
                    valid_tag, written)

__all__ = ["EXPECTED", "check_note"]

_ID = re.compile(r"(\d{8}-\d{6})-[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_EVIDENCE_REF = re.compile(r"E\d+(?:\.\d+)*\Z")
_DECISION = re.compile(r"D\d+\Z")
_ENTRY_FIELDS = ("fetched_at", "method")

EXPECTED = {
    "id": "YYYYMMDD-HHMMSS-slug (slug: lowercase letters and digits, single hyphens), the file name without .md",
    "title": "a text of 5 to 80 characters",
    "status": "raw, archived or curated",
    "domain": ", ".join(DOMAINS[:-1]) + f" or {DOMAINS[-1]}",
    "tags": "a list of at least one tag without spaces, such as topic/..., type/..., loop/..., gap/..., priority/...",
    "created": "an ISO-8601 date or date and time, such as 2026-03-03T14:30:00",
    "updated": "an ISO-8601 date or date and time, such as 2026-03-03T14:30:00",
    "links": "a list of note ids",
    "evidence": "a list of E# references, such as [E1, E1.2]",
    "confidence": "a number from 0.0 to 1.0",
    "archived_reason": "a text saying why the note was archived",
    "decision_id": "a D# of the work log, such as D3",
}


def _near_prefix(tag: str) -> Optional[str]:
    """The taxonomy prefix a tag's own prefix nearly is (``tpye/`` for ``type/``), or ``None``."""
    if "/" not in tag:
        return None
    prefix = tag[: tag.index("/") + 1]
    if prefix in TAG_PREFIXES:
        return None
    close = difflib.get_close_matches(prefix.lower(), TAG_PREFIXES, n=1, cutoff=0.8)
    return close[0] if close else None


def _is(name: str, value: Any) -> list[str]:
    return [f"{name} is {shown_value(value)}; expected {EXPECTED[name]}"]


def _id_form(value: Any) -> list[str]:
    match = _ID.match(value) if isinstance(value, str) else None
    if match is None:
        return _is("id", value)
    try:
        datetime.strptime(match.group(1), "%Y%m%d-%H%M%S")
    except ValueError:
        return [f"id {shown_value(value)} does not start with a real date and time; expected {EXPECTED['id']}"]
    return []


def _title(value: Any) -> list[str]:
    if not isinstance(value, str):
        return _is("title", value)
    size = len(value.strip())
    return [] if 5 <= size <= 80 else [f"title has {size} characters; expected {EXPECTED['title']}"]


def _choice(name: str, allowed: Sequence[str]) -> Callable[[Any], list[str]]:
    return lambda value: [] if isinstance(value, str) and value in allowed else _is(name, value)


def _tags(value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        return _is("tags", value)
    found = []
    for number, tag in enumerate(value, 1):
        if not valid_tag(tag):
            found.append(f"tag {number} is {shown_value(tag)}; expected a text without spaces")
        elif _near_prefix(tag):
            found.append(f"tag {tag!r} has the prefix {tag[: tag.index('/') + 1]!r}: did you mean "
                         f"{_near_prefix(tag)!r}? (prefixes: {', '.join(TAG_PREFIXES)})")
    return found


def _timestamp(name: str) -> Callable[[Any], list[str]]:
    return lambda value: [] if moment(value) is not None else _is(name, value)


def _links_form(value: Any) -> list[str]:
    if not isinstance(value, list):
        return _is("links", value)
    return [f"links item {n} is {shown_value(item)}; expected a note id"
            for n, item in enumerate(value, 1) if link_target(item) is None]


def _evidence_form(value: Any) -> list[str]:
    if not isinstance(value, list):
        return _is("evidence", value)
    return [f"evidence item {n} is {shown_value(item)}; expected an E# reference such as E1 or E1.2"
            for n, item in enumerate(value, 1) if not (isinstance(item, str) and _EVIDENCE_REF.match(item.strip()))]


def _confidence(value: Any) -> list[str]:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return [] if number and 0 <= value <= 1 else _is("confidence", value)  # NaN compares false


def _reason_form(value: Any) -> list[str]:
    return [] if isinstance(value, str) and value.strip() else _is("archived_reason", value)


def _decision(value: Any) -> list[str]:
    return [] if isinstance(value, str) and _DECISION.match(value.strip()) else _is("decision_id", value)


#: field, rule, required, checker: the reference's table, in its order
_FIELDS: tuple[tuple[str, str, bool, Callable[[Any], list[str]]], ...] = (
    ("id", "kb_id", True, _id_form),
    ("title", "kb_field", True, _title),
    ("status", "kb_status", True, _choice("status", ("raw", "archived", "curated"))),
    ("domain", "kb_field", True, _choice("domain", DOMAINS)),
    ("tags", "kb_field", True, _tags),
    ("created", "kb_field", True, _timestamp("created")),
    ("updated", "kb_field", True, _timestamp("updated")),
    ("links", "kb_link", False, _links_form),
    ("evidence", "kb_evidence", False, _evidence_form),
    ("confidence", "kb_field", True, _confidence),
    ("archived_reason", "kb_archived_reason", False, _reason_form),
    ("decision_id", "kb_field", False, _decision),
)


def check_note(note: Note) -> list[Problem]:
    """Every problem of one note that needs no other note: why it cannot be read, else its fields, id, status
    and folder, dates, evidence and archived reason."""
    if not note.read:
        return list(note.problems)
    found = list(note.problems) + list(_fields(note))
    for check in (_id_and_file, _status_and_folder, _dates, _evidence, _reason_required):
        found += check(note)
    return found


def _fields(note: Note) -> Iterator[Problem]:
    for name, key, required, checker in _FIELDS:
        value = note.data.get(name)
        if name not in note.data and required:
            yield problem(key, note.shown, 1, f"has no {name}; expected {name}: {EXPECTED[name]}")
        elif value is not None or required:
            for message in checker(value):
                yield problem(key, note.shown, note.line(name), message)


def _id_and_file(note: Note) -> list[Problem]:
    value = note.data.get("id")
    if not isinstance(value, str) or value == note.stem:
        return []
    return [problem("kb_id", note.shown, note.line("id"),
                    f"id {shown_value(value)} is not the file name {note.stem!r} without .md; expected them equal")]


def _status_and_folder(note: Note) -> list[Problem]:
    status, expected = note.data.get("status"), STATUS_OF_FOLDER[note.folder]
    if status not in STATUS_OF_FOLDER.values() or status == expected:
        return []
    home = next(f for f, s in STATUS_OF_FOLDER.items() if s == status)
    return [problem("kb_status", note.shown, note.line("status"),
                    f"status is {status!r} but the note is in {note.folder}/: expected {expected!r} there ({status} "
                    f"notes live in {home}/; 'ladder kb move' moves a note and sets its status)")]


def _dates(note: Note) -> list[Problem]:
    created, updated = moment(note.data.get("created")), moment(note.data.get("updated"))
    if created is None or updated is None or updated >= created:
        return []
    return [problem("kb_field", note.shown, note.line("updated"),
                    f"updated {written(note, 'updated')} is before created {written(note, 'created')}; expected "
                    "updated on or after created")]


def _curated(note: Note) -> bool:
    return note.folder == "curated" or note.data.get("status") == "curated"


def _evidence(note: Note) -> list[Problem]:
    found = _evidence_required(note)
    found += [_unknown_reference(note, ref) for ref in _references(note.data.get("evidence"))
              if not any(e.name == ref or e.name.startswith(ref + ".") for e in note.entries)]
    return found + [_entry_problem(note, e) for e in note.entries if len(e.fields) < len(_ENTRY_FIELDS)]


def _evidence_required(note: Note) -> list[Problem]:
    if not _curated(note) or note.data.get("evidence"):
        return []
    return [problem("kb_evidence", note.shown, note.line("evidence"),
                    "a curated note has no evidence; expected evidence: [E1, ...] naming E# entries of its "
                    "## Evidence section")]


def _unknown_reference(note: Note, ref: str) -> Problem:
    return problem("kb_evidence", note.shown, note.line("evidence"),
                   f"evidence names {ref}, which is no entry of the ## Evidence section; expected a line such as "
                   f"'- {ref}: method=... fetched_at=...' there")


def _references(value: Any) -> list[str]:
    """The well-formed E# references of an ``evidence`` value (the others are :func:`_evidence_form`'s)."""
    items = value if isinstance(value, list) else []
    return [v.strip() for v in items if isinstance(v, str) and _EVIDENCE_REF.match(v.strip())]


def _entry_problem(note: Note, entry: Entry) -> Problem:
    missing = " and ".join(f for f in _ENTRY_FIELDS if f not in entry.fields)
    return problem("kb_evidence", note.shown, entry.line,
                   f"evidence entry {entry.name} has no {missing}; expected 'fetched_at: <when>' and "
                   "'method: <how>' (or '=') on its line or the lines below it")


def _reason_required(note: Note) -> list[Problem]:
    archived = note.folder == "archive" or note.data.get("status") == "archived"
    if not archived or note.data.get("archived_reason") is not None:
        return []
    return [problem("kb_archived_reason", note.shown, note.line("status"),
                    f"an archived note has no archived_reason; expected archived_reason: "
                    f"{EXPECTED['archived_reason']}")]
