"""The ``ladder`` command's reports, run as the real console script.

Golden files in tests/golden pin the text, JSON and Markdown shapes. After a deliberate
change of shape, regenerate them with LADDER_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests.helpers.reports import FINAL, STEPS, demo_copy, ladder, three_edits
from tests.helpers.paths import DATA, GOLDEN

#: The OASIS SARIF 2.1.0 schema (errata 01), shipped with the tests so the validation always runs.
SARIF_SCHEMA = DATA / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return three_edits(tmp_path_factory.mktemp("reports") / "shop")


def golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("LADDER_UPDATE_GOLDEN"):
        path.write_text(actual)
    assert actual == path.read_text(), f"{name} changed; see the module docstring"


@pytest.mark.parametrize("fmt, suffix", [("text", "txt"), ("json", "json"), ("markdown", "md")])
def test_check_formats_are_pinned(project, fmt, suffix):
    done = ladder(["check", "--no-record", "--format", fmt], project, LADDER_NOW=FINAL, LADDER_RUN_ID="run-4")
    assert done.returncode == 1, done.stderr
    golden(f"check.{suffix}", done.stdout)


@pytest.mark.parametrize("fmt, suffix", [("text", "txt"), ("json", "json"), ("markdown", "md")])
def test_summary_formats_are_pinned(project, fmt, suffix):
    done = ladder(["summary", "--format", fmt], project, LADDER_NOW=FINAL)
    assert done.returncode == 0, done.stderr
    golden(f"summary.{suffix}", done.stdout)


def test_check_json_is_a_versioned_contract(project):
    data = json.loads(ladder(["check", "--no-record", "--format", "json"], project, LADDER_NOW=FINAL).stdout)
    assert (data["schema"], data["version"], data["passed"]) == ("ladder-check", 1, False)
    assert {f["rule"] for f in data["gate"]["failures"]} == {"cyclomatic_max", "cognitive_max", "abc_max"}
    assert all(f["occurrences"] == 3 and f["distinct_days"] == 2 for f in data["gate"]["failures"])


def test_sarif_is_valid_and_github_ready(project, tmp_path):
    import jsonschema

    out = tmp_path / "ladder.sarif"
    done = ladder(["check", "--no-record", "--format", "sarif", "--output", str(out)], project, LADDER_NOW=FINAL)
    assert done.returncode == 1 and done.stdout == ""
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, json.loads(SARIF_SCHEMA.read_text()))
    _assert_github_ready(doc["runs"][0])


def _assert_github_ready(run):
    """Rule metadata with help, relative URIs, stable ids, our fingerprint under a versioned key."""
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert {"LAD101", "LAD102", "LAD900"} <= set(rules)
    assert all(r["help"]["text"] and r["shortDescription"]["text"] for r in rules.values())
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert not location["uri"].startswith(("/", "file:")) and location["uriBaseId"] == "%SRCROOT%"
        assert result["partialFingerprints"]["ladderFingerprint/v1"].startswith(location["uri"])
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    assert sum(r["ruleId"] == "LAD900" for r in run["results"]) == 3


def test_brief_is_bounded_and_framed_as_data(project):
    done = ladder(["brief"], project, LADDER_NOW=FINAL)
    assert done.returncode == 0
    assert done.stdout.startswith("<ladder-brief>") and done.stdout.rstrip().endswith("</ladder-brief>")
    assert "not instructions" in done.stdout and "'price' in src/shop/pricing.py" in done.stdout
    assert "legacy_report" not in done.stdout  # untouched legacy code is not a weak spot
    small = ladder(["brief", "--max-bytes", "400"], project, LADDER_NOW=FINAL)
    assert len(small.stdout.rstrip("\n").encode()) <= 400 and "</ladder-brief>" in small.stdout


def test_report_html_is_self_contained(project, tmp_path):
    page = tmp_path / "report.html"
    done = ladder(["report", "--html", str(page)], project, LADDER_NOW=FINAL)
    assert done.returncode == 0
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "<polyline" in html
    assert "<script" not in html and not re.search(r'(src|href)=["\']https?:', html)
    assert html.count("<tr>") >= 3 + 1 and "src/shop/pricing.py" in html


_FIXED_PRICE = """def price(order, customer, coupons, today):
    return round(sum(_line_total(line, customer, coupons, today) for line in order.lines), 2)
"""


def _fix_price(project):
    pricing = project / "src" / "shop" / "pricing.py"
    text = pricing.read_text()
    pricing.write_text(_FIXED_PRICE + text[text.index("\n\ndef shipping"):])


def test_a_fixed_hotspot_is_resolved_everywhere_it_is_read(tmp_path):
    """After price() was cut down, nothing presents it as current; the summary and the page list it apart."""
    project = three_edits(tmp_path / "shop")
    _fix_price(project)
    summary = ladder(["summary"], project, LADDER_NOW=FINAL).stdout
    assert "hotspots (0):" in summary and "resolved hotspots (3):" in summary
    assert "src/shop/pricing.py::price cognitive_max: no longer violates (last seen 25 on 2026-11-03" in summary
    data = json.loads(ladder(["summary", "--format", "json"], project, LADDER_NOW=FINAL).stdout)
    assert data["hotspots"] == [] and {r["status"] for r in data["resolved"]} == {"resolved"}
    brief = ladder(["brief"], project, LADDER_NOW=FINAL).stdout
    assert "price" not in brief and "No recurring hotspots or patterns" in brief
    page = tmp_path / "report.html"
    ladder(["report", "--html", str(page)], project, LADDER_NOW=FINAL)
    html = page.read_text()
    assert re.search(r"Recurring hotspots(?:(?!price).)*Current violations.*Resolved hotspots.*price.*Patterns",
                     html, re.DOTALL)  # price in no hotspot row, but among the resolved (the current ones: yellow)
    assert not re.search(r'>red</span></td><td>src/shop/pricing\.py</td><td class="n">\d+</td><td>price<', html)
    assert not [s for s in json.loads(ladder(["recommend", "--format", "json"], project, LADDER_NOW=FINAL).stdout)[
        "suggestions"] if "price" in s["text"]]


def test_current_values_come_from_the_current_code(tmp_path):
    """Edited again but not checked again: the summary and brief say what the code is now."""
    project = three_edits(tmp_path / "shop")
    pricing = project / "src" / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text().replace("        total += max(amount, 0)\n",
                                                   "        if amount:\n            total += max(amount, 0)\n"))
    summary = ladder(["summary"], project, LADDER_NOW=FINAL).stdout
    assert "price cognitive_max: now 27 (> 15)" in summary
    assert "cognitive_max) is 27 against a limit of 15" in ladder(["brief"], project, LADDER_NOW=FINAL).stdout


def test_recommend_prints_evidence(project):
    done = ladder(["recommend", "--format", "json"], project, LADDER_NOW=FINAL)
    assert done.returncode == 0
    assert json.loads(done.stdout)["schema"] == "ladder-recommend"


def test_explain_names_counting_rules_limits_and_source(tmp_path):
    done = ladder(["explain", "LAD102"], tmp_path)
    assert done.returncode == 0
    for fragment in ("LAD102 cognitive_max", "app       15", "test      8", "Boolean sequences",
                     "definition: https://www.sonarsource.com/resources/cognitive-complexity/"):
        assert fragment in done.stdout
    assert ladder(["explain", "abc_max"], tmp_path).stdout.startswith("LAD103 abc_max")
    assert "LAD900" in ladder(["explain", "--list"], tmp_path).stdout
    unknown = ladder(["explain", "cognitve_max"], tmp_path)
    assert unknown.returncode == 2 and "did you mean 'cognitive_max'" in unknown.stderr


def test_doctor_reports_health_and_fixes(project, tmp_path):
    healthy = ladder(["doctor"], project)
    assert healthy.returncode == 0 and "nothing to fix" in healthy.stdout
    assert "entry point flake8.extension:LAD: registered" in healthy.stdout
    sick = demo_copy(tmp_path / "sick")
    (sick / ".ladder" / "history").mkdir(parents=True)
    (sick / ".ladder" / "history" / "events.jsonl").write_text("garbage\n")
    done = ladder(["doctor", "--json"], sick)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["history"]["skipped_lines"] == 1
    assert any("unreadable" in p["problem"] and p["fix"] for p in report["problems"])
    assert ladder(["history", "prune"], sick).returncode == 0  # goes on without the line, keeps the old log
    kept = json.loads(ladder(["doctor", "--json"], sick).stdout)
    assert kept["history"]["skipped_lines"] == 0 and len(kept["history"]["kept_aside"]) == 1
    assert any("kept aside: .ladder/history/events.jsonl.damaged-" in p["problem"] for p in kept["problems"])


def test_demo_tells_the_story():
    done = ladder(["demo"], Path.cwd())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "exit status 1" in done.stdout and "3 versions over the limit on 2 days" in done.stdout
    assert "left the untouched legacy_report() alone" in done.stdout


@pytest.mark.parametrize("command", ["demo", "init", "metrics", "check", "summary", "brief", "recommend", "report",
                                     "explain", "doctor", "history", "suppress"])
def test_every_command_has_help_with_examples(command, tmp_path):
    done = ladder([command, "--help"], tmp_path)
    assert done.returncode == 0 and "examples:" in done.stdout


def test_python_dash_m_is_the_same_command(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "ladder_plugins", "explain", "LAD101"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("LAD101 cyclomatic_max")


def test_progress_goes_to_a_terminal_only(tmp_path):
    import pty
    import subprocess
    import sys

    project = tmp_path / "many"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.ladder]\n")
    for n in range(25):
        (project / "src" / f"m{n}.py").write_text("def f():\n    return 1\n")
    piped = ladder(["check", "--no-record"], project)
    assert "analysed" not in piped.stderr
    leader, follower = pty.openpty()
    script = os.path.join(os.path.dirname(sys.executable), "ladder")
    proc = subprocess.Popen([script, "check", "--no-record"], cwd=project, stdout=subprocess.PIPE,
                            stderr=follower, env=dict(os.environ))
    os.close(follower)
    proc.communicate(timeout=120)
    seen = b""
    try:
        while chunk := os.read(leader, 4096):
            seen += chunk
    except OSError:
        pass
    os.close(leader)
    assert b"analysed 25/25 files" in seen


_COMMAND = re.compile(r"^::(?:error|warning) file=([^,:]*),line=(\d+),col=1,title=([^,:]*)::(.*)$")


def _unescape(text):
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def test_github_format_is_one_escaped_workflow_command_per_hotspot_unit_and_other_red_violation(project):
    done = ladder(["check", "--no-record", "--format", "github"], project, LADDER_NOW=FINAL)
    data = json.loads(ladder(["check", "--no-record", "--format", "json"], project, LADDER_NOW=FINAL).stdout)
    commands = [_COMMAND.match(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1 and all(commands)
    # price() fails the gate on its three rules: one error; legacy_report's three red rules are warnings
    assert len(commands) == 1 + data["summary"]["red"] - data["summary"]["gate_failures"]
    titles = [_unescape(m.group(3)) for m in commands]
    assert titles.count("LAD900 recurring_hotspot") == 1 and "LAD102 cognitive_max" in titles
    gate = [(m.group(1), _unescape(m.group(4))) for m in commands if m.group(3).startswith("LAD900")]
    assert [path for path, _ in gate] == ["src/shop/pricing.py"]
    assert all(f["message"].split("; ")[0].rpartition(" for ")[2] in gate[0][1] for f in data["gate"]["failures"])


def test_github_format_escapes_what_could_end_or_forge_a_command():
    from ladder_plugins.reports.github import escape_data, escape_property

    hostile = "a%b\r\n::error file=x::forged,c:d"
    assert "\n" not in escape_data(hostile) and _unescape(escape_data(hostile)) == hostile
    assert not set(escape_property(hostile)) & set(",:\r\n") and _unescape(escape_property(hostile)) == hostile


_GITLAB_ISSUE = {
    "type": "object",
    "required": ["description", "check_name", "fingerprint", "severity", "location"],
    "properties": {
        "description": {"type": "string"}, "check_name": {"type": "string"},
        "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
        "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
        "location": {"type": "object", "required": ["path", "lines"],
                     "properties": {"path": {"type": "string"},
                                    "lines": {"type": "object", "required": ["begin"],
                                              "properties": {"begin": {"type": "integer", "minimum": 1}}}}},
    },
}


def test_gitlab_format_is_a_code_quality_report(project):
    import jsonschema

    done = ladder(["check", "--no-record", "--format", "gitlab"], project, LADDER_NOW=FINAL)
    issues = json.loads(done.stdout)
    jsonschema.validate(issues, {"type": "array", "items": _GITLAB_ISSUE})
    assert len({i["fingerprint"] for i in issues}) == len(issues)  # unique per issue
    assert [i["severity"] for i in issues].count("critical") == 3  # the recurring hotspots
    again = json.loads(ladder(["check", "--no-record", "--format", "gitlab"], project, LADDER_NOW=FINAL).stdout)
    assert [i["fingerprint"] for i in again] == [i["fingerprint"] for i in issues]  # stable across runs


def test_gitlab_fingerprints_are_unique_in_strict_mode_too(project):
    issues = json.loads(ladder(["check", "--no-record", "--mode", "strict", "--format", "gitlab"], project,
                               LADDER_NOW=FINAL).stdout)
    assert len(issues) > 6 and len({i["fingerprint"] for i in issues}) == len(issues)


_NOT_UTF8 = "src/caf\\xe9.py"  # how every text output writes the name b"src/caf\xe9.py"


def _not_utf8_hotspot(root, monkeypatch, run):
    """A project whose one file's name is not UTF-8, checked, edited and checked again over two days."""
    (root / "src").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.ladder]\n")
    name = root / os.fsdecode(b"src/caf\xe9.py")
    for n, now in enumerate(step for step, _ in STEPS):
        branches = "".join(f"    if a{i}:\n        return {i + n}\n" for i in range(12))
        name.write_text(f"def f(a, b):\n{branches}    return 0\n")
        run(["check"], root, LADDER_NOW=now)
    monkeypatch.setenv("LADDER_NOW", FINAL)


#: each --output with what it must hold: the name escaped (text), in JSON's escape, or nothing of it
_OUTPUTS = {
    **{("check", "--no-record", "--format", fmt): _NOT_UTF8 for fmt in ("text", "markdown", "github")},
    **{("check", "--no-record", "--format", fmt): "caf" for fmt in ("json", "sarif", "gitlab")},
    ("metrics", "--format", "text"): _NOT_UTF8, ("metrics", "--format", "json"): "caf",
    ("summary", "--format", "text"): _NOT_UTF8, ("summary", "--format", "markdown"): "caf",
    ("summary", "--format", "json"): "caf", ("brief",): "caf",
    ("recommend", "--format", "text"): "", ("recommend", "--format", "json"): "",
}


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse names that are not UTF-8")
def test_a_name_that_is_not_utf8_is_written_escaped_by_every_output_and_report_html(
        tmp_path, monkeypatch, ladder_in_process):
    """Every --output and report --html replaces the file whole, valid UTF-8, the name's byte as \\xe9; standard
    output (strict UTF-8 under pytest, as in a UTF-8 locale) shows it the same."""
    _not_utf8_hotspot(tmp_path / "p", monkeypatch, ladder_in_process)
    out = tmp_path / "out"
    runs = {(*args, "--output", str(out)): shown for args, shown in _OUTPUTS.items()}
    for args, shown in {**runs, ("report", "--html", str(out)): _NOT_UTF8}.items():
        out.write_text("kept\n")
        assert ladder_in_process(args).returncode in (0, 1), args
        written = out.read_bytes().decode("utf-8")
        assert written != "kept\n" and shown in written, args
    assert _NOT_UTF8 in ladder_in_process(["metrics"]).stdout


def test_output_through_a_link_or_to_a_device_writes_there_and_leaves_the_path_as_it_was(tmp_path):
    import stat

    from ladder_plugins.cli.common import emit

    (tmp_path / "real.txt").write_text("old\n")
    (tmp_path / "link.txt").symlink_to("real.txt")
    emit("new", str(tmp_path / "link.txt"))
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "new\n"
    emit("nothing", os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
