"""``worklog.output``: what ``ladder worklog check`` and ``ladder kb check`` print, in each format, from
problems made in the test; every value from a file cleaned, SARIF valid and its fingerprints stable while
reports are added on top."""

from __future__ import annotations

import json
from dataclasses import replace

import jsonschema
import pytest

from ladder_plugins.worklog.model import Problem, ordered, problem
from ladder_plugins.worklog.output import FORMATS, lint_github, lint_json, lint_sarif, lint_text, render

from tests.helpers.paths import DATA

LINES = problem("worklog_lines", "logs/w.md", 5, "Report #2 declares lines: 5, but has 2")
HEADER = problem("worklog_header", "logs/w.md", 0, "line 1 is not a report header")
NOTE = problem("worklog_lines", "logs/w.md", 9, "the awk one-liner would count 3")


def test_problem_puts_line_zero_at_one_and_names_its_rule():
    assert (HEADER.line, HEADER.code, HEADER.rule.key, HEADER.col) == (1, "LAD301", "worklog_header", 1)


def test_ordered_by_file_line_code_each_once():
    other = problem("kb_id", "kb/a.md", 2, "bad id")
    assert ordered([LINES, HEADER, LINES, other]) == [other, HEADER, LINES]


def test_text_one_line_per_problem_then_notes_then_the_verdict():
    text = lint_text([HEADER, LINES], [NOTE], ["logs/w.md"], "work log")
    assert text.splitlines() == [
        "logs/w.md:1:1: LAD301 line 1 is not a report header [worklog_header]",
        "logs/w.md:5:1: LAD302 Report #2 declares lines: 5, but has 2 [worklog_lines]",
        "logs/w.md:9:1: note: the awk one-liner would count 3",
        "failed: work log logs/w.md: 2 problems (LAD301, LAD302)"]


def test_text_passes_and_names_nothing_checked():
    assert lint_text([], [], [], "knowledge base") == "passed: knowledge base nothing: no problems\n"
    assert lint_text([], [], ["a.md", "b.md"], "work log") == "passed: work log a.md, b.md: no problems\n"


def test_text_cleans_what_came_from_a_file():
    hostile = problem("worklog_type", "w\x1b[2J.md", 3, "type 'x\u202e\ny' is not one of them")
    line = lint_text([hostile], [], ["w\x1b[2J.md"], "work log").splitlines()[0]
    assert line == "w.md:3:1: LAD303 type 'xy' is not one of them [worklog_type]"


def test_json_is_the_versioned_contract():
    data = json.loads(lint_json([LINES], [NOTE], ["logs/w.md"], "work log"))
    assert (data["schema"], data["version"], data["what"], data["passed"]) == ("ladder-worklog", 1, "work log",
                                                                               False)
    assert data["checked"] == ["logs/w.md"]
    assert data["problems"] == [{"code": "LAD302", "rule": "worklog_lines", "path": "logs/w.md", "line": 5,
                                 "column": 1, "message": "Report #2 declares lines: 5, but has 2"}]
    assert [n["line"] for n in data["notes"]] == [9]
    assert json.loads(lint_json([], [], [], "kb"))["passed"] is True


def test_sarif_is_valid_and_lists_every_lint_rule():
    doc = json.loads(lint_sarif([HEADER, LINES], "1.2.3"))
    jsonschema.validate(doc, json.loads((DATA / "sarif-schema-2.1.0.json").read_text()))
    run = doc["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules[0] == "LAD300" and "LAD329" in rules
    assert [(r["ruleId"], rules[r["ruleIndex"]], r["level"]) for r in run["results"]] == [
        ("LAD301", "LAD301", "error"), ("LAD302", "LAD302", "error")]


def _marks(problems):
    return [r["partialFingerprints"]["ladderFingerprint/v1"] for r in json.loads(lint_sarif(problems, "1"))
            ["runs"][0]["results"]]


def test_sarif_fingerprints_hold_no_line_and_tell_repeats_apart():
    first = replace(LINES, context="=== Report #2 | lines: 5 ===")
    moved = replace(first, line=40)
    twin = replace(first, line=60)
    assert _marks([first]) == _marks([moved])
    one, two = _marks([first, twin])
    assert one != two and one == _marks([first])[0]
    assert _marks([LINES]) != _marks([first])  # without context the message is what is kept


def test_github_commands_are_escaped():
    hostile = Problem(LINES.rule, "a,b:c.md", 2, "50% done\nnext line")
    assert lint_github([hostile]) == ("::error file=a%2Cb%3Ac.md,line=2,col=1,title=LAD302 worklog_lines::"
                                      "50%25 donenext line\n")  # a line break cannot start a command of its own
    assert lint_github([]) == ""


@pytest.mark.parametrize("fmt", FORMATS)
def test_render_dispatches_each_format(fmt):
    out = render(fmt, [LINES], [], ["logs/w.md"], "work log")
    expected = {"text": "logs/w.md:5:1: LAD302", "json": '"schema": "ladder-worklog"', "sarif": '"version": "2.1.0"',
                "github": "::error file=logs/w.md,line=5"}
    assert expected[fmt] in out
    assert out.endswith("\n")
