"""The optional maintainability-index rule: radon's MI, from the tree already parsed, off by default."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from radon.metrics import mi_visit

from ladder_plugins.analysis.analyzer import Analyzer, analyze_source
from ladder_plugins.metrics.maintainability import maintainability_index, mi_rank

from tests.helpers.history import project_settings
from tests.helpers.stdlib_units import stdlib_files
from tests.integration.test_flake8 import flake8, reported

ON = "[tool.ladder.thresholds]\nmaintainability_min = 20\n"


def test_the_index_is_radons_on_stdlib_files(tmp_path):
    analyzer = Analyzer(project_settings(tmp_path, ON), hashes=False)
    reports = [(path, analyzer.source(path.read_bytes(), f"src/{path.name}")) for path in stdlib_files()[::6]]
    found = [(path.name, report.metrics["maintainability"], round(mi_visit(path.read_text(encoding="utf-8"), True), 2))
             for path, report in reports if report.skipped is None]
    assert len(found) > 40
    assert [f for f in found if f[1] != f[2]] == []


def test_the_rule_is_off_by_default_and_radon_is_not_imported(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    script = textwrap.dedent("""
        import sys
        from ladder_plugins.analysis.analyzer import analyze_source
        from ladder_plugins.config import load_settings
        report = analyze_source("def f(a):\\n    return a\\n", "src/m.py", load_settings(sys.argv[1]))
        print(sorted(report.metrics), any(name.startswith("radon") for name in sys.modules))
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['file_lines']", "False"]


@pytest.mark.parametrize("role_path, limit_for, expected", [
    ("src/m.py", "", ["LAD114"]), ("tests/test_m.py", "", []), ("tests/test_m.py", ".test", ["LAD114"])])
def test_a_limit_turns_it_on_for_its_role(tmp_path, role_path, limit_for, expected):
    settings = project_settings(tmp_path, f"[tool.ladder.thresholds{limit_for}]\nmaintainability_min = 101\n")
    report = analyze_source("def test_f(a):\n    assert a\n", role_path, settings)
    assert [v.code for v in report.violations if v.code == "LAD114"] == expected


BRANCHY = "def f(a, b):\n" + "".join(f"    if a > {n}:\n        b += a * {n}\n" for n in range(20)) + "    return b\n"


def test_flake8_reports_a_file_below_the_limit(tmp_path):
    settings = project_settings(tmp_path, ON.replace("20", "90"))
    (tmp_path / "m.py").write_text(BRANCHY)
    done = flake8(["--select", "LAD114", "--ladder-no-record", "m.py"], tmp_path)
    (found,) = reported(done)
    score = maintainability_index(Analyzer(settings).parse(BRANCHY, "m.py"))
    assert found[:3] == ("m.py", 1, "LAD114") and f"is {score:.2f} (< 90)" in found[3]


@pytest.mark.parametrize("score, rank", [(100, "A"), (19.01, "A"), (19, "B"), (9.5, "B"), (9, "C"), (0, "C")])
def test_rank_bands_are_radons(score, rank):
    from radon.metrics import mi_rank as radon_rank

    assert mi_rank(score) == radon_rank(score) == rank
