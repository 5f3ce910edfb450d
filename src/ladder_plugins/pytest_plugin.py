"""pytest front end (entry point ``ladder``): a thin adapter over the core analysis.

Registers nothing but its option group until the pytest integration lands in full;
without ``--ladder`` it must stay inert.
"""

from __future__ import annotations

from typing import Any

__all__ = ["pytest_addoption"]


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("ladder", "ladder-plugins structural rules")
    group.addoption(
        "--ladder",
        action="store_true",
        default=False,
        help="check ladder rules on the configured paths (not yet active in this version)",
    )
