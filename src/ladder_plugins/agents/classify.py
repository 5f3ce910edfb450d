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

Most complaints about new work say what the work did, in words no phrase list foresees. So a third kind of
pattern is composed (:func:`~.patterns.cue`): a *cue* counts only within :data:`~.patterns.ACT_REACH` characters of
an *act* of the agent. The act is the agent's finished work: "you <past verb>", "you've <participle>", "the <noun>
you <past verb>", "your <noun> <past verb>", "your patch", "that answer", 你把...了, 你写的/改的/删掉的, 你...了,
你的修改, 你说 (``ACT`` of ``patterns_en`` and ``patterns_zh``), not a request or a question about it ("can you",
"did you", 给你, 你能). The cue is what makes the act a failure: the scope exceeded ("I only asked for", 我只要),
something made up ("no such option", 根本没有这个参数), work that does nothing ("tests nothing", 什么都没测), a failure
stated in a clause that does not fix, test for or plan it ("so every plugin broke", "now it takes forever", 报了
一堆错, 所有插件都坏了), the failure back ("the same error comes back"), the work wanted back ("add them back",
赶紧加回来), a denial ("that's not a fix", 这不叫修复), a contrast ("instead of fixing it", 而不是), disbelief
("Seriously?", 你认真的吗). Either alone is an ordinary request or report ("you added the retry, now add a
timeout"; "make sure mypy reports 0 errors"), and a prompt that approves ("thanks", "as I asked", 挺好) outweighs a
cue.

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
from functools import lru_cache
from typing import Callable, Optional

from ..tracker.keywords import keywords_of, stem
from .patterns import ACT_REACH, REASONS, Pattern
from .patterns_en import APPROVAL as _APPROVAL_EN
from .patterns_en import ENGLISH
from .patterns_zh import APPROVAL as _APPROVAL_ZH
from .patterns_zh import CHINESE

__all__ = [
    "REASONS", "ENGLISH", "CHINESE", "PATTERNS", "Pattern", "TRANSCRIPT_TAIL", "MAX_KEYWORDS", "Classification",
    "is_operation_turn", "skipped", "cleaned", "matches", "classify", "capture_keywords", "transcript_referent",
    "may_be_feedback",
]

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


#: every pattern, English first
PATTERNS = ENGLISH + CHINESE
_NEG, _REC = REASONS[0], REASONS[2]
#: approval, which a cue next to an act does not outweigh (:attr:`Pattern.act`)
_APPROVAL = _APPROVAL_EN + "|" + _APPROVAL_ZH

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


# one prompt is cleaned by the patterns, the word test and the complaint model in turn; the quoted-phrase pass
# costs a quarter of a second on 40 KB of quotes, so the answer for the last few prompts is kept (a pure function)
@lru_cache(maxsize=4)
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
    "如果密码不对") describes behaviour to build, not a verdict on the work: it is left out. The cues next to an act
    (:attr:`Pattern.act`) are looked at only when no phrase matched: they decide nothing the phrases decided, and
    their expressions are the longest to compile."""
    found = _matching(_without_hypotheticals(text.lower()))
    codes = {pattern.code for pattern in found}
    return tuple(code for code in REASONS if code in codes), any(pattern.standalone for pattern in found)


def _matching(low: str) -> list[Pattern]:
    """The phrases that match ``low`` about the agent; where there are none, the cues next to an act."""
    found = _about_the_agent([p for p in PATTERNS if not p.act and _found(p, low)], low)
    if found:
        return found
    return _unapproved(_about_the_agent([p for p in PATTERNS if p.act and _found(p, low)], low), low)


def _found(pattern: Pattern, low: str) -> bool:
    """Whether ``pattern`` matches ``low`` (looked at only when one of its triggers is there); a cue
    (:attr:`Pattern.act`) only within :data:`ACT_REACH` characters of an act of the agent. The act is looked for
    only where the cue is found (its expression is long)."""
    if not any(trigger in low for trigger in pattern.triggers):
        return False
    if not pattern.act:
        return re.search(pattern.source, low) is not None
    cues = [hit.start() for hit in re.finditer(pattern.source, low)]
    return bool(cues) and any(abs(act.start() - at) <= ACT_REACH
                              for act in re.finditer(pattern.act, low) for at in cues)


def _unapproved(found: list[Pattern], low: str) -> list[Pattern]:
    """``found`` without its cues next to an act when the prompt approves ("you silenced the warning, thanks")."""
    if any(pattern.act for pattern in found) and re.search(_APPROVAL, low):
        return [pattern for pattern in found if not pattern.act]
    return found


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
              r"\b(?:that's|that was|it's) (?:on me|my fault)\b|\bnot (?:your|you)\b|不是你|"
              r"是我(?:的)?(?:错|问题|不好|疏忽|失误|搞错|弄错|写错|说错|看错|记错)|"
              r"我(?:自己)?(?:不小心|误删|搞错|弄错|写错|说错|打错|记错|看错)|我的(?:错|锅|失误|疏忽)|怪我|"
              r"(?:不好意思|抱歉|对不起)")
#: the agent named as the one who acted (not as the one asked: "can you", "给你", "你帮我")
_AGENT = (r"(?<!not )\byour\b|\byou(?:'ve| have| had)?\s+(?:just\s+|also\s+|then\s+)?(?:\w+ed|broke|made|did|wrote|put|"
          r"ran|gave|left|took|forgot|lost|threw|built|chose|went)\b|\b(?:since|after|did|would|why'd|have|were) you\b|"
          r"(?<![给跟和让叫请])(?<!不是)你(?!们|能|可以|帮|来|看|先|再|觉得|认为|知道|好)")
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
