"""``ladder check --format github``: GitHub Actions workflow commands.

An ``::error`` command for what fails the run (one per unit the gate fails on as a
recurring hotspot, one per other gate failure) and a ``::warning`` for every other red
violation, which the Actions runner turns into annotations on the pull request's
diff: a reviewer sees at once what blocks the merge. A violation the gate fails on is
not repeated as a warning. Yellow findings are not annotated. Values are escaped as the
Actions toolkit escapes them (a message: ``%``, CR, LF; a property such as the file
name or title: also ``:`` and ``,``), after control, ANSI and bidi characters are
stripped, so a file or function name cannot end the command or start another.
"""

from __future__ import annotations

from typing import Any, Literal

from ..analysis.report import AnalysisResult
from ..history.gate import by_unit, hotspot_message
from .sanitize import clean

__all__ = ["check_github", "command", "escape_data", "escape_property"]


def escape_data(text: str) -> str:
    """A command's message: ``%``, CR and LF percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value: as a message, and ``:`` and ``,`` too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(path: str, line: int, title: str, message: str,
            level: Literal["error", "warning"] = "error") -> str:
    """One ``::error`` (or ``::warning``) command at a file's line, every value cleaned and escaped."""
    props = f"file={escape_property(clean(path))},line={line},col=1,title={escape_property(clean(title))}"
    return f"::{level} {props}::{escape_data(clean(message))}"


def _title(failure: Any) -> str:
    """``LAD900 recurring_hotspot``, ``LAD901 new_violation``, or in strict mode the violated rule's code and key."""
    return f"{failure.code} {failure.rule_key}"


def check_github(result: AnalysisResult, outcome: Any) -> str:
    """The commands for a ``ladder check`` run: the gate's failures as errors (a hotspot unit once, every rule
    it breaks in its message), then the red violations the gate does not fail on as warnings."""
    failures = outcome.gate.failures
    lines = [command(g[0].event.path, g[0].event.line, _title(g[0]), hotspot_message(g))
             for g in by_unit([f for f in failures if f.reason == "hotspot"])]
    lines += [command(f.event.path, f.event.line, _title(f), f.message) for f in failures if f.reason != "hotspot"]
    lines += _warnings(result, {f.event.fingerprint for f in failures})
    return "\n".join(lines) + ("\n" if lines else "")


def _warnings(result: AnalysisResult, failing: set[str]) -> list[str]:
    """The red violations the gate does not fail on, as warnings."""
    return [command(v.path, v.line, f"{v.code} {v.rule.key}", v.message, "warning")
            for v in result.violations if v.severity == "red" and v.fingerprint not in failing]
