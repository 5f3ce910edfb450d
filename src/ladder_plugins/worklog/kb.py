"""The knowledge base as a whole: ids unique, links both ways, registers and the index checked; the index written.

The folders are walked by :mod:`.kbscan` (the layout problems are its own) and each note
is judged alone by :mod:`.noteschema`. The registers (``curated/UNCERTAINTY-REGISTER.md``,
``curated/GAP-REGISTER.md``) are notes with fixed names: they need readable frontmatter
tagged ``type/register`` and their table, nothing else of the schema; they count as
curated notes in the index, link to notes without being linked back, and are never moved.

Its own module: the checks that need every note at once, between the walk below them and
``ladder kb move`` (:mod:`.kbmove`) above them, which must not make one of them fail.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Iterator

from ..errors import LadderError
from ..ladderdir.atomic import write_atomic
from ..ladderdir.paths import inside
from .kbindex import difference, render
from ..reports.sanitize import printable
from .kbscan import INDEX, Scan, kind_of, scan_kb, why
from .model import Problem, ordered, problem
from .notes import Note, Unreadable, read_text, shown_value
from .notes import REGISTERS
from .noteschema import check_note

__all__ = ["check_kb", "check_scan", "index_text", "write_index", "listed_scan", "index_target", "writable"]

_DELIMITER = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\Z")


def _is_register(note: Note) -> bool:
    return note.folder == "curated" and note.stem in REGISTERS


def check_kb(root: Path, directory: str = "kb") -> list[Problem]:
    """Every problem of the knowledge base at ``root / directory``, paths relative to ``root``, ordered; a
    missing knowledge base is one ``kb_layout`` problem."""
    return check_scan(scan_kb(root, directory))


def check_scan(scan: Scan) -> list[Problem]:
    """Every problem of the knowledge base ``scan`` walked, ordered (the FAIL gate reads its notes too)."""
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
                   f"expected links both ways: add {printable(note.ident)} to links")


def _registers(scan: Scan) -> Iterator[Problem]:
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


def _index_problems(scan: Scan) -> list[Problem]:
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


def listed_scan(root: Path, directory: str) -> Scan:
    """The walk of a knowledge base that could be listed; else :class:`LadderError` saying why."""
    scan = scan_kb(root, directory)
    if not scan.listed:
        raise LadderError(f"{scan.problems[0].path}: {scan.problems[0].message}" if scan.problems
                          else f"{scan.shown(scan.base)}: the knowledge base cannot be read")
    return scan


def index_text(root: Path, directory: str = "kb") -> str:
    """The ``_index.md`` that ``ladder kb index`` writes: ``Updated:`` the newest ``updated`` of the notes as
    written (``-`` when none has one), ``Total notes:`` every ``.md`` file directly in raw/, archive/ and
    curated/ (registers included, unreadable notes too, not a name that is not UTF-8), then each tag of the
    readable notes with the notes (file names without ``.md``) that carry it, sorted. A knowledge base that
    cannot be listed raises :class:`LadderError`."""
    scan = listed_scan(root, directory)
    return render(scan.counts, scan.notes)


def write_index(root: Path, directory: str = "kb") -> bool:
    """Write ``_index.md`` atomically when it is not :func:`index_text` already; whether it changed. What
    stops it raises :class:`LadderError`, the old index as it was."""
    scan = listed_scan(root, directory)
    path = index_target(scan)
    data = render(scan.counts, scan.notes).encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass  # missing or unreadable: written over
    try:
        write_atomic(path, data)
    except OSError as exc:
        raise LadderError(f"{scan.shown(path)}: cannot be written ({why(exc)}); the old index is unchanged") from None
    return True


def index_target(scan: Scan) -> Path:
    """``_index.md``, when it can be written: missing or a regular file inside the project, in a writable
    folder; else :class:`LadderError`."""
    path = scan.base / INDEX
    kind, shown = kind_of(path), scan.shown(path)
    if kind.name == "error":
        raise LadderError(f"{shown}: cannot be examined ({kind.why}); expected the index, a regular file: remove "
                          "it and run 'ladder kb index'")
    if kind.name not in ("missing", "file") or (kind.link and not inside(path, scan.real)):
        raise LadderError(f"{shown}: is not a regular file inside the project; expected the index")
    writable(scan, scan.base)
    return path


def writable(scan: Scan, folder: Path) -> None:
    """:class:`LadderError` unless files can be created and removed in ``folder``."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise LadderError(f"{scan.shown(folder)}: cannot be written (no permission); expected a folder files can "
                          "be written to")
