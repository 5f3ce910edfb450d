"""The knowledge base's directory walked: which files are notes, read, and every layout problem on the way.

``kb/`` holds ``raw/``, ``archive/``, ``curated/`` and ``_index.md``. A note is a ``.md``
file directly in one of the three folders, and every item of the knowledge base is a
note: any other file in those folders (an image, a ``.txt``, a ``.MD``) is a layout
problem; hidden entries (``.git``, ``.gitkeep``, an editor's or :func:`write_atomic`'s
temporary files) are ignored; a ``.md`` file anywhere else is a layout problem, and so is one whose name is not UTF-8
(it cannot be a note id: not read, counted nor indexed; shown with ``\\xff`` escapes).
Nothing is followed out of the project root: a symlink that leads out is reported, never
read, and symlinked sub-folders are not walked; an entry that cannot be examined (a
symlink loop, no permission) is reported, never an error.

Its own module: the walk is file-system care (symlinks, permissions, names that are not
UTF-8) and knows nothing of what a note says; :mod:`.kb` judges what it found, and
:mod:`.kbmove` examines the files it moves with :func:`kind_of`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from ..ladderdir.paths import inside
from ..reports.sanitize import printable
from .model import Problem, problem
from .notes import FOLDERS, STATUS_OF_FOLDER, Note, read_note

__all__ = ["INDEX", "Kind", "Scan", "kind_of", "why", "is_utf8", "scan_kb"]

INDEX = "_index.md"
_MAX_DEPTH = 32


@dataclass(frozen=True)
class Kind:
    """What a path is, symlinks followed: ``missing``, ``dir``, ``file``, ``other`` (a dangling symlink, a pipe,
    a device) or ``error`` (it cannot be examined: a symlink loop, no permission, a name too long; ``why``)."""

    name: str
    link: bool = False
    why: str = ""


def why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def kind_of(path: Path) -> Kind:
    """What ``path`` is; never raises (every ``stat`` of the knowledge base goes through here)."""
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except FileNotFoundError:
        return Kind("missing")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in a name
        return Kind("error", why=why(exc) if isinstance(exc, OSError) else str(exc))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return Kind("other", link)
    except OSError as exc:
        return Kind("error", link, why(exc))
    return Kind("dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other", link)


def is_utf8(name: str) -> bool:
    return printable(name) == name


@dataclass
class Scan:
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

    def examined(self, path: Path) -> Optional[Kind]:
        """What the listed entry ``path`` is; ``None`` (reported) when it cannot be examined or leads out of the
        project, and when it is gone since the listing."""
        kind = kind_of(path)
        if kind.name == "error":
            self.layout(path, f"cannot be examined ({kind.why}); expected a file or a folder (a symlink loop or "
                        "an entry without permission is neither)")
        return None if kind.name in ("error", "missing") or (kind.link and self.outside(path)) else kind

    def folder(self, path: Path, missing: str, expected: str) -> bool:
        """Whether ``path`` is a folder inside the project to walk; else why not is reported."""
        kind = kind_of(path)
        if kind.name == "missing":
            self.layout(path, missing)
        elif kind.name == "error":
            self.layout(path, f"cannot be examined ({kind.why}); expected {expected}")
        elif not self.outside(path) and kind.name != "dir":
            self.layout(path, f"is not a folder; expected {expected}")
        return kind.name == "dir" and inside(path, self.real)


def _shown(root: Path, path: Path) -> str:
    try:
        return printable(Path(os.path.relpath(path, root)).as_posix())
    except ValueError:  # another drive
        return printable(path.as_posix())


def _listing(scan: Scan, folder: Path) -> list[os.DirEntry[str]]:
    """The non-hidden entries of ``folder``, by name; one that cannot be listed is a layout problem."""
    try:
        with os.scandir(folder) as entries:
            return sorted((e for e in entries if not e.name.startswith(".")), key=lambda e: e.name)
    except OSError as exc:
        scan.layout(folder, f"cannot be listed ({why(exc)}); expected a readable folder")
        return []


def scan_kb(root: Path, directory: str) -> Scan:
    scan = Scan(root, Path(os.path.realpath(root)), root / directory)
    if scan.folder(scan.base, "does not exist: no knowledge base; expected raw/, archive/, curated/ and _index.md "
                   "in it", "the knowledge base's folder"):
        scan.listed = True
        for folder in FOLDERS:
            _folder(scan, folder)
        _top(scan, _listing(scan, scan.base))
    return scan


def _folder(scan: Scan, folder: str) -> None:
    path = scan.base / folder
    scan.counts[folder] = 0
    notes = f"the folder of the {STATUS_OF_FOLDER[folder]} notes"
    if scan.folder(path, f"is missing; expected {notes}", notes):
        for entry in _listing(scan, path):
            _folder_entry(scan, folder, entry)


def _folder_entry(scan: Scan, folder: str, entry: os.DirEntry[str]) -> None:
    path = Path(entry.path)
    kind = scan.examined(path)
    if kind is None:
        return
    if kind.name == "dir":
        _stray(scan, path, kind, f"in a sub-folder of {folder}/; expected notes directly in raw/, archive/ or "
               "curated/")
    elif entry.name.endswith(".md"):
        _note_file(scan, folder, path, kind)
    else:
        scan.layout(path, "is not a note (a note is a .md file) in a note folder; expected only notes in raw/, "
                    "archive/ and curated/: keep other files outside the knowledge base (a note may name them)")


def _note_file(scan: Scan, folder: str, path: Path, kind: Kind) -> None:
    """A ``.md`` entry of a note folder: read as a note when it is a regular file named in UTF-8."""
    if kind.name != "file":
        scan.layout(path, "is not a regular file (a dangling symlink, a pipe or a device); expected a note file")
    elif not is_utf8(path.name):
        scan.layout(path, "its name is not UTF-8 (the bytes that are not are shown as \\x..), so it cannot be a "
                    "note id; it is not read nor indexed: expected the name YYYYMMDD-HHMMSS-slug.md")
    else:
        scan.counts[folder] += 1
        scan.notes.append(read_note(path, scan.shown(path), folder))


def _top(scan: Scan, entries: Iterable[os.DirEntry[str]]) -> None:
    """The entries of ``kb/`` itself: the folders (read already), the index, and what should not be there."""
    for entry in entries:
        if entry.name not in FOLDERS:
            _top_entry(scan, entry)
    if scan.index is None and not any(p.path == scan.shown(scan.base / INDEX) for p in scan.problems):
        scan.layout(scan.base / INDEX, "is missing; expected the index 'ladder kb index' writes")


def _top_entry(scan: Scan, entry: os.DirEntry[str]) -> None:
    path = Path(entry.path)
    kind = scan.examined(path)
    if kind is None:
        return
    if entry.name == INDEX:
        _index_entry(scan, path, kind)
    elif kind.name == "dir":
        _stray(scan, path, kind, "outside raw/, archive/ and curated/; expected every note in one of them")
    elif entry.name.endswith(".md"):
        scan.layout(path, "is a note outside raw/, archive/ and curated/; expected every note in one of them")


def _index_entry(scan: Scan, path: Path, kind: Kind) -> None:
    if kind.name == "file":
        scan.index = path
    else:
        scan.layout(path, "is not a regular file; expected the index 'ladder kb index' writes")


def _stray(scan: Scan, top: Path, kind: Kind, where: str) -> None:
    """A folder where notes do not go: ``.md`` in its name is a problem, and so is every ``.md`` below it;
    a symlinked folder is not walked, nor more than 32 levels."""
    if top.name.endswith(".md"):
        scan.layout(top, "is a folder, not a note file; expected a note to be a .md file")
    stack = [] if kind.link else [(top, 1)]
    while stack:
        folder, depth = stack.pop()
        for child in _listing(scan, folder):
            if _stray_child(scan, Path(child.path), where) and depth < _MAX_DEPTH:
                stack.append((Path(child.path), depth + 1))


def _stray_child(scan: Scan, path: Path, where: str) -> bool:
    """Report ``path``, in a stray folder, if it is note-like; whether it is a folder to walk."""
    kind = scan.examined(path)
    if kind is None:
        return False
    if kind.name == "dir":
        if path.name.endswith(".md"):
            scan.layout(path, "is a folder, not a note file; expected a note to be a .md file")
        return not kind.link
    if path.name.endswith(".md"):
        scan.layout(path, f"is {where}")
    return False
