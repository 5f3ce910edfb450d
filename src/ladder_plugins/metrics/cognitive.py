"""Cognitive complexity after SonarSource's white paper (G. Ann Campbell, 2017).

Where the white paper speaks it decides; where it is silent, sonar-python's
``CognitiveComplexityVisitor`` does. ``metrics.md`` lists every rule with an example,
and every difference from sonar-python with the white-paper sentence behind it.

* +1, plus the current nesting level, for ``if``, ternary, ``for``/``while`` (async
  too), ``except`` and ``match``;
* +1 (no nesting bonus) for ``elif``, ``else``, a loop's ``else`` and a ``try``'s ``else``;
* +1 per *sequence* of like boolean operators (``a and b and c`` +1,
  ``a and b or c`` +2); a ``not`` or a call starts a new expression;
* comprehensions add nothing themselves (the ternaries and boolean sequences in them
  count at the surrounding level);
* +1 once per function in a recursion cycle: the unit, when it calls itself or is on
  a cycle of calls between the file's functions (``name(...)``; ``self.name(...)`` or
  ``cls.name(...)`` between methods of one class), and each nested function that calls
  itself; a call by name counts only where Python resolves the name to that function
  (a local of the same name, ``from os.path import join as f`` in ``f``, is not it), and
  only calls in the body (not its decorators or defaults) are edges;
* nesting rises inside ``if``/``elif``/``else`` bodies, loops, ``except``, a ``try``'s
  ``else`` and ``case`` bodies, ternary branches, nested functions and lambdas; a
  decorator-style wrapper (a function whose body is one ``def`` and otherwise only
  ``return <name>`` statements, as sonar-python's ``isWrapperFunction``) does not raise
  the nesting of the function it defines;
* a nested function's decorators and defaults, and a lambda's defaults, count at the
  level where it is written (they run there); annotations count nowhere.

Counted by the fused traversal (:mod:`.traversal`); the recursion cycles between the
file's functions are found here, once per file, from the calls it collected.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..analysis.source import ParsedSource, Unit
from ..hookspecs import hookimpl
from .constructs import outside_calls
from .traversal import UnitMeasures, unit_measures

__all__ = ["recursive_units"]


def _total(measures: UnitMeasures, in_cycle: bool) -> int:
    """The structural count plus 1 for recursion: a call of itself or a cycle, counted once."""
    return measures.cognitive + (measures.recursive or in_cycle)


def _callees(unit: Unit, names: Iterable[str], methods_called: Iterable[str], by_name: Mapping[str, list[Unit]],
             methods: Mapping[tuple[str, str], list[Unit]]) -> set[str]:
    """Keys of the file's units that ``unit`` calls: a function by name, or ``self.x``/``cls.x`` of its class."""
    found = {callee.key for name in names for callee in by_name.get(name, ())}
    cls = unit.key.rsplit(".", 1)[0] if unit.is_method else ""
    found.update(callee.key for name in methods_called for callee in methods.get((cls, name), ()))
    return found


def recursive_units(source: ParsedSource) -> frozenset[str]:
    """Keys of the units on a cycle of calls between the file's functions (worked out once per file)."""
    memo = source.memo.get("cognitive.recursive")
    if memo is None:
        memo = source.memo["cognitive.recursive"] = _cycles(source)
    return memo


def _cycles(source: ParsedSource) -> frozenset[str]:
    by_name: dict[str, list[Unit]] = {}
    methods: dict[tuple[str, str], list[Unit]] = {}
    for unit in source.units:
        if unit.is_method:
            methods.setdefault((unit.key.rsplit(".", 1)[0], unit.short_name), []).append(unit)
        elif "." not in unit.key:
            by_name.setdefault(unit.short_name, []).append(unit)
    if not by_name and not methods:
        return frozenset()
    return _resolved_cycles(source, by_name, methods)


def _resolved_cycles(source: ParsedSource, by_name: Mapping[str, list[Unit]],
                     methods: Mapping[tuple[str, str], list[Unit]]) -> frozenset[str]:
    """The walk's calls by name include names a unit binds itself (``from os.path import join`` in
    ``join``). Resolving scopes costs a second walk, so only the units on a cycle of the walk's calls
    are resolved; a cycle of the resolved calls is one of these."""
    measured = {unit.key: unit_measures(unit, source) for unit in source.units}
    edges = {unit.key: _callees(unit, measured[unit.key].called_names, measured[unit.key].called_methods, by_name,
                                methods) for unit in source.units}
    candidates = [unit for unit in source.units if _reaches(edges, unit.key)]
    for unit in candidates:
        names = measured[unit.key].called_names & outside_calls(unit.node)
        edges[unit.key] = _callees(unit, names, measured[unit.key].called_methods, by_name, methods)
    return frozenset(unit.key for unit in candidates if _reaches(edges, unit.key))


def _reaches(edges: Mapping[str, set[str]], start: str) -> bool:
    """Whether a path of calls leads from ``start`` back to it."""
    seen: set[str] = set()
    stack = list(edges.get(start, ()))
    while stack:
        key = stack.pop()
        if key == start:
            return True
        if key not in seen:
            seen.add(key)
            stack.extend(edges.get(key, ()))
    return False


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    in_cycle = unit.key in recursive_units(source)
    return {"cognitive": _total(unit_measures(unit, source), in_cycle)}
