"""The work-log lint (``ladder worklog check``'s core): every fixture gives exactly the problems EXPECTED.toml lists,
each rule has a fixture that fails it, messages name the line and what is expected, and no input raises."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Optional, Sequence

import pytest

from ladder_plugins.catalogue import WORKLOG_RULES, lint_rule
from ladder_plugins.config import toml_loads
from ladder_plugins.worklog.contract import contract_values, termination
from ladder_plugins.worklog.final import feedback_reports
from ladder_plugins.worklog.lint import LintResult, check_file, check_log, unacknowledged_mismatches
from ladder_plugins.worklog.model import Problem
from ladder_plugins.worklog.notes import REGISTERS as REGISTER_STEMS
from ladder_plugins.worklog.parse import WorkLog, WorkLogError, header_text, parse_text, read_log
from ladder_plugins.worklog.writer import correction_body

from ladder_plugins.worklog import kb as kb_module

from tests.helpers import paths
from tests.helpers.kb import build_kb

DATA = paths.DATA / "worklog"
REGISTERS = tuple(f"{stem}.md" for stem in REGISTER_STEMS)
EXPECTED = toml_loads((DATA / "EXPECTED.toml").read_text(encoding="utf-8"))


def make_kb(root: Path, registers: Sequence[str] = REGISTERS) -> Path:
    """A knowledge base that passes its own check and maps a key decision (the gate asks both), holding the given
    registers only (one left out is a problem of its check too)."""
    build_kb(root, index=False)
    for name in set(REGISTERS) - set(registers):
        (root / "kb" / "curated" / name).unlink()
    kb_module.write_index(root)
    return root / "kb"


def gate_item(result: LintResult, said: str) -> Problem:
    """The one FAIL gate item whose message says ``said``."""
    found = [p for p in result.problems if p.rule.key == "worklog_fail_gate" and said in p.message]
    assert len(found) == 1, result.problems
    return found[0]


def run_fixture(name: str, root: Path) -> LintResult:
    entry = EXPECTED[name]
    kb = make_kb(root) if entry.get("kb") else None
    return check_file(DATA / f"{name}.md", f"{name}.md", final=entry.get("final", False), kb_dir=kb)


def pairs(found: Sequence[Problem]) -> list[tuple[str, int]]:
    return sorted((p.rule.key, p.line) for p in found)


def expected_pairs(entry: dict, what: str) -> list[tuple[str, int]]:
    return sorted((key, line) for key, line in entry[what])


def report(number: int, *body: str, kind: str = "feedback", elapsed: str = "05:00",
           lines: Optional[int] = None) -> list[str]:
    """A report's lines, its header's count right unless ``lines`` is given."""
    return [header_text(number, len(body) + 1 if lines is None else lines, elapsed, kind), *body]


def log_of(*reports: list[str]) -> WorkLog:
    """A log of ``reports`` (top first) with one ``---`` between them."""
    lines: list[str] = []
    for block in reports:
        lines += (["---"] if lines else []) + block
    return parse_text("\n".join(lines) + "\n")


def keys(result: LintResult) -> list[str]:
    return sorted(p.rule.key for p in result.problems)


def only(result: LintResult, key: str) -> Problem:
    found = [p for p in result.problems if p.rule.key == key]
    assert len(found) == 1, result.problems
    return found[0]


# --- the fixtures ------------------------------------------------------------------------------------------------

def test_every_fixture_has_its_expectation():
    assert sorted(p.stem for p in DATA.glob("*.md")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_gives_exactly_its_expected_problems(name, tmp_path):
    result = run_fixture(name, tmp_path)
    assert pairs(result.problems) == expected_pairs(EXPECTED[name], "problems")
    assert pairs(result.notes) == expected_pairs(EXPECTED[name], "notes")


def test_every_worklog_rule_has_a_failing_fixture(tmp_path):
    failed = {key for entry in EXPECTED.values() for key, _ in entry["problems"]}
    rules = {rule.key for rule in WORKLOG_RULES.values() if rule.key.startswith("worklog_")}
    assert rules - failed == set()
    assert {lint_rule(key).code for key in rules} == {f"LAD{n}" for n in range(300, 315)}


def names_its_place(p: Problem) -> bool:
    """A message names its line, or (a count, which is the header's) the report and its last content line."""
    if p.rule.key == "worklog_lines":
        return p.message.startswith("Report #") and "through last content line, line " in p.message
    return f"line {p.line}" in p.message or f"lines {p.line}-" in p.message


def test_every_message_names_its_line(tmp_path):
    messages = [p for name in EXPECTED for p in run_fixture(name, tmp_path).problems
                if p.rule.key not in ("worklog_unreadable", "worklog_fail_gate")]
    assert len(messages) > 40
    assert [p for p in messages if not names_its_place(p)] == []


# --- counts ------------------------------------------------------------------------------------------------------

def test_seed_example_passes_and_its_changed_count_fails_at_the_header(tmp_path):
    assert run_fixture("seed_example", tmp_path) == LintResult((), ())
    wrong = only(run_fixture("seed_wrong_count", tmp_path), "worklog_lines")
    assert wrong.line == 1
    assert wrong.message == ("Report #3 declares lines: 7, but the report has 6 lines (header through last content "
                             "line, line 6)")


def test_interior_blank_line_is_counted_and_the_awk_count_is_explained(tmp_path):
    wrong = only(run_fixture("lines_interior_blank", tmp_path), "worklog_lines")
    assert "has 7 lines" in wrong.message
    assert wrong.message.endswith("the skill's awk one-liner counts 6: it skips 1 blank line inside the report")


def test_right_count_the_awk_one_liner_would_fail_is_a_note_not_a_problem(tmp_path):
    result = run_fixture("lines_interior_blank_right", tmp_path)
    assert result.passed
    assert "'MISMATCH at line 1: declared=7 actual=6'" in result.notes[0].message


def test_crlf_log_counts_like_an_lf_log():
    text = (DATA / "lines_crlf.md").read_bytes().decode("utf-8")
    assert "\r\n" in text
    crlf, lf = parse_text(text), parse_text(text.replace("\r\n", "\n"))
    assert [r.count for r in crlf.reports] == [r.count for r in lf.reports] == [5, 3]
    assert check_log(crlf).problems == check_log(lf).problems == ()
    assert "carriage return" in check_log(crlf).notes[0].message


def test_unacknowledged_mismatches_are_what_a_correction_would_fix():
    assert [r.number for r in unacknowledged_mismatches(read_log(DATA / "correction_wrong_numbers.md"))] == [1]
    assert unacknowledged_mismatches(read_log(DATA / "valid_full.md")) == []
    assert unacknowledged_mismatches(read_log(DATA / "seed_example.md")) == []


# --- the writer's correction is what the lint reads ---------------------------------------------------------------

def test_the_writers_correction_acknowledges_the_mismatch():
    wrong = report(1, "DIAGNOSE: x.", "TEST: y.", lines=7)
    before = log_of(report(2, "META: z."), wrong)
    assert [p.rule.key for p in check_log(before).problems] == ["worklog_lines"]
    after = log_of(report(3, *correction_body(2, 7, 3)), report(2, "META: z."), wrong)
    result = check_log(after)
    assert result.passed and unacknowledged_mismatches(after) == []
    assert "acknowledges it" in result.notes[0].message


def test_correction_with_wrong_numbers_names_the_real_ones(tmp_path):
    wrong = only(run_fixture("correction_wrong_numbers", tmp_path), "worklog_correction")
    assert "declares lines: 6 and has 5 lines" in wrong.message
    assert "'CORRECTION: 2-reports-below header declares lines: 6, actual is 5.'" in wrong.message


def test_a_correction_reports_other_lines_may_name_reports_absolutely():
    log = log_of(report(3, *correction_body(2, 7, 3), "Old numbering: Report #1."), report(2, "META: z."),
                 report(1, "DIAGNOSE: x.", "TEST: y.", lines=7))
    assert check_log(log).passed


# --- references --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["1-report-below", "1-reports-below, line 2 below", "2-report-below line 3 below",
                                  "2-Reports-Below, line 1 below"])
def test_relative_references_in_either_number_resolve(text):
    log = log_of(report(3, f"Extends {text}."), report(2, "A.", "B."), report(1, "C.", "D."))
    assert check_log(log).passed


@pytest.mark.parametrize("text, why", [("3-reports-below", "only 2 reports stand below"), ("1-report-below, line 4 below",
                                       "which has 3 lines"), ("2-reports-below, line 0 below", "line 0 of Report #1"),
                                       ("99999999999-reports-below", "stand below")])
def test_unresolved_relative_references_say_why(text, why):
    log = log_of(report(3, f"Extends {text}."), report(2, "A.", "B."), report(1, "C.", "D."))
    problem = only(check_log(log), "worklog_reference")
    assert problem.line == 2 and why in problem.message


def test_seed_example_reference_counts_places_and_lines():
    reports = [report(n, *(f"line {i}" for i in range(2, 8))) for n in (5, 4, 3, 2, 1)]
    reports[0] = report(5, "Contradicts finding at 2-reports-below, line 4 below", "See 4-reports-below, line 6 below")
    assert check_log(log_of(*reports)).passed
    reports[0] = report(5, "See gap at 4-reports-below, line 8 below")
    assert keys(check_log(log_of(*reports))) == ["worklog_reference"]


def test_headers_may_name_their_number_bodies_may_not():
    log = log_of(report(2, "See report #1 and R#1."), report(1, "A."))
    assert [p.line for p in check_log(log).problems] == [2, 2]


# --- the start contract ------------------------------------------------------------------------------------------

def test_misspelled_key_gets_did_you_mean_and_no_second_problem(tmp_path):
    typo = only(run_fixture("contract_key_typo", tmp_path), "worklog_contract_keys")
    assert "'tout_of_scope'; did you mean 'out_of_scope'?" in typo.message


def test_both_minimums_null_names_the_skills_default(tmp_path):
    both = only(run_fixture("contract_both_null", tmp_path), "worklog_termination")
    assert "min_required_minutes: 5" in both.message
    assert termination(read_log(DATA / "contract_both_null.md")).minutes == 5


def test_contract_values_are_the_raw_text():
    values = contract_values(read_log(DATA / "valid_full.md"))
    assert values["start_time"] == "09:30" and values["min_required_loops"] == "null"
    assert values["done_definition"].splitlines()[0] == "token refresh retries once on a 503"
    assert "Assumptions" not in " ".join(values)
    assert contract_values(read_log(DATA / "seed_example.md")) is None


@pytest.mark.parametrize("line, fragment", [("task_type: Code", "did you mean 'code'"),
                                            ("as_of_date: 03/03/2026", "YYYY-MM-DD"),
                                            ("min_required_loops: 99999999999", "at most 9 digits"),
                                            ("deliverables: <comma-separated list>", "placeholder")])
def test_contract_value_forms(line, fragment):
    block = (DATA / "contract_valid.md").read_text(encoding="utf-8").split("\n")
    key = line.split(":")[0]
    text = "\n".join(line if row.startswith(key + ":") else row for row in block)
    assert fragment in only(check_log(parse_text(text)), "worklog_contract_value").message


# --- order, separators, headers, types, elapsed ------------------------------------------------------------------

def test_gaps_pass_when_allowed():
    log = read_log(DATA / "order_gap.md")
    assert keys(check_log(log)) == ["worklog_order"]
    assert check_log(log, allow_gaps=True).passed


@pytest.mark.parametrize("elapsed, ok", [("125:30", True), ("00:00", True), ("1:00", False), ("00:60", False),
                                         ("ab:cd", False), ("", False)])
def test_elapsed_is_minutes_and_seconds(elapsed, ok):
    assert check_log(log_of(report(1, "A.", elapsed=elapsed))).passed is ok


def test_unknown_type_suggests_the_near_one():
    log = log_of(report(1, "A.", kind="Synthesis"))
    assert "did you mean 'synthesis'?" in only(check_log(log), "worklog_type").message


def test_a_body_line_awk_would_take_for_a_header_is_a_header():
    log = parse_text("=== Report #2 | lines: 2 | elapsed: 05:00 | type: feedback ===\nA.\n=== Reports below\n")
    assert pairs(check_log(log).problems) == [("worklog_header", 3), ("worklog_separator", 3)]


def test_empty_log_has_no_problems_and_a_text_without_header_has_one():
    assert check_log(parse_text("")).passed and check_log(parse_text("\n\n")).passed
    assert pairs(check_log(parse_text("\nnotes\n")).problems) == [("worklog_header", 2)]


# --- the final block and the FAIL gate ---------------------------------------------------------------------------

def test_valid_log_passes_the_gate_only_with_both_registers(tmp_path):
    log = read_log(DATA / "valid_full.md")
    assert check_log(log, final=True, kb_dir=make_kb(tmp_path)).passed
    missing = check_log(log, final=True, kb_dir=make_kb(tmp_path / "b", REGISTERS[:1]))
    assert gate_item(missing, "GAP-REGISTER.md does not exist")
    assert "(LAD328)" in gate_item(missing, "fails its own check").message
    assert "no knowledge base" in only(check_log(log, final=True), "worklog_fail_gate").message


def test_the_gate_needs_a_contract_a_loop_and_a_closing(tmp_path):
    result = check_log(read_log(DATA / "seed_example.md"), final=True, kb_dir=make_kb(tmp_path))
    messages = " | ".join(p.message for p in result.problems)
    assert keys(result) == ["worklog_fail_gate"] * 2
    assert "no start contract" in messages and "no FINAL REPORT" in messages


def test_feedback_reports_leave_out_the_contract_corrections_and_other_types():
    log = read_log(DATA / "valid_full.md")
    assert [r.number for r in feedback_reports(log)] == [5, 4, 2]


def test_count_mode_is_met_by_loops(tmp_path):
    text = (DATA / "valid_full.md").read_text(encoding="utf-8")
    text = text.replace("min_required_minutes: 30", "min_required_minutes: null").replace(
        "min_required_loops: null", "min_required_loops: 4").replace("termination_mode: time", "termination_mode: count")
    result = check_log(parse_text(text), final=True, kb_dir=make_kb(tmp_path))
    gate = [p.message for p in result.problems if "execution boundary" in p.message]
    assert len(gate) == 1 and "3 feedback loops under min_required_loops: 4" in gate[0]
    # count mode: each header lacks its 'loop: N of M' (the skill's §5), so the headers are not verified either
    assert {p.rule.key for p in result.problems} == {"worklog_header", "worklog_fail_gate"}


# --- size and robustness -----------------------------------------------------------------------------------------

def big_log(count: int, wrong: Optional[int] = None) -> tuple[str, dict[int, int]]:
    """``count`` feedback reports (newest on top) referring to the one below; report ``wrong`` miscounted. Returns
    the text and each report's header line."""
    lines: list[str] = []
    starts = {}
    for number in range(count, 0, -1):
        body = [f"DIAGNOSE: loop {number}.", "", "PROPOSE: extends 1-report-below, line 2 below."]
        body = body if number > 1 else body[:1]
        declared = len(body) + 1 + (1 if number == wrong else 0)
        lines += ["---"] if lines else []
        starts[number] = len(lines) + 1
        lines += [header_text(number, declared, f"{number:02d}:00", "feedback"), *body]
    return "\n".join(lines) + "\n", starts


def test_two_hundred_reports_are_checked_quickly_and_one_wrong_count_is_found_at_its_header():
    text, _ = big_log(200)
    began = time.perf_counter()
    assert check_log(parse_text(text)).passed
    text, starts = big_log(200, wrong=100)
    assert pairs(check_log(parse_text(text)).problems) == [("worklog_lines", starts[100])]
    assert time.perf_counter() - began < 2.0


FRAGMENTS = ["=== Report #3 | lines: 2 | elapsed: 01:00 | type: feedback ===", "=== Report #99999999999999 | lines: "
             "88888888888888 | elapsed: 9999999:59 | type: feedback ===", "=== FINAL REPORT | elapsed: 01:00 | loops: "
             "1 ===", "=== FINAL REPORT | elapsed: x | loops: 99999999999999 ===", "== report #x", "=== Reports",
             "---", "  ---", "", "   ", "\r", "CORRECTION: 1-report-below header declares lines: 9, actual is 1.",
             "CORRECTION: 99999999999-reports-below header declares lines: 1, actual is 2.", "CORRECTION: Report #2",
             "see 2-reports-below, line 99999999999999999999 below", "Report #1 R#2", "task_type: ☃", "  - bullet",
             "done_definition:", "min_required_minutes: null", "min_required_loops: null", "## Reproducibility",
             "total_proposals_generated: 9 (convergent: 1, divergent: 1)", "日本語のテキスト", "\u2028", "\x00",
             "=== Report #0 | lines: 3 | elapsed: 00:00 | type: milestone ===", "start_time: 99:99", "1" * 5000,
             "=== Report #٣ | lines: ２ | elapsed: ٠١:٠٠ | type: feedback ===", "end_time: 99:99", "see ٣-reports-below",
             "end_time: 2026-03-03T10:02:07", "total_feedback_loops: ٣", "== report three"]


@pytest.mark.parametrize("seed", range(40))
def test_random_logs_never_raise(seed, tmp_path):
    rng = random.Random(seed)
    text = "\n".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 60)))
    result = check_log(parse_text(text), final=True, kb_dir=tmp_path)
    assert all(p.line >= 1 and p.message for p in (*result.problems, *result.notes))
    (tmp_path / "log.md").write_bytes(bytes(rng.randint(0, 255) for _ in range(200)))
    assert isinstance(check_file(tmp_path / "log.md", final=True), LintResult)


def test_unreadable_file_is_one_problem_at_the_bad_byte(tmp_path):
    result = check_file(DATA / "unreadable_latin1.md", "w.md")
    assert pairs(result.problems) == [("worklog_unreadable", 2)]
    assert "not UTF-8" in result.problems[0].message
    assert keys(check_file(tmp_path / "missing.md")) == ["worklog_unreadable"]


# --- review findings: linear regexes, ASCII digits, regular files, messages, end_time, sessions ------------------

HUGE = 200_000
#: runs a regex might read in more than one way: quadratic matching of one of them would not end this session
PADS = {"spaces": " " * HUGE, "tabs": "\t" * HUGE, "commas": "," * HUGE, "mixed": " ,\t" * (HUGE // 3)}


def padded_log(pad: str) -> str:
    """A log with ``pad`` in every place a regex reads: headers, bodies, the contract's lines, the final fields."""
    return "\n".join([
        "=== FINAL REPORT | elapsed: 30:00 | loops: 1 ===", f"end_time:{pad}10:00{pad}x", f"end_time{pad}x",
        f"total_proposals_generated: 1{pad}(convergent:{pad}1,{pad}divergent: 0{pad}x", f"##{pad}Reproducibility{pad}",
        "---", f"=== Report #2 | lines: 9 | elapsed: {pad} | type: feedback{pad}x", f"see 1-report-below{pad}x",
        f"see 1-report-below{pad}line{pad}2{pad}x", f"see 1-report-below,{pad}line 2{pad}", f"Report{pad}#{pad}x",
        f"R#{pad}1", f"{pad}CORRECTION:{pad}1-report-below{pad}header{pad}x", f"x{pad}", "---",
        f"=== Report{pad}#{pad}x | lines{pad}:{pad}x", f"=== FINAL{pad}", f"=== FINAL REPORT | elapsed: {pad} | loops:",
        "---", "=== Report #0 | lines: 9 | elapsed: 00:10 | type: milestone ===", f"task_goal{pad}x",
        f"task_type{pad}:{pad}code{pad}", f"in_scope:{pad}", f"  -{pad}x", f"-{pad}", f"start_time:{pad}09:30{pad}x",
        f"as_of_date{pad}:{pad}", f"{pad}:{pad}", f"done_definition{pad}:{pad}", ""])


@pytest.mark.parametrize("name", sorted(PADS))
def test_lines_of_two_hundred_thousand_ambiguous_characters_are_read_in_linear_time(name, tmp_path):
    """No timing: with a quadratic regex a 200,000-character line takes hours, so this test would not end."""
    log = parse_text(padded_log(PADS[name]))
    result = check_log(log, final=True, kb_dir=tmp_path)
    assert all(len(p.message) < 2000 for p in (*result.problems, *result.notes))
    assert [p for p in result.problems if p.rule.key == "worklog_reference"] == []
    assert result.problems


NON_ASCII = [("=== Report #٣ | lines: ２ | elapsed: 01:00 | type: feedback ===", "worklog_header", (None, None, None)),
             ("=== Report #3 | lines: ２ | elapsed: 01:00 | type: feedback ===", "worklog_header", (3, None, None)),
             ("=== Report #3 | lines: 2 | elapsed: ٠١:٠٠ | type: feedback ===", "worklog_elapsed", (3, 2, None)),
             ("=== FINAL REPORT | elapsed: 01:00 | loops: ٣ ===", "worklog_header", (None, None, None))]


@pytest.mark.parametrize("header, key, read", NON_ASCII)
def test_a_header_number_in_other_digits_is_no_number(header, key, read):
    log = parse_text(f"{header}\nA.\n")
    assert key in keys(check_log(log))
    assert (log.reports[0].number, log.reports[0].declared, log.reports[0].loops) == read


@pytest.mark.parametrize("old, new", [("min_required_minutes: 30", "min_required_minutes: ٣٠"),
                                      ("start_time: 09:30", "start_time: ٠٩:٣٠"), ("end_time: 10:02", "end_time: ١٠:٠٢"),
                                      ("total_feedback_loops: 3", "total_feedback_loops: ٣"),
                                      ("total_proposals_validated: 2", "total_proposals_validated: ٢"),
                                      ("(convergent: 3,", "(convergent: ٣,"),
                                      ("2-reports-below header declares lines: 6", "٢-reports-below header declares "
                                       "lines: ٦")])
def test_a_value_in_other_digits_is_a_problem(old, new, tmp_path):
    text = (DATA / "valid_full.md").read_text(encoding="utf-8")
    assert old in text
    assert not check_log(parse_text(text.replace(old, new)), final=True, kb_dir=make_kb(tmp_path)).passed


def test_no_number_is_read_with_a_pattern_that_takes_other_digits():
    import ladder_plugins.worklog.contract as contract
    import ladder_plugins.worklog.final as final
    import ladder_plugins.worklog.lint as lint
    import ladder_plugins.worklog.parse as parse
    import ladder_plugins.worklog.references as references

    patterns = [value.pattern for module in (parse, contract, references, final, lint)
                for value in vars(module).values() if hasattr(value, "pattern") and hasattr(value, "finditer")]
    assert len(patterns) > 20
    assert [p for p in patterns if "\\d" in p] == []


def test_int_never_sees_a_digit_that_is_not_ascii(monkeypatch, tmp_path):
    import ladder_plugins.worklog.contract as contract
    import ladder_plugins.worklog.final as final
    import ladder_plugins.worklog.parse as parse
    import ladder_plugins.worklog.references as references

    def ascii_int(value, *base):
        assert not isinstance(value, str) or value.isascii(), value
        return int(value, *base)

    for module in (parse, contract, references, final):
        monkeypatch.setattr(module, "int", ascii_int, raising=False)
    text = (DATA / "valid_full.md").read_text(encoding="utf-8")
    for ascii_digit, other in zip("0123456789", "٠١٢٣٤٥٦٧٨٩"):
        text = text.replace(ascii_digit, other)
    assert not check_log(parse_text(text), final=True, kb_dir=make_kb(tmp_path)).passed


# --- only regular files are read ---------------------------------------------------------------------------------

def checked_in_a_thread(file: Path, unblock: Path) -> Optional[LintResult]:
    """``check_file(file)``; should it block on ``unblock`` (a FIFO) past a minute, a writer frees it and the test
    fails instead of hanging."""
    import os
    import threading

    found: list[LintResult] = []
    worker = threading.Thread(target=lambda: found.append(check_file(file, "work-log.md")), daemon=True)
    worker.start()
    worker.join(60)
    if worker.is_alive():
        os.close(os.open(unblock, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(10)
        return None
    return found[0]


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("through_a_link", [False, True])
def test_a_fifo_is_not_read_but_reported(tmp_path, through_a_link):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    file = tmp_path / "work-log.md"
    if through_a_link:
        file.symlink_to(fifo)
    else:
        fifo.rename(file)
    result = checked_in_a_thread(file, fifo if through_a_link else file)
    assert result is not None, "check_file blocked on a FIFO"
    assert "is not a regular file" in only(result, "worklog_unreadable").message


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null here")
def test_a_device_is_not_read_but_reported():
    with pytest.raises(WorkLogError, match="is not a regular file"):
        read_log(Path("/dev/null"), "work-log.md")


def test_a_log_past_64_mib_is_refused_and_a_link_to_a_log_is_read(tmp_path):
    big = tmp_path / "big.md"
    with big.open("wb") as stream:
        stream.truncate(64 * 1024 * 1024 + 1)
    assert "larger than 64 MiB; a work log is read whole" in only(check_file(big), "worklog_unreadable").message
    (tmp_path / "link.md").symlink_to(DATA / "seed_example.md")
    assert check_file(tmp_path / "link.md").passed
    assert "is a directory" in only(check_file(tmp_path), "worklog_unreadable").message


# --- messages ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, said", [("99999999999-reports-below", "names the 99999999999th report below it"),
                                        ("1-report-below, line 123456789012 below", "names line 123456789012 of"),
                                        ("12-reports-below", "names the 12th report below it"),
                                        ("3-reports-below", "but only 2 reports stand below it"),
                                        ("1-report-below, line 3 below", "which has 1 line,")])
def test_reference_messages_say_the_numbers_as_written(text, said):
    log = log_of(report(3, f"Extends {text}."), report(2), report(1, "C.", "D."))
    assert said in only(check_log(log), "worklog_reference").message


@pytest.mark.parametrize("steps, said", [("99999999999", "names the 99999999999th report below, but 1 report "
                                          "stands below Report #2"), ("2", "but 1 report stands below Report #2")])
def test_correction_messages_say_the_numbers_as_written(steps, said):
    log = log_of(report(2, f"CORRECTION: {steps}-reports-below header declares lines: 1, actual is 2."),
                 report(1, "A."))
    assert said in only(check_log(log), "worklog_correction").message


def test_a_correction_of_a_one_line_report_says_line_not_lines():
    log = log_of(report(2, "CORRECTION: 1-report-below header declares lines: 3, actual is 2."), report(1, lines=3))
    assert "declares lines: 3 and has 1 line;" in only(check_log(log), "worklog_correction").message


def unnumbered_between(top: int, bottom: int) -> WorkLog:
    return log_of(report(top, "A."), ["== report three", "B."], report(bottom, "C."))


def test_the_order_check_says_what_stands_between_two_numbered_reports():
    said = only(check_log(unnumbered_between(4, 1)), "worklog_order").message
    assert "stands right below" not in said
    assert said.startswith("line 7: Report #1 is the next numbered report below Report #4 (line 1)")
    assert "the report at line 4 stands between them" in said
    assert "the same number twice" in only(check_log(unnumbered_between(3, 3)), "worklog_order").message


def test_an_unnumbered_report_may_be_the_missing_number():
    assert keys(check_log(unnumbered_between(3, 1))) == ["worklog_header"]


def test_a_report_awk_merges_is_named_by_its_line_once():
    log = log_of(report(3, "A.", lines=4), ["== report three", "B."], report(1, "C."))
    said = " | ".join(p.message for p in (*check_log(log).problems, *check_log(log).notes))
    assert "the 2 lines of the report at line 4 into this report" in said
    assert "at line 4 at line 4" not in said and "at line 4 (line 4)" not in said


def test_counts_in_messages_agree_with_their_nouns(tmp_path):
    found = [p for name in EXPECTED for p in (*run_fixture(name, tmp_path).problems, *run_fixture(name, tmp_path).notes)]
    found += check_log(log_of(report(2, "See 2-reports-below."), report(1, "A."))).problems
    said = " | ".join(p.message for p in found)
    assert len(found) > 50
    assert re.findall(r"\b1 (?:lines|reports|feedback reports|stand|blank lines)\b|\bat line (\d+) at line \1\b|"
                      r"\bat line (\d+) \(line \2\)", said) == []


# --- end_time ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, ok", [("23:59", True), ("00:00", True), ("09:05:30", True),
                                       ("2026-03-03 10:02", True), ("2026-03-03T10:02:07", True), ("99:99", False),
                                       ("24:00", False), ("10:60", False), ("10:02:60", False), ("9:05", False),
                                       ("2026-02-30 10:02", False), ("at 10:02", False), ("10:02 later", False),
                                       ("soon", False), ("", False)])
def test_end_time_is_a_real_time_of_day(value, ok, tmp_path):
    text = (DATA / "valid_full.md").read_text(encoding="utf-8").replace("end_time: 10:02", f"end_time: {value}")
    assert check_log(parse_text(text), final=True, kb_dir=make_kb(tmp_path)).passed is ok


# --- the knowledge base as the caller names it -------------------------------------------------------------------

def test_the_register_item_names_the_knowledge_base_as_shown(tmp_path):
    kb = make_kb(tmp_path, REGISTERS[:1])
    log = read_log(DATA / "valid_full.md")
    shown = gate_item(check_log(log, final=True, kb_dir=kb, kb_shown="kb"), "does not exist").message
    assert shown == "FAIL gate: kb/curated/GAP-REGISTER.md does not exist (the skill's §8 register)"
    default = gate_item(check_file(DATA / "valid_full.md", final=True, kb_dir=kb), "does not exist").message
    assert f"{kb.as_posix()}/curated/GAP-REGISTER.md" in default
    relative = gate_item(check_file(DATA / "valid_full.md", final=True, kb_dir=kb, kb_shown="../kb/"), "does not")
    assert "../kb/curated/GAP-REGISTER.md does not exist" in relative.message
    own = gate_item(check_file(DATA / "valid_full.md", final=True, kb_dir=kb, kb_shown="../kb/"), "own check")
    assert "at ../kb/curated/GAP-REGISTER.md:1 (LAD328)" in own.message


# --- sessions: a FINAL REPORT closes one, a resumed session goes on above it -------------------------------------

FINAL_TEXT = (DATA / "valid_full.md").read_text(encoding="utf-8").split("---\n")[0].replace(
    " (1-report-below, line 3 below)", "")


def closing(loops: int, total: Optional[int] = None) -> list[str]:
    lines = FINAL_TEXT.replace("loops: 3", f"loops: {loops}").rstrip("\n").split("\n")
    return [lines[0], *(f"total_feedback_loops: {loops if total is None else total}" if row.startswith("total_f")
                        else row for row in lines[1:])]


def test_a_resumed_session_above_a_final_report_passes_and_numbers_go_on():
    log = log_of(report(4, "DIAGNOSE: resumed."), closing(1), report(3, "A.", kind="milestone"), report(2, "B."))
    assert check_log(log).passed
    gap = log_of(report(4, "DIAGNOSE: resumed."), closing(1), report(2, "B."))
    said = only(check_log(gap), "worklog_order").message
    assert "Report #2 is the next numbered report below Report #4 (line 1)" in said
    assert "the FINAL REPORT (line 4) stands between them: #3 missing" in said


def test_each_final_report_counts_the_loops_of_its_own_session():
    log = log_of(closing(1), report(5, "A."), closing(2), report(4, "B."), report(3, "C."),
                 report(2, "D.", kind="milestone"))
    assert check_log(log).passed
    wrong = log_of(closing(4, total=4), report(5, "A."), report(4, "B."), closing(2), report(3, "C."),
                   report(2, "D."))
    said = [p.message for p in check_log(wrong).problems]
    assert [p.line for p in check_log(wrong).problems] == [1, 4]
    assert "its session has 2 loop reports" in said[0] and "the session it closes has 2" in said[1]


def test_a_final_report_right_above_another_closes_an_empty_session():
    log = log_of(closing(0), closing(1), report(1, "A."))
    said = only(check_log(log), "worklog_final")
    assert said.line == 1 and "closes an empty session" in said.message


def test_the_gate_needs_the_log_closed_by_a_final_report_on_top(tmp_path):
    text = (DATA / "valid_full.md").read_text(encoding="utf-8")
    resumed = parse_text(header_text(8, 2, "40:00", "feedback") + "\nDIAGNOSE: resumed.\n---\n" + text)
    assert check_log(resumed).passed
    gate = only(check_log(resumed, final=True, kb_dir=make_kb(tmp_path)), "worklog_fail_gate")
    assert "not closed" in gate.message and "Report #8 (line 1)" in gate.message


def test_a_correction_counts_final_reports_as_places():
    wrong = report(1, "A.", lines=4)
    log = log_of(report(3, *correction_body(3, 4, 2)), report(2, "B."), closing(1), wrong)
    assert check_log(log).passed and unacknowledged_mismatches(log) == []
    assert [r.number for r in unacknowledged_mismatches(log_of(report(2, "B."), closing(1), wrong))] == [1]


def test_a_final_report_is_separated_like_any_report():
    top, final, bottom = report(2, "A."), closing(1), report(1, "B.")
    assert check_log(parse_text("\n".join([*top, "---", *final, "---", *bottom]) + "\n")).passed
    missing = parse_text("\n".join([*top, *final, "---", *bottom]) + "\n")
    assert pairs(check_log(missing).problems) == [("worklog_separator", 3)]
    doubled = parse_text("\n".join([*top, "---", *final, "---", "", "---", *bottom]) + "\n")
    assert pairs(check_log(doubled).problems) == [("worklog_separator", 27)]


def test_an_elapsed_time_the_fail_gate_cannot_read_is_a_header_problem():
    """One reading of MM:SS: minutes past nine digits were accepted by the header check while the gate's time
    boundary could not read them, and was skipped."""
    log = parse_text(header_text(1, 2, "1234567890:00", "feedback") + "\nDIAGNOSE: x.\n")
    assert [p.rule.key for p in check_log(log).problems] == ["worklog_elapsed"]
