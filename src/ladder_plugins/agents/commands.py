"""The commands ``ladder hook install`` writes, and how a command is recognised as ours or as running our hooks.

The command runs the interpreter that ran ``install`` (``'/venv/bin/python' -m ladder_plugins hook prompt #
ladder-plugins``, as pre-commit does): a host's PATH rarely holds the project's virtual environment, and a bare
``ladder`` there is exit 127 on every prompt. The trailing shell comment is our marker: an entry is ours only
when its command is exactly what we write, whatever the interpreter's path (or the bare ``ladder hook
prompt|post-edit`` earlier versions wrote). A user's own command that runs our hook (``cd backend && ladder hook
post-edit``), or merely mentions it, is theirs. Our two matcher groups, as a host's settings hold them, are
made here from the table of hosts.
"""

from __future__ import annotations

import re
import shlex
import sys
from typing import Any, Optional

from ..errors import LadderError
from ..hosts import Host

__all__ = ["KINDS", "MARKER", "hook_command", "our_command", "our_kind", "is_our_command", "is_our_hook",
           "ladder_hook_kind", "our_groups"]

#: our two hooks, as ``ladder hook`` names them
KINDS = ("prompt", "post-edit")
#: ends every command install writes: a shell comment, so the host's shell ignores it and we recognise it
MARKER = "# ladder-plugins"
#: what install wrote before it named the interpreter (a bare ``ladder``): ours too, replaced on install
_EARLIER = {"ladder hook prompt": "prompt", "ladder hook post-edit": "post-edit"}
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


def our_command(command: Any) -> Optional[tuple[str, Optional[str]]]:
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
    found = our_command(command)
    return found[0] if found else None


def is_our_command(command: Any) -> bool:
    """Whether ``command`` is exactly one install writes: what install replaces and uninstall removes."""
    return our_command(command) is not None


def ladder_hook_kind(command: Any) -> Optional[str]:
    """``prompt`` or ``post-edit`` for any command that runs one of our hooks (an argv list is joined), ours or a
    user's own (``cd backend && ladder hook post-edit``), else ``None``: what ``ladder doctor`` counts."""
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        command = " ".join(command)
    match = _RUNS.search(command) if isinstance(command, str) else None
    return match.group(1) if match else None


def is_our_hook(hook: Any) -> bool:
    return isinstance(hook, dict) and is_our_command(hook.get("command"))


def our_groups(host: Host, interpreter: Optional[str] = None) -> dict[str, dict[str, Any]]:
    """Our two matcher groups for ``host``, by event, exactly as they are written (``interpreter``: see
    :func:`hook_command`)."""
    prompt: dict[str, Any] = {} if host.prompt_matcher is None else {"matcher": host.prompt_matcher}
    prompt["hooks"] = [{"type": "command", "command": hook_command("prompt", interpreter), "timeout": host.timeout}]
    edit = {"matcher": host.edit_matcher,
            "hooks": [{"type": "command", "command": hook_command("post-edit", interpreter), "timeout": host.timeout}]}
    return {host.prompt_event: prompt, host.edit_event: edit}
