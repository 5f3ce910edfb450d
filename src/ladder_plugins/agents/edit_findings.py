"""What the edit hook finds: a unit the edit left over a limit the history already holds it over, in words.

"Before" is what the history knows: a fingerprint the history holds red, or one that this
edit, counted as one more occurrence, makes a recurring hotspot. A unit the edit did not
change (its version is one the history already has) is not mentioned. The edit is judged
by the run's gate from the log alone (no git, nothing recorded), with the analysis cache;
a file the history knows nothing of is not even analysed.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from .edit_session import SessionCounter

if TYPE_CHECKING:
    from ..catalogue import Rule
    from ..history.aggregate import FingerprintStats

__all__ = ["MAX_BYTES", "Finding", "grouped", "unit_line", "findings_of"]

MAX_BYTES = 1 << 20  # a file bigger than this is the lint run's job, not an edit hook's


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


def grouped(findings: Sequence[Finding]) -> list[list[Finding]]:
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
    return rule.exceeds(stats.last_actual, stats.last_limit)


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
