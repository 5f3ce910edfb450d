"""Which hosts run our hooks, and whether the commands install wrote still resolve: what ``ladder doctor`` asks.

Every settings file a host reads hooks from is looked at, in the project and in the home directory (Claude
Code's ``settings.local.json`` and Codex's ``config.toml`` included); a file that cannot be read says nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..errors import LadderError
from ..hosts import HOSTS, Host
from ..readers.settings import parse_settings, read_text
from .commands import ladder_hook_kind, our_command

__all__ = ["installed_kinds", "installed", "Unresolved", "unresolved_hooks"]


def _read_files(host: Host, root: Path, home: Path) -> list[tuple[Path, str, str]]:
    """``(file, form, scope)`` of every settings file ``host`` reads hooks from. Doctor only asks: any JSON is
    read with comments allowed."""
    return [(base / host.directory / f.name, "toml" if f.form == "toml" else "jsonc", scope)
            for base, scope in ((root, "project"), (home, "user")) for f in host.files]


def _parsed(path: Path, form: str) -> Any:
    """A settings file's data, or ``None`` when it is missing or cannot be read (doctor only asks)."""
    try:
        text = read_text(path)
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
            ours = our_command(command)
            if ours is None:
                continue
            reason = _unresolved(ours[1])
            if reason is not None:
                found.setdefault((path, reason), Unresolved(host.name, scope, path, command, reason))
    return list(found.values())
