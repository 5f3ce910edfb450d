"""Body lines, parameters, nesting, file lines and assertions."""

from __future__ import annotations

import sys

import pytest


def test_function_lines_skip_docstring_blank_and_comment_lines(unit_metrics):
    code = (
        "def f():\n"
        '    """Docstring\n\n    over several lines."""\n'
        "    x = 1\n"
        "\n"
        "    # a comment\n"
        "    return x  # trailing comment\n"
    )
    assert unit_metrics(code)["function_lines"] == 2


def test_function_lines_count_the_inside_of_multiline_strings(unit_metrics):
    code = 'def f():\n    s = """\n\n# not a comment\n"""\n    return s\n'
    # s = """ (1), blank inside the string (1), '# not...' inside (1), closing (1), return (1)
    assert unit_metrics(code)["function_lines"] == 5


def test_docstring_only_body_has_no_lines(unit_metrics):
    assert unit_metrics('def f():\n    """Only a docstring."""\n')["function_lines"] == 0


def test_one_line_function(unit_metrics):
    assert unit_metrics("def f(): return 1\n")["function_lines"] == 1


@pytest.mark.parametrize(
    "code, name, expected",
    [
        ("def f(a, b, /, c, *args, d, e=1, **kw):\n    pass\n", "f", 5),
        ("def f():\n    pass\n", "f", 0),
        ("class C:\n    def m(self, a, b):\n        pass\n", "C.m", 2),
        ("class C:\n    @classmethod\n    def m(cls, a):\n        pass\n", "C.m", 1),
        ("class C:\n    @staticmethod\n    def m(a, b):\n        pass\n", "C.m", 2),
        ("def self_is_a_name_here(self, a):\n    pass\n", "self_is_a_name_here", 2),
    ],
    ids=["all kinds", "none", "method self", "classmethod cls", "staticmethod", "plain function"],
)
def test_params(unit_metrics, code, name, expected):
    assert unit_metrics(code, name=name)["params"] == expected


@pytest.mark.parametrize(
    "body, expected",
    [
        ("    return 1\n", 0),
        ("    if a:\n        pass\n", 1),
        ("    if a:\n        pass\n    elif b:\n        if c:\n            pass\n", 2),
        ("    for x in a:\n        while b:\n            with c:\n                try:\n                    pass\n                except E:\n                    if d:\n                        pass\n", 5),
        ("    try:\n        pass\n    finally:\n        if a:\n            pass\n", 2),
        ("    if a:\n        def g():\n            if b:\n                pass\n", 2),
    ],
    ids=["none", "if", "elif stays level", "five deep", "finally", "nested def continues"],
)
def test_nesting(unit_metrics, body, expected):
    assert unit_metrics("def f(a, b, c, d):\n" + body)["nesting"] == expected


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match needs Python 3.10")
def test_nesting_match_case_is_one_level(unit_metrics):
    code = "def f(c, a):\n    match c:\n        case 1:\n            if a:\n                pass\n"
    assert unit_metrics(code)["nesting"] == 2


def test_file_lines(settings):
    from ladder_plugins.analysis.analyzer import analyze_source

    assert analyze_source("a = 1\nb = 2\n", "m.py", settings).metrics["file_lines"] == 2
    assert analyze_source("a = 1\nb = 2", "m.py", settings).metrics["file_lines"] == 2
    assert analyze_source("\n\n\n", "m.py", settings).metrics["file_lines"] == 3
    assert analyze_source("a = 1\rb = 2\r", "m.py", settings).metrics["file_lines"] == 2  # CR only
    assert analyze_source("a = 1\r\nb = 2\r\nc = 3", "m.py", settings).metrics["file_lines"] == 3


TEST_FILE = '''
from pytest import raises


def test_plain():
    assert 1


def test_unittest_and_mock(m):
    m.assert_called_once_with(1)


def test_raises():
    with pytest.raises(ValueError):
        int("x")
    with raises(KeyError):
        {}["x"]
    pytest.warns(UserWarning, f)


def test_nothing():
    print("looks busy")


def test_in_nested_helper():
    def check(x):
        assert x
    check(1)


def helper():
    assert 1


class TestThing:
    def test_method(self):
        self.assertEqual(1, 1)
        self.assertTrue(True)


class Helper:
    def test_not_collected(self):
        pass
'''


def test_assertions_are_counted_for_tests_only(settings):
    from ladder_plugins.analysis.analyzer import analyze_source

    report = analyze_source(TEST_FILE, "tests/test_things.py", settings)
    assert report.role == "test"
    counts = {u.name: u.metrics["assertions"] for u in report.units}
    assert counts == {
        "test_plain": 1,
        "test_unittest_and_mock": 1,
        "test_raises": 3,
        "test_nothing": 0,
        "test_in_nested_helper": 1,
        "helper": None,
        "TestThing.test_method": 2,
        "Helper.test_not_collected": None,
    }
    failing = [(v.code, v.unit) for v in report.violations if v.rule.key == "min_assertions"]
    assert failing == [("LAD108", "test_nothing")]


def test_asserts_are_not_decisions_in_tests_but_are_elsewhere(settings):
    from ladder_plugins.analysis.analyzer import analyze_source

    code = "def test_many(x):\n    assert x\n    assert x > 1\n    if x:\n        pass\n"
    in_tests = analyze_source(code, "tests/test_a.py", settings).units[0].metrics
    in_app = analyze_source(code, "src/a.py", settings).units[0].metrics
    assert (in_tests["cyclomatic"], in_app["cyclomatic"]) == (2, 4)


def test_an_if_inside_else_is_one_level_deeper_than_an_elif(unit_metrics):
    elif_form = "def f(a, b):\n    if a:\n        pass\n    elif b:\n        pass\n"
    else_if = "def f(a, b):\n    if a:\n        pass\n    else:\n        if b:\n            pass\n"
    assert (unit_metrics(elif_form)["nesting"], unit_metrics(else_if)["nesting"]) == (1, 2)


def test_comments_and_blank_lines_between_concatenated_strings_are_not_code(unit_metrics):
    # a triple-quoted string elsewhere in the body made the blank and the comment count
    code = 'def f():\n    x = ("a"\n\n         # why b\n         "b")\n    y = """z"""\n    return x, y\n'
    assert unit_metrics(code)["function_lines"] == 4


def test_a_backslash_continued_string_line_that_starts_with_a_hash_is_code(unit_metrics):
    code = "def f():\n    x = 'abc\\\n#def'\n    return x\n"
    assert unit_metrics(code)["function_lines"] == 3


@pytest.mark.parametrize("separator", ["\f", "\x85", "\u2028", "\x1c"])
def test_characters_that_splitlines_splits_at_do_not_shift_later_units(file_metrics, separator):
    code = f"x = 1  # {separator} a character str.splitlines() splits at\n\ndef f():\n    # note\n    return 1\n"
    assert file_metrics(code)["f"]["function_lines"] == 1


FAILING_CALLS = '''
import pytest
import unittest


def test_fails_by_hand(x):
    if not x:
        pytest.fail("no x")


class TestOld(unittest.TestCase):
    def test_self_fail(self):
        self.fail("never")

    def test_fail_unless(self):
        self.failUnlessEqual(1, 1)
        self.failIf(False)


def test_own_helpers(page):
    check_title(page)
    verify(page)
    render(page)
'''


def test_calls_that_fail_the_test_and_the_projects_helpers_are_assertions(tmp_path):
    from ladder_plugins.analysis.analyzer import analyze_source
    from ladder_plugins.config import load_settings

    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\nassertion_helpers = ["check_*", "verify"]\n')
    report = analyze_source(FAILING_CALLS, "tests/test_calls.py", load_settings(tmp_path))
    counts = {u.name: u.metrics["assertions"] for u in report.units}
    assert counts == {"test_fails_by_hand": 1, "TestOld.test_self_fail": 1, "TestOld.test_fail_unless": 2,
                      "test_own_helpers": 2}


def test_without_helpers_configured_a_helper_call_is_no_assertion(settings):
    from ladder_plugins.analysis.analyzer import analyze_source

    report = analyze_source(FAILING_CALLS, "tests/test_calls.py", settings)
    assert [v.unit for v in report.violations if v.rule.key == "min_assertions"] == ["test_own_helpers"]


OTHER_OBJECTS = '''
import pytest
from pytest import fail, raises


def test_other_objects(other, mock):
    other.fail("boom")
    mock.raises(ValueError)
    other.warns(UserWarning)
    other.helpers.deprecated_call()


def test_imported_by_name():
    fail("never")
    with raises(KeyError):
        {}["x"]
'''


def test_fail_raises_and_warns_are_assertions_from_pytest_or_self_only(settings):
    # issue 29: any call named fail counted, `other.fail("boom")` among them
    from ladder_plugins.analysis.analyzer import analyze_source

    report = analyze_source(OTHER_OBJECTS, "tests/test_other.py", settings)
    counts = {u.name: u.metrics["assertions"] for u in report.units}
    assert counts == {"test_other_objects": 0, "test_imported_by_name": 2}
