"""The built-in classifier plugin: a prompt the patterns miss but that may be dissatisfaction is marked for the
reviewer (never judged here), everything else gets no opinion; it answers at once and through pluggy."""

from __future__ import annotations

import time

import pluggy
import pytest

from ladder_plugins import hookspecs
from ladder_plugins.agents import ask_reviewer
from ladder_plugins.agents.captures import ASK, ASK_REVIEWER, capture_entry
from ladder_plugins.agents.classify import Classification, classify


@pytest.mark.parametrize("prompt", ["Is this what you call done? Not even close.",
                                    "我让你只改一个函数，结果整个模块都没法用了。"])
def test_a_prompt_the_patterns_miss_that_may_be_a_complaint_is_marked(prompt):
    assert classify(prompt, lambda: True) is None
    assert ask_reviewer.ask(prompt) == (ASK_REVIEWER,)


@pytest.mark.parametrize("prompt", ["Now add a test for the empty list case.", "继续", "好的，下一步处理日志。",
                                    "/compact you did not", "Explain the cache."])
def test_other_prompts_get_no_opinion(prompt):
    assert ask_reviewer.ask(prompt) is None


def test_the_mark_becomes_a_capture_the_tracker_waits_on():
    found = Classification((ASK_REVIEWER,), ())
    entry = capture_entry("Is this what you call done?", found)
    assert (entry["ask"], entry["reasons"]) == (ASK, [])


def test_it_answers_through_the_hook_at_once():
    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs.LadderSpec)
    manager.register(ask_reviewer)
    began = time.monotonic()
    answers = manager.hook.ladder_classify_feedback(prompt="Why is it still not fixed, you said it was?",
                                                    deadline=began + 1)
    assert answers == [[ASK_REVIEWER]] or answers == [(ASK_REVIEWER,)]
