"""Pre-commit: each hook of ``.pre-commit-config.yaml`` (``precommit:<hook id>``, and the signals of
the command it runs), a sighting of its own when no topic covers it.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from .commands import command_signals
from .reading import SAFE_NAME, Evidence, ProjectFiles, clean, strings

__all__ = ["precommit_evidence"]

_PRECOMMIT = ".pre-commit-config.yaml"


def precommit_evidence(files: ProjectFiles) -> list[Evidence]:
    data = files.mapping(_PRECOMMIT)
    repos = data.get("repos") if data is not None else None
    if data is not None and not isinstance(repos, list):
        files.warn(_PRECOMMIT, "repos is not a list; skipped")
    return [ev for n, repo in enumerate(repos) for ev in _repo_hooks(files, n, repo)] if isinstance(repos, list) \
        else []


def _repo_hooks(files: ProjectFiles, index: int, repo: Any) -> list[Evidence]:
    hooks = repo.get("hooks") if isinstance(repo, dict) else None
    if not isinstance(hooks, list):
        files.warn(_PRECOMMIT, f"repos[{index}] has no list of hooks; skipped")
        return []
    found = [_hook(f"repos[{index}].hooks[{n}]", hook) for n, hook in enumerate(hooks)]
    if None in found:
        files.warn(_PRECOMMIT, f"repos[{index}]: a hook without an id; skipped")
    return [ev for ev in found if ev is not None]


def _hook_text(hook_id: str, hook: Mapping[str, Any]) -> tuple[str, str]:
    """(the command a hook runs: its entry, or its id, and its args; the sighting's text)."""
    command = " ".join([str(hook.get("entry") or hook_id), *strings(hook.get("args"))])
    name = hook.get("name")
    label = f"pre-commit hook {hook_id}" + (f" ({name})" if isinstance(name, str) and name != hook_id else "")
    return command, clean(label if command == hook_id else f"{label}: {command}")


def _hook(where: str, hook: Any) -> Optional[Evidence]:
    hook_id = hook.get("id") if isinstance(hook, dict) else None
    if not isinstance(hook_id, str) or not hook_id.strip():
        return None
    command, text = _hook_text(hook_id, hook)
    own = (f"precommit:{hook_id}",) if SAFE_NAME.fullmatch(hook_id) else ()
    return Evidence(_PRECOMMIT, f"{_PRECOMMIT} {where} id: {clean(hook_id, 80)}",
                    tuple(dict.fromkeys(own + command_signals(command, "precommit"))), text, freeform=True)
