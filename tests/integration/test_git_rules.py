"""What counts as recurrence from git: mechanical commits, the cap, shallow clones, mode new's branch, dates.

Every repository is real, built in the test with commits dated on chosen days and
authored by chosen people; the front ends run as real subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.git import PYPROJECT, clone, commit, git, git_env, nested, needs_git, new_repo
from tests.helpers.reports import ladder

pytestmark = needs_git

DAYS = ("2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04")
LATER = "2026-11-05T12:00:00Z"
NOT_CI = {"CI": ""}  # the suite may run in CI: each test says which it means


def _check(repo: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return ladder(["check", "--no-record", *args], repo, **{"LADDER_NOW": LATER, **NOT_CI, **env})


def _gate(repo: Path, **env: str) -> dict:
    return json.loads(_check(repo, "--format", "json", **env).stdout)["gate"]


def _price(depth: int, extra: int = 0) -> str:
    return nested("price", depth, extra)


def _by(repo: Path, author: str, email: str, when: str, message: str = "change") -> None:
    """Commit what is in the work tree as ``author``."""
    env = {**git_env(when), "GIT_AUTHOR_NAME": author, "GIT_AUTHOR_EMAIL": email}
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, check=True, env=env)


def _edits(repo: Path, days: int = 3) -> None:
    """price() made worse on each of ``days`` days: a chronic hotspot after the adoption commit."""
    for n in range(days):
        commit(repo, {"src/shop/pricing.py": _price(4 + n)}, f"{DAYS[n]}T10:00:00Z", f"edit {n}")


def _sweep(repo: Path, when: str, files: int = 25) -> None:
    """A sweep (an annotation or pyupgrade run): every module touched, price()'s body among them."""
    pricing = repo / "src/shop/pricing.py"
    changed = {f"src/shop/m{i}.py": f"X: int = {i}\n" for i in range(files)}
    changed["src/shop/pricing.py"] = pricing.read_text().replace("    total = 0\n", "    total: int = 0\n")
    commit(repo, changed, when, "style: reformat everything")


def _unit(gate: dict, name: str = "price", rule: str = "cognitive_max") -> dict:
    return next(f for f in gate["failures"] + gate["known"] if f["unit"] == name and f["rule"] == rule)


def _occurrences(repo: Path, recurrence: str = "") -> int:
    """price()'s cognitive occurrences, with every occurrence a hotspot so the report lists it."""
    (repo / "pyproject.toml").write_text(PYPROJECT + "\n[tool.ladder.recurrence]\nhotspot_min_count = 1\n"
                                                     f"hotspot_min_days = 1\n{recurrence}\n")
    return _unit(_gate(repo))["occurrences"]


@pytest.fixture
def modules(tmp_path):
    """A repository with 25 small modules besides pricing.py, so a sweep can touch more than 20 files."""
    repo = new_repo(tmp_path / "shop")
    commit(repo, {f"src/shop/m{i}.py": f"X = {i}\n" for i in range(25)}, "2026-10-31T09:00:00Z", "modules")
    return repo


def test_a_sweep_is_no_occurrence_and_its_version_is_the_next_edits_baseline(modules):
    commit(modules, {"src/shop/pricing.py": _price(4)}, f"{DAYS[0]}T10:00:00Z")
    _sweep(modules, f"{DAYS[1]}T10:00:00Z")
    assert _occurrences(modules) == 1
    pricing = modules / "src/shop/pricing.py"
    edited = pricing.read_text().replace("    return total", "    total = total + 1\n    return total")
    commit(modules, {"src/shop/pricing.py": edited}, f"{DAYS[2]}T10:00:00Z")
    assert _occurrences(modules) == 2  # day 1 and day 3; the sweep's version was the edit's baseline
    assert _occurrences(modules, "sweep_files = 30") == 3  # not a sweep under that setting: a changed setting
    assert _occurrences(modules) == 2  # is never answered from the cache of another


def test_a_commit_in_the_ignore_revs_file_or_the_setting_is_no_occurrence(modules):
    _edits(modules, 2)
    commit(modules, {"src/shop/pricing.py": _price(6)}, f"{DAYS[2]}T10:00:00Z", "annotate")
    annotate = git(modules, "rev-parse", "HEAD").strip()
    assert _check(modules).returncode == 1  # three occurrences on three days
    (modules / ".git-blame-ignore-revs").write_text(f"# annotations\n{annotate}\n")
    assert _check(modules).returncode == 0
    assert _occurrences(modules) == 2
    (modules / ".git-blame-ignore-revs").unlink()
    assert _occurrences(modules, f'ignore_revs = ["{annotate[:10]}"]') == 2
    assert _occurrences(modules) == 3
    (modules / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\nignore_revs = ["not-a-sha"]\n')
    bad = _check(modules)
    assert bad.returncode == 2 and "ignore_revs" in bad.stderr and "Traceback" not in bad.stderr


def test_a_bots_commit_is_no_occurrence(modules):
    _edits(modules, 2)
    (modules / "src/shop/pricing.py").write_text(_price(6))
    _by(modules, "dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", f"{DAYS[2]}T10:00:00Z")
    assert _check(modules).returncode == 0
    assert _occurrences(modules) == 2


def test_the_cap_on_versions_is_said_in_a_warning_and_in_the_verdict(modules):
    _edits(modules, 3)
    (modules / "pyproject.toml").write_text(PYPROJECT + "\n[tool.ladder.recurrence]\ngit_max_commits = 2\n")
    done = _check(modules)
    assert "cut at git_max_commits = 2 (src/shop/pricing.py)" in done.stderr
    assert "1 file(s) cut at git_max_commits = 2" in done.stdout.splitlines()[-1]
    report = json.loads(_check(modules, "--format", "json").stdout)
    assert any("cut at git_max_commits = 2" in w for w in report["warnings"])


def test_days_and_dates_are_the_occurrences_never_the_run(modules):
    """Checked two days after the last commit, unchanged: the last date is the last edit's."""
    _edits(modules, 3)
    failure = _unit(_gate(modules))
    assert failure["last_seen"].startswith(f"{DAYS[2]}T10:00:00") and failure["distinct_days"] == 3
    assert f"3 versions over the limit on 3 days (first {DAYS[0]}, last {DAYS[2]})" in failure["message"]


def _shallow(tmp_path: Path) -> Path:
    source = new_repo(tmp_path / "source")
    _edits(source, 3)
    target = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", source.as_uri(), str(target))
    return target


def test_a_shallow_clone_in_ci_is_an_error_with_the_fix_in_every_front_end(tmp_path):
    shallow = _shallow(tmp_path)
    checked = _check(shallow, CI="true")
    assert checked.returncode == 2 and "fetch-depth: 0" in checked.stderr and "GIT_DEPTH: 0" in checked.stderr
    in_ci = {**os.environ, "CI": "true", "LADDER_NOW": LATER}
    linted = subprocess.run([sys.executable, "-m", "flake8", "--select", "LAD", "--ladder-no-record", "src"],
                            cwd=shallow, capture_output=True, text=True, env=in_ci, timeout=300)
    assert "LAD000" in linted.stdout and "fetch-depth: 0" in linted.stdout, linted.stdout + linted.stderr
    tested = subprocess.run([sys.executable, "-m", "pytest", "--ladder", "--ladder-no-record", "-p",
                             "no:cacheprovider", "-q"], cwd=shallow, capture_output=True, text=True,
                            env=in_ci, timeout=300)
    assert tested.returncode != 0 and "fetch-depth: 0" in tested.stdout + tested.stderr


def test_a_shallow_clone_elsewhere_or_told_to_warn_says_git_was_not_read(tmp_path):
    shallow = _shallow(tmp_path)
    local = _check(shallow)
    assert local.returncode == 0 and local.stderr.count("shallow clone") == 1
    assert "git history not read: shallow clone" in local.stdout.splitlines()[-1]
    (shallow / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\nshallow = "warn"\n')
    warned = _check(shallow, CI="true")
    assert warned.returncode == 0 and "git history not read: shallow clone" in warned.stdout


@pytest.fixture
def legacy(tmp_path):
    """main: a legacy hotspot (edited on three days) and a clean module; git_since = "all"."""
    repo = new_repo(tmp_path / "shop", PYPROJECT + '\n[tool.ladder.recurrence]\ngit_since = "all"\n')
    _edits(repo, 3)
    commit(repo, {"src/shop/other.py": "def fine():\n    return 1\n"}, f"{DAYS[3]}T09:00:00Z", "other")
    git(repo, "checkout", "-q", "-b", "feature")
    return repo


def test_mode_new_fails_a_branch_only_on_hotspots_it_touches(legacy):
    commit(legacy, {"src/shop/other.py": "def fine():\n    return 2\n"}, f"{DAYS[3]}T10:00:00Z", "unrelated")
    untouched = _check(legacy, "--mode", "new", "--base", "main")
    assert untouched.returncode == 0, untouched.stdout
    assert "LAD900 [known] 'price'" in untouched.stdout
    commit(legacy, {"src/shop/pricing.py": _price(8)}, f"{DAYS[3]}T11:00:00Z", "worse")
    touched = _check(legacy, "--mode", "new", "--base", "main")
    assert touched.returncode == 1 and "LAD900 [hotspot] 'price'" in touched.stdout, touched.stdout
    assert "worse than at the base" in touched.stdout and "cognitive was 36" in touched.stdout
    assert "recurrence" in _check(legacy).stdout.splitlines()[-1]  # mode recurrence, git_since all: it fails


def test_the_command_line_overrides_where_occurrences_come_from_and_from_when_they_fail(tmp_path):
    repo = new_repo(tmp_path / "shop", '[project]\nname = "shop"\n')
    _edits(repo, 3)
    commit(repo, {"pyproject.toml": PYPROJECT}, f"{DAYS[3]}T09:00:00Z", "adopt ladder")
    assert _check(repo).returncode == 0  # the default adoption point: after every edit
    everything = _check(repo, "--git-since", "all")
    assert everything.returncode == 1 and "fails on occurrences from all history" in everything.stdout
    assert _check(repo, "--git-since", "all", "--source", "log").returncode == 0  # no log: nothing recurred
    for bad in (["--git-since", "2024-13-45"], ["--source", "nope"]):
        done = _check(repo, *bad)
        assert done.returncode == 2 and "Traceback" not in done.stderr and bad[0] in done.stderr


def test_doctor_says_what_git_history_the_gate_reads(tmp_path):
    shallow = _shallow(tmp_path)
    done = ladder(["doctor"], shallow)
    assert done.returncode == 1 and "git history: not read (shallow clone)" in done.stdout
    assert "problem: this is a shallow clone" in done.stdout and "fetch-depth: 0" in done.stdout
    uncommitted = new_repo(tmp_path / "new", '[project]\nname = "shop"\n')
    (uncommitted / "pyproject.toml").write_text(PYPROJECT)
    said = ladder(["doctor"], uncommitted)
    assert "fails on occurrences from this working tree on ([tool.ladder] is not committed yet)" in said.stdout
    assert "note: [tool.ladder] is not committed yet" in said.stdout
    (uncommitted / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\ngit_since = "v9"\n')
    wrong = ladder(["doctor"], uncommitted)
    assert wrong.returncode == 1 and "'v9' is neither" in wrong.stdout and "Traceback" not in wrong.stderr


def _flake8_hotspots(repo: Path, select: str = "LAD9") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--select", select, "--ladder-no-record", "src"], cwd=repo,
                          capture_output=True, text=True, env={**os.environ, "LADDER_NOW": LATER, **NOT_CI}, timeout=300)


def _pytest_gate(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "--ladder", "--ladder-no-record", "-p", "no:cacheprovider",
                           "-q", "src"], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "LADDER_NOW": LATER, **NOT_CI}, timeout=300)


def test_every_front_end_leaves_mechanical_commits_out(modules):
    """Three edits on three days, the third a sweep, an ignored revision or a bot's: a hotspot nowhere; the same
    edits by a person: a hotspot in ladder check, flake8 and pytest alike."""
    _edits(modules, 2)
    (modules / "src/shop/pricing.py").write_text(_price(6))
    _by(modules, "renovate[bot]", "bot@renovateapp.com", f"{DAYS[2]}T10:00:00Z", "chore(deps): bump")
    for done in (_check(modules), _flake8_hotspots(modules), _pytest_gate(modules)):
        assert "LAD900" not in done.stdout and done.returncode == 0, done.stdout + done.stderr
    (modules / "src/shop/pricing.py").write_text(_price(7))
    _by(modules, "A Person", "person@example.invalid", f"{DAYS[3]}T10:00:00Z", "a real edit")
    for done in (_check(modules), _flake8_hotspots(modules), _pytest_gate(modules)):
        assert "LAD900" in done.stdout and done.returncode == 1, done.stdout + done.stderr


@pytest.mark.parametrize("depths", [(6, 4, 5), (5, 4, 6), (6, 5, 4, 7)])
def test_commits_of_one_second_count_in_historys_order(modules, depths):
    """A rebase gives commits one committer time: their versions are taken in history's order, never their
    hashes' (an improvement compared with the edit after it, not before it)."""
    for depth in depths:
        commit(modules, {"src/shop/pricing.py": _price(depth)}, f"{DAYS[0]}T10:00:00Z", f"depth {depth}")
    expected = sum(1 for n, depth in enumerate(depths) if n == 0 or depth >= depths[n - 1])
    assert _occurrences(modules) == expected


def test_a_git_since_git_does_not_know_is_a_usage_error_in_every_front_end(modules):
    _edits(modules, 3)
    (modules / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\ngit_since = "v9-missing"\n')
    checked = _check(modules)
    assert checked.returncode == 2 and "'v9-missing' is neither" in checked.stderr
    linted = _flake8_hotspots(modules, "LAD")
    assert "LAD000" in linted.stdout and "v9-missing" in linted.stdout, linted.stdout + linted.stderr
    tested = _pytest_gate(modules)
    assert tested.returncode == 4 and "v9-missing" in tested.stderr and "INTERNALERROR" not in tested.stdout


def test_the_adoption_commit_decides_by_history_not_by_its_second(tmp_path):
    """A rebase gives the last edit and the commit that adds [tool.ladder] one committer time: the edit is
    before the adoption point (its ancestor), so the hotspot is known, not failing."""
    repo = new_repo(tmp_path / "shop", '[project]\nname = "shop"\n')
    _edits(repo, 3)
    commit(repo, {"pyproject.toml": PYPROJECT}, f"{DAYS[2]}T10:00:00Z", "adopt ladder")  # the last edit's second
    done = _check(repo)
    assert done.returncode == 0 and "LAD900 [known] 'price'" in done.stdout, done.stdout


def test_mode_new_decides_a_committed_version_by_its_commit_whoever_saw_it_first(tmp_path):
    """On a laptop the check runs before the commit, so the log sees each version first: a version a commit of
    main holds is still not the branch's, as in a fresh clone that has no log."""
    repo = new_repo(tmp_path / "shop")
    for n in range(3):
        (repo / "src/shop/pricing.py").write_text(_price(4 + n))
        ladder(["check"], repo, LADDER_NOW=f"{DAYS[n]}T09:30:00Z", **NOT_CI)
        commit(repo, {}, f"{DAYS[n]}T10:00:00Z", f"edit {n}")
    git(repo, "checkout", "-q", "-b", "feature")
    laptop = _check(repo, "--mode", "new", "--base", "main")
    fresh = _check(clone(repo, tmp_path / "clone"), "--mode", "new", "--base", "origin/main")
    for done in (laptop, fresh):
        assert done.returncode == 0 and "LAD900 [known] 'price'" in done.stdout, done.stdout
        assert "fails on occurrences the branch holds (after the base" in done.stdout


def test_doctor_takes_a_configured_log_only_count_as_a_choice_not_a_problem(tmp_path):
    repo = new_repo(tmp_path / "shop", PYPROJECT + '\n[tool.ladder.recurrence]\ncount = "runs"\n')
    done = ladder(["doctor"], repo)
    assert done.returncode == 0 and "git history: not read (count = \"runs\" reads no git)" in done.stdout
    assert "problem:" not in done.stdout
