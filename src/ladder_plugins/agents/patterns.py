"""The classifier's vocabulary: the reason codes, :class:`Pattern` (one phrase family of a reason code), and the
ways a family is written (:func:`family`, :func:`phrases`, :func:`cue`). ``patterns_en`` and ``patterns_zh`` hold the
families, ``classify`` runs them.

May import: nothing of the package (the standard library only). Must not import: ``classify`` or the pattern
tables (they import this).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["REASONS", "Pattern", "family", "phrases", "cue", "ACT_REACH"]

#: how far (in characters, either way) an act of the agent may be from the cue that needs it
ACT_REACH = 200
#: the reason codes, in the order a capture lists them
REASONS = (
    "negative_evaluation",
    "explicit_correction",
    "recurrence_complaint",
    "restating_known",
    "rhetorical_accountability",
    "expected_process_contrast",
)


@dataclass(frozen=True)
class Pattern:
    """One phrase family of a reason code: a regular expression over the lower-cased prompt, looked at only when
    one of its triggers (literal text every match contains) is in the prompt. Compiling all of them costs
    some 30 ms, more than the rest of the hook; a prompt holds the triggers of a few, so only those are
    compiled (by :func:`re.search`, whose cache keeps them for the process)."""

    code: str
    triggers: tuple[str, ...]
    source: str
    #: the words point at earlier work themselves: no referent needed
    standalone: bool = False
    #: a cue of dissatisfaction that counts only next to an act of the agent: this expression must match within
    #: :data:`ACT_REACH` characters of the cue ("you renamed ..." near "I only wanted ...")
    act: str = ""


def family(code: str, triggers: str, source: str, standalone: bool = False) -> Pattern:
    """A family written as one expression; ``triggers`` are its literal texts, separated by ``|``."""
    return Pattern(code, tuple(triggers.split("|")), source, standalone)


def phrases(code: str, words: str, standalone: bool = False) -> Pattern:
    """A family of literal phrases: each its own trigger."""
    return Pattern(code, tuple(words.split()), "|".join(map(re.escape, words.split())), standalone)


def cue(code: str, triggers: str, source: str, act: str) -> Pattern:
    """A cue of dissatisfaction ("I only wanted", "tests nothing", 报了五十个错) that is one only next to an act of
    the agent (``act``: "you renamed", "the test you wrote", 你把...了): alone it is an ordinary request or report."""
    return Pattern(code, tuple(triggers.split("|")), source, False, act)
