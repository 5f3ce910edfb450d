"""Lesson files: written once, never rewritten; a recurrence is a line of the family's occurrences file.

A *family* is what a lesson is about: the reviewer's free-text ``family_key`` normalised (NFKC,
lower case, runs of anything but letters and digits one ``-``), hashed with its *method class*:
``reviewed`` for a reviewer's lesson and for one synthesised from its declines (both judge the
same family), ``user-words`` for a lesson made from the user's own words when no reviewer
answered. Its files, under ``.agent/reflections/`` in the project (committed, read by people
and by the rules block):

* ``<family>.md``: front matter (``key: <JSON value>`` lines, which YAML reads too: family id,
  family key, method, severity, title, keywords, the dates, the occurrences at publication, the
  source capture hashes, the body's hash) and the lesson as Markdown: a title, what to do, how
  to apply it. Created exclusively (a temporary file linked to its name, which fails if the name
  exists), so a lesson is never rewritten, not even by two reviewers at once;
* ``<family>.occurrences.jsonl``: one line per recurrence (``when`` the capture was made, ``at``
  it was recorded, ``source`` its hash, ``via`` what found it), appended.

A publication whose family has a lesson, or whose body is identical to another family's lesson
(the same lesson under a key phrased differently), is a recurrence of that lesson, not a new
file. A capture already counted for a family is not counted again. Every publication runs under
one lock in the ``.ladder`` directory (``lessons.lock``), never in the committed folder.

Every text of a lesson comes from a reviewer or a user: each is made one line of agent data
(``reports.sanitize.agent_data``: no tag closed, no line started, no speaker faked) and capped
before it is written, and again when it is read.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

from ..errors import LadderError
from ..reports.sanitize import agent_data
from . import REFLECTIONS_DIR

__all__ = [
    "REFLECTIONS_DIR", "SEVERITIES", "METHODS", "TITLE_CAP", "TEXT_CAP", "KEY_CAP", "MAX_KEYWORDS", "MAX_LESSONS",
    "Draft", "Lesson", "Occurrence", "Published", "normal_key", "family_id", "method_class", "body_hash", "lesson_text",
    "parse_lesson", "read_lessons", "lesson_path", "occurrences_path", "publish", "recur", "reflections",
]

#: a lesson's severity, most severe first; Minor lessons never reach the block, only a matching prompt
SEVERITIES = ("Blocker", "Critical", "Major", "Minor")
#: how a lesson was made: judged by a reviewer, synthesised from its declines, or the user's own words
METHODS = ("reviewer", "escalation", "user-words")
_CLASS = {"reviewer": "reviewed", "escalation": "reviewed", "user-words": "user-words"}
TITLE_CAP = 120
TEXT_CAP = 600
KEY_CAP = 80
MAX_KEYWORDS = 8
_MAX_SOURCES = 20
#: lesson files read at most (the prompt hook reads them on every prompt)
MAX_LESSONS = 300
_MAX_FILE = 64 << 10
_MAX_OCCURRENCES = 10_000
_OCCURRENCES = ".occurrences.jsonl"
_FAMILY = re.compile(r"f[0-9a-f]{16}")
_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_NOT_WORD = re.compile(r"[\W_]+")


def normal_key(text: str) -> str:
    """A family key as it is hashed: NFKC, lower case, runs of anything but letters and digits one ``-``."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_WORD.sub("-", folded).strip("-")[:KEY_CAP]


def method_class(method: str) -> str:
    """``reviewed`` (a reviewer's lesson, or one synthesised from its declines) or ``user-words``."""
    return _CLASS[method]


def family_id(family_key: str, method: str) -> str:
    """``f`` and 16 hex digits: the normalised key hashed with its method class."""
    digest = hashlib.sha256(f"{method_class(method)}\n{normal_key(family_key)}".encode("utf-8"))
    return "f" + digest.hexdigest()[:16]


def _line(value: Any, cap: int) -> str:
    text = agent_data("" if value is None else str(value)).strip()
    return text if len(text) <= cap else text[:cap - 3].rstrip() + "..."


def body_hash(do: str, apply: str) -> str:
    """The lesson's body as merging compares it: what to do and how to apply it, case and spacing aside."""
    text = " ".join(f"{do}\n{apply}".casefold().split())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Draft:
    """A lesson to publish, as a reviewer (or the fallback) gives it; its texts are cleaned here."""

    family_key: str
    method: str
    severity: str
    title: str
    do: str
    apply: str
    keywords: tuple[str, ...] = ()
    #: the hashes of the captures it comes from (SHA-256 of the prompt), and when the first was made (ISO, UTC)
    sources: tuple[str, ...] = ()
    seen: str = ""

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise LadderError(f"lesson method {self.method!r} is not one of {', '.join(METHODS)}")
        if self.severity not in SEVERITIES:
            raise LadderError(f"lesson severity {self.severity!r} is not one of {', '.join(SEVERITIES)}")
        self._clean_texts()
        words = (normal_key(k) for k in self.keywords if isinstance(k, str))
        object.__setattr__(self, "keywords", tuple(dict.fromkeys(w for w in words if w))[:MAX_KEYWORDS])
        object.__setattr__(self, "sources", tuple(dict.fromkeys(s for s in self.sources if s))[:_MAX_SOURCES])

    def _clean_texts(self) -> None:
        """Each text one line of agent data within its cap; none may be empty."""
        for name, cap in (("family_key", KEY_CAP * 2), ("title", TITLE_CAP), ("do", TEXT_CAP), ("apply", TEXT_CAP)):
            object.__setattr__(self, name, _line(getattr(self, name), cap))
            if not getattr(self, name):
                raise LadderError(f"a lesson needs a non-empty {name}")
        if not normal_key(self.family_key):
            raise LadderError("a lesson's family_key needs a letter or a digit")

    @property
    def source(self) -> str:
        """The capture it comes from (the first, for one synthesised from several)."""
        return self.sources[0] if self.sources else ""

    @property
    def family(self) -> str:
        return family_id(self.family_key, self.method)


@dataclass(frozen=True)
class Lesson:
    """A lesson file as read back, with the recurrences its occurrences file holds."""

    family: str
    family_key: str
    method: str
    severity: str
    title: str
    do: str
    apply: str
    keywords: tuple[str, ...]
    published: str
    first_seen: str
    #: occurrences counted at publication (its sources); recurrences come on top
    occurrences: int
    sources: tuple[str, ...]
    #: the body's hash (:func:`body_hash`): two families with the same one are the same lesson
    body_sha: str
    path: Path
    #: ``(when, at, source)`` of each recurrence recorded since
    recurrences: tuple[tuple[str, str, str], ...] = field(default=())

    @property
    def count(self) -> int:
        """Every occurrence: those at publication and the recurrences since."""
        return self.occurrences + len(self.recurrences)

    @property
    def last(self) -> str:
        """When it last occurred (ISO): the latest recurrence, else its first sighting, else its publication."""
        return max((w for w, _, _ in self.recurrences), default=self.first_seen or self.published)

    @property
    def counted(self) -> frozenset[str]:
        """The capture hashes counted for it already."""
        return frozenset(self.sources) | frozenset(s for _, _, s in self.recurrences if s)


@dataclass(frozen=True)
class Occurrence:
    """One recurrence: when the complaint was made, when it was recorded, the capture's hash, what found it."""

    when: str
    at: str
    source: str
    via: str


@dataclass(frozen=True)
class Published:
    """What :func:`publish` did: ``published`` (a new file), ``recurred`` (a line added) or ``known``
    (that capture was counted for the family already)."""

    action: str
    family: str
    path: Path


def reflections(root: Path) -> Path:
    return root / REFLECTIONS_DIR


def lesson_path(root: Path, family: str) -> Path:
    return reflections(root) / f"{family}.md"


def occurrences_path(root: Path, family: str) -> Path:
    return reflections(root) / f"{family}{_OCCURRENCES}"


def _body(draft: Draft) -> list[str]:
    lines = [f"# {draft.title}", "", f"**What to do:** {draft.do}", "", f"**How to apply:** {draft.apply}"]
    if draft.method == "user-words":
        lines += ["", "_Made from the user's own words: no reviewer judged this complaint._"]
    elif draft.method == "escalation":
        lines += ["", "_Synthesised from the reviewer's declines of a complaint that kept coming back._"]
    return lines


def lesson_text(draft: Draft, published: str) -> str:
    """The lesson file: front matter (one JSON value per key) and the Markdown body."""
    meta: dict[str, Any] = {
        "ladder_lesson": 1, "family": draft.family, "family_key": draft.family_key, "method": draft.method,
        "severity": draft.severity, "title": draft.title, "keywords": list(draft.keywords),
        "published": published, "first_seen": draft.seen or published, "occurrences": max(1, len(draft.sources)),
        "sources": list(draft.sources), "body_sha": body_hash(draft.do, draft.apply),
        "do": draft.do, "apply": draft.apply,
    }
    head = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in meta.items()]
    return "\n".join(["---", *head, "---", "", *_body(draft)]) + "\n"


def _front_matter(text: str) -> Optional[dict[str, Any]]:
    lines = text.split("\n")
    if not lines or lines[0] != "---" or "---" not in lines[1:]:
        return None
    meta: dict[str, Any] = {}
    for line in lines[1:lines.index("---", 1)]:
        key, sep, value = line.partition(": ")
        if not sep:
            return None
        try:
            meta[key] = json.loads(value)
        except ValueError:
            return None
    return meta


def _text_of(meta: dict[str, Any], key: str, cap: int) -> str:
    value = meta.get(key)
    return _line(value, cap) if isinstance(value, str) else ""


def _date(value: Any) -> str:
    return value if isinstance(value, str) and _DATE.fullmatch(value) else ""


def _strings(value: Any, cap: int) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and 0 < len(v) <= 100)[:cap] if isinstance(value, list) \
        else ()


def _our_head(meta: Optional[dict[str, Any]]) -> bool:
    """Whether front matter is a lesson's: our marker, a family id, a known method and severity, a count."""
    if meta is None or meta.get("ladder_lesson") != 1:
        return False
    family, count = meta.get("family"), meta.get("occurrences")
    return (isinstance(family, str) and bool(_FAMILY.fullmatch(family)) and meta.get("method") in METHODS
            and meta.get("severity") in SEVERITIES and isinstance(count, int) and not isinstance(count, bool)
            and count >= 1 and bool(_date(meta.get("published"))))


def parse_lesson(text: str, path: Path) -> Optional[Lesson]:
    """A lesson file's front matter as a :class:`Lesson`, or ``None`` when it is not one of ours (a hand-written
    note in the folder, a damaged file)."""
    meta = _front_matter(text)
    if meta is None or not _our_head(meta):
        return None
    title, do, apply = (_text_of(meta, k, c) for k, c in (("title", TITLE_CAP), ("do", TEXT_CAP),
                                                          ("apply", TEXT_CAP)))
    if not (title and do and apply):
        return None
    family, method, severity, count = (meta[k] for k in ("family", "method", "severity", "occurrences"))
    return Lesson(family, _text_of(meta, "family_key", KEY_CAP * 2), str(method), str(severity), title, do, apply,
                  tuple(normal_key(k) for k in _strings(meta.get("keywords"), MAX_KEYWORDS)),
                  _date(meta.get("published")), _date(meta.get("first_seen")), count,
                  _strings(meta.get("sources"), _MAX_SOURCES), str(meta.get("body_sha") or ""), path)


def _recurrences(path: Path) -> tuple[tuple[str, str, str], ...]:
    """The occurrences file's lines that are whole records; a torn or foreign line is skipped."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(_MAX_OCCURRENCES * 256)
    except OSError:
        return ()
    found = []
    for line in raw.decode("utf-8", "replace").splitlines()[:_MAX_OCCURRENCES]:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and _date(entry.get("when")):
            source = entry.get("source")
            found.append((entry["when"], _date(entry.get("at")) or entry["when"],
                          source if isinstance(source, str) and len(source) <= 100 else ""))
    return tuple(found)


def _read_one(path: Path) -> Optional[Lesson]:
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as handle:
            raw = handle.read(_MAX_FILE + 1)
    except OSError:
        return None
    if len(raw) > _MAX_FILE:
        return None
    lesson = parse_lesson(raw.decode("utf-8", "replace"), path)
    if lesson is None or path.name != f"{lesson.family}.md":
        return None
    occurrences = _recurrences(path.with_name(lesson.family + _OCCURRENCES))
    return Lesson(**{**lesson.__dict__, "recurrences": occurrences}) if occurrences else lesson


def _inside(path: Path, root: Path) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def _lesson_names(folder: Path, root: Path) -> list[str]:
    """The lesson files' names in the folder, in order; none when it leads out of the project."""
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".md") and _FAMILY.fullmatch(n[:-3]))
    except OSError:
        return []
    return names if _inside(folder, root) else []


def _by(lesson: Lesson, cutoff: str) -> Optional[Lesson]:
    """The lesson as it was at ``cutoff``: ``None`` when published later, its later recurrences left out."""
    if lesson.published > cutoff:
        return None
    kept = tuple(r for r in lesson.recurrences if r[1] <= cutoff)
    return lesson if kept == lesson.recurrences else Lesson(**{**lesson.__dict__, "recurrences": kept})


def read_lessons(root: Path, *, cutoff: Optional[str] = None, limit: int = MAX_LESSONS) -> list[Lesson]:
    """The project's lessons (at most ``limit`` files, in name order), each with its recurrences; with
    ``cutoff`` (ISO, UTC, ``Z``) only what was published, and recurrences recorded, by then. A folder that
    leads out of the project through a symlink is not read."""
    folder = reflections(root)
    lessons = []
    for name in _lesson_names(folder, root)[:limit]:
        lesson = _read_one(folder / name)
        if lesson is not None and cutoff is not None:
            lesson = _by(lesson, cutoff)
        if lesson is not None:
            lessons.append(lesson)
    return lessons


# -- the writer ------------------------------------------------------------------------------------------


def _create_once(path: Path, data: bytes) -> bool:
    """Write ``path`` only if it does not exist, whole (a synced temporary file linked to its name); whether
    it was written."""
    import tempfile

    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o644)
        try:
            os.link(temp, path)
        except FileExistsError:
            return False
        except (AttributeError, NotImplementedError, PermissionError):  # no hard links here: exclusive create
            return _create_exclusive(path, data)
        return True
    finally:
        try:
            os.unlink(temp)
        except OSError:
            pass


def _create_exclusive(path: Path, data: bytes) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return True


def _append(path: Path, occurrence: Occurrence) -> None:
    """One JSON line at the end of ``path`` (under the lessons lock: one writer at a time); a torn last line
    is ended first, so it costs that line only."""
    data = (json.dumps(occurrence.__dict__, ensure_ascii=False) + "\n").encode("utf-8")
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o644)
    try:
        if os.fstat(fd).st_size:
            os.lseek(fd, -1, os.SEEK_END)
            if os.read(fd, 1) != b"\n":
                data = b"\n" + data
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _folder(root: Path) -> Path:
    folder = reflections(root)
    real = Path(os.path.realpath(root))
    folder.mkdir(parents=True, exist_ok=True)
    if not _inside(folder, real):
        raise LadderError(f"{REFLECTIONS_DIR} leads outside the project root {real}; no lesson was written")
    return folder


def _recur(root: Path, lesson: Lesson, draft: Draft, at: str, via: str) -> Published:
    if draft.source and draft.source in lesson.counted:
        return Published("known", lesson.family, lesson.path)
    _append(occurrences_path(root, lesson.family), Occurrence(draft.seen or at, at, draft.source, via))
    return Published("recurred", lesson.family, lesson.path)


def recur(root: Path, history_dir: str, family: str, occurrence: Occurrence) -> Published:
    """Count one more occurrence of ``family``'s lesson (a complaint the reviewer declined, in a family that
    has a lesson): a line of its occurrences file, unless that capture was counted already."""
    from ..ladderdir.lock import held, project_lock

    with held(project_lock(root, history_dir, "lessons.lock"), "the lessons in " + REFLECTIONS_DIR):
        lesson = _read_one(lesson_path(root, family))
        if lesson is None:
            raise LadderError(f"{lesson_path(root, family)}: no lesson of family {family} to count a recurrence of")
        if occurrence.source and occurrence.source in lesson.counted:
            return Published("known", family, lesson.path)
        _append(occurrences_path(root, family), occurrence)
        return Published("recurred", family, lesson.path)


def publish(root: Path, history_dir: str, draft: Draft, now: str, existing: Optional[Iterable[Lesson]] = None
            ) -> Published:
    """Publish ``draft`` at ``now`` (ISO, UTC, ``Z``): a new lesson file, or a recurrence of the lesson of its
    family or of the lesson with the same body. Under the lessons lock; a :class:`LadderError` when the lock
    is held for more than ten seconds or the folder leads out of the project."""
    from ..ladderdir.lock import held, project_lock

    with held(project_lock(root, history_dir, "lessons.lock"), "the lessons in " + REFLECTIONS_DIR):
        folder = _folder(root)
        lessons = {lesson.family: lesson for lesson in (read_lessons(root) if existing is None else existing)}
        same = lessons.get(draft.family) or next(
            (lesson for lesson in lessons.values() if lesson.body_sha == body_hash(draft.do, draft.apply)), None)
        if same is not None:
            return _recur(root, same, draft, now, draft.method if same.family == draft.family else "same body")
        path = folder / f"{draft.family}.md"
        if _create_once(path, lesson_text(draft, now).encode("utf-8")):
            return Published("published", draft.family, path)
        written = _read_one(path)  # another writer made it meanwhile (without our lock: by hand)
        if written is None:
            raise LadderError(f"{path}: exists but is not a lesson file; it was left as it is")
        return _recur(root, written, draft, now, draft.method)
