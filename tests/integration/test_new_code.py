"""``mode = "new"``: fail on what a branch adds or makes worse, never on what it inherited.

The repository is real: a main branch with legacy violations, a feature branch that
adds, worsens, improves, renames and leaves alone, and main moving on after the
branch point (so the base must be the merge base, not main's tip).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.git import commit, git, nested, needs_git, new_repo
from tests.helpers.reports import ladder

pytestmark = needs_git

NOW = "2026-11-05T12:00:00Z"
WHAT_FAILS = {("brand_new", "new"), ("worse_later", "worse"), ("fresh", "new")}


def _pricing(*units: str) -> str:
    return "\n\n".join(units)


@pytest.fixture(scope="module")
def branch(tmp_path_factory):
    repo = new_repo(tmp_path_factory.mktemp("new") / "shop")
    commit(repo, {"src/shop/pricing.py": _pricing(nested("legacy", 6), nested("worse_later", 5), nested("better", 7)),
                  "src/shop/old_name.py": nested("moved", 6)}, "2026-11-01T10:00:00Z", "legacy code")
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "mv", "src/shop/old_name.py", "src/shop/new_name.py")
    commit(repo, {"src/shop/pricing.py": _pricing(nested("legacy", 6), nested("worse_later", 7), nested("better", 6),
                                                  nested("brand_new", 6)),
                  "src/shop/added.py": nested("fresh", 6)}, "2026-11-03T10:00:00Z", "feature work")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"src/shop/pricing.py": _pricing(nested("legacy", 6), nested("worse_later", 9), nested("better", 7))},
           "2026-11-04T10:00:00Z", "main moves on")
    git(repo, "checkout", "-q", "feature")
    return repo


def _failures(done: subprocess.CompletedProcess) -> list[dict]:
    return json.loads(done.stdout)["gate"]["failures"]


def test_new_fails_on_what_the_branch_added_or_made_worse(branch):
    done = ladder(["check", "--no-record", "--mode", "new", "--format", "json"], branch, LADDER_NOW=NOW)
    failures = _failures(done)
    assert done.returncode == 1 and {(f["unit"], f["reason"]) for f in failures} == WHAT_FAILS
    assert {f["code"] for f in failures} == {"LAD901"} and len(failures) == 9  # three rules each


def test_worse_says_the_value_at_the_base(branch):
    failures = _failures(ladder(["check", "--no-record", "--mode", "new", "--format", "json"], branch,
                                LADDER_NOW=NOW))
    worse = {f["rule"]: f for f in failures if f["reason"] == "worse"}
    assert {rule: (f["base_actual"], f["actual"]) for rule, f in worse.items()} == {
        "cyclomatic_max": (16, 22), "cognitive_max": (30, 42), "abc_max": (30.59, 42.76)}
    cognitive = worse["cognitive_max"]
    assert f"was 30 at the base {cognitive['base'][:12]}" in cognitive["message"]


def test_the_default_base_is_the_merge_base_with_the_default_branch(branch):
    merge_base = git(branch, "merge-base", "HEAD", "main").strip()
    failures = _failures(ladder(["check", "--no-record", "--mode", "new", "--format", "json"], branch,
                                LADDER_NOW=NOW))
    assert {f["base"] for f in failures} == {merge_base}
    tip = _failures(ladder(["check", "--no-record", "--mode", "new", "--base", "main", "--format", "json"], branch,
                           LADDER_NOW=NOW))
    assert {(f["unit"], f["reason"]) for f in tip} == {("brand_new", "new"), ("fresh", "new")}  # 7 < 9 at main's tip


def test_the_base_comes_from_the_configuration_too(branch):
    pyproject = branch / "pyproject.toml"
    original = pyproject.read_text()
    pyproject.write_text(original.replace('paths = ["src"]', 'paths = ["src"]\nmode = "new"\nbase = "main"'))
    try:
        tip = _failures(ladder(["check", "--no-record", "--format", "json"], branch, LADDER_NOW=NOW))
    finally:
        pyproject.write_text(original)
    assert {(f["unit"], f["reason"]) for f in tip} == {("brand_new", "new"), ("fresh", "new")}


def test_text_output_says_why_each_fails(branch):
    done = ladder(["check", "--no-record", "--mode", "new"], branch, LADDER_NOW=NOW)
    assert done.stdout.count(": LAD901 [worse] worse violation: ") == 3
    assert "FAILED: 9 new violations" not in done.stdout and "FAILED: 6 new violations, 3 worse violations" in done.stdout
    assert "LAD901 [new] new violation: cognitive complexity of 'brand_new' is 36 (> 15), not violated at the base" \
        in done.stdout


def _flake8(cwd: Path, *args: str, select: str = "LAD9") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--select", select, "--ladder-no-record", *args, "src"],
                          cwd=cwd, text=True, capture_output=True, env={**os.environ, "LADDER_NOW": NOW}, timeout=300)


def test_flake8_reports_new_violations_as_lad901(branch):
    done = _flake8(branch, "--ladder-mode", "new", "-j", "2")
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 9 and all(" LAD901 " in line for line in lines), done.stdout
    assert {line.split("'")[1] for line in lines} == {unit for unit, _ in WHAT_FAILS}
    assert not _flake8(branch, "--ladder-mode", "recurrence").stdout


def test_pytest_fails_the_files_with_new_violations(branch):
    done = subprocess.run([sys.executable, "-m", "pytest", "--ladder", "--ladder-mode", "new", "--ladder-no-record",
                           "-p", "no:cacheprovider", "-q", "-rf"], cwd=branch, text=True, capture_output=True,
                          env={**os.environ, "LADDER_NOW": NOW}, timeout=300)
    failed = {line.split("::")[0].split()[-1] for line in done.stdout.splitlines() if line.startswith("FAILED")}
    assert failed == {"src/shop/pricing.py", "src/shop/added.py"}, done.stdout
    assert "LAD901 worse violation" in done.stdout


def test_a_base_that_names_no_commit_is_a_usage_error(branch):
    done = ladder(["check", "--mode", "new", "--base", "no-such-branch"], branch, LADDER_NOW=NOW)
    assert done.returncode == 2 and "base 'no-such-branch' does not name a commit" in done.stderr
    linted = _flake8(branch, "--ladder-mode", "new", "--ladder-base", "no-such-branch", select="LAD")
    assert "LAD000" in linted.stdout and "no-such-branch" in linted.stdout


def test_on_the_default_branch_only_uncommitted_changes_are_new(branch, tmp_path):
    clone_dir = tmp_path / "main"
    git(tmp_path, "clone", "-q", "--branch", "main", str(branch), str(clone_dir))
    git(clone_dir, "remote", "set-head", "origin", "main")  # the remote's own HEAD is the feature branch
    clean = ladder(["check", "--no-record", "--mode", "new"], clone_dir, LADDER_NOW=NOW)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    pricing = clone_dir / "src/shop/pricing.py"
    pricing.write_text(pricing.read_text() + "\n\n" + nested("unsaved", 6))
    edited = _failures(ladder(["check", "--no-record", "--mode", "new", "--format", "json"], clone_dir,
                              LADDER_NOW=NOW))
    assert {(f["unit"], f["reason"]) for f in edited} == {("unsaved", "new")}


def test_mode_new_without_git_warns_and_keeps_the_recurrence_gate(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\npaths = ["src"]\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(nested("fresh", 6))
    done = ladder(["check", "--no-record", "--mode", "new"], tmp_path, LADDER_NOW=NOW)
    assert done.returncode == 0 and "LAD901" not in done.stdout  # nothing to compare with: nothing is new
    assert "mode new needs git to find the base; only the recurrence gate applies" in done.stderr
