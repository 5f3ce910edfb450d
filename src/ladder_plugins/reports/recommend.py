"""``ladder recommend``: human-reviewable suggestions derived from the history.

Never edits a file. Each suggestion carries its evidence (counts, days) and, where one
applies, a ready-to-paste ``pyproject.toml`` snippet:

* *tighten*: a rule with no red and no near-limit (yellow) event for a long stretch
  of recorded history can take a lower limit;
* *override*: an area that persistently violates one rule gets either a dedicated
  role (a conscious exception) or, better, a design constraint;
* *constraint*: a sentence for design documents and agent rules files.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Optional

from ..config import Settings
from ..history.aggregate import Aggregate
from ..history.view import HistoryView

__all__ = ["Suggestion", "recommend", "recommend_text", "recommend_json"]

CLEAN_DAYS = 30


@dataclass(frozen=True)
class Suggestion:
    kind: str
    rule_key: str
    text: str
    evidence: str
    snippet: Optional[str] = None


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
            f"0 red and 0 yellow events for {key} between {aggregate.oldest[:10]} and {aggregate.newest[:10]}",
            f"[tool.ladder.thresholds]\n{key} = {lower}",
        ))
    return found


def _tightenable(settings: Settings, seen: set[str]) -> list[tuple[str, float]]:
    """App limits of maximum rules that never appeared in the history."""
    limits = settings.thresholds.get("app", {})
    return [(key, limit) for key, limit in sorted(limits.items())
            if limit is not None and key not in seen and key != "min_assertions" and not key.startswith("exported_")]


def _area_suggestions(view: HistoryView) -> list[Suggestion]:
    found = []
    for p in view.patterns:
        if p.kind != "area":
            continue
        evidence = f"{p.occurrences} occurrences in {p.files} files ({p.fingerprints} units)"
        found.append(Suggestion(
            "constraint", p.rule_key,
            f"Code in {p.group} repeatedly exceeds {p.rule_key}; require decomposition before extending it.",
            evidence))
        found.append(Suggestion(
            "override", p.rule_key,
            f"If {p.group} is meant to exceed {p.rule_key} (generated or vendored code, a deliberate exception), "
            "say so with a role instead of letting the violations recur",
            evidence, f'[tool.ladder.roles]\nscript = ["{p.group}/**"]'))
    return found


def _role_constraints(view: HistoryView) -> list[Suggestion]:
    return [Suggestion("constraint", p.rule_key,
                       f"{p.group.capitalize()} code repeatedly exceeds {p.rule_key}; require decomposition.",
                       f"{p.occurrences} occurrences in {p.files} files")
            for p in view.patterns if p.kind == "role"]


def recommend(aggregate: Aggregate, view: HistoryView, settings: Settings) -> list[Suggestion]:
    return _area_suggestions(view) + _role_constraints(view) + _tighten(aggregate, settings)


def recommend_json(suggestions: list[Suggestion]) -> str:
    return json.dumps({"schema": "ladder-recommend", "version": 1,
                       "suggestions": [asdict(s) for s in suggestions]}, indent=2)


def recommend_text(suggestions: list[Suggestion]) -> str:
    if not suggestions:
        return "no suggestions: the history shows no persistent pattern and no long clean stretch yet"
    out: list[Any] = []
    for number, s in enumerate(suggestions, 1):
        out += [f"{number}. [{s.kind}] {s.text}", f"   evidence: {s.evidence}"]
        if s.snippet:
            out += ["   pyproject.toml:"] + [f"     {line}" for line in s.snippet.splitlines()]
    return "\n".join(out)
