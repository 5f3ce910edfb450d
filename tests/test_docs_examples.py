"""The output the documentation shows is what the tools print: every block marked ``<!-- example: NAME -->``, in
the README, in any page of the site (``docs/``) or in the shipped rule notes (``rules.md``), is checked against
a real run (``ladder demo`` itself; flake8, pytest and ``ladder check --format github`` on the demo project after
the same three checks; ``ladder check`` on small git repositories built here).

A block's lines must appear in the output, in order and one after the other; a line ``...`` stands for any
lines, ``...`` inside a line for any text; a ``$ command`` line is not output. A block that shows a ``$``
command must be marked, so that no command is shown with output no test runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ladder_plugins.cli.demo import run_demo

from .helpers.reports import FINAL, ladder, three_edits

ROOT = Path(__file__).resolve().parent.parent
MARKED = re.compile(r"<!-- example: ([\w ]+?)(?: \(.*?\))? -->\n```text\n(.*?)```", re.S)
#: the markers whose blocks a test runs: these examples, and the work log's session (tests/test_worklog_cli.py)
RUN_MARKERS = re.compile(r"<!-- (?:example: [\w ]+?(?: \(.*?\))?|worklog-session) -->\n$")
#: where an example's output shows a path or a commit that differs from run to run, what the page writes instead
APP = "/work/app"
BASE = "1a2b3c4d5e6f"


def pages() -> list[Path]:
    """Every page a reader may find output in: the README, the site's pages, the rule notes ``ladder explain``
    prints (the hooks' own files are code of the site, not pages)."""
    site = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)
    return [ROOT / "README.md", *site, ROOT / "src" / "ladder_plugins" / "rules.md"]


def _examples() -> list[tuple[str, str, list[str]]]:
    found = [(page.relative_to(ROOT).as_posix(), name, [line for line in body.splitlines() if not line.startswith("$ ")])
             for page in pages() for name, body in MARKED.findall(page.read_text(encoding="utf-8"))]
    assert len(found) >= 15, "the documentation's marked examples went missing"
    return found


EXAMPLES = _examples()


def _demo_outputs() -> dict[str, str]:
    said: list[str] = []
    assert run_demo(echo=said.append) == 0
    checks = [text for text in said if "$ ladder check" in text]
    found = {f"demo check {n}": text for n, text in enumerate(checks, 1)}
    found.update({f"demo {name}": _said(said, f"$ ladder {name}") for name in ("summary", "brief")})
    return found


def _said(said: list[str], command: str) -> str:
    return next(text for text in said if command in text)


def _python(project: Path, *args: str) -> str:
    return subprocess.run([sys.executable, "-m", *args], cwd=project, capture_output=True, text=True,
                          env={**os.environ, "LADDER_NOW": FINAL}, timeout=300).stdout


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    found = _demo_outputs()
    project = three_edits(tmp_path_factory.mktemp("readme") / "shop")
    found["flake8"] = _python(project, "flake8", "--select", "LAD", "--ladder-no-record", "src")
    found["pytest"] = _python(project, "pytest", "--ladder", "-v", "-p", "no:cacheprovider", "--ladder-no-record")
    found["github"] = ladder(["check", "--format", "github", "--no-record"], project, LADDER_NOW=FINAL).stdout
    found.update(_config_error(tmp_path_factory.mktemp("config")))
    found.update(_git_outputs(tmp_path_factory.mktemp("readme-git")))
    return found


def _config_error(base: Path) -> dict[str, str]:
    """A misspelt key, as ``ladder check`` and flake8 say it; the project's directory written as the pages do."""
    app = base / "app"
    (app / "src" / "shop").mkdir(parents=True)
    (app / "pyproject.toml").write_text('[tool.ladder]\nmdoe = "strict"\n')
    (app / "src" / "shop" / "pricing.py").write_text("RATE = 1\n")
    checked = ladder(["check"], app)
    linted = subprocess.run([sys.executable, "-m", "flake8", "--select", "LAD", "src"], cwd=app, capture_output=True,
                            text=True, timeout=300)
    assert checked.returncode == 2
    return {"config error": checked.stderr.replace(str(app), APP), "flake8 config error": linted.stdout.replace(str(app), APP)}


def _git_outputs(base: Path) -> dict[str, str]:
    """The examples that need a real repository (skipped, saying why, where git is not installed)."""
    import shutil

    if shutil.which("git") is None:
        return {}
    return {**_adoption(base / "late"), "new code": _new_code(base / "new")}


def _adoption(path: Path) -> dict[str, str]:
    """price() edited on three days, [tool.ladder] committed after them; then edited once more, not fixed."""
    from .helpers.git import DAYS, NOW, PYPROJECT, commit, nested, new_repo

    repo = new_repo(path, pyproject='[project]\nname = "shop"\n')
    for n, day in enumerate(DAYS):
        commit(repo, {"src/shop/pricing.py": nested("price", 4 + n)}, f"{day}T10:00:00Z")
    commit(repo, {"pyproject.toml": PYPROJECT}, f"{DAYS[2]}T11:00:00Z", "adopt ladder")
    run = {"LADDER_NOW": NOW, "CI": ""}
    found = {"git adoption": ladder(["check", "--no-record"], repo, **run).stdout,
             "git all": ladder(["check", "--no-record", "--git-since", "all"], repo, **run).stdout}
    commit(repo, {"src/shop/pricing.py": nested("price", 6, extra=1)}, "2026-11-04T10:00:00Z", "a new discount")
    found["git fourth edit"] = ladder(["check", "--no-record"], repo, LADDER_NOW="2026-11-04T12:00:00Z", CI="").stdout
    return found


def _new_code(path: Path) -> str:
    """A branch that adds brand_new() and makes worse_later() worse than on main; the base's id as the pages
    write it."""
    from .helpers.git import DAYS, NOW, commit, git, nested, new_repo

    repo = new_repo(path)
    commit(repo, {"src/shop/pricing.py": nested("worse_later", 5)}, f"{DAYS[0]}T10:00:00Z")
    git(repo, "checkout", "-q", "-b", "feature")
    code = "\n\n".join([nested("worse_later", 7), nested("unchanged", 1), nested("brand_new", 6)])
    commit(repo, {"src/shop/pricing.py": code}, f"{DAYS[1]}T10:00:00Z")
    base_commit = git(repo, "rev-parse", "--short=12", "main").strip()
    return ladder(["check", "--no-record", "--mode", "new"], repo, LADDER_NOW=NOW, CI="").stdout.replace(base_commit, BASE)


def _pattern(block: list[str]) -> re.Pattern:
    """The block as a regular expression over whole lines: ``...`` alone skips lines, inside a line any text."""
    lines = [r"(?:[^\n]*\n)*?" if line == "..." else "[^\n]*?".join(map(re.escape, line.split("..."))) + r"\n"
             for line in block]
    return re.compile("^" + "".join(lines), re.M)


@pytest.mark.parametrize("page, name, block", EXAMPLES, ids=[f"{page}:{name}" for page, name, _ in EXAMPLES])
def test_an_example_is_what_the_tool_prints(outputs, page, name, block):
    if name.startswith(("git ", "new ")) and name not in outputs:
        pytest.skip("git is not installed: the recurrence-from-git examples need a real repository")
    assert name in outputs, f"{page}: no run makes the example {name!r}"
    assert _pattern(block).search(outputs[name] + "\n"), outputs[name]


def test_the_readme_shows_flake8_pytest_and_ladder_check_as_they_print():
    shown = {name for page, name, _ in EXAMPLES if page == "README.md"}
    assert {"flake8", "pytest", "demo check 3"} <= shown


@pytest.mark.parametrize("page", pages(), ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_command_shown_with_its_output_is_run(page):
    """A fenced block whose lines start with ``$ `` shows a command and what it prints: it is marked as an example
    (or the work log's session), and so run."""
    text = page.read_text(encoding="utf-8")
    unmarked = []
    for match in re.finditer(r"^```\w*\n(.*?)^```", text, re.S | re.M):
        if re.search(r"^\$ ", match.group(1), re.M) and not RUN_MARKERS.search(text[:match.start()]):
            unmarked.append(match.group(1).splitlines()[0])
    assert unmarked == []


def test_the_demo_is_the_same_whatever_run_id_the_environment_holds(monkeypatch):
    """Each of the demo's checks is its own run, as separate commands are: a LADDER_RUN_ID of the caller's (a CI
    job's, or one a flake8 run left in this process) must not make them one."""
    monkeypatch.setenv("LADDER_RUN_ID", "one-run-for-all")
    said: list[str] = []
    assert run_demo(echo=said.append) == 0
    third = [text for text in said if "$ ladder check" in text][2]
    assert "history: 2 runs in the log)" in third
