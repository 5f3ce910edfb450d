"""Level 1 from Claude Code's auto memory: the memory files of type ``feedback`` of this project.

The memory directory lies outside the repository, under the user's home:
``~/.claude/projects/<project>/memory/`` (``$CLAUDE_CONFIG_DIR`` replaces ``~/.claude``),
where ``<project>`` is the project's absolute path with every character that is not a
letter or a digit turned into ``-``. ``autoMemoryDirectory`` in the project's
``.claude/settings*.json``, ``[tool.ladder.feedback] memory_dir`` or ``--memory-dir``
point elsewhere. It is only read. Both front-matter forms count: a top-level
``type: feedback`` (older Claude Code) and ``metadata: {type: feedback}`` (newer);
``MEMORY.md`` index lines give a memory's title and hook, and its list items under a
heading naming feedback are feedback themselves.

Gemini CLI's memory tool (``save_memory``, ``/memory add``) appends each fact as a ``- fact``
line under a ``## Gemini Added Memories`` heading of a ``GEMINI.md``: the project's one is read
here, each line a level-1 sighting dated as its line (``dating``); the docs source leaves that
section out. The user's ``~/.gemini/GEMINI.md`` holds facts of every project and is not read.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional

from ...hookspecs import hookimpl
from ..dating import Dating
from ...hosts import CLAUDE, GEMINI
from ..files import identity_of, read_source
from ...readers.frontmatter import split_front_matter
from ..model import Sighting, SourceContext

__all__ = ["GEMINI_SECTION", "find_memory_dir", "gemini_memory_lines", "gemini_sightings", "ladder_feedback_sources",
           "memory_sightings"]

#: the heading Gemini CLI's memory tool writes its facts under (the host table's)
GEMINI_SECTION = GEMINI.memory_section

_MAX_FILES = 500
_INDEX_LINE = re.compile(r"^\s*[-*]\s*\[(?P<title>[^\]]*)\]\((?P<file>[^)\s]+)\)\s*(?:[-—:]+\s*(?P<hook>.*))?$")
_ITEM = re.compile(r"^\s*(?:[-*]|\d+\.)\s+(?P<text>\S.*)$")
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.*)$")


def _encodings(root: Path) -> list[str]:
    """The names Claude Code may have given the project's directory (every non-alphanumeric as ``-``; older
    versions: only the separators)."""
    text = str(root)
    return list(dict.fromkeys([re.sub(r"[^A-Za-z0-9]", "-", text), text.replace(os.sep, "-")]))


def _setting(root: Path) -> Optional[str]:
    """``autoMemoryDirectory`` from the project's Claude Code settings (local ones first), if it is a string."""
    for name in sorted((f.name for f in CLAUDE.files), key=lambda n: "local" not in n):  # local ones first
        try:
            data = json.loads((root / CLAUDE.directory / name).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            continue
        value = data.get("autoMemoryDirectory") if isinstance(data, dict) else None
        if isinstance(value, str) and value.strip():
            return value
    return None


def _expanded(value: str, root: Path) -> Path:
    path = Path(os.path.expanduser(value))
    return path if path.is_absolute() else root / path


def find_memory_dir(root: Path, configured: Optional[str] = None,
                    environ: Optional[Mapping[str, str]] = None) -> Path:
    """Where this project's Claude Code memory lives (which need not exist)."""
    env = os.environ if environ is None else environ
    chosen = configured or _setting(root)
    if chosen:
        return _expanded(chosen, root)
    home = env.get(CLAUDE.config_dir_env or "") or Path(os.path.expanduser("~")) / CLAUDE.directory
    base = Path(home) / "projects"
    candidates = [base / name / "memory" for name in _encodings(root.resolve())]
    return next((c for c in candidates if c.is_dir()), candidates[0])


def _type_of(data: Mapping[str, Any]) -> Optional[str]:
    meta = data.get("metadata")
    kind = data.get("type") or (meta.get("type") if isinstance(meta, dict) else None)
    return kind if isinstance(kind, str) else None


def _day(path: Path) -> Optional[str]:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).date().isoformat()
    except (OSError, ValueError, OverflowError):
        return None


def _memory_file(path: Path, context: SourceContext, hooks: Mapping[str, str]) -> Optional[Sighting]:
    """A feedback memory as a sighting; ``None`` for another type (or one that cannot be read, said once)."""
    assert context.memory_dir is not None
    text = read_source(path, context, base=context.memory_dir)
    if text is None:
        return None
    front = split_front_matter(text)
    if front.problem:
        context.warn(f"memory {path.name}: {front.problem}; skipped")
        return None
    said = _feedback_words(front, hooks.get(path.name, "")) if _type_of(front.data) == "feedback" else ""
    if not said:
        return None
    own = _feedback_words(front, "")  # the identity is the memory's own words: rewording its index line is no new one
    written = _written(front.data)
    return Sighting(1, said, f"{path.name} (Claude Code memory)", "memory", identity_of(f"memory/{path.name}", own),
                    written or _day(path), dated="front matter" if written else "file time")


def _written(data: Mapping[str, Any]) -> Optional[str]:
    """The day a memory's front matter says it was written (``date``, ``created``), if it says one."""
    import datetime as dt

    for key in ("date", "created"):
        value = data.get(key)
        if isinstance(value, (dt.date, dt.datetime)):
            return value.isoformat()[:10]
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value.strip()[:10]).isoformat()
            except ValueError:
                continue
    return None


def _feedback_words(front: Any, hook: str) -> str:
    """A feedback memory's words: its name, description, index hook and body."""
    name, description = str(front.data.get("name") or ""), str(front.data.get("description") or "")
    rest = " ".join(w for w in (name if description else "", hook, " ".join(front.body.split())) if w)
    return "\n".join(w for w in (description or name, rest) if w).strip()


def _index(context: SourceContext) -> tuple[dict[str, str], list[Sighting]]:
    """``MEMORY.md``: each linked file's title and hook, and the list items under a heading naming feedback."""
    path = Path(str(context.memory_dir)) / "MEMORY.md"
    text = read_source(path, context, base=path.parent) if path.exists() else None
    return _parsed_index(text or "", path)


def _parsed_index(text: str, path: Path) -> tuple[dict[str, str], list[Sighting]]:
    hooks: dict[str, str] = {}
    found: list[Sighting] = []
    heading = ""
    for number, line in enumerate(text.splitlines(), 1):
        title, link = _HEADING.match(line), _INDEX_LINE.match(line)
        heading = title.group("title").lower() if title else heading
        hooks.update(_hook_of(link))
        found += _listed(line, number, path) if not (title or link) and "feedback" in heading else []
    return hooks, found


def _hook_of(link: Any) -> dict[str, str]:
    """An index line's file and its title and hook (nothing for a line that links no file)."""
    if link is None:
        return {}
    return {Path(link.group("file")).name: f"{link.group('title')} {link.group('hook') or ''}".strip()}


def _listed(line: str, number: int, path: Path) -> list[Sighting]:
    """A list item of ``MEMORY.md`` under a heading naming feedback, as a sighting."""
    item = _ITEM.match(line)
    if item is None:
        return []
    said = item.group("text").strip()
    return [Sighting(1, said, f"MEMORY.md:{number} (Claude Code memory)", "memory",
                     identity_of("memory/MEMORY.md", said), _day(path))]


def memory_sightings(context: SourceContext) -> Iterator[Sighting]:
    """The feedback memories of ``context.memory_dir``, in file-name order (none when it does not exist)."""
    folder = context.memory_dir
    if folder is None or not folder.is_dir():
        return
    hooks, listed = _index(context)
    yield from listed
    files = sorted(p for p in folder.glob("*.md") if p.name != "MEMORY.md")
    if len(files) > _MAX_FILES:
        context.warn(f"memory directory {folder}: {len(files)} files; the first {_MAX_FILES} are read")
    for path in files[:_MAX_FILES]:
        sighting = _memory_file(path, context, hooks)
        if sighting is not None:
            yield sighting


_LEVEL_1_OR_2 = re.compile(r"^ {0,3}#{1,2}(?:[ \t]|$)")


def gemini_memory_lines(lines: list[str]) -> range:
    """The lines (0-based) of the ``## Gemini Added Memories`` section of a GEMINI.md's ``lines``: its heading to
    the next heading of level 1 or 2 (an empty range when there is none)."""
    start = next((n for n, line in enumerate(lines) if line.strip() == GEMINI_SECTION), None)
    if start is None:
        return range(0)
    end = next((n for n in range(start + 1, len(lines)) if _LEVEL_1_OR_2.match(lines[n])), len(lines))
    return range(start, end)


def gemini_sightings(context: SourceContext) -> list[Sighting]:
    """The facts Gemini CLI's memory tool wrote into the project's ``GEMINI.md``, one sighting per list item."""
    path = context.root / GEMINI.memory_file
    text = read_source(path, context)
    if text is None:
        return []
    lines = text.split("\n")
    section = gemini_memory_lines(lines)
    if not section:
        return []
    dates, otherwise = Dating(context, say=False).lines(path, GEMINI.memory_file)
    found = []
    for index in section[1:]:
        item = _ITEM.match(lines[index].rstrip("\r"))
        if item is None:
            continue
        said, dated = " ".join(item.group("text").split()), dates.get(index + 1) or otherwise()
        found.append(Sighting(1, said, f"{GEMINI.memory_file}:{index + 1} ({GEMINI.title} memory)", "gemini-memory",
                              identity_of(f"{GEMINI.memory_file}#gemini-memory", said), dated.day, dated=dated.how))
    return found


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> list[Sighting]:
    return list(memory_sightings(context)) + gemini_sightings(context)
