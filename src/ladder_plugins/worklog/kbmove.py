"""``ladder kb move``: a note moved to ``curated/`` or ``archive/``, its frontmatter edited, the index rebuilt.

The one place a file of the knowledge base is deleted: the source of a finished move.
Its own module: the one writer of notes, on top of the whole-KB checks (:mod:`.kb`) and
the schema (:mod:`.noteschema`) that a moved note must still pass.
"""

from __future__ import annotations

import difflib
import os
import stat
from datetime import datetime
from pathlib import Path
from typing import Optional

from ..errors import LadderError
from ..ladderdir.atomic import write_atomic
from ..ladderdir.paths import inside
from .kb import index_target, listed_scan, writable, write_index
from .kbscan import Scan, is_utf8, kind_of, why
from .noteedit import edit_front_matter, stamp, yaml_text
from .notes import FOLDERS, REGISTERS, STATUS_OF_FOLDER, Note, Unreadable, note_of_text, read_text, shown_value
from .noteschema import check_note

__all__ = ["move_note"]


def _move_reason(target: str, reason: Optional[str]) -> Optional[str]:
    if target not in ("curated", "archive"):
        raise LadderError(f"unknown target {target!r}: expected curated or archive")
    text = (reason or "").strip()
    if target == "archive" and not text:
        raise LadderError("archiving a note needs a reason (archived_reason): expected a text saying why it was "
                          "rejected")
    if target == "curated" and text:
        raise LadderError("a reason is recorded only when archiving: expected no reason for curated")
    return text or None


def _plain_name(note_id: str) -> bool:
    return bool(note_id) and note_id not in (".", "..") and not any(c in note_id for c in "/\\\0") \
        and is_utf8(note_id)


def _find_note(scan: Scan, note_id: str) -> Path:
    if note_id in REGISTERS:
        raise LadderError(f"{note_id} is a register: registers stay in curated/ and are edited in place")
    found = [scan.base / f / f"{note_id}.md" for f in FOLDERS] if _plain_name(note_id) else []
    found = [p for p in found if kind_of(p).name == "file" and inside(p, scan.real)]
    if len(found) > 1:
        raise LadderError(f"note {note_id!r} is in several folders ({', '.join(map(scan.shown, found))}); expected "
                          "one: see 'ladder kb check'")
    if not found:
        raise LadderError(_no_such_note(scan, note_id))
    return found[0]


def _no_such_note(scan: Scan, note_id: str) -> str:
    close = difflib.get_close_matches(note_id[:200], [n.stem for n in scan.notes], n=1)
    hint = f": did you mean {close[0]!r}?" if close else ""
    return (f"no note {shown_value(note_id)} in {scan.shown(scan.base)}/raw, archive or curated{hint} (expected a "
            "note's id, its file name without .md)")


def _destination(scan: Scan, target: str, name: str) -> Path:
    """Where the note goes, checked (the folder a folder inside the project, or creatable; nothing there yet),
    nothing created."""
    folder = scan.base / target
    kind, shown = kind_of(folder), scan.shown(folder)
    if kind.name == "error":
        raise LadderError(f"{shown}: cannot be examined ({kind.why}); expected the {target} folder")
    if kind.link and not inside(folder, scan.real):
        raise LadderError(f"{shown}: leads outside the project root; expected the {target} folder")
    if kind.name not in ("missing", "dir"):
        raise LadderError(f"{shown}: is not a folder; expected the {target} folder")
    writable(scan, folder if kind.name == "dir" else scan.base)
    dest = folder / name
    if kind_of(dest).name != "missing":
        raise LadderError(f"{scan.shown(dest)} exists already; a move never overwrites a file")
    return dest


def _moved_note(scan: Scan, source: Path, target: str, changes: dict[str, str], now: datetime) -> bytes:
    """The moved note's bytes: ``changes`` and ``updated`` (:func:`stamp`) set, checked to make no problem
    'ladder kb check' would then report."""
    shown = scan.shown(source)
    try:
        text = read_text(source)
    except Unreadable as exc:
        raise LadderError(f"{shown}:{exc.line}: the note {exc.reason}") from None
    before = note_of_text(text, shown, source.parent.name, source.name[:-3])
    changes = {**changes, "updated": stamp(before, now)}
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    edited = bom + edit_front_matter(text[len(bom):], changes, shown)
    _no_new_problem(before, note_of_text(edited, shown, target, before.stem), target)
    return edited.encode("utf-8")


def _no_new_problem(before: Note, after: Note, target: str) -> None:
    """:class:`LadderError` when the note as moved fails: curated without sound evidence, or a problem it did not
    have (the move must not make the failure 'ladder kb check' then reports)."""
    problems = check_note(after)
    evidence = [p for p in problems if p.rule.key == "kb_evidence"]
    if target == "curated" and evidence:
        raise LadderError(f"{after.shown}: a curated note needs evidence: [E1, ...] naming entries of its ## Evidence "
                          f"section, each with fetched_at and method; add them first (line {evidence[0].line}: "
                          f"{evidence[0].message}); nothing was changed")
    had = {(p.code, p.message) for p in check_note(before)}
    new = [p for p in problems if (p.code, p.message) not in had]
    if new:
        raise LadderError(f"{after.shown}: moved, the note would fail 'ladder kb check' (line {new[0].line}: "
                          f"{new[0].message}); nothing was changed")


def _changes(target: str, reason: Optional[str]) -> dict[str, str]:
    changes = {"status": STATUS_OF_FOLDER[target]}
    if reason is not None:
        changes["archived_reason"] = yaml_text(reason)
    return changes


def _replace_file(scan: Scan, source: Path, dest: Path, data: bytes) -> None:
    """The moved file written (atomically, with the source's permissions), then the source removed."""
    try:
        mode = stat.S_IMODE(os.stat(source).st_mode)
        dest.parent.mkdir(exist_ok=True)
        write_atomic(dest, data, mode=mode)
    except OSError as exc:
        raise LadderError(f"{scan.shown(dest)}: cannot be written ({why(exc)}); the note was not moved") from None
    try:
        os.unlink(source)
    except OSError as exc:
        raise LadderError(f"{scan.shown(dest)} is written but {scan.shown(source)} cannot be removed "
                          f"({why(exc)}): both exist; remove {scan.shown(source)} by hand") from None


def move_note(root: Path, directory: str, note_id: str, target: str, *,  # ladder: ignore[params_max] the API
              reason: Optional[str], now: datetime) -> Path:
    """Move the note ``note_id`` to ``target`` (``curated`` or ``archive``) and return where it is now.

    Sets ``status``, ``updated`` (``now`` to the second, in the note's own style: :func:`.noteedit.stamp`) and,
    archiving, ``archived_reason`` by editing their frontmatter lines (every other byte kept, a comment after a
    replaced value too; an ``archived_reason`` from an earlier archiving stays when a note is curated again:
    nothing is deleted). Refuses a move after which 'ladder kb check' would fail the note: curated without
    evidence, an ``updated`` before its ``created``. Writes the moved file first (atomically), then removes the
    old one, so a crash leaves both, never neither; then rebuilds ``_index.md``. Anything that stops it raises
    :class:`LadderError` before a file is touched (the index's place and the folders are checked first); an
    index that cannot be rebuilt after the move says the note was moved.
    """
    changes = _changes(target, _move_reason(target, reason))
    scan = listed_scan(root, directory)
    source = _find_note(scan, note_id)
    if source.parent.name == target:
        raise LadderError(f"{scan.shown(source)}: the note is in {target}/ already")
    data = _moved_note(scan, source, target, changes, now)
    index_target(scan)
    writable(scan, source.parent)
    dest = _destination(scan, target, source.name)
    _replace_file(scan, source, dest, data)
    try:
        write_index(root, directory)
    except LadderError as exc:
        raise LadderError(f"{scan.shown(source)} was moved to {scan.shown(dest)}; only the index could not be "
                          f"rebuilt: {exc}; run 'ladder kb index' once that is fixed") from None
    return dest
