"""The classifier's phrase classes, each by a few sentences of its own (none of them in a labelled set): an
imperative correction, "why did you" and its kin, "not what I meant", blame of the agent next to a failure,
a recurrence (又/还是 + a failure), sarcasm next to a breakage, a verdict of over-complication; and, for
precision, the same words where they are not about the agent's work: a feature named undo or revert, a
hypothetical (if/如果), a third party's failure or complexity, a question. (A third party named as the
subject of a breakage, "The library broke its API again", is the class of test_classify_elsewhere.py.)
"""

from __future__ import annotations

import pytest

from ladder_plugins.agents.classify import classify


def _captured(prompt: str) -> bool:
    found = classify(prompt, lambda: True)
    return found is not None and not found.ask


@pytest.mark.parametrize("prompt", [
    # imperative corrections
    "Roll back your edits to the router.",
    "Please undo everything you did in utils.py.",
    "Back out those changes, the old parser was fine.",
    "Revert the changes you made to the Makefile.",
    "Leave it the way it was before.",
    "Change it back to the original version.",
    "恢复成原来的样子。",
    "撤回你刚加的那几行。",
    "不许乱删文件。",
    "别擅自改接口。",
    # why did you, and its kin
    "Why'd you move the helper into a new module?",
    "How come you changed the port?",
    "Why is there a sleep(5) in the test now?",
    "你到底动了什么？",
    # not what I meant
    "That's not what I had in mind.",
    "I wanted one function, not three classes.",
    "No no, the other file.",
    "你误解了我的意思。",
    # blame of the agent next to a failure
    "You've broken the import of the config module.",
    "You wiped the fixtures directory.",
    "Since you touched the cache layer, half the tests fail.",
    "你改了路由之后首页就打不开了，报错了。",
    "你把服务弄挂了。",
    # a recurrence
    "Same error as last time.",
    "Again with the hard-coded paths.",
    "还是报一样的错。",
    "接口还在报错。",
    # sarcasm next to a breakage, and a verdict
    "Oh great, now nothing compiles.",
    "真棒，整个页面都崩了。",
    "This is way overcomplicated.",
    "你这个写法太绕了，简单点。",
])
def test_a_complaint_in_each_phrase_class_is_captured(prompt):
    assert _captured(prompt)


@pytest.mark.parametrize("prompt", [
    "Add an undo button to the toolbar.",
    "Write a script that reverts the database to a snapshot.",
    "Let's revert to the old API only if the benchmark regresses.",
    "Restore the database from last night's backup.",
    "If the checksum is wrong, retry the download.",
    "If it's broken after the upgrade, pin the old version.",
    "如果密码不对，就锁定账号五分钟。",
    "要是格式不对就抛出 ValueError。",
    "Why is the upstream server slow today?",
    "How come Python lists are faster than deques here?",
    "这个库太复杂了，有没有更轻量的替代？",
    "帮我写一个撤销功能。",
    "我想要一个恢复出厂设置的按钮。",
    "I wanted to ask: how do I profile this?",
])
def test_the_same_words_not_about_the_agents_work_are_not_captured(prompt):
    assert not _captured(prompt)
