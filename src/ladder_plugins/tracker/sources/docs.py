"""Level 2 of the ladder, documentation: the instruction files agents read and the rules files they load.

A rules file scoped to paths (Claude Code ``paths:``, Cursor ``globs``) is level 3, tool design: the host
loads it by itself when the agent reads a file it names (:func:`level_of_rule`).

A built-in source of the ``ladder_feedback_sources`` hook. One piece of feedback is one
list item, one table row or one paragraph of prose: that is the unit a person edits, so
its identity (path + hash of its own words) changes when it changes and the rest of the
file keeps theirs. Headings are context, fenced code and HTML comments are not text (Claude
Code strips block comments before the model sees them), front matter is settings, except
a rule file's ``description``, which is what the rule says.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, Mapping, Optional, Set, Tuple

from ...hookspecs import hookimpl
from ...ladderdir.paths import inside
from ..dating import Dated, Dating
from ..files import identity_of, read_source, relative
from ..model import Sighting, SourceContext
from .asking import is_feedback

if TYPE_CHECKING:
    from ...readers.frontmatter import FrontMatter

__all__ = [
    "ROOT_DOCUMENTS",
    "MAX_RULE_FILES",
    "MAX_RULE_DIRS",
    "Piece",
    "pieces_of",
    "rule_files",
    "read_once",
    "ladder_feedback_sources",
]

#: instruction files read at the project root, in this order (Claude Code, Codex, Gemini CLI, people)
ROOT_DOCUMENTS = ("CLAUDE.md", ".claude/CLAUDE.md", "AGENTS.md", "GEMINI.md", "CODING_STANDARDS.md", "CONTRIBUTING.md")
#: at most this many files are read from one rules directory (a warning says the rest were skipped)
MAX_RULE_FILES = 500
#: at most this many directories are walked below ``.claude/rules`` (symlinked ones included)
MAX_RULE_DIRS = 200

_SOURCE = "docs"
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")  # at any indent: code inside a list item is code too
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+|$)")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+")
_TABLE_RULE = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$")
_IMPORTS = re.compile(r"^@\S+(?: @\S+)*$")  # tokens apart: no backtracking blow-up on a long line
_FRONT_BLOCK = re.compile(r"\A---[ \t]*\r?\n.*?^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)
_DESCRIPTION_KEY = re.compile(r"^description[ \t]*:")


@dataclass(frozen=True)
class Piece:
    """One piece of feedback in a Markdown body: where it starts, its words on one line, its heading."""

    line: int
    text: str
    #: the nearest heading above it (``""`` when there is none)
    heading: str = ""

    @property
    def feedback(self) -> str:
        """The piece with its heading's words first (``Testing: add a test``), as people read it; the tracker
        matches the piece alone (a heading is context, never a reason to join two pieces)."""
        return f"{self.heading}: {self.text}" if self.heading else self.text


def _uncomment(line: str, open_comment: bool) -> Tuple[str, bool]:
    """``line`` without its HTML comments, and whether a comment is still open at its end."""
    kept: List[str] = []
    rest = line
    while True:
        if open_comment:
            end = rest.find("-->")
            if end < 0:
                return "".join(kept), True
            rest, open_comment = rest[end + 3:], False
        start = rest.find("<!--")
        if start < 0:
            kept.append(rest)
            return "".join(kept), False
        kept.append(rest[:start])
        rest, open_comment = rest[start + 4:], True


def _heading_text(line: str) -> str:
    """The words of an ATX heading line (``## Tests ##`` -> ``Tests``)."""
    match = _HEADING.match(line)
    words = line[match.end():] if match else line
    return " ".join(_CLOSING_HASHES.sub("", words).split())


def _table_row(line: str) -> str:
    """A table row's cells on one line, ``a | b``."""
    return " | ".join(cell.strip() for cell in line.strip().strip("|").split("|") if cell.strip())


@dataclass
class _Reader:
    """One pass over a Markdown body, line by line: the pieces, the current heading, what is open."""

    pieces: List[Piece] = field(default_factory=list)
    heading: str = ""
    fence: str = ""
    comment: bool = False
    kind: str = ""  # of the piece being read: "item", "para" or "" (none)
    start: int = 0
    lines: List[str] = field(default_factory=list)

    def flush(self) -> None:
        """End the piece being read (an empty one, or a bare ``@import`` line, is no piece)."""
        text = " ".join(" ".join(self.lines).split())
        if text and not _IMPORTS.match(text):
            self.pieces.append(Piece(self.start, text, self.heading))
        self.kind, self.lines = "", []

    def begin(self, kind: str, number: int, text: str) -> None:
        """Start a new piece at line ``number``."""
        self.flush()
        self.kind, self.start, self.lines = kind, number, [text]

    def feed(self, number: int, raw: str) -> None:
        """Read line ``number``: fenced code and HTML comments are dropped before anything else."""
        if self.fence:
            closing = raw.strip()
            if closing.startswith(self.fence) and not closing.strip(self.fence[0]):
                self.fence = ""
            return
        had_comment = self.comment or "<!--" in raw
        line, self.comment = _uncomment(raw, self.comment)
        if not line.strip():
            if not had_comment:  # a line that was only a comment ends nothing
                self.flush()
            return
        opening = _FENCE.match(line)
        if opening:
            self.flush()
            self.fence = opening.group(1)
            return
        self.block(number, _QUOTE.sub("", line))

    def block(self, number: int, line: str) -> None:
        """Read a line of text that is neither code nor comment nor blank."""
        if _HEADING.match(line):
            self.flush()
            self.heading = _heading_text(line)
        elif _SETEXT.match(line) and self.kind == "para":
            self.heading, self.lines, self.kind = " ".join(" ".join(self.lines).split()), [], ""
        elif _BREAK.match(line):
            self.flush()
        elif _TABLE_RULE.match(line):
            self.drop_table_header(number)
        else:
            self.text(number, line)

    def drop_table_header(self, number: int) -> None:
        """A table's delimiter row: the row just above it is the header, names of columns, not feedback."""
        self.flush()
        if self.pieces and self.pieces[-1].line == number - 1:
            self.pieces.pop()

    def text(self, number: int, line: str) -> None:
        """A list item, a table row, or a line of a paragraph (a continuation of the item before it)."""
        item = _ITEM.match(line)
        if item:
            self.begin("item", number, line[item.end():])
        elif line.lstrip().startswith("|"):
            self.begin("row", number, _table_row(line))
            self.flush()
        elif self.kind:
            self.lines.append(line)
        else:
            self.begin("para", number, line)


def pieces_of(body: str, first_line: int = 1) -> List[Piece]:
    """The pieces of feedback of a Markdown ``body`` whose first line is line ``first_line`` of its file."""
    reader = _Reader()
    managed = False
    for number, line in enumerate(body.split("\n"), start=first_line):  # "\n" only: the lines editors count
        # ladder's own managed block (``ladder rules sync``) is a projection of the tracker: read as
        # documentation it would count the tracker's items as written down, and promote them in a loop
        managed = (managed or _BLOCK_BEGIN in line) and _BLOCK_END not in line
        if not managed and _BLOCK_END not in line:
            reader.feed(number, line[:-1] if line.endswith("\r") else line)
    reader.flush()
    return reader.pieces


_BLOCK_BEGIN, _BLOCK_END = "<!-- ladder:rules:begin -->", "<!-- ladder:rules:end -->"


# ---------------------------------------------------------------------------
# front matter: settings, a scope, and the description


@dataclass(frozen=True)
class _Document:
    """A file's text split into its settings and its body, and what was wrong with the settings."""

    data: Mapping[str, Any]
    body: str
    body_line: int
    problems: Tuple[str, ...] = ()


def _front_matter(text: str) -> "FrontMatter":
    """:func:`split_front_matter`, with what PyYAML raises besides ``YAMLError`` (a date such as
    ``2026-13-45`` is a ``ValueError``, deep nesting a ``RecursionError``) turned into a problem too."""
    from ...readers.frontmatter import FrontMatter, split_front_matter

    try:
        return split_front_matter(text)
    except (ValueError, RecursionError) as exc:
        why = str(exc) if isinstance(exc, ValueError) else "nested too deeply"
        return FrontMatter(body=text, problem=f"front matter cannot be read ({why})")


def _split(text: str, strict: bool) -> _Document:
    """Front matter and body. ``strict`` (rule files): a malformed front matter is reported and left out of
    the body; otherwise (instruction files, which have no front matter) the whole text is the body."""
    front = _front_matter(text)
    if front.problem is None:
        return _Document(front.data, front.body, front.body_line)
    if not strict:
        return _Document({}, text, 1)
    block = _FRONT_BLOCK.match(text)
    end = block.end() if block else 0
    problem = f"{front.problem}; its settings are ignored and the text after it is read as the rule"
    return _Document({}, text[end:], text[:end].count("\n") + 1, (problem,))


def _globs(data: Mapping[str, Any], key: str, problems: List[str]) -> str:
    """A ``paths``/``globs`` setting shown on one line: a glob, or globs joined by commas."""
    value = data.get(key)
    if value is None or value == "" or value == []:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and all(isinstance(glob, str) for glob in value):
        return ", ".join(glob.strip() for glob in value)
    problems.append(f"`{key}` is neither a glob nor a list of globs; ignored")
    return ""


def _scope(data: Mapping[str, Any], cursor: bool, problems: List[str]) -> str:
    """When the host loads the rule: ``paths: src/api/**`` (Claude Code), ``alwaysApply``/``globs: *.py``
    (Cursor); ``""`` for always (or, for Cursor, when asked)."""
    if not cursor:
        paths = _globs(data, "paths", problems)
        return f"paths: {paths}" if paths else ""
    parts = ["alwaysApply"] if data.get("alwaysApply") is True else []
    globs = _globs(data, "globs", problems)
    if globs:
        parts.append(f"globs: {globs}")
    return "; ".join(parts)


def _description(text: str, document: _Document, problems: List[str]) -> List[Piece]:
    """A rule file's ``description`` (what the rule is about, in its own words) as one piece."""
    value = document.data.get("description")
    if value is None:
        return []
    if not isinstance(value, str):
        problems.append("`description` is not text; ignored")
        return []
    words = " ".join(value.split())
    lines = text.splitlines()[: max(document.body_line - 1, 0)]
    line = next((n for n, raw in enumerate(lines, start=1) if _DESCRIPTION_KEY.match(raw)), 1)
    return [Piece(line, words)] if words else []


@dataclass(frozen=True)
class _File:
    """A file being read: where it is, and the days its lines were written."""

    path: Path
    rel: str
    dates: Mapping[int, Dated]
    #: the day of a line blame did not date (asked of git only then)
    otherwise: Callable[[], Dated]

    @classmethod
    def at(cls, path: Path, context: SourceContext, dating: Optional[Dating]) -> "_File":
        rel = relative(path, context.root)
        dates, otherwise = dating.lines(path, rel) if dating is not None else ({}, lambda: Dated(None, ""))
        return cls(path, rel, dates, otherwise)

    def dated(self, line: int) -> Dated:
        found = self.dates.get(line)
        return found if found is not None else self.otherwise()


def _feedback(pieces: Iterable[Piece]) -> List[Piece]:
    """The pieces that are feedback: not a link, a path, a URL, nor what a named thing is (:mod:`.asking`)."""
    return [piece for piece in pieces if is_feedback(piece.text)]


def _sightings(file: _File, pieces: Iterable[Piece], scope: str, level: int = 2) -> List[Sighting]:
    suffix = f" ({scope})" if scope else ""
    return [
        Sighting(
            level=level,
            text=piece.text,
            location=f"{file.rel}:{piece.line}{suffix}",
            source=_SOURCE,
            identity=identity_of(file.rel, piece.text),
            when=file.dated(piece.line).day,
            dated=file.dated(piece.line).how,
            context=piece.heading,
        )
        for piece in pieces
    ]


def _read_document(path: Path, context: SourceContext, dating: Optional[Dating] = None) -> List[Sighting]:
    """An instruction file (``CLAUDE.md``, ``AGENTS.md``, ...): its body, pieces; no scope."""
    text = read_source(path, context)
    if text is None:
        return []
    document = _split(text, strict=False)
    body = _without_gemini_memories(document.body) if path.name == "GEMINI.md" else document.body
    file = _File.at(path, context, dating)
    return _sightings(file, _feedback(pieces_of(body, document.body_line)), "")


def _without_gemini_memories(body: str) -> str:
    """A GEMINI.md's body with its ``## Gemini Added Memories`` section blanked (line numbers kept): those facts
    are level 1, read by the memory source."""
    from .memory import gemini_memory_lines

    lines = body.split("\n")
    for index in gemini_memory_lines(lines):
        lines[index] = ""
    return "\n".join(lines)


def _read_rule(path: Path, context: SourceContext, cursor: bool, dating: Optional[Dating] = None) -> List[Sighting]:
    """A rule file: its description and its body's pieces, each located with the rule's scope."""
    text = read_source(path, context)
    if text is None:
        return []
    rel = relative(path, context.root)
    document = _split(text, strict=True)
    problems = list(document.problems)
    scope = _scope(document.data, cursor, problems)
    pieces = _description(text, document, problems) + _feedback(pieces_of(document.body, document.body_line))
    if problems:
        context.warn(f"{rel}: {'; '.join(problems)}")
    return _sightings(_File.at(path, context, dating), pieces, scope, level_of_rule(scope))


def level_of_rule(scope: str) -> int:
    """A rules file's level: 2 (documentation) when the host loads it every session (or, for Cursor, always or
    when the agent asks), 3 (tool design) when the host brings it in by itself as the agent touches the files it
    names (Claude Code ``paths:``, Cursor ``globs`` without ``alwaysApply``): there the tool puts the rule in
    front of the agent at the moment of the edit, as a PreToolUse hook would."""
    parts = scope.split("; ")
    return 3 if any(p.startswith(("paths: ", "globs: ")) for p in parts) and "alwaysApply" not in parts else 2


# ---------------------------------------------------------------------------
# the rules directories: inside the root, bounded


def _is_directory(entry: "os.DirEntry[str]") -> bool:
    """Whether a listed entry is a directory (symlinks followed); ``False`` when that cannot be told."""
    try:
        return entry.is_dir()
    except OSError:
        return False


@dataclass
class _Walk:
    """A walk of one rules directory: symlinked directories followed only inside the root, each real
    directory once, at most ``MAX_RULE_DIRS`` directories and ``MAX_RULE_FILES`` files."""

    context: SourceContext
    suffix: str
    recursive: bool
    root: Path = field(init=False)
    top: Path = field(init=False)
    found: List[Path] = field(default_factory=list)
    seen: Set[str] = field(default_factory=set)
    pending: List[Path] = field(default_factory=list)
    full: bool = False

    def __post_init__(self) -> None:
        self.root = self.context.root.resolve()

    def rel(self, path: Path) -> str:
        return relative(path, self.context.root)

    def run(self, top: Path) -> List[Path]:
        """The files below ``top`` (sorted), or none when ``top`` is missing or leads outside the root."""
        self.top = top
        if not top.is_dir():
            return []
        if not inside(top, self.root):
            self.context.warn(f"{self.rel(top)}: leads outside {self.root} (a symlink); skipped, never followed")
            return []
        self.pending.append(top)
        while self.pending and not self.full:
            self.visit(self.pending.pop())
        return sorted(self.found)

    def visit(self, directory: Path) -> None:
        real = os.path.realpath(directory)
        if real in self.seen:
            return
        if len(self.seen) >= MAX_RULE_DIRS:
            self.stop(f"more than {MAX_RULE_DIRS} directories")
            return
        self.seen.add(real)
        subdirectories = self.read(directory)
        if self.recursive:
            self.pending.extend(path for path in reversed(subdirectories) if self.followed(path))

    def read(self, directory: Path) -> List[Path]:
        """Take the files of ``directory``; its subdirectories, in name order."""
        subdirectories = []
        for entry in self.entries(directory):
            if _is_directory(entry):
                subdirectories.append(Path(entry.path))
            elif entry.name.endswith(self.suffix) and not self.full:
                self.take(Path(entry.path))
        return subdirectories

    def entries(self, directory: Path) -> List["os.DirEntry[str]"]:
        try:
            with os.scandir(directory) as listing:
                return sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            self.context.warn(f"{self.rel(directory)}: cannot be listed ({exc.strerror or exc}); skipped")
            return []

    def followed(self, directory: Path) -> bool:
        """Whether to walk ``directory``: a symlinked one only when it leads to a place inside the root."""
        if not directory.is_symlink() or inside(directory, self.root):
            return True
        self.context.warn(f"{self.rel(directory)}: leads outside {self.root} (a symlink); skipped, never followed")
        return False

    def take(self, path: Path) -> None:
        if len(self.found) >= MAX_RULE_FILES:
            self.stop(f"more than {MAX_RULE_FILES} rule files")
            return
        self.found.append(path)

    def stop(self, why: str) -> None:
        self.full = True
        self.context.warn(f"{self.rel(self.top)}: {why}; the first ones in walk order are read, the rest skipped")


def rule_files(directory: Path, context: SourceContext, suffix: str, recursive: bool) -> List[Path]:
    """The files named ``*<suffix>`` in ``directory`` (and below it, ``recursive``), sorted."""
    return _Walk(context, suffix, recursive).run(directory)


# ---------------------------------------------------------------------------
# one file under several names (a symlink, a hard link) is read once

_DOCUMENT, _CLAUDE_RULE, _CURSOR_RULE = "document", "rule", "cursor rule"


def _same_file(path: Path, root: Path) -> object:
    """What two names of one file share: its device and inode (symlinks followed), for a file inside the
    (resolved) ``root``; a missing file, or one leading outside, is itself (read_source says why not)."""
    try:
        info = os.stat(path)
    except OSError:
        return path
    return (info.st_dev, info.st_ino) if inside(path, root) else path


def _is_own_path(path: Path, context: SourceContext, root: Path) -> bool:
    """Whether ``path`` is its file's own path (no symlink on the way to it)."""
    return Path(os.path.realpath(path)) == root / relative(path, context.root)


def read_once(names: List[Tuple[Path, str]], context: SourceContext) -> List[Tuple[Path, str]]:
    """``names`` (a path and how to read it, in the scan's order) with one name per real file: the file's own
    path when it is one of them, else the first in the scan's order (``CLAUDE.md`` -> ``AGENTS.md`` is read as
    ``AGENTS.md``; ``CONTRIBUTING.md`` -> ``docs/contributing.md`` as ``CONTRIBUTING.md``; of two hard links,
    the first read). Feedback written down in one place is one occurrence, under one stable location."""
    root = context.root.resolve()
    keys = [_same_file(path, root) for path, _ in names]
    chosen: dict[object, Tuple[Path, str]] = {}
    for key, name in zip(keys, names):
        if key not in chosen or (_is_own_path(name[0], context, root)
                                 and not _is_own_path(chosen[key][0], context, root)):
            chosen[key] = name
    return [name for key, name in zip(keys, names) if chosen[key] is name]


def _broken_link(path: Path, context: SourceContext) -> bool:
    """Whether ``path`` is a symlink to nothing, said (read_source is silent on a missing file, as a project
    without a ``GEMINI.md`` is usual; a link to a file that is gone is a mistake to hear of)."""
    try:
        if not path.is_symlink():
            return False
        path.stat()
    except FileNotFoundError:
        try:
            target = repr(os.readlink(path))
        except OSError:
            target = "gone"
        context.warn(f"{relative(path, context.root)}: a symlink to nothing ({target}); skipped")
        return True
    except OSError:  # a loop, a denied directory: read_source says which
        return False
    return False


def _read(path: Path, how: str, context: SourceContext, dating: Dating) -> List[Sighting]:
    if _broken_link(path, context):
        return []
    if how == _DOCUMENT:
        return _read_document(path, context, dating)
    return _read_rule(path, context, cursor=how == _CURSOR_RULE, dating=dating)


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> Optional[List[Sighting]]:
    """Level-2 sightings (level 3 for a rules file scoped to paths): instruction files, ``.claude/rules/**/*.md``,
    ``.cursor/rules/*.mdc``; a file reached by several names is read once (:func:`read_once`)."""
    names = [(context.root / name, _DOCUMENT) for name in ROOT_DOCUMENTS]
    names += [(path, _CLAUDE_RULE) for path in rule_files(context.root / ".claude" / "rules", context, ".md", True)]
    names += [(path, _CURSOR_RULE) for path in rule_files(context.root / ".cursor" / "rules", context, ".mdc", False)]
    found: List[Sighting] = []
    dating = Dating(context)
    for path, how in read_once(names, context):
        found.extend(_read(path, how, context, dating))
    return found
