"""``reports.gitlab.check_gitlab``: a GitLab Code Quality report, one issue per red violation and per gate
failure, each with a fingerprint that is unique and stable across line moves."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from ladder_plugins.reports.gitlab import check_gitlab

from tests.unit.reports.outcomes import analysed, hotspot, outcome


def test_one_major_issue_per_red_violation(tmp_path):
    _, result = analysed(tmp_path)
    issues = json.loads(check_gitlab(result, outcome()))
    assert [(i["check_name"], i["severity"]) for i in issues] == [("cyclomatic_max", "major"),
                                                                  ("params_max", "major")]
    first = issues[0]
    assert first["description"] == "LAD101 cyclomatic complexity of 'f' is 13 (> 10)"
    assert first["location"] == {"path": "src/m.py", "lines": {"begin": 1}}
    assert first["fingerprint"] == hashlib.md5(b"LAD101\x1fsrc/m.py::f::cyclomatic_max").hexdigest()


def test_a_recurring_hotspot_is_critical_and_other_failures_major(tmp_path):
    _, result = analysed(tmp_path)
    strict = hotspot("src/m.py::f::params_max", "strict")
    issues = json.loads(check_gitlab(result, outcome(hotspot(), strict)))[2:]
    assert [(i["check_name"], i["severity"]) for i in issues] == [("recurring_hotspot", "critical"),
                                                                  ("params_max", "major")]
    assert issues[0]["location"] == {"path": "src/m.py", "lines": {"begin": 2}}
    assert issues[0]["description"].startswith("LAD900 'f': recurring hotspot for cyclomatic 13 > 10")


def test_fingerprints_are_unique_and_do_not_hold_the_line(tmp_path):
    _, result = analysed(tmp_path)
    failure = hotspot()
    moved = replace(failure, event=replace(failure.event, line=40))
    first = json.loads(check_gitlab(result, outcome(failure)))
    second = json.loads(check_gitlab(result, outcome(moved)))
    assert [i["fingerprint"] for i in first] == [i["fingerprint"] for i in second]
    assert len({i["fingerprint"] for i in first}) == len(first) == 3


def test_a_hostile_path_is_cleaned(tmp_path):
    _, result = analysed(tmp_path, path="src/\x1b[31mred\u202e.py")
    issues = json.loads(check_gitlab(result, outcome()))
    assert {i["location"]["path"] for i in issues} == {"src/red.py"}


def test_nothing_red_is_an_empty_array(tmp_path):
    _, result = analysed(tmp_path)
    calm = replace(result, files=result.files[1:])
    assert check_gitlab(calm, outcome()) == "[]"
