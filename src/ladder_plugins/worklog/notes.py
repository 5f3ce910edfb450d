"""One knowledge-base note read: frontmatter, body, ``[[id]]`` links, ``## Evidence`` entries, its values.

Everything read is untrusted: the file is read up to :data:`MAX_NOTE_BYTES`, the
frontmatter up to :data:`MAX_FRONT_MATTER` characters (PyYAML's safe loader, which
builds no object a tag names, reads some 50 KB a second), and a value of any YAML
type is described, never printed whole. What needs the other notes (ids unique,
links both ways, registers, the index) is :mod:`.kb`'s.

Its own module: reading is what the index, the checks of one note (:mod:`.noteschema`)
and the frontmatter editor (:mod:`.noteedit`) share, so each imports it and it imports
none of them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional

from ..catalogue import plural
from ..errors import LadderError
from ..readers.frontmatter import FrontMatter, split_front_matter
from .model import Problem, problem

__all__ = ["REGISTERS", "FOLDERS", "STATUS_OF_FOLDER", "DOMAINS", "TAG_PREFIXES", "MAX_NOTE_BYTES",
           "MAX_FRONT_MATTER", "TIMES", "Unreadable", "Link", "Entry", "Note", "read_text", "read_note",
           "note_of_text", "front_problem", "link_target", "moment", "parsed_time", "written", "valid_tag",
           "shown_value"]

#: the registers in ``curated/`` and their table's columns, in order (the skill's section 8)
REGISTERS = {
    "UNCERTAINTY-REGISTER": ("Item", "Type (epistemic/aleatory)", "Likelihood", "Impact", "Next Test"),
    "GAP-REGISTER": ("Gap ID", "Missing Data", "Impact", "Fallback", "Confidence Penalty", "Follow-up"),
}

FOLDERS = ("raw", "archive", "curated")
STATUS_OF_FOLDER = {"raw": "raw", "archive": "archived", "curated": "curated"}
DOMAINS = ("research", "code", "design", "document", "analysis", "project", "other")
TAG_PREFIXES = ("topic/", "type/", "loop/", "gap/", "priority/")
MAX_NOTE_BYTES = 16 * 1024 * 1024
MAX_FRONT_MATTER = 32 * 1024

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
                  r"(Z|[+-]\d{2}(?::?\d{2})?)?)?\Z")
_WIKI = re.compile(r"\[\[([^\[\]\n]{1,300})\]\]")
#: the ``## Evidence`` section's heading: a level-2 heading whose text starts with the word Evidence
_EVIDENCE_WORD = r"evidence\b"
_EVIDENCE_HEADING = re.compile(r"^##[ \t]+" + _EVIDENCE_WORD, re.I | re.M)
_EVIDENCE_TITLE = re.compile(_EVIDENCE_WORD, re.I)
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*?)[ \t#]*\Z")
#: an E# entry of the ``## Evidence`` section: ``- E1: ...``, ``E1.2 ...``, ``### E1``, ``**E1**:``
_ENTRY = re.compile(r"[ \t]*(?:[-*+][ \t]+|#{3,6}[ \t]+)?(?:\*\*|`)?(E\d+(?:\.\d+)*)(?:\*\*|`)?(?=\Z|[\s:.)\]])")
_ENTRY_FIELD = re.compile(r"(?<!\w)(fetched_at|method)[`*]*[ \t]*[:=][ \t]*\S")
#: the scalar of a one-line ``key: value`` as written: after the key and a tag, before a comment
_SCALAR = re.compile(r"[^:]*:[ \t]*(?:![^ \t]*[ \t]+)?(.*?)(?:[ \t]+#.*)?\r?\Z")
TIMES = ("created", "updated")

#: what a YAML value of another type is called in a message (``!!binary``, ``!!set``, a mapping)
_KINDS: dict[type, str] = {dict: "a mapping", bytes: "binary data (!!binary)", set: "a set (!!set)"}


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
    #: the text of a one-line ``created``/``updated`` that YAML read as a date or time (it gives no text)
    times: Mapping[str, str] = field(default_factory=dict)
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
        text = read_text(file)
    except Unreadable as exc:
        return Note(shown, folder, stem, problems=(problem("kb_frontmatter", shown, exc.line, exc.reason),))
    return note_of_text(text, shown, folder, stem)


def note_of_text(text: str, shown: str, folder: str, stem: str) -> Note:
    """The note whose file holds ``text`` (a byte-order mark allowed), as :func:`read_note` reads it."""
    text = _unbommed(text)
    front = split_front_matter(text, max_chars=MAX_FRONT_MATTER)
    why = front_problem(front, text)
    if why is not None:
        return Note(shown, folder, stem, problems=(problem("kb_frontmatter", shown, front.problem_line, why),))
    return _note(shown, folder, stem, front, text)


def _note(shown: str, folder: str, stem: str, front: FrontMatter, text: str) -> Note:
    lines = {name: first for name, first, _ in front.keys}
    links = _front_links(front.data.get("links"), lines.get("links", 1)) + _body_links(front.body, front.body_line)
    return Note(shown, folder, stem, True, front.data, lines, front.body, front.body_line, _times(front, text),
                links, _entries(front.body, front.body_line), tuple(_duplicates(front, shown)))


def _times(front: FrontMatter, text: str) -> dict[str, str]:
    """The text of each one-line ``created``/``updated`` YAML read as a date or time (``2026-03-03 17:00:00Z``),
    as written: what the index shows, not the datetime's own form."""
    spans = {name: (first, last) for name, first, last in front.keys if name in TIMES and first == last}
    lines = text.split("\n") if spans else []
    found = {}
    for name, (first, _) in spans.items():
        match = _SCALAR.match(lines[first - 1])
        if isinstance(front.data.get(name), date) and match and match.group(1):
            found[name] = match.group(1)
    return found


def front_problem(front: FrontMatter, text: str) -> Optional[str]:
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
                          f"key {name!r} appears {counts[name]} times (lines {', '.join(lines)}); YAML keeps only "
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
            inside = len(heading.group(1)) == 2 and _EVIDENCE_TITLE.match(heading.group(2)) is not None
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


def parsed_time(text: str) -> Optional[datetime]:
    """``YYYY-MM-DD``, optionally ``THH:MM[:SS[.fraction]]`` and ``Z`` or ``+HH:MM``: the ISO-8601 forms the
    notes use, read the same on every Python (3.9's ``fromisoformat`` knows fewer)."""
    match = _ISO.match(text.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(part or 0) for part in match.groups()[:6])
    micro = int((match.group(7) or "0")[:6].ljust(6, "0"))
    try:
        return datetime(year, month, day, hour, minute, second, micro, _zone(match.group(8)))
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
        value = parsed_time(value)
    elif isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if not isinstance(value, datetime):
        return None
    offset = value.utcoffset()
    try:
        return value.replace(tzinfo=None) - (offset or timedelta(0))
    except OverflowError:
        return value.replace(tzinfo=None)


def written(note: Note, key: str) -> str:
    """A ``created``/``updated`` of ``note`` as the note writes it (a date or time YAML read from a one-line
    key as its text there), for the index and messages."""
    value = note.data.get(key)
    if isinstance(value, str):
        return value.strip()
    if key in note.times:
        return note.times[key]
    return value.isoformat() if isinstance(value, date) else shown_value(value)


def valid_tag(value: Any) -> bool:
    """A tag the index can list: a non-empty text without white space or control characters."""
    return isinstance(value, str) and bool(value) and not any(c.isspace() or not c.isprintable() for c in value)
