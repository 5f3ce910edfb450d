"""The knowledge base as a whole: its layout, ids, links both ways, registers and index; ``ladder kb move``.

``kb/`` holds ``raw/``, ``archive/``, ``curated/`` and ``_index.md``. A note is a ``.md``
file directly in one of the three folders; other files (images, data) and hidden
entries (``.git``, an editor's or :func:`write_atomic`'s temporary files) are ignored;
a ``.md`` file anywhere else is a layout problem. Nothing is followed out of the
project root: a symlink that leads out is reported, never read, and symlinked
sub-folders are not walked. The registers (``curated/UNCERTAINTY-REGISTER.md``,
``curated/GAP-REGISTER.md``) are notes with fixed names: they need readable
frontmatter tagged ``type/register`` and their table, nothing else of the schema;
they count as curated notes in the index, link to notes without being linked back,
and are never moved. Nothing here deletes a file but the source of a finished move.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterable, Iterator, Optional

from ..errors import LadderError
from ..ladderdir.atomic import write_atomic
from ..ladderdir.paths import inside
from .kbindex import difference, render
from .model import Problem, ordered, problem
from .notes import (FOLDERS, STATUS_OF_FOLDER, Note, Unreadable, check_note, edit_front_matter, read_note,
                    read_text, shown_value, yaml_text)

__all__ = ["INDEX", "REGISTERS", "check_kb", "index_text", "write_index", "move_note"]

INDEX = "_index.md"
#: the registers in ``curated/`` and their table's columns, in order (the skill's section 8)
REGISTERS = {
    "UNCERTAINTY-REGISTER": ("Item", "Type (epistemic/aleatory)", "Likelihood", "Impact", "Next Test"),
    "GAP-REGISTER": ("Gap ID", "Missing Data", "Impact", "Fallback", "Confidence Penalty", "Follow-up"),
}
_DELIMITER = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\Z")
_MAX_DEPTH = 32


@dataclass
class _Scan:
    """What walking ``kb/`` found: the note files read, layout problems, files per folder, the index."""

    root: Path
    real: Path
    base: Path
    listed: bool = False
    notes: list[Note] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    index: Optional[Path] = None

    def shown(self, path: Path) -> str:
        return _shown(self.root, path)

    def layout(self, path: Path, message: str) -> None:
        self.problems.append(problem("kb_layout", self.shown(path), 1, message))

    def outside(self, path: Path) -> bool:
        """Whether ``path`` leads out of the project root (then reported, and not to be read)."""
        if inside(path, self.real):
            return False
        self.layout(path, "leads outside the project root (a symlink or a path out of it); it is not read: "
                    "expected the knowledge base's files inside the project")
        return True


def _shown(root: Path, path: Path) -> str:
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:  # another drive
        return path.as_posix()


def _listing(scan: _Scan, folder: Path) -> list[os.DirEntry]:
    """The non-hidden entries of ``folder``, by name; one that cannot be listed is a layout problem."""
    try:
        with os.scandir(folder) as entries:
            return sorted((e for e in entries if not e.name.startswith(".")), key=lambda e: e.name)
    except OSError as exc:
        scan.layout(folder, f"cannot be listed ({exc.strerror or exc}); expected a readable folder")
        return []


def _scan(root: Path, directory: str) -> _Scan:
    scan = _Scan(root, Path(os.path.realpath(root)), root / directory)
    base = scan.base
    if not base.exists() and not base.is_symlink():
        scan.layout(base, "does not exist: no knowledge base; expected raw/, archive/, curated/ and _index.md in it")
    elif not scan.outside(base) and not base.is_dir():
        scan.layout(base, "is not a folder; expected the knowledge base's folder")
    elif base.is_dir() and inside(base, scan.real):
        scan.listed = True
        for folder in FOLDERS:
            _folder(scan, folder)
        _top(scan, _listing(scan, base))
    return scan


def _folder(scan: _Scan, folder: str) -> None:
    path = scan.base / folder
    scan.counts[folder] = 0
    if not path.exists() and not path.is_symlink():
        scan.layout(path, f"is missing; expected the folder of the {STATUS_OF_FOLDER[folder]} notes")
    elif not scan.outside(path) and not path.is_dir():
        scan.layout(path, f"is not a folder; expected the folder of the {STATUS_OF_FOLDER[folder]} notes")
    elif path.is_dir() and inside(path, scan.real):
        for entry in _listing(scan, path):
            _folder_entry(scan, folder, entry)


def _folder_entry(scan: _Scan, folder: str, entry: os.DirEntry) -> None:
    path = Path(entry.path)
    if entry.is_symlink() and scan.outside(path):
        return
    if entry.is_dir():
        _stray(scan, path, entry, f"in a sub-folder of {folder}/; expected notes directly in raw/, archive/ or "
               "curated/")
    elif entry.name.endswith(".md"):
        if not entry.is_file():
            scan.layout(path, "is not a regular file (a dangling symlink, a pipe or a device); expected a note file")
            return
        scan.counts[folder] += 1
        scan.notes.append(read_note(path, scan.shown(path), folder))


def _top(scan: _Scan, entries: Iterable[os.DirEntry]) -> None:
    """The entries of ``kb/`` itself: the folders (read already), the index, and what should not be there."""
    for entry in entries:
        if entry.name not in FOLDERS and not (entry.is_symlink() and scan.outside(Path(entry.path))):
            _top_entry(scan, entry)
    if scan.index is None and not any(p.path == scan.shown(scan.base / INDEX) for p in scan.problems):
        scan.layout(scan.base / INDEX, "is missing; expected the index 'ladder kb index' writes")


def _top_entry(scan: _Scan, entry: os.DirEntry) -> None:
    path = Path(entry.path)
    if entry.name == INDEX:
        _index_entry(scan, entry)
    elif entry.is_dir():
        _stray(scan, path, entry, "outside raw/, archive/ and curated/; expected every note in one of them")
    elif entry.name.endswith(".md"):
        scan.layout(path, "is a note outside raw/, archive/ and curated/; expected every note in one of them")


def _index_entry(scan: _Scan, entry: os.DirEntry) -> None:
    if entry.is_file():
        scan.index = Path(entry.path)
    else:
        scan.layout(Path(entry.path), "is not a regular file; expected the index 'ladder kb index' writes")


def _stray(scan: _Scan, top: Path, entry: os.DirEntry, where: str) -> None:
    """A folder where notes do not go: ``.md`` in its name is a problem, and so is every ``.md`` below it;
    a symlinked folder is not walked, nor more than 32 levels."""
    if entry.name.endswith(".md"):
        scan.layout(top, "is a folder, not a note file; expected a note to be a .md file")
    stack = [] if entry.is_symlink() else [(top, 1)]
    while stack:
        folder, depth = stack.pop()
        for child in _listing(scan, folder):
            if _stray_child(scan, child, where) and depth < _MAX_DEPTH:
                stack.append((Path(child.path), depth + 1))


def _stray_child(scan: _Scan, child: os.DirEntry, where: str) -> bool:
    """Report ``child`` of a stray folder if it is a note-like file; whether it is a folder to walk."""
    path = Path(child.path)
    if child.is_symlink() and scan.outside(path):
        return False
    if child.is_dir():
        if child.name.endswith(".md"):
            scan.layout(path, "is a folder, not a note file; expected a note to be a .md file")
        return not child.is_symlink()
    if child.name.endswith(".md"):
        scan.layout(path, f"is {where}")
    return False


# -- the checks of the whole knowledge base -----------------------------------------------


def _is_register(note: Note) -> bool:
    return note.folder == "curated" and note.stem in REGISTERS


def check_kb(root: Path, directory: str = "kb") -> list[Problem]:
    """Every problem of the knowledge base at ``root / directory``, paths relative to ``root``, ordered; a
    missing knowledge base is one ``kb_layout`` problem."""
    scan = _scan(root, directory)
    found = list(scan.problems)
    if scan.listed:
        notes = [n for n in scan.notes if not _is_register(n)]
        for note in notes:
            found += check_note(note)
        found += _unique_ids(notes)
        found += _links(scan.notes)
        found += _registers(scan)
        found += _index_problems(scan)
    return ordered(found)


def _by_id(notes: list[Note]) -> dict[str, list[Note]]:
    found: dict[str, list[Note]] = {}
    for note in notes:
        if isinstance(note.data.get("id"), str):
            found.setdefault(note.data["id"], []).append(note)
    return found


def _unique_ids(notes: list[Note]) -> Iterator[Problem]:
    for ident, group in _by_id(notes).items():
        for note in group if len(group) > 1 else ():
            others = ", ".join(n.shown for n in group if n is not note)
            yield problem("kb_id", note.shown, note.line("id"),
                          f"id {shown_value(ident)} is also the id of {others}; expected every id once")


def _links_to(note: Note, other: Note) -> bool:
    return any(link.target in (other.ident, other.stem) for link in note.links)


def _known(notes: list[Note]) -> dict[str, list[Note]]:
    """The notes by the names a link may use: id and file name (they differ only where ``kb_id`` says)."""
    known: dict[str, list[Note]] = {}
    for note in notes:
        for name in {note.ident, note.stem}:
            known.setdefault(name, []).append(note)
    return known


def _links(notes: list[Note]) -> Iterator[Problem]:
    """Each link names a note (or a register); a link between two notes goes both ways (reported at the note
    that does not link back, where the fix goes; once per pair)."""
    known, pairs = _known(notes), set()
    for note in (n for n in notes if n.read):
        for link in note.links:
            if link.target not in known:
                yield _unknown_link(note, link.target, link.line, known)
            for other in known.get(link.target, ()):
                if _one_way(note, other) and (note.shown, other.shown) not in pairs:
                    pairs.add((note.shown, other.shown))
                    yield _no_link_back(note, other, link.line)


def _one_way(note: Note, other: Note) -> bool:
    plain = not _is_register(note) and not _is_register(other)
    return plain and other is not note and other.read and not _links_to(other, note)


def _unknown_link(note: Note, target: str, line: int, known: dict[str, list[Note]]) -> Problem:
    close = difflib.get_close_matches(target, list(known), n=1)
    hint = f": did you mean {close[0]!r}?" if close else ""
    return problem("kb_link", note.shown, line,
                   f"links to {shown_value(target)}, which is no note of the knowledge base{hint} (expected the id of "
                   "a note in raw/, archive/ or curated/)")


def _no_link_back(note: Note, other: Note, line: int) -> Problem:
    return problem("kb_link", other.shown, other.line("links"),
                   f"does not link back to {shown_value(note.ident)}, which links here ({note.shown} line {line}); "
                   f"expected links both ways: add {note.ident} to links")


def _registers(scan: _Scan) -> Iterator[Problem]:
    for name, columns in REGISTERS.items():
        note = next((n for n in scan.notes if n.folder == "curated" and n.stem == name), None)
        header = " | ".join(columns)
        if note is None:
            yield problem("kb_register", scan.shown(scan.base / "curated" / f"{name}.md"), 1,
                          f"is missing; expected the register, tagged type/register, with a table | {header} |")
        elif not note.read:
            yield from note.problems
        else:
            yield from note.problems
            yield from _register_problems(note, columns)


def _register_problems(note: Note, columns: tuple[str, ...]) -> Iterator[Problem]:
    tags = note.data.get("tags")
    if not (isinstance(tags, list) and "type/register" in tags):
        yield problem("kb_register", note.shown, note.line("tags"),
                      f"tags is {shown_value(tags)}; expected a list with type/register")
    yield from _register_table(note, columns)


def _register_table(note: Note, columns: tuple[str, ...]) -> Iterator[Problem]:
    tables = list(_table_headers(note.body, note.body_line))
    header = " | ".join(columns)
    if not tables:
        yield problem("kb_register", note.shown, note.body_line, f"has no Markdown table; expected | {header} |")
    elif not any(cells == columns for _, cells in tables):
        line, cells = tables[0]
        yield problem("kb_register", note.shown, line,
                      f"the table's columns are | {' | '.join(cells)[:200]} |; expected | {header} |")


def _cells(line: str) -> tuple[str, ...]:
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    return tuple(cell.strip() for cell in re.split(r"(?<!\\)\|", text))


def _table_headers(body: str, first: int) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Each Markdown table's header row (a line with ``|`` over a ``|---|---|`` row): its line and cells."""
    lines = body.split("\n")
    for number, (line, below) in enumerate(zip(lines, lines[1:]), first):
        if "|" in line and "-" in below and _DELIMITER.match(below.rstrip("\r")):
            yield number, _cells(line)


def _index_problems(scan: _Scan) -> list[Problem]:
    if scan.index is None:
        return []
    shown = scan.shown(scan.index)
    try:
        actual = read_text(scan.index)
    except Unreadable as exc:
        return [problem("kb_index", shown, exc.line, f"{exc.reason}; expected the index 'ladder kb index' writes")]
    differs = difference(actual.lstrip("\ufeff"), render(scan.counts, scan.notes))
    if differs is None:
        return []
    return [problem("kb_index", shown, differs[0], f"is stale: run 'ladder kb index' ({differs[1]})")]


# -- the index, written -------------------------------------------------------------------


def _listed(root: Path, directory: str) -> _Scan:
    scan = _scan(root, directory)
    if not scan.listed:
        raise LadderError(f"{scan.problems[0].path}: {scan.problems[0].message}" if scan.problems
                          else f"{_shown(root, root / directory)}: the knowledge base cannot be read")
    return scan


def index_text(root: Path, directory: str = "kb") -> str:
    """The ``_index.md`` that ``ladder kb index`` writes: ``Updated:`` the newest ``updated`` of the notes (``-``
    when none has one), ``Total notes:`` every ``.md`` file directly in raw/, archive/ and curated/ (registers
    included, unreadable notes too), then each tag of the readable notes with the notes (file names without
    ``.md``) that carry it, sorted. A knowledge base that cannot be listed raises :class:`LadderError`."""
    scan = _listed(root, directory)
    return render(scan.counts, scan.notes)


def write_index(root: Path, directory: str = "kb") -> bool:
    """Write ``_index.md`` atomically when it is not :func:`index_text` already; whether it changed."""
    scan = _listed(root, directory)
    path = scan.base / INDEX
    if (path.is_symlink() and not inside(path, scan.real)) or (path.exists() and not path.is_file()):
        raise LadderError(f"{scan.shown(path)}: is not a regular file inside the project; expected the index")
    data = render(scan.counts, scan.notes).encode("utf-8")
    try:
        if path.exists() and path.read_bytes() == data:
            return False
    except OSError:
        pass  # unreadable: written over
    write_atomic(path, data)
    return True


# -- moving a note ------------------------------------------------------------------------


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
    return bool(note_id) and note_id not in (".", "..") and not any(c in note_id for c in "/\\\0")


def _find_note(scan: _Scan, note_id: str) -> Path:
    if note_id in REGISTERS:
        raise LadderError(f"{note_id} is a register: registers stay in curated/ and are edited in place")
    found = [scan.base / f / f"{note_id}.md" for f in FOLDERS] if _plain_name(note_id) else []
    found = [p for p in found if p.is_file() and inside(p, scan.real)]
    if len(found) > 1:
        raise LadderError(f"note {note_id!r} is in several folders ({', '.join(map(scan.shown, found))}); expected "
                          "one: see 'ladder kb check'")
    if not found:
        raise LadderError(_no_such_note(scan, note_id))
    return found[0]


def _no_such_note(scan: _Scan, note_id: str) -> str:
    close = difflib.get_close_matches(note_id, [n.stem for n in scan.notes], n=1)
    hint = f": did you mean {close[0]!r}?" if close else ""
    return (f"no note {note_id!r} in {scan.shown(scan.base)}/raw, archive or curated{hint} (expected a note's id, "
            "its file name without .md)")


def _destination(scan: _Scan, target: str, name: str) -> Path:
    folder = scan.base / target
    if folder.is_symlink() and not inside(folder, scan.real):
        raise LadderError(f"{scan.shown(folder)}: leads outside the project root; expected the {target} folder")
    folder.mkdir(exist_ok=True)
    dest = folder / name
    if dest.exists() or dest.is_symlink():
        raise LadderError(f"{scan.shown(dest)} exists already; a move never overwrites a file")
    return dest


def _edited(scan: _Scan, source: Path, changes: dict[str, str]) -> bytes:
    shown = scan.shown(source)
    try:
        text = read_text(source)
    except Unreadable as exc:
        raise LadderError(f"{shown}:{exc.line}: the note {exc.reason}") from None
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    return (bom + edit_front_matter(text[len(bom):], changes, shown)).encode("utf-8")


def _changes(target: str, reason: Optional[str], now: datetime) -> dict[str, str]:
    changes = {"status": STATUS_OF_FOLDER[target], "updated": now.isoformat(timespec="seconds")}
    if reason is not None:
        changes["archived_reason"] = yaml_text(reason)
    return changes


def _replace_file(scan: _Scan, source: Path, dest: Path, data: bytes) -> None:
    """The moved file written (atomically, with the source's permissions), then the source removed."""
    write_atomic(dest, data, mode=stat.S_IMODE(os.stat(source).st_mode))
    try:
        os.unlink(source)
    except OSError as exc:
        raise LadderError(f"{scan.shown(dest)} is written but {scan.shown(source)} cannot be removed "
                          f"({exc.strerror or exc}): both exist; remove {scan.shown(source)} by hand") from None


def move_note(root: Path, directory: str, note_id: str, target: str, *,  # ladder: ignore[params_max] the API
              reason: Optional[str], now: datetime) -> Path:
    """Move the note ``note_id`` to ``target`` (``curated`` or ``archive``) and return where it is now.

    Sets ``status``, ``updated`` (``now``, ISO-8601 to the second) and, archiving, ``archived_reason`` by editing
    their frontmatter lines (every other byte kept; an ``archived_reason`` from an earlier archiving stays when
    a note is curated again: nothing is deleted). Writes the moved file first (atomically), then removes the
    old one, so a crash leaves both, never neither; then rebuilds ``_index.md``. Anything that stops it raises
    :class:`LadderError` before a file is touched.
    """
    changes = _changes(target, _move_reason(target, reason), now)
    scan = _listed(root, directory)
    source = _find_note(scan, note_id)
    if source.parent.name == target:
        raise LadderError(f"{scan.shown(source)}: the note is in {target}/ already")
    data = _edited(scan, source, changes)
    dest = _destination(scan, target, source.name)
    _replace_file(scan, source, dest, data)
    write_index(root, directory)
    return dest
