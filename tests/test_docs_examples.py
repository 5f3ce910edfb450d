"""The README's output examples are what the tools print: each block marked ``<!-- example: NAME -->`` is
checked against a real run on the demo project (``ladder demo`` itself, or flake8, pytest and ``ladder check
--format github`` on the demo project after the same three checks).

A block's lines must appear in the output, in order and one after the other; a line ``...`` stands for any
lines, ``...`` inside a line for any text; the ``$ command`` line is not output.
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

README = Path(__file__).resolve().parent.parent / "README.md"
MARKED = re.compile(r"<!-- example: ([\w ]+?)(?: \(.*?\))? -->\n```text\n(.*?)```", re.S)


def _examples() -> list[tuple[str, list[str]]]:
    found = [(name, [line for line in body.splitlines() if not line.startswith("$ ")])
             for name, body in MARKED.findall(README.read_text(encoding="utf-8"))]
    assert len(found) >= 6, "the README's marked examples went missing"
    return found


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
    found.update(_git_outputs(tmp_path_factory.mktemp("readme-git")))
    return found


def _git_outputs(base: Path) -> dict[str, str]:
    """The recurrence-from-git examples: price() edited on three days, [tool.ladder] committed after them."""
    import shutil

    if shutil.which("git") is None:
        return {}  # their examples skip, saying why
    from .helpers.git import DAYS, NOW, PYPROJECT, commit, nested, new_repo

    repo = new_repo(base / "late", pyproject='[project]\nname = "shop"\n')
    for n, day in enumerate(DAYS):
        commit(repo, {"src/shop/pricing.py": nested("price", 4 + n)}, f"{day}T10:00:00Z")
    commit(repo, {"pyproject.toml": PYPROJECT}, f"{DAYS[2]}T11:00:00Z", "adopt ladder")
    run = {"LADDER_NOW": NOW, "CI": ""}
    return {"git adoption": ladder(["check", "--no-record"], repo, **run).stdout,
            "git all": ladder(["check", "--no-record", "--git-since", "all"], repo, **run).stdout}


def _pattern(block: list[str]) -> re.Pattern:
    """The block as a regular expression over whole lines: ``...`` alone skips lines, inside a line any text."""
    lines = [r"(?:[^\n]*\n)*?" if line == "..." else "[^\n]*?".join(map(re.escape, line.split("..."))) + r"\n"
             for line in block]
    return re.compile("^" + "".join(lines), re.M)


@pytest.mark.parametrize("name, block", _examples(), ids=[name for name, _ in _examples()])
def test_a_readme_example_is_what_the_tool_prints(outputs, name, block):
    if name.startswith("git ") and name not in outputs:
        pytest.skip("git is not installed: the recurrence-from-git examples need a real repository")
    assert name in outputs, f"no run makes the example {name!r}"
    assert _pattern(block).search(outputs[name] + "\n"), outputs[name]


def test_the_demo_is_the_same_whatever_run_id_the_environment_holds(monkeypatch):
    """Each of the demo's checks is its own run, as separate commands are: a LADDER_RUN_ID of the caller's (a CI
    job's, or one a flake8 run left in this process) must not make them one."""
    monkeypatch.setenv("LADDER_RUN_ID", "one-run-for-all")
    said: list[str] = []
    assert run_demo(echo=said.append) == 0
    third = [text for text in said if "$ ladder check" in text][2]
    assert "history: 2 runs in the log)" in third
