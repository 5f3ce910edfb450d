"""Deep, odd and broken source never raises out of the analysis."""

from __future__ import annotations

import pytest

from ladder_plugins.analysis.analyzer import analyze_source


def test_2000_term_expression_is_analysed(settings):
    code = "def f(x):\n    return " + " + ".join(["x"] * 2000) + "\n"
    report = analyze_source(code, "m.py", settings)
    assert report.skipped is None
    (unit,) = report.units
    assert unit.metrics["cyclomatic"] == 1
    assert unit.metrics["abc"] == 0.0  # the parameter is not the body; additions are not branches


def test_deep_boolean_chain_counts_one_sequence(settings):
    code = "def f(x):\n    return " + " and ".join(f"(x{i}" for i in range(150)) + ")" * 150 + "\n"
    report = analyze_source(code, "m.py", settings)
    assert report.skipped is None
    assert report.units[0].metrics["cognitive"] == 1


def test_90_nested_blocks(settings):
    lines = ["def f(x):"]
    for depth in range(90):
        lines.append("    " * (depth + 1) + "if x:")
    lines.append("    " * 91 + "pass")
    report = analyze_source("\n".join(lines) + "\n", "m.py", settings)
    if report.skipped:  # some interpreters refuse this depth themselves
        assert "nested" in report.skipped or "syntax" in report.skipped
        return
    metrics = report.units[0].metrics
    assert metrics["nesting"] == 90
    assert metrics["cognitive"] == sum(range(1, 91))


def test_5000_term_expression_is_skipped_with_a_reason(settings):
    code = "x = " + "+".join(["1"] * 5000) + "\n"
    report = analyze_source(code, "deep.py", settings)
    assert report.skipped and "deep.py" in report.skipped and "nested" in report.skipped


def test_nul_byte_syntax_error_and_bad_encoding_are_skipped_with_reasons(settings):
    nul = analyze_source(b"x = 1\n\x00\n", "nul.py", settings)
    assert "NUL byte" in nul.skipped and "nul.py:2" in nul.skipped
    broken = analyze_source("def f(:\n", "broken.py", settings)
    assert "syntax error" in broken.skipped and "broken.py:1" in broken.skipped
    undecodable = analyze_source(b"x = '\xff\xfe'\n", "bad.py", settings)
    assert "bad.py" in undecodable.skipped and "cannot be decoded" in undecodable.skipped
    wrong_cookie = analyze_source(b"# coding: ascii\nx = '\xc3\xa9'\n", "ascii.py", settings)
    assert "ascii.py:2: cannot be decoded as ascii" in wrong_cookie.skipped


def test_bom_and_latin1_cookie_are_decoded(settings):
    bom = analyze_source(b"\xef\xbb\xbfdef f():\n    return 1\n", "bom.py", settings)
    assert bom.skipped is None and bom.units[0].name == "f"
    latin = analyze_source("# -*- coding: latin-1 -*-\ndef f():\n    return 'é'\n".encode("latin-1"), "l.py", settings)
    assert latin.skipped is None and latin.units[0].name == "f"


@pytest.mark.parametrize("code", ["def f():\n    return 1()\n", "def f():\n    return (1, 2)(3)\n",
                                  "def f():\n    return '\\d'\n", "def f(x):\n    return x is 1\n"])
def test_the_compilers_warnings_about_the_code_are_not_printed(settings, code):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = analyze_source(code, "m.py", settings)
    assert report.skipped is None and len(report.units) == 1
