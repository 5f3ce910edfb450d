"""Contributes the built-in rule catalogue through the same hook plugins use."""

from __future__ import annotations

from typing import Sequence

from ..catalogue import RULES, Rule
from ..hookspecs import hookimpl


@hookimpl
def ladder_rules() -> Sequence[Rule]:
    return tuple(RULES.values())
