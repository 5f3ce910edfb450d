"""Inline suppressions: ``# noqa[: LAD102,...]`` and ``# ladder: ignore[rule,...] reason``.

They sit on a unit's ``def`` line (for file rules: on line 1 or a comment line of
the module header). ``noqa`` follows flake8's syntax, so the same comment silences
flake8's report and our history. ``ladder: ignore`` takes rule keys or codes and
needs a reason; an ignore without a reason, or naming an unknown rule, suppresses
nothing and is reported as LAD001 (with the nearest known rule, for a near miss).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

__all__ = ["Suppression", "parse_suppressions"]

_NOQA = re.compile(r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
# The reason runs to the end of the comment or to the next comment: a "#" with
# whitespace on both sides ("  # type: ignore"); "#123" stays part of the reason.
_IGNORE = re.compile(r"ladder:\s*ignore\[(?P<rules>[^\]]*)\](?P<reason>.*?)(?=\s#\s|$)", re.IGNORECASE)


@dataclass(frozen=True)
class Suppression:
    """One comment's effect. ``codes`` is ``None`` for a bare ``# noqa`` (everything)."""

    line: int
    codes: Optional[frozenset[str]]
    reason: str = ""
    problem: Optional[str] = None

    def covers(self, code: str) -> bool:
        return self.problem is None and (self.codes is None or code in self.codes)


def _noqa(comment: str, line: int) -> Optional[Suppression]:
    match = _NOQA.search(comment)
    if not match:
        return None
    listed = match.group("codes")
    codes = frozenset(c.upper() for c in re.split(r"[,\s]+", listed) if c) if listed else None
    return Suppression(line, codes, "noqa")


def _unknown(name: str, known: Iterable[str]) -> str:
    """An unknown rule's message: the nearest known key or code for a near miss (``params_maxx``,
    ``lad1055``), else what a rule looks like."""
    import difflib  # only for a mistake: every run that analyses a file imports this module

    candidates = list(known)
    near = difflib.get_close_matches(name, candidates, n=1) or difflib.get_close_matches(name.upper(), candidates, n=1)
    advice = (f"did you mean {near[0]!r}?" if near
              else "use a rule key such as 'cognitive_max' or a code such as 'LAD102'")
    return f"unknown rule {name!r} in ignore[...]; {advice}"


def _problem(codes: Mapping[str, Optional[str]], reason: str, known: Iterable[str]) -> Optional[str]:
    """What is wrong with an ignore naming ``codes`` (name -> code or None), if anything; ``known``: the
    rule keys and codes there are."""
    names = list(codes)
    unknown = [name for name, code in codes.items() if code is None]
    if not names:
        return "ignore[] names no rule; write ignore[rule_key] followed by a reason"
    if unknown:
        return _unknown(unknown[0], known)
    if not reason:
        return f"ignore[{', '.join(names)}] gives no reason; write the reason after the brackets"
    return None


def _ignore(comment: str, line: int, codes_by_name: Mapping[str, str]) -> Optional[Suppression]:
    match = _IGNORE.search(comment)
    if not match:
        return None
    codes = _codes_of(match.group("rules"), codes_by_name)
    reason = _reason(match.group("reason"))
    return Suppression(line, frozenset(filter(None, codes.values())), reason, _problem(codes, reason, codes_by_name))


def _reason(text: str) -> str:
    """The reason without the separator people put after the brackets (':', '-', dashes)."""
    return text.strip().lstrip(":-\u2013\u2014 ").strip()


def _codes_of(listed: str, codes_by_name: Mapping[str, str]) -> dict[str, Optional[str]]:
    """Each rule named in ``a, b`` and its code (keys as written, codes in any case); ``None`` when unknown."""
    names = [name.strip() for name in listed.split(",") if name.strip()]
    return {name: codes_by_name.get(name) or codes_by_name.get(name.upper()) for name in names}


def parse_suppressions(comment: str, line: int, codes_by_name: Mapping[str, str]) -> list[Suppression]:
    """The suppressions a comment makes; ``codes_by_name`` maps rule keys and codes to codes."""
    return [s for s in (_noqa(comment, line), _ignore(comment, line, codes_by_name)) if s is not None]
