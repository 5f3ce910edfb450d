"""``ladder report --html`` on real histories, and the page as a headless Chromium renders it.

The browser tests use Chromium's own command line (``--dump-dom`` for the rendered DOM,
``--screenshot`` for the pixels) and skip, saying why, where no Chromium is installed;
``.ci/run`` installs it. The PNG is read with zlib and struct alone.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Optional

import pytest

from ladder_plugins.history.aggregate import Aggregate
from ladder_plugins.history.view import build_view
from ladder_plugins.reports.html import html_report

from tests.helpers.history import at, make_event, project_settings
from tests.helpers.reports import FINAL, STEPS, demo_copy, ladder, three_edits

SERIES_COLOURS = {"red": (0xD9, 0x2D, 0x20), "yellow": (0xF0, 0xB4, 0x29), "occurrences": (0x2E, 0x6F, 0xDB)}
CURRENT_HEAD = ["severity", "file", "line", "unit", "rule", "actual", "limit", "vs limit"]
HOTSPOT_HEAD = ["file", "unit", "rules", "line", "as of", "occurrences", "days", "first", "last", "status"]


class Page(HTMLParser):
    """What a test reads of a page: headings, tables (cells with their class), SVG shapes and labels."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.tables: list[list[list[tuple[str, str]]]] = []
        self.shapes: list[tuple[str, dict]] = []
        self.labels: list[str] = []
        self._open: Optional[tuple[str, str, list[str]]] = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag in ("th", "td", "h1", "h2", "text"):
            self._open = (tag, dict(attrs).get("class") or "", [])
        elif tag in ("svg", "circle", "rect", "polyline"):
            self.shapes.append((tag, dict(attrs)))
        else:
            self._structure(tag)

    def _structure(self, tag: str) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])

    def handle_data(self, data):
        if self._open is not None:
            self._open[2].append(data)

    def handle_endtag(self, tag):
        if self._open is not None and self._open[0] == tag:
            self._close(*self._open)

    def _close(self, tag: str, css: str, parts: list[str]) -> None:
        self._open, text = None, "".join(parts).strip()
        if tag in ("th", "td"):
            self.tables[-1][-1].append((text, css))
        elif tag == "text":
            self.labels.append(text)
        else:
            self.headings.append(text)

    def table(self, head: list[str]) -> list[list[str]]:
        """The rows (cell texts) of the table with this header."""
        found = next(t for t in map(texts, self.tables) if t[0] == head)
        return found[1:]

    def visible_dots(self) -> list[dict]:
        """The chart's circles with a radius, inside its viewBox."""
        _, _, width, height = map(float, self.svg()["viewbox"].split())
        return [a for t, a in self.shapes if t == "circle" and inside(a, width, height)]

    def svg(self) -> dict:
        return next(a for t, a in self.shapes if t == "svg")


def texts(table: list[list[tuple[str, str]]]) -> list[list[str]]:
    return [[text for text, _ in row] for row in table]


def inside(circle: dict, width: float, height: float) -> bool:
    """A dot that shows: a radius, its centre in the viewBox."""
    return float(circle["r"]) > 0 and 0 <= float(circle["cx"]) <= width and 0 <= float(circle["cy"]) <= height


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """The demo project after three checks over two days, and its page."""
    project = three_edits(tmp_path_factory.mktemp("html") / "shop")
    page = project.parent / "report.html"
    done = ladder(["report", "--html", str(page)], project, LADDER_NOW=FINAL)
    assert done.returncode == 0, done.stderr
    return page


@pytest.fixture(scope="module")
def one_day(tmp_path_factory):
    """The demo project checked once, and its page later that day."""
    project = demo_copy(tmp_path_factory.mktemp("html-one-day") / "shop")
    assert ladder(["check"], project, LADDER_NOW=STEPS[0][0]).returncode in (0, 1)  # recorded, gate either way
    page = project.parent / "report.html"
    assert ladder(["report", "--html", str(page)], project, LADDER_NOW="2026-11-02T12:00:00Z").returncode == 0
    return page


def assert_self_contained(text: str) -> None:
    assert "<script" not in text.lower() and "@import" not in text and "@font-face" not in text
    assert not re.search(r"""\b(src|href|xlink:href)\s*=\s*["']?\s*(https?:)?//""", text, re.IGNORECASE)
    assert not re.search(r"url\(", text) and "https://" not in text and "http://" not in text


def test_a_one_day_history_draws_visible_dots_in_a_self_contained_page(one_day):
    text = one_day.read_text()
    assert_self_contained(text)
    page = Page(text)
    assert {a["fill"] for a in page.visible_dots()} == {"#d92d20", "#f0b429", "#2e6fdb"}
    assert "2026-11-02" in page.labels and "count" in page.labels and "day (UTC)" in page.labels


def test_current_violations_come_red_first_then_worst_first(shop):
    rows = Page(shop.read_text()).table(CURRENT_HEAD)
    severities = [row[0] for row in rows]
    assert severities == sorted(severities, key=lambda s: s != "red") and {"red", "yellow"} <= set(severities)
    for severity in ("red", "yellow"):
        past = [float(row[7].rstrip("%")) for row in rows if row[0] == severity]
        assert past == sorted(past, reverse=True)
    assert ["red", "src/shop/pricing.py", "1", "price", "LAD102 cognitive_max", "25", "15", "+67%"] in rows


def test_hotspots_come_first_one_row_per_unit_with_the_current_values(shop):
    page = Page(shop.read_text())
    assert page.headings[1:3] == ["Recurring hotspots", "Current violations"]
    assert page.table(HOTSPOT_HEAD) == [["src/shop/pricing.py", "price", "cyclomatic 12 > 10, cognitive 25 > 15, ABC "
                                         "20.32 > 17", "1", "now", "3", "2", "2026-11-02", "2026-11-03", "recurring"]]


def test_a_unit_whose_rules_recurred_differently_says_each_count(tmp_path):
    settings = project_settings(tmp_path)
    events = [make_event(unit_hash=f"v{i}", when=at(i), actual=20.0) for i in range(3)]
    events += [make_event("src/a.py::f::abc_max", unit_hash=f"v{i}", when=at(i + 1), actual=30.0)
               for i in range(2)]
    rules = settings.replace(recurrence=dataclasses.replace(settings.recurrence, hotspot_min_count=2))
    [row] = Page(html_report(build_view(Aggregate().add_all(events), rules, at(4)), "shop")).table(HOTSPOT_HEAD)
    assert row[2:] == ["cognitive 20 > 15, ABC 30 > 15 (2 versions over the limit on 2 days)", "1", "last seen", "3",
                       "3", "2026-11-01", "2026-11-03", "recurring"]


def test_numeric_headers_are_aligned_as_their_cells(shop):
    for table in Page(shop.read_text()).tables:
        head = [css for _, css in table[0]]
        assert all([css for _, css in row] == head for row in table[1:]), table[0]
    assert "th.n" in shop.read_text() and "td.n,th.n{text-align:right" in shop.read_text()


def test_an_unchecked_view_says_its_values_are_last_seen(tmp_path):
    settings = project_settings(tmp_path)
    aggregate = Aggregate().add_all(make_event(unit_hash=f"v{i}", when=at(i), actual=20.0 + i) for i in range(3))
    page = Page(html_report(build_view(aggregate, settings, at(4)), "shop"))
    assert page.table(HOTSPOT_HEAD)[0][:5] == ["src/a.py", "f", "cognitive 22 > 15", "1", "last seen"]
    assert "Current violations" in page.headings


def test_a_long_history_has_evenly_spaced_date_labels(tmp_path):
    settings = project_settings(tmp_path)
    aggregate = Aggregate().add_all(make_event(unit_hash=f"v{i}", when=at(i)) for i in range(0, 43, 3))
    page = Page(html_report(build_view(aggregate, settings, at(43)), "shop"))
    dates = [label for label in page.labels if re.fullmatch(r"\d{4}-\d\d-\d\d", label)]
    assert dates == ["2026-11-01", "2026-11-07", "2026-11-13", "2026-11-19", "2026-11-25", "2026-12-01",
                     "2026-12-07", "2026-12-13"]
    assert len(page.visible_dots()) == 3 * 15


# --- in a real browser -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """Run headless Chromium on a file; skipped, saying why, where none is installed."""
    exe = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    if exe is None:
        pytest.skip("no chromium, chromium-browser or google-chrome on PATH (.ci/run installs chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")

    def run(page: Path, *flags: str) -> str:
        done = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                               *flags, page.resolve().as_uri()], capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


def test_chromium_renders_the_tables_and_the_labelled_axes(chromium, shop):
    page = Page(chromium(shop, "--dump-dom"))
    assert {"Current violations", "Trend per day", "Recurring hotspots", "Patterns"} <= set(page.headings)
    assert ["red", "src/shop/legacy.py", "1", "legacy_report", "LAD102 cognitive_max", "25", "15", "+67%"] in \
        page.table(CURRENT_HEAD)
    assert ["src/shop/pricing.py", "price", "cyclomatic 12 > 10, cognitive 25 > 15, ABC 20.32 > 17", "1", "now"] in \
        [row[:5] for row in page.table(HOTSPOT_HEAD)]
    assert {"2026-11-02", "2026-11-03", "count", "day (UTC)"} <= set(page.labels)
    assert len(page.visible_dots()) == 6 and sum(t == "polyline" for t, _ in page.shapes) == 3


def test_chromium_paints_the_one_day_chart_in_every_series_colour(chromium, one_day, tmp_path):
    """The chart alone (no legend, whose swatches share the colours), screenshotted: every series shows."""
    text = one_day.read_text()
    chart = tmp_path / "chart.html"
    chart.write_text('<!DOCTYPE html><html><body style="margin:0;background:#fff"><div style="width:940px">'
                     + text[text.index("<svg"):text.index("</svg>") + 6] + "</div></body></html>")
    shot = tmp_path / "chart.png"
    chromium(chart, f"--screenshot={shot}", "--window-size=960,320", "--hide-scrollbars")
    bpp, rows = read_png(shot.read_bytes())
    for name, colour in SERIES_COLOURS.items():
        assert count_near(rows, bpp, colour) >= 12, f"no {name} dot painted"


# --- a PNG reader: zlib and struct only --------------------------------------------------------------------


def read_png(data: bytes) -> tuple[int, list[bytearray]]:
    """The bytes per pixel and the unfiltered rows of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks = list(png_chunks(data[8:]))
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, interlace) == (8, 0) and colour in (2, 6)
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    bpp = {2: 3, 6: 4}[colour]
    stride, rows = width * bpp + 1, [bytearray(width * bpp)]
    for y in range(height):
        rows.append(unfilter(raw[y * stride], raw[y * stride + 1:(y + 1) * stride], rows[-1], bpp))
    return bpp, rows[1:]


def png_chunks(data: bytes):
    offset = 0
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        yield kind, data[offset + 8:offset + 8 + length]
        offset += 12 + length


def paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


PREDICTORS = (lambda a, b, c: 0, lambda a, b, c: a, lambda a, b, c: b, lambda a, b, c: (a + b) // 2, paeth)


def unfilter(kind: int, line: bytes, prev: bytes, bpp: int) -> bytearray:
    out = bytearray(len(line))
    predict = PREDICTORS[kind]
    for i, value in enumerate(line):
        left, upper_left = (out[i - bpp], prev[i - bpp]) if i >= bpp else (0, 0)
        out[i] = (value + predict(left, prev[i], upper_left)) & 0xFF
    return out


def count_near(rows: list[bytearray], bpp: int, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    """Pixels within ``tolerance`` of ``colour`` on every channel (alpha, if any, ignored)."""
    return sum(all(abs(p - c) <= tolerance for p, c in zip(row[x:x + 3], colour))
               for row in rows for x in range(0, len(row), bpp))


def test_the_trend_draws_no_line_across_weeks_with_no_data(tmp_path):
    settings = project_settings(tmp_path)
    days = [0, 1, 2, 3, 60, 61, 62]  # then nothing for two months
    aggregate = Aggregate().add_all(make_event(unit_hash=f"v{i}", when=at(i)) for i in days)
    page = html_report(build_view(aggregate, settings, at(63)), "shop")
    lines = re.findall(r'<polyline[^>]*stroke="#2e6fdb"[^>]*points="([^"]*)"', page)
    xs = [[float(x) for x in re.findall(r"([\d.]+),", line)] for line in lines]
    dots = sorted(float(x) for x in re.findall(r'<circle cx="([\d.]+)"[^>]*fill="#2e6fdb"', page))
    last_before, first_after = dots[3], dots[4]  # the gap's two sides
    assert len(xs) == 2 and not any(min(x) <= last_before and max(x) >= first_after for x in xs), lines
