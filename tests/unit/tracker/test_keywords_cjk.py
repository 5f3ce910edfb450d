"""Chinese text gets keywords: character bigrams of the runs of Han characters, split at function characters,
without the bigrams that say nothing about a topic; and two unrelated Chinese complaints no longer share
an item."""

from __future__ import annotations

import json
import subprocess
import sys

from ladder_plugins.tracker.keywords import cjk_keywords, kebab_id, keywords_of
from ladder_plugins.tracker.similarity import Matcher
from ladder_plugins.tracker.topics import shipped_topics


def test_a_chinese_text_has_bigram_keywords():
    assert keywords_of("你写的测试根本没有断言。") == ("测试", "断言")
    assert keywords_of("日志级别不要用 DEBUG") == ("日志", "志级", "级别", "debug")


def test_function_characters_split_runs_and_single_characters_are_dropped():
    assert cjk_keywords("把它改了") == ()
    assert cjk_keywords("数据库连接池") == ("数据", "据库", "库连", "连接", "接池")


def test_english_and_chinese_keywords_keep_the_order_of_the_text():
    assert keywords_of("bare except 在异常处理里不要用") == ("bare", "except", "异常", "常处", "处理")


def test_unrelated_chinese_complaints_do_not_match_and_related_ones_do():
    matcher = Matcher(shipped_topics())
    logging, migration, again = "日志级别又改成 DEBUG 了", "迁移文件不要手动修改", "不要再把日志级别改成 DEBUG"
    assert not matcher.same(logging, migration)
    assert matcher.same(logging, again)


def test_a_chinese_complaint_gets_an_id_that_is_not_just_feedback():
    first = kebab_id(keywords_of("测试没有断言"), [])
    second = kebab_id(keywords_of("迁移文件不要手动修改"), [first])
    assert first.startswith("feedback-") and second.startswith("feedback-") and first != second
    assert kebab_id(keywords_of("测试没有断言"), []) == first  # the same keywords, the same id


def test_the_module_imports_only_the_standard_library():
    """What an interpreter has loaded before depends on its site (a venv, .pth files), so the test is what the
    import adds: standard-library modules only, no segmenter or other third-party package."""
    code = ("import sys, json; before = set(sys.modules); import ladder_plugins.tracker.keywords; "
            "print(json.dumps(sorted(m for m in set(sys.modules) - before if not m.startswith('ladder_plugins'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    added = {name.partition(".")[0] for name in json.loads(out)}
    assert added <= set(sys.stdlib_module_names) | {"__future__"}, added - set(sys.stdlib_module_names)


def test_a_chinese_capture_keeps_its_topic_and_not_its_complaint():
    from ladder_plugins.agents.classify import capture_keywords

    assert capture_keywords("你又在绕圈子。") == ()
    found = capture_keywords("好家伙，错误处理全被你删光了。")
    assert found[:3] == ("错误", "误处", "处理") and not {"好家", "家伙", "删光"} & set(found)
