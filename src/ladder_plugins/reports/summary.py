"""``ladder summary``: hotspots (current and resolved), patterns, worst areas and roles, per-day trend.

A current hotspot shows the value the code has now; a resolved one (fixed, or its
unit gone) is listed apart with what was last seen; a hotspot known from history
(its occurrences all before the adoption point) is listed, labelled as the gate labels
it; the per-day counts are the fingerprints the day's last run saw, not how many
events were written. A hotspot's dates are its first and last occurrence, as the gate
says them.
"""

from __future__ import annotations

import json
from typing import Any

from ..catalogue import bound_text, number, plural
from ..history.gate import KNOWN_TAIL
from ..history.view import HistoryView
from .sanitize import clean, md_escape

__all__ = ["summary_text", "summary_json", "summary_markdown", "value_text", "value_sentence", "last_seen_text",
           "last_text"]

_TREND = "per day (fingerprints red / yellow in the day's last run, occurrences):"


def value_sentence(view: Any, rec: Any) -> str:
    """What the code is now, or, for a view not checked against the code, what was last seen and when: the
    brief's and the rules block's words."""
    now = view.now_of(rec)
    if now is not None:
        return f"is {number(now.actual)} against a limit of {number(now.limit)}"
    return (f"was {number(rec.last_actual)} against a limit of {number(rec.last_limit)} when last seen "
            f"on {_day(rec.last_seen)}")


def _day(ts: Any) -> str:
    return (ts or "-")[:10]


def value_text(view: HistoryView, r: Any) -> str:
    """``now 22 (> 15)`` from the code, or ``last seen 22 (> 15) on <day>`` when it was not checked."""
    from ..plugins import is_minimum

    minimum = is_minimum(r.rule_key)
    now = view.now_of(r)
    if now is not None:
        return f"now {number(now.actual)} ({bound_text(now.limit, minimum=minimum)})"
    return f"last seen {number(r.last_actual)} ({bound_text(r.last_limit, minimum=minimum)}) on {_day(r.last_seen)}"


def last_seen_text(r: Any) -> str:
    """``25 on 2026-11-03``: a resolved hotspot's last value, and when."""
    return f"{number(r.last_actual)} on {_day(r.last_seen)}"


def summary_json(view: HistoryView) -> str:
    return json.dumps(view.to_json(), indent=2)


def _section(title: str, lines: list[str]) -> list[str]:
    return ["", title] + (lines or ["  none"])


def _where(r: Any) -> str:
    """``src/a.py::price cognitive_max``; a file rule's is the file alone, ``src/models.py file_lines_max``."""
    return f"{clean(r.path)}::{clean(r.unit)} {r.rule_key}" if r.unit else f"{clean(r.path)} {r.rule_key}"


def last_text(r: Any) -> str:
    """The day of a hotspot's last occurrence (the gate's ``last``), or of its last sighting where the
    occurrences' times are not known."""
    return _day(r.last_occurrence or r.last_seen)


def _hotspot_text(view: HistoryView, r: Any) -> str:
    known = "" if r.triggered else f"; {KNOWN_TAIL}"
    return (f"  {_where(r)}: {value_text(view, r)}, {plural(r.occurrences, 'occurrence')} on "
            f"{plural(r.distinct_days, 'day')}, first {_day(r.first_seen)}, last {last_text(r)}{known}")


def _resolved_text(r: Any) -> str:
    return f"  {_where(r)}: no longer violates (last seen {last_seen_text(r)}, after {r.occurrences} occurrences)"


def _pattern_text(p: Any) -> str:
    return f"  {p.rule_key} in {p.kind} {clean(p.group)}: {p.describe()}"


def _day_text(day: str, counts: dict[str, int]) -> str:
    return f"  {day}: {counts.get('red', '-')} / {counts.get('yellow', '-')} / {counts.get('occurrences', 0)}"


def _text_sections(view: HistoryView) -> list[tuple[str, list[str]]]:
    known = f", {len(view.known)} known from history" if view.known else ""
    sections = [(f"hotspots ({len(view.hotspots)}{known}):", [_hotspot_text(view, r) for r in view.hotspots])]
    if view.resolved:
        sections.append((f"resolved hotspots ({len(view.resolved)}):", [_resolved_text(r) for r in view.resolved]))
    return sections + [
        (f"patterns ({len(view.patterns)}):", [_pattern_text(p) for p in view.patterns]),
        ("worst areas (occurrences):", [f"  {clean(a)}: {n}" for a, n in view.areas[:5]]),
        ("by role (occurrences):", [f"  {r}: {n}" for r, n in view.roles]),
        (_TREND, [_day_text(d, c) for d, c in view.trend]),
    ]


def summary_text(view: HistoryView) -> str:
    head = (f"history: {view.sources}, {view.oldest or '-'} .. {view.newest or '-'} "
            f"(occurrences counted by {view.count_mode})")
    return "\n".join([head] + [line for title, lines in _text_sections(view) for line in _section(title, lines)])


def _md_table(head: list[str], rows: list[list[Any]]) -> list[str]:
    if not rows:
        return ["none", ""]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows] + [""]


def _hotspot_row(view: HistoryView, r: Any) -> list[Any]:
    return [r.path, r.unit or "(file)", r.rule_key, value_text(view, r), r.occurrences, r.distinct_days,
            _day(r.first_seen), last_text(r), "recurring" if r.triggered else KNOWN_TAIL]


def _md_sections(view: HistoryView) -> list[tuple[str, list[str], list[list[Any]]]]:
    days = [[d, c.get("red", "-"), c.get("yellow", "-"), c.get("occurrences", 0)] for d, c in view.trend]
    sections = [("Hotspots", ["file", "unit", "rule", "value", "occurrences", "days", "first", "last", "status"],
                 [_hotspot_row(view, r) for r in view.hotspots])]
    if view.resolved:
        sections.append(("Resolved hotspots", ["file", "unit", "rule", "last seen", "occurrences"],
                         [[r.path, r.unit or "(file)", r.rule_key, last_seen_text(r), r.occurrences]
                          for r in view.resolved]))
    return sections + [
        ("Patterns", ["rule", "in", "group", "came back", "files"],
         [[p.rule_key, p.kind, p.group, p.recurrences, p.files] for p in view.patterns]),
        ("Worst areas", ["area", "occurrences"], [list(a) for a in view.areas[:5]]),
        ("Per day", ["day", "red", "yellow", "occurrences"], days),
    ]


def summary_markdown(view: HistoryView) -> str:
    lines = ["## ladder summary", "", f"{view.sources}, occurrences counted by {view.count_mode}; per day: "
             "fingerprints red and yellow in the day's last run.", ""]
    for title, head, rows in _md_sections(view):
        lines += [f"### {title}", ""] + _md_table(head, rows)
    return "\n".join(lines).rstrip() + "\n"
