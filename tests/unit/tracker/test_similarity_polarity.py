"""The matcher's fourth round, by classes: a rule and its opposite, rules about different actions, a rule's reason
weighing less than the rule, and paraphrases the table lacked (small commits, magic numbers)."""

from __future__ import annotations

from ladder_plugins.tracker.similarity import Matcher, polarity
from ladder_plugins.tracker.topics import shipped_topics

MATCHER = Matcher(shipped_topics())


def test_a_rule_and_its_opposite_are_different_feedback():
    assert polarity("Never commit unless explicitly asked") == -1
    assert polarity("Commit as you work, unasked") == 1 and polarity("Use f-strings") == 0
    assert not MATCHER.same("Never commit unless explicitly asked", "Commit as you work, unasked, without waiting")
    assert MATCHER.same("Never commit unless explicitly asked", "No commits without the user's confirmation")


def test_rules_about_different_actions_are_different_feedback():
    assert not MATCHER.same("Do not push unless explicitly asked.", "Never commit unless explicitly asked.")
    # a topic of the table still joins two actions on it
    assert MATCHER.same("Never push directly to the main branch", "Never commit directly to `main`; open a pull request")


def test_the_reason_for_a_rule_weighs_less_than_the_rule():
    vector = MATCHER.vector("Avoid global state because it makes tests depend on each other")
    assert vector[next(w for w in vector if w.startswith("global"))] > vector[next(w for w in vector if w.startswith("depend"))]


def test_small_commits_and_magic_numbers_meet_their_paraphrases():
    assert MATCHER.same("Keep commits small and focused on a single task or issue.",
                        "One cohesive change per commit, never bundle unrelated changes.")
    assert MATCHER.same("No magic numbers in business code", "Put literal values in named constants")


def test_a_scan_reads_each_texts_stance_once(monkeypatch):
    """A scan compares each sighting with every text of every item: the regular expressions of a text's
    polarity and exceptions run once per text and matcher, not once per comparison (the scan's cost)."""
    from ladder_plugins.tracker import similarity

    calls: dict[str, int] = {}

    def counted(function):
        def wrapper(text: str):
            calls[text] = calls.get(text, 0) + 1
            return function(text)
        return wrapper

    monkeypatch.setattr(similarity, "polarity", counted(similarity.polarity))
    monkeypatch.setattr(similarity, "relaxes", counted(similarity.relaxes))
    matcher = Matcher(shipped_topics())
    item = ["Never commit unless explicitly asked", "Do not push unless explicitly asked."]
    for text in ["Commit as you work, unasked", "Prefer small functions", "Run the linter before pushing"] * 3:
        matcher.score(text, item)
    assert calls and max(calls.values()) == 2  # polarity and relaxes, once each
