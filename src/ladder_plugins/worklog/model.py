"""What the lint finds: one :class:`Problem`, at a line of a file, under one rule of the catalogue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..catalogue import Rule, lint_rule

__all__ = ["Problem", "problem", "ordered"]


@dataclass(frozen=True)
class Problem:
    """One finding of the lint: ``path`` as shown (POSIX, relative where it can be), 1-based ``line`` (1 for a
    problem of the whole file), and a message that names what is there and what is expected."""

    rule: Rule
    path: str
    line: int
    message: str
    col: int = 1
    #: the text of the line it is at, when the front end has it: what stays the same as reports are added on
    #: top and every line below moves (SARIF's fingerprint is made of it)
    context: str = ""

    @property
    def code(self) -> str:
        return self.rule.code


def problem(key: str, path: str, line: int, message: str) -> Problem:
    """A problem under the lint rule ``key`` (``worklog_lines``)."""
    return Problem(lint_rule(key), path, max(int(line), 1), message)


def ordered(found: Iterable[Problem]) -> list[Problem]:
    """By file, line, then code; each problem once (a rule's limits are a mapping, so problems are told apart by
    what they say, not hashed whole)."""
    once = {(p.path, p.line, p.code, p.message, p.col): p for p in found}
    return [once[key] for key in sorted(once)]
