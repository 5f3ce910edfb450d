"""Whether two pieces of feedback say the same thing: the tracker's matcher, deterministic and offline.

A text becomes its concepts: its content words (:func:`~.keywords.keywords_of`: lower case, stop words out,
stemmed), folded a little further (``merge``/``merging``, ``explicitly``/``explicit``) and read through the concept
lexicon of :mod:`.concepts`, whose phrases and words of coding guidelines become one concept each ("break it up",
"chop it up" and "split" are ``split``; "API key" and ".env" are ``secret``). Each is weighted by how rare it is in
the topic table (TF-IDF with the table's titles and paraphrases as the documents) and by :data:`GENERIC`, the
words every kind of feedback uses (``user``, ``pass``, ``project``) and the lexicon's conditions (asked, unless,
explicitly), which weigh little; a word only a rule's reason or an aside gives weighs :data:`REASON_WEIGHT`.

The topic table anchors the meaning. A text is about the topic one of whose title or paraphrases it, or one of
its clauses, is closest to (cosine at least :data:`TOPIC_THRESHOLD`; a second topic as close within
:data:`SECOND_TOPIC` too: "no print() or pdb.set_trace()" names two) and leans to every topic it is at least
:data:`LEANING` close to. A phrase counts only if the text shares enough with it (:func:`_grounded`: "no hardcoded
paths" is no rule about secrets), only for a topic whose phrases name the thing the text is about
(:data:`.concepts.OBJECTS`: "keep pull requests small" is no rule about functions), and, when the text names none
of the phrase's core concepts (:data:`CORE_SHARE`), only to lean. Two texts about topics are the same feedback
exactly when they share one: "Don't use mutable default arguments" and "def f(x=[]) is a bug: the default list
is shared between calls" meet through ``mutable-defaults``; "Do not use print()" and "at most 5 parameters" stay
apart however their headings read. A text about a topic and a text leaning to it are the same feedback, unless
the two ask different things about it: they choose in different slots of the lexicon (the style of docstrings,
their scope), or both say most of what they say beyond the topic's own words and share none of it
(:data:`REST_SHARE`). The themes of :mod:`.themes` (feedback no check encodes: commit or push only when asked,
ask before deleting) anchor meaning as topics do, but :meth:`Matcher.topic` never answers one. Otherwise the
cosine of their weighted concepts decides (at least :data:`THRESHOLD`). Whatever the topics say, two texts that
choose differently among alternatives, a rule and its exception, and (when they share no topic) a rule and its
opposite or rules about two actions are different feedback (:mod:`.contrasts`). Headings never take part: a
source passes a piece's own words, and its heading only as context. The one topic an item's suggestion comes from
is :meth:`Matcher.topic`: the closest, when it is ahead of the next by :data:`TOPIC_MARGIN`.

May import: ``concepts``, ``contrasts``, ``keywords``, ``themes`` and ``topics`` of this package. Must not import:
the sources, the state or anything that reads files.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence

from .concepts import CLASSES, OBJECTS, SLOTS, Lexicon, build
from .contrasts import ACTIONS, choices, conflict, polarity, relaxes, rule_of
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
SECOND_TOPIC = 0.08
#: a text this close to a topic agrees with a text that is about it (two texts leaning to it are not enough)
LEANING = 0.35
#: two texts about one topic ask different things when each says at least this share of its weight beyond the
#: topic's own words, in words the other does not use
REST_SHARE = 0.65
#: a concept at least this share of a topic's phrases name is its core: a text that names none at most leans to it
CORE_SHARE = 0.75
#: how much more a topic's keywords weigh in its title and paraphrases
KEYWORD_BOOST = 2.0
#: the weight of a word every kind of feedback uses, relative to its rarity
GENERIC_WEIGHT = 0.25

_SUFFIXES = (("ally", "al"), ("ly", ""), ("e", ""))


def _fold(word: str) -> str:
    """A stemmed keyword folded once more: ``-ly`` and a final ``e`` dropped (``merge``/``merging`` → ``merg``,
    ``explicitly`` → ``explicit``)."""
    if len(word) > 4:
        for suffix, replacement in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 4:
                return word[: len(word) - len(suffix)] + replacement
    return word


def _read(word: str) -> tuple[str, ...]:
    """A word of the lexicon as the matcher reads a text's words (keywords, folded)."""
    return tuple(_fold(w) for w in keywords_of(word.lower(), limit=None))


#: the concept lexicon of :mod:`.concepts`, compiled (immutable)
LEXICON = build(CLASSES, SLOTS, _read, OBJECTS)

_GENERIC_WORDS = """
add all call case change check confirm confirmation describe doe ensur fix follow good help instead new
pass passe project proper pull request return run sure tak take time user value work writ write written git
"""


def _generic(words: str, lexicon: Lexicon) -> frozenset[str]:
    """The concepts of ``words``, and the lexicon's conditions."""
    return frozenset(lexicon.concept(w) for word in words.split() for w in _read(word)) | lexicon.conditions


#: the words (concepts) every kind of feedback uses, and the conditions of the lexicon: they weigh little
GENERIC = _generic(_GENERIC_WORDS, LEXICON)


#: where a text's clauses end: after a full stop, a semicolon, a colon, a dash between spaces
_CLAUSE = re.compile(r"(?<=[.;:!?])\s+|\s[\u2014\u2013-]{1,2}\s")
_CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\(\)")
#: words written with a hyphen that are one word (``pre-commit`` is no commit)
_COMPOUND = re.compile(r"\b(pre|f|no)-?(commit|strings?|verify)\b")
_JOINED = {"fstrings": "fstr", "fstring": "fstr"}  # as the stemmer leaves ``fstring`` (``-ing`` off)
#: ``str.format``/``.format()`` is a way to build strings, not the formatting of code
_STR_FORMAT = re.compile(r"\bstr\.format\b|\.format\b(?:\(\))?|\bformat\(\)")


def words_of(text: str, lexicon: Lexicon = LEXICON) -> tuple[str, ...]:
    """The concepts of ``text``: its content words, folded, read through ``lexicon`` (its phrases first), each
    once, in order (see the module docstring)."""
    lowered = lexicon.rewrite(_STR_FORMAT.sub(" strformat ", text.lower()))
    spaced = _COMPOUND.sub(lambda m: _JOINED.get(m[1] + m[2], m[1] + m[2]), _CALL.sub(r"\1 ", lowered))
    return tuple(dict.fromkeys(lexicon.concept(_fold(word)) for word in keywords_of(spaced, limit=None)))


#: a text's weighted words
Vector = Mapping[str, float]

#: a word only the reason for a rule or an aside gives weighs this much of its weight: the rule is what is asked
REASON_WEIGHT = 0.4


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


def _content(text: str) -> frozenset[str]:
    """The concepts of ``text`` that say what it is about: not the generic ones, nor the conditions."""
    return frozenset(words_of(text)) - GENERIC


def _core(topic: Topic | Theme) -> frozenset[str]:
    """The concepts at least :data:`CORE_SHARE` of a topic's phrases name: what it is about ("bare except" for the
    bare-except topic; a text about catching exceptions in general names none)."""
    phrases = [_content(p) for p in _phrases(topic)]
    counts: dict[str, int] = {}
    for words in phrases:
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    return frozenset(w for w, n in counts.items() if n >= CORE_SHARE * len(phrases))


def _grounded(words: frozenset[str], anchor: frozenset[str]) -> bool:
    """Whether a text of ``words`` shares enough with a phrase of ``anchor`` words to lean to its topic: two
    concepts, or all of one of the two ("No hardcoded paths" shares one word with "No hardcoded secrets": no
    evidence of secrets)."""
    shared = words & anchor
    return len(shared) >= 2 or bool(shared) and (shared == words or shared == anchor)


@dataclass
class Matcher:
    """The matcher for one topic table (its weights are the table's): see the module docstring."""

    topics: Sequence[Topic]
    threshold: float = THRESHOLD
    topic_threshold: float = TOPIC_THRESHOLD
    themes: Sequence[Theme] = THEMES
    _idf: dict[str, float] = field(init=False, default_factory=dict)
    _top: float = field(init=False, default=1.0)
    _anchors: list[tuple[str, Vector, frozenset[str], frozenset[str]]] = field(init=False, default_factory=list)
    _index: dict[str, list[int]] = field(init=False, default_factory=dict)
    _blank: dict[str, float] = field(init=False, default_factory=dict)
    _words: dict[str, tuple[str, ...]] = field(init=False, default_factory=dict)
    _vectors: dict[str, Vector] = field(init=False, default_factory=dict)
    _close: dict[str, dict[str, float]] = field(init=False, default_factory=dict)
    _about: dict[str, frozenset[str]] = field(init=False, default_factory=dict)
    _groups: dict[tuple[str, ...], tuple[frozenset[str], frozenset[str]]] = field(init=False, default_factory=dict)
    _own: dict[str, set[str]] = field(init=False, default_factory=dict)
    _theme_ids: frozenset[str] = field(init=False, default=frozenset())
    _chosen: dict[str, tuple[frozenset[str], ...]] = field(init=False, default_factory=dict)
    _leaning: dict[str, tuple[int, bool]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        anchors: list[Topic | Theme] = [*self.topics, *self.themes]
        documents = [set().union(*(words_of(p) for p in _phrases(t))) for t in anchors]
        self._idf = _rarity(documents)
        self._top = math.log(len(documents) + 1) + 1  # a word the table never uses is as rare as can be
        self._index_anchors(anchors)
        self._own = {t.id: document | set(words_of(" ".join(t.keywords))) for t, document in zip(anchors, documents)}
        self._theme_ids = frozenset(t.id for t in self.themes)

    def _index_anchors(self, anchors: list[Topic | Theme]) -> None:
        """Every title and paraphrase as an anchor (its topic, vector, concepts, and the core concepts it names),
        and the anchors under each word they use: a text is compared with the anchors it shares a word with."""
        cores = {t.id: _core(t) for t in anchors}
        self._anchors = [(t.id, self._anchor(t, p), _content(p), _content(p) & cores[t.id])
                         for t in anchors for p in _phrases(t)]
        for number, (_, anchor, _, _) in enumerate(self._anchors):
            for word in anchor:
                self._index.setdefault(word, []).append(number)
        self._blank = dict.fromkeys((t.id for t in anchors), 0.0)

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
            ruled = set(self.words(rule_of(text)))
            known = _unit({w: self._idf.get(w, self._top) * (GENERIC_WEIGHT if w in GENERIC else 1.0)
                           * (1.0 if w in ruled else REASON_WEIGHT) for w in self.words(text)})
            self._vectors[text] = known
        return known

    def words(self, text: str) -> tuple[str, ...]:
        """:func:`words_of` ``text``, kept: a scan reads each text many times."""
        known = self._words.get(text)
        if known is None:
            known = self._words[text] = words_of(text)
        return known

    def cosine(self, first: str, second: str) -> float:
        """How alike the weighted words of two texts are, from 0 to 1."""
        return _cosine(self.vector(first), self.vector(second))

    def _closeness(self, text: str) -> dict[str, float]:
        """How close ``text`` is to each topic: its best cosine with the topic's title and paraphrases, or its
        clauses' (a rule and its elaboration: "Prefer small functions. If one exceeds 40 lines, break it up")."""
        known = self._close.get(text)
        if known is None:
            known = self._close[text] = self._nearness(text)
            clauses = [part for part in _CLAUSE.split(text) if len(set(self.words(part)) - GENERIC) >= 2]
            for clause in clauses if len(clauses) > 1 else ():
                for topic_id, close in self._nearness(clause).items():
                    known[topic_id] = max(known[topic_id], close)
        return known

    def _nearness(self, text: str) -> dict[str, float]:
        """:meth:`_closeness` of one text as a whole, each phrase's cosine limited by what the text names: a
        phrase it shares too little with (:func:`_grounded`) is not near, nor is a topic none of whose phrases
        name a thing the text is about (:data:`.concepts.OBJECTS`: "keep pull requests small" is no rule about
        functions); a text that names none of the core concepts a phrase names (:func:`_core`) at most leans."""
        vector, best, words = self.vector(text), dict(self._blank), frozenset(self.words(rule_of(text))) - GENERIC
        things = words & LEXICON.objects
        near = sorted(set().union(*(self._index.get(word, ()) for word in vector)))
        for topic_id, anchor, anchor_words, core in map(self._anchors.__getitem__, near):
            close = _cosine(vector, anchor)
            if close < self.topic_threshold and not _grounded(words, anchor_words):
                close = 0.0
            elif things and not things & self._own[topic_id]:
                close = 0.0
            elif core and not words & core:
                close = min(close, LEANING)
            best[topic_id] = max(best[topic_id], close)
        return best

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
            if not shared or (topic is None and self._asks_otherwise(text, others, shared)):
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

    def _asks_otherwise(self, text: str, others: Sequence[str], shared: frozenset[str]) -> bool:
        """Whether ``text`` asks something else than ``others``, all about the ``shared`` topics: it chooses in
        other slots of the lexicon than any of them (:func:`.contrasts.conflict`: "Google-style docstrings" /
        "docstrings for every public function"), or says something else beyond the topic (:meth:`_apart`)."""
        mine = self._choices(text)
        return any(conflict(mine, self._choices(other), True) for other in others) or self._apart(text, others, shared)

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
        (mine_polarity, mine_relaxes), (their_polarity, their_relaxes) = self._stance(text), self._stance(other)
        if mine_relaxes != their_relaxes or conflict(self._choices(text), self._choices(other), False):
            return True
        if (self.about(text) & self.about(other)) - self._theme_ids:
            return False
        if mine_polarity * their_polarity < 0:
            return True
        mine, theirs = ACTIONS.intersection(self.words(text)), ACTIONS.intersection(self.words(other))
        return bool(mine and theirs and not mine & theirs)

    def _stance(self, text: str) -> tuple[int, bool]:
        """``text``'s :func:`.contrasts.polarity` and whether it :func:`.contrasts.relaxes` a rule, kept: a scan
        asks for them once per sighting and text of every item, and the regular expressions are the cost."""
        known = self._leaning.get(text)
        if known is None:
            known = self._leaning[text] = (polarity(text), relaxes(text))
        return known

    def _choices(self, text: str) -> tuple[frozenset[str], ...]:
        """What ``text`` chooses in each slot of the lexicon (see :func:`.contrasts.choices`)."""
        known = self._chosen.get(text)
        if known is None:
            known = self._chosen[text] = choices(text, LEXICON, self.words)
        return known

    def same(self, first: str, second: str) -> bool:
        """Whether two texts are the same piece of feedback."""
        return self.score(first, [second]) > 0
