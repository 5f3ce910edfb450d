"""Issue 21, "Writing the format" and "pytest and CI": `ladder worklog add|correct|read|check` and the pytest
items, run for real (the console script in a subprocess; pytester for pytest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ladder_plugins.catalogue import lint_rule
from ladder_plugins.worklog.parse import parse_text

from .helpers.reports import ladder

SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
SEED_EXAMPLE = Path(__file__).resolve().parent / "data" / "worklog" / "seed_example.md"
CONTRACT = """task_type: code
task_goal: Make the work-log format a lint.
in_scope: parser, lint
out_of_scope: editors
min_required_minutes: 30
min_required_loops: null
done_definition:
  - the lint runs
deliverables: worklog package
as_of_date: 2026-12-01
start_time: 09:00
"""


def project(root: Path, table: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f"[tool.ladder]\n{table}")
    return root


def add(root: Path, body: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ladder_plugins", "worklog", "add", *args], cwd=root, input=body,
                          capture_output=True, text=True, timeout=120, env={**os.environ, **env})


def reports(root: Path, name: str = "work-log.md"):
    return parse_text((root / name).read_text(encoding="utf-8")).reports


def started(root: Path) -> Path:
    """A project whose log holds its start contract and two loops, written by the writer in this process (the
    tests of ``add`` itself run the command)."""
    from ladder_plugins.worklog.writer import LogFile, Timing, add_report

    log = LogFile(project(root) / "work-log.md", "work-log.md", root / ".lock")
    for body, kind, elapsed in ((CONTRACT, "milestone", "00:40"), ("DIAGNOSE: the count\n\nPROPOSE: compute it\n",
                                "feedback", "05:00"), ("TEST: 1-report-below, line 2 below holds\n", "feedback", "09:30")):
        add_report(log, body, kind, Timing(datetime.now(timezone.utc), elapsed))
    return root


# -- add ---------------------------------------------------------------------------------------------------

def test_add_writes_each_report_on_top_with_its_computed_header(tmp_path):
    root = project(tmp_path)
    assert add(root, CONTRACT, "--type", "milestone", "--elapsed", "00:40").returncode == 0
    assert add(root, "DIAGNOSE: the count\n\nPROPOSE: compute it\n", "--elapsed", "05:00").returncode == 0
    assert add(root, "TEST: 1-report-below, line 2 below holds\n", "--elapsed", "09:30").returncode == 0
    found = reports(root)
    assert [(r.number, r.declared, r.count, r.type) for r in found] == [
        (2, 2, 2, "feedback"), (1, 4, 4, "feedback"), (0, 12, 12, "milestone")]
    assert found[0].header == "=== Report #2 | lines: 2 | elapsed: 09:30 | type: feedback ==="
    assert [r.tail for r in found] == [("---",), ("---",), ()]
    done = ladder(["worklog", "check"], root)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-1] == "passed: work log work-log.md: no problems"


def test_add_counts_elapsed_from_the_start_contract_or_from_start(tmp_path):
    root = started(tmp_path)
    local = "2026-12-01T09:12:07"  # naive: read as UTC; the contract's start_time is local time
    env = {"LADDER_NOW": local, "TZ": "UTC"}
    assert add(root, "META: from the contract\n", **env).returncode == 0
    assert reports(root)[0].elapsed == "12:07"
    assert add(root, "META: from --start, past midnight\n", "--start", "23:50", **env).returncode == 0
    assert reports(root)[0].elapsed == f"{9 * 60 + 22:02d}:07"


@pytest.mark.parametrize("body, said", [
    ("", "the report body is empty"),
    ("fine\n=== Report #7 | lines: 1 | elapsed: 00:01 | type: feedback ===\n", "line 2 of the body"),
    ("fine\n---\n", "reads as the separator"),
])
def test_add_refuses_a_body_that_would_break_the_format_and_writes_nothing(tmp_path, body, said):
    root = started(tmp_path)
    before = (root / "work-log.md").read_bytes()
    done = add(root, body, "--elapsed", "10:00")
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert (root / "work-log.md").read_bytes() == before


@pytest.mark.parametrize("log, said", [
    ("# My log\n", "does not open with a report header"),
    ("=== Report #x | lines: 1 ===\n", "number cannot be read"),
])
def test_add_refuses_a_log_whose_top_cannot_take_a_report(tmp_path, log, said):
    root = project(tmp_path)
    (root / "work-log.md").write_text(log)
    done = add(root, "DIAGNOSE: x\n", "--elapsed", "01:00")
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert (root / "work-log.md").read_text() == log


def test_a_resumed_session_adds_on_top_of_the_final_report(tmp_path):
    """Skill §14: a session resumed after a FINAL REPORT goes on with Report #(N+1) above it."""
    root = started(tmp_path)
    log = root / "work-log.md"
    log.write_text("=== FINAL REPORT | elapsed: 30:00 | loops: 2 ===\nend_time: 09:30\n---\n" + log.read_text())
    assert add(root, "DIAGNOSE: resumed\n", "--elapsed", "31:00").returncode == 0
    assert [(r.kind, r.number) for r in reports(root)][:3] == [("report", 3), ("final", None), ("report", 2)]


@pytest.mark.parametrize("elapsed", ["01:²²", "01:٠٥", "¹²:00", "1:60", "1:5"])
def test_elapsed_takes_ascii_minutes_and_seconds_only(tmp_path, elapsed):
    root = started(tmp_path)
    before = (root / "work-log.md").read_bytes()
    done = add(root, "DIAGNOSE: x\n", "--elapsed", elapsed)
    assert done.returncode == 2 and "expected minutes and seconds as MM:SS" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and (root / "work-log.md").read_bytes() == before


def test_add_writes_through_a_symlinked_log_to_the_file_it_names(tmp_path):
    root = started(tmp_path)
    (root / "shared").mkdir()
    (root / "work-log.md").rename(root / "shared" / "log.md")
    (root / "work-log.md").symlink_to(Path("shared") / "log.md")
    assert add(root, "DIAGNOSE: through the link\n", "--elapsed", "20:00").returncode == 0
    assert (root / "work-log.md").is_symlink()
    assert reports(root, "shared/log.md")[0].body == ("DIAGNOSE: through the link",)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_add_to_a_fifo_is_refused_not_waited_on(tmp_path):
    root = project(tmp_path)
    os.mkfifo(root / "work-log.md")
    done = add(root, "DIAGNOSE: x\n", "--elapsed", "01:00")
    assert done.returncode == 2 and "is not a regular file" in done.stderr, done.stderr


def test_add_keeps_the_files_line_endings_and_byte_order_mark(tmp_path):
    root = project(tmp_path)
    old = "=== Report #0 | lines: 2 | elapsed: 00:10 | type: milestone ===\r\ntask_type: code\r\n"
    (root / "work-log.md").write_bytes(b"\xef\xbb\xbf" + old.encode())
    assert add(root, "DIAGNOSE: x\n", "--elapsed", "01:00").returncode == 0
    data = (root / "work-log.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf=== Report #1 | lines: 2 |") and data.endswith(old.encode())
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_add_from_four_processes_at_once_loses_nothing(tmp_path):
    root = project(tmp_path)
    script = ("import subprocess, sys\n"
              "for n in range(8):\n"
              "    subprocess.run([sys.executable, '-m', 'ladder_plugins', 'worklog', 'add', '--elapsed', '01:00'],\n"
              "                   input=f'WRITER {sys.argv[1]} REPORT {n}\\nline two\\n', text=True, check=True)\n")
    writers = [subprocess.Popen([sys.executable, "-c", script, str(w)], cwd=root) for w in range(4)]
    assert [w.wait(timeout=300) for w in writers] == [0, 0, 0, 0]
    found = reports(root)
    assert [r.number for r in found] == list(range(31, -1, -1))
    assert all(r.declared == r.count == 3 for r in found)
    bodies = sorted(r.body[0] for r in found)
    assert bodies == sorted(f"WRITER {w} REPORT {n}" for w in range(4) for n in range(8))


# -- correct -------------------------------------------------------------------------------------------------

def _miscounted(root: Path) -> bytes:
    """The started log with Report #1 declaring 3 lines (it has 4) and Report #0 declaring 13 (it has 12)."""
    log = root / "work-log.md"
    text = log.read_text().replace("#1 | lines: 4", "#1 | lines: 3").replace("#0 | lines: 12", "#0 | lines: 13")
    log.write_text(text)
    return text.encode()


def test_correct_writes_one_correction_per_wrong_count_and_edits_no_old_report(tmp_path):
    root = started(tmp_path)
    old = _miscounted(root)
    failed = ladder(["worklog", "check"], root)
    code = lint_rule("worklog_lines").code
    assert failed.returncode == 1 and failed.stdout.count(f":1: {code} ") == 2, failed.stdout
    done = ladder(["worklog", "correct", "--elapsed", "12:00"], root)
    assert done.returncode == 0 and "wrote 2 correction reports (#3, #4)" in done.stdout, done.stdout
    text = (root / "work-log.md").read_bytes()
    assert text.endswith(old)
    top = reports(root)
    assert top[0].body[0] == "CORRECTION: 4-reports-below header declares lines: 13, actual is 12."
    assert top[1].body[0] == "CORRECTION: 2-reports-below header declares lines: 3, actual is 4."
    assert ladder(["worklog", "check"], root).returncode == 0
    again = ladder(["worklog", "correct", "--elapsed", "12:30"], root)
    assert again.returncode == 0 and "nothing written" in again.stdout
    assert (root / "work-log.md").read_bytes() == text


# -- read ----------------------------------------------------------------------------------------------------

def test_read_prints_the_newest_reports_by_their_headers(tmp_path):
    root = started(tmp_path)
    done = ladder(["worklog", "read", "--reports", "2"], root)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\n---\n".join("\n".join(r.lines) for r in reports(root)[:2]) + "\n"


def test_read_stops_at_a_count_that_is_wrong_and_says_so(tmp_path):
    root = started(tmp_path)
    _miscounted(root)
    done = ladder(["worklog", "read", "--reports", "3"], root)
    assert done.returncode == 1, done.stdout
    assert done.stdout == "\n".join(reports(root)[0].lines) + "\n"
    assert "work-log.md:4: Report #1 declares lines: 3, but has 4" in done.stderr
    assert "ladder worklog correct" in done.stderr


def test_read_of_a_log_that_is_not_utf8_is_one_clear_error(tmp_path):
    root = project(tmp_path)
    (root / "work-log.md").write_bytes(b"=== Report #0 | lines: 1 | elapsed: 00:01 | type: milestone ===\n\xff\n")
    done = ladder(["worklog", "read"], root)
    assert done.returncode == 2 and "work-log.md:2: not UTF-8 (byte 64 is 0xff)" in done.stderr, done.stderr


# -- check's formats --------------------------------------------------------------------------------------------

def test_check_speaks_json_sarif_and_github(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    root = started(tmp_path)
    _miscounted(root)
    code = lint_rule("worklog_lines").code
    as_json = json.loads(ladder(["worklog", "check", "--format", "json"], root).stdout)
    assert as_json["schema"] == "ladder-worklog" and as_json["passed"] is False
    assert [(p["code"], p["line"]) for p in as_json["problems"]] == [(code, 4), (code, 9)]
    sarif = json.loads(ladder(["worklog", "check", "--format", "sarif"], root).stdout)
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text()))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == [code, code]
    github = ladder(["worklog", "check", "--format", "github"], root)
    assert github.returncode == 1
    assert github.stdout.splitlines()[0].startswith(f"::error file=work-log.md,line=4,col=1,title={code} ")


def test_sarif_fingerprints_stay_as_reports_are_added_on_top(tmp_path):
    root = started(tmp_path)
    _miscounted(root)

    def fingerprints() -> list[str]:
        sarif = json.loads(ladder(["worklog", "check", "--format", "sarif"], root).stdout)
        return [r["partialFingerprints"]["ladderFingerprint/v1"] for r in sarif["runs"][0]["results"]]

    before = fingerprints()
    assert add(root, "META: one more loop\n", "--elapsed", "30:00").returncode == 0
    assert fingerprints() == before and len(set(before)) == 2


def test_read_refuses_a_log_whose_line_1_is_not_a_header(tmp_path):
    root = started(tmp_path)
    (root / "work-log.md").write_text("\n" + (root / "work-log.md").read_text())
    done = ladder(["worklog", "read"], root)
    assert done.returncode == 1 and "line 1 is not a report header" in done.stderr and done.stdout == ""


def test_check_names_a_missing_log_as_a_problem_of_its_own(tmp_path):
    done = ladder(["worklog", "check", "nowhere.md"], project(tmp_path))
    code = lint_rule("worklog_unreadable").code
    assert done.returncode == 1 and f"nowhere.md:1:1: {code} no such file" in done.stdout, done.stdout


# -- pytest items ----------------------------------------------------------------------------------------------

def test_a_configured_work_log_and_kb_are_pytest_items(pytester):
    pytester.mkpydir("src")
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["src"]\n[tool.ladder.worklog]\nfiles = ["work-log.md"]\n'
                               'kb = "kb"\n')
    pytester.path.joinpath("work-log.md").write_text(SEED_EXAMPLE.read_text().replace("lines: 6", "lines: 5"))
    result = pytester.runpytest("-p", "no:cacheprovider", "--ladder", "-v")
    result.stdout.fnmatch_lines(["*work-log.md::ladder-worklog FAILED*", "*kb::ladder-kb FAILED*"])
    code = lint_rule("worklog_lines").code
    result.stdout.fnmatch_lines([f"work-log.md:1:1: {code} *"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


@pytest.mark.parametrize("args", [(), ("work-log.md",), (".",)], ids=["no path", "the log", "the root"])
def test_a_work_log_given_to_pytest_is_its_one_item(pytester, args):
    pytester.makepyprojecttoml('[tool.ladder]\n[tool.ladder.worklog]\nfiles = ["work-log.md", "./work-log.md"]\n')
    pytester.path.joinpath("work-log.md").write_text(SEED_EXAMPLE.read_text())
    pytester.makepyfile(test_one="def test_one():\n    assert 1\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--ladder", "--ladder-no-record", "-v", *args)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    assert result.stdout.str().count("work-log.md::ladder-worklog PASSED") == 1


def test_without_configuration_no_lint_item_is_made(pytester):
    pytester.mkpydir("src")
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["src"]\n')
    pytester.path.joinpath("work-log.md").write_text("garbage\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--ladder", "-v")
    assert "ladder-worklog" not in result.stdout.str() and "ladder-kb" not in result.stdout.str()


# -- the work-log page's example session is what the commands print -----------------------------------------

WORKLOG_PAGE = Path(__file__).resolve().parent.parent / "docs" / "how-to" / "worklog.md"


def _page_block(marker: str) -> str:
    import re

    text = WORKLOG_PAGE.read_text(encoding="utf-8")
    match = re.search(rf"<!-- {re.escape(marker)} -->\n```text\n(.*?)```", text, re.S)
    assert match, f"{WORKLOG_PAGE.name} has no block marked {marker}"
    return match.group(1)


def _session() -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for line in _page_block("worklog-session").splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def test_the_pages_example_session_is_what_the_commands_print(tmp_path):
    root = project(tmp_path)
    (root / "contract.txt").write_text(_page_block("worklog-file: contract.txt"))
    # `ladder` and `python3` as the page's reader has them: this interpreter's
    path = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    for command, expected in _session():
        done = subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PATH": path})
        assert (done.stdout + done.stderr).splitlines() == expected, command


# -- ladder kb, where the knowledge base is ------------------------------------------------------------------

def test_kb_index_then_check_passes_and_move_keeps_it_passing(tmp_path):
    from .helpers.kb import RAW, build_kb

    root = project(tmp_path)
    build_kb(root, index=False)
    assert ladder(["kb", "check"], root).returncode == 1  # no _index.md yet
    assert ladder(["kb", "index"], root).stdout == "wrote kb/_index.md\n"
    assert ladder(["kb", "index"], root).stdout == "unchanged: kb/_index.md\n"
    assert ladder(["kb", "check"], root).stdout == "passed: knowledge base kb: no problems\n"
    moved = ladder(["kb", "move", RAW, "archive", "--reason", 'refuted: "5" was too few'], root)
    assert moved.returncode == 0 and (root / "kb" / "archive" / f"{RAW}.md").is_file(), moved.stderr
    done = ladder(["kb", "check"], root)
    assert done.returncode == 0, done.stdout


def _broken_note(kb: Path) -> None:
    (kb / "raw" / "20260303-170000-broken.md").write_text("no frontmatter\n")


def test_a_kb_outside_the_project_is_named_by_its_own_path(tmp_path):
    from .helpers.kb import build_kb

    build_kb(tmp_path / "other")
    _broken_note(tmp_path / "other" / "kb")
    here = project(tmp_path / "here")
    build_kb(here)
    done = ladder(["kb", "check", str(tmp_path / "other" / "kb")], here)
    shown = (tmp_path / "other" / "kb").as_posix()
    assert done.returncode == 1 and f"{shown}/raw/20260303-170000-broken.md:1:1: " in done.stdout, done.stdout
    assert "\nkb/raw/" not in "\n" + done.stdout


def test_a_kb_at_the_project_root_keeps_paths_and_bounds_there(tmp_path):
    from .helpers.kb import build_kb

    build_kb(tmp_path / "made")
    root = project(tmp_path / "made" / "kb", '[tool.ladder.worklog]\nkb = "."\n')
    _broken_note(root)
    (tmp_path / "secret.md").write_text("---\nid: x\n---\n")
    (root / "raw" / "20260303-180000-leak.md").symlink_to(tmp_path / "secret.md")
    done = ladder(["kb", "check"], root)
    assert done.returncode == 1 and "\nraw/20260303-170000-broken.md:1:1: " in "\n" + done.stdout, done.stdout
    leak = [line for line in done.stdout.splitlines() if "leak.md" in line]
    assert leak and all(lint_rule("kb_layout").code in line for line in leak), leak


# -- the options and the configuration, through the command ----------------------------------------------------

DATA = Path(__file__).resolve().parent / "data" / "worklog"


def test_gaps_are_allowed_by_the_flag_or_the_configuration(tmp_path):
    root = project(tmp_path)
    (root / "gapped.md").write_text((DATA / "order_gap.md").read_text())
    code = lint_rule("worklog_order").code
    assert f"gapped.md:8:1: {code} " in ladder(["worklog", "check", "gapped.md"], root).stdout
    assert ladder(["worklog", "check", "--allow-gaps", "gapped.md"], root).returncode == 0
    project(root, "[tool.ladder.worklog]\nallow_gaps = true\n")
    assert ladder(["worklog", "check", "gapped.md"], root).returncode == 0


def test_the_configured_log_is_what_every_worklog_command_reads(tmp_path):
    root = project(tmp_path, '[tool.ladder.worklog]\nfiles = ["notes/loop.md"]\n')
    assert add(root, "DIAGNOSE: the first loop\n", "--elapsed", "01:00").returncode == 0
    assert reports(root, "notes/loop.md")[0].body == ("DIAGNOSE: the first loop",)
    assert not (root / "work-log.md").exists()
    assert ladder(["worklog", "read"], root).stdout.startswith("=== Report #0 | lines: 2 |")
    verdict = ladder(["worklog", "check"], root).stdout.splitlines()[-1]
    assert verdict.startswith("failed: work log notes/loop.md: ")  # Report #0 is not a start contract here


def test_final_reads_the_registers_of_the_kb_it_is_given(tmp_path):
    from .helpers.kb import build_kb

    root = project(tmp_path)
    (root / "work-log.md").write_text((DATA / "valid_full.md").read_text())
    gate = lint_rule("worklog_fail_gate").code
    without = ladder(["worklog", "check", "--final"], root)
    assert without.returncode == 1 and f"{gate} " in without.stdout and "kb/curated/" in without.stdout
    build_kb(root / "elsewhere")
    done = ladder(["worklog", "check", "--final", "--kb", "elsewhere/kb"], root)
    assert done.returncode == 0, done.stdout


def test_kb_check_speaks_json_and_sarif(tmp_path):
    from .helpers.kb import build_kb

    jsonschema = pytest.importorskip("jsonschema")
    root = project(tmp_path)
    build_kb(root)
    _broken_note(root / "kb")
    as_json = json.loads(ladder(["kb", "check", "--format", "json"], root).stdout)
    assert as_json["what"] == "knowledge base" and not as_json["passed"]
    assert {p["code"] for p in as_json["problems"]} >= {lint_rule("kb_frontmatter").code}
    sarif = json.loads(ladder(["kb", "check", "--format", "sarif"], root).stdout)
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text()))
    assert sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith(
        "kb/")
