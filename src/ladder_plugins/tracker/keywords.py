"""Keywords of a piece of feedback, and the built-in rule for which item it joins.

Deterministic and documented (``docs/explanation/ladder.md``, "Matching feedback into items"): the words of
the text, lower-cased, stop words dropped, each reduced by a few suffix rules; a
sighting joins the item it overlaps most when they share at least
:data:`MIN_SHARED` keywords or their Jaccard index is at least :data:`MIN_JACCARD`.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Optional, Sequence

__all__ = ["keywords_of", "stem", "similarity", "best_match", "passes", "kebab_id", "topic_of", "MIN_SHARED",
           "MIN_JACCARD"]

MIN_SHARED = 2
MIN_JACCARD = 0.5
#: an item keeps at most this many keywords (the first ones its text names)
MAX_KEYWORDS = 12

_WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_'][a-z0-9]+)*")
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


def keywords_of(text: str, given: Iterable[str] = (), limit: Optional[int] = MAX_KEYWORDS) -> tuple[str, ...]:
    """The keywords of ``text`` in the order they first appear (``given`` ones first), at most ``limit``:
    lower-cased words without stop words, stemmed; apostrophes dropped
    (``don't`` → ``dont``), hyphens and underscores split (``bare-except`` → ``bare``, ``except``)."""
    seen: dict[str, None] = {}
    words = [w for raw in given for w in _WORD.findall(raw.lower())] + _WORD.findall(text.lower())
    for raw in words:
        for part in re.split(r"[-_]", raw.replace("'", "")):
            if len(part) > 1 and part not in _STOP and not part.isdigit():
                seen.setdefault(stem(part), None)
    return tuple(seen)[:limit]


def similarity(first: Iterable[str], second: Iterable[str]) -> tuple[int, float]:
    """(shared keywords, Jaccard index) of two keyword sets, the stemmed forms compared."""
    a, b = {stem(k) for k in first}, {stem(k) for k in second}
    shared = len(a & b)
    return shared, (shared / len(a | b) if a or b else 0.0)


def best_match(keywords: Sequence[str], items: Sequence[Mapping[str, Any]]) -> Optional[int]:
    """The index of the item ``keywords`` overlap most (most shared, then highest Jaccard, then the first),
    among those passing the rule; ``None`` when none does."""
    scored = [(*similarity(keywords, [str(k) for k in item.get("keywords") or ()]), -index)
              for index, item in enumerate(items)]
    passing = [s for s in scored if passes(s[0], s[1])]
    return -max(passing)[2] if passing else None


def passes(shared: int, jaccard: float) -> bool:
    """The matching rule: at least :data:`MIN_SHARED` shared keywords, or a Jaccard index of at least
    :data:`MIN_JACCARD` (with one shared keyword at least)."""
    return shared >= MIN_SHARED or (shared > 0 and jaccard >= MIN_JACCARD)


def topic_of(text: str) -> str:
    """An item's topic: the first line of the text that started it, on one line, at most 80 characters."""
    first = " ".join((text.strip().splitlines() or [""])[0].split())
    return first if len(first) <= 80 else first[:77] + "..."


def kebab_id(keywords: Sequence[str], taken: Iterable[str]) -> str:
    """A kebab-case id from the first keywords (``no-bare-except``), made unique with ``-2``, ``-3``..."""
    base = "-".join(re.sub(r"[^a-z0-9]+", "-", k).strip("-") for k in keywords[:4]).strip("-") or "feedback"
    used = set(taken)
    candidate, n = base, 1
    while candidate in used:
        n += 1
        candidate = f"{base}-{n}"
    return candidate
