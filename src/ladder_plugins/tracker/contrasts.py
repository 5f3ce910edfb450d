"""What keeps two alike pieces of feedback apart: what a rule asks beside the words it shares with another.

Two rules can use the same words and ask different things. The matcher (:mod:`.similarity`) asks this module:

* which part of a text is the rule (:func:`rule_of`): not its reason ("because", "since", "so that") nor its
  asides (a parenthesis, "e.g. ..."), which weigh less and choose nothing;
* whether it lets happen unasked what another restricts (:func:`polarity`: "commit as you work" / "never commit
  unless asked");
* which actions a workflow rule is about (:data:`ACTIONS`: "commit" / "push");
* whether it relaxes a rule (:func:`relaxes`: "private functions don't need docstrings" is the exception to
  "docstrings for every function", not the rule);
* which choices it makes among the alternatives of the lexicon's slots (:func:`choices`): "Google-style
  docstrings" and "reST docstrings" choose differently in one slot; "Google-style docstrings" and "docstrings for
  every public function" choose in different slots, one the style and one the scope: two rules about docstrings.

May import: ``concepts`` of this package. Must not import: ``similarity`` (it imports this), anything that reads
files.
"""

from __future__ import annotations

import re
from typing import Callable

from .concepts import Lexicon

__all__ = ["ACTIONS", "polarity", "relaxes", "rule_of", "choices", "conflict"]

_REASON = re.compile(r"\s(?:because|since|so that|as it|as they|which (?:is|are|makes?|can))\b", re.IGNORECASE)
#: an aside: a parenthesis after a space (not a call, ``open()``), or an example from "e.g." to the clause's end
_ASIDE = re.compile(r"(?<=\s)\([^()]*\)|\b(?:e\.g\.|for example|such as)[^.;:]*", re.IGNORECASE)


def rule_of(text: str) -> str:
    """``text`` without its reason (from "because", "since", "so that", "as it"... on; not from a dash: what
    follows one is as often the rule itself, "never store secrets in code: use environment variables") and
    without its asides (a parenthesis, an example)."""
    found = _REASON.search(text)
    return _ASIDE.sub(" ", text[: found.start()] if found else text)


#: what a rule lets happen without asking (an opposite of "only when asked"), and what restricts
_PERMITS = re.compile(r"\b(?:automatically|auto-\w+|immediately|unasked|without (?:asking|waiting|permission)|"
                      r"frequently|incrementally|as you work|as work progresses|don'?t hesitate)\b", re.IGNORECASE)
_RESTRICTS = re.compile(r"\b(?:never|not|no|don'?t|do not|only|unless|avoid|wait|ask(?:ed)? before)\b|n't\b",
                        re.IGNORECASE)
#: actions a workflow rule is about (concepts of the lexicon): two rules about different ones are different feedback
ACTIONS = frozenset({"commit", "push", "merg", "delet", "deploy", "releas", "rebas", "build", "stag"})
#: what says a rule need not be followed somewhere: its exception, not the rule
_RELAXES = re.compile(r"\b(?:(?:don'?t|doesn'?t|do not|does not|won'?t|will not|no) (?:really )?need(?:s|ed)?\b|"
                      r"no need\b|(?:is|are) not (?:required|needed|necessary|mandatory)\b|"
                      r"(?:isn'?t|aren'?t) (?:required|needed|necessary|mandatory)\b|(?:is|are) optional\b|"
                      r"(?:is|are) exempt\b|(?:can|may) (?:be )?(?:skip(?:ped)?|omit(?:ted)?|left out)\b)",
                      re.IGNORECASE)


def polarity(text: str) -> int:
    """+1 when ``text`` lets something happen unasked ("commit as you work, unasked"), -1 when it restricts
    ("never commit unless asked", "do not push automatically"), 0 when it says neither."""
    cleared = re.sub(r"don'?t hesitate", " ", text, flags=re.IGNORECASE)
    if _RESTRICTS.search(cleared):
        return -1
    return 1 if _PERMITS.search(text) else 0


def relaxes(text: str) -> bool:
    """Whether ``text`` says where a rule need not be followed ("private functions don't need docstrings", "type
    hints are optional in tests"): the exception to a rule, which is not the rule."""
    return _RELAXES.search(text) is not None


def choices(text: str, lexicon: Lexicon, read: Callable[[str], tuple[str, ...]]) -> tuple[frozenset[str], ...]:
    """The alternatives ``text``'s rule (not its asides) chooses in each slot of ``lexicon`` (``read`` reads a
    text's concepts)."""
    concepts = frozenset(read(rule_of(text)))
    return tuple(concepts & slot for slot in lexicon.slots)


def _slots(chosen: tuple[frozenset[str], ...]) -> set[int]:
    """The slots a text chooses in (of :func:`choices`)."""
    return {n for n, alternatives in enumerate(chosen) if alternatives}


def conflict(mine: tuple[frozenset[str], ...], theirs: tuple[frozenset[str], ...], aspects: bool) -> bool:
    """Whether two texts' choices (of :func:`choices`) ask different things: they choose differently in one slot
    (Google / reST docstrings), or, when ``aspects`` (two rules about one topic), they choose in different slots
    and in none both (the style of docstrings / their scope)."""
    if any(a and b and not a & b for a, b in zip(mine, theirs)):
        return True
    my_slots, their_slots = _slots(mine), _slots(theirs)
    return aspects and bool(my_slots and their_slots) and not my_slots & their_slots
