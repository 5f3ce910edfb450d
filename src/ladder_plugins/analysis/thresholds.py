"""Severity bands: when a metric value is a violation, and how severe.

For a maximum: above the limit is *red*; at or above ``yellow_ratio`` x limit (and
not above the limit) is *yellow*, an advisory early warning. For a minimum: below
the limit is red (there is no yellow band).
"""

from __future__ import annotations

from typing import Optional

from ..catalogue import Rule

__all__ = ["severity", "YELLOW", "RED"]

YELLOW = "yellow"
RED = "red"


def severity(rule: Rule, value: Optional[float], limit: Optional[float], yellow_ratio: float) -> Optional[str]:
    """``"red"``, ``"yellow"`` or ``None`` for ``value`` against ``limit``; which side of the limit is over is
    the rule's to say (:meth:`~ladder_plugins.catalogue.Rule.exceeds`)."""
    if value is None or limit is None or not rule.has_limit:
        return None
    if rule.exceeds(value, limit):
        return RED
    if rule.is_minimum:  # a minimum has no yellow band
        return None
    near = yellow_ratio > 0 and value > 0 and value >= yellow_ratio * limit
    return YELLOW if near else None
