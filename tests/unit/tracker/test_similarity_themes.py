"""The matcher's themes (feedback no check encodes: when to commit or push, asking first) and two rules about one
topic that ask different things."""

from __future__ import annotations

import pytest

from ladder_plugins.tracker.similarity import Matcher
from ladder_plugins.tracker.themes import THEMES
from ladder_plugins.tracker.topics import Topic, shipped_topics

MATCHER = Matcher(shipped_topics())


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.id)
def test_every_title_and_paraphrase_of_a_theme_is_about_it_and_never_an_items_topic(theme):
    for phrase in (theme.title, *theme.paraphrases):
        assert theme.id in MATCHER.about(phrase), phrase
        assert MATCHER.topic(phrase) is None, phrase  # a theme has no check to suggest


def test_the_same_workflow_rule_in_other_words_is_one_piece_of_feedback():
    assert MATCHER.same("Never commit unless explicitly asked", "No commits without the user's confirmation")
    assert MATCHER.same("Don't push until the user says so", "Never push automatically")


def test_two_workflow_rules_about_git_stay_apart():
    assert not MATCHER.same("Never commit unless explicitly asked", "Do not push unless asked")
    assert not MATCHER.same("Never commit unless explicitly asked", "Use conventional commit prefixes")


def test_feedback_with_a_check_gets_its_topic_row():
    assert MATCHER.topic("Use conventional commit prefixes such as feat: and fix:") == "commit-messages"
    assert MATCHER.topic("Never push straight to main") == "protected-branch"
    assert MATCHER.topic("Pin every dependency to an exact version") == "dependency-pinning"


def _topic(topic_id: str, title: str, keywords: tuple[str, ...], *paraphrases: str) -> Topic:
    return Topic(id=topic_id, title=title, keywords=keywords, check="a check", tool="ruff", file="pyproject.toml",
                 format="toml", snippet="[tool.ruff]\n", action="Add it", paraphrases=paraphrases)


def test_two_rules_about_one_topic_that_ask_different_things_stay_apart():
    table = [_topic("docstrings", "Missing docstrings", ("docstring", "docstrings"),
                    "Add a docstring", "Every public function needs a docstring"),
             _topic("naming", "Names that break the convention", ("naming", "names"), "Use snake_case names")]
    matcher = Matcher(table, themes=())
    first, second = "Docstrings with doctests", "Imperative docstrings"
    assert matcher.about(first) == matcher.about(second) == {"docstrings"}
    assert not matcher.same(first, second)
    # saying little beyond the topic, or sharing what it says beyond it, is the same feedback
    assert matcher.same(first, "Add a docstring")
    assert matcher.same(first, "Docstrings need doctests")
