"""The tracker's matcher (``tracker/similarity.py``) as a scan uses it: unrelated feedback stays apart (under
one heading, with a stray word in common), the same feedback in other words meets, and the labelled pairs of
``benchmarks/data`` keep their precision and recall."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ladder_plugins.tracker.model import Sighting, SourceContext
from ladder_plugins.tracker.scan import apply_sightings
from ladder_plugins.tracker.similarity import Matcher, words_of
from ladder_plugins.tracker.sources import docs
from ladder_plugins.tracker.topics import shipped_topics

from tests.helpers import paths
from tests.helpers.feedback import write
from tests.helpers.reports import FINAL, ladder

TODAY = date(2026, 6, 1)


class NoPlugins:
    """A plugin manager whose matcher hook has no plugin answers: the built-in matcher decides."""

    class hook:  # noqa: N801 - the attribute pluggy's manager has
        @staticmethod
        def ladder_feedback_match(**_):
            return None


def _items(sightings: list[Sighting]) -> list[dict]:
    items: list = []
    apply_sightings(items, sightings, NoPlugins(), shipped_topics(), TODAY)
    return items


def _notes(*texts: str) -> list[Sighting]:
    return [Sighting(1, text, f"note {n}", "notes", f"notes:{n}", "2026-05-0%d" % n) for n, text in enumerate(texts, 1)]


def test_two_bullets_under_one_heading_are_two_items(tmp_path):
    write(tmp_path, "CLAUDE.md", """\
        # Python style

        - Do not use print() for diagnostics
        - Functions must not take more than 5 parameters
        """)
    found = list(docs.ladder_feedback_sources(context=SourceContext(root=tmp_path)))
    items = _items(found)
    assert sorted((i["topic"], i["ladder"]["topic"]) for i in items) == [
        ("Do not use print() for diagnostics", "print-statements"),
        ("Functions must not take more than 5 parameters", "too-many-parameters")]
    assert {s.context for s in found} == {"Python style"}  # the heading goes along, for people, and joins nothing


def test_a_heading_shared_by_feedback_without_a_topic_joins_nothing(tmp_path):
    write(tmp_path, ".claude/rules/git.md", """\
        ## Git workflow and commits

        - Never push directly to the main branch
        - Write commit messages in the imperative mood
        - Ask before deleting a remote branch
        """)
    assert len(_items(list(docs.ladder_feedback_sources(context=SourceContext(root=tmp_path))))) == 3


@pytest.mark.parametrize("first, second", [
    ("Always ask the user before deleting files", "The user must confirm before a release is published"),
    ("All tests must pass before merging", "Never pass user input to subprocess with shell=True"),
    ("Pass the user id, not the user object, to the cache", "Ask the user which database to use"),
])
def test_a_stray_word_in_common_joins_nothing(first, second):
    assert len(_items(_notes(first, second))) == 2


@pytest.mark.parametrize("first, second", [
    ("Don't use mutable default arguments", "def f(x=[]) is a bug: the default list is shared between calls"),
    ("Do not use print() for diagnostics", "Use logger.error instead of print for error reporting"),
    ("Never push directly to the main branch", "Never commit directly to `main`; open a pull request"),
])
def test_the_same_feedback_in_other_words_is_one_item(first, second):
    items = _items(_notes(first, second))
    assert len(items) == 1 and items[0]["occurrences"] == 2


def test_ladder_feedback_add_matches_a_paraphrase(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    for text in ("Don't use mutable default arguments",
                 "def f(x=[]) is a bug: the default list is shared between calls"):
        done = ladder(["feedback", "add", text], tmp_path, LADDER_NOW=FINAL, HOME=str(tmp_path / "home"))
        assert done.returncode == 0, done.stderr
    state = json.loads((tmp_path / ".claude" / "feedback-ladder-state.json").read_text())
    assert [(i["topic"], i["occurrences"]) for i in state["feedbacks"]] == [("Don't use mutable default arguments", 2)]


def test_a_check_joins_only_feedback_about_its_topic():
    """A level-4 check knows its topic: it says where an item about that topic is encoded, never one that only
    shares words or leans to it."""
    check = Sighting(4, "Code without tests (coverage drops)", ".coveragerc", "enforced", "cov:coverage", topic="coverage")
    items = _items(_notes("Keep pull requests small", "Do not merge without tests") + [check])
    assert [(i["topic"], i["current_level"]) for i in items] == [("Keep pull requests small", 1),
                                                                 ("Do not merge without tests", 4)]


def test_words_are_folded_so_that_forms_and_synonyms_meet():
    assert words_of("Merging") == words_of("merge") and words_of("explicitly") == words_of("explicit")
    assert words_of("logger") == words_of("logging") == ("log",)
    assert "commit" not in words_of("run pre-commit") and words_of("f-strings") == words_of("fstring")
    assert "format" not in words_of("Use an f-string instead of .format()")


def _labelled(names: str) -> list[tuple[bool, str, str]]:
    rows = []
    for path in sorted((paths.REPO / "benchmarks" / "data").glob(names)):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                label, first, second, _ = line.split("\t")
                rows.append((label == "same", first, second))
    return rows


def _figures(rows: list[tuple[bool, str, str]]) -> tuple[float, float]:
    matcher = Matcher(shipped_topics())
    said = [(matcher.same(first, second), same) for same, first, second in rows]
    hits = said.count((True, True))
    return hits / [told for told, _ in said].count(True), hits / [truth for _, truth in said].count(True)


# the sets the matcher was tuned on: held-out 4 since the fifth round (the concept lexicon and what keeps alike rules
# apart), after which the five measure 0.983 / 0.959 together (0.940 / 0.893 before that round); held-out 5, written
# before the fifth round, was held out then and measured once after it (its own floor below)
TUNED = ("tracker_pairs_tuning.tsv", "tracker_pairs_heldout.tsv", "tracker_pairs_heldout2.tsv",
         "tracker_pairs_heldout3.tsv", "tracker_pairs_heldout4.tsv")


def test_the_labelled_pairs_keep_their_precision_and_recall():
    """benchmarks/tracker_matching.py prints the figures per split; this holds a floor under the sets tuned on, so
    a change that loses either is seen."""
    rows = [row for name in TUNED for row in _labelled(name)]
    precision, recall = _figures(rows)
    assert len(rows) >= 240
    assert precision >= 0.96 and recall >= 0.94, (precision, recall)


def test_the_fifth_held_out_set_keeps_what_it_measured_once():
    """held-out 5 was measured once, after the fifth round that never read it: 0.609 / 0.467 (0.625 / 0.333
    before). Far below the sets tuned on, and kept here so that it is not lost either; a sixth round tunes on it
    only after a new set is written."""
    precision, recall = _figures(_labelled("tracker_pairs_heldout5.tsv"))
    assert precision >= 0.58 and recall >= 0.45, (precision, recall)


def test_every_title_and_paraphrase_of_the_table_is_about_its_own_topic():
    topics = shipped_topics()
    matcher = Matcher(topics)
    wrong = [(t.id, p, matcher.topic(p)) for t in topics for p in (t.title, *t.paraphrases) if matcher.topic(p) != t.id]
    assert wrong == []
    assert all(len(t.paraphrases) >= 3 for t in topics)


def test_the_matcher_is_deterministic():
    first, second = Matcher(shipped_topics()), Matcher(shipped_topics())
    text = "Use pathlib instead of os.path"
    assert first.vector(text) == second.vector(text) and first.topic(text) == second.topic(text) == "pathlib"


def test_a_sentence_naming_two_topics_meets_feedback_about_either():
    matcher = Matcher(shipped_topics())
    both = "Remove the print calls and the breakpoint()"
    assert matcher.about(both) == {"print-statements", "debugger-statements"}
    assert matcher.same(both, "Use logging instead of print") and matcher.same(both, "Don't leave pdb.set_trace() in")
    assert not matcher.same(both, "Sort the imports with isort")


@pytest.mark.parametrize("text", ["never write a bare except", "bare except"])
def test_the_same_rule_in_other_words_joins_its_item(text):
    assert Matcher(shipped_topics()).same(text, "bare except clause")


def test_one_shared_word_does_not_join_an_item_about_a_topic():
    """The English "except" is no exception, and one word in common with a topic is no evidence of it: the old
    keyword rule kept these apart (one shared keyword), and so does the matcher since the fifth round."""
    matcher = Matcher(shipped_topics())
    assert not matcher.same("except when the build is red", "bare except clause")
    assert not matcher.same("bare except clause", "except when the build is red")
