"""``ladder summary``: hotspots, patterns, worst areas and roles, per-day trend."""

from __future__ import annotations

import json

from .check_report import md_escape
from .history_view import HistoryView
from .render import clean

__all__ = ["summary_text", "summary_json", "summary_markdown"]


def _hotspot_row(r) -> list:
    return [r.path, r.unit or "(file)", r.rule_key, r.occurrences, r.distinct_days,
            (r.first_seen or "-")[:10], (r.last_seen or "-")[:10]]


def summary_json(view: HistoryView) -> str:
    return json.dumps(view.to_json(), indent=2)


def summary_text(view: HistoryView) -> str:
    lines = [f"history: {view.events} events, {view.oldest or '-'} .. {view.newest or '-'} "
             f"(occurrences counted by {view.count_mode})", "", f"hotspots ({len(view.hotspots)}):"]
    lines += [f"  {clean(r.path)}::{clean(r.unit or '(file)')} {r.rule_key}: {r.occurrences} occurrences on "
              f"{r.distinct_days} days, first {(r.first_seen or '-')[:10]}, last {(r.last_seen or '-')[:10]}"
              for r in view.hotspots] or ["  none"]
    lines += ["", f"patterns ({len(view.patterns)}):"]
    lines += [f"  {p.rule_key} in {p.kind} {clean(p.group)}: {p.occurrences} occurrences in {p.files} files"
              for p in view.patterns] or ["  none"]
    lines += ["", "worst areas:"] + [f"  {clean(a)}: {n}" for a, n in view.areas[:5]] or ["  none"]
    lines += ["", "by role:"] + [f"  {r}: {n}" for r, n in view.roles] or ["  none"]
    lines += ["", "per day (red / yellow / occurrences):"]
    lines += [f"  {d}: {c.get('red', 0)} / {c.get('yellow', 0)} / {c.get('occurrences', 0)}" for d, c in view.trend]
    return "\n".join(lines)


def _md_table(head: list[str], rows: list[list]) -> list[str]:
    if not rows:
        return ["none", ""]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows] + [""]


def summary_markdown(view: HistoryView) -> str:
    lines = ["## ladder summary", "", f"{view.events} events, occurrences counted by {view.count_mode}.", "",
             "### Hotspots", ""]
    lines += _md_table(["file", "unit", "rule", "occurrences", "days", "first seen", "last seen"],
                       [_hotspot_row(r) for r in view.hotspots])
    lines += ["### Patterns", ""]
    lines += _md_table(["rule", "in", "group", "occurrences", "files"],
                       [[p.rule_key, p.kind, p.group, p.occurrences, p.files] for p in view.patterns])
    lines += ["### Worst areas", ""] + _md_table(["area", "occurrences"], [list(a) for a in view.areas[:5]])
    lines += ["### Per day", ""]
    lines += _md_table(["day", "red", "yellow", "occurrences"],
                       [[d, c.get("red", 0), c.get("yellow", 0), c.get("occurrences", 0)] for d, c in view.trend])
    return "\n".join(lines).rstrip() + "\n"
