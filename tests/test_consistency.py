"""Issue 18, "Consistency" and "Error details": what the front ends say, and where they write, run for real."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from ladder_plugins.catalogue import RULES, WORKLOG_RULES
from ladder_plugins.cli.main import build_parser

from .helpers.reports import ladder

SHIPPED = resources.files("ladder_plugins")
WIDE = "def wide(a, b, c, d, e, g):{comment}\n    return a\n"
#: what makes a directory a project for ladder (config.py); outside one, nothing is written
MARKERS = ("pyproject.toml", ".git", "setup.cfg", "tox.ini", ".flake8", "pytest.ini")


def flake8(args, cwd, stdin=None, **env):
    return subprocess.run([sys.executable, "-m", "flake8", *args], cwd=cwd, capture_output=True, text=True,
                          input=stdin, timeout=300, env={**os.environ, **env})


def project(root: Path, source: str = WIDE.format(comment="")) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.ladder]\n")
    (root / "m.py").write_text(source)
    return root


def one_line_error(done) -> str:
    assert done.returncode == 2 and done.stderr.count("\n") == 1, (done.returncode, done.stderr)
    assert done.stderr.startswith("ladder: error: ") and "Traceback" not in done.stderr
    return done.stderr


# -- 1. every reference `ladder explain` prints names a section of a shipped file -----------------------------

#: a document reference: a file, then an anchor or a section name
_DOC_REF = re.compile(r"(?P<file>[\w./-]+\.md)(?:#(?P<anchor>[\w-]+)|, section \"(?P<section>[^\"]+)\")?")


def _shipped_sections(name: str) -> set[str]:
    """Every way a heading of a shipped document may be named: as written, without its ``(...)`` tail, as an
    anchor. A document that is not shipped (the README is not installed) has none."""
    doc = SHIPPED.joinpath(name[len("ladder_plugins/"):] if name.startswith("ladder_plugins/") else name)
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S) if doc.is_file() else ""
    headings = re.findall(r"^#{1,6} (.+)$", text, re.M)
    slugs = {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}
    return set(headings) | {h.split(" (")[0] for h in headings} | slugs


@pytest.mark.parametrize("code", [*RULES, *WORKLOG_RULES])
def test_every_reference_explain_prints_names_a_section_of_a_shipped_file(code, tmp_path):
    done = ladder(["explain", code], tmp_path)
    assert done.returncode == 0, done.stderr
    (definition,) = re.findall(r"^definition: (.+)$", done.stdout, re.M)
    assert definition.startswith("https://") or _DOC_REF.match(definition), definition
    for ref in _DOC_REF.finditer(done.stdout):
        named = ref["anchor"] or ref["section"]
        if named is None and not ref["file"].startswith("ladder_plugins/"):
            continue  # a file the rule is about (`kb/_index.md`, `work-log.md`), not a document it points to
        assert named in _shipped_sections(ref["file"]), f"{code}: {ref[0]!r} names no section of a shipped file"


# -- 2. doctor: running on the built-in defaults is one verdict, and a note ----------------------------------

@pytest.mark.parametrize("pyproject", [None, "[project]\nname = 'shop'\n"], ids=["no pyproject.toml", "no table"])
def test_doctor_on_the_built_in_defaults_is_one_verdict_and_a_note(tmp_path, pyproject):
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject)
    done = ladder(["doctor"], tmp_path)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[0] == "configuration: valid, built-in defaults (no [tool.ladder] table)"
    assert "note: no [tool.ladder] table" in done.stdout and "ladder init" in done.stdout
    assert "problem:" not in done.stdout and done.stdout.rstrip().endswith("nothing to fix")
    report = json.loads(ladder(["doctor", "--json"], tmp_path).stdout)
    assert report["ok"] and report["config"]["file"] is None and report["notes"]


def test_doctor_names_the_table_it_read(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\nmode = 'strict'\n")
    done = ladder(["doctor"], tmp_path)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[0] == f"configuration: valid, read from {tmp_path / 'pyproject.toml'}"
    assert "note:" not in done.stdout and done.stdout.rstrip().endswith("nothing to fix")


# -- 3. a near-miss rule name in an ignore gets a "did you mean" ---------------------------------------------

@pytest.mark.parametrize("written, meant", [("params_maxx", "'params_max'"), ("lad1055", "'LAD105'"),
                                            ("nonsense", None)])
def test_a_near_miss_rule_in_an_ignore_says_what_was_meant(tmp_path, written, meant):
    root = project(tmp_path, WIDE.format(comment=f"  # ladder: ignore[{written}] legacy API"))
    linted = flake8(["--select", "LAD", "--ladder-no-record", "m.py"], root)
    checked = ladder(["check", "--no-record", "m.py"], root)
    hint = f"did you mean {meant}?" if meant else "use a rule key such as 'cognitive_max'"
    said = f"invalid suppression on 'wide': unknown rule {written!r} in ignore[...]; {hint}"
    for output in (linted.stdout, checked.stdout):
        assert [line for line in output.splitlines() if "LAD001" in line and said in line], output


# -- 4. --jobs below 1 is a usage error wherever it is taken -------------------------------------------------

def _subparsers(parser: argparse.ArgumentParser) -> dict:
    return {name: sub for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name, sub in action.choices.items()}


def walk(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> dict:
    """Every subcommand below ``parser``, at every depth, by its words (``("history", "stats")``)."""
    found = {}
    for name, sub in _subparsers(parser).items():
        found[(*words, name)] = sub
        found.update(walk(sub, (*words, name)))
    return found


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_jobs_below_one_is_a_usage_error_in_every_command_that_takes_it(tmp_path, jobs):
    root = project(tmp_path)
    taking = [words for words, sub in walk(build_parser()).items() if "--jobs" in sub._option_string_actions]
    assert {("metrics",), ("check",), ("suppress",)} <= set(taking)
    for words in taking:
        said = one_line_error(ladder([*words, "--jobs", jobs], root))
        assert f"argument --jobs/-j: expected a number of processes, 1 or more, not '{jobs}'" in said, said


# -- 5. suppress needs a reason, and a rule filter that names one ---------------------------------------------

@pytest.mark.parametrize("reason", ["", "   ", "\t"])
def test_suppress_without_a_reason_says_one_is_required(tmp_path, reason):
    root = project(tmp_path)
    said = one_line_error(ladder(["suppress", "m.py", "--reason", reason], root))
    assert "--reason: a reason is required" in said
    assert (root / "m.py").read_text() == WIDE.format(comment="")


@pytest.mark.parametrize("rule", ["", " "])
def test_suppress_with_an_empty_rule_filter_is_refused_not_every_rule(tmp_path, rule):
    root = project(tmp_path)
    said = one_line_error(ladder(["suppress", "m.py", "--reason", "legacy", "--rule", rule], root))
    assert "--rule" in said and (root / "m.py").read_text() == WIDE.format(comment="")


# -- 6. a usage error points to the command's own --help, naming what is missing ------------------------------

@pytest.mark.parametrize("args, command, names", [
    (["report"], "report", "report needs --html FILE"), (["report", "--from-git"], "report", "--html FILE"),
    (["history", "combine"], "history combine", "needs FILE"), (["suppress", "src"], "suppress", "--reason TEXT"),
    (["check", "--mode", "nope"], "check", "--mode")])
def test_a_usage_error_points_to_the_commands_own_help(tmp_path, args, command, names):
    said = one_line_error(ladder(args, tmp_path))
    assert names in said and said.endswith(f" (see 'ladder {command} --help')\n"), said


# -- 7. every subcommand's --help has examples ----------------------------------------------------------------

def test_every_subcommand_of_every_group_has_examples_in_its_help():
    found = walk(build_parser())
    assert {("history", "stats"), ("history", "prune"), ("history", "rebuild"), ("history", "combine")} <= set(found)
    assert [" ".join(words) for words, sub in found.items() if "examples:" not in sub.format_help()] == []


def test_a_history_action_shows_its_examples(tmp_path):
    done = ladder(["history", "combine", "--help"], tmp_path)
    assert done.returncode == 0 and "examples:\n  ladder history combine " in done.stdout


# -- 8. outside any project nothing is written; stdin writes nothing anywhere --------------------------------

@pytest.fixture
def nowhere(tmp_path):
    """A directory in no project, a HOME apart from it, and the environment the runs get."""
    marked = [d / m for d in (tmp_path, *tmp_path.parents) for m in MARKERS if (d / m).exists()]
    if marked:
        pytest.skip(f"{marked[0]} makes the temporary directory part of a project")
    (tmp_path / "home").mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "m.py").write_text(WIDE.format(comment=""))
    return tmp_path, {"HOME": str(tmp_path / "home"), "LADDER_NO_CACHE": "", "LADDER_RUN_ID": ""}


def assert_nothing_written(top: Path) -> None:
    assert [str(p) for p in top.rglob(".ladder")] == []


@pytest.mark.parametrize("args, shown", [(["check", "m.py"], "LAD105"), (["check"], "LAD105"),
                                         (["metrics", "m.py"], "wide: cc 1"), (["summary"], ""), (["doctor"], "")])
def test_ladder_outside_any_project_reports_and_writes_nothing(nowhere, args, shown):
    top, env = nowhere
    done = ladder(args, top / "work", **env)
    assert done.returncode == 0 and shown in done.stdout, done.stdout + done.stderr
    assert_nothing_written(top)


def test_ladder_check_outside_any_project_says_once_that_nothing_is_recorded(nowhere):
    top, env = nowhere
    done = ladder(["check", "m.py"], top / "work", **env)
    assert "LAD105" in done.stdout
    (said,) = done.stderr.splitlines()
    assert said.startswith("ladder: warning: ") and "in no project" in said and "history not recorded" in said


@pytest.mark.parametrize("action", [["prune"], ["rebuild"], ["combine", "events.jsonl"]])
def test_history_maintenance_outside_any_project_is_refused(nowhere, action):
    top, env = nowhere
    (top / "work" / "events.jsonl").write_text("")
    said = one_line_error(ladder(["history", *action], top / "work", **env))
    assert "in no project" in said
    assert_nothing_written(top)


def test_flake8_outside_any_project_reports_and_writes_nothing(nowhere):
    top, env = nowhere
    done = flake8(["--select", "LAD", "m.py"], top / "work", **env)
    assert "m.py:1:1: LAD105 number of parameters of 'wide' is 6 (> 5)" in done.stdout, done.stderr
    assert_nothing_written(top)


@pytest.mark.parametrize("inside", [False, True], ids=["no project", "a project"])
@pytest.mark.parametrize("display", [[], ["--stdin-display-name", "src/m.py"]], ids=["stdin", "display name"])
def test_flake8_on_stdin_reports_and_writes_nothing(nowhere, inside, display):
    top, env = nowhere
    cwd = project(top / "work") if inside else top / "work"
    done = flake8(["--select", "LAD", *display, "-"], cwd, stdin=WIDE.format(comment=""), **env)
    shown = display[1] if display else "stdin"
    assert f"{shown}:1:1: LAD105 number of parameters of 'wide' is 6 (> 5)" in done.stdout, done.stderr
    assert_nothing_written(top)


@pytest.mark.parametrize("marker", ["setup.cfg", "tox.ini", ".flake8", "pytest.ini"])
def test_a_project_marked_only_by_its_tools_configuration_is_a_project(nowhere, marker):
    top, env = nowhere
    (top / "work" / marker).write_text("[flake8]\nmax-line-length = 120\n")
    (top / "work" / "pkg").mkdir()
    done = ladder(["check", "../m.py"], top / "work" / "pkg", **env)
    assert done.returncode == 0 and "LAD105" in done.stdout and done.stderr == "", done.stderr
    assert [p.relative_to(top) for p in top.rglob(".ladder")] == [Path("work/.ladder")]


# -- every code of the catalogue has its row in the site's rule index, and its page ---------------------------

@pytest.fixture(scope="module")
def rule_pages() -> dict[str, str]:
    """The site's generated rule pages, by path, made as the MkDocs hook makes them."""
    hooks = str(Path(__file__).resolve().parents[1] / "docs" / "_hooks")
    sys.path.insert(0, hooks)
    try:
        from ladder_docs import configuration, rules
    finally:
        sys.path.remove(hooks)
    return rules.pages(configuration.key_names())


@pytest.mark.parametrize("code", [*RULES, *WORKLOG_RULES])
def test_every_code_has_a_row_in_the_sites_rule_index_and_a_page(code, rule_pages):
    rule = RULES.get(code) or WORKLOG_RULES[code]
    rows = [line for line in rule_pages["reference/rules/index.md"].splitlines() if line.startswith(f"| [{code}](")]
    assert len(rows) == 1, f"{code}: {len(rows)} rows in the rule index"
    assert f"`{rule.key}`" in rows[0] and rule.what in rows[0], rows[0]
    assert rule_pages[f"reference/rules/{code}.md"].startswith(f"# {code} {rule.key}\n")
