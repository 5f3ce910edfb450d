"""``ladder check`` text: one line per finding, the gate's entries, the verdict.

Every line is ``path:line:col: CODE [severity] message [rule key]``, the form ruff,
flake8 and every editor's problem matcher read, so a terminal or an editor jumps to
it. Yellow (advisory) findings are counted but listed only when asked for; a unit the
gate fails on is one entry naming every rule it breaks; ``--group`` gives the
findings under a header per file instead. Values are cleaned here, colour is added
after (:mod:`.terminal`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..analysis.report import AnalysisResult, Violation
from ..analysis.thresholds import RED, YELLOW
from ..catalogue import plural
from ..history.gate import advice, by_unit, hotspot_message
from .metrics import skipped_lines
from .sanitize import clean
from .terminal import PLAIN, Style

__all__ = ["TextOptions", "check_text", "verdict"]


@dataclass(frozen=True)
class TextOptions:
    """What the text lists: which severities, how many units, grouped or not, coloured or not."""

    severities: frozenset[str] = frozenset({RED})
    quiet: bool = False
    top: Optional[int] = None
    group: bool = False
    style: Style = PLAIN

    @classmethod
    def of(cls, *, show_yellow: bool, severity: Optional[str] = None, **given: Any) -> "TextOptions":
        """``severity`` lists that one alone; otherwise red, and yellow too with ``show_yellow``."""
        shown = {severity} if severity else ({RED, YELLOW} if show_yellow else {RED})
        return cls(frozenset(shown), **given)


def _worst_units(found: Sequence[Violation], top: int) -> set[tuple[str, Optional[str]]]:
    """The ``top`` units (or files) with the most red findings, then the furthest past a limit (a finding without
    a limit, a bad suppression, counts as at it)."""
    units: dict[tuple[str, Optional[str]], list[Violation]] = {}
    for v in found:
        units.setdefault((v.path, v.unit), []).append(v)
    ranked = sorted(units, key=lambda u: (-sum(v.severity == RED for v in units[u]),
                                          -max(v.rule.past_limit(v.actual, v.limit) or 0.0 for v in units[u]),
                                          u[0], u[1] or ""))
    return set(ranked[:top])


def _shown(result: AnalysisResult, options: TextOptions) -> list[Violation]:
    found = [v for v in result.violations if v.severity in options.severities]
    if options.top is not None:
        worst = _worst_units(found, options.top)
        found = [v for v in found if (v.path, v.unit) in worst]
    return sorted(found, key=lambda v: (v.path, v.line, v.code))


def _finding(v: Violation, style: Style, where: str) -> str:
    tag = style.paint(f"[{v.severity}]", "red" if v.severity == RED else "yellow")
    return f"{where}: {style.paint(v.code, 'bold')} {tag} {clean(v.message)} [{v.rule.key}]"


def _finding_lines(found: Sequence[Violation], options: TextOptions) -> list[str]:
    style = options.style
    if not options.group:
        return [_finding(v, style, f"{clean(v.path)}:{v.line}:1") for v in found]
    lines: list[str] = []
    current = None
    for v in found:
        if v.path != current:
            current = v.path
            lines.append(style.paint(clean(v.path), "bold"))
        lines.append(_finding(v, style, f"  {v.line}:1"))
    return lines


def _entry(failure: Any, tag: str, message: str, style: Style) -> str:
    colour = "yellow" if tag == "known" else "red"
    return (f"{clean(failure.event.path)}:{failure.event.line}:1: {style.paint(failure.code, 'bold-' + colour)} "
            f"{style.paint(f'[{tag}]', colour)} {clean(message)}")


def _gate_lines(gate: Any, style: Style) -> list[str]:
    """One entry per unit the gate fails on (every rule it breaks), then the new-code failures, then the
    hotspots known from history (not failing), then what to do; strict mode's failures are the red findings
    themselves."""
    hot = [f for f in gate.failures if f.reason == "hotspot"]
    new = [f for f in gate.failures if f.reason in ("new", "worse")]
    lines = [_entry(group[0], "hotspot", hotspot_message(group), style) for group in by_unit(hot)]
    lines += [_entry(f, f.reason, f.message, style) for f in new]
    lines += [_entry(group[0], "known", hotspot_message(group), style) for group in by_unit(gate.known)]
    return lines + [style.paint(f"to fix: {text}", "dim") for text in _fixes(hot, new)]


def _fixes(hot: Sequence[Any], new: Sequence[Any]) -> list[str]:
    """What to do, once per kind: a unit's hotspot, a file rule's (its suppression goes elsewhere), new code."""
    kinds = sorted({f.event.unit_name is None for f in hot})  # units first, then file rules
    texts = [advice(file_rule=kind) for kind in kinds]
    return texts + (["bring them back within the limits before merging, or suppress each with a reason"] if new else [])


_CLEAR = {"recurrence": "no recurring hotspots", "new": "no recurring hotspots, no new or worse violations",
          "strict": "no red violations", "advisory": "advisory mode never fails"}
_KINDS = (("hotspot", "recurring hotspot"), ("new", "new violation"), ("worse", "worse violation"),
          ("strict", "red violation"))


def _failure_counts(gate: Any) -> str:
    """``1 recurring hotspot, 2 new violations``: a hotspot counted per unit, as the gate's list shows it."""
    hot = by_unit([f for f in gate.failures if f.reason == "hotspot"])
    counts = {"hotspot": len(hot)}
    counts.update({reason: sum(f.reason == reason for f in gate.failures) for reason, _ in _KINDS[1:]})
    return ", ".join(plural(counts[reason], kind) for reason, kind in _KINDS if counts[reason])


def verdict(result: AnalysisResult, gate: Any, mode: str, style: Style = PLAIN) -> str:
    """``passed: no recurring hotspots (82 red, 57 yellow in 33 files; mode recurrence)``."""
    red = sum(v.severity == RED for v in result.violations)
    yellow = sum(v.severity == YELLOW for v in result.violations)
    skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
    read = f"; history: {clean(gate.note)}" if gate.note else ""
    counts = f"({red} red, {yellow} yellow in {plural(len(result.analysed), 'file')}{skipped}; mode {mode}{read})"
    known = by_unit(gate.known)
    also = f", {plural(len(known), 'hotspot')} known from history" if known else ""
    if gate.failed:
        return f"{style.paint('FAILED', 'bold-red')}: {_failure_counts(gate)}{also} {counts}"
    return f"{style.paint('passed', 'green')}: {_CLEAR.get(mode, 'nothing to fail on')}{also} {counts}"


_LISTS = {YELLOW: "--show-yellow", RED: "--severity red"}


def _hidden(result: AnalysisResult, options: TextOptions) -> list[str]:
    """``57 yellow findings not listed (--show-yellow lists them)``: counted, never silently dropped."""
    lines = []
    for severity in (RED, YELLOW):
        hidden = sum(v.severity == severity for v in result.violations) if severity not in options.severities else 0
        if hidden:
            them = "them" if hidden != 1 else "it"
            lines.append(options.style.paint(f"{plural(hidden, severity + ' finding')} not listed "
                                             f"({_LISTS[severity]} lists {them})", "dim"))
    return lines


def check_text(result: AnalysisResult, outcome: Any, settings: Any, options: TextOptions = TextOptions()) -> str:
    """``ladder check`` text: the findings, the gate's entries, the skipped files, the verdict."""
    lines = [] if options.quiet else (_finding_lines(_shown(result, options), options)
                                      + _gate_lines(outcome.gate, options.style) + skipped_lines(result)
                                      + _hidden(result, options))
    return "\n".join(lines + [verdict(result, outcome.gate, settings.mode, options.style)])
