"""The capture mistakes issue 32 names, each with the class of mistake it stands for: a negation found inside
another word (不对称), a first request taken for a correction, a quoted phrase taken for the user's words, and
complaints said in words no pattern knew."""

from __future__ import annotations

import pytest

from ladder_plugins.agents.classify import classify


def _captured(prompt: str, referent: object) -> bool:
    found = classify(prompt, lambda: referent)
    return found is not None and not found.ask


@pytest.mark.parametrize("prompt", [
    "不对称加密应该用哪个库？",       # 不对 inside 不对称 (asymmetric)
    "这个类不对外暴露，放到 _internal 模块里。",
    "写个函数检查两个列表的长度，不对应就抛异常。",
    "这段代码为什么不对齐？",
    "删掉没用的导入。",              # 没用 (unused), not "useless"
    "Python 的垃圾回收是怎么工作的？",  # 垃圾回收: garbage collection
    "运行结果不错了。",               # 不错: good
])
def test_a_negation_inside_another_word_is_not_a_complaint(prompt):
    assert not _captured(prompt, True)


@pytest.mark.parametrize("prompt", ["wrongly", "Add a test named test_wrong_password_is_rejected.",
                                    "The unsteady build notwithstanding, add the flag."])
def test_english_negations_are_bounded_by_word_boundaries(prompt):
    assert not _captured(prompt, True)


@pytest.mark.parametrize("referent", [False, None])
def test_a_first_request_is_not_a_correction(referent):
    assert not _captured("我要的是一个 REST 接口，用 FastAPI 写。", referent)
    assert not _captured("No need for a CLI yet: write the library function first.", referent)


def test_a_first_request_with_an_unknown_referent_is_left_for_the_reviewer():
    found = classify("我要的是一个 REST 接口，用 FastAPI 写。", lambda: None)
    assert found is not None and found.ask


@pytest.mark.parametrize("prompt", [
    'Fix the "that\'s not what I asked" typo in the error message.',
    "Fix the \u201cthat\u2019s not what I asked\u201d typo in the error message.",
    "Fix the 'that's not what I asked' typo in the error message.",
    "Rename `you_broke_it` to `build_failed`.",
    "把错误提示里的“不对”改成“格式错误”。",
    "把提示语「你又输错密码了」改短一点。",
])
def test_a_quoted_phrase_is_not_the_user_speaking(prompt):
    assert not _captured(prompt, True)


def test_a_complaint_outside_the_quotes_still_counts():
    assert _captured('You wrote "fixed" in the commit message but the test still fails.', True)


@pytest.mark.parametrize("prompt, referent", [
    ("The build is broken now, nice job.", True),
    ("Stop guessing and read the actual error message.", True),
    ("你写的测试根本没有断言。", True),
    ("又是这个问题，昨天就让你修了。", False),
    ("I asked for a minimal diff. This is 400 lines.", True),
])
def test_complaints_in_other_words_are_captured(prompt, referent):
    assert _captured(prompt, referent)
