"""``ladder doctor``: is everything wired up, and what must the user fix?

Checks the configuration (and where it was read from), the plugins pluggy loaded,
the flake8 and pytest entry points, and the history's health. Every problem comes
with its fix. Exit status 0 when nothing needs fixing, 1 otherwise. Running on the
built-in defaults is a choice, not a fault: it is a note, which changes no exit status.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..catalogue import plural
from .common import EXIT_FAILED, EXIT_OK, command

__all__ = ["Diagnosis", "diagnose", "doctor_text", "doctor_json", "add_parsers", "COMMANDS"]


@dataclass
class Diagnosis:
    config: dict[str, Any] = field(default_factory=dict)
    plugins: list[str] = field(default_factory=list)
    entry_points: dict[str, bool] = field(default_factory=dict)
    history: dict[str, Any] = field(default_factory=dict)
    #: the feedback tracker's state file (see ``StateFile.health``)
    feedback: dict[str, Any] = field(default_factory=dict)
    #: the managed rules block (see ``rules_file.rules_block_health``)
    rules_block: dict[str, Any] = field(default_factory=dict)
    #: whether git's history is read, from when it fails a run, what is mechanical (``GitEvidence.health``)
    git: dict[str, Any] = field(default_factory=dict)
    #: per agent host, which of our hooks its settings run (``agents.installed.installed_kinds``)
    agent_hooks: dict[str, list[str]] = field(default_factory=dict)
    #: the detached feedback reviewer: which one runs, when it last ran and last succeeded, the jobs waiting
    reviewer: dict[str, Any] = field(default_factory=dict)
    problems: list[dict[str, str]] = field(default_factory=list)
    #: facts worth knowing that need no fix (the built-in defaults, a directory in no project)
    notes: list[str] = field(default_factory=list)

    def problem(self, what: str, fix: str) -> None:
        self.problems.append({"problem": what, "fix": fix})


def _check_config(diag: Diagnosis, start: Path) -> Optional[Any]:
    from ..config import load_settings, no_project
    from ..errors import LadderError

    try:
        settings = load_settings(start)
    except LadderError as exc:
        diag.config = {"valid": False, "error": str(exc)}
        diag.problem(f"configuration: {exc}",
                     "correct the file and key named above ('ladder explain LAD000' says what is checked)")
        return None
    source = _table_file(settings)
    diag.config = {"valid": True, "root": str(settings.root), "in_project": settings.in_project, "file": source,
                   "mode": settings.mode}
    if source is None:  # no pyproject.toml, or one without the table: the same defaults, the same verdict
        diag.notes.append("no [tool.ladder] table: the built-in defaults are used; 'ladder init' writes a "
                          "starter table (paths, roles) to pyproject.toml")
    if not settings.in_project:
        diag.notes.append(f"{no_project(settings.root)}: nothing is recorded or cached here")
    return settings


def _table_file(settings: Any) -> Optional[str]:
    """The file the ``[tool.ladder]`` table was read from; ``None`` when there is no table to read."""
    from ..config import read_pyproject

    file = settings.config_file
    if file is None or not file.is_file():
        return None
    tool = read_pyproject(file).get("tool")
    return str(file) if isinstance(tool, dict) and "ladder" in tool else None


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


def _check_git(diag: Diagnosis, settings: Any) -> None:
    """Whether the gate reads git's history, and if not why: a verdict must never read cleaner than what it
    checked, and a shallow clone or a missing git is found here before CI finds it."""
    from ..history.workspace import git_wanted

    if not git_wanted(settings):
        return  # not a git project: the log alone, as intended
    from ..errors import LadderError
    from ..history.evidence import GitEvidence

    said: list[str] = []
    try:
        diag.git = GitEvidence(settings, warn=said.append).health()
    except LadderError as exc:
        diag.git = {"read": False, "why": str(exc)}
        diag.problem(str(exc), "set [tool.ladder.recurrence] git_since to \"all\", a date or a commit git knows")
        return
    if diag.git.get("shallow"):
        diag.problem("this is a shallow clone: git's history is not read, and in CI the run stops",
                     "fetch the whole history (GitHub Actions: fetch-depth: 0; GitLab CI: GIT_DEPTH: 0; or git "
                     "fetch --unshallow)")
    elif not diag.git.get("read") and not diag.git.get("intended"):
        diag.problem(f"git's history is not read: {diag.git.get('why')}" + (f" ({said[0]})" if said else ""),
                     "install git and run inside the work tree, or set [tool.ladder.recurrence] source = \"log\"")
    elif diag.git.get("read") and not diag.git.get("committed"):
        diag.notes.append("[tool.ladder] is not committed yet: no hotspot from git's history fails a run until it "
                          "is (they are listed as known from history)")


def _check_kept_aside(diag: Diagnosis, settings: Any) -> None:
    """Damaged files are kept, never deleted: say where they are, so a person can look and decide."""
    base = settings.root / settings.history_dir
    kept = sorted(str(p.relative_to(settings.root)) for pattern in ("history/*.damaged*", "cache/*/*.damaged")
                  for p in base.glob(pattern))
    diag.history["kept_aside"] = kept
    if kept:
        shown = ", ".join(kept[:5]) + (f" and {len(kept) - 5} more" if len(kept) > 5 else "")
        diag.problem(f"{plural(len(kept), 'damaged file')} kept aside: {shown}",
                     "look at them to see what damaged them, then delete them yourself (ladder never does)")


def _check_feedback(diag: Diagnosis, settings: Any) -> None:
    """The feedback tracker's state file, read only: damaged, newer, malformed items, copies kept aside."""
    from ..tracker.state import StateFile

    health = StateFile(settings.root / settings.feedback.state, settings.root, lambda _: None).health()
    diag.feedback = health
    if health["problem"]:
        diag.problem(f"feedback state {health['path']}: {health['problem']}",
                     "'ladder feedback scan' keeps a damaged file aside and starts a new one; a newer one is "
                     "left alone: upgrade ladder-plugins")
    if health["malformed_items"]:
        diag.problem(f"feedback state {health['path']}: {health['malformed_items']} malformed items (kept, not "
                     "updated)", "correct their id, topic, keywords, occurrences or levels by hand")
    if health["kept_aside"]:
        diag.problem(f"feedback state: {plural(len(health['kept_aside']), 'damaged file')} kept aside: "
                     f"{', '.join(health['kept_aside'][:5])}", "look at them, then delete them yourself")


def _check_rules_block(diag: Diagnosis, settings: Any) -> None:
    """The managed rules block: saturated and over_budget are facts, not faults; a file the writer refuses is."""
    from ..rules_block.files import rules_block_health

    diag.rules_block = rules_block_health(settings)
    for entry in diag.rules_block["files"]:
        if entry["problem"]:
            diag.problem(f"rules block: {entry['problem']}",
                         "keep one pair of markers in the file (or move it inside the project), then run "
                         "'ladder rules sync'")


def _check_agent_hooks(diag: Diagnosis, settings: Any) -> None:
    """Which agent hosts run our hooks: a note (not installing them is a choice). An installed command the host
    can no longer run (its interpreter gone, or a bare ``ladder`` off the host's PATH) is a problem: the hook
    then fails on every prompt or edit, and hosts do not say so loudly."""
    from ..agents.installed import installed_kinds, unresolved_hooks

    try:
        kinds = installed_kinds(settings.root)
        unresolved = unresolved_hooks(settings.root)
    except Exception:  # a settings file doctor cannot read is the host's business, not a crash of ours
        return
    diag.agent_hooks = {agent: list(found) for agent, found in kinds.items()}
    for hook in unresolved:
        user = " --user" if hook.scope == "user" else ""
        diag.problem(f"agent hook: {hook.path} runs {hook.reason}",
                     f"run 'ladder hook install --agent {hook.agent}{user}' again with the ladder of the environment "
                     "the hook should run in (it writes that environment's interpreter)")


def _last_review(path: Path) -> dict[str, Any]:
    """What ``reviewer.json`` says of the last review, or nothing where it is missing or not an object."""
    try:
        status = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return status if isinstance(status, dict) else {}


def _check_reviewer(diag: Diagnosis, settings: Any) -> None:
    """Which reviewer turns captured complaints into lessons (found on this shell's PATH; the hooks run with the
    host's), and what ``reviewer.json`` says of its last run. None found is a note where complaints are captured
    (a prompt hook installed, or reviews waiting): they then become lessons in the user's own words, by design."""
    import os

    from ..agents.review import pending_jobs
    from ..agents.review_queue import reviews_dir
    from ..agents.reviewer import choose, status_path

    feedback = settings.feedback
    found = choose(feedback.reviewer, os.environ) if feedback.review else None
    status = _last_review(status_path(settings.root, settings.history_dir))
    diag.reviewer = {"enabled": feedback.review, "runs": found.name if found else None,
                     "command": list(found.command) if found else [],
                     "pending": len(pending_jobs(reviews_dir(settings.root, settings.history_dir))),
                     **{key: status.get(key) for key in ("last_run", "last_event", "last_reason", "last_success")}}
    capturing = any("prompt" in kinds for kinds in diag.agent_hooks.values()) or diag.reviewer["pending"]
    if feedback.review and found is None and capturing:  # without the prompt hook nothing is there to review
        diag.notes.append("no reviewer: none configured ([tool.ladder.feedback] reviewer) and no claude, codex or "
                          "gemini on PATH; captured complaints become lessons in the user's own words")


def _check_complaint_model(diag: Diagnosis) -> None:
    """The complaint model's weights, where prompts are captured for review (after :func:`_check_reviewer`): lost,
    the prompt hook quietly asks the reviewer about fewer prompts, so it is said here."""
    from ..agents.complaint_model import WEIGHTS, load

    capturing = any("prompt" in kinds for kinds in diag.agent_hooks.values()) or diag.reviewer.get("pending")
    if diag.reviewer.get("enabled") and capturing and load() is None:
        diag.problem(f"the complaint model's weights (ladder_plugins/agents/{WEIGHTS}) are missing or damaged: "
                     "prompts the patterns miss reach the reviewer only when the word test flags them",
                     "reinstall ladder-plugins (python -m pip install --force-reinstall ladder-plugins)")


def diagnose(start: Path) -> Diagnosis:
    diag = Diagnosis()
    settings = _check_config(diag, start)
    _check_plugins(diag)
    _check_entry_points(diag)
    if settings is not None and settings.in_project:
        _check_history(diag, settings)
        _check_git(diag, settings)
        _check_feedback(diag, settings)
        _check_rules_block(diag, settings)
        _check_agent_hooks(diag, settings)
        _check_reviewer(diag, settings)
        _check_complaint_model(diag)
    return diag


def doctor_json(diag: Diagnosis) -> str:
    return json.dumps({"schema": "ladder-doctor", "version": 1, **asdict(diag), "ok": not diag.problems}, indent=2)


def _history_line(h: dict[str, Any]) -> list[str]:
    if not h:
        return []
    return [f"history: {h.get('path')}, {h.get('size', 0)} bytes, {h.get('events', 0)} events, "
            f"oldest {h.get('oldest') or '-'}, newest {h.get('newest') or '-'}, "
            f"{h.get('skipped_lines', 0)} unreadable lines, schema {h.get('schema_version', '-')}"]


def _git_line(g: dict[str, Any]) -> list[str]:
    if not g:
        return []
    if not g.get("read"):
        return [f"git history: not read ({g.get('why')})"]
    return [f"git history: read; fails on occurrences {g['adoption']}; {g['ignore_revs']} mechanical commits listed, "
            f"sweeps over {g['sweep_files']} Python files, at most {g['git_max_commits']} versions per file"]


def _feedback_line(f: dict[str, Any]) -> list[str]:
    if not f:
        return []
    if not f.get("exists"):
        return [f"feedback state: {f.get('path')} (none yet; 'ladder feedback scan' makes it)"]
    return [f"feedback state: {f.get('path')}, {plural(int(f.get('items', 0)), 'item')}"
            + (f", {f['malformed_items']} malformed" if f.get("malformed_items") else "")]


def _rules_line(r: dict[str, Any]) -> list[str]:
    if not r:
        return []
    return [f"rules block: {f['file']}" + ("" if f["present"] else " (none yet; 'ladder rules sync' writes it)")
            + (", saturated (the budget is full: working as designed)" if f["saturated"] else "")
            + (", over budget (not what 'ladder rules sync' writes now: edited by hand or by an older "
               "version; readers keep whole sections)" if f["over_budget"] else "")
            for f in r["files"]]


def _hooks_line(hooks: dict[str, list[str]]) -> list[str]:
    if not hooks:
        return []
    from ..hosts import NAMES

    said = "; ".join(f"{agent} {', '.join(kinds) or 'none'}" for agent, kinds in hooks.items())
    hint = "" if any(hooks.values()) else \
        f" ('ladder hook install --agent {NAMES[0]}' adds them; or {', '.join(NAMES[1:])})"
    return [f"agent hooks: {said}{hint}"]


def _reviewer_line(r: dict[str, Any]) -> list[str]:
    if not r:
        return []
    if not r.get("enabled"):
        return ["reviewer: off ([tool.ladder.feedback] review = false): complaints are captured, not reviewed"]
    runs = f"{r['runs']} ({' '.join(r['command'])})" if r.get("runs") else "none (lessons from the user's own words)"
    last = f"last succeeded {r['last_success']}" if r.get("last_success") else "never succeeded here yet"
    ran = f", last ran {r['last_run']} ({r.get('last_event')}, {r.get('last_reason')})" if r.get("last_run") else ""
    return [f"reviewer: {runs}; {last}{ran}; {plural(int(r.get('pending') or 0), 'complaint')} waiting"]


def _config_line(cfg: dict[str, Any]) -> str:
    if not cfg.get("valid"):
        return "configuration: INVALID"
    source = f"read from {cfg['file']}" if cfg.get("file") else "built-in defaults (no [tool.ladder] table)"
    return f"configuration: valid, {source}"


def doctor_text(diag: Diagnosis) -> str:
    lines = [_config_line(diag.config), f"plugins: {', '.join(diag.plugins) or '-'}"]
    lines += [f"entry point {name}: {'registered' if ok else 'MISSING'}" for name, ok in diag.entry_points.items()]
    lines += _history_line(diag.history) + _git_line(diag.git) + _feedback_line(diag.feedback)
    lines += _rules_line(diag.rules_block)
    lines += _hooks_line(diag.agent_hooks)
    lines += _reviewer_line(diag.reviewer)
    lines += [""] + [f"note: {note}" for note in diag.notes]
    problems = [f"problem: {p['problem']}\n  fix: {p['fix']}" for p in diag.problems]
    return "\n".join(lines + (problems or ["nothing to fix"]))


def add_parsers(sub: Any) -> None:
    examples = ("  ladder doctor                       configuration, plugins, entry points, history health\n"
                "  ladder doctor --json\nexit status: 0 nothing to fix, 1 something to fix")
    command(sub, "doctor", examples).add_argument("--json", action="store_true")


def _doctor(args: argparse.Namespace) -> int:
    diag = diagnose(Path.cwd())
    print(doctor_json(diag) if args.json else doctor_text(diag))
    return EXIT_FAILED if diag.problems else EXIT_OK


COMMANDS = {"doctor": _doctor}
