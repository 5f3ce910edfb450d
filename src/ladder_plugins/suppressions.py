"""Inline suppressions: ``# noqa[: LAD102,...]`` and ``# ladder: ignore[rule,...] reason``.

They sit on a unit's ``def`` line (for file rules: on line 1 or a comment line of
the module header). ``noqa`` follows flake8's syntax, so the same comment silences
flake8's report and our history. ``ladder: ignore`` takes rule keys or codes and
needs a reason; an ignore without a reason, or naming an unknown rule, suppresses
nothing and is reported as LAD001.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Optional

__all__ = ["Suppression", "parse_suppressions"]

_NOQA = re.compile(r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
# The reason runs to the end of the comment or to the next "#" (another comment).
_IGNORE = re.compile(r"ladder:\s*ignore\[(?P<rules>[^\]]*)\](?P<reason>[^#]*)", re.IGNORECASE)


@dataclass(frozen=True)
class Suppression:
    """One comment's effect. ``codes`` is ``None`` for a bare ``# noqa`` (everything)."""

    line: int
    codes: Optional[frozenset[str]]
    reason: str = ""
    problem: Optional[str] = None

    def covers(self, code: str) -> bool:
        return self.problem is None and (self.codes is None or code in self.codes)


def parse_suppressions(comment: str, line: int, codes_by_name: Mapping[str, str]) -> list[Suppression]:
    """The suppressions a comment makes; ``codes_by_name`` maps rule keys and codes to codes."""
    found: list[Suppression] = []
    noqa = _NOQA.search(comment)
    if noqa:
        listed = noqa.group("codes")
        codes = None if not listed else frozenset(c.upper() for c in re.split(r"[,\s]+", listed) if c)
        found.append(Suppression(line, codes, "noqa"))
    ignore = _IGNORE.search(comment)
    if ignore:
        names = [n.strip() for n in ignore.group("rules").split(",") if n.strip()]
        reason = ignore.group("reason").strip().lstrip(":-–— ").strip()
        unknown = [n for n in names if n not in codes_by_name and n.upper() not in codes_by_name]
        problem = None
        if not names:
            problem = "ignore[] names no rule; write ignore[rule_key] followed by a reason"
        elif unknown:
            problem = (
                f"unknown rule {unknown[0]!r} in ignore[...]; use a rule key such as "
                "'cognitive_max' or a code such as 'LAD102'"
            )
        elif not reason:
            problem = f"ignore[{', '.join(names)}] gives no reason; write the reason after the brackets"
        codes = frozenset(codes_by_name.get(n) or codes_by_name[n.upper()] for n in names if n not in unknown)
        found.append(Suppression(line, codes, reason, problem))
    return found
