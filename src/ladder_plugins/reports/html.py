"""``ladder report --html FILE``: one self-contained HTML page.

No scripts, no fonts, no network: inline CSS and an inline SVG chart of the per-day
trend, then the hotspot, pattern and per-area tables. Every value is HTML-escaped
after control and bidi characters are stripped.
"""

from __future__ import annotations

import html
from typing import Iterable, Sequence

from ..history.view import HistoryView
from .sanitize import clean
from .summary import last_seen_text, value_text

__all__ = ["html_report"]

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:980px;color:#1d2430;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #dde2ea}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;
border-bottom:1px solid #eef1f5}th{background:#f4f6f9}td.n{text-align:right;font-variant-numeric:tabular-nums}
.legend span{display:inline-block;margin-right:1rem}.sw{display:inline-block;width:.8rem;height:.8rem;
margin-right:.3rem;vertical-align:middle}.muted{color:#667085}
"""
_CHART_LABEL = "per day: fingerprints red and yellow in the day's last run, and occurrences"
_SERIES = (("red", "#d92d20"), ("yellow", "#f0b429"), ("occurrences", "#2e6fdb"))


def _e(value: object) -> str:
    return html.escape(clean(str(value)), quote=True)


def _table(head: Sequence[str], rows: Iterable[Sequence[object]], numeric: Sequence[int] = ()) -> str:
    rows = list(rows)
    if not rows:
        return '<p class="muted">none</p>'
    cells = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f'<td class="n">{_e(c)}</td>' if i in numeric else f"<td>{_e(c)}</td>"
                         for i, c in enumerate(row)) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _points(values: Sequence[int], width: int, height: int, top: int) -> list[tuple[float, float]]:
    step = width / max(len(values) - 1, 1)
    return [(40 + i * step, 20 + height - (v / top) * height) for i, v in enumerate(values)]


def _series(values: Sequence[int], color: str, width: int, height: int, top: int) -> str:
    """A line through the days and a dot on each, so that a one-day history still shows."""
    points = _points(values, width, height, top)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>' for x, y in points)
    return f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{line}"/>{dots}'


def _chart(trend: Sequence[tuple[str, dict[str, int]]]) -> str:
    if not trend:
        return '<p class="muted">no events inside the retention window</p>'
    width, height = 880, 200
    top = max([1] + [c.get(name, 0) for _, c in trend for name, _ in _SERIES])
    lines = "".join(_series([c.get(name, 0) for _, c in trend], color, width, height, top) for name, color in _SERIES)
    axis = _axis(width, height, top, trend[0][0], trend[-1][0])
    legend = "".join(f'<span><i class="sw" style="background:{c}"></i>{n}</span>' for n, c in _SERIES)
    return (f'<svg role="img" aria-label="{_CHART_LABEL}" viewBox="0 0 {width + 60} {height + 50}" '
            f'xmlns="http://www.w3.org/2000/svg">{axis}{lines}</svg><div class="legend">{legend}</div>')


def _axis(width: int, height: int, top: int, first: str, last: str) -> str:
    return (f'<line x1="40" y1="{20 + height}" x2="{40 + width}" y2="{20 + height}" stroke="#98a2b3"/>'
            f'<text x="4" y="26" font-size="11">{top}</text><text x="4" y="{20 + height}" font-size="11">0</text>'
            f'<text x="40" y="{40 + height}" font-size="11">{_e(first)}</text>'
            f'<text x="{width - 40}" y="{40 + height}" font-size="11">{_e(last)}</text>')


def _hotspots(view: HistoryView) -> str:
    return _table(["file", "unit", "rule", "value", "occurrences", "days", "first seen", "last seen"],
                  ([r.path, r.unit or "(file)", r.rule_key, value_text(view, r), r.occurrences, r.distinct_days,
                    (r.first_seen or "-")[:10], (r.last_seen or "-")[:10]] for r in view.hotspots), (4, 5))


def _resolved(view: HistoryView) -> str:
    if not view.resolved:
        return ""
    table = _table(["file", "unit", "rule", "last seen", "occurrences"],
                   ([r.path, r.unit or "(file)", r.rule_key, last_seen_text(r), r.occurrences] for r in view.resolved),
                   (4,))
    return f'<h2>Resolved hotspots</h2><p class="muted">no longer violating in the current code</p>{table}'


def html_report(view: HistoryView, project: str) -> str:
    hot, resolved = _hotspots(view), _resolved(view)
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
        f"<h2>Trend per day</h2><p class=\"muted\">fingerprints red and yellow in each day's last run, "
        f"and the day's occurrences</p>{_chart(view.trend)}"
        f"<h2>Recurring hotspots</h2>{hot}{resolved}<h2>Patterns</h2>{pats}"
        f"<h2>By area</h2>{areas}<h2>By role</h2>{roles}</body></html>\n"
    )
