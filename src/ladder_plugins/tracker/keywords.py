"""Keywords of a piece of feedback: what the matcher (:mod:`.similarity`) weighs, what an item keeps
(:data:`MAX_KEYWORDS`) and names itself by (:func:`kebab_id`), and what a capture keeps as keys
(:func:`keyword_key`): the words of the text, lower-cased, stop words dropped, each reduced by a few
suffix rules.

Chinese is written without spaces, so its keywords are character bigrams (what search
engines index CJK text by when they have no dictionary): each run of Han characters is cut
at the function words of ``_CJK_STOP_WORDS`` (the longest first) and the function
characters of ``_CJK_STOP_CHARS``, and every piece of two characters or more gives its
overlapping pairs: 数据库连接池 gives 数据, 据库, 库连, 连接, 接池. A pair that straddles two words
(库连) is noise that only ever matches the same text. A dictionary segmenter (jieba) would
give words instead, at the price of a dependency unreleased since 2020 and some 0.9 s of
dictionary loading in the first process that segments: the prompt hook, which runs on every
prompt, cannot pay that; this costs nothing to import and microseconds per text.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence

__all__ = ["keywords_of", "cjk_keywords", "keyword_key", "keys_only", "stem", "kebab_id", "topic_of", "MAX_KEYWORDS"]

#: an item keeps at most this many keywords (the first ones its text names)
MAX_KEYWORDS = 12

_WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_'][a-z0-9]+)*")
#: a word, or a run of Han characters (CJK unified ideographs, extension A, compatibility)
#: (these two are compiled on first use, by ``re``'s cache: the prompt hook imports this module on every prompt)
_TOKEN = r"[a-z][a-z0-9]*(?:[-_'][a-z0-9]+)*|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+"
#: particles, pronouns and adverbs that belong to no topic: a run of Han characters is cut at them
_CJK_STOP_CHARS = "的得了着吗呢吧啊呀哦嘛么你我他她它们这那个是就都也又把被让给和与及或很太再才请一些哪啥谁该嗯不没要在里"
#: function words and words of complaint of two characters or more, cut out before the characters above
_CJK_STOP_WORDS = tuple(sorted(set("""
可以 应该 需要 没有 不是 就是 还是 但是 因为 所以 如果 然后 现在 今天 昨天 刚才 刚刚 之前 之后 以后 上次 这次 时候 问题 东西
地方 怎么 什么 为什么 已经 一下 可能 觉得 认为 知道 告诉 说过 提醒 根本 压根 完全 真的 到底 直接 其实 只是 而且 并且 或者
还有 注意 帮我 帮忙 一直 总是 老是 每次 多少 几次 几遍 重新 好像 看看 一样 怎样 这样 那样 确实 修改 改成 改为 记得
""".split()), key=len, reverse=True))
_CJK_STOP = "|".join(_CJK_STOP_WORDS) + "|[" + _CJK_STOP_CHARS + "]"
_STOP = frozenset("""
a about above after again against all also always am an and any are aren as at be because been before being
below between both but by can cannot could did didn do does doesn doing don done down during each either else
ever every few for from further get gets getting give given go going got had hadn has hasn have haven having he
her here hers herself him himself his how however i if in into is isn it its itself just keep kept let like
make makes made many may me might more most much must mustn my myself need needs never no nor not now of off
on once one only or other ought our ours ourselves out over own please put rather really same say says shall
she should shouldn so some such than that the their theirs them themselves then there these they this those
through thus to too try under until up upon us use used uses using very was wasn way we were weren what when
where whether which while who whom why will with within without won would wouldn yet you your yours yourself
yourselves something anything nothing everything dont doesnt didnt isnt arent wasnt cant couldnt wont
wouldnt shouldnt mustnt thing things
""".split())


def stem(word: str) -> str:
    """A few suffix rules, so that plurals and verb forms meet: ``tests``/``testing``/``tested`` → ``test``,
    ``dependencies`` → ``dependency``, ``classes`` → ``class``. Words of four letters or fewer stay."""
    if len(word) <= 4:
        return word
    for suffix, replacement in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"),
                                ("ing", ""), ("ed", ""), ("s", "")):
        if word.endswith(suffix) and not (suffix == "s" and word.endswith(("ss", "us", "is"))):
            base = word[: len(word) - len(suffix)] + replacement
            return base if len(base) >= 3 else word
    return word


def cjk_keywords(run: str) -> tuple[str, ...]:
    """The character bigrams of a run of Han characters, cut at its function words and characters first; a
    piece of one character gives none."""
    pairs: dict[str, None] = {}
    for piece in re.split(_CJK_STOP, run):
        for start in range(len(piece) - 1):
            pairs.setdefault(piece[start:start + 2], None)
    return tuple(pairs)


def _tokens(text: str) -> list[str]:
    return re.findall(_TOKEN, text) if any(ch >= "\u3400" for ch in text) else _WORD.findall(text)


def keywords_of(text: str, given: Iterable[str] = (), limit: Optional[int] = MAX_KEYWORDS) -> tuple[str, ...]:
    """The keywords of ``text`` in the order they first appear (``given`` ones first), at most ``limit``:
    lower-cased words without stop words, stemmed; apostrophes dropped
    (``don't`` → ``dont``), hyphens and underscores split (``bare-except`` → ``bare``, ``except``);
    the bigrams of :func:`cjk_keywords` for Chinese."""
    seen: dict[str, None] = {}
    tokens = [t for raw in given for t in _tokens(raw.lower())] + _tokens(text.lower())
    for raw in tokens:
        if raw[0] >= "\u3400":
            seen.update(dict.fromkeys(cjk_keywords(raw)))
            continue
        for part in re.split(r"[-_]", raw.replace("'", "")):
            if len(part) > 1 and part not in _STOP and not part.isdigit():
                seen.setdefault(stem(part), None)
    return tuple(seen)[:limit]


def keyword_key(keyword: str) -> str:
    """A keyword as an opaque key of ten lower-case letters (from its SHA-256): a capture keeps these instead of
    the words, and two captures that share a word share its key. The letters read as one word to
    :func:`keywords_of` (no digit, no separator), so a text made of keys matches as its words would. A key
    is not a secret: whoever holds the file can test a guessed word."""
    import hashlib  # here: only a capture needs it

    digest = hashlib.sha256(b"ladder-keyword\x00" + keyword.encode("utf-8", "surrogatepass")).digest()
    return "".join(chr(97 + byte % 26) for byte in digest[:10])


def keys_only(text: str) -> bool:
    """Whether ``text`` is nothing but keys of :func:`keyword_key`, each after a ``#``: a capture kept
    without its words, which the tracker can count and match but nobody can read."""
    return re.fullmatch(r"#[a-z]{10}(?: #[a-z]{10})*", text.strip()) is not None


def topic_of(text: str) -> str:
    """An item's topic: the first line of the text that started it, on one line, at most 80 characters."""
    first = " ".join((text.strip().splitlines() or [""])[0].split())
    return first if len(first) <= 80 else first[:77] + "..."


def kebab_id(keywords: Sequence[str], taken: Iterable[str]) -> str:
    """A kebab-case id from the first keywords (``no-bare-except``), made unique with ``-2``, ``-3``...; keywords
    that give no ASCII letters (Chinese) give ``feedback-`` and eight hex digits of their hash."""
    base = "-".join(re.sub(r"[^a-z0-9]+", "-", k).strip("-") for k in keywords[:4]).strip("-")
    if not base:
        import hashlib  # here: the prompt hook imports this module on every prompt, and never names an item

        digest = hashlib.sha256("\n".join(keywords[:4]).encode("utf-8", "surrogatepass")).hexdigest()
        base = f"feedback-{digest[:8]}" if keywords else "feedback"
    used = set(taken)
    candidate, n = base, 1
    while candidate in used:
        n += 1
        candidate = f"{base}-{n}"
    return candidate
