"""The decisions every part asks of a rule, each made in one place: which side of its limit is over
(``Rule.exceeds``, ``catalogue.worse_than``, ``plugins.is_minimum``), how far past it a value lies
(``Rule.past_limit``), how a value is worded (``catalogue.number``) and which rule a name means
(``catalogue.RuleIndex``, ``plugins.rule_of``)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from ladder_plugins import hookimpl, plugins
from ladder_plugins.analysis.report import AnalysisResult, FileReport, Violation
from ladder_plugins.analysis.thresholds import RED, YELLOW, severity
from ladder_plugins.catalogue import (
    SUPPRESSION, UNKNOWN_RULE, Rule, RuleIndex, bound_text, lint_rule, lookup, number, worse_than,
)
from ladder_plugins.errors import LadderError
from ladder_plugins.history.gate import measured
from ladder_plugins.plugins import is_minimum, make_plugin_manager, rule_of, shown_rule_key
from ladder_plugins.reports.explain import find_rule
from ladder_plugins.reports.findings import TextOptions, check_text

COGNITIVE = lookup("cognitive_max")
ASSERTIONS = lookup("min_assertions")

#: a plugin's minimum rule, which the built-in table does not know
COVERAGE = Rule("XCV200", "docstring_min", "documentation", "unit", "docstrings", "min", "docstring lines",
                "Lines of a unit's docstring.", "https://example.invalid/docstrings",
                {"app": 1, "test": None, "library": 1, "script": None, "generated": None, "vendor": None},
                source="external-plugin", short="docstring")


class CoveragePlugin:
    @hookimpl
    def ladder_rules(self):
        return [COVERAGE]


@pytest.fixture
def with_plugin(monkeypatch):
    """The process-wide manager holding the plugin's rule beside the built-ins."""
    pm = make_plugin_manager([CoveragePlugin()], entry_points=False)
    monkeypatch.setattr(plugins, "get_plugin_manager", lambda: pm)
    return pm


# --- which side of the limit is over -------------------------------------------------------------------------


def test_the_builtin_rules_are_a_maximum_and_a_minimum():
    assert (COGNITIVE.has_limit, COGNITIVE.is_minimum) == (True, False)
    assert (ASSERTIONS.has_limit, ASSERTIONS.is_minimum) == (True, True)
    assert (SUPPRESSION.has_limit, SUPPRESSION.is_minimum) == (False, False)


@pytest.mark.parametrize("value, limit, over", [
    (16, 15, True), (15, 15, False), (14, 15, False), (15.01, 15, True), (None, 15, False), (16, None, False),
])
def test_a_maximum_is_exceeded_above_its_limit(value, limit, over):
    assert COGNITIVE.exceeds(value, limit) is over


@pytest.mark.parametrize("value, limit, over", [
    (0, 1, True), (1, 1, False), (2, 1, False), (0.5, 1, True), (None, 1, False), (0, None, False),
])
def test_a_minimum_is_exceeded_below_its_limit(value, limit, over):
    assert ASSERTIONS.exceeds(value, limit) is over


@pytest.mark.parametrize("value, limit, expected", [
    (16, 15, RED), (15, 15, YELLOW), (12, 15, YELLOW), (11.9, 15, None), (0, 0.5, None), (None, 15, None),
    (16, None, None),
])
def test_a_maximum_has_a_yellow_band_below_its_limit(value, limit, expected):
    assert severity(COGNITIVE, value, limit, 0.8) == expected


@pytest.mark.parametrize("value, expected", [(0, RED), (1, None), (2, None), (0.99, RED)])
def test_a_minimum_is_red_below_its_limit_and_has_no_yellow_band(value, expected):
    assert severity(ASSERTIONS, value, 1, 0.8) == expected


def test_a_rule_without_a_limit_has_no_severity():
    assert severity(SUPPRESSION, 1, 1, 0.8) is None


def test_worse_than_is_above_for_a_maximum_and_below_for_a_minimum():
    assert worse_than(20, 15, minimum=False) and not worse_than(15, 20, minimum=False)
    assert worse_than(0, 1, minimum=True) and not worse_than(2, 1, minimum=True)
    assert not worse_than(15, 15, minimum=False) and not worse_than(1, 1, minimum=True)


def test_the_bound_is_said_on_the_violated_side():
    assert bound_text(15, minimum=False) == "> 15"
    assert bound_text(1, minimum=True) == "< 1"
    assert bound_text(None, minimum=False) == "> -"
    assert COGNITIVE.bound(22, 15) == "> 15"
    assert COGNITIVE.bound(14, 15) == "limit 15"  # in the yellow band
    assert ASSERTIONS.bound(0, 1) == "< 1"
    assert ASSERTIONS.bound(3, 1) == "< 1"  # a minimum has no yellow band to word


@pytest.mark.parametrize("key, minimum", [
    ("min_assertions", True), ("maintainability_min", True), ("cognitive_max", False), ("file_lines_max", False),
    ("LAD108", True), ("no_such_rule", False),  # a key no rule has is read as a maximum
])
def test_a_key_says_whether_its_rule_is_a_minimum(key, minimum):
    assert is_minimum(key) is minimum


def test_a_plugins_minimum_rule_is_a_minimum_by_its_key(with_plugin):
    assert is_minimum("docstring_min") is True
    assert COVERAGE.exceeds(0, 1) and not COVERAGE.exceeds(1, 1)


# --- how far past the limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("actual, limit, past", [
    (25, 15, 10 / 15), (30, 15, 1.0), (15, 15, 0.0), (12, 15, -0.2), (3, 0, 3.0),
])
def test_past_a_maximum_is_the_excess_relative_to_the_limit(actual, limit, past):
    assert COGNITIVE.past_limit(actual, limit) == pytest.approx(past)


@pytest.mark.parametrize("actual, limit, past", [(0, 1, 1.0), (1, 2, 0.5), (1, 1, 0.0), (3, 1, -2.0)])
def test_past_a_minimum_is_the_shortfall_relative_to_the_limit(actual, limit, past):
    assert ASSERTIONS.past_limit(actual, limit) == pytest.approx(past)


def test_nothing_is_past_without_a_limit():
    assert COGNITIVE.past_limit(20, None) is None
    assert SUPPRESSION.past_limit(1, None) is None
    assert SUPPRESSION.past_limit(1, 5) is None  # a meta rule has no limit to be past


def _violation(rule, path, unit, actual, limit):
    return Violation(rule, path, 1, unit, unit, actual, limit, RED, "test", f"fp-{path}-{unit}", "h")


def test_check_top_takes_the_unit_furthest_past_its_limit_as_the_html_report_ranks_it():
    """No assertions against a minimum of 1 is 100% past it; cognitive 40 > 15 is 167% past: the second is
    worse, whichever direction each rule has."""
    short = _violation(ASSERTIONS, "tests/test_a.py", "test_nothing", 0, 1)
    over = _violation(COGNITIVE, "tests/test_b.py", "test_tangled", 40, 15)
    result = AnalysisResult((FileReport("tests/test_a.py", "test", violations=(short,)),
                             FileReport("tests/test_b.py", "test", violations=(over,))))
    gate = SimpleNamespace(failures=(), known=(), note="", failed=False)
    text = check_text(result, SimpleNamespace(gate=gate), SimpleNamespace(mode="recurrence"), TextOptions(top=1))
    assert "test_tangled" in text and "test_nothing" not in text
    assert over.rule.past_limit(over.actual, over.limit) > short.rule.past_limit(short.actual, short.limit)


# --- how a value is worded -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value, said", [
    (22, "22"), (22.0, "22"), (0, "0"), (0.0, "0"), (-0.0, "0"), (-3.0, "-3"), (1e20, "100000000000000000000"),
    (21.467, "21.47"), (21.5, "21.50"), (-3.5, "-3.50"), (0.005, "0.01"), (1e-9, "0.00"),
    (None, "-"), (math.inf, "inf"), (math.nan, "nan"), (True, "1"),
])
def test_a_number_is_whole_when_it_is_whole_else_two_decimals(value, said):
    assert number(value) == said


def test_a_message_words_its_values_with_number():
    assert COGNITIVE.message("f", 22.0, 15.0) == "cognitive complexity of 'f' is 22 (> 15)"
    assert COGNITIVE.brief(21.467, 15) == "cognitive 21.47 > 15"
    assert ASSERTIONS.message("test_x", 0, 1) == "number of assertions of 'test_x' is 0 (< 1)"


def test_measured_words_a_value_on_its_rules_side_and_an_unknown_rule_as_a_maximum(with_plugin):
    assert measured("cyclomatic_max", 12, 10) == "cyclomatic 12 > 10"
    assert measured("cyclomatic_max", 9, 10) == "cyclomatic 9 limit 10"
    assert measured("min_assertions", 0, 1) == "assertions 0 < 1"
    assert measured("docstring_min", 0, 1) == "docstring 0 < 1"
    assert measured("no_such_rule", 12.5, 10) == "no_such_rule 12.50 > 10"


# --- which rule a name means ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["LAD102", "lad102", "cognitive_max"])
def test_a_builtin_rule_is_found_by_code_in_any_case_or_by_key(name):
    assert lookup(name) is COGNITIVE
    assert rule_of(name) is COGNITIVE


@pytest.mark.parametrize("name", ["COGNITIVE_MAX", "cognitive", "LAD999", "", "unknown"])
def test_a_name_no_rule_has_finds_none(name):
    assert lookup(name) is None
    assert rule_of(name) is None


def test_a_plugins_rule_is_found_by_code_or_key_through_the_plugin_host(with_plugin):
    assert lookup("docstring_min") is None  # the built-in table alone
    assert rule_of("XCV200") is COVERAGE and rule_of("xcv200") is COVERAGE
    assert rule_of("docstring_min") is COVERAGE
    assert rule_of("docstring_min", with_plugin) is COVERAGE
    assert rule_of("cognitive_max", with_plugin) is COGNITIVE
    assert rule_of("no_such_rule") is None


def test_a_shown_key_is_a_key_an_installed_rule_has(with_plugin):
    assert shown_rule_key("cognitive_max") == "cognitive_max"
    assert shown_rule_key("docstring_min") == "docstring_min"
    assert shown_rule_key("LAD102") == UNKNOWN_RULE  # a code is no key
    assert shown_rule_key("no_such_rule") == UNKNOWN_RULE
    assert shown_rule_key("docstring_min", make_plugin_manager(entry_points=False)) == UNKNOWN_RULE


def test_the_index_prefers_a_code_to_a_key():
    odd = Rule("XOD1", "LAD102", "x", "unit", None, "meta", "odd", "odd", "-")
    index = RuleIndex.of([odd, COGNITIVE])
    assert index.find("LAD102") is COGNITIVE and index.find("xod1") is odd


def test_a_lint_rule_is_found_by_code_or_key_and_an_unknown_one_is_our_bug():
    assert lint_rule("worklog_lines") is lint_rule("LAD302") is lint_rule("lad302")
    with pytest.raises(KeyError):
        lint_rule("cognitive_max")


def test_explain_finds_a_rule_by_code_or_key_and_names_the_closest_for_an_unknown_one():
    rules = [COGNITIVE, ASSERTIONS, COVERAGE]
    assert find_rule("lad108", rules) is ASSERTIONS and find_rule("docstring_min", rules) is COVERAGE
    with pytest.raises(LadderError, match="did you mean 'cognitive_max'"):
        find_rule("cognitiv_max", rules)
