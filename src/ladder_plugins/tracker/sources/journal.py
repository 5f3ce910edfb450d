"""Level 1 kept by ladder itself: notes added with ``ladder feedback add`` and the prompt hook's captures.

Both are JSON lines under the history directory (``.ladder/feedback/notes.jsonl`` and
``captures.jsonl``), one piece of feedback per line: ``{"id", "when", "text",
"keywords"}``. Each line's ``id`` is its identity, so a note or a capture counts once
however often the tracker scans. A line that is not such an object is skipped,
counted and kept, and said once per file.

A capture (``agents/captures.py`` writes them) keeps no words unless ``store_prompts`` is set:
its ``keys`` are its keywords as opaque keys, and its ``text`` is those keys (or one key of its
reason codes when it named no topic), so captures still meet by what they are about, and
topic-less ones by reason code. A capture written with ``store_prompts`` shows its words (its
keys go along as keywords); the tracker matches texts, so captures written before and after
``store_prompts`` changes do not meet. The reason codes go into the sighting's location, for
people, where they join nothing. Older
captures (words in ``text`` and ``keywords``, no ``keys``) are read as before.

A capture marked ``"ask": "classify"`` is not counted until a verdict line in the same file,
``{"verdict": <capture id>, "when", "dissatisfied": true}``, says so (the last verdict on a
capture holds); a verdict line is not a piece of feedback itself.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from ...errors import LadderError
from ...hookspecs import hookimpl
from ...ladderdir.paths import CAPTURES_FILE, JOURNAL_DIR, inside
from ..model import Sighting, SourceContext

__all__ = ["NOTES", "CAPTURES", "journal_dir", "add_note", "entries", "ladder_feedback_sources"]

NOTES = "notes.jsonl"
#: the prompt hook's captures (``agents.captures`` writes them)
CAPTURES = CAPTURES_FILE
_MAX_TEXT = 4000
_MAX_BYTES = 16 << 20
_KINDS = {NOTES: ("notes", "note", "ladder feedback add"), CAPTURES: ("captures", "capture", "prompt hook")}


def journal_dir(root: Path, history_dir: str) -> Path:
    return root / history_dir / JOURNAL_DIR


def _id_ok(value: Any) -> bool:
    return isinstance(value, str) and value.isprintable() and 0 < len(value) <= 100


def _text_ok(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= _MAX_TEXT


def _when_ok(value: Any) -> bool:
    return isinstance(value, str) and len(value) >= 10 and value[:10].replace("-", "").isdigit()


def _keywords_ok(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(k, str) and len(k) <= 50 for k in value)


_FIELDS = (("id", _id_ok), ("text", _text_ok), ("when", _when_ok))


def _valid(data: Any) -> Optional[dict[str, Any]]:
    """The entry if it has the shape the tracker trusts: a printable id, a date, a text, word keywords (and keys,
    and reason codes, when it has them)."""
    if not isinstance(data, dict) or not all(ok(data.get(key)) for key, ok in _FIELDS):
        return None
    lists = (data.get("keywords", []), data.get("keys", []), data.get("reasons", []))
    return data if all(map(_keywords_ok, lists)) else None


def _verdict(data: Any) -> Optional[dict[str, Any]]:
    """A reviewer's verdict on a capture marked ``ask``, if ``data`` is one."""
    ok = (isinstance(data, dict) and _id_ok(data.get("verdict")) and _when_ok(data.get("when"))
          and isinstance(data.get("dissatisfied"), bool) and _keywords_ok(data.get("reasons", [])))
    return data if ok else None


def _read(path: Path, context: SourceContext) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(_MAX_BYTES + 1)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        context.warn(f"{path}: cannot be read ({exc.strerror or exc}); skipped")
        return b""


def _parsed(line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _lines(path: Path, context: SourceContext) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The valid entries and the verdicts of one journal file (a missing file has none); the rest counted and
    said once."""
    raw = _read(path, context)
    lines = [_parsed(line) for line in raw[:_MAX_BYTES].splitlines() if line.strip()]
    found = [entry for entry in map(_valid, lines) if entry is not None]
    verdicts = [verdict for verdict in map(_verdict, lines) if verdict is not None]
    cut, unreadable = len(raw) > _MAX_BYTES, len(lines) - len(found) - len(verdicts)
    if unreadable or cut:
        context.warn(f"{path}: {unreadable} unreadable lines{' (and more past 16 MB)' if cut else ''}; "
                     "skipped and kept")
    return found, verdicts


def entries(path: Path, context: SourceContext) -> Iterator[dict[str, Any]]:
    """The valid entries of one journal file (a missing file has none); the rest counted and said once. A
    capture marked ``ask`` is among them only when its last verdict says it is dissatisfaction."""
    found, verdicts = _lines(path, context)
    said = {v["verdict"]: v for v in verdicts}
    for entry in found:
        if entry.get("ask") is None:
            yield entry
        elif entry["id"] in said and said[entry["id"]]["dissatisfied"]:
            yield {**entry, "reasons": said[entry["id"]].get("reasons") or entry.get("reasons", [])}


def _where(prefix: str, ident: str, how: str, entry: dict[str, Any]) -> str:
    reasons = ", ".join(entry.get("reasons") or ())
    return f"{prefix} {ident[:12]} ({how}{': ' + reasons if reasons else ''})"


def _sightings(folder: Path, name: str, context: SourceContext) -> Iterator[Sighting]:
    source, prefix, how = _KINDS[name]
    for entry in entries(folder / name, context):
        ident = entry["id"]
        keywords = tuple(dict.fromkeys([*entry.get("keywords", ()), *entry.get("keys", ())]))
        yield Sighting(1, entry["text"].strip(), _where(prefix, ident, how, entry), source, f"{prefix}:{ident}",
                       entry["when"][:10], keywords)


def _note_text(text: str) -> str:
    """The note's text on one line; an empty or over-long one is a usage error."""
    text = " ".join(text.split())
    if not text:
        raise LadderError("a note needs some text: ladder feedback add \"what the feedback says\"")
    if len(text) > _MAX_TEXT:
        raise LadderError(f"a note is at most {_MAX_TEXT} characters (this one has {len(text)})")
    return text


def _append(path: Path, entry: dict[str, Any]) -> None:
    """One whole line, under the file's lock, synced: notes added at the same time are all kept."""
    from ...ladderdir.append import append_line
    from ...ladderdir.lock import LOCK_TIMEOUT

    try:
        written = append_line(path, entry, timeout=LOCK_TIMEOUT, sync=True)
    except OSError as exc:
        raise LadderError(f"{path}: cannot be written ({exc.strerror or exc}); the note was not added") from None
    if not written:
        raise LadderError(f"{path} is locked by another process; the note was not added")


def _make_folder(folder: Path, root: Path) -> None:
    """The journal's folder, made as the store makes ``.ladder`` (with its ``.gitignore``), inside the root only:
    a ``.ladder``, folder or journal that is a symlink leading out is refused before and after."""
    from ...ladderdir.paths import first_outside, make_dirs

    from ...ladderdir.append import lock_of

    places = [folder.parent, folder, folder / NOTES, lock_of(folder / NOTES)]
    for check in (True, False):
        outside = first_outside(places, root)
        if outside:
            raise LadderError(f"{outside}; the note was not added")
        if check:
            try:
                make_dirs(folder.parent, folder)
            except OSError as exc:
                raise LadderError(f"{folder}: cannot be made ({exc.strerror or exc}); the note was not added") from None


def add_note(folder: Path, root: Path, text: str, keywords: Sequence[str],
             now: Optional[datetime] = None) -> dict[str, Any]:
    """Append a note; returns the entry written."""
    text = _note_text(text)
    _make_folder(folder, root.resolve())
    when = (now or datetime.now(timezone.utc)).date().isoformat()
    entry = {"id": uuid.uuid4().hex, "when": when, "text": text, "keywords": [k.strip() for k in keywords if k.strip()]}
    _append(folder / NOTES, entry)
    return entry


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> list[Sighting]:
    folder = context.journal_dir
    if folder is None or not folder.is_dir() or not inside(folder, context.root.resolve()):
        return []
    return [s for name in (NOTES, CAPTURES) for s in _sightings(folder, name, context)]
