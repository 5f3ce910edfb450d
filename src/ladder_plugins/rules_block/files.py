"""The managed block in files: written between its markers, checked, reported on, and read back.

The writer owns only what lies between ``<!-- ladder:rules:begin -->`` and ``<!-- ladder:rules:end -->``
(markers included); every other byte of a file stays as it is, because these files are
people's documents (``AGENTS.md``, ``CLAUDE.md``). So the block is written with the
file's own newline, a BOM is kept, a file without markers gets the block appended
after one blank line, and a file whose markers are duplicated or unbalanced is an
error naming the file and the line, with nothing written: guessing which block is
ours could eat someone's text. Files are created (with their directory) only inside
the project root: a path or a symlink leading outside is refused. Writes are atomic
(a temporary file renamed over the old one) and made under one lock in the ``.ladder``
directory, where no one commits it by accident. A new Cursor rules file (``.mdc``)
starts with front matter that makes Cursor apply it always.

:func:`read_block` is the prompt hook's reader. It runs on every prompt under a time
budget, so it reads one file and imports nothing beyond the standard library (this
module's other imports are light and the history is never read); a block over the
budget on disk (edited by hand, or written by an older version) is cut to whole
sections and the number left out is returned, never sliced mid-character.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Optional, Sequence, Union

from ..errors import LadderError
from ..ladderdir.lock import held, project_lock
from ..ladderdir.paths import inside
from .block import (
    BEGIN, DEFAULT_MAX_BYTES, DEMOTED_PREFIX, END, FULL_PREFIX, MORE_PREFIX, Block, Section, build_sections,
    in_written_form, more_line, render_block, rules_config,
)

__all__ = [
    "FileText", "Outcome", "FileCheck", "RulesFile", "find_block", "newline_of", "configured_files",
    "sync", "check", "show", "rules_block_health", "read_block", "MDC_FRONT_MATTER",
]

_BOM = b"\xef\xbb\xbf"
_MAX_FILE = 4 << 20
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_MORE = re.compile(re.escape(MORE_PREFIX) + r"(\d+) more")
#: the front matter of a new Cursor rules file: applied to every request, described for the rules list
MDC_FRONT_MATTER = ("---", "description: Recurring feedback recorded by ladder-plugins (a managed block)",
                    "alwaysApply: true", "---", "")


def newline_of(text: str) -> str:
    """The file's newline: its first line break (``\\n`` for a file with none)."""
    found = _LINE_BREAK.search(text)
    return found.group() if found else "\n"


def _line_of(text: str, position: int) -> int:
    return len(_LINE_BREAK.findall(text, 0, position)) + 1


def _positions(text: str, marker: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(marker), text)]


def _marker_problem(text: str, begins: list[int], ends: list[int]) -> Optional[str]:
    """``line: what is wrong`` with the markers, or ``None`` when there is one begin before one end."""
    def line(position: int) -> int:
        return _line_of(text, position)

    if len(begins) > 1:
        return f"{line(begins[1])}: a second {BEGIN} (the first is on line {line(begins[0])})"
    if len(ends) > 1:
        return f"{line(ends[1])}: a second {END} (the first is on line {line(ends[0])})"
    if not ends:
        return f"{line(begins[0])}: {BEGIN} has no {END} after it"
    if not begins:
        return f"{line(ends[0])}: {END} has no {BEGIN} before it"
    if ends[0] < begins[0]:
        return f"{line(ends[0])}: {END} comes before {BEGIN} (line {line(begins[0])})"
    return None


def find_block(text: str, shown: str) -> Optional[tuple[int, int]]:
    """Where the block is in ``text`` (markers included), ``None`` when there are no markers; duplicated or
    unbalanced markers are a :class:`LadderError` naming the file and line."""
    begins, ends = _positions(text, BEGIN), _positions(text, END)
    if not begins and not ends:
        return None
    problem = _marker_problem(text, begins, ends)
    if problem is not None:
        raise LadderError(f"{shown}:{problem}; the managed rules block must appear once, between one pair of "
                          "markers; nothing was written")
    return begins[0], ends[0] + len(END)


@dataclass(frozen=True)
class FileText:
    """A rules file as it is on disk: its text (BOM removed), BOM, newline, and where its block is."""

    text: str = ""
    bom: bool = False
    newline: str = "\n"
    span: Optional[tuple[int, int]] = None
    exists: bool = False

    @property
    def block(self) -> Optional[str]:
        """The block on disk, markers included (without the newline after the end marker)."""
        return None if self.span is None else self.text[self.span[0]:self.span[1]]


@dataclass(frozen=True)
class Outcome:
    """What ``sync`` did to one file: ``created``, ``appended``, ``updated`` or ``unchanged``."""

    file: str
    action: str
    block: Block


@dataclass(frozen=True)
class FileCheck:
    """One file against what ``sync`` would write now."""

    file: str
    exists: bool
    #: the file exists and holds one block
    present: bool
    #: the file is exactly what ``sync`` would leave
    matches: bool
    #: the block ``sync`` would write into it
    block: Block
    #: the block on disk differs from the writer's (edited by hand, an older version) or is over the budget
    over_budget: bool


def _separator(text: str, newline: str) -> str:
    """What goes between a file's text and an appended block: one blank line."""
    if not text or text.endswith(newline * 2):
        return ""
    return newline if text.endswith(newline) else newline * 2


def _write_atomic(path: Path, data: bytes) -> None:
    from ..ladderdir.atomic import write_atomic  # here, not at the top: the prompt hook's reader never writes

    write_atomic(path, data)


class RulesFile:
    """One configured rules file (a path relative to the project root)."""

    def __init__(self, root: Path, rel: str) -> None:
        self.root = Path(os.path.realpath(root))
        self.rel = rel
        self.path = self.root / rel

    @property
    def shown(self) -> str:
        return PurePosixPath(self.rel).as_posix()

    def target(self) -> Path:
        """The real file to read and write: inside the project root (symlinks resolved), else refused."""
        pure = PurePosixPath(self.rel)
        real = Path(os.path.realpath(self.path))
        if pure.is_absolute() or ".." in pure.parts or not inside(real, self.root):
            raise LadderError(f"{self.shown}: leads outside the project root {self.root}; the rules block is "
                              "written only into files inside it (nothing was written)")
        if real.exists() and not real.is_file():
            raise LadderError(f"{self.shown}: is not a regular file; nothing was written")
        return real

    def read(self) -> FileText:
        real = self.target()
        try:
            with open(real, "rb") as handle:
                raw = handle.read(_MAX_FILE + 1)
        except FileNotFoundError:
            return FileText()
        except OSError as exc:
            raise LadderError(f"{self.shown}: cannot be read ({exc.strerror or exc})") from None
        if len(raw) > _MAX_FILE:
            raise LadderError(f"{self.shown}: larger than {_MAX_FILE >> 20} MB; left alone")
        return self._decoded(raw)

    def _decoded(self, raw: bytes) -> FileText:
        bom = raw.startswith(_BOM)
        try:
            text = raw[len(_BOM) if bom else 0:].decode("utf-8")
        except UnicodeDecodeError:
            raise LadderError(f"{self.shown}: not UTF-8 text; the rules block is written only into UTF-8 files "
                              "(nothing was written)") from None
        return FileText(text, bom, newline_of(text), find_block(text, self.shown), True)

    def new_text(self, current: FileText, block: Block) -> str:
        """The whole file once ``block`` is in it: the old block replaced, or the block appended."""
        if current.span is not None:
            start, end = current.span
            return current.text[:start] + block.text[: -len(current.newline)] + current.text[end:]
        if not current.exists and self.rel.endswith(".mdc"):
            return current.newline.join(MDC_FRONT_MATTER) + current.newline + block.text
        return current.text + _separator(current.text, current.newline) + block.text

    def sync(self, sections: Sequence[Section], max_bytes: int, lock: Path) -> Outcome:
        """Write the block (under the lock): replaced between the markers, appended, or a new file."""
        with held(lock, self.rel):
            current = self.read()
            block = render_block(sections, max_bytes=max_bytes, newline=current.newline)
            text = self.new_text(current, block)
            action = _action(current, text)
            if action != "unchanged":
                real = self.target()
                real.parent.mkdir(parents=True, exist_ok=True)
                _write_atomic(real, (_BOM if current.bom else b"") + text.encode("utf-8"))
        return Outcome(self.shown, action, block)

    def check(self, sections: Sequence[Section], max_bytes: int) -> FileCheck:
        """The file against the block ``sync`` would write now; nothing is written."""
        current = self.read()
        block = render_block(sections, max_bytes=max_bytes, newline=current.newline)
        matches = current.exists and self.new_text(current, block) == current.text
        return FileCheck(self.shown, current.exists, current.block is not None, matches, block,
                         _over_budget(current, block))


def _over_budget(current: FileText, block: Block) -> bool:
    """The block on disk is not the writer's (edited by hand, an older version) or is over the budget."""
    if current.block is None:
        return False
    on_disk = current.block + current.newline
    return on_disk != block.text or len(on_disk.encode("utf-8")) > block.max_bytes


def _action(current: FileText, text: str) -> str:
    if not current.exists:
        return "created"
    if current.span is None:
        return "appended"
    return "unchanged" if text == current.text else "updated"


def _lock_path(settings: Any) -> Path:
    """``<history_dir>/rules.lock``: one lock for every rules file."""
    return project_lock(settings.root, settings.history_dir, "rules.lock")


def configured_files(settings: Any, files: Optional[Sequence[str]] = None) -> list[RulesFile]:
    """The rules files of ``[tool.ladder.rules] files`` (or those of ``files``)."""
    return [RulesFile(settings.root, rel) for rel in (files or rules_config(settings).files)]


def sync(settings: Any, files: Optional[Sequence[str]] = None, *,
         warn: Optional[Callable[[str], None]] = None) -> list[Outcome]:
    """Write the block into every configured file (the sections are worked out once)."""
    sections = build_sections(settings, warn)
    lock, max_bytes = _lock_path(settings), rules_config(settings).max_bytes
    return [rules_file.sync(sections, max_bytes, lock) for rules_file in configured_files(settings, files)]


def check(settings: Any, files: Optional[Sequence[str]] = None, *,
          warn: Optional[Callable[[str], None]] = None) -> list[FileCheck]:
    """Every configured file against what ``sync`` would write now; nothing is written."""
    sections = build_sections(settings, warn)
    max_bytes = rules_config(settings).max_bytes
    return [rules_file.check(sections, max_bytes) for rules_file in configured_files(settings, files)]


def show(settings: Any, *, warn: Optional[Callable[[str], None]] = None) -> str:
    """The block ``sync`` would write (with ``\\n`` newlines)."""
    return render_block(build_sections(settings, warn), max_bytes=rules_config(settings).max_bytes).text


def _file_health(rules_file: RulesFile, sections: Sequence[Section], max_bytes: int) -> dict[str, Any]:
    try:
        found = rules_file.check(sections, max_bytes)
    except LadderError as exc:
        there = rules_file.path.exists()
        return {"file": rules_file.shown, "present": there, "saturated": False, "over_budget": there,
                "problem": str(exc)}
    return {"file": found.file, "present": found.present, "saturated": found.block.saturated,
            "over_budget": found.over_budget, "problem": None}


def rules_block_health(settings: Any, warn: Optional[Callable[[str], None]] = None) -> dict[str, Any]:
    """What ``ladder doctor`` says of the block, per file and overall: ``saturated`` (the budget is full:
    working as designed) and ``over_budget`` (the file no longer matches what the writer would write: edited by
    hand or by an older version; readers keep whole sections). Neither asks anyone to clean anything up."""
    config = rules_config(settings)
    try:
        sections = build_sections(settings, warn)
    except LadderError as exc:
        files = [{"file": rel, "present": False, "saturated": False, "over_budget": False, "problem": str(exc)}
                 for rel in config.files]
        return {"files": files, "saturated": False, "over_budget": False, "problem": str(exc)}
    files = [_file_health(rules_file, sections, config.max_bytes) for rules_file in configured_files(settings)]
    return {"files": files, "saturated": any(f["saturated"] for f in files),
            "over_budget": any(f["over_budget"] for f in files), "problem": None}


# -- the prompt hook's reader: the standard library only, one file, no history ---------------------------


def _size(lines: Sequence[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def _parts(lines: Sequence[str]) -> tuple[list[str], list[list[str]], int]:
    """The header lines, the sections (a full one with its body, or a demoted line) and the count the
    closing line already carried."""
    header: list[str] = []
    units: list[list[str]] = []
    earlier = 0
    for line in lines:
        more = _MORE.fullmatch(line)
        if more:
            earlier += int(more.group(1))
        elif line.startswith((FULL_PREFIX, DEMOTED_PREFIX)):
            units.append([line])
        else:
            (units[-1] if units else header).append(line)
    return header, units, earlier


def _kept(units: Sequence[Sequence[str]], budget: int, earlier: int) -> int:
    """How many sections fit in order, each step keeping room for the closing line that counts the rest."""
    def tail(rest: int) -> int:
        return _size([more_line(rest + earlier)]) if rest + earlier else 0

    kept, used = 0, 0
    while kept < len(units) and used + _size(units[kept]) + tail(len(units) - kept - 1) <= budget:
        used, kept = used + _size(units[kept]), kept + 1
    return kept


def _closing(count: int, room: int) -> list[str]:
    """``… and N more`` when there is something to count and room for it."""
    line = [more_line(count)] if count else []
    return line if _size(line) <= room else []


def _trimmed(lines: list[str], max_bytes: int) -> tuple[str, int]:
    """Whole sections in order while they fit, then the closing line (when it fits too)."""
    if len(lines) < 2:  # both markers on one line, and that line alone is over the budget
        return "", 0
    header, units, earlier = _parts(lines[1:-1])
    budget = max_bytes - _size([lines[0], *header, lines[-1]])
    if budget < 0:
        return "", len(units)
    kept = _kept(units, budget, earlier)
    body = [line for unit in units[:kept] for line in unit]
    left = len(units) - kept
    closing = _closing(left + earlier, budget - _size(body))
    return "\n".join([lines[0], *header, *body, *closing, lines[-1]]) + "\n", left


def _block_lines(path: Union[str, "os.PathLike[str]"]) -> Optional[list[str]]:
    """The lines from the first begin marker to the end marker after it, or ``None``."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(_MAX_FILE)
    except OSError:
        return None
    text = raw[len(_BOM) if raw.startswith(_BOM) else 0:].decode("utf-8", "replace")
    start = text.find(BEGIN)
    end = text.find(END, start + len(BEGIN)) if start >= 0 else -1
    return _LINE_BREAK.split(text[start:end + len(END)]) if end >= 0 else None


def read_block(path: Union[str, "os.PathLike[str]"], max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, int]:
    """The block in the file at ``path`` (markers included, ``\\n`` newlines) and how many sections were left
    out: none when it fits in ``max_bytes``; else whole sections only. ``("", 0)`` without a block, and for a
    block not in the writer's form (``rules.in_written_form``): what reaches an agent is only ever the writer's."""
    lines = _block_lines(path)
    if lines is None or not in_written_form(lines):
        return "", 0
    whole = "\n".join(lines) + "\n"
    return (whole, 0) if len(whole.encode("utf-8")) <= max_bytes else _trimmed(lines, max_bytes)
