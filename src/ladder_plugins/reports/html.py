"""``ladder report --html FILE``: one self-contained HTML page.

No scripts, no fonts, no network: inline CSS. First the recurring hotspots, one row per
unit with every rule it breaks (actual against limit), its line, counts and dates, and
whether the gate fails on it or knows it from history; then the current code's
violations (red first, worst first), an inline SVG chart of the per-day trend (labelled
axes, a dot on every day so that a one-day history still shows; its days cover git's
versions where git was read), the resolved hotspots, patterns and per-area tables.
Every value is HTML-escaped after control and bidi characters are stripped.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from datetime import date
from typing import Callable, Iterable, Optional, Sequence

from ..analysis.report import Violation
from ..analysis.thresholds import RED
from ..catalogue import number
from ..history.gate import KNOWN_TAIL, measured
from ..history.recurrence import Recurrence
from ..history.view import HistoryView
from .sanitize import clean
from .summary import last_seen_text, last_text

__all__ = ["html_report", "FeedbackSection"]

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:980px;color:#1d2430;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #dde2ea}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;
border-bottom:1px solid #eef1f5}th{background:#f4f6f9}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.legend span{display:inline-block;margin-right:1rem}.sw{display:inline-block;width:.8rem;height:.8rem;
margin-right:.3rem;vertical-align:middle}.muted{color:#667085}svg{width:100%;height:auto}
.sev{display:inline-block;padding:0 .45rem;border-radius:.6rem;font-size:.85em;font-weight:600}
.sev-red{background:#fee4e2;color:#b42318}.sev-yellow{background:#fef0c7;color:#93370d}
"""
_CHART_LABEL = ("trend per day: the x axis is the day (UTC), the y axis a count: fingerprints red and yellow "
                "in the day's last run, and the day's occurrences")
_NUMERIC = ' class="n"'  # a numeric column's header and cells alike

# The chart's geometry, in SVG user units: the plot sits inside these margins.
_W, _H = 940, 290
_LEFT, _RIGHT, _TOP, _BOTTOM = 58, 30, 14, 62
_PAD = 16  # inside the plot on both sides, so the first and last day's dots stay clear of the y axis
_EVERY_DAY = 10  # a history spanning at most this many days has every day labelled
_LABELS = 8  # a longer one has this many evenly spaced date labels
_GAP_DAYS = 7  # days without data after which a series' line is broken (a weekend without runs is not)
_AXIS, _GRID = "#98a2b3", "#e4e7ec"


@dataclass(frozen=True)
class _Series:
    """One line of the chart; ``missing`` is drawn where a day lacks the count (``None``: no dot)."""

    name: str
    color: str
    missing: Optional[int]
    radius: float  # decreasing, so that dots of equal value show as rings, none hidden


_SERIES = (_Series("red", "#d92d20", None, 6.0), _Series("yellow", "#f0b429", None, 4.5),
           _Series("occurrences", "#2e6fdb", 0, 3.0))


@dataclass(frozen=True)
class _Tag:
    """A cell shown with one of the page's own classes (never a class taken from the data)."""

    text: str
    css: str


def _e(value: object) -> str:
    return html.escape(clean(str(value)), quote=True)


def _cell(value: object, numeric: bool) -> str:
    css = _NUMERIC if numeric else ""
    if isinstance(value, _Tag):
        return f'<td{css}><span class="{value.css}">{_e(value.text)}</span></td>'
    return f"<td{css}>{_e(value)}</td>"


def _table(head: Sequence[str], rows: Iterable[Sequence[object]], numeric: Sequence[int] = ()) -> str:
    """A table whose numeric columns, header included, are right-aligned."""
    rows = list(rows)
    if not rows:
        return '<p class="muted">none</p>'
    cells = "".join(f'<th scope="col"{_NUMERIC if i in numeric else ""}>{_e(h)}</th>' for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(_cell(c, i in numeric) for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


# --- the chart ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Frame:
    """How days (offsets from the first) and counts map onto the plot."""

    span: int  # days from the first to the last shown
    top: int  # the y axis's highest tick
    step: int  # between the y axis's ticks

    def x(self, offset: int) -> float:
        inner = _W - _LEFT - _RIGHT - 2 * _PAD
        return _LEFT + _PAD + (inner / 2 if self.span == 0 else inner * offset / self.span)

    @property
    def dot(self) -> float:
        """How much larger the dots of a short history are: few marks, room for big ones."""
        return 1.6 if self.span < _EVERY_DAY else 1.0

    def y(self, value: float) -> float:
        height = _H - _TOP - _BOTTOM
        return _TOP + height - value / self.top * height


def _count_step(highest: int) -> int:
    """1, 2 or 5 times a power of ten: whole counts, three to five ticks up the y axis."""
    raw = max(highest, 1) / 4
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _frame(offsets: Sequence[int], trend: Sequence[tuple[str, dict[str, int]]]) -> _Frame:
    highest = max([1] + [counts.get(s.name) or 0 for _, counts in trend for s in _SERIES])
    step = _count_step(highest)
    return _Frame(span=max(offsets), top=step * math.ceil(highest / step), step=step)


def _timeline(days: Sequence[str]) -> tuple[list[int], Callable[[int], str]]:
    """Each day's offset from the first and the label of an offset: by calendar date, so a gap in the
    history shows as a gap; by position should a day from the history not be a date."""
    try:
        ordinals = [date.fromisoformat(day).toordinal() for day in days]
    except ValueError:
        ordinals = []
    if not ordinals or ordinals != sorted(ordinals):
        return list(range(len(days))), lambda offset: days[offset]
    first = ordinals[0]
    return [o - first for o in ordinals], lambda offset: date.fromordinal(first + offset).isoformat()


def _day_ticks(span: int) -> list[int]:
    """Every day of a short history; evenly spaced days of a long one, the first and the last included."""
    if span + 1 <= _EVERY_DAY:
        return list(range(span + 1))
    return sorted({round(k * span / (_LABELS - 1)) for k in range(_LABELS)})


def _y_axis(frame: _Frame) -> str:
    ticks = "".join(
        f'<line x1="{_LEFT}" y1="{frame.y(v):.1f}" x2="{_W - _RIGHT}" y2="{frame.y(v):.1f}" stroke="{_GRID}"/>'
        f'<text x="{_LEFT - 8}" y="{frame.y(v) + 4:.1f}" font-size="11" text-anchor="end">{v}</text>'
        for v in range(0, frame.top + 1, frame.step))
    middle = (_TOP + _H - _BOTTOM) / 2
    return (f'<line x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" y2="{frame.y(0):.1f}" stroke="{_AXIS}"/>{ticks}'
            f'<text transform="translate(16 {middle:.0f}) rotate(-90)" font-size="12" text-anchor="middle">'
            f"count</text>")


def _x_axis(frame: _Frame, label: Callable[[int], str]) -> str:
    base = frame.y(0)
    ticks = "".join(
        f'<line x1="{frame.x(o):.1f}" y1="{base:.1f}" x2="{frame.x(o):.1f}" y2="{base + 5:.1f}" stroke="{_AXIS}"/>'
        f'<text x="{frame.x(o):.1f}" y="{base + 19:.1f}" font-size="11" text-anchor="middle">{_e(label(o))}</text>'
        for o in _day_ticks(frame.span))
    return (f'<line x1="{_LEFT}" y1="{base:.1f}" x2="{_W - _RIGHT}" y2="{base:.1f}" stroke="{_AXIS}"/>{ticks}'
            f'<text x="{(_LEFT + _W - _RIGHT) / 2:.0f}" y="{_H - 10}" font-size="12" text-anchor="middle">'
            f"day (UTC)</text>")


_Point = tuple[float, float, str]


def _points(series: _Series, trend: Sequence[tuple[str, dict[str, int]]], offsets: Sequence[int],
            frame: _Frame) -> list[_Point]:
    """Where the series' dots go, and what each says on hover."""
    found = ((offset, counts.get(series.name, series.missing), day) for offset, (day, counts) in zip(offsets, trend))
    return [(frame.x(offset), frame.y(value), f"{day}: {series.name} {value}")
            for offset, value, day in found if value is not None]


def _line(series: _Series, points: Sequence[_Point], frame: _Frame) -> str:
    """The series' line, broken where more than ``_GAP_DAYS`` days have no data: a line across weeks
    without a run would show counts nobody measured."""
    gap = _GAP_DAYS * (frame.x(1) - frame.x(0))
    runs: list[list[_Point]] = []
    for point in points:
        if not runs or point[0] - runs[-1][-1][0] > gap:
            runs.append([])
        runs[-1].append(point)
    return "".join(f'<polyline fill="none" stroke="{series.color}" stroke-width="2" points="'
                   + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in run) + '"/>' for run in runs if len(run) > 1)


def _dots(series: _Series, points: Sequence[_Point], scale: float) -> str:
    return "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{series.radius * scale:.1f}" fill="{series.color}" '
                   f'stroke="#fff" stroke-width="1"><title>{_e(text)}</title></circle>' for x, y, text in points)


def _chart(trend: Sequence[tuple[str, dict[str, int]]]) -> str:
    if not trend:
        return '<p class="muted">no events inside the retention window</p>'
    offsets, label = _timeline([day for day, _ in trend])
    frame = _frame(offsets, trend)
    drawn = [(s, _points(s, trend, offsets, frame)) for s in _SERIES]
    marks = "".join(_line(s, p, frame) for s, p in drawn) + "".join(_dots(s, p, frame.dot) for s, p in drawn)
    return (f'<svg role="img" aria-label="{_CHART_LABEL}" viewBox="0 0 {_W} {_H}">'
            f"{_y_axis(frame)}{_x_axis(frame, label)}{marks}</svg>{_legend()}")


def _legend() -> str:
    spans = "".join(f'<span><i class="sw" style="background:{s.color}"></i>{s.name}</span>' for s in _SERIES)
    return f'<div class="legend">{spans}</div>'


# --- the tables --------------------------------------------------------------------------------------------


def _worst_first(v: Violation) -> tuple[bool, bool, float, str, int, str]:
    past = v.rule.past_limit(v.actual, v.limit)
    return v.severity != RED, past is None, -(past or 0.0), v.path, v.line, v.rule.key


def _violation_row(v: Violation) -> list[object]:
    past = v.rule.past_limit(v.actual, v.limit)
    css = f"sev sev-{v.severity}" if v.severity in ("red", "yellow") else "sev"  # the page's classes only
    return [_Tag(v.severity, css), v.path, v.line, v.unit or "(file)", f"{v.code} {v.rule.key}",
            number(v.actual), number(v.limit), _percent(past)]


def _percent(past: Optional[float]) -> str:
    """``+67%`` past the limit, ``-20%`` short of it, ``0%`` at it, ``-`` for a rule with no limit."""
    if past is None:
        return "-"
    return "0%" if round(past, 2) == 0 else f"{past:+.0%}"


def _current(violations: Optional[Sequence[Violation]]) -> str:
    if violations is None:
        return '<h2>Current violations</h2><p class="muted">the current code was not analysed</p>'
    shown = sorted(violations, key=_worst_first)
    reds = sum(v.severity == RED for v in shown)
    table = _table(["severity", "file", "line", "unit", "rule", "actual", "limit", "vs limit"],
                   (_violation_row(v) for v in shown), (2, 5, 6, 7))
    return (f'<h2>Current violations</h2><p class="muted">what the code under the configured paths violates now: '
            f"{_e(reds)} red, {_e(len(shown) - reds)} yellow; red first, then the furthest past its limit first</p>"
            f"{table}")


def _measured(view: HistoryView, r: Recurrence) -> str:
    """``cognitive 25 > 15``: the current code's value against its limit, or the last seen one."""
    now = view.now_of(r)
    actual, limit = (r.last_actual, r.last_limit) if now is None else (now.actual, now.limit)
    return measured(r.rule_key, actual, limit)


def _code(rule_key: str) -> str:
    from ..plugins import rule_of

    rule = rule_of(rule_key)
    return rule.code if rule is not None else rule_key


def _unit_row(view: HistoryView, recs: Sequence[Recurrence]) -> list[object]:
    """One unit's hotspots in one row, its rules in code order; a rule counted differently from the unit's
    most says its own count. The gate fails on the unit when it fails on any of its rules."""
    recs = sorted(recs, key=lambda r: _code(r.rule_key))
    most = max(recs, key=lambda r: (r.occurrences, r.distinct_days))
    rules = ", ".join(_measured(view, r) + ("" if r.describe() == most.describe() else f" ({r.describe()})")
                      for r in recs)
    now = view.now_of(recs[0])
    line, when = (recs[0].last_line, "last seen") if now is None else (now.line, "now")
    first = min((r.first_seen for r in recs if r.first_seen), default="-")
    return [recs[0].path, recs[0].unit or "(file)", rules, line, when, most.occurrences, most.distinct_days,
            first[:10], max(last_text(r) for r in recs),
            "recurring" if any(r.triggered for r in recs) else KNOWN_TAIL]


def _hotspots(view: HistoryView) -> str:
    note = ("one row per unit; actual, limit and line from the current code" if view.checked
            else "one row per unit; the code was not checked: actual, limit and line as last seen")
    units: dict[tuple[str, Optional[str]], list[Recurrence]] = {}
    for rec in view.hotspots:  # the view's order: those the gate fails on first
        units.setdefault((rec.path, rec.unit), []).append(rec)
    table = _table(["file", "unit", "rules", "line", "as of", "occurrences", "days", "first", "last", "status"],
                   (_unit_row(view, recs) for recs in units.values()), (3, 5, 6))
    return f'<h2>Recurring hotspots</h2><p class="muted">{note}</p>{table}'


def _resolved(view: HistoryView) -> str:
    if not view.resolved:
        return ""
    table = _table(["file", "unit", "rule", "last seen", "occurrences"],
                   ([r.path, r.unit or "(file)", r.rule_key, last_seen_text(r), r.occurrences] for r in view.resolved),
                   (4,))
    return f'<h2>Resolved hotspots</h2><p class="muted">no longer violating in the current code</p>{table}'


def _trend(view: HistoryView) -> str:
    return (f'<h2>Trend per day</h2><p class="muted">x axis: the day (UTC); y axis: a count, per day, of the '
            f"fingerprints red and yellow in the day's last run, and of the day's occurrences</p>{_chart(view.trend)}")


@dataclass(frozen=True)
class FeedbackSection:
    """The feedback ladder in a few numbers: items per level now, and the items due for promotion
    (id, topic, level now, recommended level)."""

    state: str
    per_level: tuple[int, int, int, int]
    due: tuple[tuple[str, str, int, int], ...]


def _ladder(section: Optional[FeedbackSection]) -> str:
    if section is None:
        return ""
    rows = ([f"{n} {name}", count] for (n, name), count in zip(_LEVELS, section.per_level))
    levels = _table(["level", "items"], rows, (1,))
    due = _table(["id", "feedback", "level now", "recommended"], section.due, (2, 3))
    return (f'<h2>Feedback ladder</h2><p class="muted">tracked in {_e(section.state)}; promotions due: '
            f"{len(section.due)}</p>{levels}<h3>Promotions due</h3>{due}")


_LEVELS = ((1, "review comment"), (2, "documentation"), (3, "tool design"), (4, "linter/test"))


def html_report(view: HistoryView, project: str, violations: Optional[Sequence[Violation]] = None,
                feedback: Optional[FeedbackSection] = None) -> str:
    """The page; ``violations``: what the current code violates, ``None`` when it was not analysed;
    ``feedback``: the feedback ladder's section, left out when ``None``."""
    pats = _table(["rule", "in", "group", "came back", "files"],
                  ([p.rule_key, p.kind, p.group, p.recurrences, p.files] for p in view.patterns), (3, 4))
    areas = _table(["area", "occurrences"], view.areas, (1,))
    roles = _table(["role", "occurrences"], view.roles, (1,))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>ladder report: {_e(project)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>ladder report: {_e(project)}</h1>"
        f'<p class="muted">{_e(view.sources)}, {_e(view.oldest or "-")} to {_e(view.newest or "-")}; '
        f"occurrences counted by {_e(view.count_mode)}; generated {_e(view.now)}</p>"
        f"{_hotspots(view)}{_current(violations)}{_trend(view)}{_resolved(view)}<h2>Patterns</h2>{pats}"
        f"<h2>By area</h2>{areas}<h2>By role</h2>{roles}{_ladder(feedback)}</body></html>\n"
    )
