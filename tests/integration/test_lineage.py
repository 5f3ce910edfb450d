"""Lineage: a unit keeps its past when it moves to another file or name (issue 28).

Every repository is real, built in the test with commits dated on chosen days; the
front ends run as real subprocesses.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.git import PYPROJECT, commit, git, nested, needs_git, new_repo, recording_git
from tests.helpers.reports import ladder

pytestmark = needs_git

LATER = "2026-11-05T12:00:00Z"
PRICING = "src/shop/pricing.py"
EVERY_HOTSPOT = "\n[tool.ladder.recurrence]\nhotspot_min_count = 1\nhotspot_min_days = 1\n"
#: unit -> (its file and name after the move, how its body changes in the move commit)
MOVES = {
    "moved": ("src/shop/a.py", "moved", 0),  # to another module, unchanged
    "renamed_too": ("src/shop/b.py", "cost", 0),  # to another module under another name
    "edited": ("src/shop/c.py", "edited", 1),  # with one statement added on the way: nearly identical
    "rewritten": ("src/shop/d.py", "rewritten", 3),  # a rewrite: three nesting levels more, a new unit
    "twice": ("src/shop/e.py", "twice", 0),  # then on from e.py to f.py as twice_again: a chain of moves
    "in_place": ("src/shop/pricing.py", "in_place_cost", 0),  # renamed in its own file
}


def _body(name: str, depth: int, change: int) -> str:
    """``change`` 1 adds one statement, 3 nests three levels deeper."""
    return nested(name, depth + 3, 0) if change == 3 else nested(name, depth, change)


def _pricing(units: dict[str, str]) -> str:
    return "\n\n".join(units.values()) if units else "X = 1\n"


def _move(unit: str, staying: dict[str, str]) -> dict[str, str]:
    """The files of the commit that moves ``unit`` out of pricing.py, where ``staying`` stay."""
    path, name, change = MOVES[unit]
    if path == PRICING:
        return {PRICING: _pricing({**staying, unit: _body(name, 6, change)})}
    return {PRICING: _pricing(staying), path: _body(name, 6, change)}


@pytest.fixture(scope="module")
def moves(tmp_path_factory):
    """Six units over the limit edited on 1 and 2 November in pricing.py; on 3 November each moves in a
    commit of its own (so no two candidates meet in one commit; the one renamed in place last; one moves on
    again); on 4 November each is edited where it is."""
    repo = new_repo(tmp_path_factory.mktemp("lineage") / "shop")
    commit(repo, {PRICING: _pricing({unit: nested(unit, 5) for unit in MOVES})}, "2026-11-01T10:00:00Z", "day 1")
    staying = {unit: nested(unit, 6) for unit in MOVES}
    commit(repo, {PRICING: _pricing(staying)}, "2026-11-02T10:00:00Z", "day 2")
    for n, unit in enumerate(MOVES):
        del staying[unit]
        commit(repo, _move(unit, staying), f"2026-11-03T10:{n:02d}:00Z", f"move {unit}")
    commit(repo, {"src/shop/e.py": "X = 1\n", "src/shop/f.py": nested("twice_again", 6)}, "2026-11-03T11:00:00Z",
           "move twice again")
    day4 = {path: _body(name, 7, change) for path, name, change in MOVES.values()}
    commit(repo, {**day4, "src/shop/e.py": "X = 1\n", "src/shop/f.py": nested("twice_again", 7)},
           "2026-11-04T10:00:00Z", "day 4")
    return repo


def _gate(repo: Path, *args: str, **env: str) -> dict:
    done = ladder(["check", "--no-record", "--format", "json", *args], repo, LADDER_NOW=LATER, CI="", **env)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["gate"]


def _cognitive(gate: dict) -> dict[str, tuple[int, str]]:
    """Unit -> (occurrences, first day) of its cognitive hotspot."""
    return {f["unit"]: (f["occurrences"], f["first_seen"][:10]) for f in gate["failures"] + gate["known"]
            if f["rule"] == "cognitive_max"}


def test_a_moved_unit_keeps_its_occurrences(moves, tmp_path):
    (moves / "pyproject.toml").write_text(PYPROJECT + EVERY_HOTSPOT)
    try:
        found = _cognitive(_gate(moves, "--no-cache"))
    finally:
        git(moves, "checkout", "--", "pyproject.toml")
    assert found == {
        "moved": (3, "2026-11-01"),  # 1 and 2 November in pricing.py, 4 November in a.py: the move is no edit
        "cost": (3, "2026-11-01"),  # a rename on the way is no edit either
        "edited": (4, "2026-11-01"),  # the edit made in the move is one more version
        "rewritten": (2, "2026-11-03"),  # not alike enough: a new unit, its past is not its own
        "in_place_cost": (3, "2026-11-01"),
        "twice_again": (3, "2026-11-01"),
    }


def test_the_inherited_past_makes_the_hotspot(moves):
    """With the default thresholds (3 versions on 2 days) the moved units fail; without their past they had 2."""
    failures = _gate(moves, "--no-cache")["failures"]
    assert {f["unit"] for f in failures} == {"moved", "cost", "edited", "in_place_cost", "twice_again"}
    moved = next(f for f in failures if f["unit"] == "moved" and f["rule"] == "cognitive_max")
    assert moved["path"] == "src/shop/a.py" and "(first 2026-11-01, last 2026-11-04)" in moved["message"]


def test_a_warm_run_follows_the_moves_from_the_cache(moves, tmp_path):
    """A warm run answers the same reading no blob: the whole answer, and (flake8 asks file by file, so not
    the whole answer) each blob's units and each move found are cached."""
    fresh = tmp_path / "clone"
    git(moves.parent, "clone", "-q", str(moves), str(fresh))
    path, calls = recording_git(tmp_path)
    cold = ladder(["check", "--no-record"], fresh, LADDER_NOW=LATER, CI="", PATH=path)
    reads_blobs = re.compile(r"cat-file --batch$", re.MULTILINE)  # --batch-check only asks for sizes
    assert reads_blobs.search(calls.read_text()) and "LAD900 [hotspot] 'cost'" in cold.stdout, cold.stdout
    calls.unlink()
    warm = ladder(["check", "--no-record"], fresh, LADDER_NOW=LATER, CI="", PATH=path)
    assert warm.stdout == cold.stdout
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "LAD900", "--ladder-no-record", "src"],
                            cwd=fresh, text=True, capture_output=True, timeout=300,
                            env={**os.environ, "LADDER_NOW": LATER, "CI": "", "PATH": path})
    assert not reads_blobs.search(calls.read_text())
    assert "src/shop/b.py:1:1: LAD900 'cost': recurring hotspot for cognitive 42 > 15; 3 versions over the limit " \
           "on 3 days" in flake8.stdout, flake8.stdout + flake8.stderr


@pytest.fixture(scope="module")
def branch(tmp_path_factory):
    """main has three units over the limit; the branch moves one, moves and renames one, moves one and makes
    it worse after the move, and adds a new one."""
    repo = new_repo(tmp_path_factory.mktemp("lineage-new") / "shop")
    commit(repo, {"src/shop/pricing.py": _pricing({u: nested(u, 6) for u in ("price", "legacy", "grows")})},
           "2026-11-01T10:00:00Z", "legacy code")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"src/shop/pricing.py": _pricing({}), "src/shop/prices.py": nested("price", 6),
                  "src/shop/costs.py": nested("old_cost", 6) + "\n\n" + nested("grows", 6)},
           "2026-11-02T10:00:00Z", "split pricing")
    commit(repo, {"src/shop/costs.py": nested("old_cost", 6) + "\n\n" + nested("grows", 7),
                  "src/shop/added.py": nested("fresh", 6)}, "2026-11-03T10:00:00Z", "feature work")
    return repo


def test_mode_new_does_not_call_a_moved_unit_new(branch):
    gate = _gate(branch, "--mode", "new", "--base", "main")
    reasons = {(f["unit"], f["reason"]) for f in gate["failures"]}
    assert reasons == {("fresh", "new"), ("grows", "worse")}
    grows = next(f for f in gate["failures"] if f["unit"] == "grows" and f["rule"] == "cognitive_max")
    assert (grows["base_actual"], grows["actual"]) == (36, 42)
