"""Whether two pieces of feedback say the same thing: the tracker's matcher, deterministic and offline.

A text becomes its content words (:func:`~.keywords.keywords_of`: lower case, stop words out,
stemmed), folded a little further here (``merge``/``merging``, ``logger``/``logging``/``log``,
``explicitly``/``explicit``), each weighted by how rare it is in the topic table (TF-IDF with
the table's titles and paraphrases as the documents) and by :data:`GENERIC`, the words every
kind of feedback uses (``user``, ``pass``, ``code``, ``file``), which weigh little.

The topic table anchors the meaning. A text is about the topic one of whose title or paraphrases
it is closest to (cosine at least :data:`TOPIC_THRESHOLD`; a second topic as close within
:data:`SECOND_TOPIC` too: "no print() or pdb.set_trace()" names two) and leans to every topic it
is at least :data:`LEANING` close to. Two texts about topics are the same feedback exactly when
they share one: "Don't use mutable default arguments" and "def f(x=[]) is a bug: the default list
is shared between calls" meet through ``mutable-defaults``; "Do not use print()" and "at most 5
parameters" stay apart however their headings read. A text about a topic and a text leaning to it
are the same feedback, unless both say most of what they say beyond the topic's own words and share none of
it (:data:`REST_SHARE`): two rules about one topic that ask different things. The themes of :mod:`.themes`
(feedback no check encodes: commit or push only when asked, ask before deleting) anchor meaning as topics do,
but :meth:`Matcher.topic` never answers one. Otherwise the cosine of their weighted words decides (at least
:data:`THRESHOLD`). Headings never take part: a source passes a piece's own words, and its heading
only as context. The one topic an item's suggestion comes from is :meth:`Matcher.topic`: the
closest, when it is ahead of the next by :data:`TOPIC_MARGIN`.

May import: ``keywords``, ``themes`` and ``topics`` of this package. Must not import: the sources, the state
or anything that reads files.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence

from .keywords import keywords_of
from .themes import THEMES, Theme
from .topics import Topic

__all__ = ["GENERIC", "THRESHOLD", "TOPIC_THRESHOLD", "TOPIC_MARGIN", "SECOND_TOPIC", "LEANING", "KEYWORD_BOOST",
           "REST_SHARE", "REASON_WEIGHT", "ACTIONS", "Matcher", "Vector", "polarity", "words_of"]

#: two texts without topics are the same feedback from this cosine on
THRESHOLD = 0.5
#: a text is about a topic from this cosine with one of the topic's title or paraphrases on
TOPIC_THRESHOLD = 0.5
#: ... and when no other topic comes within this much of it (a tie is no topic)
TOPIC_MARGIN = 0.05
#: a second topic counts when it is at most this much less close than the first
SECOND_TOPIC = 0.1
#: a text this close to a topic agrees with a text that is about it (two texts leaning to it are not enough)
LEANING = 0.35
#: two texts about one topic ask different things when each says at least this share of its weight beyond the
#: topic's own words, in words the other does not use
REST_SHARE = 0.5
#: how much more a topic's keywords weigh in its title and paraphrases
KEYWORD_BOOST = 2.0
#: the weight of a word every kind of feedback uses, relative to its rarity
GENERIC_WEIGHT = 0.25
GENERIC = frozenset("""
add all call case change check confirm confirmation describe doe ensur fix follow good help instead new
pass passe project proper pull request return run sure tak take time user value work writ write written
""".split())

#: words that mean the same to a reviewer, folded to one (after stemming)
_SAME_WORD = {
    "logger": "log", "logg": "log", "logs": "log", "prints": "print", "print()": "print",
    "params": "parameter", "param": "parameter", "parameters": "parameter", "args": "argument",
    "arguments": "argument", "arg": "argument", "kwarg": "argument", "kwargs": "argument",
    "docstr": "docstring", "docs": "documentation", "doc": "documentation", "documented": "documentation",
    "documenting": "documentation", "document": "documentation",
    "typo": "spell", "typos": "spell", "spelling": "spell", "misspell": "spell", "codespell": "spell",
    "annotation": "hint", "annotate": "hint", "annotated": "hint", "hints": "hint",
    "exception": "except", "exceptions": "except",
    "commits": "commit", "committ": "commit", "committing": "commit",
    "pr": "pull", "prs": "pull", "branch": "branch", "repo": "repository",
    "tz": "timezone", "utc": "timezone", "secrets": "secret", "password": "secret", "token": "secret",
    "credential": "secret", "apikey": "secret", "key": "secret", "keys": "secret",
    "complexity": "complex", "maintainability": "maintain", "maintainable": "maintain",
    "ask": "request", "asked": "request", "requested": "request",
    "pdb": "breakpoint", "debugger": "breakpoint", "set_trace": "breakpoint",
}
_SUFFIXES = (("ally", "al"), ("ly", ""), ("e", ""))


def _fold(word: str) -> str:
    """A stemmed keyword folded once more: a few synonyms, ``-ly`` and a final ``e`` dropped
    (``merge``/``merging`` → ``merg``, ``explicitly`` → ``explicit``)."""
    word = _SAME_WORD.get(word, word)
    if len(word) > 4 and word not in _SAME_WORD.values():
        for suffix, replacement in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 4:
                return word[: len(word) - len(suffix)] + replacement
    return word


_CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\(\)")
#: words written with a hyphen that are one word (``pre-commit`` is no commit)
_COMPOUND = re.compile(r"\b(pre|f|no)-?(commit|strings?|verify)\b")
_JOINED = {"fstrings": "fstr", "fstring": "fstr"}  # as the stemmer leaves ``fstring`` (``-ing`` off)
#: ``str.format``/``.format()`` is a way to build strings, not the formatting of code
_STR_FORMAT = re.compile(r"\bstr\.format\b|\.format\b(?:\(\))?")


def words_of(text: str) -> tuple[str, ...]:
    """The content words of ``text``, folded (see the module docstring), each once, in order."""
    lowered = _STR_FORMAT.sub(" strformat ", text.lower())
    spaced = _COMPOUND.sub(lambda m: _JOINED.get(m[1] + m[2], m[1] + m[2]), _CALL.sub(r"\1 ", lowered))
    return tuple(dict.fromkeys(_fold(word) for word in keywords_of(spaced, limit=None)))


#: a text's weighted words
Vector = Mapping[str, float]

#: a word only the reason for a rule gives weighs this much of its weight: the rule is what is asked
REASON_WEIGHT = 0.4


class _Reason:
    """Where a rule's reason starts: "because", "since", "so that", "as it" (not a dash: what follows one is as
    often the rule itself, "never store secrets in code: use environment variables")."""

    _start = re.compile(r"\s(?:because|since|so that|as it|as they|which (?:is|are|makes?|can))\b", re.IGNORECASE)

    def search(self, text: str) -> bool:
        return self._start.search(text) is not None

    def partition(self, text: str) -> tuple[str, str, str]:
        found = self._start.search(text)
        assert found is not None
        return text[: found.start()], found.group(), text[found.end():]


_REASON = _Reason()

#: what a rule lets happen without asking (an opposite of "only when asked"), and what restricts
_PERMITS = re.compile(r"\b(?:automatically|auto-\w+|immediately|unasked|without (?:asking|waiting|permission)|"
                      r"frequently|incrementally|as you work|as work progresses|don'?t hesitate)\b", re.IGNORECASE)
_RESTRICTS = re.compile(r"\b(?:never|not|no|don'?t|do not|only|unless|avoid|wait|ask(?:ed)? before)\b|n't\b",
                        re.IGNORECASE)
#: actions a workflow rule is about: two rules about different ones ("commit" / "push") are different feedback
ACTIONS = frozenset({"commit", "push", "merg", "delet", "remov", "deploy", "releas", "rebas", "build"})


def polarity(text: str) -> int:
    """+1 when ``text`` lets something happen unasked ("commit as you work, unasked"), -1 when it restricts
    ("never commit unless asked", "do not push automatically"), 0 when it says neither."""
    cleared = re.sub(r"don'?t hesitate", " ", text, flags=re.IGNORECASE)
    if _RESTRICTS.search(cleared):
        return -1
    return 1 if _PERMITS.search(text) else 0


def _unit(weights: Mapping[str, float]) -> Vector:
    """``weights`` scaled to length 1, so that a cosine is a dot product (an empty text stays empty)."""
    norm = math.sqrt(sum(w * w for w in weights.values()))
    return {word: w / norm for word, w in weights.items()} if norm else {}


def _cosine(a: Vector, b: Vector) -> float:
    """The cosine of two unit vectors."""
    if len(b) < len(a):
        a, b = b, a
    return sum(weight * b[word] for word, weight in a.items() if word in b)


def _phrases(topic: Topic | Theme) -> tuple[str, ...]:
    return (topic.title, *getattr(topic, "paraphrases", ()))


def _rarity(documents: Sequence[set[str]]) -> dict[str, float]:
    """Each word's inverse document frequency over ``documents`` (a topic's or theme's phrases are one)."""
    frequency: dict[str, int] = {}
    for document in documents:
        for word in document:
            frequency[word] = frequency.get(word, 0) + 1
    count = len(documents)
    return {word: math.log((count + 1) / (n + 1)) + 1 for word, n in frequency.items()}


@dataclass
class Matcher:
    """The matcher for one topic table (its weights are the table's): see the module docstring."""

    topics: Sequence[Topic]
    threshold: float = THRESHOLD
    topic_threshold: float = TOPIC_THRESHOLD
    themes: Sequence[Theme] = THEMES
    _idf: dict[str, float] = field(init=False, default_factory=dict)
    _top: float = field(init=False, default=1.0)
    _anchors: list[tuple[str, Vector]] = field(init=False, default_factory=list)
    _vectors: dict[str, Vector] = field(init=False, default_factory=dict)
    _close: dict[str, dict[str, float]] = field(init=False, default_factory=dict)
    _about: dict[str, frozenset[str]] = field(init=False, default_factory=dict)
    _groups: dict[tuple[str, ...], tuple[frozenset[str], frozenset[str]]] = field(init=False, default_factory=dict)
    _own: dict[str, set[str]] = field(init=False, default_factory=dict)
    _theme_ids: frozenset[str] = field(init=False, default=frozenset())

    def __post_init__(self) -> None:
        anchors: list[Topic | Theme] = [*self.topics, *self.themes]
        documents = [set().union(*(words_of(p) for p in _phrases(t))) for t in anchors]
        self._idf = _rarity(documents)
        self._top = math.log(len(documents) + 1) + 1  # a word the table never uses is as rare as can be
        self._anchors = [(t.id, self._anchor(t, p)) for t in anchors for p in _phrases(t)]
        self._own = {t.id: document | set(words_of(" ".join(t.keywords))) for t, document in zip(anchors, documents)}
        self._theme_ids = frozenset(t.id for t in self.themes)

    def _anchor(self, topic: Topic | Theme, phrase: str) -> Vector:
        """A title or paraphrase of ``topic``, the words of its keywords weighing :data:`KEYWORD_BOOST` times
        more: in "Do not merge without tests" the tests make the coverage topic, not the merge."""
        own = set(words_of(" ".join(topic.keywords)))
        return _unit({word: w * (KEYWORD_BOOST if word in own else 1.0) for word, w in self.vector(phrase).items()})

    def vector(self, text: str) -> Vector:
        """``text``'s words, each weighted by its rarity (a generic word by a quarter of it), to length 1; a word
        only the reason gives (after "because", "since", "so that") weighs :data:`REASON_WEIGHT` of it."""
        known = self._vectors.get(text)
        if known is None:
            rule, _, reason = _REASON.partition(text) if _REASON.search(text) else (text, "", "")
            ruled = set(words_of(rule))
            known = _unit({w: self._idf.get(w, self._top) * (GENERIC_WEIGHT if w in GENERIC else 1.0)
                           * (1.0 if w in ruled else REASON_WEIGHT) for w in words_of(text)})
            self._vectors[text] = known
        return known

    def cosine(self, first: str, second: str) -> float:
        """How alike the weighted words of two texts are, from 0 to 1."""
        return _cosine(self.vector(first), self.vector(second))

    def _closeness(self, text: str) -> dict[str, float]:
        """How close ``text`` is to each topic: its best cosine with the topic's title and paraphrases."""
        if text not in self._close:
            vector, best = self.vector(text), dict[str, float]()
            for topic_id, anchor in self._anchors:
                best[topic_id] = max(best.get(topic_id, 0.0), _cosine(vector, anchor))
            self._close[text] = best
        return self._close[text]

    def topic(self, text: str) -> Optional[str]:
        """The id of the one topic ``text`` is most about, or ``None`` when it is about none (or two equally):
        the topic an item's suggestion comes from."""
        ranked = sorted(self._closeness(text).items(), key=lambda pair: -pair[1])[:2] + [("", 0.0)] * 2
        (first, score), (_, second) = ranked[0], ranked[1]
        clear = score >= self.topic_threshold and score - second >= TOPIC_MARGIN
        return first if clear and first not in self._theme_ids else None

    def about(self, text: str) -> frozenset[str]:
        """Every topic ``text`` is about (a sentence may name two: "no print() or pdb.set_trace()")."""
        known = self._about.get(text)
        if known is None:
            close = self._closeness(text)
            floor = max(self.topic_threshold, max(close.values(), default=0.0) - SECOND_TOPIC)
            known = self._about[text] = frozenset(t for t, score in close.items() if score >= floor)
        return known

    def leanings(self, text: str) -> frozenset[str]:
        """The topics ``text`` is at least :data:`LEANING` close to: not enough to say what it is about alone,
        enough to agree with a text that is about one of them."""
        return frozenset(t for t, score in self._closeness(text).items() if score >= LEANING)

    def score(self, text: str, others: Sequence[str], topic: Optional[str] = None) -> float:
        """How surely ``text`` is the feedback ``others`` (the texts of one item) give: 2 when both are about
        one topic, 1.5 when one is and the other leans to it, 0 when they are about two topics, else the
        best cosine when it reaches the threshold (0 below it). ``topic`` is ``text``'s topic when it is
        known (a level-4 check knows its own), and then only texts that are about it join it: a check is
        never said to encode feedback that merely leans to its topic."""
        if topic is None:  # a check knows its topic: it is neither a rule's opposite nor about an action
            others = [other for other in others if not self._contrary(text, other)]
            if not others:
                return 0.0
        by_topic = self._by_topic(text, others, topic)
        if by_topic is not None:
            return by_topic
        best = max((self.cosine(text, other) for other in others), default=0.0)
        return best if best >= self.threshold else 0.0

    def _by_topic(self, text: str, others: Sequence[str], topic: Optional[str]) -> Optional[float]:
        """The topics' answer (see :meth:`score`), or ``None`` when they leave it to the words."""
        mine = frozenset([topic]) if topic else self.about(text)
        theirs, leant = self._together(tuple(others))
        if mine and theirs:
            shared = mine & theirs
            if not shared or (topic is None and self._apart(text, others, shared)):
                return 0.0
            return 2.0
        if mine:  # a topic a source named is never leant to
            agree = topic is None and bool(mine & leant)
        else:
            agree = bool(theirs & self.leanings(text))
        return 1.5 if agree else None

    def _rest(self, text: str, topics: frozenset[str]) -> Vector:
        """``text``'s weighted words that none of ``topics`` uses (nor any generic word): what it asks beyond
        naming the topic."""
        own = set().union(*(self._own[t] for t in topics))
        return {w: v for w, v in self.vector(text).items() if w not in own and w not in GENERIC}

    def _apart(self, text: str, others: Sequence[str], shared: frozenset[str]) -> bool:
        """Whether ``text`` asks something else than every text of ``others`` about one of the ``shared`` topics:
        two rules about docstrings, "use Google style" and "private functions need none", share the topic but
        not a requirement. Both must say most of what they say beyond the topic (:data:`REST_SHARE` of their
        weight), in words they do not share."""
        mine = self._rest(text, shared)
        if sum(v * v for v in mine.values()) < REST_SHARE:
            return False
        near = [other for other in others if self.leanings(other) & shared]
        for other in near:
            theirs = self._rest(other, shared)
            if sum(v * v for v in theirs.values()) < REST_SHARE or set(mine) & set(theirs):
                return False
        return bool(near)

    def _together(self, texts: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
        """The topics the texts of one item are about, and those they lean to (kept: a scan asks for them once
        per sighting and item)."""
        known = self._groups.get(texts)
        if known is None:
            about: frozenset[str] = frozenset().union(*map(self.about, texts))
            leant: frozenset[str] = frozenset().union(*map(self.leanings, texts))
            known = self._groups[texts] = (about, leant)
        return known

    def _contrary(self, text: str, other: str) -> bool:
        """Whether two texts that share no topic of the table (a theme is no topic here) ask different things
        however alike their words: one lets happen unasked what the other restricts ("never commit unless
        asked" / "commit as you work"), or they are about different actions ("commit" / "push")."""
        if (self.about(text) & self.about(other)) - self._theme_ids:
            return False
        if polarity(text) * polarity(other) < 0:
            return True
        mine, theirs = ACTIONS.intersection(words_of(text)), ACTIONS.intersection(words_of(other))
        return bool(mine and theirs and not mine & theirs)

    def same(self, first: str, second: str) -> bool:
        """Whether two texts are the same piece of feedback."""
        return self.score(first, [second]) > 0
