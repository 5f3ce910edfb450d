"""The two tables of ``[tool.ladder]`` whose keys the user names: limits per role, and globs per role.

``[tool.ladder.thresholds]`` holds the app role's limits at its top and a sub-table per other role;
``[tool.ladder.roles]`` maps a role to the globs of its files. Both are values of the key table (:mod:`.keys`)
like any other, read whole.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Optional

from ..catalogue import ROLES, Rule
from ..errors import ConfigError
from .model import Thresholds
from .values import Checker, PathList, Value, close

__all__ = ["Limits", "RoleGlobs", "MAX_LIMIT"]

MAX_LIMIT = 1_000_000


class Limits(Value):
    """Per-role limits: the rules' defaults, ``[thresholds]`` for app, a sub-table per other role."""

    KIND = "number >= 0 or `false`"

    def read(self, check: Checker, key: str, value: Any) -> Thresholds:
        if not isinstance(value, dict):
            raise check.fail(key, "a table", value)
        limited = {k: r for k, r in check.rules.items() if r.has_limit}
        resolved = {role: _defaults(limited, role) for role in ROLES}
        for role, name, values in _role_tables(check, value):
            resolved[role].update(_limits_of(check.within(name), values, limited))
        return MappingProxyType({role: MappingProxyType(dict(limits)) for role, limits in resolved.items()})


def _role_tables(check: Checker, table: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(role, table name, values): the flat keys are app's, sub-tables are per role."""
    found: list[tuple[str, str, Mapping[str, Any]]] = [
        ("app", "tool.ladder.thresholds", {k: v for k, v in table.items() if not isinstance(v, dict)})]
    for role, values in table.items():
        if not isinstance(values, dict):
            continue
        if role not in ROLES:
            hint = close(role, ROLES)
            extra = f"; did you mean {hint[0]!r}?" if hint else f"; roles are {', '.join(ROLES)}"
            raise ConfigError(f"{check.file}: [tool.ladder.thresholds] {role}: unknown role{extra}")
        found.append((role, f"tool.ladder.thresholds.{role}", values))
    return found


def _defaults(rules: Mapping[str, Rule], role: str) -> dict[str, Optional[float]]:
    return {key: rule.defaults.get(role) for key, rule in rules.items()}


def _limits_of(check: Checker, values: Mapping[str, Any], known: Mapping[str, Rule]) -> dict[str, Optional[float]]:
    check.unknown(values, known)
    return {key: _limit_value(check, key, value) for key, value in values.items()}


def _limit_value(check: Checker, key: str, value: Any) -> Optional[float]:
    if value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_LIMIT:
        raise check.fail(key, f"a number from 0 to {MAX_LIMIT}, or false to turn the rule off", value)
    return float(value)


class RoleGlobs(Value):
    """``role = [globs]``: the files of a role, by glob."""

    KIND = "list of globs"

    def read(self, check: Checker, key: str, value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
        roles = check.within("tool.ladder.roles")
        if not isinstance(value, dict):
            raise roles.fail("", "a table of role = [globs]", value)
        roles.unknown(value, ROLES)
        return tuple((role, PathList(globs=True).read(roles, role, value[role])) for role in value)
