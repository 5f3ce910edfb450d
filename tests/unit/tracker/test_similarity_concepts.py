"""The matcher's concept lexicon (``tracker/concepts.py``): the words and phrases of coding guidelines that name one
idea meet on one concept before anything is weighed, so that a rule in words nobody tuned for still meets its other
wordings; and what the lexicon is made of is checked when it is built. The pairs here are written for these tests,
not taken from ``benchmarks/data``."""

from __future__ import annotations

import pytest

from ladder_plugins.tracker.similarity import Matcher, words_of
from ladder_plugins.tracker.topics import shipped_topics

MATCHER = Matcher(shipped_topics())


@pytest.mark.parametrize("first, second", [
    ("Chop the giant handler into pieces", "This function is way too long"),
    ("Keep the .env file out of version control", "Do not commit secrets such as passwords or API keys"),
    ("Ask for permission before removing any file", "Do not delete files without the user's approval"),
    ("Run the test suite before you say you're done", "Don't report a task as finished until the tests pass"),
    ("Don't add features nobody asked for", "Stick to the requested change; no extra functionality"),
    # guards: they met before, through the table, and still do
    ("Break this 300-line method into smaller helpers", "Methods should not run past a screen; split long ones up"),
    ("Name magic numbers as constants", "Replace the hard-coded 86400 with a named constant"),
    ("Get rid of the leftover pdb breakpoints", "No debugger statements in committed code"),
])
def test_one_rule_in_other_words_meets_through_the_lexicon(first, second):
    assert MATCHER.same(first, second) and MATCHER.same(second, first)


@pytest.mark.parametrize("first, second", [
    ("Remove commented-out code", "Don't add unnecessary comments"),  # commented-out code is no comment
    ("Open a pull request for every change", "Never commit unless asked"),  # a pull request asks nothing
    # guards: a concept in common is not one rule
    ("Break this 300-line method into smaller helpers", "Keep each pull request under 400 changed lines"),
    ("Don't commit until I say so", "Don't push until I say so"),
    ("Ask for permission before removing any file", "Ask before adding a new dependency"),
    ("Delete dead code instead of commenting it out", "Ask before deleting any file"),
])
def test_a_shared_concept_does_not_make_two_rules_one(first, second):
    assert not MATCHER.same(first, second) and not MATCHER.same(second, first)


@pytest.mark.parametrize("variants, concept", [
    (("split it", "break it up", "chop it up", "break this down", "refactor it into modules"), "split"),
    (("hardcoded", "hard-coded", "hard coded"), "hardcod"),
    (("ask first", "until told to", "without permission", "get approval"), "request"),
    (("pdb", "set_trace()", "pdb.set_trace()", "breakpoint"), "breakpoint"),
    (("logger", "logging", "logs"), "log"),
])
def test_the_words_of_one_class_read_as_one_concept(variants, concept):
    assert {words_of(text)[0] for text in variants} == {concept}


def test_a_number_of_lines_is_a_length_not_a_line_and_english_except_is_no_exception():
    assert words_of("Keep files under 500 lines") == ("file", "loc")
    assert "line" in words_of("Keep lines under 88 characters") and "loc" not in words_of("Wrap long lines")
    assert "except" not in words_of("Fix every warning, except when the linter is wrong")
    assert "except" in words_of("Never write a bare try/except around the parser")


def test_committed_code_is_a_place_not_the_act_of_committing():
    assert "commit" not in words_of("No debugger statements in committed code")
    assert "pr" in words_of("Open a pull request") and "request" not in words_of("Open a pull request")


def test_a_lexicon_that_gives_one_word_two_meanings_or_a_word_the_matcher_cuts_is_refused():
    from ladder_plugins.tracker.concepts import build
    from ladder_plugins.tracker.similarity import _read

    with pytest.raises(ValueError, match="'cut' is in"):
        build(("split: split cut", "delet: delete cut"), (), _read)
    with pytest.raises(ValueError, match="write it as a phrase"):
        build(("temp: tmp_path",), (), _read)
    lexicon = build(("split: split | break ~ up", "?request: asked"), ("uv poetry",), _read, "function")
    assert lexicon.rewrite("break it up now") == " split  now" and lexicon.concept("ask") == "request"
    assert lexicon.conditions == {"request"} and lexicon.slots == (frozenset({"uv", "poetry"}),)
    assert lexicon.objects == {"function"}
