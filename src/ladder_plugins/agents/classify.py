"""The prompt hook's classifier: is this prompt the user's dissatisfaction with the agent's work, and why?

Deterministic on purpose: it runs on every prompt under a time budget, must give the same
answer for the same words, and its decisions have to be explainable afterwards (the capture
records reason codes, not a score). English and Chinese patterns name one of six reason codes:

``negative_evaluation``
    "that's wrong", "you broke it", "不对", "搞错了"
``explicit_correction``
    "no, use pathlib", "that's not what I asked", "revert that", "不是这个", "我要的是"
``recurrence_complaint``
    "you did it again", "you keep ...", "still failing", "你又", "每次都", "还是不行"
``restating_known``
    being made to repeat what the agent was told: "I already told you", "as I said", "我说过"
``rhetorical_accountability``
    "why did you ...?", "who told you to", "你为什么", "谁让你"
``expected_process_contrast``
    "you should have ...", "you were supposed to", "应该先", "你本来应该"

What is skipped before anything else: an operation turn ("continue", "ok", "go on", "yes",
"thanks", "继续", "好的", "等等" and runs of them, see :func:`is_operation_turn`), an empty
prompt and a slash command. Fenced code, quoted lines (``> ...``) and quoted phrases (``"..."``,
```...```, ``'...'``, ``「...」``) are removed before the patterns run: pasted logs say "error" and
"again" without meaning the agent, and ``Fix the "that's not what I asked" typo`` names a phrase.
Chinese has no word boundaries, so a negation is bounded by the characters around it: 不对 but
not 不对称 (asymmetric) or 对不对, 错了 but not 不错了 (good), 没用 but not 没用的 (unused). A hypothetical
clause ("if the checksum is wrong, retry", "如果密码不对") is left out as well: it describes behaviour to
build, not a verdict on the work ("if you ..." stays: "if you had run the tests"), and so are "suppose",
"assuming", 即使, 一旦, "...的话" and a clause naming which thing is wrong ("the field that was wrong", 哪个字段不对).
A verdict or a recurrence in a sentence that puts the failure elsewhere (a library, upstream, a registry, an
upgrade, a colleague, the user's own mistake: "CI is red because npm is down", "my bad, I broke it") is no
complaint unless the sentence names the agent as the one who acted ("you broke the pandas import").

A *referent* is earlier agent work the words can be about: an assistant turn in the
transcript. Most patterns need one, because the same words are an ordinary request or a
bug report on the first turn ("this test is broken", "why does it fail", "you should add
tests first"). A few stand alone, because the words themselves point at earlier work,
possibly in an earlier session, which is exactly the forgetting the loop exists to catch:

* ``restating_known``: "I (already) told you", "as I said", "how many times do I have to",
  "我说过", "跟你说过", "说了多少次" (but "did you forget ...?" needs a referent);
* ``recurrence_complaint`` when it is addressed to the agent or counts the times: "you did it
  again", "you keep ...", "the same mistake", "for the third time", "你又", "又错了", "每次都忘",
  "第三次了" (but a bare "still failing" or "failed again" needs a referent).

Everything else needs a referent. Where there is a transcript, its last 64 KB are searched
for an assistant turn (:func:`transcript_referent`): without one (the first request of a session,
"我要的是一个 REST 接口") nothing is captured. Where the host gave none (Codex may send ``null``),
the referent is unknown: the capture is written with :attr:`Classification.ask` set, for the
detached reviewer to confirm before the tracker counts it, because a host that cannot show the
conversation should not silence the user, nor turn every first request into a complaint.

The labelled prompts of ``tests/data/prompts.tsv`` (floors in the unit test) and of
``benchmarks/data/prompts.jsonl`` (``python benchmarks/classify.py``) measure what this gets right.
"""

from __future__ import annotations

import bisect
import os
import re
import stat
from dataclasses import dataclass
from typing import Callable, Optional

from ..tracker.keywords import keywords_of, stem

__all__ = [
    "REASONS", "ENGLISH", "CHINESE", "PATTERNS", "Pattern", "TRANSCRIPT_TAIL", "MAX_KEYWORDS", "Classification",
    "is_operation_turn", "skipped", "cleaned", "matches", "classify", "capture_keywords", "transcript_referent",
    "may_be_feedback",
]

#: the reason codes, in the order a capture lists them
REASONS = (
    "negative_evaluation",
    "explicit_correction",
    "recurrence_complaint",
    "restating_known",
    "rhetorical_accountability",
    "expected_process_contrast",
)
#: how much of the end of a transcript is read to find an assistant turn
TRANSCRIPT_TAIL = 64 << 10
#: at most this many keywords go into a capture
MAX_KEYWORDS = 8
#: the part of a long prompt the patterns read: its head and its tail (complaints open or close a message)
_HEAD, _TAIL = 3000, 1000
#: a prompt of megabytes (a pasted log) is cut to this much of its head and tail before anything else
_RAW_HEAD, _RAW_TAIL = 32 << 10, 8 << 10


@dataclass(frozen=True)
class Classification:
    """Why a prompt is dissatisfaction (reason codes, in :data:`REASONS` order) and what it is about."""

    reasons: tuple[str, ...]
    keywords: tuple[str, ...]
    #: not counted until the reviewer confirms it is dissatisfaction (see :func:`classify`)
    ask: bool = False


@dataclass(frozen=True)
class Pattern:
    """One phrase family of a reason code: a regular expression over the lower-cased prompt, looked at only when
    one of its triggers (literal text every match contains) is in the prompt. Compiling all of them costs
    some 20 ms, more than the rest of the hook; a prompt holds the triggers of a few, so only those are
    compiled (by :func:`re.search`, whose cache keeps them for the process)."""

    code: str
    triggers: tuple[str, ...]
    source: str
    #: the words point at earlier work themselves: no referent needed
    standalone: bool = False


def _p(code: str, triggers: str, source: str, standalone: bool = False) -> Pattern:
    return Pattern(code, tuple(triggers.split("|")), source, standalone)


def _words(code: str, words: str, standalone: bool = False) -> Pattern:
    """A family of literal phrases: each its own trigger."""
    return Pattern(code, tuple(words.split()), "|".join(map(re.escape, words.split())), standalone)


_NEG, _COR, _REC, _RES, _RHE, _EXP = REASONS
#: "you <past or -ing verb> ... again" but not a request ("can you run it again", "thank you again")
_YOU_AGAIN = (r"(?<!can )(?<!could )(?<!would )(?<!will )(?<!please )(?<!thank )\byou(?:'ve| have|'re| are)?\s+"
              r"(?:\w+ed|did|made|broke|broken|forgot|forgotten|wrote|written|put|left|lost|took|ran|doing|"
              r"messed|screwed)\b[^.?!\n]{0,40}?\bagain\b")
_BAD = r"(?:wrong|broken|fail\w*|error\w*|crash\w*|missing|ignored?|forgot\w*)"
_SUBJECT = r"\b(?:that|this|it|everything|your (?:\w+ )?(?:code|fix|change|patch|answer|version|solution))(?: \w+)?"
_VERDICT = ("wrong|incorrect|broken|terrible|awful|horrible|useless|garbage|nonsense|sloppy|a mess|worse|"
            "overengineered|over-engineered|overcomplicated|over-complicated|overkill|convoluted|bloated")

#: English patterns, by reason code
ENGLISH = (
    _p(_NEG, _VERDICT + "|not right|not correct|not working",
       _SUBJECT + r"(?:'s| is| was| looks| seems)\s+(?:\w+\s+)?(?:" + _VERDICT
       + r"|not (?:right|correct|working))\b"),
    _p(_NEG, "n't|not", _SUBJECT + r"\s+(?:still\s+)?(?:doesn't|does not|didn't|did not|won't|isn't|is not)\s+"
       r"(?:even\s+)?(?:work|working|compile|run|fix (?:it|anything|the)|address|solve|help|change anything)\b"),
    _p(_NEG, " now", r"\b(?:is|are)\s+(?:\w+\s+)?(?:broken|red|failing|down|gone|missing) now\b|\bnow (?:nothing|none "
       r"of (?:it|them)|everything|the (?:build|tests?|app|ci)) (?:\w+ )?(?:compiles|works|runs|passes|builds|fails|"
       r"is (?:broken|red|failing))\b"),
    # praise next to a breakage is sarcasm ("The build is broken now, nice job.")
    _p(_NEG, "job|work|going|well done|brilliant|bravo|thanks|way to go|genius|great|good|wonderful|perfect|lovely|"
       "awesome|fantastic|wow",
       r"^(?=.*\b(?:(?:nice|great|good|fantastic|excellent|amazing) (?:job|work|going)|well done|brilliant|bravo|"
       r"thanks a lot|thanks for nothing|way to go|genius|(?:great|good|wonderful|perfect|lovely|awesome|fantastic),? "
       r"now|wow)\b)"
       r"(?=.*\b(?:broken|broke|nothing (?:\w+ )?(?:works|compiles|runs|resolves|loads|passes|builds)|none of "
       r"(?:the|them|it|my)|no longer|stopped working|(?:doesn't|won't) (?:work|compile|run|build|load|start)|"
       r"(?:is|are) red|worse|removed all|deleted all|fails?|failing|crash\w*|gone)\b)"),
    _p(_NEG, "made up|invented|fabricated|hallucinated",
       r"\byou (?:just )?(?:made up|invented|fabricated|hallucinated)\b"),
    _p(_NEG, "the whole|the entire|all ", r"\byou (?:just )?(?:rewrote|rewritten|replaced|reformatted|deleted|removed|"
       r"changed|touched) (?:the whole|the entire|all (?:the|of|my)|every)\b"),
    _p(_NEG, "you deleted|you removed|you dropped|you lost|go", r"\byou (?:deleted|removed|dropped|lost|erased) "
       r"(?:them|all|my)\b|\bwhere (?:did|have) (?:my|the|all (?:the|my)) \w+(?: \w+)? go(?:ne)?\b"),
    _p(_NEG, "circles", r"\b(?:going|running|walking) (?:around )?in circles\b"),
    _p(_NEG, "your", r"\b(?:dropped|broke|fails?|failing|regressed|slower|crash\w*|stopped working)\b[^.?!\n]{0,40}"
       r"\b(?:after|since) your (?:last )?(?:change|patch|fix|commit|edit|refactor\w*)\b|\bregression is yours\b|"
       r"\byour (?:last )?(?:change|patch|fix|commit|edit) (?:broke|caused|introduced)\b"),
    _p(_NEG, "wrong|mistaken|not listening|making",
       r"\byou(?:'re| are| were)\s+(?:\w+\s+)?(?:wrong|mistaken|not listening|making (?:it|this|things) "
       r"(?:up|worse))\b"),
    _p(_NEG, "over|making", r"\byou(?:'re| are) (?:\w+ )?(?:over\w+ing|making (?:this|it) (?:complicated|harder))\b"),
    _p(_NEG, "broke|messed up|screwed up|ruined|botched|mangled|butchered|hallucinated|made|wiped|nuked|clobbered|"
       "trashed|corrupted|wrecked|destroyed",
       r"\byou(?:'ve| have)?\s+(?:just\s+|completely\s+|totally\s+)?(?:broke|broken|messed up|screwed up|ruined|"
       r"botched|mangled|butchered|hallucinated|made (?:it|this|things) worse|made (?:that|this|it) up|wiped|nuked|"
       r"clobbered|trashed|corrupted|wrecked|destroyed)\b"),
    # a failure since the agent's change: "since you touched the cache, half the tests fail"
    _p(_NEG, "after you|since you", r"\b(?:after|since) you (?:\w+ed|made|ran|wrote|did|broke)\b[^.?!\n]{0,60}"
       r"\b(?:fails?|failing|broke|broken|crash\w*|stopped|errors?|red|no longer|doesn't|won't|can't|nothing)\b"),
    _p(_NEG, "ignored|overlooked|skipped|missed|forgot|dropped|overwrote|coded|misread|misunderstood|misinterpreted",
       r"\byou (?:just )?(?:ignored|overlooked|skipped|missed|forgot|dropped|overwrote|hard-?coded|misread|"
       r"misunderstood|misinterpreted)\b"),
    _p(_NEG, "broke|ruined|wrecked|destroyed",
       r"\b(?:that|this|it|your \w+) (?:just )?(?:broke|ruined|wrecked|destroyed)\b"),
    _p(_NEG, "introduced|caused|created",
       r"\b(?:your (?:\w+ )?(?:change|fix|patch|commit|edit|refactor\w*)|you) (?:introduced|caused|created) "
       r"(?:a |an |the )?(?:regression|bug|error|failure|problem)"),
    _p(_NEG, "nothing", r"\b(?:fix|change|patch|edit|attempt|commit|that|this|it|which) (?:fixes|fixed|changes|changed|"
       r"solves|solved|does|did|helps|helped) (?:absolutely |literally )?nothing\b"),
    # harm done in an earlier session points at earlier work by itself (no referent in this one)
    _p(_NEG, "last|yesterday|earlier|before", r"\b(?:last (?:session|time|week|night)|yesterday|earlier today|the "
       r"other day|before),? you (?:just )?(?:(?:\w+ed|wrote|made|gave|did|ran)\b[^.?!\n]{0,60}?\b)?(?:wiped|broke|"
       r"broken|deleted|removed|overwrote|overwritten|lost|messed|ruined|clobbered|corrupted|destroyed|careful|"
       r"again)\b",
       standalone=True),
    _p(_NEG, "hack|kludge|band", r"\b(?:that|this|it)(?:'s| is) (?:a |an )?(?:\w+ )?(?:hack|kludge|band-?aid)\b"),
    _p(_NEG, "sense|wtf|ffs|ugh|for once", r"\b(?:makes no sense|doesn't make (?:any )?sense|wtf|ffs|ugh+|for once)\b"),
    _p(_NEG, "wrong ", r"\bwrong (?:again|file|function|place|approach|answer|fix|branch|directory|way)\b"),
    _p(_NEG, "seriously|come on", r"^\s*(?:seriously|come on)\b"),
    _p(_COR, "no|nah", r"^\s*(?:no|nope|nah)(?:[\s,.!]+(?:no|nope))*\s*[,.!;:\u2014]+\s*\S"),
    _p(_COR, "what i", r"\b(?:not|isn't|wasn't|opposite of) what i (?:asked|wanted|meant|said|need|had in mind|was "
       r"(?:asking|going|looking) for|expected|requested|told you)\b"),
    _p(_COR, "that's not|that is not", r"\bthat(?:'s| is) not (?:right|correct|true|it|how)\b"),
    _p(_COR, "i meant|i said|i wanted|i asked for|i needed",
       r"\bi (?:meant|said|wanted|asked for|needed) [^.?!\n]{1,60}\bnot\b(?! (?:sure|yet|only)\b)"),
    _p(_COR, "stop|quit", r"\b(?:stop|quit)\s+(?:\w+\s+)?(?:doing|using|adding|changing|touching|deleting|removing|"
       r"rewriting|creating|making|putting|writing|ignoring|guessing|assuming|inventing|hallucinating|pretending|"
       r"apologi[sz]ing|repeating|overthinking|overengineering|second-guessing|breaking|skipping)\b"),
    _p(_COR, "guessing", r"\b(?:before|instead of|no more|keep|keeps) guessing\b"),
    _p(_COR, "i asked", r"\bi asked (?:you )?(?:for|to)\b"),
    _p(_COR, "again", r"\b(?:don't|never) (?:ever )?do (?:that|this) again\b"),
    # an imperative correction: the verb's object is the agent's work, not a feature ("an undo button") or a
    # question about a tool ("how do I undo this in git")
    _p(_COR, "revert|undo|roll back|rollback|back out|restore",
       r"(?<!how to )(?<!how do i )(?<!how can i )(?<!how do you )\b(?:revert|undo|roll ?back|back out)\s+(?:that|"
       r"this|it|those|these|them|all|everything|what you|your|the (?:last|previous|latest|recent)\b|the (?:change|"
       r"edit|commit|refactor|rename|modification)s?\b)|\brestore (?:what you (?:deleted|removed|changed)|the (?:old|"
       r"original|previous) (?:version|code|behaviou?r))\b"),
    _p(_COR, " back|the way|how it|how they|as it|as they",
       r"\b(?:put|change|set) (?:it|that|them) back\b|\b(?:leave|put|make|keep|set|change) (?:it|that|them|this|"
       r"everything) (?:back )?(?:the way|how|as) (?:it|they) (?:was|were|used to be)\b|\b(?:change|put|set|switch|"
       r"turn|go) (?:it |that |them |this )?back to (?:the )?(?:old|original|previous|earlier|way)\b"),
    _p(_COR, "actually", r"^\s*actually,? (?:no|that's|it's|you|i (?:meant|said|want))\b"),
    _p(_COR, "i didn't|i did not|i never",
       r"\bi (?:didn't|did not|never) (?:ask|asked|tell|told|want|wanted|say|said) (?:you )?(?:to|for)\b"),
    _p(_COR, "the wrong|i didn't", r"\byou (?:changed|deleted|removed|added|modified|touched|edited|renamed) "
       r"(?:the wrong|something i didn't|files? i didn't)"),
    _p(_REC, "again", _YOU_AGAIN + r"|\bagain,? you\b", standalone=True),
    _p(_REC, "you keep", r"\byou keep (?:on )?\w+ing\b", standalone=True),
    _p(_REC, "same ", r"\bsame (?:mistake|error|bug|problem|issue|thing) (?:again|as before|every time)\b|"
       r"\bsame mistake\b", standalone=True),
    _p(_REC, " time", r"\b(?:for|this is|that's|it's|that is|it is) the (?:second|third|fourth|fifth|nth|umpteenth|"
       r"hundredth|\d+(?:st|nd|rd|th)) time\b", standalone=True),
    _p(_REC, "same ", r"\bsame (?:bug|error|problem|issue) (?:we|you|i) (?:already |just )?(?:fixed|had|saw|solved)\b|"
       r"\bsame (?:mistake|error|bug|problem|issue|failure|crash|traceback) as (?:yesterday|last time|earlier|this "
       r"morning|last week|the last (?:one|time))\b"),
    _p(_REC, "again with", r"^\s*again with\b|\bagain with (?:the|this|these|those|your)\b"),
    _p(_REC, "still", r"\bstill\s+(?:not|doesn't|does not|isn't|is not|won't|can't|fails?|failing|broken|wrong|"
       r"the same|happening|getting|seeing|crash\w*|error\w*|red|there)\b"),
    _p(_REC, "again", r"\b(?:fail(?:s|ed)|broke|crash(?:es|ed)|(?:is|are|was|were) (?:\w+ )?(?:wrong|broken|failing|"
       r"missing|crashing)|went wrong)\b[^.?!\n]{0,20}\bagain\b|\bagain\b[^.?!\n]{0,10}\b(?:wrong|broken|failing|"
       r"failed)\b|\b(?:yet|once) again\b|\bnot again\b|\bhere we go again\b"),
    _p(_REC, "every", r"\bevery (?:single )?time\b[^.?!\n]{0,40}\b" + _BAD + r"\b"),
    _p(_RES, "i already|i just|i literally|i clearly|i explicitly|i specifically|i said",
       r"\bi (?:already|just|literally|clearly|explicitly|specifically)\s+(?:told|said|asked|mentioned|explained|"
       r"gave|wrote|showed|pointed out|specified|stated)\b|\bi said (?:no|not|never|don't|do not)\b", standalone=True),
    _p(_RES, "i've|i have", r"\bi(?:'ve| have) (?:already |just )?(?:told|said|explained|mentioned)\b",
       standalone=True),
    _p(_RES, "i told you|i asked you|as i |i said|did i not|didn't i",
       r"\bi (?:told|asked) you\b|\bas i (?:said|mentioned|explained|wrote|stated|told you)\b|\bi said (?:this|that|"
       r"it) (?:before|earlier|already|twice)\b|\b(?:did i not|didn't i) (?:say|tell you|ask)\b", standalone=True),
    _p(_RES, "how many", r"\bhow many (?:more )?times (?:do|must|should|have|did|will) i\b", standalone=True),
    _p(_RES, "discussed|covered|went over|talked about|remember",
       r"\b(?:i|we) (?:already )?(?:discussed|covered|went over|talked about) (?:this|that)\b|"
       r"\bdon't you remember\b", standalone=True),
    _p(_RES, "forget|forgotten|not read|not see", r"\b(?:did|have) you (?:already )?(?:forget|forgotten|not read|"
       r"not see)\b"),
    _p(_RES, " up| above|message", r"\b(?:see|read|scroll) (?:up|above|my (?:previous|last|earlier) message)\b"),
    _p(_RHE, "why|how come", r"\b(?:why(?:'d| (?:on earth |the hell |the heck |exactly )?(?:did|would|didn't|did not|"
       r"are|were|have|haven't|won't|wouldn't|do|don't|can't|couldn't))|how come) you\b(?!\s+(?:think|recommend|"
       r"suggest|prefer|like|say so))"),
    # a question about what changed: "why is there a sleep in the test now?"
    _p(_RHE, "why", r"\bwhy (?:is|are|does|do|did) (?:there|it|this|that|everything|the \w+|my \w+)\b[^.?!\n]{0,40}"
       r"\b(?:now|suddenly|all of a sudden|everywhere)\b"),
    _p(_RHE, "did you even|still", r"\bdid you even\b|\bwhy (?:is|are|does|do) (?:there|it|this|that|they) still\b"),
    _p(_RHE, "you to|you could|you thinking",
       r"\b(?:who|what) (?:told|asked|allowed) you to\b|\bwho said you could\b|\bwhat were you thinking\b"),
    _p(_RHE, "how", r"\bhow (?:could|did|can) you (?:possibly |even |still |just )?(?:miss|forget|break|not|delete|"
       r"remove|ignore|overlook|skip)\b|\bhow is (?:this|that|it) (?:still )?(?:unknown|not known|new to you|"
       r"not fixed)"),
    _p(_EXP, "should|could|ought", r"\byou (?:should|could|ought to)(?:'ve| have| of)\b|\byou (?:shouldn't|should not)"
       r"(?:'ve| have)\b"),
    _p(_EXP, "supposed|meant|told|asked|i expected",
       r"\byou (?:were|was) (?:supposed|meant|told|asked) (?:not )?to\b|\bi expected (?:you|it|this) to\b"),
    _p(_EXP, "first", r"\b(?:didn't|did not) you (?:\w+ ){0,3}first\b"),
    _p(_EXP, "without", r"\byou\b[^.?!\n]{0,60}\bwithout (?:asking|telling me|checking|testing|running|reading|"
       r"looking)\b"),
    _p(_EXP, "you didn't|you did not|you never", r"\byou (?:didn't|did not|never) (?:even )?(?:run|test|check|read|"
       r"look at|ask|verify|try|compile|execute|open)\b"),
    _p(_EXP, "instead|the right|the correct|the proper", r"\binstead,? you\b|\bthe (?:right|correct|proper) "
       r"(?:way|approach|fix) (?:is|was|would (?:be|have been)) to\b"),
)

#: Chinese patterns, by reason code (no word boundaries in Chinese: lookarounds keep "对不对"/"行不行" out)
CHINESE = (
    # a negation is bounded by the characters around it: 不对称 (asymmetric), 不对外 (not public), 对不对 and
    # 是不是不对 (questions), 不错 (good), 没用的 (unused), 垃圾回收 (garbage collection), 改错别字 (fix typos)
    _p(_NEG, "不对|不行", r"(?<!对)(?<!是不是)不对(?![称应齐外接准付照比吗呢])|(?<!行)不行(?!不行|业)"),
    _words(_NEG, "不合理 搞错 弄错 写错 做错 理解错 太差 很差 胡说 瞎改 乱改 乱写 瞎写 一团糟 糟糕 莫名其妙 离谱 敷衍 偷懒 "
           "你把我的 你干的好事 \U0001f44e"),
    _p(_NEG, "错了|改错|垃圾", r"(?<![不没报])错了|改错(?!别字|字)|垃圾(?!回收|桶|邮件|短信|分类|清理|收集)"),
    _p(_NEG, "坏|砸|挂|崩|没用|不是我", r"(?:改|弄|搞|写)(?:坏|砸|挂|崩)|没用(?=[了啊呀吧。！!？?，,\s]|$)|不是我(?:要|想要)的"),
    _p(_NEG, "都|全|你的", r"(?:都|全)(?:删|删掉|改|弄乱|搞乱)了|你的(?:改动|修改|修复|代码|提交)[^，。！？]{0,10}"
       r"(?:导致|搞|弄|让)"),
    _p(_NEG, "根本|压根|完全", r"(?:根本|压根|完全)就?(?:没(?!必要|关系|问题)|不(?!用|需要|必|要紧|影响|一样|同))"),
    _p(_NEG, "你", r"你(?:写|改|加|给|做|生成)的[^，。！？]{0,15}(?:没有?(?!问题|毛病)|不(?!错)|错|有问题|跑不|过不|挂了|崩了)|"
       r"你(?:瞎)?编(?:了|造)|你[^，。！？]{0,4}(?:重写|改写|重构)了?(?:整个|全部|所有)|"
       r"(?:你|改动|修改|这样改|这么改)[^，。！？]{0,10}(?:破坏|搞乱|弄乱)了"),
    # a failure after the agent's change: 你改了路由之后首页就打不开了
    _p(_NEG, "你", r"你的?(?:改|修改|改动|提交|重构|动|弄|加|删|换)(?:完|了|过)?[^，。！？]{0,8}(?:之后|以后|后)[^。！？]{0,16}"
       r"(?:挂了|坏了|崩了|报错|出错|失败|红了|跑不|打不开|不能用|用不了|不工作|不行了|没法用)"),
    # sarcasm next to a breakage: 真棒，整个页面都崩了
    _p(_NEG, "真棒|真行|真厉害|厉害了|好家伙|干得好|干得漂亮|可以啊|牛啊|谢谢你啊|太好了",
       r"^(?=.*(?:真棒|真行|真厉害|厉害了|好家伙|干得好|干得漂亮|可以啊|牛啊|谢谢你啊|太好了))"
       r"(?=.*(?:挂了|坏了|崩了|报错|失败|删了|没了|红了|跑不|不能用|打不开))"),
    # a verdict of over-complication on the agent's work (not on a library: 这个库太复杂了)
    _p(_NEG, "太复杂|过度设计|太啰嗦|太冗长|太绕|画蛇添足|多此一举",
       r"(?:这个|这样|你的|你这个?)(?:实现|写法|方案|改法|代码|设计|版本|改动|函数)?(?:也|就|还|真|实在|有点|有些)?"
       r"(?:太复杂|过度设计|太啰嗦|太冗长|太绕|画蛇添足|多此一举)"),
    _p(_NEG, "上次|昨天|之前|上回|那次", r"(?:上次|昨天|之前|上回|那次)你[^。！？]{0,20}(?:覆盖|删|弄坏|搞坏|改坏|搞砸|弄砸|弄丢|搞丢|"
       r"弄乱|搞乱|弄挂|搞挂|清空)", standalone=True),
    _p(_NEG, "被你", r"被你(?:改|删|弄|搞|写)(?:坏|乱|错|丢|没|掉|光)"),
    _p(_NEG, "都没|解决|真正的", r"(?:跑|测|试|看)都没(?:跑|测|试|看)|没(?:有)?解决(?:问题|任何)|不是真正的(?:修复|解决)"),
    _p(_COR, "不是|的是|我没|让你", r"(?<!是)不是(?:这个|这样|那个|那样|我要的|我说的)|我(?:明明|刚才|之前|本来)?(?:要|说|想要|指)的是|"
       r"我(?:没|没有)(?:让|叫|要求)你|不是让你|我(?:只|就|是)(?:让|叫)你"),
    _p(_COR, "再|回", r"(?:不要|别)再|(?:改|换)回(?:去|来)"),
    _p(_COR, "原来|原样|原先|之前的|以前的", r"(?:恢复|还原|退回|回退|改)(?:成|到|回)(?:原来|原样|原先|之前的|以前的)"),
    # blame in a prohibition (别乱删, 不许瞎改, 你擅自), not a rule for later (顺序不能乱)
    _p(_COR, "别|不要|不许|不准|擅自", r"(?:别|不要|不许|不准)再?(?:乱|瞎|擅自|自作主张)(?:改|动|删|加|写|猜|搞|弄|碰|来|用|提交)|"
       r"你[^，。！？]{0,3}擅自"),
    _p(_COR, "误解|曲解|理解反|听错|看错|反了", r"你[^，。！？]{0,2}(?:误解|曲解|理解反|听错|看错)|(?:搞|弄|写|改)反了"),
    _p(_COR, "撤销|撤回|回滚|还原", r"(?:撤销|撤回|回滚|还原)(?:掉|一下)?(?:你|刚才|刚刚|上一次|上次|这次|这些|那些|上一步)|"
       r"(?:撤销|撤回|回滚|还原)(?:掉|一下)?(?:这个|那个|所有)[^，。！？]{0,6}(?:修改|改动|更改|提交)|^(?:撤销|回滚|还原)(?:吧|掉|一下)?[。！!]?$"),
    _p(_REC, "你|又|每次|次了|次|遍|让你|叫你", r"你(?:又|总是|老是|每次都)|你还是(?:没|不|错|忘|在|这样|老样子)|"
       r"又(?:错|忘|犯|搞错|弄错|改错|写错|来了)|又是(?:这个|同样的|一样的|同一个)|"
       r"每次(?:都|你都)(?:错|忘|这样|不|没|要我|让我|得我)|第[二三四五六七八九十几\d]{1,3}次了|"
       r"(?:说|讲|提醒|告诉你)(?:了|过)(?:好|很)?(?:多少|几|多)(?:次|遍)|"
       r"(?:昨天|上次|之前|刚才|早)就?(?:让|叫|要)你", standalone=True),
    _p(_REC, "又|还|仍然|依然|依旧|老是|总是", r"又(?:失败|报错|出错|挂了|崩了|红了|坏了|不行|没)|还是(?:不行|不对|没(?:有)?(?:变|用|好|"
       r"解决|修)|错|报错|一样|失败|有问题|老样子)|(?:仍然|依然|依旧)(?:不|没|错|报错|失败|有问题)|(?:老是|总是)(?:错|忘|不|没|报错|失败)|"
       r"还是(?:报|出)[^，。！？]{0,5}错|还(?:在|是)?(?:挂着|报错|红着|崩|失败)"),
    _p(_RES, "我|过|你说|你讲|不是说", r"我(?:已经|刚才|刚刚|之前|早就|明明|不是|都)(?:已经)?(?:说|讲|告诉你|强调)"
       r"(?:过|了)|我(?:说|讲|告诉你|提|强调)过|(?:跟|和)你(?:说|讲)(?:过|了)|告诉过你|不是说(?:了|过|好)",
       standalone=True),
    _p(_RES, "上面|前面|之前|忘", r"(?:上面|前面|之前)(?:已经)?(?:说|写|提|讲)(?:过|了)|你(?:忘了|忘记了)"),
    _p(_RHE, "为|是不是|怎么|咋|干|到底|究竟", r"你为(?:什么|啥)(?!认为|觉得|推荐|建议|选择|这么说)|为(?:什么|啥)你(?!认为|觉得|推荐|建议)|"
       r"你是不是(?:没|不|又|忘)|你(?:怎么|咋)(?:又|会|能|还|就|敢|老是|总是)|怎么(?:又|还是|还(?:在|是|没|不))|"
       r"为什么(?:又|还)(?:删|改|动|加|把|用)|为什么要(?:删|改|动)|(?:到底|究竟)(?:改|动|做|干|删|弄|加)了(?:些)?(?:什么|啥)|"
       r"你(?:加|改|删|动|写|弄)[^，。！？]{0,4}(?:干什么|干嘛|做什么)"),
    _p(_RHE, "谁|凭什么|干嘛", r"谁(?:让|叫|允许)你|凭什么|你干嘛"),
    _p(_EXP, "应该|该|不先|你却|没|一上来", r"应该先|你(?:本来|本)?应该|本来应该|早(?:就)?(?:应该|该)|不应该(?:先)?(?:把|去|改|删|"
       r"动|直接)|为什么不先|你却|你(?:根本|压根|都|也)?(?:没|没有)(?:看|读|跑|测|运行|检查|验证)|(?:别|不要)一上来就"),
)
#: every pattern, English first
PATTERNS = ENGLISH + CHINESE

#: operation turns: words that move the conversation on and say nothing about the work ("thank you", "go on",
#: "all right" are made of them); a prompt made of these alone is skipped
_OPERATION_WORDS = frozenset("""
continue go on ahead keep going carry proceed next ok okay k kk yes yep yeah yup y sure fine alright all right cool
great nice good perfect thanks thank you thx ty lgtm done got it sounds wait hold one moment please pls then and now
do lets
""".split())
#: the same in Chinese, longest first (they are taken out of a run without spaces: "好的继续吧")
_OPERATION_CHINESE = tuple(sorted("""
继续 好的 好 好吧 好呀 行 可以 嗯 嗯嗯 对 是 是的 没问题 谢谢 多谢 收到 明白 了解 下一步 开始 等等 稍等 等一下 然后 接着 请 吧 啊 呀 哈
""".split(), key=len, reverse=True))
#: an operation turn is short; anything longer is looked at
_OPERATION_MAX = 80
#: the patterns below are compiled on first use (by ``re``'s cache), only for prompts that hold their marker
_SLASH_COMMAND = r"\s*/[A-Za-z][\w:.-]*(?:\s|$)"
_FENCE = r"(?sm)^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)"
_QUOTED = r"(?m)^[ \t]*>.*$"
#: a pasted log line, from its timestamp or its leading level to the end of the line ("2024-05-01 12:00 ERROR job
#: failed again", "ERROR: tests still failing"): the program speaking, not the user
_LOG_LINE = (r"(?im)(?:\[?\b\d{4}-\d\d-\d\d[t ]\d\d:\d\d|^[ \t]*(?:error|warn(?:ing)?|fatal|critical|traceback|"
             r"exception|panic)\b\s*[:\]|(]|(?:日志|报错|错误信息|输出)[:：]\s*(?=\[?\d{4}-|(?:error|warn|fatal)\b)).*$")
#: a phrase in quotes is named, not said: double quotes (straight and curly, already made straight), backticks,
#: CJK corner brackets, and single quotes where they are not apostrophes (an opening one follows no letter, a
#: closing one is followed by none, one inside is followed by a letter: 'that's not what I asked')
_PHRASE = (r'"[^"\n]{0,300}"|`[^`\n]{0,300}`|\u300c[^\u300d\n]{0,300}\u300d|\u300e[^\u300f\n]{0,300}\u300f|'
           r"(?<![\w'])'(?=\S)(?:[^'\n]|'(?=\w)){0,300}?(?<=\S)'(?!\w)")
#: a hypothetical clause, up to its punctuation; "if you ..." is left in ("if you had run the tests ...")
_HYPOTHETICAL = (r"\b(?:if|unless|in case|suppose|supposing|assuming|imagine|in the event|whether)\b(?! you\b)"
                 r"[^,.;:?!\n]{0,80}|"
                 r"(?:如果|假如|假设|假使|万一|若是|倘若|一旦|即使|即便|就算|哪怕|(?<![主只需总])要是)[^，。；：？！,.;:?!\n]{0,40}|"
                 r"[^，。；：？！,.;:?!\n]{0,40}的话"
                 # a relative or interrogative clause names which thing is wrong, it is no verdict: "the field that
                 # was wrong", "which line is broken", "哪个字段不对"
                 r"|(?:是不是|会不会|是否|可能是)[^，。；：？！,.;:?!\n]{0,20}(?:导致|引起|造成|的原因)"
                 r"|\b(?:the|a|an|any|each|every|which|whichever|what) \w+ (?:that |which )?(?:is|was|are|were) "
                 r"(?:\w+ )?(?:wrong|broken|missing|incorrect|invalid|failing)\b|(?:哪个|哪些|哪里|哪儿|哪一\w|什么地方)"
                 r"[^，。；：？！,.;:?!\n]{0,10}")
_HYPOTHETICAL_MARKS = ("if ", "unless", "in case", "suppos", "assuming", "imagine", "in the event", "whether", "如果",
                       "假如", "假设", "假使", "万一", "若是", "倘若", "一旦", "即使", "即便", "就算", "哪怕", "要是", "的话",
                       " that ", " which ", "which ", "what ", "哪", "什么地方", "导致", "引起", "造成", "的原因")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
#: words of the complaint itself, not of its topic: kept out of a capture's keywords
_COMPLAINT_WORDS = frozenset(stem(w) for w in """
wrong again still told tell already said say asked ask why broke broken mess messed stop revert undo instead
first supposed expected expect meant mean want wanted time times every keep same mistake thinking forgot forget
forgotten remember sense terrible useless garbage nonsense incorrect work working ugh wtf ffs actually literally
clearly seriously listen listening read third fourth fifth nth umpteenth yet right correct awful horrible sloppy
worse ruined botched thought guess that thats what whats its there here ok okay yes no please thanks
overengineered overcomplicated overkill convoluted bloated wiped nuked clobbered trashed corrupted wrecked destroyed
""".split()) | frozenset("""
改错 搞错 弄错 写错 做错 全删 删光 删掉 好事 好家 家伙 老样 样子 绕圈 圈子 瞎猜 瞎改 乱改 乱写 瞎写 改坏 弄坏 搞坏 第二 第三 第四
第五 二次 三次 四次 五次 多次 一点 忘记 忘了 改完 上来 离谱 糟糕 垃圾 敷衍 偷懒 胡说 一团 团糟 莫名 名其 其妙 撤销 回滚 还原 干什
撤回 误解 曲解 擅自 原来 原样 到底 究竟 太绕 复杂 真棒 真行
""".split())
#: an assistant turn in Claude Code (``"type": "assistant"``), Codex (``"role": "assistant"``,
#: ``"agent_message"``) and Gemini CLI (``"type": "gemini"``) transcripts; a user's words are JSON-escaped
#: inside strings (``\\"role\\"``), so they cannot look like this
_ASSISTANT = rb'"(?:type|role)"\s*:\s*"(?:assistant|gemini|model|agent_message)"'


def _normal(prompt: str) -> str:
    return " ".join(prompt.translate(_QUOTES).split())


def is_operation_turn(prompt: str) -> bool:
    """Whether the prompt only moves the conversation on ("ok", "continue", "好的，继续", "yes please go on"):
    such turns are skipped before anything else, classifier plugins included."""
    if len(prompt) > _OPERATION_MAX or "\U0001f44e" in prompt:  # a thumbs-down is not moving on
        return False
    plain = prompt.lower().replace("'", "").replace("\u2019", "")
    words = "".join(ch if ch.isalnum() else " " for ch in plain).split()
    return all(word in _OPERATION_WORDS or _operation_chinese(word) for word in words)


def _operation_chinese(word: str) -> bool:
    for phrase in _OPERATION_CHINESE:
        word = word.replace(phrase, "")
    return not word


def cleaned(prompt: str) -> str:
    """What the patterns read: fenced code and quoted lines removed (pasted text is not the user speaking),
    quotes made straight, whitespace folded, a long prompt cut to its head and tail."""
    if len(prompt) > _RAW_HEAD + _RAW_TAIL:
        prompt = prompt[:_RAW_HEAD] + "\n" + prompt[-_RAW_TAIL:]
    if "```" in prompt or "~~~" in prompt:
        prompt = re.sub(_FENCE, "", prompt)
    if ">" in prompt:
        prompt = re.sub(_QUOTED, "", prompt)
    if ":" in prompt or "\uff1a" in prompt:  # every log line of _LOG_LINE holds a colon
        prompt = re.sub(_LOG_LINE, " \u2026 ", prompt)
    prompt = prompt.translate(_QUOTES)
    if any(mark in prompt for mark in "\"`'\u300c\u300e"):
        prompt = re.sub(_PHRASE, " \u2026 ", prompt)
    text = _normal(prompt)
    return text if len(text) <= _HEAD + _TAIL else text[:_HEAD] + " \n " + text[-_TAIL:]


def matches(text: str) -> tuple[tuple[str, ...], bool]:
    """The reason codes whose patterns ``text`` matches (in :data:`REASONS` order), and whether one of the
    matching patterns stands alone (needs no referent). A hypothetical clause ("if the input is wrong",
    "如果密码不对") describes behaviour to build, not a verdict on the work: it is left out."""
    low = _without_hypotheticals(text.lower())
    found = _about_the_agent([p for p in PATTERNS if any(t in low for t in p.triggers) and re.search(p.source, low)],
                             low)
    codes = {pattern.code for pattern in found}
    return tuple(code for code in REASONS if code in codes), any(pattern.standalone for pattern in found)


#: a failure put on someone other than the agent: a third party or the environment (a library, upstream, a
#: registry, a named dependency, an upgrade, someone else), or the user (self-blame); the sentence of such a
#: failure is no complaint unless it also names the agent as the one who acted
_ELSEWHERE = (r"\b(?:librar(?:y|ies)|dependenc(?:y|ies)|vendor'?s?|upstream|third[- ]party|sdk|maintainers?|"
              r"npm|pypi|pip|yarn|pnpm|maven|gradle|conda|homebrew|docker ?hub|github|gitlab|bitbucket|travis|"
              r"circleci|jenkins|aws|azure|gcp|"
              r"heroku|vercel|netlify|cloudflare|stack ?overflow|(?:the|our|my) (?:network|proxy|vpn|registry|mirror|"
              r"runner|provider|isp|cdn|data ?cent(?:er|re))|he|she|someone|somebody|colleague|co-?worker|teammate|"
              r"intern|upgrade[ds]?|upgrading|new (?:version|release)|latest (?:version|release)|pandas|numpy|scipy|"
              r"django|flask|fastapi|react|vue|angular|webpack|vite|babel|node\.?js|openssl|xcode|chrome|safari|"
              r"firefox|kubernetes|k8s|terraform|pytorch|tensorflow)\b|'s (?:api|sdk|service|servers?|pr|branch)\b|"
              r"(?<!数据)库(?!存)|第三方|上游|官方|厂商|供应商|依赖|新版|升级|机房|断电|停电|网络|代理服务器|"
              r"镜像|运维|同事|(?<![其吉])他|她|别人|人家|"
              r"\bmy (?:bad|mistake|fault|typo)\b|\bi (?:was wrong|made a (?:mistake|typo)|goofed)\b|"
              r"\bi(?:'ve| have)? (?:accidentally |just |probably )?(?:broke|deleted|removed|overwrote|wiped|"
              r"force-pushed|pushed|reverted|dropped|misspelled|mistyped|forgot|messed up|screwed up|gave you the "
              r"wrong|sent you the wrong|pasted the wrong|upgraded|updated|installed)\b|"
              r"\b(?:that's|that was|it's) (?:on me|my fault)\b|"
              r"是我(?:的)?(?:错|问题|不好|疏忽|失误|搞错|弄错|写错|说错|看错|记错)|"
              r"我(?:自己)?(?:不小心|误删|搞错|弄错|写错|说错|打错|记错|看错)|我的(?:错|锅|失误|疏忽)|怪我|"
              r"(?:不好意思|抱歉|对不起)")
#: the agent named as the one who acted (not as the one asked: "can you", "给你", "你帮我")
_AGENT = (r"\byour\b|\byou(?:'ve| have| had)?\s+(?:just\s+|also\s+|then\s+)?(?:\w+ed|broke|made|did|wrote|put|ran|"
          r"gave|left|took|forgot|lost|threw|built|chose|went)\b|\b(?:since|after|did|would|why'd|have|were) you\b|"
          r"(?<![给跟和让叫请])你(?!们|能|可以|帮|来|看|先|再|觉得|认为|知道|好)")
#: where a sentence ends: a full stop followed by a space (not the one of "3.0" or "main.py")
_SENTENCE_END = r"[.!?;](?=\s|$)|[。；！？\n]"


def _about_the_agent(found: list[Pattern], low: str) -> list[Pattern]:
    """The patterns of ``found`` with a match in a sentence that does not put the failure elsewhere (see
    :data:`_ELSEWHERE`) or that names the agent as the one who acted. Only a verdict or a recurrence is judged so
    (a correction or a restating is about what the user asked), and not one that stands alone (addressed to the
    agent by its words)."""
    judged = [p for p in found if p.code in (_NEG, _REC) and not p.standalone]
    if not judged or not re.search(_ELSEWHERE, low):
        return found
    starts, elsewhere = _sentences_elsewhere(low)
    return [p for p in found if p not in judged or _anywhere_else(p, low, starts, elsewhere)]


def _sentences_elsewhere(low: str) -> tuple[list[int], list[bool]]:
    """Where each sentence of ``low`` starts, and whether it puts a failure elsewhere without naming the agent."""
    starts = [0] + [m.end() for m in re.finditer(_SENTENCE_END, low)]
    sentences = [low[begin:end] for begin, end in zip(starts, starts[1:] + [len(low)])]
    return starts, [bool(re.search(_ELSEWHERE, s)) and not re.search(_AGENT, s) for s in sentences]


def _anywhere_else(pattern: Pattern, low: str, starts: list[int], elsewhere: list[bool]) -> bool:
    """Whether one match of ``pattern`` is in a sentence that does not put the failure elsewhere."""
    for hit in re.finditer(pattern.source, low):
        if not elsewhere[bisect.bisect_right(starts, hit.start()) - 1]:
            return True
    return False


def _without_hypotheticals(low: str) -> str:
    if any(mark in low for mark in _HYPOTHETICAL_MARKS):
        return re.sub(_HYPOTHETICAL, " \u2026 ", low)
    return low


def capture_keywords(prompt: str) -> tuple[str, ...]:
    """What the complaint is about, for the tracker's matching: the prompt's keywords (see
    :func:`~ladder_plugins.tracker.keywords.keywords_of`) without the words of the complaint itself, at most
    :data:`MAX_KEYWORDS`, each at most 50 characters (what the journal accepts)."""
    return _keywords(cleaned(prompt))


def _keywords(text: str) -> tuple[str, ...]:
    words = keywords_of(text, limit=None)
    return tuple(w for w in words if w not in _COMPLAINT_WORDS and len(w) <= 50)[:MAX_KEYWORDS]


def skipped(prompt: str) -> bool:
    """Whether the prompt is not looked at: empty, a slash command, or an operation turn."""
    if prompt.lstrip().startswith("/") and re.match(_SLASH_COMMAND, prompt):
        return True
    return not prompt.strip() or is_operation_turn(prompt)


def classify(prompt: str, referent: Callable[[], Optional[bool]] = lambda: None) -> Optional[Classification]:
    """The prompt's :class:`Classification`, or ``None`` when it is not dissatisfaction (or is skipped).

    ``referent`` is asked only when every matching pattern needs a referent: ``True`` (earlier agent work
    exists), ``False`` (a transcript without any: the first turn, not captured) or ``None`` (unknown: captured
    with :attr:`Classification.ask` set, for the reviewer to confirm before it counts)."""
    if skipped(prompt):
        return None
    text = cleaned(prompt)
    reasons, standalone = matches(text)
    known = True if standalone or not reasons else referent()
    if not reasons or known is False:
        return None
    return Classification(reasons, _keywords(text), ask=known is None)


#: what makes a prompt the patterns miss worth the reviewer's question: it speaks of the agent or of what the
#: user asked, and it holds a negation, a contrast or a failure; compiled on first use
_ADDRESS = (r"\byou(?:r|'re|'ve|'d)?\b|\bi (?:asked|said|told|wanted|meant|needed|expected)\b|"
            r"你|我(?:让|要|说|叫|问|只)")
_CUE = (r"\b(?:not|no|never|nothing|wrong|broke|broken|fail\w*|error\w*|bug\w*|again|still|instead|without|why|worse|"
        r"mess\w*|missing|lost|deleted|removed|revert\w*|undo|supposed|should|even|ignor\w*)\b|n't\b|"
        r"[不没别错又坏挂删]|为什么|怎么|根本|到底|干什么|干嘛")


def may_be_feedback(prompt: str) -> bool:
    """Whether a prompt the patterns did not capture may still be dissatisfaction, said in words no pattern
    knows: it is not skipped, speaks of the agent or of what the user asked, and holds a negation, a contrast
    or a failure. Such a prompt is worth a capture marked for the reviewer, who decides detached
    (``agents/ask_reviewer.py``); deciding here would need judgement the patterns do not have."""
    if skipped(prompt):
        return False
    low = cleaned(prompt).lower()
    return re.search(_ADDRESS, low) is not None and re.search(_CUE, low) is not None


def transcript_referent(path: Optional[str], limit: int = TRANSCRIPT_TAIL) -> Optional[bool]:
    """Whether the transcript at ``path`` holds an assistant turn in its last ``limit`` bytes.

    ``None`` when the host gave no usable path or the file cannot be read (unknown); ``False`` when the
    file does not exist yet (the host writes it asynchronously, so no turn of this session has been
    recorded: the first prompt) or holds no assistant turn. JSONL (Claude Code, Codex) and Gemini CLI's
    one JSON document are searched alike, as bytes: a huge or half-written file costs one bounded read.
    """
    if not isinstance(path, str) or not path or "\x00" in path:
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the open: not a transcript
            return None
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, size - limit))
            tail = handle.read(limit)
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return None
    return re.search(_ASSISTANT, tail) is not None
