"""``ladder doctor``: is everything wired up, and what must the user fix?

Checks the configuration (and where it was read from), the plugins pluggy loaded,
the flake8 and pytest entry points, and the history's health. Every problem comes
with its fix. Exit status 0 when nothing needs fixing, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from .common import EXIT_FAILED, EXIT_OK, command

__all__ = ["Diagnosis", "diagnose", "doctor_text", "doctor_json", "add_parsers", "COMMANDS"]


@dataclass
class Diagnosis:
    config: dict[str, Any] = field(default_factory=dict)
    plugins: list[str] = field(default_factory=list)
    entry_points: dict[str, bool] = field(default_factory=dict)
    history: dict[str, Any] = field(default_factory=dict)
    problems: list[dict[str, str]] = field(default_factory=list)

    def problem(self, what: str, fix: str) -> None:
        self.problems.append({"problem": what, "fix": fix})


def _check_config(diag: Diagnosis, start: Path) -> Optional[Any]:
    from ..config import load_settings
    from ..errors import LadderError

    try:
        settings = load_settings(start)
    except LadderError as exc:
        diag.config = {"valid": False, "error": str(exc)}
        diag.problem(f"configuration: {exc}", "correct the file and key named above (see README, Configuration)")
        return None
    source = str(settings.config_file) if settings.config_file and settings.config_file.exists() else None
    diag.config = {"valid": True, "root": str(settings.root), "file": source, "mode": settings.mode}
    if source is None:
        diag.problem("no [tool.ladder] table found; built-in defaults are used",
                     "add [tool.ladder] with paths = [...] to pyproject.toml to say what to analyse")
    return settings


def _check_plugins(diag: Diagnosis) -> None:
    from ..errors import LadderError
    from ..plugins import get_plugin_manager

    try:
        pm = get_plugin_manager()
    except (LadderError, Exception) as exc:  # a broken third-party plugin must not hide the rest
        diag.problem(f"plugins: {exc}", "uninstall or fix the plugin named above")
        return
    diag.plugins = sorted(str(pm.get_name(p)) for p in pm.get_plugins())


def _check_entry_points(diag: Diagnosis) -> None:
    from importlib.metadata import entry_points

    wanted = {("flake8.extension", "LAD"): "ladder_plugins.flake8_plugin",
              ("pytest11", "ladder"): "ladder_plugins.pytest_plugin"}
    for (group, name), module in wanted.items():
        found = any(ep.name == name and ep.value.startswith(module) for ep in entry_points(group=group))
        diag.entry_points[f"{group}:{name}"] = found
        if not found:
            diag.problem(f"entry point {name!r} in {group} is not registered",
                         "reinstall the package: python3 -m pip install ladder-plugins")


def _check_history(diag: Diagnosis, settings: Any) -> None:
    from ..history.store import HistoryStore

    store = HistoryStore(settings)
    unsafe = store.unsafe_reason()
    if unsafe:
        diag.history = {"path": str(store.log), "usable": False}
        diag.problem(unsafe, f"make {settings.history_dir} a real directory inside the project")
        return
    stats = store.stats()
    diag.history = asdict(stats)
    if stats.skipped_lines:
        diag.problem(f"{stats.skipped_lines} unreadable lines in {stats.path} (kept, not counted)",
                     "look at them (they are not valid events); 'ladder history rebuild' refreshes the summary")
    if stats.untrusted_entries:
        diag.problem(f"{stats.untrusted_entries} entries of folded.json are not of the expected shape (skipped, "
                     "kept)", "look at them; the next 'ladder history prune' keeps the file whole aside")
    if stats.newer_schema:
        diag.problem("the history was written by a newer ladder-plugins and is read-only",
                     "upgrade ladder-plugins")
    cap = settings.history.max_mb * 1024 * 1024
    if stats.size > cap:
        diag.problem(f"the log is {stats.size} bytes, over history.max_mb", "run 'ladder history prune'")
    _check_kept_aside(diag, settings)


def _check_kept_aside(diag: Diagnosis, settings: Any) -> None:
    """Damaged files are kept, never deleted: say where they are, so a person can look and decide."""
    base = settings.root / settings.history_dir
    kept = sorted(str(p.relative_to(settings.root)) for pattern in ("history/*.damaged*", "cache/*/*.damaged")
                  for p in base.glob(pattern))
    diag.history["kept_aside"] = kept
    if kept:
        shown = ", ".join(kept[:5]) + (f" and {len(kept) - 5} more" if len(kept) > 5 else "")
        diag.problem(f"{len(kept)} damaged file(s) kept aside: {shown}",
                     "look at them to see what damaged them, then delete them yourself (ladder never does)")


def diagnose(start: Path) -> Diagnosis:
    diag = Diagnosis()
    settings = _check_config(diag, start)
    _check_plugins(diag)
    _check_entry_points(diag)
    if settings is not None:
        _check_history(diag, settings)
    return diag


def doctor_json(diag: Diagnosis) -> str:
    return json.dumps({"schema": "ladder-doctor", "version": 1, **asdict(diag), "ok": not diag.problems}, indent=2)


def _history_line(h: dict[str, Any]) -> list[str]:
    if not h:
        return []
    return [f"history: {h.get('path')}, {h.get('size', 0)} bytes, {h.get('events', 0)} events, "
            f"oldest {h.get('oldest') or '-'}, newest {h.get('newest') or '-'}, "
            f"{h.get('skipped_lines', 0)} unreadable lines, schema {h.get('schema_version', '-')}"]


def doctor_text(diag: Diagnosis) -> str:
    cfg = diag.config
    source = f", read from {cfg['file']}" if cfg.get("file") else ""
    lines = [f"configuration: {'valid' if cfg.get('valid') else 'INVALID'}{source}",
             f"plugins: {', '.join(diag.plugins) or '-'}"]
    lines += [f"entry point {name}: {'registered' if ok else 'MISSING'}" for name, ok in diag.entry_points.items()]
    lines += _history_line(diag.history) + [""]
    problems = [f"problem: {p['problem']}\n  fix: {p['fix']}" for p in diag.problems]
    return "\n".join(lines + (problems or ["nothing to fix"]))


def add_parsers(sub: Any) -> None:
    examples = ("  ladder doctor                       configuration, plugins, entry points, history health\n"
                "  ladder doctor --json\nexit status: 0 nothing to fix, 1 something to fix")
    command(sub, "doctor", "check the set-up and the history", examples).add_argument("--json", action="store_true")


def _doctor(args: argparse.Namespace) -> int:
    diag = diagnose(Path.cwd())
    print(doctor_json(diag) if args.json else doctor_text(diag))
    return EXIT_FAILED if diag.problems else EXIT_OK


COMMANDS = {"doctor": _doctor}
