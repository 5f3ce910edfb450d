"""The README's CI recipes, run: their ``ladder`` commands in a fresh clone with a recurring hotspot.

The blocks are read from the README (``<!-- ci-recipe: NAME -->`` before a fenced
block), so the documented recipe is the one tested.
"""

from __future__ import annotations

import configparser
import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from .helpers.git import NOW, clone, needs_git, new_repo, three_days
from .helpers.reports import ladder

pytestmark = needs_git

README = Path(__file__).resolve().parents[1] / "README.md"
COMMAND = re.compile(r"^::(?:error|warning) file=([^,]+),line=(\d+),col=1,title=([^:]+)::(.+)$")


def recipe(name: str) -> str:
    found = re.search(rf"<!-- ci-recipe: {name} -->\n```\w+\n(.*?)```", README.read_text(), re.S)
    assert found, f"README has no ci-recipe {name}"
    return found.group(1)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A clone, as CI makes it, of a repository whose price() kept violating over three days."""
    base = tmp_path_factory.mktemp("ci")
    return clone(three_days(new_repo(base / "shop")), base / "job")


def _run(command: str, cwd: Path):
    argv = shlex.split(command)
    assert argv[0] == "ladder"
    return ladder(argv[1:], cwd, LADDER_NOW=NOW)


def _github_steps() -> list[dict]:
    return yaml.safe_load(recipe("github"))["ladder"]["steps"]


def _uses(steps: list[dict], action: str) -> list[dict]:
    return [s for s in steps if s.get("uses", "").startswith(action)]


def test_the_github_job_fetches_the_whole_history_and_uploads_sarif():
    steps = _github_steps()
    assert [s["with"]["fetch-depth"] for s in _uses(steps, "actions/checkout")] == [0]  # recurrence from git
    assert [s["with"]["sarif_file"] for s in _uses(steps, "github/codeql-action/upload-sarif")] == ["ladder.sarif"]


def test_the_github_jobs_commands_annotate_and_write_sarif(fresh):
    annotate, sarif = (_run(s["run"], fresh) for s in _github_steps() if s.get("run", "").startswith("ladder "))
    found = [COMMAND.match(line) for line in annotate.stdout.splitlines()]
    assert annotate.returncode == 1 and all(found), annotate.stdout
    assert {m.group(3) for m in found} >= {"LAD900 recurring_hotspot", "LAD102 cognitive_max"}
    report = json.loads((fresh / "ladder.sarif").read_text())
    assert sarif.returncode == 1 and any(r["ruleId"] == "LAD900" for r in report["runs"][0]["results"])


def test_the_gitlab_job_writes_a_code_quality_report(fresh):
    job = yaml.safe_load(recipe("gitlab"))["ladder"]
    assert job["variables"]["GIT_DEPTH"] == 0
    (command,) = [c for c in job["script"] if c.startswith("ladder ")]
    done = _run(command, fresh)
    report = json.loads((fresh / job["artifacts"]["reports"]["codequality"]).read_text())
    assert done.returncode == 1 and {"recurring_hotspot", "cognitive_max"} <= {i["check_name"] for i in report}


def test_the_tox_environment_runs_the_gate(fresh):
    config = configparser.ConfigParser()
    config.read_string(recipe("tox"))
    command = config["testenv:ladder"]["commands"].replace("{posargs}", "").strip()
    done = _run(command, fresh)
    assert done.returncode == 1 and "LAD900 [hotspot]" in done.stdout and ": recurring hotspot for " in done.stdout
