"""``ladder hook install|uninstall``: our two hook entries merged into an agent host's settings.

The prompt hook (``ladder hook prompt`` on ``UserPromptSubmit``, Gemini CLI's ``BeforeAgent``)
and the edit hook (``ladder hook post-edit`` on ``PostToolUse``, Gemini CLI's ``AfterTool``)
are level 3 of the ladder only once a host runs them, and a host runs what its settings say.
Those settings are the user's: permissions, models, other hooks. So the merge is narrow:

* The command we write runs the interpreter that ran ``install`` (``'/venv/bin/python' -m ladder_plugins
  hook prompt # ladder-plugins``, as pre-commit does): a host's PATH rarely holds the project's virtual
  environment, and a bare ``ladder`` there is exit 127 on every prompt. The trailing shell comment is our
  marker: an entry is ours only when its command is exactly what we write, whatever the interpreter's path
  (or the bare ``ladder hook prompt|post-edit`` earlier versions wrote). A user's own command that runs our
  hook (``cd backend && ladder hook post-edit``), or merely mentions it, is theirs: kept, and reported.
* Everything else (every other key, value, hook, and their order) is kept. JSON is parsed with its order
  and written back in the file's style (indentation, or one compact line; separators, escapes, line
  endings). Installing twice changes nothing.
* Install keeps the file's text from before in the user's state directory
  (``~/.local/state/ladder-plugins/hooks``), not beside the settings: uninstall gives it back byte for
  byte while the file is still what install wrote, and removes a file (and directories) install created.
  A file edited since loses only our entries.
* Codex also reads ``[[hooks.<Event>]]`` tables in ``config.toml``, a file TOML libraries cannot
  rewrite without losing its comments: there our tables live between ``# ladder:hooks:begin``
  and ``# ladder:hooks:end`` and nothing outside the markers is touched. ``.codex/hooks.json``
  is the default; ``config.toml`` is used when it already holds our block, or when it already
  configures hooks and there is no ``hooks.json``.
* Timeouts are in the host's unit: seconds for Claude Code and Codex, milliseconds for Gemini CLI.
* A settings file reached through a symlink (a dotfiles set-up) is written through the link, which stays;
  one that leads outside the project root (project scope) or the home directory (user scope) is refused.
  ``dry_run`` returns the unified diff and writes nothing; a file that is not JSON (or TOML) is refused
  with a :class:`~ladder_plugins.errors.LadderError` naming it, and nothing changes.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import LadderError
from ..hosts import HOSTS, NAMES, Host, host as host_named
from ..ladderdir.atomic import write_atomic

__all__ = [
    "SCOPES", "KINDS", "MARKER", "BEGIN_MARKER", "END_MARKER", "Outcome", "Unresolved", "our_groups",
    "hook_command", "our_kind", "is_our_command", "ladder_hook_kind", "settings_path", "install", "uninstall",
    "installed", "installed_kinds", "unresolved_hooks",
]

SCOPES = ("project", "user")
KINDS = ("prompt", "post-edit")
#: ends every command install writes: a shell comment, so the host's shell ignores it and we recognise it
MARKER = "# ladder-plugins"
BEGIN_MARKER = "# ladder:hooks:begin"
END_MARKER = "# ladder:hooks:end"
#: what install wrote before it named the interpreter (a bare ``ladder``): ours too, replaced on install
_EARLIER = {"ladder hook prompt": "prompt", "ladder hook post-edit": "post-edit"}
_MAX_BYTES = 4 << 20
#: a command that runs one of our hooks, whoever wrote it: ``ladder hook post-edit``, ``/venv/bin/ladder hook
#: prompt``, ``python -m ladder_plugins hook post-edit``
_RUNS = re.compile(r"""(?:^|[\s/\\"'])(?:ladder(?:\.exe)?|ladder_plugins)["']?\s+hook\s+(prompt|post-edit)(?:\s|$)""")


def hook_command(kind: str, interpreter: Optional[str] = None) -> str:
    """The command install writes for the hook ``kind`` (``prompt``, ``post-edit``): ``interpreter`` (default:
    the one running now) quoted for a POSIX shell, ``-m ladder_plugins hook <kind>``, then :data:`MARKER`."""
    python = sys.executable if interpreter is None else interpreter
    if not python:
        raise LadderError("the Python interpreter running ladder is not known (sys.executable is empty), so the "
                          "hook command cannot name it: run '<environment>/bin/python -m ladder_plugins hook "
                          "install ...'; nothing changed")
    return f"{shlex.quote(python)} -m ladder_plugins hook {kind} {MARKER}"


def _ours(command: Any) -> Optional[tuple[str, Optional[str]]]:
    """``(kind, interpreter)`` when ``command`` is exactly one install writes (interpreter ``None``: the bare
    ``ladder`` of earlier versions), else ``None``."""
    if not isinstance(command, str):
        return None
    if command in _EARLIER:
        return _EARLIER[command], None
    for kind in KINDS:
        tail = f" -m ladder_plugins hook {kind} {MARKER}"
        head = command[:-len(tail)] if command.endswith(tail) else ""
        try:
            words = shlex.split(head)
        except ValueError:  # an unbalanced quote: not a word we wrote
            continue
        if len(words) == 1 and shlex.quote(words[0]) == head:
            return kind, words[0]
    return None


def our_kind(command: Any) -> Optional[str]:
    """``prompt`` or ``post-edit`` for a command install writes (from any interpreter), else ``None``."""
    found = _ours(command)
    return found[0] if found else None


def is_our_command(command: Any) -> bool:
    """Whether ``command`` is exactly one install writes: what install replaces and uninstall removes."""
    return _ours(command) is not None


def ladder_hook_kind(command: Any) -> Optional[str]:
    """``prompt`` or ``post-edit`` for any command that runs one of our hooks (an argv list is joined), ours or a
    user's own (``cd backend && ladder hook post-edit``), else ``None``: what ``ladder doctor`` counts."""
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        command = " ".join(command)
    match = _RUNS.search(command) if isinstance(command, str) else None
    return match.group(1) if match else None


def _is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and is_our_command(hook.get("command"))


def our_groups(host: Host, interpreter: Optional[str] = None) -> dict[str, dict[str, Any]]:
    """Our two matcher groups for ``host``, by event, exactly as they are written (``interpreter``: see
    :func:`hook_command`)."""
    prompt: dict[str, Any] = {} if host.prompt_matcher is None else {"matcher": host.prompt_matcher}
    prompt["hooks"] = [{"type": "command", "command": hook_command("prompt", interpreter), "timeout": host.timeout}]
    edit = {"matcher": host.edit_matcher,
            "hooks": [{"type": "command", "command": hook_command("post-edit", interpreter), "timeout": host.timeout}]}
    return {host.prompt_event: prompt, host.edit_event: edit}


@dataclass(frozen=True)
class Outcome:
    """What :func:`install` or :func:`uninstall` did (with ``dry_run``: would do)."""

    #: the unified diff of every change
    diff: str = ""
    #: settings files written, by their real path (a symlink is written through)
    written: tuple[Path, ...] = ()
    #: files removed: ones install had created, given back by uninstall (or Codex's other file)
    removed: tuple[Path, ...] = ()
    #: the user's own commands that run (or mention) one of our hooks: kept as they are
    kept: tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# where


def _host(agent: str) -> Host:
    found = host_named(agent)
    if found is None:
        raise LadderError(f"unknown agent {agent!r}; expected one of {', '.join(NAMES)}")
    return found


def _base(scope: str, home: Optional[Path], project_root: Path) -> Path:
    if scope not in SCOPES:
        raise LadderError(f"unknown scope {scope!r}; expected one of {', '.join(SCOPES)}")
    return Path(project_root) if scope == "project" else Path(home) if home is not None else Path.home()


def _toml_path(host: Host, base: Path) -> Optional[Path]:
    """The TOML file install may write for ``host`` (Codex's ``config.toml``), or ``None``."""
    return next((base / host.directory / f.name for f in host.files if f.installs and f.form == "toml"), None)


def _form(host: Host, path: Path) -> str:
    """How ``host`` writes its settings file ``path`` (by its name): ``json``, ``jsonc`` or ``toml``."""
    return next((f.form for f in host.files if f.name == path.name), "toml" if path.suffix == ".toml" else "json")


def _holds_block(path: Path) -> bool:
    text = _read_optional(path)
    return text is not None and any(line.strip() == BEGIN_MARKER for line in text.splitlines())


def _configures_hooks(path: Path) -> bool:
    from ..config import toml_loads

    text = _read_optional(path)
    try:
        return text is not None and isinstance(toml_loads(text).get("hooks"), dict)
    except (ValueError, RecursionError):
        return False


def _candidates(host: Host, base: Path) -> list[Path]:
    """Every file of ``host`` under ``base`` that install may write or uninstall may clean."""
    return [base / host.directory / f.name for f in host.files if f.installs]


def settings_path(agent: str, scope: str, home: Optional[Path], project_root: Path) -> Path:
    """The file ``install`` writes for ``agent`` in ``scope``: ``.claude/settings.json``, ``.codex/hooks.json``
    (or ``.codex/config.toml``, see the module's docstring), ``.gemini/settings.json``; under the project
    root, or under ``home`` (default ``~``) for the user scope."""
    host, base = _host(agent), _base(scope, home, project_root)
    json_path = base / host.directory / host.files[0].name
    toml = _toml_path(host, base)
    if toml is not None and (_holds_block(toml) or (not json_path.exists() and _configures_hooks(toml))):
        return toml
    return json_path


def _real(path: Path, scope: str, base: Path) -> Path:
    """The file to read and write for ``path``, symlinks resolved (a dotfiles link is written through, so it
    stays a link); one that leads outside the project root or the home directory is refused."""
    real, root = Path(os.path.realpath(path)), Path(os.path.realpath(base))
    if root not in real.parents:
        where = "the project root" if scope == "project" else "your home directory"
        raise LadderError(f"{path} leads outside {where} {root} (a symlink to {real}), where install does not "
                          f"write: add the entries there by hand, or make {path} a regular file; nothing changed")
    return real


# ---------------------------------------------------------------------------
# reading


def _read_optional(path: Path) -> Optional[str]:
    """The text of ``path``, ``None`` when it does not exist; a file that cannot be used is an error."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LadderError(f"{path}: cannot be read ({exc.strerror or exc}); nothing changed") from None
    if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_BYTES:
        raise LadderError(f"{path}: not a regular settings file of at most {_MAX_BYTES >> 20} MiB; nothing changed")
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LadderError(f"{path}: not UTF-8 (byte {exc.start}); nothing changed") from None
    except OSError as exc:
        raise LadderError(f"{path}: cannot be read ({exc.strerror or exc}); nothing changed") from None


def _load_json(path: Path, text: Optional[str], host: Host) -> dict[str, Any]:
    """The settings object (``{}`` for a missing or blank file); anything that is not a JSON object is refused."""
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = f" ({host.title} allows comments there, which a rewrite would lose: add the entries by hand)" \
            if _form(host, path) == "jsonc" else ""
        raise LadderError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}){hint}; "
                          "nothing changed") from None
    except (ValueError, RecursionError):
        raise LadderError(f"{path}: not valid JSON (nested too deeply); nothing changed") from None
    if not isinstance(data, dict):
        raise LadderError(f"{path}: the top level is not a JSON object; nothing changed")
    return data


def _hooks_of(path: Path, data: dict[str, Any], host: Host) -> dict[str, Any]:
    """The ``hooks`` mapping, our two events in it lists of matcher groups; another shape is refused, not
    guessed. Other keys there (Gemini CLI has had ``enabled`` and ``disabled``) are not ours to judge."""
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise LadderError(f"{path}: `hooks` is not a mapping of events to matcher groups; nothing changed")
    for event in (host.prompt_event, host.edit_event):
        if not isinstance(hooks.get(event, []), list):
            raise LadderError(f"{path}: hooks.{event} is not a list of matcher groups; nothing changed")
    return hooks


def _kept_commands(path: Path, text: Optional[str]) -> list[str]:
    """The user's own commands in a settings file that run (or mention) one of our hooks: never touched."""
    from ..config import toml_loads
    from ..tracker.sources.hooks import hook_entries

    if text is None or not text.strip():
        return []
    try:
        data = toml_loads(text) if path.suffix == ".toml" else json.loads(text)
    except (ValueError, RecursionError):
        return []
    return [entry.command for entry in hook_entries(data)[0]
            if ladder_hook_kind(entry.command) and not is_our_command(entry.command)]


# ---------------------------------------------------------------------------
# merging JSON


def _without_ours(group: Any) -> tuple[Any, bool]:
    """``(group without our hooks, or None when nothing is left; whether it held any of ours)``. A group of
    another shape is not ours to judge: kept as it is."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return group, False
    hooks = [hook for hook in group["hooks"] if not _is_ours(hook)]
    if len(hooks) == len(group["hooks"]):
        return group, False
    return ({**group, "hooks": hooks} if hooks else None), True


def _strip_event(groups: Sequence[Any]) -> tuple[list[Any], Optional[int]]:
    """The groups without our hooks, and where the first of ours was among those kept (``None``: nowhere)."""
    kept: list[Any] = []
    first: Optional[int] = None
    for group in groups:
        rest, ours = _without_ours(group)
        if ours and first is None:
            first = len(kept)
        if rest is not None:
            kept.append(rest)
    return kept, first


def _stripped(hooks: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """``hooks`` without any of our entries (an event left empty by that goes), and where ours were."""
    result: dict[str, Any] = {}
    places: dict[str, int] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):  # not an event's groups: kept as it is
            result[event] = groups
            continue
        kept, first = _strip_event(groups)
        if first is not None:
            places[event] = first
        if kept or first is None:
            result[event] = kept
    return result, places


def _with_ours(hooks: dict[str, Any], host: Host, interpreter: Optional[str]) -> dict[str, Any]:
    """``hooks`` with exactly our two groups: where ours were already, else at the end of their events."""
    stripped, places = _stripped(hooks)
    ours = our_groups(host, interpreter)
    # every event where it was (an event that held only ours was dropped by the strip), new ones at the end
    result = {event: stripped.get(event, []) for event in [*hooks, *ours] if event in stripped or event in ours}
    for event, group in ours.items():
        result[event].insert(places.get(event, len(result[event])), group)
    return result


def _merged(data: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    """``data`` with ``hooks`` in its place (added at the end when new); without the key when ``hooks`` is
    empty and the file had none, or had only ours."""
    merged = dict(data)
    if hooks:
        merged["hooks"] = hooks
    else:
        merged.pop("hooks", None)
    return merged


@dataclass(frozen=True)
class _Style:
    """How a JSON file is written, so that a rewrite looks like the original."""

    #: spaces or a tab per level; ``None``: the whole object on one line
    indent: Optional[int | str] = 2
    #: ``(item, key)`` separators: ``(",", ": ")`` indented, ``(", ", ": ")`` or ``(",", ":")`` on one line
    separators: tuple[str, str] = (",", ": ")
    ascii_only: bool = False
    newline: str = "\n"
    final_newline: bool = True

    @classmethod
    def of(cls, text: Optional[str]) -> "_Style":
        """The style of ``text``: the indentation of its first indented line, or one compact line and its
        separators; ``\\u`` escapes, CRLF, a final newline; the defaults (2 spaces) for a new or blank file."""
        if not text or not text.strip():
            return cls()
        indent, separators = cls._layout(text)
        return cls(indent, separators, text.isascii() and "\\u" in text, "\r\n" if "\r\n" in text else "\n",
                   text.endswith("\n"))

    @staticmethod
    def _layout(text: str) -> tuple[Optional[int | str], tuple[str, str]]:
        if "\n" not in text.strip():  # one line: ``{"a": 1, "b": 2}`` or ``{"a":1,"b":2}``
            return None, ((",", ":") if re.search(r'"[ \t]*:[ \t]', text) is None else (", ", ": "))
        match = re.search(r"[\[{][ \t]*\r?\n([ \t]*)\S", text)
        space = match.group(1) if match else "  "
        return ("\t" if "\t" in space else len(space)), (",", ": ")

    def dumps(self, data: Any) -> str:
        text = json.dumps(data, indent=self.indent, separators=self.separators, ensure_ascii=self.ascii_only)
        text += "\n" if self.final_newline else ""
        return text.replace("\n", self.newline) if self.newline != "\n" else text


def _json_text(path: Path, text: Optional[str], host: Host, adding: bool,
               interpreter: Optional[str]) -> Optional[str]:
    """The file's new text with our entries added (``adding``) or removed; ``None`` when nothing changes."""
    data = _load_json(path, text, host)
    hooks = _hooks_of(path, data, host)
    new_hooks = _with_ours(hooks, host, interpreter) if adding else _stripped(hooks)[0]
    if new_hooks == hooks:
        return None
    return _Style.of(text).dumps(_merged(data, new_hooks))


# ---------------------------------------------------------------------------
# Codex's config.toml, between markers


def _toml_block(host: Host, interpreter: Optional[str] = None) -> str:
    """Our tables for Codex's ``config.toml``, between the markers."""
    from ..reports.sanitize import toml_string

    lines = [BEGIN_MARKER, "# written by `ladder hook install`, removed by `ladder hook uninstall`; "
             "edits between the markers are replaced"]
    for event, group in our_groups(host, interpreter).items():
        lines.append(f"[[hooks.{event}]]")
        if "matcher" in group:
            lines.append(f"matcher = {toml_string(group['matcher'])}")
        for hook in group["hooks"]:
            lines += [f"[[hooks.{event}.hooks]]", f"type = {toml_string(hook['type'])}",
                      f"command = {toml_string(hook['command'])}", f"timeout = {hook['timeout']}", ""]
    return "\n".join(lines[:-1] + [END_MARKER]) + "\n"


def _marked(lines: Sequence[str], marker: str) -> list[int]:
    return [number for number, line in enumerate(lines) if line.strip() == marker]


def _split_block(path: Path, text: str) -> tuple[str, Optional[str], str]:
    """``(before, our block or None, after)``; markers out of order or repeated are refused."""
    lines = text.splitlines(keepends=True)
    begins, ends = _marked(lines, BEGIN_MARKER), _marked(lines, END_MARKER)
    if not begins and not ends:
        return text, None, ""
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise LadderError(f"{path}: the markers {BEGIN_MARKER!r} and {END_MARKER!r} are not one pair in order; "
                          "fix them by hand; nothing changed")
    start, end = begins[0], ends[0] + 1
    return "".join(lines[:start]), "".join(lines[start:end]), "".join(lines[end:])


def _checked_toml(path: Path, text: str, what: str) -> None:
    from ..config import toml_loads

    try:
        toml_loads(text)
    except ValueError as exc:
        raise LadderError(f"{path}: {what} ({exc}); nothing changed") from None
    except RecursionError:
        raise LadderError(f"{path}: {what} (nested too deeply); nothing changed") from None


def _appended(text: str, block: str) -> str:
    """``block`` at the end of ``text``, after one blank line (none in an empty file)."""
    if not text.strip():
        return block
    return text + ("" if text.endswith("\n") else "\n") + "\n" + block


def _toml_text(path: Path, text: Optional[str], host: Host, adding: bool, interpreter: Optional[str]) -> Optional[str]:
    """``config.toml`` with our block written (``adding``) or removed; ``None`` when nothing changes."""
    current = text or ""
    _checked_toml(path, current, "not valid TOML")
    before, block, after = _split_block(path, current)
    if not adding:
        if block is None:
            return None
        head = before[:-1] if before.endswith("\n\n") and not after.strip() else before
        return head + after
    wanted = _toml_block(host, interpreter)
    if block == wanted:
        return None
    new = before + wanted + after if block is not None else _appended(current, wanted)
    _checked_toml(path, new, "our [[hooks.*]] tables would not fit into it: it already defines those keys "
                             "another way; install into .codex/hooks.json instead")
    return new


# ---------------------------------------------------------------------------
# what install found, kept outside the user's settings directories


@dataclass(frozen=True)
class _Record:
    """A settings file's text before install (``None``: install created it, with the directories ``created``)
    and the text install wrote: while the file still holds that text, uninstall gives the old one back."""

    original: Optional[str]
    installed: str
    created: tuple[str, ...] = ()


def _records_dir(home: Optional[Path]) -> Path:
    """``$XDG_STATE_HOME/ladder-plugins/hooks`` (default ``~/.local/state/...``); under ``home`` when given."""
    state = os.environ.get("XDG_STATE_HOME", "") if home is None else ""
    base = Path(state) if os.path.isabs(state) else (Path(home) if home is not None else Path.home()) / ".local/state"
    return base / "ladder-plugins" / "hooks"


def _record_path(records: Path, real: Path) -> Path:
    return records / (hashlib.sha256(os.fsencode(real)).hexdigest()[:32] + ".json")


def _load_record(records: Path, real: Path) -> Optional[_Record]:
    """The record of ``real``; one that is missing, unreadable or of another file counts as none (uninstall then
    removes only our entries)."""
    try:
        data = json.loads(_record_path(records, real).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    shape: dict[str, type | tuple[type, ...]] = {
        "path": str, "original": (str, type(None)), "installed": str, "created": list}
    if not isinstance(data, dict) or data.get("path") != str(real) \
            or not all(isinstance(data.get(key), kinds) for key, kinds in shape.items()):
        return None
    return _Record(data["original"], data["installed"], tuple(d for d in data["created"] if isinstance(d, str)))


def _missing_dirs(directory: Path) -> tuple[str, ...]:
    """The directories that writing into ``directory`` would create, outermost first."""
    missing = []
    while not directory.exists() and directory != directory.parent:
        missing.append(str(directory))
        directory = directory.parent
    return tuple(reversed(missing))


# ---------------------------------------------------------------------------
# writing


@dataclass(frozen=True)
class _Change:
    """One settings file: its text before and after (``None``: absent), and the record to keep after it
    (``None``: none)."""

    path: Path
    old: Optional[str]
    new: Optional[str]
    record: Optional[_Record]
    kept: tuple[str, ...]

    def diff(self) -> str:
        if self.new == self.old:
            return ""
        lines = difflib.unified_diff((self.old or "").splitlines(keepends=True),
                                     (self.new or "").splitlines(keepends=True),
                                     fromfile=str(self.path) if self.old is not None else "/dev/null",
                                     tofile=str(self.path) if self.new is not None else "/dev/null")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _new_text(path: Path, old: Optional[str], host: Host, adding: bool, interpreter: Optional[str]) -> Optional[str]:
    """The file's text with our entries added or removed, or ``old`` when that changes nothing."""
    new = (_toml_text if path.suffix == ".toml" else _json_text)(path, old, host, adding, interpreter)
    return old if new is None else new


def _is_empty(path: Path, text: str) -> bool:
    return not text.strip() if path.suffix == ".toml" else json.loads(text) == {}


def _plan(path: Path, host: Host, adding: bool, records: Path, interpreter: str) -> Optional[_Change]:
    """What install (``adding``) or uninstall does to ``path`` (a real path), and the record it leaves."""
    old = _read_optional(path)
    if old is None and not adding:
        return None
    record = _load_record(records, path)
    kept = tuple(_kept_commands(path, old))
    new = _new_text(path, old, host, adding, interpreter)
    if new is None or new == old:
        return _Change(path, old, old, record, kept)
    # the record speaks only while the file is still exactly what install wrote
    untouched = record if record is not None and record.installed == old else None
    if adding:
        return _Change(path, old, new, _record_after(path, old, new, untouched, host), kept)
    return _Change(path, old, _uninstalled(path, new, record, untouched), None, kept)


def _uninstalled(path: Path, stripped: str, record: Optional[_Record], untouched: Optional[_Record]) -> Optional[str]:
    """The file after uninstall (``None``: removed): its text from before install while it is untouched, else
    ``stripped`` (only our entries gone), or nothing when install created it and nothing else is left."""
    if untouched is not None:
        return untouched.original
    created = record is not None and record.original is None
    return None if created and _is_empty(path, stripped) else stripped


def _record_after(path: Path, old: Optional[str], new: str, untouched: Optional[_Record], host: Host) -> \
        Optional[_Record]:
    """The record install leaves: the text from before our entries, while it is known."""
    if untouched is not None:
        return _Record(untouched.original, new, untouched.created)
    if _new_text(path, old, host, False, sys.executable) == old:  # none of ours yet: old is the original
        return _Record(old, new, _missing_dirs(path.parent) if old is None else ())
    return None  # ours were put there by hand or by an older version: no text from before them is known


def _remove(path: Path, created: Sequence[str]) -> None:
    """``path`` and the directories install created for it, innermost first, each only while empty."""
    path.unlink()
    for directory in reversed(created):
        with contextlib.suppress(OSError):
            os.rmdir(directory)


def _make(change: _Change, records: Path) -> None:
    """Write (or remove) one settings file, then its record."""
    record_file = _record_path(records, change.path)
    if change.new is None:
        previous = _load_record(records, change.path)
        _remove(change.path, previous.created if previous is not None else ())
    else:
        change.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(change.path, change.new.encode("utf-8"))
    if change.record is None:
        record_file.unlink(missing_ok=True)
        return
    record = {"path": str(change.path), "original": change.record.original, "installed": change.record.installed,
              "created": list(change.record.created)}
    record_file.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(record_file, json.dumps(record).encode("utf-8"), 0o600)


def _apply(changes: Sequence[Optional[_Change]], records: Path, dry_run: bool) -> Outcome:
    """Make ``changes`` (with ``dry_run``: only say them), the records with them."""
    present = [change for change in changes if change is not None]
    moved = [change for change in present if change.new != change.old]
    for change in [] if dry_run else moved:
        try:
            _make(change, records)
        except OSError as exc:
            raise LadderError(f"{exc.filename or change.path}: cannot be written ({exc.strerror or exc})") from None
    return _outcome(present, moved)


def _outcome(present: Sequence[_Change], moved: Sequence[_Change]) -> Outcome:
    written, removed = [c.path for c in moved if c.new is not None], [c.path for c in moved if c.new is None]
    kept = dict.fromkeys(command for change in present for command in change.kept)
    return Outcome("".join(change.diff() for change in moved), tuple(written), tuple(removed), tuple(kept))


def install(agent: str, scope: str, home: Optional[Path], project_root: Path, dry_run: bool = False) -> Outcome:
    """Merge our prompt and edit hooks into ``agent``'s settings for ``scope`` (``project``: under
    ``project_root``; ``user``: under ``home``, default ``~``), as commands of the interpreter running this.
    For Codex, our entries in its other file (``hooks.json`` or ``config.toml``) are removed: one place only,
    or Codex would run them twice."""
    host, base = _host(agent), _base(scope, home, project_root)
    reals = [_real(candidate, scope, base) for candidate in _candidates(host, base)]  # before anything is read
    target = _real(settings_path(agent, scope, home, project_root), scope, base)
    records = _records_dir(home)
    changes = [_plan(target, host, True, records, sys.executable)] + [
        _plan(other, host, False, records, sys.executable) for other in reals if other != target]
    return _apply(changes, records, dry_run)


def uninstall(agent: str, scope: str, home: Optional[Path], project_root: Path,
              dry_run: bool = False) -> Outcome:
    """Remove our hook entries from ``agent``'s settings for ``scope`` (for Codex: ``hooks.json`` and the
    block in ``config.toml``), leaving everything else: a file still as install wrote it gets its old text
    back, byte for byte, and one install created goes."""
    host, base = _host(agent), _base(scope, home, project_root)
    reals = [_real(candidate, scope, base) for candidate in _candidates(host, base)]
    records = _records_dir(home)
    return _apply([_plan(path, host, False, records, sys.executable) for path in reals], records, dry_run)


# ---------------------------------------------------------------------------
# which hosts have them, and whether their commands still resolve (for ``ladder doctor``)


def _read_files(host: Host, root: Path, home: Path) -> list[tuple[Path, str, str]]:
    """``(file, form, scope)`` of every settings file ``host`` reads hooks from. Doctor only asks: any JSON is
    read with comments allowed."""
    return [(base / host.directory / f.name, "toml" if f.form == "toml" else "jsonc", scope)
            for base, scope in ((root, "project"), (home, "user")) for f in host.files]


def _parsed(path: Path, form: str) -> Any:
    """A settings file's data, or ``None`` when it is missing or cannot be read (doctor only asks)."""
    from ..readers.settings import parse_settings

    try:
        text = _read_optional(path)
    except LadderError:
        return None
    if text is None or not text.strip():
        return None
    return parse_settings(text, form)[0]


def _commands(host: Host, root: Path, home: Path) -> list[tuple[Path, str, str]]:
    """``(file, scope, command)`` of every command hook in ``host``'s settings files."""
    from ..tracker.sources.hooks import hook_entries

    return [(path, scope, entry.command) for path, form, scope in _read_files(host, root, home)
            for entry in hook_entries(_parsed(path, form) or {})[0]]


def installed_kinds(root: Path, home: Optional[Path] = None) -> dict[str, tuple[str, ...]]:
    """For each agent, which of our hooks (``post-edit``, ``prompt``) its settings run, in the project or the
    user's settings (Claude Code's ``settings.local.json`` and Codex's ``config.toml`` included)."""
    home = Path(home) if home is not None else Path.home()
    return {host.name: tuple(sorted({kind for _, _, command in _commands(host, Path(root), home)
                                     if (kind := ladder_hook_kind(command))}))
            for host in HOSTS}


def installed(root: Path, home: Optional[Path] = None) -> dict[str, bool]:
    """For each agent (``claude``, ``codex``, ``gemini``), whether a settings file it reads runs our edit hook."""
    return {agent: "post-edit" in kinds for agent, kinds in installed_kinds(root, home).items()}


@dataclass(frozen=True)
class Unresolved:
    """A command install wrote that the host can no longer run."""

    agent: str
    scope: str
    path: Path
    command: str
    #: what it runs, and why that fails: ``/old/venv/bin/python, which does not exist (any more)``
    reason: str


def _unresolved(python: Optional[str]) -> Optional[str]:
    """Why a host cannot run our command with this interpreter (``None``: the bare ``ladder``), or ``None``."""
    if python is None:
        return ("a bare `ladder`, found only where the host's PATH holds the environment ladder-plugins is installed "
                "in (most hosts' PATH does not: exit 127)")
    if not os.path.isfile(python):
        return f"{python}, which does not exist (any more)"
    return None if os.access(python, os.X_OK) else f"{python}, which is not executable"


def unresolved_hooks(root: Path, home: Optional[Path] = None) -> list[Unresolved]:
    """Our entries (exactly as install writes them) whose interpreter is gone or not executable, and the bare
    ``ladder`` of earlier versions, which a host finds only when its PATH holds the environment."""
    home = Path(home) if home is not None else Path.home()
    found: dict[tuple[Path, str], Unresolved] = {}  # one per file and interpreter, not per entry
    for host in HOSTS:
        for path, scope, command in _commands(host, Path(root), home):
            ours = _ours(command)
            if ours is None:
                continue
            reason = _unresolved(ours[1])
            if reason is not None:
                found.setdefault((path, reason), Unresolved(host.name, scope, path, command, reason))
    return list(found.values())
