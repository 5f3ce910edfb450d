"""Which check the tracker suggests for a piece of feedback given three times: the seed's own examples and
common Python review comments, each with the topic (and so the check) it must get. "Do not merge without
tests" was told to add check-merge-conflict."""

from __future__ import annotations

from datetime import date

import pytest

from ladder_plugins.tracker.item import read_items
from ladder_plugins.tracker.model import Sighting
from ladder_plugins.tracker.promotion import suggestion
from ladder_plugins.tracker.scan import apply_sightings
from ladder_plugins.tracker.topics import shipped_topics

#: comment → the topic it is about (None: no topic, the ladder's generic step); the check is the topic's
SEED = [
    ("Do not merge without tests", "coverage"),
    ("Please follow import ordering", "import-order"),
    ("No hardcoded secrets", "secrets"),
]
REVIEW_COMMENTS = [
    ("Don't use a bare except here", "bare-except"),
    ("Please remove the debug print statements", "print-statements"),
    ("This import is unused", "unused-imports"),
    ("Don't use a mutable default argument", "mutable-defaults"),
    ("Use raise ... from e so we keep the traceback", "exception-chaining"),
    ("Please add type hints to this function", "type-hints"),
    ("Missing docstring on this public function", "docstrings"),
    ("This function is way too complex, can you break it up?", "complexity"),
    ("This function has too many arguments", "too-many-parameters"),
    ("Use an f-string instead of .format()", "modern-syntax"),
    ("Use pathlib instead of os.path.join", "pathlib"),
    ("Don't pass f-strings to logger calls, let logging format lazily", "logging-format"),
    ("datetime.now() should be timezone-aware", "naive-datetimes"),
    ("Use a list comprehension here instead of the loop", "comprehensions"),
    ("Don't name this variable `id`, it shadows the builtin", "shadowing-builtins"),
    ("Please remove the commented-out code", "commented-out-code"),
    ("Leftover breakpoint() here", "debugger-statements"),
    ("This test doesn't assert anything", "tests-without-assertions"),
    ("Don't use assert for argument validation, it is stripped with -O", "assert-in-production"),
    ("Line too long, please wrap at 88", "line-length"),
    ("Too much nesting here, use early returns", "deep-nesting"),
    ("Never use shell=True with user input", "security"),
    ("Please run black on this file", "formatting"),
    ("Please resolve the TODO before merging", "todo-comments"),
    ("Keep pull requests small", None),
    ("Ask before force-pushing a shared branch", None),
]


class NoPlugins:
    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


def _given_three_times(text: str):
    topics = shipped_topics()
    items: list = []
    notes = [Sighting(1, text, f"review {n}", "notes", f"notes:{n}", f"2026-05-0{n}") for n in (1, 2, 3)]
    apply_sightings(items, notes, NoPlugins(), topics, date(2026, 6, 1))
    [item] = read_items(items).items
    return item, suggestion(item, topics)


@pytest.mark.parametrize("comment, topic", SEED + REVIEW_COMMENTS)
def test_each_comment_gets_the_check_of_its_topic(comment, topic):
    item, hint = _given_three_times(comment)
    assert item.topic_id == topic
    assert hint is not None and hint.topic == topic
    if topic is None:
        assert item.recommended_level == 3 and hint.check is None
    else:
        check = next(t.check for t in shipped_topics() if t.id == topic)
        assert item.recommended_level == 4 and hint.check == check


def test_not_merging_without_tests_is_a_coverage_gate_not_a_merge_conflict_check():
    _, hint = _given_three_times("Do not merge without tests")
    assert hint is not None and "check-merge-conflict" not in (hint.check or "") and "fail_under" in (hint.check or "")


def test_the_table_holds_twenty_python_review_comments_at_least():
    assert len([c for c, topic in REVIEW_COMMENTS if topic]) >= 20


def test_an_item_is_about_the_topic_most_of_its_texts_are_about_not_its_first_aside():
    from ladder_plugins.tracker.scan import topic_for
    from ladder_plugins.tracker.topics import shipped_topics

    topics = shipped_topics()
    majority = topic_for(["Never commit secrets.", "Do not print() for diagnostics",
                          "No print statements in library code"], topics)
    assert majority is not None and majority.id == "print-statements"
    tie = topic_for(["Never commit secrets.", "Avoid bare except clauses"], topics)
    assert tie is not None and tie.id == "secrets"  # as many texts each: the earliest text's topic
    assert topic_for(["Run the tests before you commit."], topics) is None
