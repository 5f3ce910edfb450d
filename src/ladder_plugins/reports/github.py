"""``ladder check --format github``: GitHub Actions workflow commands.

One ``::error`` command per red violation and per gate failure, which the Actions
runner turns into annotations on the pull request's diff. Values are escaped as the
Actions toolkit escapes them (a message: ``%``, CR, LF; a property such as the file
name or title: also ``:`` and ``,``), after control, ANSI and bidi characters are
stripped, so a file or function name cannot end the command or start another.
"""

from __future__ import annotations

from typing import Any

from ..analysis.report import AnalysisResult
from .sanitize import clean

__all__ = ["check_github", "command", "escape_data", "escape_property"]


def escape_data(text: str) -> str:
    """A command's message: ``%``, CR and LF percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value: as a message, and ``:`` and ``,`` too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(path: str, line: int, title: str, message: str) -> str:
    """One ``::error`` command at a file's line, every value cleaned and escaped."""
    props = f"file={escape_property(clean(path))},line={line},col=1,title={escape_property(clean(title))}"
    return f"::error {props}::{escape_data(clean(message))}"


def _title(failure: Any) -> str:
    """``LAD900 recurring_hotspot``, ``LAD901 new_violation``, or in strict mode the violated rule's code and key."""
    return f"{failure.code} {failure.rule_key}"


def check_github(result: AnalysisResult, outcome: Any) -> str:
    """The commands for a ``ladder check`` run: red violations, then the gate's failures."""
    lines = [command(v.path, v.line, f"{v.code} {v.rule.key}", v.message)
             for v in result.violations if v.severity == "red"]
    lines += [command(f.event.path, f.event.line, _title(f), f.message) for f in outcome.gate.failures]
    return "\n".join(lines) + ("\n" if lines else "")
