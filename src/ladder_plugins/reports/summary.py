"""``ladder summary``: hotspots, patterns, worst areas and roles, per-day trend."""

from __future__ import annotations

import json
from typing import Any

from ..history.view import HistoryView
from .sanitize import clean, md_escape

__all__ = ["summary_text", "summary_json", "summary_markdown"]


def _hotspot_row(r) -> list:
    return [r.path, r.unit or "(file)", r.rule_key, r.occurrences, r.distinct_days,
            (r.first_seen or "-")[:10], (r.last_seen or "-")[:10]]


def summary_json(view: HistoryView) -> str:
    return json.dumps(view.to_json(), indent=2)


def _section(title: str, lines: list[str]) -> list[str]:
    return ["", title] + (lines or ["  none"])


def _hotspot_text(r: Any) -> str:
    return (f"  {clean(r.path)}::{clean(r.unit or '(file)')} {r.rule_key}: {r.occurrences} occurrences on "
            f"{r.distinct_days} days, first {(r.first_seen or '-')[:10]}, last {(r.last_seen or '-')[:10]}")


def _pattern_text(p: Any) -> str:
    return f"  {p.rule_key} in {p.kind} {clean(p.group)}: {p.occurrences} occurrences in {p.files} files"


def _day_text(day: str, counts: dict[str, int]) -> str:
    return f"  {day}: {counts.get('red', 0)} / {counts.get('yellow', 0)} / {counts.get('occurrences', 0)}"


def _text_sections(view: HistoryView) -> list[tuple[str, list[str]]]:
    return [
        (f"hotspots ({len(view.hotspots)}):", [_hotspot_text(r) for r in view.hotspots]),
        (f"patterns ({len(view.patterns)}):", [_pattern_text(p) for p in view.patterns]),
        ("worst areas:", [f"  {clean(a)}: {n}" for a, n in view.areas[:5]]),
        ("by role:", [f"  {r}: {n}" for r, n in view.roles]),
        ("per day (red / yellow / occurrences):", [_day_text(d, c) for d, c in view.trend]),
    ]


def summary_text(view: HistoryView) -> str:
    head = (f"history: {view.events} events, {view.oldest or '-'} .. {view.newest or '-'} "
            f"(occurrences counted by {view.count_mode})")
    return "\n".join([head] + [line for title, lines in _text_sections(view) for line in _section(title, lines)])


def _md_table(head: list[str], rows: list[list]) -> list[str]:
    if not rows:
        return ["none", ""]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows] + [""]


def _md_sections(view: HistoryView) -> list[tuple[str, list[str], list[list]]]:
    days = [[d, c.get("red", 0), c.get("yellow", 0), c.get("occurrences", 0)] for d, c in view.trend]
    return [
        ("Hotspots", ["file", "unit", "rule", "occurrences", "days", "first seen", "last seen"],
         [_hotspot_row(r) for r in view.hotspots]),
        ("Patterns", ["rule", "in", "group", "occurrences", "files"],
         [[p.rule_key, p.kind, p.group, p.occurrences, p.files] for p in view.patterns]),
        ("Worst areas", ["area", "occurrences"], [list(a) for a in view.areas[:5]]),
        ("Per day", ["day", "red", "yellow", "occurrences"], days),
    ]


def summary_markdown(view: HistoryView) -> str:
    lines = ["## ladder summary", "", f"{view.events} events, occurrences counted by {view.count_mode}.", ""]
    for title, head, rows in _md_sections(view):
        lines += [f"### {title}", ""] + _md_table(head, rows)
    return "\n".join(lines).rstrip() + "\n"
