"""The documented CI recipes, run: their ``ladder`` commands in a fresh clone with a recurring hotspot.

The blocks are read from the pages that show them (``<!-- ci-recipe: NAME -->`` before a fenced block): the
site's CI page, which has every recipe, and the README, which shows the GitHub job; so the documented recipe
is the one tested, wherever it is shown.
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

ROOT = Path(__file__).resolve().parents[1]
CI_PAGE = ROOT / "docs" / "how-to" / "ci.md"
PAGES = (CI_PAGE, ROOT / "README.md")
COMMAND = re.compile(r"^::(?:error|warning) file=([^,]+),line=(\d+),col=1,title=([^:]+)::(.+)$")


def recipes(name: str) -> list[str]:
    """Every block marked as the recipe ``name``, the CI page's first (it must have one)."""
    found = [block for page in PAGES
             for block in re.findall(rf"<!-- ci-recipe: {name} -->\n```\w+\n(.*?)```", page.read_text(), re.S)]
    assert re.search(rf"<!-- ci-recipe: {name} -->", CI_PAGE.read_text()), f"{CI_PAGE.name} has no ci-recipe {name}"
    return found


def shown(name: str):
    """Parametrize a test over every page's copy of the recipe ``name``."""
    blocks = recipes(name)
    return pytest.mark.parametrize("recipe", blocks, ids=[f"{name}-{n}" for n in range(len(blocks))])


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A clone, as CI makes it, of a repository whose price() kept violating over three days."""
    base = tmp_path_factory.mktemp("ci")
    return clone(three_days(new_repo(base / "shop")), base / "job")


def _run(command: str, cwd: Path):
    argv = shlex.split(command)
    assert argv[0] == "ladder"
    return ladder(argv[1:], cwd, LADDER_NOW=NOW)


def _github_steps(recipe: str) -> list[dict]:
    return yaml.safe_load(recipe)["ladder"]["steps"]


def _uses(steps: list[dict], action: str) -> list[dict]:
    return [s for s in steps if s.get("uses", "").startswith(action)]


@shown("github")
def test_the_github_job_fetches_the_whole_history_and_uploads_sarif(recipe):
    steps = _github_steps(recipe)
    assert [s["with"]["fetch-depth"] for s in _uses(steps, "actions/checkout")] == [0]  # recurrence from git
    assert [s["with"]["sarif_file"] for s in _uses(steps, "github/codeql-action/upload-sarif")] == ["ladder.sarif"]


@shown("github")
def test_the_github_jobs_commands_annotate_and_write_sarif(fresh, recipe):
    annotate, sarif = (_run(s["run"], fresh) for s in _github_steps(recipe) if s.get("run", "").startswith("ladder "))
    found = [COMMAND.match(line) for line in annotate.stdout.splitlines()]
    assert annotate.returncode == 1 and all(found), annotate.stdout
    assert {m.group(3) for m in found} >= {"LAD900 recurring_hotspot", "LAD102 cognitive_max"}
    report = json.loads((fresh / "ladder.sarif").read_text())
    assert sarif.returncode == 1 and any(r["ruleId"] == "LAD900" for r in report["runs"][0]["results"])


@shown("gitlab")
def test_the_gitlab_job_writes_a_code_quality_report(fresh, recipe):
    job = yaml.safe_load(recipe)["ladder"]
    assert job["variables"]["GIT_DEPTH"] == 0
    (command,) = [c for c in job["script"] if c.startswith("ladder ")]
    done = _run(command, fresh)
    report = json.loads((fresh / job["artifacts"]["reports"]["codequality"]).read_text())
    assert done.returncode == 1 and {"recurring_hotspot", "cognitive_max"} <= {i["check_name"] for i in report}


@shown("tox")
def test_the_tox_environment_runs_the_gate(fresh, recipe):
    config = configparser.ConfigParser()
    config.read_string(recipe)
    command = config["testenv:ladder"]["commands"].replace("{posargs}", "").strip()
    done = _run(command, fresh)
    assert done.returncode == 1 and "LAD900 [hotspot]" in done.stdout and ": recurring hotspot for " in done.stdout
