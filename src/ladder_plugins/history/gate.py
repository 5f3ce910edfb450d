"""The gate: does this run fail? (``docs/explanation/recurrence.md`` says it for users.)

Decided from the history *before* the run plus the run's own events, so the result
does not depend on how workers were scheduled or in which order they recorded.
``advisory`` never fails; ``recurrence`` fails on red violations whose fingerprint,
counted with this run, is a hotspot; ``new`` also fails on every red violation that
the base did not have, or had with a better value; ``strict`` fails on every red
violation. With ``evidence`` (see :mod:`.evidence`), occurrences from git join the
history's, and ``new`` knows its base.

A hotspot fails the run only when one of its occurrences may trigger: one after the
adoption point, one the log recorded or the run made (see ``adoption.Adoption``); in
mode ``new``, one the branch holds. Otherwise it is *known* from history: listed, and
failing on its next edit that leaves it over the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Mapping, Optional, Protocol, Sequence

from ..catalogue import GATE, NEW_CODE, bound_text, lookup, number, worse_than
from ..config import Mode, Settings
from .aggregate import Aggregate
from .events import Event
from .recurrence import GitVersions, Recurrence, recurrence_of

if TYPE_CHECKING:
    from ..catalogue import Rule
    from .evidence import Baseline, GitFacts

__all__ = [
    "Evidence", "Gate", "GateFailure", "GateResult", "decide", "hotspot_message", "by_unit", "advice",
    "hotspot_failures", "measured",
]


class Evidence(Protocol):
    """What the gate reads of git: a :class:`~.evidence.GitEvidence`, or a stand-in that keeps its answers."""

    def prior(self, events: Sequence[Event]) -> list[Event]: ...

    def baseline(self, events: Sequence[Event]) -> Optional[Baseline]: ...

    def facts(self) -> GitFacts: ...


@dataclass(frozen=True)
class GateFailure:
    """One reason the run fails, with the evidence a person needs to act."""

    event: Event
    recurrence: Recurrence
    reason: str  # "hotspot", "new", "worse" or "strict"; "known" for a hotspot listed, not failing
    base: Optional[str] = None  # the base commit (mode new)
    base_actual: Optional[float] = None  # the value at the base ("worse")

    @property
    def is_hotspot(self) -> bool:
        """A LAD900 entry: a recurring hotspot that fails the run, or one known from history."""
        return self.reason in ("hotspot", "known")

    @property
    def code(self) -> str:
        """LAD900 for a recurring hotspot, LAD901 for a new or worse one; the rule's own code in strict mode."""
        if self.is_hotspot:
            return GATE.code
        if self.reason in ("new", "worse"):
            return NEW_CODE.code
        rule = lookup(self.event.rule_key)
        return rule.code if rule is not None else self.event.rule_key

    @property
    def rule(self) -> Optional[Rule]:
        """The violated rule, built-in or a plugin's; ``None`` for a key no installed rule has."""
        from ..plugins import rule_of

        return rule_of(self.event.rule_key)

    @property
    def rule_key(self) -> str:
        """The key of what failed: the gate's own rule, or the violated rule in strict mode."""
        if self.is_hotspot:
            return GATE.key
        return NEW_CODE.key if self.reason in ("new", "worse") else self.event.rule_key

    @property
    def violation(self) -> str:
        """``cognitive complexity of 'f' is 30 (> 15)``; ``(< 1)`` for a minimum rule."""
        e, rule = self.event, self.rule
        if rule is not None and e.actual is not None:
            return rule.message(e.unit_name, e.actual, e.limit, path=e.path)
        return f"{e.rule_key} of {self.subject} is {number(e.actual)} (limit {number(e.limit)})"

    @property
    def subject(self) -> str:
        """``'price'``, or the file by its name (``'models.py'``) for a file rule."""
        e = self.event
        return f"'{e.unit_name}'" if e.unit_name else f"'{e.path.rpartition('/')[2]}'"

    @property
    def measured(self) -> str:
        """``cyclomatic 12 > 10``: the value against its limit, short, for a unit's list of rules."""
        return measured(self.event.rule_key, self.event.actual, self.event.limit)

    @property
    def advice(self) -> str:
        """What to do about it, and where its suppression goes (a file rule's is not on a def line)."""
        return advice(file_rule=self.event.unit_name is None, keys=self.event.rule_key)

    @property
    def message(self) -> str:
        base = (self.base or "")[:12]
        if self.reason == "strict":
            return f"{self.violation} (strict mode)"
        if self.reason == "new":
            return f"{NEW_CODE.what}: {self.violation}, not violated at the base {base}"
        if self.reason == "worse":
            return f"worse violation: {self.violation}, was {number(self.base_actual)} at the base {base}"
        return hotspot_message([self])

    @property
    def text(self) -> str:
        return f"{self.code} {self.message}"


@dataclass(frozen=True)
class GateResult:
    mode: str
    failures: tuple[GateFailure, ...]
    recurrences: tuple[Recurrence, ...]
    #: what history was read (git's versions, the adoption point, the log's runs), for the verdict
    note: str = ""
    #: chronic hotspots whose occurrences all predate the adoption point (in mode new: the branch), as
    #: entries of reason "known": listed, not failing, until their next edit that leaves them over the limit
    known: tuple[GateFailure, ...] = ()

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    def failure_for(self, fingerprint: str) -> Optional[GateFailure]:
        for failure in self.failures:
            if failure.event.fingerprint == fingerprint:
                return failure
        return None


def measured(rule_key: str, actual: Optional[float], limit: Optional[float]) -> str:
    """``cyclomatic 12 > 10``: a value against its limit in a few words, for a list of several; a key no installed
    rule has is named as it is, read as a maximum."""
    from ..plugins import rule_of

    rule = rule_of(rule_key)
    if rule is None:
        return f"{rule_key} {number(actual)} {bound_text(limit, minimum=False)}"
    return rule.brief(actual, limit)


def hotspot_message(failures: Sequence[GateFailure]) -> str:
    """One unit's recurring hotspot, every rule it breaks in one line: ``'price': recurring hotspot for
    cyclomatic 12 > 10, ABC 21.5 > 17; 3 versions over the limit on 2 days (first .., last ..)``.
    Rules that recurred differently each say their own count."""
    recs = [f.recurrence for f in failures]
    first = min(filter(None, (r.first_seen for r in recs)), default="-")[:10]
    last = max(filter(None, (r.last_occurrence for r in recs)), default="-")[:10]
    said = f"{failures[0].subject}: {GATE.what} for {_rules_said(failures)} (first {first}, last {last})"
    return said + _worse_said(failures) + (f"; {KNOWN_TAIL}" if failures[0].reason == "known" else "")


def _rules_said(failures: Sequence[GateFailure]) -> str:
    """``cyclomatic 12 > 10, ABC 21.5 > 17; 3 versions over the limit on 2 days``, each rule with its own count where
    they differ."""
    said = {f.recurrence.describe() for f in failures}
    if len(said) == 1:
        return ", ".join(f.measured for f in failures) + f"; {said.pop()}"
    return ", ".join(f"{f.measured} ({f.recurrence.describe()})" for f in failures)


def _worse_said(failures: Sequence[GateFailure]) -> str:
    """``; worse than at the base 1a2b3c4d5e6f: cognitive was 20``, for the rules worse than at the base."""
    worse = [f for f in failures if f.base_actual is not None]
    if not worse:
        return ""
    return f"; worse than at the base {(worse[0].base or '')[:12]}: " + ", ".join(
        f"{f.rule.label if f.rule else f.event.rule_key} was {number(f.base_actual)}" for f in worse)


#: what a known hotspot's entry ends with: why it does not fail, and when it will
KNOWN_TAIL = "known from history; fails on its next edit that leaves it over the limit"


def advice(*, file_rule: bool, keys: str = "rule_key") -> str:
    """What to do about a recurring hotspot, and where its suppression goes: on a unit's def line, or for a
    file rule in the module header."""
    ignore = f"# ladder: ignore[{keys}] why"
    if file_rule:
        return ("bring the file within the limit (split it), or suppress it in the module header (line 1, or a "
                f"comment line above the first statement) with a reason: {ignore}")
    return f"refactor the unit below the limit, or suppress it on its def line with a reason: {ignore}"


def hotspot_failures(events: Sequence[Event], recurrences: Sequence[Recurrence],
                     settings: Settings) -> list[GateFailure]:
    """A run's recurring hotspots as gate failures, each at the run's first sighting of it, grouped by unit
    (what flake8 and pytest's summary say even where the mode does not fail on them)."""
    first = {e.fingerprint: e for e in reversed(events)}
    hot = [GateFailure(first[r.fingerprint], r, "hotspot") for r in recurrences
           if r.is_hotspot(settings) and r.triggered and r.fingerprint in first]
    return [failure for group in by_unit(hot) for failure in group]


def by_unit(failures: Sequence[GateFailure]) -> list[list[GateFailure]]:
    """Failures grouped by the unit (or file) they are in, in their order: one entry per unit."""
    groups: dict[tuple[str, Optional[str]], list[GateFailure]] = {}
    for failure in failures:
        groups.setdefault((failure.event.path, failure.event.unit_name), []).append(failure)
    return [sorted(group, key=_order) for group in groups.values()]


def _order(failure: GateFailure) -> str:
    """A hotspot's rules in code order, built-in or a plugin's; other failures by the code they are said with."""
    if not failure.is_hotspot:
        return failure.code
    rule = failure.rule
    return rule.code if rule is not None else failure.event.rule_key


def _red_by_fingerprint(events: Sequence[Event]) -> dict[str, list[Event]]:
    grouped: dict[str, list[Event]] = {}
    for event in events:
        if event.severity == "red":
            grouped.setdefault(event.fingerprint, []).append(event)
    return dict(sorted(grouped.items()))


def _new_code(event: Event, rec: Recurrence, base: Baseline) -> Optional[GateFailure]:
    """A failure when the base did not have this violation, or had it with a better value."""
    if event.fingerprint not in base.values:
        return GateFailure(event, rec, "new", base.commit)
    from ..plugins import is_minimum

    was = base.values[event.fingerprint]
    now = event.actual
    worse = was is not None and now is not None and worse_than(now, was, minimum=is_minimum(event.rule_key))
    return GateFailure(event, rec, "worse", base.commit, was) if worse else None


def _failure(mode: str, event: Event, rec: Recurrence, settings: Settings,
             base: Optional[Baseline]) -> Optional[GateFailure]:
    """Why ``event``'s violation fails the run, if it does. A hotspot that is also worse than at the base says
    both (the base's commit and value ride on the hotspot's entry)."""
    if mode == Mode.STRICT:
        return GateFailure(event, rec, "strict")
    compared = _new_code(event, rec, base) if mode == Mode.NEW and base is not None else None
    if mode == Mode.ADVISORY or not (rec.is_hotspot(settings) and rec.triggered):
        return compared
    if compared is None or compared.reason != "worse":
        return GateFailure(event, rec, "hotspot")
    return replace(compared, reason="hotspot")


@dataclass(frozen=True)
class Gate:
    """The gate of one run: its mode, settings and clock."""

    mode: str
    settings: Settings
    now: datetime

    def decide(self, run_events: Sequence[Event], history: Aggregate,
               evidence: Optional[Evidence] = None) -> GateResult:
        """The decision for a run whose events are ``run_events``, given the history before it.

        ``evidence`` (a :class:`~.evidence.GitEvidence`) adds occurrences from git and the
        base of mode ``new``; with ``recurrence.source = "git"`` the stored history is not read.
        """
        red = _red_by_fingerprint(run_events)
        prior, base = self._evidence(run_events, evidence) if red else ({}, None)
        facts = evidence.facts() if evidence is not None else None
        firsts = [events[0] for events in red.values()]
        recs = self._counted(history, red, prior, facts)
        failures = [_failure(self.mode, event, rec, self.settings, base) for event, rec in zip(firsts, recs)]
        return GateResult(self.mode, tuple(f for f in failures if f is not None), tuple(recs),
                          _note(facts, history, self.settings), self._known(firsts, recs))

    def _known(self, firsts: Sequence[Event], recs: Sequence[Recurrence]) -> tuple[GateFailure, ...]:
        """The chronic hotspots no occurrence of which may fail the run (advisory mode lists none)."""
        if self.mode == Mode.ADVISORY:
            return ()
        return tuple(GateFailure(event, rec, "known") for event, rec in zip(firsts, recs)
                     if rec.is_hotspot(self.settings) and not rec.triggered)

    def _counted(self, history: Aggregate, red: Mapping[str, list[Event]],
                 prior: Mapping[str, list[Event]], facts: Optional[GitFacts]) -> list[Recurrence]:
        """Each red fingerprint's recurrence: the history (unless git alone is asked for), git's, the run's."""
        if self.settings.recurrence.source == "git" and facts is not None:  # git read: the log is left out
            history = Aggregate(self.settings.recurrence.count == "runs")
        return [self._with_run(history, fp, prior.get(fp, ()), events, facts) for fp, events in red.items()]

    def _with_run(self, history: Aggregate, fp: str, prior: Sequence[Event], events: Sequence[Event],
                  facts: Optional[GitFacts]) -> Recurrence:
        """The fingerprint's recurrence: the history before the run, git's past versions (``prior``: never
        runs), and the run's ``events``; triggered or known (see the module's docstring)."""
        combined = Aggregate(self.settings.recurrence.count == "runs")
        if fp in history.fingerprints:
            combined.fingerprints[fp] = history.fingerprints[fp].copy()
        combined.add_versions(prior)
        combined.add_all(events)
        stats = combined.fingerprints[fp]
        commits = {e.version: (e.timestamp, e.run_id[4:]) for e in prior}  # version -> (time, commit)
        mechanical = facts.mechanical if facts is not None else {}
        # a version is the baseline when its first sighting is a mechanical commit (not a run before it)
        git = GitVersions(frozenset(commits), frozenset(
            v for v, (when, commit) in commits.items() if commit in mechanical and stats.hashes[v][0] == when))
        rec = recurrence_of(fp, stats, self.settings, self.now, git)
        if facts is None:
            return rec
        return replace(rec, triggered=any(_triggers(t, commits.get(v), facts, self.mode) for t, v in rec.times))

    def _evidence(self, run_events: Sequence[Event],
                  evidence: Optional[Evidence]) -> tuple[dict[str, list[Event]], Optional[Baseline]]:
        """Git's past versions by fingerprint, and the base (mode new only)."""
        prior: dict[str, list[Event]] = {}
        if evidence is None:
            return prior, None
        for event in evidence.prior(run_events):
            prior.setdefault(event.fingerprint, []).append(event)
        return prior, evidence.baseline(run_events) if self.mode == Mode.NEW else None


def _triggers(when: str, commit: Optional[tuple[str, str]], facts: GitFacts, mode: str) -> bool:
    """Whether an occurrence at ``when`` may fail the run: ``commit`` is (time, id) of the version's earliest
    commit, ``None`` for a version only the log or the run saw. In mode new with a base, the branch decides: a
    version a commit holds by that commit (whoever saw it first: a laptop checks before it commits), one only
    the log or the run saw by being later than the base."""
    if mode == Mode.NEW and facts.branch is not None:
        if commit is not None:
            return commit[1] in facts.branch
        return facts.base_time is None or when > facts.base_time
    first_seen_in = commit[1] if commit is not None and commit[0] == when else None
    return facts.adoption.triggers(when, first_seen_in)


def _note(facts: Optional[GitFacts], history: Aggregate, settings: Settings) -> str:
    """``12 past versions from git; fails on occurrences since ..; 3 runs in the log``: what the gate read."""
    parts = [facts.note] if facts is not None and facts.note else []
    if settings.recurrence.source != "git":
        runs = len({run for counts in history.days.values() for run in counts.runs})
        parts.append(f"{runs} run{'s' if runs != 1 else ''} in the log")
    return "; ".join(parts)


def decide(
    mode: str, run_events: Sequence[Event], history: Aggregate, settings: Settings, now: datetime
) -> GateResult:
    """The gate's decision for ``run_events`` from the stored history alone (see :meth:`Gate.decide`)."""
    return Gate(mode, settings, now).decide(run_events, history)
