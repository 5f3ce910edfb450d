"""Whether a piece of an instruction file is feedback at all, or only names places or says what something is.

An instruction file also holds links to other files, lists of paths and an index of its packages and tools
("`clai` in `clai/`: a CLI to chat with agents", "`ruff` via `make lint`"): no piece of feedback, and joined
together they make an item no one wrote. One rule, deterministic: a piece is feedback unless nothing is left of
it once link targets, URLs, inline code and paths are removed, or it opens with a name (inline code, a link, a
path) and asks nothing (no imperative verb opening a clause, no word of a norm: must, should, never, avoid...).
A piece that opens with words is kept as it is: "Strict mypy compliance" and "No magic numbers" are rules.
"""

from __future__ import annotations

import re

__all__ = ["READ", "is_feedback", "asks", "plain"]

#: a piece longer than this is feedback without being read: no link or index line is that long, the path
#: pattern's work grows with the square of what it reads (a line of 50,000 dashes), and judging only a head would
#: leave out, unsaid, a rule asked past it
READ = 1000

_PATH = (r"(?:[\w.~*@-]*/[\w.~*@{}-]*/[\w./*@{}-]*|[\w.~*@-]*/[\w*@{}-]*\.[\w./*@{}-]*|[\w.~*@-]+/(?!\w)"
         r"|/[\w.*@{}-]+|[\w-]+\.[a-z]\w{0,5})")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"<?\b(?:https?|ftp|file)://[^\s>]+>?|\bwww\.[^\s>]+")
#: a code span opens and closes with backtick runs of one length, each a whole run (pairing a run with part of a
#: longer one made a line of backticks cubic work)
_TICKS = r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)"
_CODE = re.compile(_TICKS)
_PATHS = re.compile(rf"(?<![\w']){_PATH}(?![\w'])")
_WORD = re.compile(r"[^\W\d_]+")
#: a piece that opens with one of these names a thing (a link, inline code, a path)
_NAMED = re.compile(rf"^\W*(?:!?\[[^\]]*\]\([^)]*\)|{_TICKS}|{_PATH}(?![\w']))")
_NORMS = re.compile(
    r"\b(?:must|mustn'?t|should|shouldn'?t|shall|never|always|don'?t|do not|does not|doesn'?t|can'?t|cannot|"
    r"avoid|prefer|preferred|only|needs? to|needn'?t|make sure|ensure|please|instead|"
    r"required?|requires|mandatory|forbidden|not allowed|allowed|recommended|ok to|fine to|"
    r"rather than|no need|(?:is|are) optional|exempt|unless|without|deprecated|discouraged|"
    r"can be (?:removed|omitted|dropped|skipped))\b", re.IGNORECASE)
#: the first word of the text, of a sentence or clause, or after a dash or an opening parenthesis
_OPENER = re.compile(r"(?:^|[.!?;:]\s+|\s[-–—]\s+|\(\s*)\W*([^\W\d_]+)")
#: verbs an instruction opens with ("Run the tests", "`ruff`: run it before committing")
_VERBS = frozenset("""
add adjust align apply ask assert attach avoid be bump call capture catch check choose clean cleanup clear close
comment commit compare configure confirm consider convert copy cover create declare default define delete
describe document do double drop edit enable disable ensure escape explain export extend extract fail favor favour
fetch fill filter fix flag follow format generate get give group guard handle ignore implement import include
inject inspect install isolate keep label leave let limit lint list load lock log look make mark match measure
merge migrate mock move name note open order organize organise pass pin place prefer prefix print profile
prompt protect provide pull push put raise read rebase record reduce refactor refer register release remember
remove rename reorder replace report request require reset resolve respect restart restrict return reuse
review revert rewrite run save scope search see select send separate set ship show sign skip sort split
squash stage start state stay stick stop store structure stub submit support suppress swap sync take tell test
think throw tidy touch track treat trigger trim try type update upgrade use validate verify wait wrap write
yield
""".split())


def plain(text: str) -> str:
    """``text`` without link targets (a link's words stay), URLs, inline code and paths."""
    text = _URL.sub(" ", _LINK.sub(r" \1 ", text))
    return _PATHS.sub(" ", _CODE.sub(" ", text))


def asks(text: str) -> bool:
    """Whether ``text`` (once :func:`plain`) asks or forbids something: a word of a norm, or a clause that opens
    with a verb of an instruction."""
    return _asks(plain(text))


def _asks(rest: str) -> bool:
    return bool(_NORMS.search(rest)) or any(m.group(1).lower() in _VERBS for m in _OPENER.finditer(rest))


def is_feedback(text: str) -> bool:
    """Whether a piece of an instruction file is feedback (see the module docstring); one longer than
    :data:`READ` characters is."""
    if len(text) > READ:
        return True
    rest = plain(text)
    if not _WORD.search(rest):
        return False
    return _asks(rest) if _NAMED.match(text) else True
