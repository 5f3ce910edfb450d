"""One knowledge-base note: read (frontmatter, body, ``[[id]]`` links, ``## Evidence`` entries) and judged alone.

Everything read is untrusted: the file is read up to :data:`MAX_NOTE_BYTES`, the
frontmatter up to :data:`MAX_FRONT_MATTER` characters (PyYAML's safe loader, which
builds no object a tag names, reads some 50 KB a second), and a value of any YAML
type is described, never printed whole. What needs the other notes (ids unique,
links both ways, registers, the index) is :mod:`.kb`'s.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence

from ..catalogue import plural
from ..errors import LadderError
from ..feedback.frontmatter import FrontMatter, split_front_matter
from .model import Problem, problem

__all__ = ["FOLDERS", "STATUS_OF_FOLDER", "DOMAINS", "TAG_PREFIXES", "MAX_NOTE_BYTES", "MAX_FRONT_MATTER",
           "Unreadable", "Link", "Entry", "Note", "read_text", "read_note", "check_note", "moment", "valid_tag",
           "shown_value", "edit_front_matter", "yaml_text"]

FOLDERS = ("raw", "archive", "curated")
STATUS_OF_FOLDER = {"raw": "raw", "archive": "archived", "curated": "curated"}
DOMAINS = ("research", "code", "design", "document", "analysis", "project", "other")
TAG_PREFIXES = ("topic/", "type/", "loop/", "gap/", "priority/")
MAX_NOTE_BYTES = 16 * 1024 * 1024
MAX_FRONT_MATTER = 32 * 1024

_ID = re.compile(r"(\d{8}-\d{6})-[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_EVIDENCE_REF = re.compile(r"E\d+(?:\.\d+)*\Z")
_DECISION = re.compile(r"D\d+\Z")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
                  r"(Z|[+-]\d{2}(?::?\d{2})?)?)?\Z")
_WIKI = re.compile(r"\[\[([^\[\]\n]{1,300})\]\]")
_EVIDENCE_HEADING = re.compile(r"^##[ \t]+evidence\b", re.I | re.M)
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*?)[ \t#]*\Z")
#: an E# entry of the ``## Evidence`` section: ``- E1: ...``, ``E1.2 ...``, ``### E1``, ``**E1**:``
_ENTRY = re.compile(r"[ \t]*(?:[-*+][ \t]+|#{3,6}[ \t]+)?(?:\*\*|`)?(E\d+(?:\.\d+)*)(?:\*\*|`)?(?=\Z|[\s:.)\]])")
_ENTRY_FIELD = re.compile(r"(?<!\w)(fetched_at|method)[`*]*[ \t]*[:=][ \t]*\S")
_ENTRY_FIELDS = ("fetched_at", "method")

#: what a YAML value of another type is called in a message (``!!binary``, ``!!set``, a mapping)
_KINDS = {dict: "a mapping", bytes: "binary data (!!binary)", set: "a set (!!set)"}

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


class Unreadable(LadderError):
    """A file that cannot be read as UTF-8 text: ``reason`` says why, ``line`` where (1 when nowhere)."""

    def __init__(self, reason: str, line: int = 1) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


@dataclass(frozen=True)
class Link:
    """A note id a note links to, and the line it does so at (the ``links`` key, or the ``[[id]]``'s line)."""

    target: str
    line: int


@dataclass(frozen=True)
class Entry:
    """An E# entry of the ``## Evidence`` section: its name, line, and which of fetched_at/method it has."""

    name: str
    line: int
    fields: frozenset[str]


@dataclass(frozen=True)
class Note:
    """A note file as read; ``read`` false (and ``problems`` saying why) when its frontmatter could not be."""

    shown: str
    folder: str
    stem: str
    read: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)
    #: each frontmatter key's line in the file (its last occurrence, the one YAML keeps)
    lines: Mapping[str, int] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1
    links: tuple[Link, ...] = ()
    entries: tuple[Entry, ...] = ()
    problems: tuple[Problem, ...] = ()

    def line(self, key: str) -> int:
        return self.lines.get(key, 1)

    @property
    def ident(self) -> str:
        """The id the note goes by: its ``id`` when that is a text, else its file name without ``.md``."""
        value = self.data.get("id")
        return value.strip() if isinstance(value, str) and value.strip() else self.stem


# -- reading ------------------------------------------------------------------------------


def read_text(file: Path, limit: int = MAX_NOTE_BYTES) -> str:
    """The file as UTF-8 text (a byte-order mark kept): anything else raises :class:`Unreadable`."""
    try:
        with open(file, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise Unreadable(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise Unreadable(f"is larger than {limit // (1024 * 1024)} MiB, more than a note is read")
    nul = data.find(b"\0")
    if nul >= 0:
        raise Unreadable(f"is a binary file (a NUL byte at byte {nul}); expected UTF-8 text",
                         data[:nul].count(b"\n") + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"is not UTF-8 (byte {exc.start} is 0x{data[exc.start]:02x}); expected UTF-8 text",
                         data[: exc.start].count(b"\n") + 1) from None


def _unbommed(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def read_note(file: Path, shown: str, folder: str) -> Note:
    """The note at ``file`` (shown as ``shown``, in ``folder``); what stops it being read is in ``problems``."""
    stem = file.name[:-3] if file.name.endswith(".md") else file.name
    try:
        text = _unbommed(read_text(file))
    except Unreadable as exc:
        return Note(shown, folder, stem, problems=(problem("kb_frontmatter", shown, exc.line, exc.reason),))
    front = split_front_matter(text, max_chars=MAX_FRONT_MATTER)
    why = _front_problem(front, text)
    if why is not None:
        return Note(shown, folder, stem, problems=(problem("kb_frontmatter", shown, front.problem_line, why),))
    return _note(shown, folder, stem, front)


def _note(shown: str, folder: str, stem: str, front: FrontMatter) -> Note:
    lines = {name: first for name, first, _ in front.keys}
    links = _front_links(front.data.get("links"), lines.get("links", 1)) + _body_links(front.body, front.body_line)
    return Note(shown, folder, stem, True, front.data, lines, front.body, front.body_line, links,
                _entries(front.body, front.body_line), tuple(_duplicates(front, shown)))


def _front_problem(front: FrontMatter, text: str) -> Optional[str]:
    """Why the frontmatter cannot be used (``None`` when it can)."""
    if front.problem is not None:
        return f"{front.problem}; expected a YAML mapping of the note's fields between '---' lines"
    if front.body_line == 1:
        if text.startswith("---"):
            return "the frontmatter has no closing '---' line"
        return "has no frontmatter; expected a '---' line, the YAML fields, and a '---' line at the top"
    return None


def _duplicates(front: FrontMatter, shown: str) -> Iterator[Problem]:
    counts = Counter(name for name, _, _ in front.keys)
    for name, first, _ in front.keys:
        if counts[name] > 1:
            lines = [str(f) for n, f, _ in front.keys if n == name]
            yield problem("kb_frontmatter", shown, first,
                          f"key '{name}' appears {counts[name]} times (lines {', '.join(lines)}); YAML keeps only "
                          "the last: expected each key once")


def link_target(item: Any) -> Optional[str]:
    """The note id a ``links`` item names: a text, ``[[id]]`` quoted or not (unquoted, YAML reads it as a
    list in a list), else ``None``."""
    for _ in range(3):
        if isinstance(item, list) and len(item) == 1:
            item = item[0]
    if not isinstance(item, str):
        return None
    text = item.strip()
    if text.startswith("[[") and text.endswith("]]"):
        text = text[2:-2].strip()
    return text or None


def _front_links(value: Any, line: int) -> tuple[Link, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(Link(t, line) for t in map(link_target, value) if t is not None)


def _body_links(body: str, first: int) -> tuple[Link, ...]:
    """Every ``[[id]]`` of the body (``[[id|shown]]`` and ``[[id#part]]`` name ``id``), with its line (counted
    from one match to the next: a 10 MB body is not cut into lines for it)."""
    found, line, at = [], first, 0
    for match in _WIKI.finditer(body):
        line, at = line + body.count("\n", at, match.start()), match.start()
        target = re.split(r"[|#]", match.group(1), maxsplit=1)[0].strip()
        if target:
            found.append(Link(target, line))
    return tuple(found)


def _evidence_section(body: str, first: int) -> Iterator[tuple[int, str]]:
    """The lines of the ``## Evidence`` section (to the next heading of level 1 or 2), numbered."""
    if not _EVIDENCE_HEADING.search(body):
        return
    inside = False
    for number, line in enumerate(body.split("\n"), first):
        heading = _HEADING.match(line)
        if heading and len(heading.group(1)) <= 2:
            inside = len(heading.group(1)) == 2 and heading.group(2).strip().lower() == "evidence"
        elif inside:
            yield number, line


def _entries(body: str, first: int) -> tuple[Entry, ...]:
    """The E# entries of the ``## Evidence`` section: an entry is a line starting with ``E<n>`` or
    ``E<n>.<m>`` (after an optional ``-``/``*``/``+`` or ``###``, bold or code); its fields are on its line and
    the lines below it, up to the next entry."""
    entries: list[tuple[str, int, set[str]]] = []
    for number, line in _evidence_section(body, first):
        entry = _ENTRY.match(line)
        if entry:
            entries.append((entry.group(1), number, set()))
        if entries:
            entries[-1][2].update(m.group(1) for m in _ENTRY_FIELD.finditer(line))
    return tuple(Entry(name, line, frozenset(fields)) for name, line, fields in entries)


# -- values -------------------------------------------------------------------------------


def shown_value(value: Any) -> str:
    """A YAML value for a message: a text quoted and cut, a number, else what it is (never a list whole)."""
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if value is None or isinstance(value, (bool, int, float)):
        return _shown_number(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return f"a list of {plural(len(value), 'item')}"
    return _KINDS.get(type(value), f"a {type(value).__name__}")


def _shown_number(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int) and value.bit_length() > 64:
        return "a very large integer"  # str() of a 5000-digit one raises
    return repr(value)


def _parsed(text: str) -> Optional[datetime]:
    """``YYYY-MM-DD``, optionally ``THH:MM[:SS[.fraction]]`` and ``Z`` or ``+HH:MM``: the ISO-8601 forms the
    notes use, read the same on every Python (3.9's ``fromisoformat`` knows fewer)."""
    match = _ISO.match(text.strip())
    if match is None:
        return None
    numbers = [int(part or 0) for part in match.groups()[:6]]
    micro = int((match.group(7) or "0")[:6].ljust(6, "0"))
    try:
        return datetime(*numbers, micro, _zone(match.group(8)))  # type: ignore[misc]
    except ValueError:
        return None


def _zone(text: Optional[str]) -> Optional[timezone]:
    if not text:
        return None
    if text == "Z":
        return timezone.utc
    digits = text[1:].replace(":", "")
    offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:] or 0))
    return timezone(-offset if text[0] == "-" else offset)


def moment(value: Any) -> Optional[datetime]:
    """An ISO-8601 ``created``/``updated`` as a naive UTC datetime (naive ones taken as UTC), to compare; PyYAML
    gives datetime and date objects for unquoted ones, a quoted one must parse; anything else is ``None``."""
    if isinstance(value, str):
        value = _parsed(value)
    elif isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if not isinstance(value, datetime):
        return None
    offset = value.utcoffset()
    try:
        return value.replace(tzinfo=None) - (offset or timedelta(0))
    except OverflowError:
        return value.replace(tzinfo=None)


def valid_tag(value: Any) -> bool:
    """A tag the index can list: a non-empty text without white space or control characters."""
    return isinstance(value, str) and bool(value) and not any(c.isspace() or not c.isprintable() for c in value)


def _near_prefix(tag: str) -> Optional[str]:
    """The taxonomy prefix a tag's own prefix nearly is (``tpye/`` for ``type/``), or ``None``."""
    if "/" not in tag:
        return None
    prefix = tag[: tag.index("/") + 1]
    if prefix in TAG_PREFIXES:
        return None
    close = difflib.get_close_matches(prefix.lower(), TAG_PREFIXES, n=1, cutoff=0.8)
    return close[0] if close else None


# -- the checks of one note ---------------------------------------------------------------


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
                    f"updated {shown_value(note.data['updated'])} is before created "
                    f"{shown_value(note.data['created'])}; expected updated on or after created")]


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


# -- editing the frontmatter in place -----------------------------------------------------


def yaml_text(value: str) -> str:
    """``value`` as one double-quoted YAML scalar on one line (line breaks and quotes escaped)."""
    import yaml

    return yaml.safe_dump(value, default_style='"', allow_unicode=True, width=1 << 30).rstrip("\n")


def edit_front_matter(text: str, changes: Mapping[str, str], shown: str) -> str:
    """``text`` with each key of ``changes`` set to its YAML scalar text: the key's lines replaced by one
    ``key: value`` line, or the line added after the last key; every other byte kept. Checked by reading the
    result back; what cannot be edited this way raises :class:`LadderError` and nothing is written."""
    front = split_front_matter(text, max_chars=MAX_FRONT_MATTER)
    _editable(front, text, changes, shown)
    edited = "\n".join(_edited_lines(text.split("\n"), front, changes))
    _check_edit(front, text, edited, changes, shown)
    return edited


def _edited_lines(lines: list[str], front: FrontMatter, changes: Mapping[str, str]) -> list[str]:
    """New keys after the last key (so no line number of an old one moves), then old keys replaced from the
    bottom up; a CRLF file gets CRLF lines."""
    end = "\r" if lines[0].endswith("\r") else ""
    spans = {name: (first, last) for name, first, last in front.keys}
    _insert(lines, spans, [f"{k}: {v}{end}" for k, v in changes.items() if k not in spans])
    for name in sorted((k for k in changes if k in spans), key=lambda k: spans[k], reverse=True):
        lines[spans[name][0] - 1:spans[name][1]] = [f"{name}: {changes[name]}{end}"]
    return lines


def _insert(lines: list[str], spans: Mapping[str, tuple[int, int]], new: list[str]) -> None:
    """``new`` after the last key's last line (after the opening ``---`` when there is no key)."""
    after = max((last for _, last in spans.values()), default=1)
    lines[after:after] = new


def _editable(front: FrontMatter, text: str, changes: Mapping[str, str], shown: str) -> None:
    why = _front_problem(front, text)
    if why is not None:
        raise LadderError(f"{shown}:{front.problem_line}: {why}; fix the frontmatter first")
    if front.data and not front.keys:
        raise LadderError(f"{shown}: the frontmatter is not one key per line (block style); expected 'key: value' "
                          "lines to edit in place")
    counts = Counter(name for name, _, _ in front.keys)
    for name in changes:
        if counts[name] > 1:
            raise LadderError(f"{shown}: key '{name}' appears {counts[name]} times in the frontmatter; expected once")


def _span_texts(text: str, front: FrontMatter) -> dict[str, str]:
    lines = text.split("\n")
    return {name: "\n".join(lines[first - 1:last]) for name, first, last in front.keys}


def _check_edit(old: FrontMatter, text: str, edited: str, changes: Mapping[str, str], shown: str) -> None:
    """The edit read back: the changed keys as meant, every other key's lines and the body unchanged."""
    new = split_front_matter(edited, max_chars=MAX_FRONT_MATTER)
    if new.problem is not None or new.body != old.body or not _kept((text, old), (edited, new), changes) \
            or not _as_meant(new, changes):
        raise LadderError(f"{shown}: the frontmatter cannot be edited in place safely; set "
                          f"{', '.join(changes)} by hand")


def _kept(old: tuple[str, FrontMatter], new: tuple[str, FrontMatter], changes: Mapping[str, str]) -> bool:
    """Same keys in the same order (new ones last), each unchanged one on the same text."""
    before, after = _span_texts(*old), _span_texts(*new)
    names = [n for n, _, _ in old[1].keys] + [k for k in changes if k not in before]
    if [n for n, _, _ in new[1].keys] != names:
        return False
    return all(before[n] == after.get(n) for n in names if n not in changes)


def _as_meant(new: FrontMatter, changes: Mapping[str, str]) -> bool:
    import yaml

    return all(new.data.get(k) == yaml.safe_load(v) for k, v in changes.items())
