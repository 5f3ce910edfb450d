"""``reports.check``: ``ladder check``'s JSON (a versioned contract) and Markdown (every value from code
escaped), written from an analysis and a gate outcome built in the test."""

from __future__ import annotations

import json

from ladder_plugins.reports.check import check_json, check_markdown, count

from tests.unit.reports.outcomes import RUN, analysed, hotspot, outcome


def test_count_counts_one_severity(tmp_path):
    _, result = analysed(tmp_path)
    assert (count(result.violations, "red"), count(result.violations, "yellow"), count([], "red")) == (2, 1, 0)


def test_json_is_the_versioned_contract(tmp_path):
    settings, result = analysed(tmp_path)
    data = json.loads(check_json(result, outcome(warnings=("cache not written",)), settings, RUN))
    head = (data["schema"], data["version"], data["mode"], data["run_id"])
    assert head == ("ladder-check", 1, "recurrence", "run-1")
    assert data["passed"] is True
    assert data["summary"] == {"files": 1, "skipped": 1, "red": 2, "yellow": 1, "gate_failures": 0}
    assert data["skipped"] == [{"path": "src/bad.py", "reason": "syntax error at line 3"}]
    assert data["warnings"] == ["cache not written"]
    assert data["gate"] == {"failed": False, "failures": [], "known": [], "history": "3 runs in the log"}


def test_json_lists_each_violation_with_its_fields(tmp_path):
    settings, result = analysed(tmp_path)
    files = json.loads(check_json(result, outcome(), settings, RUN))["files"]
    assert [f["path"] for f in files] == ["src/m.py"]
    first = files[0]["violations"][0]
    assert first == {"code": "LAD101", "rule": "cyclomatic_max", "severity": "red", "line": 1, "unit": "f",
                     "actual": 13, "limit": 10, "message": "cyclomatic complexity of 'f' is 13 (> 10)",
                     "fingerprint": "src/m.py::f::cyclomatic_max"}
    assert [v["code"] for v in files[0]["violations"]] == ["LAD101", "LAD102", "LAD105"]


def test_json_gate_failures_and_known_hotspots(tmp_path):
    settings, result = analysed(tmp_path)
    ran = outcome(hotspot(), known=(hotspot("src/k.py::g::cognitive_max", "known"),))
    data = json.loads(check_json(result, ran, settings, RUN))
    assert data["passed"] is False and data["gate"]["failed"] is True
    assert data["summary"]["gate_failures"] == 1
    failure = data["gate"]["failures"][0]
    assert {k: failure[k] for k in ("code", "reason", "path", "line", "unit", "rule", "actual", "limit")} == {
        "code": "LAD900", "reason": "hotspot", "path": "src/m.py", "line": 2, "unit": "f", "rule": "cyclomatic_max",
        "actual": 13.0, "limit": 10.0}
    assert (failure["occurrences"], failure["distinct_days"]) == (3, 2)
    assert (failure["first_seen"], failure["last_seen"]) == ("2026-11-01T09:00:00Z", "2026-11-02T09:00:00Z")
    assert [k["reason"] for k in data["gate"]["known"]] == ["known"]
    assert data["gate"]["known"][0]["path"] == "src/k.py"


def test_markdown_has_the_verdict_and_a_table_per_section(tmp_path):
    settings, result = analysed(tmp_path)
    text = check_markdown(result, outcome(hotspot()), settings, RUN)
    lines = text.splitlines()
    assert lines[:2] == ["## ladder check", ""]
    assert lines[2].startswith("**FAILED**: 1 recurring hotspot (2 red, 1 yellow in 1 file, 1 skipped")
    assert [line for line in lines if line.startswith("### ")] == [
        "### Gate failures", "### Violations", "### Not analysed"]
    assert "| src/m.py | 2 | LAD900 | 'f': recurring hotspot for cyclomatic 13 \\> 10; red in 3 runs" in text
    assert "| src/m.py | 1 | LAD105 | red | number of parameters of 'f' is 12 (\\> 5) |" in lines
    assert "| src/bad.py | syntax error at line 3 |" in lines
    assert text.endswith("|\n") and not text.endswith("\n\n")


def test_markdown_without_failures_passes_and_lists_known_hotspots_apart(tmp_path):
    settings, result = analysed(tmp_path)
    text = check_markdown(result, outcome(known=(hotspot(reason="known"),)), settings, RUN)
    assert text.splitlines()[2].startswith("**passed**: ")
    assert "### Gate failures" not in text
    assert "### Hotspots known from history (not failing)" in text
    assert "known from history; fails on its next edit" in text


def test_markdown_escapes_a_hostile_path(tmp_path):
    settings, result = analysed(tmp_path, path="src/a|b_[x]`.py")
    text = check_markdown(result, outcome(), settings, RUN)
    assert "| src/a\\|b\\_\\[x\\]\\`.py | 1 | LAD101 |" in text
    assert "a|b" not in text
    rows = [line for line in text.splitlines() if line.startswith("| src/a")]
    assert all(row.replace("\\|", "").count("|") == 6 for row in rows)
