"""flake8 front end: real flake8 runs on annotated fixtures, recording, -j, the gate."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from tests.helpers.paths import FIXTURES
from tests.helpers.history import assert_summary_consistent
from tests.helpers.snippets import VIOLATING

FORMAT = "--format=%(path)s:%(row)d:%(code)s:%(text)s"


def flake8(args, cwd, stdin=None, **env):
    return subprocess.run(
        [sys.executable, "-m", "flake8", FORMAT, *args],
        cwd=cwd, capture_output=True, text=True, input=stdin, timeout=300,
        env={**os.environ, **env},
    )


def reported(done):
    found = []
    for line in done.stdout.splitlines():
        path, row, code, text = line.split(":", 3)
        found.append((path.lstrip("./"), int(row), code, text))
    return found


def events(root):
    log = root / ".ladder" / "history" / "events.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line]


@pytest.fixture
def annotated(tmp_path):
    target = tmp_path / "annotated"
    shutil.copytree(FIXTURES / "flake8", target)
    return target


def expected_errors(path):
    expected = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        match = re.search(r"#\s*error:\s*(.*)$", line)
        if match:
            expected |= {(number, code) for code in match.group(1).split()}
    return expected


def test_annotated_fixture_codes_and_lines(annotated):
    done = flake8(["--select", "LAD", "rules.py"], annotated)
    assert done.returncode == 1, done.stderr
    got = {(row, code) for _, row, code, _ in reported(done)}
    assert got == expected_errors(annotated / "rules.py")
    assert "Traceback" not in done.stderr


def test_messages_name_unit_value_and_limit(annotated):
    done = flake8(["--select", "LAD", "rules.py"], annotated)
    texts = {text for _, _, code, text in reported(done) if code == "LAD105"}
    assert "number of parameters of 'Service.handle' is 4 (> 3)" in texts


def test_recorded_events_are_exactly_the_reported_violations(annotated):
    done = flake8(["--select", "LAD", "rules.py"], annotated)
    shown = sorted((path, row, code) for path, row, code, _ in reported(done))
    from ladder_plugins.catalogue import lookup

    recorded = sorted((e["path"], e["line"], lookup(e["rule_key"]).code) for e in events(annotated)
                      if e["severity"] == "red")
    assert recorded == shown
    recorded_prints = {e["fingerprint"] for e in events(annotated)}
    assert not recorded_prints & {"rules.py::silenced::params_max", "rules.py::reasoned::params_max"}
    assert {e["tool"] for e in events(annotated)} == {"flake8"}


def test_narrowing_the_selection_narrows_reports_not_records(annotated):
    done = flake8(["--select", "LAD9", "rules.py"], annotated)
    assert done.returncode == 0 and done.stdout == ""
    everything = flake8(["--select", "LAD", "--ladder-no-record", "rules.py"], annotated)
    assert sorted((e["line"], e["rule_key"]) for e in events(annotated) if e["severity"] == "red") == sorted(
        (row, __import__("ladder_plugins").lookup(code).key) for _, row, code, _ in reported(everything))


def test_stdin_is_reported_but_not_recorded(annotated):
    source = (annotated / "rules.py").read_text()
    done = flake8(["--select", "LAD", "-"], annotated, stdin=source)
    assert done.returncode == 1
    assert {code for _, _, code, _ in reported(done)} >= {"LAD101", "LAD105"}
    assert events(annotated) == []


def test_no_lad_selection_means_no_analysis_and_no_files(annotated):
    done = flake8(["--select", "E,W,F", "rules.py"], annotated)
    assert "LAD" not in done.stdout
    assert not (annotated / ".ladder").exists()
    ignored = flake8(["--extend-ignore", "LAD", "rules.py"], annotated)
    assert ":LAD" not in ignored.stdout and not (annotated / ".ladder").exists()
    one_code = flake8(["--select", "LAD", "--extend-ignore", "LAD1", "rules.py"], annotated)
    assert ":LAD1" not in one_code.stdout and ":LAD001:" in one_code.stdout


def test_lad_is_on_by_default_like_any_flake8_plugin(annotated):
    done = flake8(["rules.py"], annotated)
    assert "LAD105" in done.stdout


def test_options_from_flake8_config(annotated):
    (annotated / "setup.cfg").write_text("[flake8]\nladder-no-record = true\nladder-no-cache = true\n")
    done = flake8(["--select", "LAD", "rules.py"], annotated)
    assert "LAD105" in done.stdout and not (annotated / ".ladder").exists()


def test_bad_configuration_is_a_lad000_error_not_a_crash(annotated):
    (annotated / "pyproject.toml").write_text("[tool.ladder]\nmdoe = 'x'\n")
    done = flake8(["--select", "LAD", "rules.py"], annotated)
    assert "Traceback" not in done.stderr
    (error,) = reported(done)
    assert error[1:3] == (1, "LAD000") and "did you mean 'mode'" in error[3]


def test_unanalysable_files_do_not_stop_the_run(annotated):
    (annotated / "a_pragma.py").write_text("# ladder: role=nonsense\ndef f(a, b, c, d):\n    pass\n")
    (annotated / "b_deep.py").write_text("def f(x):\n    return " + " + ".join(["x"] * 300) + "\n")
    done = flake8(["--select", "LAD", "a_pragma.py", "b_deep.py", "rules.py"], annotated)
    assert "Traceback" not in done.stderr
    assert "unknown role 'nonsense'" in done.stderr
    assert {path for path, _, _, _ in reported(done)} == {"rules.py"}


RUNNER = textwrap.dedent(
    """
    import multiprocessing, sys
    method = sys.argv[1]
    if method != "default":
        multiprocessing.set_start_method(method)
    from flake8.main.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


@pytest.mark.parametrize("jobs, method", [("1", "default"), ("2", "fork"), ("2", "spawn")])
def test_parallel_workers_record_each_violation_once_with_one_run_id(annotated, jobs, method):
    for n in range(4):
        shutil.copy(annotated / "rules.py", annotated / f"copy{n}.py")
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, method, "--select", "LAD", "-j", jobs, FORMAT, "."],
        cwd=annotated, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 1, done.stderr
    shown = sorted((p.lstrip("./"), row, code) for p, row, code, _ in reported(done))
    recorded = events(annotated)
    from ladder_plugins.catalogue import lookup

    assert sorted((e["path"], e["line"], lookup(e["rule_key"]).code) for e in recorded if e["severity"] == "red") == shown
    assert len({e["run_id"] for e in recorded}) == 1
    assert len(shown) == 5 * len(expected_errors(annotated / "rules.py"))
    assert_summary_consistent(annotated)


def test_two_invocations_in_one_process_get_two_run_ids(annotated):
    script = textwrap.dedent(
        """
        from flake8.main.cli import main
        for _ in range(2):
            try:
                main(["--select", "LAD", "rules.py", "--output-file", "out.txt"])
            except SystemExit:
                pass
        """
    )
    subprocess.run([sys.executable, "-c", script], cwd=annotated, check=True, timeout=120)
    assert len({e["run_id"] for e in events(annotated)}) == 2


def test_ladder_run_id_is_shared_with_other_steps(annotated):
    flake8(["--select", "LAD", "rules.py"], annotated, LADDER_RUN_ID="job-7")
    assert {e["run_id"] for e in events(annotated)} == {"job-7"}


def test_lad900_fires_on_the_third_edited_version_over_two_days(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder.thresholds]\ncognitive_max = 2\n")
    module = tmp_path / "shop.py"
    outputs = []
    for n, when in enumerate(["2026-11-01T09:00:00Z", "2026-11-01T16:00:00Z", "2026-11-02T09:00:00Z"]):
        module.write_text(VIOLATING.format(n=n))
        outputs.append(flake8(["--select", "LAD", "shop.py"], tmp_path, LADDER_NOW=when))
    assert [{c for _, _, c, _ in reported(o)} for o in outputs] == [{"LAD102"}, {"LAD102"}, {"LAD102", "LAD900"}]
    (gate,) = [r for r in reported(outputs[2]) if r[2] == "LAD900"]
    assert gate[1] == 1 and "3 versions over the limit on 2 days" in gate[3]
    rerun = flake8(["--select", "LAD9", "shop.py"], tmp_path, LADDER_NOW="2026-11-02T10:00:00Z")
    assert [r[2] for r in reported(rerun)] == ["LAD900"]
    advisory = flake8(["--select", "LAD", "--ladder-mode", "advisory", "shop.py"], tmp_path,
                      LADDER_NOW="2026-11-02T11:00:00Z")
    assert "LAD900" not in advisory.stdout


def test_unchanged_code_never_reaches_the_gate(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder.thresholds]\ncognitive_max = 2\n")
    (tmp_path / "shop.py").write_text(VIOLATING.format(n=1))
    for day in range(1, 6):
        done = flake8(["--select", "LAD9", "shop.py"], tmp_path, LADDER_NOW=f"2026-11-0{day}T09:00:00Z")
        assert done.stdout == ""


@pytest.mark.parametrize(
    "options, expected",
    [
        ({}, True),
        ({"select": ["E", "W", "F"]}, False),
        ({"select": ["LAD9"]}, True),
        ({"select": ["E"], "extend_select": ["LAD"]}, True),
        ({"extend_ignore": ["LAD"]}, False),
        ({"select": ["LAD"], "extend_ignore": ["LAD"]}, False),
        ({"select": ["LAD"], "extend_ignore": ["LAD1"]}, True),
        ({"select": ["LAD1"], "ignore": ["LAD"]}, True),
    ],
)
def test_selection_decision(options, expected):
    from types import SimpleNamespace

    from ladder_plugins.catalogue import RULES
    from ladder_plugins.flake8_plugin import lad_selected

    defaults = {"select": None, "extend_select": None, "ignore": None, "extend_ignore": None,
                "extended_default_select": ["E", "F", "W", "C90", "LAD"]}
    assert lad_selected(SimpleNamespace(**{**defaults, **options}), list(RULES)) is expected


def test_suppression_comments_come_from_flake8s_own_tokens(tmp_path, monkeypatch):
    """flake8 tokenizes every file it reports on; the plugin reads comments from those tokens, not a second pass."""
    from flake8.api import legacy

    from ladder_plugins.analysis import analyzer

    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    body = "".join(f"    if a > {n}:\n        a += 1\n" for n in range(12))
    (tmp_path / "m.py").write_text(f"def f(a):  # ladder: ignore[cyclomatic_max] parses a fixed table\n{body}"
                                   "    return a\n")
    given = []
    real = analyzer.read_comments
    monkeypatch.setattr(analyzer, "read_comments", lambda text, tokens=None: given.append(tokens) or real(text, tokens))
    monkeypatch.chdir(tmp_path)
    guide = legacy.get_style_guide(select=["LAD101"], ladder_no_record=True)
    report = guide.check_files(["m.py"])
    assert report.total_errors == 0 and len(given) == 1 and given[0] is not None
