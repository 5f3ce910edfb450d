"""Continuous integration: the steps of GitHub Actions workflows (a ``run`` read as a command, an action
named after a tool as that tool) and the scripts of GitLab CI jobs, each a sighting of its own
when no topic covers it.
"""

from __future__ import annotations

from typing import Any, Optional

from .commands import TOOLS, command_evidence
from .reading import Evidence, ProjectFiles, clean

__all__ = ["workflow_evidence", "gitlab_evidence"]

_WORKFLOWS = ".github/workflows"


def workflow_evidence(files: ProjectFiles) -> list[Evidence]:
    return [ev for rel in files.listing(_WORKFLOWS, (".yml", ".yaml")) for ev in _workflow(files, rel)]


def _workflow(files: ProjectFiles, rel: str) -> list[Evidence]:
    data = files.mapping(rel)
    jobs = data.get("jobs") if data is not None else None
    if data is not None and not isinstance(jobs, dict):
        files.warn(rel, "jobs is not a mapping; skipped")
    jobs = jobs if isinstance(jobs, dict) else {}
    return [ev for name, job in jobs.items() for ev in _job(files, rel, clean(str(name), 60), job)]


def _job(files: ProjectFiles, rel: str, name: str, job: Any) -> list[Evidence]:
    if not isinstance(job, dict):
        files.warn(rel, f"jobs.{name} is not a mapping; skipped")
        return []
    if isinstance(job.get("uses"), str):  # a reusable workflow
        return [_uses(rel, f"{rel} jobs.{name}", job["uses"], f"CI job {name}")]
    steps = job.get("steps", [])
    if not isinstance(steps, list):
        files.warn(rel, f"jobs.{name}.steps is not a list; skipped")
        return []
    found = [_step(rel, f"jobs.{name}.steps[{n}]", step) for n, step in enumerate(steps)]
    return [ev for ev in found if ev is not None]


def _step(rel: str, where: str, step: Any) -> Optional[Evidence]:
    if not isinstance(step, dict):
        return None
    name = step.get("name")
    label = "CI step" + (f" {name}" if isinstance(name, str) else "")
    if isinstance(step.get("run"), str):
        return command_evidence(rel, f"{rel} {where}", step["run"], label, "ci")
    if isinstance(step.get("uses"), str):
        return _uses(rel, f"{rel} {where}", step["uses"], label)
    return None


def _uses_signals(uses: str) -> tuple[str, ...]:
    """``ci:<tool>`` for an action named after a tool: ``pre-commit/action``, ``astral-sh/ruff-action``."""
    if uses.startswith(("./", "docker://")):
        return ()
    parts = uses.partition("@")[0].lower().split("/")
    words = [word for part in parts for word in (part, *part.split("-"))]
    return tuple(dict.fromkeys(f"ci:{TOOLS[word]}" for word in words if word in TOOLS))


def _uses(rel: str, where: str, uses: str, label: str) -> Evidence:
    shown = clean(uses, 120)
    return Evidence(rel, f"{where}: uses {shown}", _uses_signals(uses), clean(f"{label}: uses {shown}"),
                    freeform=True)


_GITLAB = ".gitlab-ci.yml"
#: top-level keys of .gitlab-ci.yml that are not jobs
_GITLAB_KEYS = frozenset({"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                          "before_script", "after_script", "spec"})


def gitlab_evidence(files: ProjectFiles) -> list[Evidence]:
    data = files.mapping(_GITLAB) or {}
    jobs = [(clean(str(name), 60), job) for name, job in data.items()
            if isinstance(job, dict) and "script" in job and not str(name).startswith(".")
            and str(name) not in _GITLAB_KEYS]
    return [ev for name, job in jobs for ev in _gitlab_job(files, name, job["script"])]


def _gitlab_job(files: ProjectFiles, name: str, script: Any) -> list[Evidence]:
    entries = [script] if isinstance(script, str) else script if isinstance(script, list) else None
    if entries is None:
        files.warn(_GITLAB, f"{name}.script is not a list of commands; skipped")
        return []
    lines = [line for entry in entries for line in (entry if isinstance(entry, list) else [entry])]
    return [command_evidence(_GITLAB, f"{_GITLAB} {name}.script[{n}]", line, f"GitLab job {name}", "ci")
            for n, line in enumerate(lines) if isinstance(line, str)]
