"""``ladder recommend``: human-reviewable suggestions derived from the history.

Never edits a file. Each suggestion carries its evidence and, where one applies, a
ready-to-paste ``pyproject.toml`` snippet:

* *constraint*: a sentence for design documents and agent rules files, for a rule
  whose violations came back across many files of one area or role (one suggestion
  when the area and the role are the same units); worded as a minimum for a minimum
  rule;
* *override*: for an area below a source root that persistently violates one rule,
  a dedicated role as a conscious exception; never for a whole source root (a
  configured path, or a package directly below one), which would silence the rule
  for the code it exists for;
* *tighten*: a rule with no red and no near-limit (yellow) event for a long stretch
  of recorded history can take a lower limit.

Ranked by evidence (how often the feedback came back), and shown up to a limit with
a count of what was left out. A directory name is in a sentence as ``agent_data`` (the
sentences are meant for rules files an agent reads, and are printed to a terminal); in
a snippet it is exact, as a TOML string.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Iterable, Optional

from ..analysis.discovery import default_paths
from ..catalogue import UNKNOWN_RULE, lookup
from ..config import Settings
from ..history.aggregate import Aggregate
from ..history.recurrence import Pattern
from ..history.view import HistoryView
from ..plugins import is_minimum
from .sanitize import agent_data, toml_string

__all__ = ["Suggestion", "recommend", "recommend_text", "recommend_json", "DEFAULT_TOP"]

CLEAN_DAYS = 30
DEFAULT_TOP = 10


@dataclass(frozen=True)
class Suggestion:
    kind: str
    rule_key: str
    text: str
    evidence: str
    snippet: Optional[str] = None
    weight: int = 0  # the evidence's size, for ranking


def _days_between(first: Optional[str], last: Optional[str]) -> int:
    if not first or not last:
        return 0
    return (datetime.fromisoformat(last[:10]) - datetime.fromisoformat(first[:10])).days


def _tighten(aggregate: Aggregate, settings: Settings) -> list[Suggestion]:
    span = _days_between(aggregate.oldest, aggregate.newest)
    if span < CLEAN_DAYS:
        return []
    seen = {stats.rule_key for stats in aggregate.fingerprints.values()}
    found = []
    for key, limit in _tightenable(settings, seen):
        lower = max(1, int(limit * 0.8))
        found.append(Suggestion(
            "tighten", key, f"{key} has been clean for {span} days of recorded history; consider tightening it",
            f"0 red and 0 yellow events for {key} between {(aggregate.oldest or '')[:10]} and "
            f"{(aggregate.newest or '')[:10]}",
            f"[tool.ladder.thresholds]\n{key} = {lower}",
        ))
    return found


def _tightenable(settings: Settings, seen: set[str]) -> list[tuple[str, float]]:
    """App limits of maximum rules that never appeared in the history."""
    limits = settings.thresholds.get("app", {})
    return [(key, limit) for key, limit in sorted(limits.items())
            if limit is not None and key not in seen and not is_minimum(key) and not key.startswith("exported_")]


def _merged(patterns: Iterable[Pattern]) -> list[list[Pattern]]:
    """Patterns of one rule over the same units (an area that is all of a role's code) as one group."""
    groups: dict[tuple[str, frozenset[str]], list[Pattern]] = {}
    for p in patterns:
        groups.setdefault((p.rule_key, p.members), []).append(p)
    return [sorted(group, key=lambda p: p.kind) for group in groups.values()]


def _subject(group: list[Pattern]) -> str:
    """``Code in src/parser`` / ``App code`` / ``Code in src/parser (app code)``."""
    areas = [agent_data(p.group) for p in group if p.kind == "area"]
    roles = [f"{agent_data(p.group)} code" for p in group if p.kind == "role"]
    if areas and roles:
        return f"Code in {', '.join(areas)} ({' and '.join(roles)})"
    return f"Code in {', '.join(areas)}" if areas else " and ".join(roles).capitalize()


def _constraint(group: list[Pattern]) -> Suggestion:
    p = group[0]
    rule = lookup(p.rule_key)
    what = rule.what if rule else p.rule_key
    if is_minimum(p.rule_key):
        text = (f"{_subject(group)} repeatedly falls below the minimum {what} ({p.rule_key}); "
                "add to it as that code changes rather than lowering the minimum.")
    else:
        text = f"{_subject(group)} repeatedly exceeds {p.rule_key}; require decomposition before extending it."
    return Suggestion("constraint", p.rule_key, text, _evidence(p), weight=p.recurrences)


def _evidence(p: Pattern) -> str:
    return f"{p.describe()} ({p.fingerprints} units, {p.occurrences} occurrences)"


def _source_roots(settings: Settings) -> set[str]:
    """The configured paths and the directories directly below them: the code a rule exists for."""
    roots = {path.strip("/") or "." for path in default_paths(settings)}
    below = {f"{root}/{child.name}" for root in roots if root != "." for child in _subdirs(settings.root / root)}
    top = {child.name for child in _subdirs(settings.root)} if "." in roots else set()
    return roots | below | top | {"."}


def _subdirs(path: Any) -> list[Any]:
    try:
        return [child for child in path.iterdir() if child.is_dir()]
    except OSError:
        return []


def _override(p: Pattern) -> Suggestion:
    return Suggestion(
        "override", p.rule_key,
        f"If {agent_data(p.group)} is meant to exceed {p.rule_key} (generated or vendored code, a deliberate "
        "exception), say so with a role instead of letting the violations recur",
        _evidence(p), f"[tool.ladder.roles]\nscript = [{toml_string(p.group + '/**')}]", weight=p.recurrences)


def recommend(aggregate: Aggregate, view: HistoryView, settings: Settings) -> list[Suggestion]:
    """Every suggestion, the best evidenced first."""
    roots = _source_roots(settings)
    known = [p for p in view.patterns if p.rule_key != UNKNOWN_RULE]  # no advice on a rule nobody has
    found = [_constraint(group) for group in _merged(known)]
    found += [_override(p) for p in known
              if p.kind == "area" and p.group not in roots and not is_minimum(p.rule_key)]
    ranked = sorted(found, key=lambda s: (-s.weight, s.rule_key, s.kind, s.text))
    return ranked + _tighten(aggregate, settings)


def _shown(suggestions: list[Suggestion], top: int) -> tuple[list[Suggestion], int]:
    return suggestions[:top], max(0, len(suggestions) - top)


def recommend_json(suggestions: list[Suggestion], top: int = DEFAULT_TOP) -> str:
    shown, left_out = _shown(suggestions, top)
    return json.dumps({"schema": "ladder-recommend", "version": 1, "left_out": left_out,
                       "suggestions": [{k: v for k, v in asdict(s).items() if k != "weight"} for s in shown]},
                      indent=2)


def recommend_text(suggestions: list[Suggestion], top: int = DEFAULT_TOP) -> str:
    if not suggestions:
        return "no suggestions: the history shows no persistent pattern and no long clean stretch yet"
    shown, left_out = _shown(suggestions, top)
    out: list[Any] = []
    for number, s in enumerate(shown, 1):
        out += [f"{number}. [{s.kind}] {s.text}", f"   evidence: {s.evidence}"]
        if s.snippet:
            out += ["   pyproject.toml:"] + [f"     {line}" for line in s.snippet.splitlines()]
    if left_out:
        out.append(f"{left_out} more with less evidence left out (ladder recommend --top {len(suggestions)})")
    return "\n".join(out)
