"""Level 3 of the ladder, tool design: the hook commands agent hosts run around prompts and tool calls.

A built-in source of the ``ladder_feedback_sources`` hook. Claude Code, Codex and Gemini CLI
share one shape (``hooks`` maps an event to matcher groups, each group a list of hooks), so
one reader serves JSON and TOML alike. Each hook is one sighting: its command (or prompt)
with its event and matcher in words, so "run ruff after every edit" meets a PostToolUse hook
running ``ruff check``. Hooks are tool design on the ladder (``docs/explanation/ladder.md``),
so they are level 3 here, even where a ``hooks.json`` is called level 4. What has the wrong
shape is skipped, what is right is kept, and each file is warned about once.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, List, Mapping, Optional, Sequence, Tuple

from ...hookspecs import hookimpl
from ...hosts import HOSTS, PLUGIN_HOOK_FILE, PLUGIN_MANIFEST
from ...readers.settings import parse_settings
from ..dating import Dated, Dating
from ..files import identity_of, read_source, relative
from ..model import Sighting, SourceContext

__all__ = [
    "HOOK_FILES",
    "MAX_PLUGIN_DEPTH",
    "MAX_PLUGIN_DIRS",
    "HookEntry",
    "hook_entries",
    "plugin_hook_files",
    "ladder_feedback_sources",
]

#: the hook configurations of a project and how each is written (``jsonc``: JSON with comments): every host's
#: files, then the project's own hooks when it is a Claude Code plugin
HOOK_FILES = tuple((f"{h.directory}/{f.name}", f.form) for h in HOSTS for f in h.files) + (PLUGIN_HOOK_FILE,)
#: how deep below the root a Claude Code plugin (``<dir>/.claude-plugin/plugin.json``) is looked for
MAX_PLUGIN_DEPTH = 3
#: at most this many directories are searched for plugins (a warning says the search stopped)
MAX_PLUGIN_DIRS = 2000

_SOURCE = "hooks"
_SHOWN_PROBLEMS = 3
_NOT_SEARCHED = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "env", "build", "dist"})
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_GLOSS = {"pre": "before", "post": "after"}
#: which field holds a hook's words, by its type (other types, such as ``http``, have none)
_SAID_IN = {"command": "command", "prompt": "prompt", "agent": "prompt"}


@dataclass(frozen=True)
class HookEntry:
    """One hook of one matcher group of one event, as the configuration holds it."""

    event: str
    group: int
    index: int
    matcher: str
    #: the hook's own mapping (type, command, timeout, ...)
    hook: Mapping[str, Any]
    #: the command (an argv list joined by spaces), or ``""``
    command: str = ""
    #: a ``prompt``/``agent`` hook's prompt, or ``""``
    prompt: str = ""

    @property
    def path(self) -> str:
        """``hooks.PostToolUse[0].hooks[1]``."""
        return f"hooks.{self.event}[{self.group}].hooks[{self.index}]"


def _kind(value: object) -> str:
    """What a JSON/TOML value is, in the words of a warning."""
    if value is None:
        return "missing"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    return "a number" if isinstance(value, (int, float)) else f"a {type(value).__name__}"


def _text_of(value: object) -> str:
    """A command as one line: a string as it is, an argv list joined by spaces, else ``""``."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
        return " ".join(value)
    return ""


def _entry(event: str, place: Tuple[int, int, str], hook: object, problems: List[str]) -> Optional[HookEntry]:
    """The hook at ``hooks.<event>[group].hooks[index]``, or ``None`` (and a problem when it is malformed)."""
    group, index, matcher = place
    where = f"hooks.{event}[{group}].hooks[{index}]"
    if not isinstance(hook, Mapping):
        problems.append(f"{where} is {_kind(hook)}, not a hook")
        return None
    kind = hook.get("type", "command" if "command" in hook else None)
    if not isinstance(kind, str):
        problems.append(f"{where} has neither a type nor a command")
        return None
    key = _SAID_IN.get(kind)
    if key is None:
        return None  # another type (http, ...) has no words to read: not wrong, nothing to say
    said = _text_of(hook.get(key))
    if not said:
        problems.append(f"{where} has no {key}")
        return None
    return HookEntry(event, group, index, matcher, hook, **{key: said})


def _group_parts(where: str, group: object, problems: List[str]) -> Optional[Tuple[str, List[Any]]]:
    """A matcher group's matcher and hooks, or ``None`` (and a problem) when it is not one."""
    if not isinstance(group, Mapping):
        problems.append(f"{where} is {_kind(group)}, not a matcher group")
        return None
    matcher, hooks = group.get("matcher", ""), group.get("hooks")
    if not isinstance(matcher, str):
        problems.append(f"{where}.matcher is {_kind(matcher)}, not a string")
        return None
    if not isinstance(hooks, list):
        problems.append(f"{where}.hooks is {_kind(hooks)}, not a list of hooks")
        return None
    return matcher.strip(), hooks


def _group_entries(event: str, number: int, group: object, problems: List[str]) -> Iterator[HookEntry]:
    """The hooks of matcher group ``number`` of ``event``."""
    parts = _group_parts(f"hooks.{event}[{number}]", group, problems)
    if parts is None:
        return
    matcher, hooks = parts
    for index, hook in enumerate(hooks):
        entry = _entry(event, (number, index, matcher), hook, problems)
        if entry is not None:
            yield entry


def _events(data: object, problems: List[str]) -> Mapping[str, Any]:
    """The ``hooks`` mapping of a configuration (empty when it has none)."""
    if not isinstance(data, Mapping):
        problems.append(f"the top level is {_kind(data)}, not a mapping")
        return {}
    hooks = data.get("hooks")
    if hooks is None:
        return {}
    if not isinstance(hooks, Mapping):
        problems.append(f"`hooks` is {_kind(hooks)}, not a mapping of events to matcher groups")
        return {}
    return hooks


def hook_entries(data: object) -> Tuple[List[HookEntry], List[str]]:
    """Every well-formed hook of a parsed configuration, and what was skipped as malformed."""
    problems: List[str] = []
    entries: List[HookEntry] = []
    for event, groups in _events(data, problems).items():
        if not isinstance(groups, list):
            problems.append(f"hooks.{event} is {_kind(groups)}, not a list of matcher groups")
            continue
        for number, group in enumerate(groups):
            entries.extend(_group_entries(str(event), number, group, problems))
    return entries, problems


# ---------------------------------------------------------------------------
# parsing


def _canonical(entry: HookEntry) -> str:
    """The hook where it is (event, matcher) as canonical JSON: the words its identity hashes."""
    placed = {"event": entry.event, "matcher": entry.matcher, "hook": entry.hook}
    return json.dumps(placed, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _words(name: str) -> str:
    """``PostToolUse`` -> ``after tool use``; ``Edit|Write`` -> ``edit write``."""
    seen: List[str] = []
    for word in _WORD.findall(name):
        word = _GLOSS.get(word.lower(), word.lower())
        if word not in seen:
            seen.append(word)
    return " ".join(seen)


#: ladder's own edit hook is tool design for the structural rules: said so, in the rules' words, so that the
#: tracker finds the structural feedback encoded at level 3 where it is installed
_LADDER_EDIT_HOOK = re.compile(r"\bladder(?:_plugins)?\b.*\bhook\s+post-edit\b")
_STRUCTURAL = ("ladder's edit hook: structural rules (cyclomatic complexity, cognitive complexity, ABC size, "
               "nesting, long functions, parameters) over the limit, said at the moment of the edit")


#: what a hook that blocks says: exit status 2, or a block (deny) decision in its JSON answer
_BLOCKING = re.compile(
    r"\bexit\s+2\b|\b(?:sys|os)\.(?:_)?exit\(\s*2\s*\)|\bprocess\.exit(?:Code\s*=\s*|\(\s*)2\b"
    r"|[\"']?(?:decision|permissionDecision)[\"']?\s*[:=]\s*[\"'](?:block|deny)[\"']")
#: how a hook command names the project (or the plugin) it runs in
_PROJECT_VARIABLES = re.compile(r"\$\{?(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}?")
_MAX_SCRIPTS = 3


def _scripts(command: str, base: Path, context: SourceContext) -> List[Path]:
    """The files inside the project a hook command names (at most three): the script it runs."""
    import shlex

    try:
        words = shlex.split(_PROJECT_VARIABLES.sub(str(base), command))
    except ValueError:
        words = command.split()
    found: List[Path] = []
    for word in words:
        path = Path(word) if Path(word).is_absolute() else base / word
        if len(found) < _MAX_SCRIPTS and "/" in word and path.is_file() and path.resolve().is_relative_to(
                context.root.resolve()):
            found.append(path)
    return found


def blocks(entry: HookEntry, base: Path, context: SourceContext) -> bool:
    """Whether a hook blocks: its command or prompt, or a script inside the project its command runs, exits 2 or
    answers a block decision. Hosts block on exit 2 and on ``decision: block``; exit 1 does not block."""
    if _BLOCKING.search(entry.command) or _BLOCKING.search(entry.prompt):
        return True
    return any(_BLOCKING.search(read_source(path, context) or "") for path in _scripts(entry.command, base, context))


def _sighting(rel: str, entry: HookEntry, dated: Dated = Dated(None, ""), level: int = 3) -> Sighting:
    said = "; ".join(part for part in (entry.command, entry.prompt) if part)
    if _LADDER_EDIT_HOOK.search(entry.command or ""):
        said = f"{_STRUCTURAL}\n{said}"
    text = f"{said}; on {entry.event} ({_words(entry.event)})"
    if entry.matcher:
        text += f"; matcher {entry.matcher} ({_words(entry.matcher)})"
    suffix = f" (matcher {entry.matcher})" if entry.matcher else ""
    if level == 4:
        text += "; blocks the agent (exit 2 or a block decision)"
    return Sighting(
        level=level,
        text=text,
        location=f"{rel}: {entry.path}{suffix}",
        source=_SOURCE,
        identity=identity_of(rel, _canonical(entry)),
        when=dated.day,
        dated=dated.how,
    )


def _summary(problems: Sequence[str]) -> str:
    shown = "; ".join(problems[:_SHOWN_PROBLEMS])
    more = len(problems) - _SHOWN_PROBLEMS
    return f"{shown}; and {more} more" if more > 0 else shown


def _read_hooks(path: Path, form: str, context: SourceContext, dating: Optional[Dating] = None) -> List[Sighting]:
    """The sightings of one configuration file; one warning when anything in it was skipped."""
    text = read_source(path, context)
    if text is None or not text.strip():
        return []
    rel = relative(path, context.root)
    data, problem = parse_settings(text, form)
    if problem is not None:
        context.warn(f"{rel}: {problem}; skipped")
        return []
    entries, problems = hook_entries(data)
    if problems:
        context.warn(f"{rel}: skipped what has the wrong shape, kept the rest: {_summary(problems)}")
    dated = dating.file(path, rel) if dating is not None and entries else Dated(None, "")
    base = path.parent.parent if path.parent.name in ("hooks", ".claude", ".codex", ".gemini") else path.parent
    return [_sighting(rel, entry, dated, 4 if blocks(entry, base, context) else 3) for entry in entries]


# ---------------------------------------------------------------------------
# plugins inside the project


def _subdirectories(directory: Path) -> List[Path]:
    """The directories below ``directory`` worth searching: not hidden, not symlinked, not vendored."""
    try:
        with os.scandir(directory) as listing:
            names = sorted(
                entry.name
                for entry in listing
                if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
            )
    except OSError:
        return []
    return [directory / name for name in names if name not in _NOT_SEARCHED]


def plugin_hook_files(context: SourceContext) -> List[Path]:
    """``<dir>/hooks/hooks.json`` of every ``<dir>`` below the root that is a Claude Code plugin (it has
    ``.claude-plugin/plugin.json``), at most ``MAX_PLUGIN_DEPTH`` levels down, symlinks not followed."""
    found: List[Path] = []
    level, searched = [context.root], 0
    for _ in range(MAX_PLUGIN_DEPTH):
        level = [sub for directory in level for sub in _subdirectories(directory)]
        searched += len(level)
        if searched > MAX_PLUGIN_DIRS:
            context.warn(f"more than {MAX_PLUGIN_DIRS} directories searched for Claude Code plugins; stopped")
            break
        found.extend(d / PLUGIN_HOOK_FILE[0] for d in level if (d / PLUGIN_MANIFEST).is_file())
    return found


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> Optional[List[Sighting]]:
    """Level-3 sightings (level 4 for a hook that blocks): the hooks of Claude Code, Codex, Gemini CLI and Claude
    Code plugins."""
    found: List[Sighting] = []
    dating = Dating(context, say=False)  # the docs source says a shallow clone
    for name, form in HOOK_FILES:
        found.extend(_read_hooks(context.root / name, form, context, dating))
    for path in plugin_hook_files(context):
        found.extend(_read_hooks(path, PLUGIN_HOOK_FILE[1], context, dating))
    return found
