"""Inline suppressions on the def line; a ladder ignore needs a reason."""

from __future__ import annotations

import pytest

from ladder_plugins.analysis.analyzer import analyze_source

SIX = "a, b, c, d, e, g"


@pytest.mark.parametrize(
    "comment",
    ["# noqa", "# noqa: LAD105", "# NOQA:LAD105,LAD101", "# ladder: ignore[params_max] legacy API, kept for callers",
     "# ladder: ignore[LAD105] - public signature"],
)
def test_suppressed(settings, comment):
    report = analyze_source(f"def f({SIX}):  {comment}\n    pass\n", "m.py", settings)
    assert not report.violations
    assert [v.code for v in report.suppressed] == ["LAD105"]


@pytest.mark.parametrize("comment", ["# noqa: LAD101", "# ladder: ignore[cognitive_max] another rule"])
def test_other_rules_are_not_suppressed(settings, comment):
    report = analyze_source(f"def f({SIX}):  {comment}\n    pass\n", "m.py", settings)
    assert [v.code for v in report.violations] == ["LAD105"]


def test_suppression_elsewhere_has_no_effect(settings):
    report = analyze_source(f"# noqa: LAD105\ndef f({SIX}):\n    pass  # noqa\n", "m.py", settings)
    assert [v.code for v in report.violations] == ["LAD105"]


@pytest.mark.parametrize(
    "comment, problem",
    [
        ("# ladder: ignore[params_max]", "gives no reason"),
        ("# ladder: ignore[params_mx] typo", "unknown rule 'params_mx'"),
        ("# ladder: ignore[] why", "names no rule"),
    ],
)
def test_invalid_ignore_suppresses_nothing_and_is_reported(settings, comment, problem):
    report = analyze_source(f"def f({SIX}):  {comment}\n    pass\n", "m.py", settings)
    codes = [v.code for v in report.violations]
    assert codes == ["LAD001", "LAD105"]
    meta = report.violations[0]
    assert meta.unit == "f" and meta.line == 1 and problem in meta.message


def test_file_rule_suppressed_in_module_header(tmp_path):
    from ladder_plugins.config import load_settings

    (tmp_path / "pyproject.toml").write_text("[tool.ladder.thresholds]\nfile_lines_max = 3\n")
    s = load_settings(tmp_path)
    body = "a = 1\nb = 2\nc = 3\nd = 4\n"
    assert [v.code for v in analyze_source(body, "m.py", s).violations] == ["LAD107"]
    header = "#!/usr/bin/env python\n# ladder: ignore[file_lines_max] generated table, split upstream\n"
    report = analyze_source(header + body, "m.py", s)
    assert not report.violations and [v.code for v in report.suppressed] == ["LAD107"]


def test_a_following_comment_is_not_a_reason(settings):
    report = analyze_source(f"def f({SIX}):  # ladder: ignore[params_max]  # type: ignore\n    pass\n", "m.py", settings)
    assert [v.code for v in report.violations] == ["LAD001", "LAD105"]


def test_an_issue_number_is_part_of_the_reason(settings):
    report = analyze_source(f"def f({SIX}):  # ladder: ignore[params_max] tracked in #123\n    pass\n", "m.py", settings)
    assert not report.violations and [v.code for v in report.suppressed] == ["LAD105"]


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"], ids=["CR only", "CRLF", "LF"])
def test_a_comment_suppresses_on_its_def_line_whatever_the_line_endings(settings, newline):
    """A def below the first line: the comment is read on the line the parser gives the def, not on line 1."""
    text = newline.join(["import os", "", f"def f({SIX}):  # ladder: ignore[params_max] legacy", "    pass", ""])
    report = analyze_source(text, "m.py", settings)
    assert not report.violations and [(v.code, v.line) for v in report.suppressed] == [("LAD105", 3)]
