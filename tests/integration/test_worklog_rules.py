"""Issue 33, the work log and the knowledge base, through the commands as an agent runs them: a count-mode log
written by ``ladder worklog add`` and checked, the start contract's minute, a knowledge base without D#-E# mapping
failing ``ladder worklog check --final``, the gate failing whenever ``ladder kb check`` does, a stray file in
``kb/raw/``, and a log ``add`` wrote that the seed's awk one-liner accepts too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ladder_plugins.catalogue import lint_rule
from ladder_plugins.worklog.notes import REGISTERS
from ladder_plugins.worklog.parse import parse_text

from tests.helpers.kb import CURATED, build_kb, register_text, write
from tests.unit.worklog.test_awk import GAWK, gawk
from tests.unit.worklog.test_count_mode import COUNT_CONTRACT, LOOP, TIME_CONTRACT

VALID_FULL = Path(__file__).resolve().parents[1] / "data" / "worklog" / "valid_full.md"


def run(root: Path, *args: str, body: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ladder_plugins", *args], cwd=root, input=body, capture_output=True,
                          text=True, timeout=120, env={**os.environ})


def project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.ladder]\n")
    return root


def add(root: Path, body: str, *args: str) -> None:
    done = run(root, "worklog", "add", *args, body=body)
    assert done.returncode == 0, done.stderr


def headers(root: Path) -> list[str]:
    return [r.header for r in parse_text((root / "work-log.md").read_text(encoding="utf-8")).reports]


def code(key: str) -> str:
    return lint_rule(key).code


# -- count mode ------------------------------------------------------------------------------------------------

def test_a_count_mode_session_written_by_add_logs_loop_n_of_m_and_passes(tmp_path):
    root = project(tmp_path)
    add(root, COUNT_CONTRACT, "--type", "milestone", "--elapsed", "00:45")
    add(root, "FIRST SYNTHESIS: C1-C3 from the initial pass.\n", "--type", "synthesis", "--elapsed", "05:00")
    add(root, LOOP.format("one row"), "--elapsed", "11:00")
    add(root, LOOP.format("one row"), "--type", "synthesis", "--elapsed", "17:00")
    add(root, LOOP.format("no change"), "--elapsed", "23:00")
    assert headers(root) == [
        "=== Report #4 | lines: 4 | elapsed: 23:00 | type: feedback | loop: 3 of 3 ===",
        "=== Report #3 | lines: 4 | elapsed: 17:00 | type: synthesis | loop: 2 of 3 ===",
        "=== Report #2 | lines: 4 | elapsed: 11:00 | type: feedback | loop: 1 of 3 ===",
        "=== Report #1 | lines: 2 | elapsed: 05:00 | type: synthesis | loop: 0 of 3 ===",
        "=== Report #0 | lines: 12 | elapsed: 00:45 | type: milestone | loop: 0 of 3 ==="]
    done = run(root, "worklog", "check")
    assert done.returncode == 0 and done.stdout == "passed: work log work-log.md: no problems\n", done.stdout
    log = root / "work-log.md"
    log.write_text(log.read_text().replace(" | loop: 2 of 3 ===", " ===").replace("loop: 3 of 3", "loop: 2 of 3"))
    done = run(root, "worklog", "check")
    assert done.returncode == 1
    assert f"work-log.md:1:1: {code('worklog_header')} line 1: Report #4 says loop: 2 of 3, but it is loop 3 of 3" \
        in done.stdout, done.stdout
    assert f"work-log.md:6:1: {code('worklog_header')} line 6: count mode" in done.stdout, done.stdout


def test_add_takes_the_loop_as_an_option(tmp_path):
    root = project(tmp_path)
    add(root, TIME_CONTRACT, "--type", "milestone", "--elapsed", "00:45")
    add(root, LOOP.format("ok"), "--elapsed", "11:00", "--loop", "1 of 5")
    assert headers(root)[0].endswith("| type: feedback | loop: 1 of 5 ===")
    add(root, LOOP.format("ok"), "--elapsed", "13:00", "--loop", "2")  # M from the header below
    assert headers(root)[0].endswith("| type: feedback | loop: 2 of 5 ===")
    refused = run(root, "worklog", "add", "--elapsed", "14:00", "--loop", "third", body=LOOP.format("ok"))
    assert refused.returncode == 2 and "expected N or 'N of M'" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr


def test_a_start_contract_written_nine_minutes_in_fails(tmp_path):
    root = project(tmp_path)
    add(root, TIME_CONTRACT, "--type", "milestone", "--elapsed", "09:00")
    done = run(root, "worklog", "check")
    assert done.returncode == 1
    assert f"work-log.md:1:1: {code('worklog_contract_value')} line 1: Report #0, the start contract, has elapsed: " \
           "09:00; the skill writes it within one minute" in done.stdout, done.stdout


# -- the FAIL gate and the knowledge base ----------------------------------------------------------------------

def closed_log(root: Path) -> None:
    (root / "work-log.md").write_text(VALID_FULL.read_text(encoding="utf-8"))


def test_a_kb_holding_only_the_registers_fails_the_final_gate(tmp_path):
    root = project(tmp_path)
    closed_log(root)
    for folder in ("raw", "archive"):
        (root / "kb" / folder).mkdir(parents=True)
    for name in REGISTERS:
        write(root, f"curated/{name}.md", register_text(name))
    assert run(root, "kb", "index").returncode == 0
    assert run(root, "kb", "check").returncode == 0
    done = run(root, "worklog", "check", "--final", "--kb", "kb")
    assert done.returncode == 1
    assert f"{code('worklog_fail_gate')} FAIL gate: no key decision in kb" in done.stdout, done.stdout


def test_the_final_gate_fails_when_kb_check_fails_on_the_same_tree(tmp_path):
    root = project(tmp_path)
    closed_log(root)
    build_kb(root)
    assert run(root, "worklog", "check", "--final", "--kb", "kb").returncode == 0
    note = root / "kb" / "curated" / f"{CURATED}.md"
    note.write_text(note.read_text().replace("fetched_at=2026-03-03T15:00", ""))
    kb_check = run(root, "kb", "check", "kb")
    assert kb_check.returncode == 1
    done = run(root, "worklog", "check", "--final", "--kb", "kb")
    assert done.returncode == 1, done.stdout
    assert "fails its own check" in done.stdout
    kb_lines = [line for line in kb_check.stdout.splitlines() if line.startswith("kb/")]
    assert kb_lines and all(line in done.stdout.splitlines() for line in kb_lines), (kb_lines, done.stdout)
    assert done.stdout.splitlines()[-1].startswith("failed: work log work-log.md, kb: ")


def test_a_stray_file_in_raw_is_reported_by_kb_check(tmp_path):
    root = project(tmp_path)
    build_kb(root)
    (root / "kb" / "raw" / "scratch.txt").write_text("an idea, not a note\n")
    done = run(root, "kb", "check")
    assert done.returncode == 1
    assert f"kb/raw/scratch.txt:1:1: {code('kb_layout')} is not a note" in done.stdout, done.stdout


# -- the awk one-liner -----------------------------------------------------------------------------------------

@pytest.mark.skipif(GAWK is None, reason="gawk is not on PATH (CI installs it)")
def test_a_log_add_wrote_with_blank_lines_passes_both_check_and_the_one_liner(tmp_path):
    root = project(tmp_path)
    add(root, TIME_CONTRACT + "\nAssumptions: none.\n", "--type", "milestone", "--elapsed", "00:45")
    add(root, "DIAGNOSE: rows twice.\n\nPROPOSE: upsert.\n", "--elapsed", "06:00")
    assert gawk(root / "work-log.md") == []
    done = run(root, "worklog", "check")
    assert done.stdout == "passed: work log work-log.md: no problems\n", done.stdout
