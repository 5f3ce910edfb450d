"""The read side reads what the gate reads: on a real repository, ``summary``, ``brief``, ``report --html`` and
``rules show`` list the hotspots ``ladder check`` fails on, and the ones it knows from history, with no flag.

One repository for the module: ``legacy()`` edited on three days before ``[tool.ladder]`` was committed (a
chronic hotspot known from history), ``price()`` on three days after it (a hotspot that fails); the log's
retention is two days, which git's versions are not cut by. Nothing is recorded, as in a fresh CI clone.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers.git import PYPROJECT, commit, nested, needs_git, new_repo
from tests.helpers.reports import ladder, three_edits
from tests.unit.reports.test_html import Page

pytestmark = needs_git

NOW = "2026-11-06T12:00:00Z"
ENV = {"LADDER_NOW": NOW, "CI": ""}
KNOWN = "known from history; fails on its next edit that leaves it over the limit"
HOTSPOT_HEAD = ["file", "unit", "rules", "line", "as of", "occurrences", "days", "first", "last", "status"]


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    repo = new_repo(tmp_path_factory.mktemp("read-gate") / "shop", pyproject='[project]\nname = "shop"\n')
    for n, day in enumerate(("2026-11-01", "2026-11-02", "2026-11-03")):
        commit(repo, {"src/shop/legacy.py": nested("legacy", 4 + n)}, f"{day}T10:00:00Z", "legacy edit")
    commit(repo, {"pyproject.toml": PYPROJECT + "\n[tool.ladder.history]\nretention_days = 2\n"},
           "2026-11-03T11:00:00Z", "adopt ladder")
    for n, day in enumerate(("2026-11-04", "2026-11-05", "2026-11-06")):
        commit(repo, {"src/shop/pricing.py": nested("price", 4 + n)}, f"{day}T10:00:00Z", "price edit")
    return repo


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    done = ladder(list(args), repo, **ENV)
    assert "Traceback" not in done.stderr and "warning" not in done.stderr, done.stderr
    return done


def _keys(entries: list[dict], rule: str = "rule") -> set[tuple[str, str, str]]:
    return {(e["path"], e["unit"], e[rule]) for e in entries}


@pytest.fixture(scope="module")
def gate(shop) -> dict:
    done = _run(shop, "check", "--no-record", "--format", "json")
    assert done.returncode == 1, done.stdout
    return json.loads(done.stdout)["gate"]


def test_summary_lists_what_the_gate_fails_on_and_what_it_knows(shop, gate):
    failing, known = _keys(gate["failures"]), _keys(gate["known"])
    assert {unit for _, unit, _ in failing} == {"price"} and {unit for _, unit, _ in known} == {"legacy"}
    summary = json.loads(_run(shop, "summary", "--format", "json").stdout)
    hotspots = summary["hotspots"]
    assert _keys(hotspots, "rule_key") == failing | known and len(hotspots) == len(failing) + len(known)
    assert _keys([h for h in hotspots if h["known"]], "rule_key") == known
    assert summary["events"] == 0 and "past versions from git; fails on occurrences since 2026-11-03" in summary["read"]
    counted = {(h["unit"], h["rule_key"], h["occurrences"], h["distinct_days"], h["first_seen"]) for h in hotspots}
    assert counted == {(e["unit"], e["rule"], e["occurrences"], e["distinct_days"], e["first_seen"])
                       for e in gate["failures"] + gate["known"]}  # the gate's numbers, not a recount


def test_summary_text_labels_the_known_hotspots(shop):
    text = _run(shop, "summary").stdout
    assert "hotspots (6, 3 known from history):" in text
    assert f"src/shop/legacy.py::legacy cognitive_max: now 36 (> 15), 3 occurrences on 3 days, first 2026-11-01, " \
           f"last 2026-11-03; {KNOWN}" in text
    assert "src/shop/pricing.py::price cognitive_max: now 36 (> 15), 3 occurrences on 3 days, first 2026-11-04, " \
           "last 2026-11-06\n" in text


def test_the_log_alone_is_an_opt_out_and_from_git_is_still_accepted(shop):
    alone = json.loads(_run(shop, "summary", "--format", "json", "--source", "log").stdout)
    assert alone["hotspots"] == [] and alone["git_versions"] == 0 and alone["read"] == ""
    asked = json.loads(_run(shop, "summary", "--format", "json", "--from-git").stdout)
    assert len(asked["hotspots"]) == 6 and asked["git_versions"] > 0


def test_brief_and_rules_block_name_every_hotspot_of_the_gate(shop, gate):
    brief = _run(shop, "brief", "--top", "10").stdout
    block = _run(shop, "rules", "show").stdout
    named = {f"'{e['unit']}' in {e['path']}: " for e in gate["failures"] + gate["known"]}
    assert len(named) == 2 and all(name in brief and name in block for name in named)


def test_brief_and_rules_block_say_the_known_hotspots_are_known(shop):
    brief = _run(shop, "brief", "--top", "10").stdout.splitlines()
    legacy, price = ([line for line in brief if f"'{unit}'" in line] for unit in ("legacy", "price"))
    assert [line.count("known from history; its next edit that leaves it over the limit fails the run")
            for line in legacy + price] == [1, 1, 1, 0, 0, 0]
    block = _run(shop, "rules", "show").stdout
    assert block.count("### Critical: 'price' in src/shop/pricing.py") == 3
    assert block.count("### Major: 'legacy' in src/shop/legacy.py") == 3
    assert block.count("It is known from history: the recurrence gate (LAD900) does not fail on it yet; its next "
                       "edit that leaves it over the limit fails the run") == 3


def test_the_html_page_gives_one_row_per_unit_first_and_dates_covering_git(shop, tmp_path):
    target = tmp_path / "report.html"
    assert _run(shop, "report", "--html", str(target)).returncode == 0
    page = Page(target.read_text())
    assert page.headings[1] == "Recurring hotspots"  # before the current violations and the trend
    rows = page.table(HOTSPOT_HEAD)
    assert [row[1] for row in rows] == ["price", "legacy"]
    assert rows[0][2] == "cyclomatic 19 > 10, cognitive 36 > 15, ABC 36.67 > 17"
    assert rows[0][5:] == ["3", "3", "2026-11-04", "2026-11-06", "recurring"]
    assert rows[1][5:] == ["3", "3", "2026-11-01", "2026-11-03", KNOWN]
    assert "2026-11-01" in page.labels and "2026-11-06" in page.labels  # git's dates, older than the retention
    assert "2026-11-01T10:00:00.000000Z to 2026-11-06T10:00:00.000000Z" in target.read_text()


def test_without_git_the_log_alone_is_read_as_before(tmp_path):
    project = three_edits(tmp_path / "shop")  # a copy of the demo: in no git work tree
    summary = json.loads(_run(project, "summary", "--format", "json").stdout)
    assert {(h["unit"], h["rule_key"], h["known"]) for h in summary["hotspots"]} == {
        ("price", rule, False) for rule in ("abc_max", "cognitive_max", "cyclomatic_max")}
    assert (summary["events"], summary["git_versions"], summary["read"]) == (33, 0, "")
    assert "33 events, 2026-11-02" in _run(project, "summary").stdout
    assert "'price' in src/shop/pricing.py" in _run(project, "brief").stdout
    assert not (project / ".git").exists()
