"""What keeps two alike rules apart (``tracker/contrasts.py``): a choice among alternatives (NumPy or Google
docstrings, poetry or uv), choices about different aspects of one topic (the style of docstrings or their scope), a
rule and its exception ("... don't need docstrings"), and asides and reasons that choose nothing. The pairs are
written for these tests, not taken from ``benchmarks/data``."""

from __future__ import annotations

import pytest

from ladder_plugins.tracker.contrasts import relaxes, rule_of
from ladder_plugins.tracker.similarity import Matcher
from ladder_plugins.tracker.topics import shipped_topics

MATCHER = Matcher(shipped_topics())


@pytest.mark.parametrize("first, second", [
    ("Use NumPy-style docstrings", "Use Google-style docstrings"),
    ("Manage dependencies with poetry", "Manage dependencies with uv"),
    ("Use pytest for all tests", "Use unittest for all tests"),
    ("Use Google-style docstrings", "Every public function needs a docstring"),
    ("Use Google-style docstrings", "Test helpers don't need docstrings"),
    ("Annotate every function signature with types", "Type hints are optional in test files"),
])
def test_two_rules_that_choose_differently_or_relax_one_another_stay_apart(first, second):
    assert not MATCHER.same(first, second) and not MATCHER.same(second, first)


@pytest.mark.parametrize("first, second", [
    ("Manage dependencies with uv", "Use uv, never pip, to add a package"),
    # guards: they met before and still do
    ("Google-style docstrings on every public function", "Public functions need docstrings"),
    ("Write docstrings for every function (NumPy style is fine)", "Each public function gets a docstring"),
])
def test_the_same_choice_or_a_choice_made_in_an_aside_keeps_a_rule_whole(first, second):
    assert MATCHER.same(first, second) and MATCHER.same(second, first)


def test_a_relaxation_says_where_a_rule_need_not_be_followed():
    assert relaxes("Test helpers don't need docstrings") and relaxes("Type hints are optional in test files")
    assert relaxes("Scripts under tools/ can be left out of the coverage report")
    assert not relaxes("Use `X | None` instead of `Optional[X]`") and not relaxes("Every function needs a docstring")


def test_the_rule_is_the_text_without_its_reason_and_asides():
    assert rule_of("Pin versions because builds must be reproducible").strip() == "Pin versions"
    assert rule_of("Use uv (never pip) for packages").split() == ["Use", "uv", "for", "packages"]
    assert rule_of("Call open() in a with block").strip() == "Call open() in a with block"  # a call is no aside
