"""Recurrence from git: a fresh clone without ``.ladder/`` decides as the checkout with its log.

Every repository here is real, built in the test with commits dated on chosen days;
the three front ends run as real subprocesses.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.git import (DAYS, NOW, PYPROJECT, clone, commit, git, nested, needs_git, new_repo, recording_git,
                               three_days)
from tests.helpers.reports import ladder

pytestmark = needs_git

HOTSPOT = re.compile(r"LAD900 (?:\[hotspot\] )?'([^']+)': recurring hotspot for ([^\n]*?) \(first ")
OWN_COUNT = re.compile(r"(.*?) \(((?:\d+ versions?|red in) .*)\)")


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    return three_days(new_repo(tmp_path_factory.mktemp("git") / "shop"))


def _hotspots(output: str) -> set[str]:
    """``'price' cognitive 36 > 15; 4 versions over the limit on 3 days`` for each rule of each LAD900 entry, whether the
    front end says a unit's rules in one entry (``ladder check``) or one per line (flake8)."""
    found = set()
    for unit, said in HOTSPOT.findall(output):
        rules, _, how = said.partition("; ")
        for rule in rules.split(", "):
            own = OWN_COUNT.fullmatch(rule)
            found.add(f"'{unit}' {own.group(1)}; {own.group(2)}" if own else f"'{unit}' {rule}; {how}")
    return found


def _flake8(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "LAD", *args, "src"], cwd=cwd, text=True,
                          capture_output=True, env={**os.environ, "LADDER_NOW": NOW, **env}, timeout=300)


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "--ladder", "-p", "no:cacheprovider", "-q", *args],
                          cwd=cwd, text=True, capture_output=True, env={**os.environ, "LADDER_NOW": NOW},
                          timeout=300)


def test_a_fresh_clone_gives_every_front_end_the_checkouts_hotspots(checkout, tmp_path):
    laptop = ladder(["check", "--no-record"], checkout, LADDER_NOW=NOW)
    fresh = clone(checkout, tmp_path / "clone")
    assert not (fresh / ".ladder").exists()
    outputs = [ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW), _flake8(fresh, "--ladder-no-record"),
               _pytest(fresh, "--ladder-no-record")]
    expected = _hotspots(laptop.stdout)
    assert laptop.returncode == 1 and len(expected) == 6, laptop.stdout  # price and total (renamed), 3 rules each
    assert {h.split(" ")[0] for h in expected} == {"'price'", "'total'"}
    for done in outputs:
        assert done.returncode == 1, done.stdout + done.stderr
        assert _hotspots(done.stdout) == expected
        assert "warning" not in done.stderr


def _clone_checked_with(checkout: Path, tmp_path: Path, recurrence: str) -> subprocess.CompletedProcess:
    """`ladder check` in a fresh clone whose [tool.ladder.recurrence] table holds ``recurrence``."""
    fresh = clone(checkout, tmp_path / "clone")
    (fresh / "pyproject.toml").write_text(f"{PYPROJECT}\n[tool.ladder.recurrence]\n{recurrence}\n")
    return ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW)


def test_without_git_the_fresh_clone_passes(checkout, tmp_path):
    done = _clone_checked_with(checkout, tmp_path, 'source = "log"')
    assert done.returncode == 0 and "LAD900" not in done.stdout, done.stdout


def test_git_alone_ignores_the_stored_log(checkout, tmp_path):
    """source = "git" on the checkout counts the same as the clone: the log adds nothing git lacks here."""
    (checkout / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\nsource = "git"\n')
    try:
        alone = ladder(["check", "--no-record"], checkout, LADDER_NOW=NOW)
    finally:
        (checkout / "pyproject.toml").write_text(PYPROJECT)
    both = ladder(["check", "--no-record"], checkout, LADDER_NOW=NOW)
    assert _hotspots(alone.stdout) == _hotspots(both.stdout) != set()


def test_uncommitted_edits_are_the_run_itself(checkout, tmp_path):
    """An edit not yet committed is one more occurrence, counted once however often it is checked."""
    fresh = clone(checkout, tmp_path / "clone")
    pricing = fresh / "src/shop/pricing.py"
    pricing.write_text(pricing.read_text().replace("total += 0\n", "total += 0\n    total -= 1\n", 1))
    first = ladder(["check"], fresh, LADDER_NOW=NOW)
    again = ladder(["check"], fresh, LADDER_NOW=NOW)
    assert "'price' cognitive 36 > 15; 4 versions over the limit on 3 days" in _hotspots(first.stdout)
    assert _hotspots(again.stdout) == _hotspots(first.stdout)


def _late_adopter(tmp_path: Path) -> Path:
    """price() edited on three days before [tool.ladder] was committed (on the third day, after the edit)."""
    repo = new_repo(tmp_path / "late", pyproject='[project]\nname = "shop"\n')
    for n, day in enumerate(DAYS):
        commit(repo, {"src/shop/pricing.py": nested("price", 4 + n)}, f"{day}T10:00:00Z")
    commit(repo, {"pyproject.toml": PYPROJECT}, f"{DAYS[2]}T11:00:00Z", "adopt ladder")
    return repo


def _with_recurrence(repo: Path, table: str) -> subprocess.CompletedProcess:
    (repo / "pyproject.toml").write_text(PYPROJECT + f"\n[tool.ladder.recurrence]\n{table}\n")
    return ladder(["check", "--no-record"], repo, LADDER_NOW=NOW)


def test_history_before_adoption_is_known_not_failing_unless_asked(tmp_path):
    """[tool.ladder] added in the last commit: the edits before it were made without the tool, so the chronic
    hotspot is listed as known from the first run, and fails only when asked (git_since) or on its next edit."""
    repo = _late_adopter(tmp_path)
    adopted = ladder(["check", "--no-record"], repo, LADDER_NOW=NOW)
    assert adopted.returncode == 0, adopted.stdout
    assert "LAD900 [known] 'price': recurring hotspot for" in adopted.stdout
    assert "3 versions over the limit on 3 days (first 2026-11-01, last 2026-11-03); known from history; fails on " \
           "its next edit that leaves it over the limit" in adopted.stdout
    assert "1 hotspot known from history" in adopted.stdout.splitlines()[-1]
    assert "history: 3 past versions from git; fails on occurrences since 2026-11-03 (the commit that added " \
           "[tool.ladder])" in adopted.stdout
    known = json.loads(ladder(["check", "--no-record", "--format", "json"], repo, LADDER_NOW=NOW).stdout)["gate"]
    assert known["failures"] == [] and {k["unit"] for k in known["known"]} == {"price"}
    opted_in = _with_recurrence(repo, 'git_since = "all"')
    assert opted_in.returncode == 1 and "'price' cognitive 36 > 15; 3 versions over the limit on 3 days" in _hotspots(
        opted_in.stdout)
    assert _with_recurrence(repo, 'git_since = "2026-11-02"').returncode == 1  # occurrences on 2 and 3 November
    assert _with_recurrence(repo, 'git_since = "2026-11-03T10:30:00Z"').returncode == 0  # none after it
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    assert _with_recurrence(repo, f'git_since = "{first}"').returncode == 1  # a commit: every edit after it
    bad = _with_recurrence(repo, 'git_since = "no-such-tag"')
    assert bad.returncode == 2 and "no-such-tag" in bad.stderr and "Traceback" not in bad.stderr


def test_the_next_edit_of_a_known_hotspot_fails_in_every_front_end(tmp_path):
    repo = _late_adopter(tmp_path)
    pricing = repo / "src/shop/pricing.py"
    pricing.write_text(pricing.read_text().replace("total += 0\n", "total += 0\n    total -= 1\n", 1))
    checked = ladder(["check", "--no-record"], repo, LADDER_NOW=NOW)
    assert checked.returncode == 1 and "LAD900 [hotspot] 'price'" in checked.stdout, checked.stdout
    assert "4 versions over the limit on 3 days" in checked.stdout
    for done in (_flake8(repo, "--ladder-no-record"), _pytest(repo, "--ladder-no-record")):
        assert done.returncode == 1 and "'price' cognitive 36 > 15; 4 versions over the limit on 3 days" in _hotspots(
            done.stdout), done.stdout + done.stderr
    commit(repo, {}, f"{DAYS[2]}T11:30:00Z", "the edit, committed")
    assert ladder(["check", "--no-record"], repo, LADDER_NOW=NOW).returncode == 1  # after the adoption commit


def test_git_max_commits_bounds_the_walk(checkout, tmp_path):
    done = _clone_checked_with(checkout, tmp_path, "git_max_commits = 1")
    assert done.returncode == 0 and "LAD900" not in done.stdout, done.stdout


def test_retention_does_not_bound_what_git_holds(checkout, tmp_path):
    """The log forgets after retention_days; git's history is the evidence however old (said in the verdict)."""
    fresh = clone(checkout, tmp_path / "clone")
    done = ladder(["check", "--no-record"], fresh, LADDER_NOW="2027-03-01T12:00:00Z")  # 118 days later
    assert done.returncode == 1 and "'price' cognitive 36 > 15; 3 versions over the limit on 3 days" in _hotspots(
        done.stdout), done.stdout
    (fresh / "pyproject.toml").write_text(PYPROJECT + "\n[tool.ladder.history]\nretention_days = 30000\n")
    far = ladder(["check", "--no-record"], fresh, LADDER_NOW="2027-03-01T12:00:00Z")  # once made git list nothing
    assert _hotspots(far.stdout) == _hotspots(done.stdout)
    (fresh / "pyproject.toml").write_text(PYPROJECT)  # and that answer, cached, then outlived the setting
    again = ladder(["check", "--no-record"], fresh, LADDER_NOW="2027-03-01T12:00:00Z")
    assert _hotspots(again.stdout) == _hotspots(done.stdout)


def test_a_shallow_clone_is_said_once_with_the_fix(checkout, tmp_path):
    git(tmp_path, "clone", "-q", "--depth", "1", checkout.as_uri(), str(tmp_path / "shallow"))
    done = _flake8(tmp_path / "shallow", "-j", "2", "--ladder-no-record", CI="")
    assert done.stderr.count("shallow clone") == 1 and "fetch-depth: 0" in done.stderr, done.stderr
    assert "LAD900" not in done.stdout  # only one commit fetched: nothing recurred yet


def _no_git_path(tmp_path: Path) -> str:
    """A PATH with this Python but without git."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("python", "ladder"):
        found = Path(sys.executable).parent / name
        if found.exists():
            (bin_dir / name).symlink_to(found)
    return str(bin_dir)


def _one_git_warning(done: subprocess.CompletedProcess) -> bool:
    """The run went on without git: no hotspot (the empty log alone decides), one warning, no traceback."""
    return ("LAD900" not in done.stdout and done.stderr.count("ladder: warning: git") == 1
            and "Traceback" not in done.stderr)


def test_no_git_is_one_warning_and_the_log_decides(checkout, tmp_path):
    fresh = clone(checkout, tmp_path / "clone")
    done = ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW, PATH=_no_git_path(tmp_path))
    assert done.returncode == 0 and _one_git_warning(done), done.stdout + done.stderr
    assert "git is not installed" in done.stderr


def test_a_corrupt_repository_is_one_warning_and_the_log_decides(checkout, tmp_path):
    fresh = clone(checkout, tmp_path / "clone")
    for path in (fresh / ".git" / "objects").rglob("*"):
        if path.is_file() and path.parent.name != "info":
            path.unlink()  # every object gone: the refs name commits git cannot read
    checked = ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW)
    assert checked.returncode == 0 and _one_git_warning(checked), checked.stdout + checked.stderr
    linted = _flake8(fresh, "-j", "2", "--ladder-no-record")
    assert "LAD102" in linted.stdout and _one_git_warning(linted), linted.stdout + linted.stderr


def test_outside_a_repository_git_is_not_asked(tmp_path):
    project = tmp_path / "plain"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT)
    (project / "src" / "a.py").write_text(nested("price", 6))
    quiet = ladder(["check"], project)
    assert quiet.returncode == 0 and "warning" not in quiet.stderr
    (project / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\nsource = "git"\n')
    asked = ladder(["check"], project)
    assert asked.returncode == 0 and asked.stderr.count("not inside a git work tree") == 1, asked.stderr


def test_a_warm_run_reads_no_blob(checkout, tmp_path):
    fresh = clone(checkout, tmp_path / "clone")
    path, calls = recording_git(tmp_path)
    cold = ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW, PATH=path)
    cold_calls = calls.read_text()
    calls.unlink()
    warm = ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW, PATH=path)
    reads_blobs = re.compile(r"cat-file --batch$", re.MULTILINE)  # --batch-check only asks for sizes
    assert reads_blobs.search(cold_calls) and not reads_blobs.search(calls.read_text())
    assert warm.stdout == cold.stdout and _hotspots(warm.stdout)


def test_the_json_report_names_the_evidence_from_git(checkout, tmp_path):
    fresh = clone(checkout, tmp_path / "clone")
    done = ladder(["check", "--no-record", "--format", "json"], fresh, LADDER_NOW=NOW)
    failures = json.loads(done.stdout)["gate"]["failures"]
    price = next(f for f in failures if f["unit"] == "price" and f["rule"] == "cognitive_max")
    assert (price["occurrences"], price["distinct_days"]) == (3, 3)
    assert price["first_seen"].startswith("2026-11-01T10:00:00")  # the commit's time, not a run's


def test_the_read_side_shows_the_chronic_hotspots_git_holds(checkout, tmp_path):
    """A fresh clone reads git as the gate does, with no flag; ``--source log`` is the log alone (empty here)."""
    fresh = clone(checkout, tmp_path / "clone")
    alone = json.loads(ladder(["summary", "--format", "json", "--source", "log"], fresh, LADDER_NOW=NOW).stdout)
    summary = json.loads(ladder(["summary", "--format", "json"], fresh, LADDER_NOW=NOW).stdout)
    assert alone["hotspots"] == [] and alone["git_versions"] == 0
    assert {(h["unit"], h["status"]) for h in summary["hotspots"]} == {("price", "current"), ("total", "current")}
    assert summary["events"] == 0 and summary["git_versions"] > 0
    brief = ladder(["brief"], fresh, LADDER_NOW=NOW).stdout
    assert "'price' in src/shop/pricing.py" in brief and "'total' in src/shop/basket.py" in brief
    page = tmp_path / "report.html"
    ladder(["report", "--html", str(page)], fresh, LADDER_NOW=NOW)
    assert "past versions from git" in page.read_text() and "basket.py" in page.read_text()
    assert not (fresh / ".ladder" / "history").exists()  # reading writes no history


def test_a_cold_walk_in_processes_finds_what_one_process_finds(tmp_path):
    """Enough past versions (3 files x 25 commits) that `ladder check` measures them in worker processes."""
    repo = new_repo(tmp_path / "busy")
    for n in range(25):
        commit(repo, {f"src/shop/m{i}.py": nested(f"f{i}", 5 + (n + i) % 3, extra=n) for i in range(3)},
               f"2026-11-{1 + n // 9:02d}T{10 + n % 9:02d}:00:00Z")
    serial = ladder(["check", "--no-record", "--format", "json", "-j", "1"], repo, LADDER_NOW=NOW)
    shutil.rmtree(repo / ".ladder")
    parallel = ladder(["check", "--no-record", "--format", "json", "-j", "2"], repo, LADDER_NOW=NOW)
    failures = json.loads(serial.stdout)["gate"]["failures"]
    assert len(failures) == 9 and json.loads(parallel.stdout)["gate"]["failures"] == failures
