"""What makes a text about a topic of the table (``tracker/similarity.py``): enough shared with one of its phrases (one
word is no evidence), the thing the rule is about (a rule about pull requests is none about functions), the topic's
core concept (a text about exceptions in general is not about bare excepts), and any of its clauses (a rule after a
sentence of context); and the anchors added for rules the table had none for. The pairs are written for these
tests, not taken from ``benchmarks/data``; each joined or split wrongly before these mechanisms, except the ones
marked as guards (they hold the same answer, so that a mechanism that splits does not split too much)."""

from __future__ import annotations

import pytest

from ladder_plugins.tracker.similarity import Matcher
from ladder_plugins.tracker.topics import shipped_topics

MATCHER = Matcher(shipped_topics())


def _same(first: str, second: str) -> bool:
    answers = {MATCHER.same(first, second), MATCHER.same(second, first)}
    assert len(answers) == 1, "the answer depends on the order"
    return answers.pop()


@pytest.mark.parametrize("first, second", [
    ("Don't hardcode the port number", "Don't hardcode tokens"),  # one word in common with the secrets topic
    ("Keep comments short", "Keep functions short"),  # the same advice about another thing
    ("Keep classes small", "Keep functions small"),
    ("Keep each pull request small and focused", "Keep functions small"),
    ("Wrap the parser call in try/except and report the error", "Never write a bare except:"),  # no bare except
])
def test_what_the_rule_is_about_keeps_alike_words_apart(first, second):
    assert not _same(first, second)


@pytest.mark.parametrize("first, second", [
    ("Keep each function small and focused", "Functions should stay short"),
    ("Don't hardcode tokens", "Never put credentials in source code"),  # guard: two concepts of the topic
    ("A bare except hides KeyboardInterrupt; name the exceptions you expect", "Never write a bare except:"),  # guard
])
def test_a_rule_about_the_topics_thing_is_about_the_topic(first, second):
    assert _same(first, second)


def test_a_rule_about_another_thing_has_no_topic_to_suggest():
    assert MATCHER.topic("Keep each pull request small and focused") is None
    assert MATCHER.topic("Keep each function small and focused") == "long-functions"


@pytest.mark.parametrize("first, second", [
    ("We care about readability, and reviews go faster when things are small. Split any function longer than 50 "
     "lines.", "Functions should be short"),
    ("Context: this repo is shared by three teams. Always ask before deleting a file.",
     "Do not remove files without permission"),
])
def test_a_clause_after_context_says_what_a_text_is_about(first, second):
    assert _same(first, second)


def test_a_clause_about_another_topic_does_not_join():  # guard
    assert not _same("Keep the code tidy. Sort imports with isort.", "Functions should be short")


@pytest.mark.parametrize("first, second", [
    ("Use a context manager for file handles", "Files must be opened in a with block"),
    ("Close every file you open: use a with statement", "Wrap open() calls in a context manager"),
    ("Don't write '# fixed bug' or '# updated' comments", "Comments must not describe what changed in this edit"),
    ("Never add a Co-Authored-By line for Claude", "Commit messages must not mention the AI assistant"),
    ("Only change what the task requires", "Don't refactor code unrelated to the task"),
])
def test_common_rules_the_table_had_no_anchor_for_meet(first, second):
    assert _same(first, second)


@pytest.mark.parametrize("first, second", [
    ("Don't leave comments that narrate your edits", "Comments should explain why, not what"),
    ("No AI attribution in commit messages", "Use conventional commit messages"),
    ("Keep the diff minimal: no unrelated changes", "Keep functions minimal"),
])
def test_rules_on_neighbouring_anchors_stay_apart(first, second):
    assert not _same(first, second)
