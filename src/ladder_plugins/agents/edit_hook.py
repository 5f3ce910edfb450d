"""``ladder hook post-edit``: the seed's convergence breaker for structural feedback (DESIGN §12).

An agent that edits a unit and leaves it over a limit it was already over is circling: the
same feedback, given again, without converging. The lint run finds that later, as a
recurring hotspot; this hook says it at once, after the edit, while the agent still holds
the unit in mind. It is a ``PostToolUse`` command hook for Claude Code and Codex (matcher
``Edit|Write|MultiEdit``; Codex's ``apply_patch`` answers to ``Edit``/``Write``) and an
``AfterTool`` hook for Gemini CLI (``write_file|replace``); which one asked is read from
``hook_event_name`` and the fields present.

What it does, and why it stops there:

* It analyses only the files the tool call named, each a ``.py`` file inside the project
  root (symlinks resolved), with the project's settings and the analysis cache, so a warm
  call costs a cache lookup, one read of the history's summary and the gate's arithmetic.
* "Before" is what the history knows: a fingerprint the history holds red, or one that this
  edit, counted as one more occurrence, makes a recurring hotspot. A unit the edit did not
  change (its version is one the history already has) is not mentioned: reminding an agent
  of a legacy unit it did not touch is noise, and noise is what got the seed's execution
  guard retired.
* It records nothing in the history (the lint run does that, with the whole run). The one
  thing it writes is a tiny per-session counter, ``<history_dir>/hooks/sessions/<id>.json``,
  so it can say how many edits of this session left the unit unfixed; bounded, pruned,
  written atomically, inside the root only, and never where there is no project; best effort: a counter
  that cannot be written leaves the finding said, without its count.
* It tells, it does not block, unless ``[tool.ladder.hooks] block_on_hotspot = true``, and
  then only for a recurring hotspot: false blocks cost more than the circling they catch.
* It fails open: any internal failure is ``{}`` on stdout, exit status 0, nothing on
  stderr. A hook that breaks the agent's edit loop is worse than no hook.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import stat
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Optional, Sequence

from ..hosts import CONTEXT_CAP, EDIT_PATH_FIELDS, HOSTS, PATCH_FIELDS, answering, host, sender

if TYPE_CHECKING:
    from ..catalogue import Rule
    from ..history.aggregate import FingerprintStats

__all__ = [
    "EMPTY", "Payload", "Finding", "SessionCounter", "parse_payload", "edited_paths",
    "project_files", "findings_of", "unit_line", "render", "run", "main", "session_file_name",
]

#: tools that name a file without changing it: a hook installed without a matcher sees them too
_READ_ONLY = frozenset(tool for h in HOSTS for tool in h.read_only_tools)
#: what every host accepts as "nothing to add"
EMPTY = "{}"
_PATCH_FILE = re.compile(r"^\*\*\* (?:(?:Add|Update) File|Move to): (.+?)[ \t]*$", re.M)
MAX_FILES = 8  # a patch may touch many files; the hook stays within its time budget
MAX_BYTES = 1 << 20  # a file bigger than this is the lint run's job, not an edit hook's
_SHOWN = 6  # findings written out in full; the rest are counted
_MAX_CONTEXT = CONTEXT_CAP - 1000  # below the hosts' cap on a context string characters
SESSION_UNITS = 200  # fingerprints one session file keeps (the least recently seen go first)
SESSION_FILES = 200  # session files kept (the oldest go first)
SESSION_DAYS = 7  # a session file untouched this long is removed
_SESSION_BYTES = 256 << 10
_LOCK_TIMEOUT = 0.5


# ---------------------------------------------------------------------------
# the host's stdin


@dataclass(frozen=True)
class Payload:
    """What the hook needs from the host's stdin: which dialect to answer in, where, which files."""

    #: the name of the host whose answer form is wanted (Codex's is Claude Code's: ``claude``)
    dialect: str
    cwd: Path
    session_id: str
    paths: tuple[str, ...]


def _dialect(data: Mapping[str, Any]) -> Optional[str]:
    """``claude`` (Claude Code, Codex), ``gemini``, or ``None`` for an event this hook does not serve; an
    empty or non-string event name counts as none (the fields present and the tool then decide)."""
    event = data.get("hook_event_name")
    named = event if isinstance(event, str) and event else None
    sent = sender(data, named, "post-edit", data.get("tool_name"))
    return None if sent is None else answering(sent, "post-edit").name


def _text(value: Any) -> Optional[str]:
    """A usable path string: text, not empty, no NUL (which no file system takes)."""
    return value if isinstance(value, str) and value.strip() and "\x00" not in value else None


def _paths_in(arguments: Mapping[str, Any]) -> list[str]:
    """The files one tool call's arguments name: a path field, or the files of a Codex patch."""
    for key in EDIT_PATH_FIELDS:
        named = _text(arguments.get(key))
        if named:
            return [named]
    found: list[str] = []
    for key in PATCH_FIELDS:
        patch = arguments.get(key)
        if isinstance(patch, str) and "*** Begin Patch" in patch:
            found.extend(match.group(1) for match in _PATCH_FILE.finditer(patch))
    return found


def edited_paths(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The files a tool call edited, as the host named them (``tool_input``, else ``tool_response``), at most
    :data:`MAX_FILES`, each once."""
    for key in ("tool_input", "tool_response"):
        arguments = data.get(key)
        found = _paths_in(arguments) if isinstance(arguments, Mapping) else []
        if found:
            return tuple(dict.fromkeys(p for p in map(_text, found) if p))[:MAX_FILES]
    return ()


def parse_payload(stdin: bytes, environ: Mapping[str, str]) -> Optional[Payload]:
    """The payload, or ``None`` for anything this hook does not serve (not JSON, another event, no file)."""
    try:
        data = json.loads(stdin.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    from ..readers.stdin import working_dir

    dialect, paths, where = _dialect(data), edited_paths(data), working_dir(data, environ)
    cwd = Path(where) if where is not None else None
    if dialect is None or not paths or cwd is None or data.get("tool_name") in _READ_ONLY:
        return None
    session = data.get("session_id")
    return Payload(dialect, cwd, session if isinstance(session, str) else "", paths)


# ---------------------------------------------------------------------------
# the files inside the project


def _relative(path: Path, root: Path) -> Optional[str]:
    """``path`` as the lint names it (POSIX, relative to the resolved root), or ``None`` outside the root.

    The directory is resolved, the name kept: a file reached through a symlinked directory
    gets its fingerprint's path, a symlinked file keeps its own name."""
    try:
        return (Path(os.path.realpath(path.parent)) / path.name).relative_to(root).as_posix()
    except ValueError:
        return None


def _regular_inside(path: Path, root: Path) -> bool:
    """A regular file (symlinks followed) whose real location is inside ``root``, of a size an edit hook reads."""
    from ..ladderdir.paths import inside

    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= MAX_BYTES and inside(path, root)


def project_files(paths: Iterable[str], cwd: Path, settings: Any) -> list[tuple[Path, str]]:
    """``(absolute path, relative path)`` of each named ``.py`` file inside the project root that the lint
    would analyse (not excluded); everything else is ignored."""
    from ..analysis.discovery import DEFAULT_EXCLUDES
    from ..analysis.globs import compile_globs, matches_any

    root = Path(os.path.realpath(settings.root))
    excludes = compile_globs(DEFAULT_EXCLUDES + tuple(settings.exclude))
    found: dict[str, Path] = {}
    for raw in paths:
        path = Path(os.path.normpath(os.path.join(cwd, raw)))
        rel = _relative(path, root) if path.suffix == ".py" else None
        if rel and not matches_any(rel, excludes) and _regular_inside(path, root):
            found.setdefault(rel, path)
    return [(path, rel) for rel, path in found.items()]


# ---------------------------------------------------------------------------
# the per-session counter


def session_file_name(session_id: str) -> str:
    """A file name for a session id: its safe characters, and a hash when anything was dropped or cut, so
    two ids never share a file and no id can name a path (``../x``) or a hidden file."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", session_id)[:64].lstrip("-_")
    if safe != session_id or not safe:
        digest = hashlib.blake2b(session_id.encode("utf-8", "replace"), digest_size=6).hexdigest()
        safe = f"{safe[:40] or 'session'}-{digest}"
    return f"{safe}.json"


@dataclass(frozen=True)
class SessionCounter:
    """How many edits of one session left each fingerprint over its limit, in ``hooks/sessions/``.

    ``units`` maps a fingerprint to ``{"version", "edits", "value", "at"}``: an edit counts
    when the unit's version is new to the session (an edit elsewhere in the file does not
    count again). A session file is a counter, not a record: a damaged one starts again.
    """

    directory: Path
    name: str
    units: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Any, session_id: str) -> Optional["SessionCounter"]:
        """The session's counter, or ``None`` when there is no session id or its place is not safe to use."""
        from ..ladderdir.paths import first_outside

        if not session_id or not settings.in_project:
            return None
        base = settings.root / settings.history_dir
        directory = base / "hooks" / "sessions"
        name = session_file_name(session_id)
        places = (base, base / "hooks", directory, directory / name, directory / ".lock")
        if first_outside(places, Path(os.path.realpath(settings.root))):
            return None
        return cls(directory, name, _read_units(directory / name))

    def seen(self, fingerprint: str) -> Optional[dict[str, Any]]:
        return self.units.get(fingerprint)

    def count(self, fingerprint: str, version: str, value: Optional[float], at: str) -> Optional[int]:
        """This edit's count for ``fingerprint``: one more when ``version`` is new to the session, ``None``
        when the session has already counted this version (the edit did not touch the unit)."""
        entry = self.units.get(fingerprint)
        if entry is not None and entry.get("version") == version:
            return None
        edits = (entry.get("edits", 0) if entry else 0) + 1
        self.units[fingerprint] = {"version": version, "edits": edits, "value": value, "at": at}
        return edits

    def save(self) -> None:
        """Write the counter atomically under the directory's lock (hosts run the hooks of parallel tool
        calls at once), keep it bounded, prune old sessions; a lock held too long skips the save."""
        from ..ladderdir.lock import taken
        from ..ladderdir.paths import make_dirs

        make_dirs(self.directory.parent.parent, self.directory)
        with taken(self.directory / ".lock", _LOCK_TIMEOUT) as held:
            if held:
                units = {**_read_units(self.directory / self.name), **self.units}
                _write_atomic(self.directory / self.name, _bounded(units))
                _prune(self.directory, keep=self.name)


def _read_units(path: Path) -> dict[str, dict[str, Any]]:
    """A session file's units; a missing, oversized or damaged file counts from zero."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(_SESSION_BYTES + 1)[:_SESSION_BYTES])
        units = data.get("units") if isinstance(data, dict) else None
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(units, dict):
        return {}
    return {fp: entry for fp, entry in units.items()
            if isinstance(fp, str) and isinstance(entry, dict) and isinstance(entry.get("edits"), int)}


def _bounded(units: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """The file's content with at most :data:`SESSION_UNITS` fingerprints, the most recently seen."""
    recent = sorted(units.items(), key=lambda item: str(item[1].get("at", "")), reverse=True)[:SESSION_UNITS]
    return {"version": 1, "units": dict(sorted(recent))}


def _write_atomic(path: Path, data: Mapping[str, Any]) -> None:
    """A reader sees the old file or the new one; a session count lost to a crash costs nothing (no fsync)."""
    from ..ladderdir.atomic import write_atomic

    write_atomic(path, json.dumps(data, separators=(",", ":")).encode("utf-8"), sync=False)


def _age(entry: "os.DirEntry[str]", now: float) -> Optional[float]:
    """How old a file of the sessions directory is, for pruning: a session file by its time, a temporary
    file left by a killed hook as infinitely old after an hour; ``None`` for anything else (kept)."""
    if not entry.is_file(follow_symlinks=False):
        return None
    age = now - entry.stat(follow_symlinks=False).st_mtime
    if entry.name.startswith(".") and entry.name.endswith(".tmp"):  # write_atomic's, left by a killed hook
        return float("inf") if age > 3600 else None
    return age if entry.name.endswith(".json") else None


def _prune(directory: Path, keep: str) -> None:
    """Remove session files untouched for :data:`SESSION_DAYS` days and all but the newest
    :data:`SESSION_FILES`, and a temporary file a killed hook left behind, after an hour."""
    now = time.time()
    with os.scandir(directory) as listing:
        aged = sorted((age, entry.name) for entry in listing if entry.name != keep
                      for age in (_age(entry, now),) if age is not None)
    for number, (age, name) in enumerate(aged, 2):  # the kept file is the newest, number 1
        if age > SESSION_DAYS * 86400 or number > SESSION_FILES:
            with contextlib.suppress(OSError):
                (directory / name).unlink()


# ---------------------------------------------------------------------------
# judging the edit


@dataclass(frozen=True)
class Finding:
    """One unit the edit left over a limit it was over before (or made a recurring hotspot)."""

    path: str
    line: int
    unit: Optional[str]
    code: str
    what: str
    before: Optional[float]
    after: float
    limit: Optional[float]
    bound: str
    hotspot: bool
    recurrence: str = ""
    #: edits of this session that left it over the limit, this one included; ``None`` without a session id
    session_edits: Optional[int] = None
    #: the value after this session's previous edit of the unit, when there was one
    previous: Optional[float] = None

    @property
    def subject(self) -> str:
        """``src/pkg/m.py:12 'f'``, or the file alone for a file rule: the names as data for the agent (one
        line, no tag, no speaker), however the repository named its directories and functions."""
        from ..reports.sanitize import agent_data

        where = f"{agent_data(self.path)}:{self.line}"
        return f"{where} '{agent_data(self.unit)}'" if self.unit else f"{where} (the file)"

    def rule_text(self) -> str:
        """``LAD102 cognitive complexity before 25, after 27 (> 15)``, with the value after the session's
        previous edit when there was one."""
        from ..catalogue import number

        before = number(self.before)
        if self.previous is not None and self.previous != self.before:
            before += f" ({number(self.previous)} after this session's previous edit)"
        return f"{self.code} {self.what} before {before}, after {number(self.after)} ({self.bound})"


def _grouped(findings: Sequence[Finding]) -> list[list[Finding]]:
    """Findings by unit, in their order: one line per unit."""
    groups: dict[tuple[str, Optional[str], int], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.path, finding.unit, finding.line), []).append(finding)
    return list(groups.values())


def _hotspot_text(group: Sequence[Finding]) -> str:
    """``recurring hotspot counting this edit (4 versions over the limit on 2 days)``, naming the rules when not all
    of the unit's are, each with its own count where they differ; ``""`` for none."""
    hot = [f for f in group if f.hotspot]
    said = {f.recurrence for f in hot}
    if not hot:
        return ""
    if len(said) > 1:
        return "recurring hotspot counting this edit: " + ", ".join(f"{f.code} {f.recurrence}" for f in hot)
    rules = "" if len(hot) == len(group) else " for " + ", ".join(f.code for f in hot)
    return f"recurring hotspot counting this edit{rules} ({said.pop()})"


def unit_line(group: Sequence[Finding]) -> str:
    """One line of facts about one unit: where, each rule before and after, this session's count, the
    recurrence."""
    parts = ["; ".join(f.rule_text() for f in group)]
    edits = [f.session_edits for f in group if f.session_edits is not None]
    if edits:
        parts.append(f"edits in this session that left it over the limit: {max(edits)}")
    hotspot = _hotspot_text(group)
    if hotspot:
        parts.append(hotspot)
    return f"{group[0].subject}: " + "; ".join(parts) + "."


def _held_red(stats: FingerprintStats, rule: Rule) -> bool:
    """Whether the history's last sighting of a fingerprint was over its limit (red, not yellow)."""
    actual, limit = stats.last_actual, stats.last_limit
    if actual is None or limit is None:
        return False
    return actual < limit if rule.kind == "min" else actual > limit


def _analysed(pipeline: Any, files: Sequence[tuple[Path, str]]) -> list[Any]:
    """The red threshold violations of ``files``, analysed with the cache when this run may write it."""
    from ..analysis.thresholds import RED

    red: list[Any] = []
    for path, rel in files:
        with open(path, "rb") as handle:
            report = pipeline.analyzer.source(handle.read(MAX_BYTES + 1), rel)
        if report.skipped is None:
            red.extend(v for v in report.violations if v.severity == RED and v.limit is not None)
    return red


@dataclass(frozen=True)
class _Judged:
    """A red violation of this edit with its event, what the history knows and the gate's count."""

    violation: Any
    event: Any
    stats: Any
    recurrence: Any


def _judged(pipeline: Any, red: Sequence[Any]) -> tuple[list[_Judged], str]:
    """Each red violation of a fingerprint the history knows that the edit changed (a version the history has
    not seen), judged by the run's gate (the history before it plus this edit); and the edit's timestamp."""
    from ..history.events import events_from_violations

    history, run = pipeline.history, pipeline.run
    events = events_from_violations(red, run)
    recurrences = {rec.fingerprint: rec for rec in pipeline.judge(events).recurrences}
    judged = []
    for violation, event in zip(red, events):
        stats = history.fingerprints.get(event.fingerprint)
        if stats is not None and event.version not in stats.hashes:
            judged.append(_Judged(violation, event, stats, recurrences.get(event.fingerprint)))
    return judged, run.timestamp


def _hotspot(item: _Judged, settings: Any) -> bool:
    return item.recurrence is not None and item.recurrence.is_hotspot(settings)


def _counted(item: _Judged, session: Optional[SessionCounter], at: str) -> Optional[tuple[Optional[int], Any]]:
    """This edit's count in the session and the value after the session's previous edit of the unit;
    ``None`` when the session already counted this version (the edit did not touch the unit)."""
    if session is None:
        return None, None
    v = item.violation
    previous = session.seen(v.fingerprint)
    edits = session.count(v.fingerprint, item.event.version, v.actual, at)
    if edits is None:
        return None
    return edits, previous.get("value") if previous else None


def _finding(item: _Judged, settings: Any, session: Optional[SessionCounter], at: str) -> Optional[Finding]:
    """The finding for one changed red violation, or ``None`` when there is nothing to say: the history did
    not hold it red and it is no hotspot, or this session already counted this version of the unit."""
    v, hotspot = item.violation, _hotspot(item, settings)
    if not hotspot and not _held_red(item.stats, v.rule):
        return None
    counted = _counted(item, session, at)
    if counted is None:
        return None
    before = item.stats.last_actual
    said = item.recurrence.describe() if hotspot else ""
    return Finding(v.path, v.line, v.unit, v.rule.code, v.rule.what, before, v.actual, v.limit,
                   v.rule.bound(v.actual, v.limit), hotspot, said, *counted)


def _judged_edit(settings: Any, files: Sequence[tuple[Path, str]],
                 environ: Mapping[str, str]) -> tuple[list[_Judged], str]:
    """The edit's red violations the history knows, judged; a file the history knows nothing of holds no
    finding, so it is not even analysed and nothing is written (most edits are of such files)."""
    from ..errors import WarnOnce
    from ..history.pipeline import RunOptions, RunPipeline
    from ..history.run import RunContext
    from ..history.store import HistoryStore

    warn = WarnOnce()  # collects only: a hook says nothing on stderr
    history = HistoryStore(settings, warn=warn).peek()
    paths = {stats.path for stats in history.fingerprints.values()}
    known = [(path, rel) for path, rel in files if rel in paths]
    if not known:
        return [], ""
    # records nothing and asks no git: an edit is judged within the host's budget from the log alone
    run = RunContext.create("hook", settings.mode, settings.repo_id, environ)
    options = RunOptions(record=False, run=run, history=history, git=False)
    pipeline = RunPipeline.prepare(settings, "hook", warn, options)
    red = _analysed(pipeline, known)
    return _judged(pipeline, red) if red else ([], "")


def findings_of(settings: Any, files: Sequence[tuple[Path, str]], session_id: str,
                environ: Mapping[str, str]) -> list[Finding]:
    """What the edit of ``files`` left over a limit it was over before, in file and line order; the session's
    counter is saved when anything was counted, as best it can be: a counter that cannot be written (a
    read-only checkout, a full disk, ``hooks`` a file) costs the next edit its count, never this finding."""
    from ..errors import LadderError

    judged, at = _judged_edit(settings, files, environ)
    session = SessionCounter.open(settings, session_id) if judged else None
    found = [f for f in (_finding(item, settings, session, at) for item in judged) if f is not None]
    if session is not None and found:
        with contextlib.suppress(OSError, LadderError):
            session.save()
    return found


# ---------------------------------------------------------------------------
# the answer


def _blocks(settings: Any) -> bool:
    """``[tool.ladder.hooks] block_on_hotspot``; off when the settings have no such table (yet)."""
    return getattr(getattr(settings, "hooks", None), "block_on_hotspot", False) is True


def _context(findings: Sequence[Finding]) -> str:
    groups = _grouped(findings)
    units = f"{len(groups)} unit{'s' if len(groups) != 1 else ''}"
    head = (f"ladder: this edit left {units} over a limit the history already holds it over (before: the last "
            "recorded check; the lint run records this edit, this hook records nothing):")
    lines = [f"- {unit_line(group)}" for group in groups[:_SHOWN]]
    if len(groups) > _SHOWN:
        lines.append(f"- and {len(groups) - _SHOWN} more units")
    text = "\n".join([head, *lines])
    return text if len(text) <= _MAX_CONTEXT else text[:_MAX_CONTEXT - 1] + "\u2026"


def render(dialect: str, findings: Sequence[Finding], block: bool = False) -> str:
    """The host's JSON: ``{}`` for nothing to say; context (``hookSpecificOutput.additionalContext``); or, with
    ``block`` and a recurring hotspot among ``findings``, the host's block form with the same facts."""
    if not findings:
        return EMPTY
    text = _context(findings)
    answer = host(dialect)
    if answer is None:
        raise ValueError(f"no host is called {dialect!r}")
    if block and any(f.hotspot for f in findings):
        return json.dumps({"decision": answer.block_decision, "reason": text})
    return json.dumps({"hookSpecificOutput": {"hookEventName": answer.edit_event, "additionalContext": text}})


def _has_history(settings: Any) -> bool:
    """Whether the project has a history at all (a look at three names, before anything is analysed)."""
    directory = settings.root / settings.history_dir / "history"
    return any(os.path.exists(directory / name) for name in ("events.jsonl", "summaries.json", "folded.json"))


def _answer(stdin: bytes, environ: Mapping[str, str]) -> str:
    from ..config import load_settings

    payload = parse_payload(stdin, environ)
    if payload is None:
        return EMPTY
    settings = load_settings(payload.cwd)
    if not settings.in_project or not _has_history(settings):  # nothing to compare with: nothing analysed
        return EMPTY
    files = project_files(payload.paths, payload.cwd, settings)
    if not files:
        return EMPTY
    findings = findings_of(settings, files, payload.session_id, environ)
    return render(payload.dialect, findings, _blocks(settings))


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """No warning and nothing else on stderr while the hook works (a ``SyntaxWarning`` from parsing the
    edited file would otherwise reach the host)."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def run(stdin: bytes, environ: Optional[Mapping[str, str]] = None) -> str:
    """The hook's stdout for the host's ``stdin``: always one JSON object, ``{}`` on any internal failure."""
    env = os.environ if environ is None else environ
    try:
        with _silenced():
            return _answer(stdin, env)
    except Exception:  # fail open, whatever it was: the agent's edit loop goes on
        return EMPTY


def main(stdin_fd: Optional[int] = None, stdout: Optional[Any] = None) -> int:
    """``ladder hook post-edit``: stdin to stdout, exit status 0 whatever happened. Stdin is read until it ends
    or holds one whole JSON object, for the budget (``LADDER_HOOK_BUDGET_MS``) at most: a host that never
    finishes its payload gets ``{}`` then."""
    from ..readers.stdin import budget_of, read_payload

    target = stdout if stdout is not None else sys.stdout
    try:
        payload = read_payload(sys.stdin.fileno() if stdin_fd is None else stdin_fd, budget_of(os.environ))
        answer = EMPTY if payload is None else run(payload)
    except Exception:  # stdin itself could not be read
        answer = EMPTY
    with contextlib.suppress(Exception):
        target.write(answer + "\n")
        target.flush()
    return 0
