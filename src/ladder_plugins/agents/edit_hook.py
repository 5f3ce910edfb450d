"""``ladder hook post-edit``: a convergence breaker for structural feedback (``docs/how-to/agent-hooks.md``).

An agent that edits a unit and leaves it over a limit it was already over is circling: the
same feedback, given again, without converging. The lint run finds that later, as a
recurring hotspot; this hook says it at once, after the edit, while the agent still holds
the unit in mind. It is a ``PostToolUse`` command hook for Claude Code and Codex (matcher
``Edit|Write|MultiEdit``; Codex's ``apply_patch`` answers to ``Edit``/``Write``) and an
``AfterTool`` hook for Gemini CLI (``write_file|replace``); which one asked is read from
``hook_event_name`` and the fields present (:func:`ladder_plugins.hosts.sender`).

What it does, and why it stops there:

* It analyses only the files the tool call named, each a ``.py`` file inside the project
  root (symlinks resolved), with the project's settings and the analysis cache, so a warm
  call costs a cache lookup, one read of the history's summary and the gate's arithmetic.
* "Before" is what the history knows: a fingerprint the history holds red, or one that this
  edit, counted as one more occurrence, makes a recurring hotspot. A unit the edit did not
  change (its version is one the history already has) is not mentioned: reminding an agent
  of a legacy unit it did not touch is noise, and a guard that is mostly noise gets turned off
  (the judging: :mod:`.edit_findings`).
* It records nothing in the history (the lint run does that, with the whole run). The one
  thing it writes is a tiny per-session counter, ``<history_dir>/hooks/sessions/<id>.json``,
  so it can say how many edits of this session left the unit unfixed; bounded, pruned,
  written atomically, inside the root only, and never where there is no project; best effort: a counter
  that cannot be written leaves the finding said, without its count (:mod:`.edit_session`).
* It tells, it does not block, unless ``[tool.ladder.hooks] block_on_hotspot = true``, and
  then only for a recurring hotspot: false blocks cost more than the circling they catch.
* It fails open: any internal failure is ``{}`` on stdout, exit status 0, nothing on
  stderr. A hook that breaks the agent's edit loop is worse than no hook.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..hosts import CONTEXT_CAP, EDIT_PATH_FIELDS, HOSTS, PATCH_FIELDS, answering, host, sender
from ..readers.stdin import silenced
from .edit_findings import MAX_BYTES, Finding, findings_of, grouped, unit_line

__all__ = ["EMPTY", "MAX_FILES", "Payload", "parse_payload", "edited_paths", "project_files", "render", "run",
           "main"]

#: tools that name a file without changing it: a hook installed without a matcher sees them too
_READ_ONLY = frozenset(tool for h in HOSTS for tool in h.read_only_tools)
#: what every host accepts as "nothing to add"
EMPTY = "{}"
_PATCH_FILE = re.compile(r"^\*\*\* (?:(?:Add|Update) File|Move to): (.+?)[ \t]*$", re.M)
MAX_FILES = 8  # a patch may touch many files; the hook stays within its time budget
_SHOWN = 6  # findings written out in full; the rest are counted
_MAX_CONTEXT = CONTEXT_CAP - 1000  # characters: below the hosts' cap on a context string


# ---------------------------------------------------------------------------
# the host's stdin


@dataclass(frozen=True)
class Payload:
    """What the hook needs from the host's stdin: which dialect to answer in, where, which files."""

    #: the name of the host whose answer form is wanted (Codex's is Claude Code's: ``claude``)
    dialect: str
    cwd: Path
    session_id: str
    paths: tuple[str, ...]


def _dialect(data: Mapping[str, Any]) -> Optional[str]:
    """``claude`` (Claude Code, Codex), ``gemini``, or ``None`` for an event this hook does not serve; an
    empty or non-string event name counts as none (the fields present and the tool then decide)."""
    event = data.get("hook_event_name")
    named = event if isinstance(event, str) and event else None
    sent = sender(data, named, "post-edit", data.get("tool_name"))
    return None if sent is None else answering(sent, "post-edit").name


def _text(value: Any) -> Optional[str]:
    """A usable path string: text, not empty, no NUL (which no file system takes)."""
    return value if isinstance(value, str) and value.strip() and "\x00" not in value else None


def _paths_in(arguments: Mapping[str, Any]) -> list[str]:
    """The files one tool call's arguments name: a path field, or the files of a Codex patch."""
    for key in EDIT_PATH_FIELDS:
        named = _text(arguments.get(key))
        if named:
            return [named]
    found: list[str] = []
    for key in PATCH_FIELDS:
        patch = arguments.get(key)
        if isinstance(patch, str) and "*** Begin Patch" in patch:
            found.extend(match.group(1) for match in _PATCH_FILE.finditer(patch))
    return found


def edited_paths(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The files a tool call edited, as the host named them (``tool_input``, else ``tool_response``), at most
    :data:`MAX_FILES`, each once."""
    for key in ("tool_input", "tool_response"):
        arguments = data.get(key)
        found = _paths_in(arguments) if isinstance(arguments, Mapping) else []
        if found:
            return tuple(dict.fromkeys(p for p in map(_text, found) if p))[:MAX_FILES]
    return ()


def parse_payload(stdin: bytes, environ: Mapping[str, str]) -> Optional[Payload]:
    """The payload, or ``None`` for anything this hook does not serve (not JSON, another event, no file)."""
    try:
        data = json.loads(stdin.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    from ..readers.stdin import working_dir

    dialect, paths, where = _dialect(data), edited_paths(data), working_dir(data, environ)
    cwd = Path(where) if where is not None else None
    if dialect is None or not paths or cwd is None or data.get("tool_name") in _READ_ONLY:
        return None
    session = data.get("session_id")
    return Payload(dialect, cwd, session if isinstance(session, str) else "", paths)


# ---------------------------------------------------------------------------
# the files inside the project


def _relative(path: Path, root: Path) -> Optional[str]:
    """``path`` as the lint names it (POSIX, relative to the resolved root), or ``None`` outside the root.

    The directory is resolved, the name kept: a file reached through a symlinked directory
    gets its fingerprint's path, a symlinked file keeps its own name."""
    try:
        return (Path(os.path.realpath(path.parent)) / path.name).relative_to(root).as_posix()
    except ValueError:
        return None


def _regular_inside(path: Path, root: Path) -> bool:
    """A regular file (symlinks followed) whose real location is inside ``root``, of a size an edit hook reads."""
    from ..ladderdir.paths import inside

    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= MAX_BYTES and inside(path, root)


def project_files(paths: Iterable[str], cwd: Path, settings: Any) -> list[tuple[Path, str]]:
    """``(absolute path, relative path)`` of each named ``.py`` file inside the project root that the lint
    would analyse (not excluded); everything else is ignored."""
    from ..analysis.discovery import DEFAULT_EXCLUDES
    from ..analysis.globs import compile_globs, matches_any

    root = Path(os.path.realpath(settings.root))
    excludes = compile_globs(DEFAULT_EXCLUDES + tuple(settings.exclude))
    found: dict[str, Path] = {}
    for raw in paths:
        path = Path(os.path.normpath(os.path.join(cwd, raw)))
        rel = _relative(path, root) if path.suffix == ".py" else None
        if rel and not matches_any(rel, excludes) and _regular_inside(path, root):
            found.setdefault(rel, path)
    return [(path, rel) for rel, path in found.items()]


# ---------------------------------------------------------------------------
# the answer


def _blocks(settings: Any) -> bool:
    """``[tool.ladder.hooks] block_on_hotspot``; off when the settings have no such table (yet)."""
    return getattr(getattr(settings, "hooks", None), "block_on_hotspot", False) is True


def _context(findings: Sequence[Finding]) -> str:
    groups = grouped(findings)
    units = f"{len(groups)} unit{'s' if len(groups) != 1 else ''}"
    head = (f"ladder: this edit left {units} over a limit the history already holds it over (before: the last "
            "recorded check; the lint run records this edit, this hook records nothing):")
    lines = [f"- {unit_line(group)}" for group in groups[:_SHOWN]]
    if len(groups) > _SHOWN:
        lines.append(f"- and {len(groups) - _SHOWN} more units")
    text = "\n".join([head, *lines])
    return text if len(text) <= _MAX_CONTEXT else text[:_MAX_CONTEXT - 1] + "\u2026"


def render(dialect: str, findings: Sequence[Finding], block: bool = False) -> str:
    """The host's JSON: ``{}`` for nothing to say; context (``hookSpecificOutput.additionalContext``); or, with
    ``block`` and a recurring hotspot among ``findings``, the host's block form with the same facts."""
    if not findings:
        return EMPTY
    text = _context(findings)
    answer = host(dialect)
    if answer is None:
        raise ValueError(f"no host is called {dialect!r}")
    if block and any(f.hotspot for f in findings):
        return json.dumps({"decision": answer.block_decision, "reason": text})
    return json.dumps({"hookSpecificOutput": {"hookEventName": answer.edit_event, "additionalContext": text}})


def _has_history(settings: Any) -> bool:
    """Whether the project has a history at all (a look at three names, before anything is analysed)."""
    directory = settings.root / settings.history_dir / "history"
    return any(os.path.exists(directory / name) for name in ("events.jsonl", "summaries.json", "folded.json"))


def _answer(stdin: bytes, environ: Mapping[str, str]) -> str:
    from ..config import load_settings

    payload = parse_payload(stdin, environ)
    if payload is None:
        return EMPTY
    settings = load_settings(payload.cwd)
    if not settings.in_project or not _has_history(settings):  # nothing to compare with: nothing analysed
        return EMPTY
    files = project_files(payload.paths, payload.cwd, settings)
    if not files:
        return EMPTY
    findings = findings_of(settings, files, payload.session_id, environ)
    return render(payload.dialect, findings, _blocks(settings))


def run(stdin: bytes, environ: Optional[Mapping[str, str]] = None) -> str:
    """The hook's stdout for the host's ``stdin``: always one JSON object, ``{}`` on any internal failure."""
    env = os.environ if environ is None else environ
    try:
        with silenced():
            return _answer(stdin, env)
    except Exception:  # fail open, whatever it was: the agent's edit loop goes on
        return EMPTY


def main(stdin_fd: Optional[int] = None, stdout: Optional[Any] = None) -> int:
    """``ladder hook post-edit``: stdin to stdout, exit status 0 whatever happened. Stdin is read until it ends
    or holds one whole JSON object, for the budget (``LADDER_HOOK_BUDGET_MS``) at most: a host that never
    finishes its payload gets ``{}`` then."""
    from ..readers.stdin import budget_of, read_payload

    target = stdout if stdout is not None else sys.stdout
    try:
        payload = read_payload(sys.stdin.fileno() if stdin_fd is None else stdin_fd, budget_of(os.environ))
        answer = EMPTY if payload is None else run(payload)
    except Exception:  # stdin itself could not be read
        answer = EMPTY
    with contextlib.suppress(Exception):
        target.write(answer + "\n")
        target.flush()
    return 0
