"""The classifier's third round, by classes of phrasing, each by sentences of its own (none of them in a labelled
set): a failure put on someone other than the agent (a library, upstream, a registry, an upgrade, a colleague,
the user's own mistake) is no complaint unless the sentence names the agent as the one who acted; a
hypothetical ("suppose", "assuming", 即使, 的话) and a clause that names which thing is wrong ("the cell that is
wrong", 哪一行写错了) and a question about a cause (是不是编码不对导致的) are no verdict; words in quotes, code
spans and pasted log lines are named, not said. And two complaints
the patterns missed: "a fix that fixes nothing", and harm done in an earlier session (no referent needed).
"""

from __future__ import annotations

import pytest

from ladder_plugins.agents.classify import classify


def _captured(prompt: str, referent: bool = True) -> bool:
    found = classify(prompt, lambda: referent)
    return found is not None and not found.ask


@pytest.mark.parametrize("prompt", [
    # a third party or the environment
    "The payment SDK is broken again after their release, stub it out.",
    "Upstream still hasn't fixed the memory leak, add a workaround.",
    "Our CI is red again because PyPI keeps failing.",
    "新版 Django 又把中间件的接口改坏了，帮我适配。",
    "同事的脚本又报错了，帮我看看。",
    "She broke the login page in her branch, help me find the commit.",
    # the user's own mistake
    "Sorry, my mistake: the path I pasted is wrong. Use ./data instead.",
    "I accidentally broke the build with a bad merge, can you help me fix it?",
    "是我写错了配置，端口应该是 8080。",
    # hypotheticals and a clause naming which thing is wrong
    "Suppose the cache is broken after a deploy, how do we notice?",
    "Assuming the input is wrong, what should the API return?",
    "即使配置写错了，也要给出清楚的提示。",
    "格式不对的话就返回 400。",
    "Highlight the cell that is wrong in red.",
    "告诉我哪一行写错了。",
    # a phrase in a code span, a pasted log line, a question about a cause
    "Rename the `still failing` label to `flaky` in the dashboard.",
    "2025-03-02 04:10:11 WARN sync job failed again, will retry\nWhat does the retry policy look like?",
    "ERROR: build still broken on arm64 -- which flag controls the target?",
    "输出：ERROR 任务又失败了\n这个重试间隔在哪里配置？",
    "这个警告是不是编码不对导致的？",
    "The dependency is broken again on Windows, pin it to 2.3.",
])
def test_a_failure_that_is_not_the_agents_is_not_captured(prompt):
    assert not _captured(prompt)


@pytest.mark.parametrize("prompt", [
    "You broke the pandas import.",
    "Your upgrade broke the React router.",
    "You messed up the library imports.",
    "你把第三方库的版本改坏了。",
    "Another patch that fixes nothing.",
    "This change did nothing.",
])
def test_the_agent_named_next_to_a_third_party_is_still_captured(prompt):
    assert _captured(prompt)


@pytest.mark.parametrize("prompt", [
    "Yesterday you deleted my notes file, so be careful this time.",
    "Last time you wiped the cache directory.",
    "上次你把我的 .env 清空了，这次注意点。",
])
def test_harm_done_in_an_earlier_session_needs_no_referent(prompt):
    assert _captured(prompt, referent=False)
