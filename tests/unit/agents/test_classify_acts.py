"""The compositional rule of the classifier: an act of the agent ("you moved", "the test you wrote", "your
migration dropped", "your patch", 你把...了, 你删掉的, 你的修改) and, within a couple of hundred characters of it, a
cue that is dissatisfaction about that act ("I only asked for", "checks nothing", "no such option", "so every
plugin broke", "that's not a fix", 报了...错, 赶紧...恢复, 我只要, 而不是). Either alone is an ordinary request,
report or question; a prompt that also approves ("thanks", "as I asked", 挺好) is no complaint.

The prompts are new wordings written for this test, none of them a row of the labelled sets. Every label-1 one
was missed before the rule (the classifier without its cues still misses it: the second test), and the label-0
ones hold an act, a cue, or both, and are no complaint: a further request after an act, praise, a question about
the act, a plan, a hypothetical, a failure someone else caused, the user's own mistake.
"""

from __future__ import annotations

import re

import pytest

from ladder_plugins.agents import classify as classifier
from ladder_plugins.agents.classify import PATTERNS, classify, cleaned

DISSATISFIED = [
    'You converted the whole config loader to async. I only asked for a timeout on the HTTP call.',
    'You reformatted the test folder. All I wanted was the one function fixed.',
    'You deleted the feature flags module. Nobody asked you to touch it.',
    'You pinned numpy to 1.x when I only needed the deprecation warning gone.',
    'You moved the helpers into utils.py and now half the imports fail.',
    'You patched the serializer, and after that the export crashes on empty rows.',
    'The migration you generated drops the index; the tests show twelve errors now.',
    'You inlined all the constants. Now the settings page throws on load.',
    'You cited a strict_mode option for ruff, but no such option exists.',
    "The endpoint you documented doesn't exist in our API.",
    'You switched the logger to structlog; there is no structlog package in our lockfile.',
    'The fixture you added mocks the database, so the test checks nothing at all.',
    'You bumped the version to 3.0 without a changelog. Are you kidding me?',
    'Your refactor removed the cache warm-up. Bring the warm-up step back before the release.',
    'You said the leak was gone, yet the same OOM error shows up on the nightly job.',
    '你重写的排序函数，现在跑不起来了。',
    '你删的那个配置项其实还在用，加回去吧。',
    '你把依赖版本全升了，结果编译不过了。',
    '你改的那段正则，同样的报错还在。',
    '你把 README 也重写了？我只要改安装那一节。',
    '你直接把主分支的提交历史改掉了，你认真的吗？',
    '你换掉的那个 JSON 库是项目里需要的，赶紧恢复。',
    'You changed the return type to a dict and now every caller breaks.',
    "You put the API key in the source file. That's a security hole.",
    'The function you wrote returns None half the time.',
    'You added a dependency on lodash for a single function. Why?',
    'Your fix only moved the bug to a different line.',
    'You removed the type hints I wrote by hand.',
    'The script you gave me deleted my entire downloads folder.',
    'You copied the same block into five files instead of making a helper.',
    "The README you wrote describes a CLI flag that isn't implemented.",
    'Your test uses sleep(5), the suite now takes forever.',
    'You disabled the failing test instead of fixing it.',
    "You merged the two functions and now I can't call them separately.",
    '你加的那个 sleep 让整个测试慢了十倍。',
    '你提交的代码把 CI 搞红了。',
    '你把测试跳过了，而不是修好它。',
    '你说已经修好了，可是页面还是白屏。',
    'You turned every warning into an error, so nothing builds on my machine anymore.',
    'The loop you optimised is now O(n^2), it was linear before.',
    'You left a debug print in the hot path. The logs are flooded.',
    "The docstring you added describes parameters the function doesn't take.",
    'You mocked out the thing the test is supposed to check.',
    'You catch Exception and return None, which hides the real failure.',
    '你把超时改成了 0，现在所有请求都直接失败。',
    '你加的索引让写入慢了一大截。',
    '你改了默认端口，服务现在起不来了。',
    '你把异常全吞了，真正的错误根本看不到。',
    '你生成的迁移脚本把用户表清空了。',
    '你说测试都过了，结果 CI 上红了一片。',
    '你把 print 留在了热路径里，日志全被刷屏了。',
    '你引入的那个库我们公司禁止使用。',
    '你删了重试逻辑，现在网络一抖就失败。',
    'The cron expression you wrote fires every minute, not every hour.',
    'You replaced the enum with strings everywhere, so the type checker catches nothing now.',
    'The chart you made has the axes swapped.',
    'You added a second config file instead of extending the one we have.',
    'Your summary of the PR leaves out the breaking change.',
    '你写的定时任务每分钟都跑，不是每小时。',
    '你加的重试遇到 404 也会无限重试。',
    '你把枚举全改成字符串了，类型检查现在什么都查不出来。',
    "You turned off SSL verification to make the request work. That's not a fix.",
    "You wrapped everything in try/except pass, now I can't see any errors.",
    'You marked the failing tests as xfail and called it done.',
    'You converted the dates to local time; the reports are off by a day now.',
    "You changed the public function's signature, so every plugin broke.",
    'The cache you added never expires, memory keeps growing.',
    'You rewrote my commit history on the shared branch.',
    'You formatted the JSON with tabs, the parser on the other side chokes on it.',
    '你把 SSL 校验关掉了，这不叫修复。',
    '你实现的分页每十条就漏一条。',
    '你把所有异常都 pass 掉了，现在什么错误都看不到。',
    '你把失败的测试都标成 xfail 就说完成了。',
    '你改了公共函数的签名，所有插件都坏了。',
    '你把时间都转成了本地时间，报表现在差了一天。',
    '你写的 Dockerfile 用 root 跑，安全扫描全红。',
    'You pushed straight to the release branch. That needed a review.',
    'Your fix changed the rounding, so invoices are off by a cent now.',
    'You swapped the arguments to the copy call and overwrote the source file.',
    "You said it's thread-safe. It isn't, two workers write the same row.",
    'You replaced the streaming reader with one that loads the whole file into memory, and now it OOMs on big uploads.',
    "You wrote a regex for emails that rejects plus signs, half our users can't sign up.",
    '你的修改把舍入规则改了，发票现在差了一分钱。',
    '你把流式读取换成了整个文件读进内存，现在大文件上传直接 OOM。',
    'The index you created is on the wrong column, queries are as slow as before.',
    "You renamed the env var but not in the deploy script, so staging can't find it.",
    'Your script ran rm -rf on the build dir and took my notes folder with it.',
    'You stubbed the payment call, so the integration test proves nothing.',
    '你的脚本 rm -rf 了构建目录，把我的笔记文件夹也删了。',
]

NOT_DISSATISFIED = [
    'You added the retry logic, thanks. Now also add a timeout.',
    'You fixed the parser; can you run the linter again?',
    'You moved the helpers into utils.py. Now update the imports in the tests as well.',
    'You used pathlib everywhere, which is what I asked for. Now add a test for the Windows paths.',
    'You set up the fixtures; now the suite runs in 4 seconds instead of 40.',
    'You added the feature flag; turn it back on after the release.',
    'Nice, you made the build 2x faster. Seriously impressive!',
    'You renamed the module, so there is no old name to worry about anymore.',
    "You wrote the migration. If the column doesn't exist, create it first.",
    "You added the cache directory; create it when it doesn't exist.",
    'Your change looks good. There are 3 errors left in the legacy module, fix those next.',
    'You split the tests into two files; the same error handling applies to both.',
    'You fixed the date bug. The same bug exists in the time parser too, fix it there.',
    'You wrote a great test; it caught a real bug in the parser.',
    'I only wanted to say thanks, the refactor looks great.',
    'Bring the logging back in the worker process.',
    'Add a check that there is no such user before the insert.',
    'Make sure mypy reports 0 errors before you push.',
    '你加的日志很有用，再加一个请求耗时。',
    '你把测试拆成两个文件了，顺便把 README 里的说明也改一下。',
    '你写的函数没问题，我只想再加一个参数。',
    '给你加回来的那个测试写个注释。',
    '你重构的模块，如果以后报错了就加个日志。',
    '你生成的报表里，上个月一共出现了 3 个错误订单，帮我列出来。',
    '你改完之后测试全过了，现在把版本号改一下。',
    '你写的脚本跑得很快，现在把它加到 CI 里。',
    'You wrote the parser last week; now extend it to support comments.',
    'You removed the old flag as planned. Now the help text needs updating.',
    'The function you wrote is fast. Can it also handle unicode?',
    'You added logging to the worker; now add the same to the scheduler.',
    'You fixed the flaky test. Now the suite runs green on all three platforms.',
    '你写的 SQL 很清楚，再加个分页。',
    '你加的依赖版本是多少？',
    '你把配置改成 JSON 了，顺便把文档也更新一下。',
    'You turned the warnings into errors as I asked; now fix the three that fire in utils.',
    'The loop you optimised is much faster. Can you do the same to the parser?',
    "You left the TODOs in place, good. We'll handle them next sprint.",
    'You upgraded the ORM. What changed in the migration API?',
    'Your regex looks right to me; add a test for the empty string.',
    'You changed the default port to 8080. Update the README to match.',
    'The docstring you added is clear. Please do the same for the other public functions.',
    'You mocked the network layer in the tests. Is there a way to run them against a real server too?',
    'You removed the dead code in utils. There is no other caller of it, right?',
    "You rewrote the builder; now let's add support for joins.",
    'Why did the old version need a lock? You removed it and it still works.',
    'You said the tests pass. Now push the branch and open a PR.',
    'You fixed the typo. I only want one more change: rename the flag.',
    'You deleted the temp files, but keep the logs for now.',
    'You wrote the parser; it still has no docs, add some.',
    '你把超时改成了 30 秒，再把重试次数改成 3。',
    '你加的索引效果很好，查询快多了。',
    '你写的正则没问题，再加个测试。',
    '你改了默认端口，记得更新文档。',
    '你把异常处理整理了一下，挺好的，继续。',
    '你生成的迁移脚本我看过了，可以合并。',
    '你说测试都过了，那就提交吧。',
    '你删掉的那些文件是临时文件，不用管。',
    '你引入的那个库是什么协议的？',
    '你写的函数为什么要用递归？',
    '你把日志级别改成 INFO 了吗？',
    '你改的配置，如果以后出问题再说。',
    '我只需要你再把 README 更新一下。',
    '给你看一下报错信息，帮我分析。',
    '你刚才跑的测试用了多久？',
    'The cron expression you wrote runs hourly. Add one for the nightly backup.',
    'You bumped the Python requirement to 3.12. Which features of 3.12 do we use?',
    'Your commit message is good, just add the issue number.',
    'You split the module nicely. Is there anything left in the old file?',
    'The retry you added works. Does it also handle 503?',
    'You replaced the enum with a dataclass. Can you explain the trade-off?',
    'You ran the migration on staging; now run it on production too.',
    'The chart you made looks nice. Make the colours colourblind-friendly.',
    'You added a second endpoint; write tests for both.',
    'You deleted the lock file as I asked, now regenerate it with the new index.',
    'Your summary is fine. Send it to the team channel.',
    'The upstream library broke its API, so your wrapper fails now; adapt it.',
    'I deleted the old branch by mistake, can you recreate it from the tag?',
    'If your script fails halfway, what state is the database in?',
    "My colleague's patch broke the build; you didn't touch that file, right?",
    'You renamed the function. Nothing else needs to change, I checked.',
    'You were right, the bug was in the cache, not in the parser.',
    'You said the API returns JSON; it returns XML in the old version, handle both.',
    "You've added type hints everywhere; mypy now reports zero errors, great.",
    '你暂时把超时写死了，之后再从配置读取。',
    '你写的定时任务每小时跑一次，再加一个夜间备份的。',
    '你把版本要求改成 3.12 了，我们用到了哪些 3.12 的特性？',
    '你的提交信息写得不错，加上 issue 编号就行。',
    '你加的重试没问题，它能处理 503 吗？',
    '你在测试环境跑了迁移，现在去生产环境也跑一下。',
    '你画的图挺好看，把颜色换成色盲友好的。',
    '上游库改了接口，你的封装现在报错了，适配一下。',
    '我不小心删了旧分支，你能从 tag 恢复吗？',
    'You turned off SSL verification in the local dev config; add a comment saying why.',
    'The pagination you implemented works. Add a page size option.',
    'You wrapped the network calls in retries; log each retry at debug level.',
    'You marked the slow tests; now add a CI job that runs them nightly.',
    'Your Dockerfile builds fine. Can we make the image smaller?',
    'You converted the dates to UTC as discussed. Now update the frontend to show local time.',
    'You changed the signature of the private helper, which is fine since nothing outside uses it.',
    'The cache you added speeds things up a lot. How do we invalidate it on deploy?',
    'You rewrote the README intro; it reads much better.',
    'You formatted the JSON with two spaces. The other service expects that, right?',
    "Why does the scheduler skip every tenth job? It's in the vendor code, not ours.",
    'The old pagination skipped records; your version fixed that.',
    "My script wiped the staging DB, please restore it from last night's backup.",
    'If you change the signature, every plugin will break, so keep it.',
    'Did you run the migration against production, or only staging?',
    'The security scan is all red because of the base image, not your change.',
    'I only asked about the tests because the CI was slow.',
    "You already added the index? Great, then let's move on.",
    'Nothing fails now, thanks. Push it.',
    'There is no config option for this in the library, so write a wrapper.',
    '你把本地开发配置的 SSL 校验关了，加个注释说明原因。',
    '你实现的分页没问题，加个每页条数的参数。',
    '你给网络调用加了重试，把每次重试打到 debug 日志。',
    '你写的 Dockerfile 构建正常，能不能把镜像做小一点？',
    '你把时间转成 UTC 了，现在前端改成显示本地时间。',
    '你加的缓存效果很明显，部署时怎么清缓存？',
    '旧的分页会漏数据，你的版本修好了。',
    '我的脚本把测试库清空了，从昨晚的备份恢复一下。',
    '如果改了签名，所有插件都会坏，所以别改。',
    '安全扫描全红是因为基础镜像，不是你的改动。',
    'You pushed the branch; open a PR against main.',
    'The helper you extracted is neat. Use it in the export module too.',
    'You added a config layer. Document the precedence of the sources.',
    'Your fix changed the rounding as the accountants asked. Add a test for half-cent values.',
    'You swapped the arguments back; now run the copy tests again.',
    'The test you wrote is thorough. Can you parametrize it over the three formats?',
    "You said it's thread-safe; what happens if two workers write the same row?",
    'You replaced the reader with a streaming one, so memory stays flat now. Nice.',
    'You put the secret in the vault. Now rotate the old key.',
    'You wrote the email regex. Does it accept plus signs?',
    'The build broke after the Node upgrade on the runner; pin Node 18.',
    "Our users can't sign up because the SMTP provider is down. Add a retry queue.",
    'Why would the invoice rounding be off by a cent in Excel but not in our code?',
    'If the helper is called from one place, should we inline it?',
    "What's the best way to keep secrets out of the git history?",
    'Write a test that fails when the parser accepts an invalid date.',
    'Make the job fail loudly when the file is missing.',
    'The old reader loads the whole file into memory; rewrite it to stream.',
    "You'll need to restart the server after the config change.",
    '你推了分支，开个 PR 到 main。',
    '你抽出来的辅助函数挺好，导出模块也用上。',
    '你把舍入改成了会计要求的方式，补个半分钱的测试。',
    '你说这是线程安全的，那两个 worker 同时写一行会怎样？',
    'Node 升级之后 runner 上构建挂了，把 Node 固定在 18。',
    '邮件服务商宕机了，用户注册不了，加个重试队列。',
    '我把错误的分支推到了 release，帮我回滚一下。',
    '写一个测试，解析器接受非法日期时就失败。',
    '旧的读取代码会把整个文件读进内存，改成流式的。',
    "You set the log level to DEBUG on staging; switch it back to INFO before Friday's release.",
    'The index you created helps a lot. Add one on the email column too.',
    'You renamed the env var. Where else is the old name used?',
    'Your script cleaned the build dir. Add a --dry-run flag.',
    'You turned the function async; do the callers need updating?',
    'The German translation you added reads well. Ask a native speaker to review it anyway.',
    'You bumped the version. Tag the release and push the tag.',
    'You found a Stack Overflow answer for this; link it in a comment.',
    'You stubbed the payment call in the unit tests, which is fine. Keep the integration test real.',
    'The cleanup job you wrote works. Schedule it for 3am.',
    'Why did the disk fill up overnight? Check the log rotation.',
    'The translation service returns gibberish for German; switch providers.',
    'Can you check whether the deploy script uses the new env var?',
    'I renamed the env var in the deploy script myself, no need to touch it.',
    'Is it OK to bump only the minor version for this change?',
    'What does the cleanup job do with files younger than a day?',
    "The vendor's SDK turns every call async now, so adapt our wrapper.",
    'My notes folder was in the build dir by accident, I moved it out.',
    'Our old index was on the wrong column; you fixed that yesterday, thanks.',
    "Let's make the integration test hit the real payment sandbox.",
    '你把 staging 的日志级别调成 DEBUG 了，周五发布前改回 INFO。',
    '你建的索引效果很好，邮箱列也加一个。',
    '你改了环境变量名，旧名字还有哪些地方在用？',
    '你的脚本清理了构建目录，再加一个 --dry-run 参数。',
    '你把函数改成 async 了，调用方需要跟着改吗？',
    '你加的德语翻译读起来挺通顺，还是找母语的人看一下。',
    '磁盘为什么一晚上就满了？查一下日志轮转。',
    '翻译服务给德语返回的都是胡话，换个供应商。',
    '我自己在部署脚本里改了环境变量名，不用你动。',
    '这个改动只升小版本号可以吗？',
]


@pytest.mark.parametrize("prompt", DISSATISFIED)
def test_an_act_of_the_agent_with_a_cue_about_it_is_dissatisfaction(prompt):
    found = classify(prompt, lambda: True)
    assert found is not None and not found.ask


@pytest.mark.parametrize("prompt", DISSATISFIED)
def test_without_the_cues_the_patterns_miss_it(prompt, monkeypatch):
    monkeypatch.setattr(classifier, "PATTERNS", tuple(p for p in PATTERNS if not p.act))
    assert classify(prompt, lambda: True) is None


@pytest.mark.parametrize("prompt", NOT_DISSATISFIED)
def test_an_act_or_a_cue_alone_or_about_something_else_is_not(prompt):
    assert classify(prompt, lambda: True) is None


@pytest.mark.parametrize("prompt", [DISSATISFIED[0], "你删的那个配置项其实还在用，加回去吧。"])
def test_the_rule_needs_a_referent(prompt):
    assert classify(prompt, lambda: False) is None
    found = classify(prompt, lambda: None)
    assert found is not None and found.ask


def test_a_cue_far_from_the_act_is_not_about_it():
    far = "You renamed the config class. " + "Here is the plan for the next sprint, step by step. " * 6
    assert classify(far + "Now the release job fails on the staging runner.", lambda: True) is None
    assert classify("You renamed the config class, and now the release job fails.", lambda: True) is not None


@pytest.mark.parametrize("cue, approved", [
    ("You silenced the deprecation warnings in the tests.", "You silenced the deprecation warnings in the tests, thanks."),
    ("你把异常屏蔽了", "你把异常屏蔽了，谢谢"),  # the example of patterns_zh.APPROVAL
])
def test_approval_outweighs_a_cue(cue, approved):
    assert classify(cue, lambda: True) is not None
    assert classify(approved, lambda: True) is None


def test_approval_does_not_outweigh_a_phrase():
    # 没用 is a phrase of its own, not a cue: the example patterns_zh.APPROVAL gave before is captured
    assert classify("你删掉的日志确实没用，谢谢", lambda: True) is not None


def _unsound(pattern, text: str) -> bool:
    """A match without any of the pattern's triggers: the trigger test would have skipped a real match."""
    return re.search(pattern.source, text) is not None and not any(t in text for t in pattern.triggers)


def test_the_triggers_of_every_pattern_are_in_every_match_of_these_prompts():
    texts = [cleaned(prompt).lower() for prompt in DISSATISFIED + NOT_DISSATISFIED]
    assert [(p.source[:40], t) for p in PATTERNS for t in texts if _unsound(p, t)] == []


#: good news next to an act: a count of zero, or nothing failing, is no failure (found in review, not in the data)
GOOD_NEWS = [
    "You fixed the loader and now mypy shows 0 errors.",
    "You changed the loader, make sure mypy reports 0 errors",
    "You added the cache. Now the tests pass and nothing fails.",
    "You rewrote the retry loop and nothing breaks any more.",
    "你改了配置，现在 0 个报错了",
    "你改了配置，现在没有报错了",
    "你把缓存加上了，现在不报错了",
]


@pytest.mark.parametrize("prompt", GOOD_NEWS)
def test_a_zero_count_or_nothing_failing_is_not_a_failure(prompt):
    assert classify(prompt, lambda: True) is None


@pytest.mark.parametrize("prompt", ["You fixed the loader and now mypy shows 10 errors.",
                                    "You added the cache and now nothing works.", "你改了配置，现在 10 个报错"])
def test_a_count_above_zero_or_nothing_working_still_is(prompt):
    found = classify(prompt, lambda: True)
    assert found is not None and not found.ask
