"""``ladder hook install|uninstall``: our two hook entries merged into an agent host's settings.

The prompt hook (``ladder hook prompt`` on ``UserPromptSubmit``, Gemini CLI's ``BeforeAgent``)
and the edit hook (``ladder hook post-edit`` on ``PostToolUse``, Gemini CLI's ``AfterTool``)
are level 3 of the ladder only once a host runs them, and a host runs what its settings say.
Those settings are the user's: permissions, models, other hooks. So the merge is narrow:

* The command we write runs the interpreter that ran ``install`` (:mod:`.commands`); an entry is ours only
  when its command is exactly what we write. A user's own command that runs our hook is theirs: kept, and
  reported.
* Everything else (every other key, value, hook, and their order) is kept (:mod:`.merge`). Installing twice
  changes nothing.
* Install keeps the file's text from before in the user's state directory
  (``~/.local/state/ladder-plugins/hooks``), not beside the settings: uninstall gives it back byte for
  byte while the file is still what install wrote, and removes a file (and directories) install created.
  A file edited since loses only our entries.
* Codex also reads ``[[hooks.<Event>]]`` tables in ``config.toml``, where our tables live between markers.
  ``.codex/hooks.json`` is the default; ``config.toml`` is used when it already holds our block, or when it
  already configures hooks and there is no ``hooks.json``.
* Timeouts are in the host's unit: seconds for Claude Code and Codex, milliseconds for Gemini CLI.
* A settings file reached through a symlink (a dotfiles set-up) is written through the link, which stays;
  one that leads outside the project root (project scope) or the home directory (user scope) is refused.
  ``dry_run`` returns the unified diff and writes nothing; a file that is not JSON (or TOML) is refused
  with a :class:`~ladder_plugins.errors.LadderError` naming it, and nothing changes.

Where hosts read hooks, how they name and time them: :mod:`ladder_plugins.hosts`. Which hosts run our hooks
(for ``ladder doctor``): :mod:`.installed`.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from ..errors import LadderError
from ..hosts import NAMES, Host, host as host_named
from ..ladderdir.atomic import write_atomic
from ..readers.settings import read_text
from .commands import is_our_command, ladder_hook_kind
from .merge import BEGIN_MARKER, is_empty, new_text

__all__ = ["SCOPES", "Outcome", "settings_path", "install", "uninstall"]

SCOPES = ("project", "user")


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


def _holds_block(path: Path) -> bool:
    text = read_text(path)
    return text is not None and any(line.strip() == BEGIN_MARKER for line in text.splitlines())


def _configures_hooks(path: Path) -> bool:
    from ..config import toml_loads

    text = read_text(path)
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


def _plan(path: Path, host: Host, adding: bool, records: Path, interpreter: str) -> Optional[_Change]:
    """What install (``adding``) or uninstall does to ``path`` (a real path), and the record it leaves."""
    old = read_text(path)
    if old is None and not adding:
        return None
    record = _load_record(records, path)
    kept = tuple(_kept_commands(path, old))
    new = new_text(path, old, host, adding, interpreter)
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
    return None if created and is_empty(path, stripped) else stripped


def _record_after(path: Path, old: Optional[str], new: str, untouched: Optional[_Record], host: Host) -> \
        Optional[_Record]:
    """The record install leaves: the text from before our entries, while it is known."""
    if untouched is not None:
        return _Record(untouched.original, new, untouched.created)
    if new_text(path, old, host, False, sys.executable) == old:  # none of ours yet: old is the original
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
