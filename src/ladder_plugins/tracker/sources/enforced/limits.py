"""Ladder's own limits: ``ladder:<rule key>`` for each rule with a limit, where ladder runs.

Ladder runs where ``pyproject.toml`` has a ``[tool.ladder]`` table, or its pre-commit hook,
tox or CI runs it, or pytest runs with ``--ladder``, or flake8 reports its ``LAD`` codes. The
table is validated as ladder validates it (``[tool.ladder.feedback]`` aside: it is the
tracker's); a table that is not valid is one warning, and no limit is counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from ....config import settings_from_table
from ....errors import ConfigError
from .linters import Linter
from .reading import Evidence, ProjectFiles, runner

if TYPE_CHECKING:
    from ....catalogue import Rule
    from ....config import Settings

__all__ = ["LadderRules", "ladder_rules", "ladder_limits"]

_LADDER_RUNNERS = ("precommit:ladder-check", "tox:ladder", "ci:ladder", "pytest:ladder")
_LADDER_ROLES = ("app", "test", "library", "script")


@dataclass(frozen=True)
class LadderRules:
    """The project's ladder settings, and every rule they were validated against, by key."""

    settings: Settings
    rules: Mapping[str, Rule]


def ladder_rules(files: ProjectFiles, table: Mapping[str, Any]) -> Optional[LadderRules]:
    """``[tool.ladder]`` validated with every known rule (the installed plugins' too), or ``None`` (said once)
    when it is not valid."""
    from ....plugins import rules_by_key

    rules = rules_by_key()
    try:  # [tool.ladder.feedback] is the tracker's, not the rules'
        settings = settings_from_table({k: v for k, v in table.items() if k != "feedback"}, files.root,
                                       files.root / "pyproject.toml", rules)
    except ConfigError as exc:
        files.warn("pyproject.toml", f"[tool.ladder] is not valid, so ladder's rules are not counted ({exc})")
        return None
    return LadderRules(settings, rules)


def _runs_ladder(table: Mapping[str, Any], evidence: Sequence[Evidence],
                 flake8: Optional[Linter]) -> Optional[Evidence]:
    """What says ladder runs: ``[tool.ladder]`` (an empty table says nothing), its pre-commit hook, tox or CI,
    pytest --ladder, or flake8 reporting the LAD codes."""
    if table:
        return Evidence("pyproject.toml", "pyproject.toml [tool.ladder]", ())
    return runner(evidence, _LADDER_RUNNERS) or (flake8.reports("LAD101") if flake8 is not None else None)


def _role_of(rule: Rule) -> str:
    """The role a rule is about: the first it has a default limit for (min_assertions: test; exported_*:
    library), else app."""
    return next((r for r in _LADDER_ROLES if rule.defaults.get(r) is not None), "app")


def _limit(loaded: LadderRules, rule: Rule, origin: Evidence, thresholds: Any) -> Optional[Evidence]:
    """``ladder:<key>`` where the rule has a limit for the role it is about (a limit turned off there, or the
    role skipped, is off): at ``[tool.ladder.thresholds]`` (or its role's sub-table) when the project sets it
    there, else at ladder's default and what runs ladder."""
    role = _role_of(rule)
    value = loaded.settings.limit(role, rule.key)
    if role in loaded.settings.skip_roles or value is None:
        return None
    limit = float(value)
    shown = f"{rule.key} = {int(limit) if limit.is_integer() else limit}"
    tables = thresholds if isinstance(thresholds, dict) else {}
    # the role's sub-table first (an app limit may also sit in [tool.ladder.thresholds] itself)
    for name, section in ((f".{role}", tables.get(role)), ("", tables if role == "app" else None)):
        if isinstance(section, dict) and rule.key in section:
            where = f"pyproject.toml [tool.ladder.thresholds{name}] {shown}"
            return Evidence("pyproject.toml", where, (f"ladder:{rule.key}",), where)
    where = f"ladder's default {shown} for {role} code, {origin.location}"
    return Evidence(origin.file, where, (f"ladder:{rule.key}",), where)


def ladder_limits(files: ProjectFiles, evidence: Sequence[Evidence], flake8: Optional[Linter]) -> list[Evidence]:
    """``ladder:<rule key>`` for each rule with a limit, where ladder runs."""
    table = files.table("pyproject.toml", "toml", ("tool", "ladder")) or {}
    origin = _runs_ladder(table, evidence, flake8)
    loaded = ladder_rules(files, table) if origin is not None else None
    if origin is None or loaded is None:
        return []
    found = [_limit(loaded, rule, origin, table.get("thresholds")) for rule in loaded.rules.values()
             if rule.has_limit]
    return [ev for ev in found if ev is not None]
