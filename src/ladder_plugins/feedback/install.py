"""``ladder hook install|uninstall``: our two hook entries merged into an agent host's settings.

The prompt hook (``ladder hook prompt`` on ``UserPromptSubmit``, Gemini CLI's ``BeforeAgent``)
and the edit hook (``ladder hook post-edit`` on ``PostToolUse``, Gemini CLI's ``AfterTool``)
are level 3 of the ladder only once a host runs them, and a host runs what its settings say.
Those settings are the user's: permissions, models, other hooks. So the merge is narrow:

* Our entries are recognised by their command, wherever they are; everything else (every
  other key, value, hook, and their order) is kept. JSON is parsed with its order and written
  back with the file's indentation, so apart from our entries a file written the usual way
  comes back byte for byte. Installing twice changes nothing; uninstalling after installing
  gives the file back.
* Codex also reads ``[[hooks.<Event>]]`` tables in ``config.toml``, a file TOML libraries cannot
  rewrite without losing its comments: there our tables live between ``# ladder:hooks:begin``
  and ``# ladder:hooks:end`` and nothing outside the markers is touched. ``.codex/hooks.json``
  is the default; ``config.toml`` is used when it already holds our block, or when it already
  configures hooks and there is no ``hooks.json``.
* Timeouts are in the host's unit: seconds for Claude Code and Codex, milliseconds for Gemini CLI.
* Before a file changes, the old one is kept beside it as ``<file>.bak-<UTC time>``; ``dry_run``
  returns the unified diff and writes nothing; a file that is not JSON (or TOML) is refused
  with a :class:`~ladder_plugins.errors.LadderError` naming it, and nothing changes. In the
  project scope, a settings file (or directory) that leads outside the project root through a
  symlink is refused too: installing must not write where the project does not own.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import stat
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from ..errors import LadderError
from ..ladderdir.atomic import write_atomic

__all__ = [
    "AGENTS", "SCOPES", "PROMPT_COMMAND", "EDIT_COMMAND", "BEGIN_MARKER", "END_MARKER", "Host", "HOSTS",
    "ladder_hook_kind", "settings_path", "install", "uninstall", "installed", "installed_kinds",
]

AGENTS = ("claude", "codex", "gemini")
SCOPES = ("project", "user")
PROMPT_COMMAND = "ladder hook prompt"
EDIT_COMMAND = "ladder hook post-edit"
BEGIN_MARKER = "# ladder:hooks:begin"
END_MARKER = "# ladder:hooks:end"
_MAX_BYTES = 4 << 20
#: a command that runs one of our hooks: ``ladder hook post-edit``, ``/venv/bin/ladder hook prompt``,
#: ``python -m ladder_plugins hook post-edit``
_OURS = re.compile(r"""(?:^|[\s/\\"'])(?:ladder(?:\.exe)?|ladder_plugins)["']?\s+hook\s+(prompt|post-edit)(?:\s|$)""")


@dataclass(frozen=True)
class Host:
    """Where one agent host reads hooks, and how it names and times them."""

    agent: str
    directory: str
    file: str
    prompt_event: str
    edit_event: str
    edit_matcher: str
    #: in the host's unit: seconds (Claude Code, Codex) or milliseconds (Gemini CLI)
    timeout: int
    #: Gemini CLI's documented shape gives every group a matcher, ``""`` for lifecycle events
    prompt_matcher: Optional[str] = None

    def groups(self) -> dict[str, dict[str, Any]]:
        """Our two matcher groups, by event, exactly as they are written."""
        prompt: dict[str, Any] = {} if self.prompt_matcher is None else {"matcher": self.prompt_matcher}
        prompt["hooks"] = [{"type": "command", "command": PROMPT_COMMAND, "timeout": self.timeout}]
        edit = {"matcher": self.edit_matcher,
                "hooks": [{"type": "command", "command": EDIT_COMMAND, "timeout": self.timeout}]}
        return {self.prompt_event: prompt, self.edit_event: edit}


HOSTS = {
    "claude": Host("claude", ".claude", "settings.json", "UserPromptSubmit", "PostToolUse", "Edit|Write|MultiEdit", 10),
    # Codex's apply_patch answers to Edit and Write; naming it keeps older builds without those aliases covered
    "codex": Host("codex", ".codex", "hooks.json", "UserPromptSubmit", "PostToolUse",
                  "Edit|Write|MultiEdit|apply_patch", 10),
    "gemini": Host("gemini", ".gemini", "settings.json", "BeforeAgent", "AfterTool", "write_file|replace", 10000, ""),
}


def ladder_hook_kind(command: Any) -> Optional[str]:
    """``prompt`` or ``post-edit`` for a command that runs one of our hooks (an argv list is joined), else
    ``None``: how our entries are recognised, whoever wrote them."""
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        command = " ".join(command)
    match = _OURS.search(command) if isinstance(command, str) else None
    return match.group(1) if match else None


def _is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and ladder_hook_kind(hook.get("command")) is not None


# ---------------------------------------------------------------------------
# where


def _host(agent: str) -> Host:
    if agent not in HOSTS:
        raise LadderError(f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")
    return HOSTS[agent]


def _base(scope: str, home: Optional[Path], project_root: Path) -> Path:
    if scope not in SCOPES:
        raise LadderError(f"unknown scope {scope!r}; expected one of {', '.join(SCOPES)}")
    return Path(project_root) if scope == "project" else Path(home) if home is not None else Path.home()


def _toml_path(host: Host, base: Path) -> Path:
    return base / host.directory / "config.toml"


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
    return [base / host.directory / host.file] + ([_toml_path(host, base)] if host.agent == "codex" else [])


def settings_path(agent: str, scope: str, home: Optional[Path], project_root: Path) -> Path:
    """The file ``install`` writes for ``agent`` in ``scope``: ``.claude/settings.json``, ``.codex/hooks.json``
    (or ``.codex/config.toml``, see the module's docstring), ``.gemini/settings.json``; under the project
    root, or under ``home`` (default ``~``) for the user scope."""
    host, base = _host(agent), _base(scope, home, project_root)
    json_path = base / host.directory / host.file
    if agent == "codex":
        toml = _toml_path(host, base)
        if _holds_block(toml) or (not json_path.exists() and _configures_hooks(toml)):
            return toml
    return json_path


def _check_place(path: Path, scope: str, project_root: Path) -> None:
    """In the project scope, the settings directory and file must lie inside the root, symlinks resolved."""
    from ..ladderdir.paths import inside

    if scope != "project":
        return
    root = Path(os.path.realpath(project_root))
    for place in (path.parent, path):
        if (place.exists() or place.is_symlink()) and not inside(place, root):
            raise LadderError(f"{place} leads outside the project root {root} (a symlink); nothing changed")


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


def _load_json(path: Path, text: Optional[str], agent: str) -> dict[str, Any]:
    """The settings object (``{}`` for a missing or blank file); anything that is not a JSON object is refused."""
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = " (Gemini CLI allows comments there, which a rewrite would lose: add the entries by hand)" \
            if agent == "gemini" else ""
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


def _with_ours(hooks: dict[str, Any], host: Host) -> dict[str, Any]:
    """``hooks`` with exactly our two groups: where ours were already, else at the end of their events."""
    result, places = _stripped(hooks)
    for event, group in host.groups().items():
        groups = result.setdefault(event, [])
        groups.insert(places.get(event, len(groups)), group)
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

    indent: Any = 2
    ascii_only: bool = False
    newline: str = "\n"
    final_newline: bool = True

    @classmethod
    def of(cls, text: Optional[str]) -> "_Style":
        """The style of ``text``: the indentation of its first indented line, ``\\u`` escapes, CRLF, a final
        newline; the defaults (2 spaces) for a new or blank file."""
        if not text or not text.strip():
            return cls()
        match = re.search(r"[\[{][ \t]*\r?\n([ \t]+)\S", text)
        indent: Any = 2
        if match:
            space = match.group(1)
            indent = "\t" if "\t" in space else len(space)
        ascii_only = text.isascii() and "\\u" in text
        return cls(indent, ascii_only, "\r\n" if "\r\n" in text else "\n", text.endswith("\n"))

    def dumps(self, data: Any) -> str:
        text = json.dumps(data, indent=self.indent, ensure_ascii=self.ascii_only)
        text += "\n" if self.final_newline else ""
        return text.replace("\n", self.newline) if self.newline != "\n" else text


def _json_text(path: Path, text: Optional[str], host: Host, adding: bool) -> Optional[str]:
    """The file's new text with our entries added (``adding``) or removed; ``None`` when nothing changes."""
    data = _load_json(path, text, host.agent)
    hooks = _hooks_of(path, data, host)
    new_hooks = _with_ours(hooks, host) if adding else _stripped(hooks)[0]
    if new_hooks == hooks:
        return None
    return _Style.of(text).dumps(_merged(data, new_hooks))


# ---------------------------------------------------------------------------
# Codex's config.toml, between markers


def _toml_block(host: Host) -> str:
    """Our tables for Codex's ``config.toml``, between the markers."""
    from ..reports.sanitize import toml_string

    lines = [BEGIN_MARKER, "# written by `ladder hook install`, removed by `ladder hook uninstall`; "
             "edits between the markers are replaced"]
    for event, group in host.groups().items():
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


def _toml_text(path: Path, text: Optional[str], host: Host, adding: bool) -> Optional[str]:
    """``config.toml`` with our block written (``adding``) or removed; ``None`` when nothing changes."""
    current = text or ""
    _checked_toml(path, current, "not valid TOML")
    before, block, after = _split_block(path, current)
    if not adding:
        if block is None:
            return None
        head = before[:-1] if before.endswith("\n\n") and not after.strip() else before
        return head + after
    wanted = _toml_block(host)
    if block == wanted:
        return None
    new = before + wanted + after if block is not None else _appended(current, wanted)
    _checked_toml(path, new, "our [[hooks.*]] tables would not fit into it: it already defines those keys "
                             "another way; install into .codex/hooks.json instead")
    return new


# ---------------------------------------------------------------------------
# writing


def _now_stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _backup(path: Path) -> Path:
    """A copy of the old file beside it, ``<file>.bak-<UTC time>`` (a second one in the same second gets a
    number): never overwritten."""
    stamp = _now_stamp()
    backup = path.with_name(f"{path.name}.bak-{stamp}")
    number = 1
    while backup.exists() or backup.is_symlink():
        number += 1
        backup = path.with_name(f"{path.name}.bak-{stamp}-{number}")
    shutil.copy2(path, backup)
    return backup


def _write(path: Path, text: str) -> None:
    """Atomically, with the old file's permissions; ``newline=""``: the text's own line endings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"))


@dataclass(frozen=True)
class _Change:
    """One settings file's old text (``None``: it does not exist yet) and new text."""

    path: Path
    old: Optional[str]
    new: str

    def diff(self) -> str:
        before = (self.old or "").splitlines(keepends=True)
        lines = difflib.unified_diff(before, self.new.splitlines(keepends=True),
                                     fromfile=str(self.path) if self.old is not None else "/dev/null",
                                     tofile=str(self.path))
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _apply(changes: Iterable[_Change], dry_run: bool) -> tuple[str, list[Path]]:
    """The diff of ``changes`` and the paths written: each settings file (with ``dry_run``: that would be),
    then the backups of the old ones."""
    changes = list(changes)
    diff = "".join(change.diff() for change in changes)
    if dry_run:
        return diff, [change.path for change in changes]
    backups = []
    for change in changes:
        try:
            if change.old is not None:
                backups.append(_backup(change.path))
            _write(change.path, change.new)
        except OSError as exc:
            raise LadderError(f"{change.path}: cannot be written ({exc.strerror or exc})") from None
    return diff, [change.path for change in changes] + backups


def _change(path: Path, host: Host, adding: bool) -> Optional[_Change]:
    old = _read_optional(path)
    if old is None and not adding:
        return None
    text = (_toml_text if path.suffix == ".toml" else _json_text)(path, old, host, adding)
    return _Change(path, old, text) if text is not None and text != old else None


def install(agent: str, scope: str, home: Optional[Path], project_root: Path,
            dry_run: bool = False) -> tuple[str, list[Path]]:
    """Merge our prompt and edit hooks into ``agent``'s settings for ``scope`` (``project``: under
    ``project_root``; ``user``: under ``home``, default ``~``). Returns the unified diff and the paths written
    (the settings file, then the backup of the old one); ``("", [])`` when everything was already in place.
    For Codex, our entries in its other file (``hooks.json`` or ``config.toml``) are removed: one place only."""
    host = _host(agent)
    candidates = _candidates(host, _base(scope, home, project_root))
    for candidate in candidates:
        _check_place(candidate, scope, project_root)  # before anything is read there
    path = settings_path(agent, scope, home, project_root)
    # one place only: Codex would run entries in both of its files twice
    changes = [_change(path, host, adding=True)] + [_change(other, host, adding=False)
                                                    for other in candidates if other != path]
    return _apply([change for change in changes if change is not None], dry_run)


def uninstall(agent: str, scope: str, home: Optional[Path], project_root: Path,
              dry_run: bool = False) -> tuple[str, list[Path]]:
    """Remove our hook entries from ``agent``'s settings for ``scope`` (for Codex: ``hooks.json`` and the
    block in ``config.toml``), leaving everything else; same result shape as :func:`install`."""
    host = _host(agent)
    paths = _candidates(host, _base(scope, home, project_root))
    for path in paths:
        _check_place(path, scope, project_root)
    changes = []
    for path in paths:
        change = _change(path, host, adding=False)
        if change is not None:
            changes.append(change)
    return _apply(changes, dry_run)


# ---------------------------------------------------------------------------
# which hosts have them (for ``ladder doctor``)


def _read_files(agent: str, root: Path, home: Path) -> list[tuple[Path, str]]:
    host = HOSTS[agent]
    names = [host.file] + (["settings.local.json"] if agent == "claude" else []) \
        + (["config.toml"] if agent == "codex" else [])
    return [(base / host.directory / name, "toml" if name.endswith(".toml") else "json")
            for base in (root, home) for name in names]


def _parsed(path: Path, form: str) -> Any:
    """A settings file's data, or ``None`` when it is missing or cannot be read (doctor only asks)."""
    from ..config import toml_loads
    from .hooks import _uncomment_json

    try:
        text = _read_optional(path)
        if text is None or not text.strip():
            return None
        return toml_loads(text) if form == "toml" else json.loads(_uncomment_json(text))
    except (LadderError, ValueError, RecursionError):
        return None


def installed_kinds(root: Path, home: Optional[Path] = None) -> dict[str, tuple[str, ...]]:
    """For each agent, which of our hooks (``post-edit``, ``prompt``) its settings run, in the project or the
    user's settings (Claude Code's ``settings.local.json`` and Codex's ``config.toml`` included)."""
    from .hooks import hook_entries

    home = Path(home) if home is not None else Path.home()
    found: dict[str, tuple[str, ...]] = {}
    for agent in AGENTS:
        commands = [entry.command for path, form in _read_files(agent, Path(root), home)
                    for entry in hook_entries(_parsed(path, form) or {})[0]]
        found[agent] = tuple(sorted({kind for kind in map(ladder_hook_kind, commands) if kind}))
    return found


def installed(root: Path, home: Optional[Path] = None) -> dict[str, bool]:
    """For each agent (``claude``, ``codex``, ``gemini``), whether a settings file it reads runs our edit hook."""
    return {agent: "post-edit" in kinds for agent, kinds in installed_kinds(root, home).items()}
