"""Linters: which rule codes ruff and flake8 report, decided as each decides it.

Ruff's selection is read from the first of ``.ruff.toml``, ``ruff.toml``, ``pyproject.toml``
that configures it, flake8's from the first of ``setup.cfg``, ``tox.ini``, ``.flake8`` with a
``[flake8]`` section; a linter's defaults count where the project runs it (its configuration
exists, or pre-commit, tox or CI runs it). A :class:`Linter` answers whether a rule code is
reported, and by which selector, chosen where.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from .reading import Evidence, ProjectFiles, number, option, runner, selectors

__all__ = ["Linter", "flake8_linter", "ruff_linter"]


@dataclass(frozen=True)
class Linter:
    """The rule selection of one linter: selectors (each with where it was chosen) and ignores."""

    name: str
    selected: tuple[tuple[str, Evidence], ...]
    ignored: tuple[str, ...] = ()
    #: flake8: the selectors and ignores the configuration names (they beat flake8's defaults)
    chosen: frozenset[str] = frozenset()
    chosen_ignored: frozenset[str] = frozenset()
    #: flake8: code prefixes no plugin reports as configured (mccabe's C90 without max-complexity)
    off: tuple[str, ...] = ()

    def reports(self, code: str) -> Optional[Evidence]:
        """Where the selector that makes this linter report ``code`` was chosen, or ``None``."""
        selector = (_ruff_decision if self.name == "ruff" else _flake8_decision)(self, code)
        return next((ev for name, ev in self.selected if name == selector), None) if selector else None


def _rank(code: str, prefixes: Sequence[str], chosen: frozenset[str]) -> tuple[int, str]:
    """flake8's view of a code against a list: (2 chosen explicitly, 1 by default, 0 not at all; the longest
    matching prefix)."""
    matching = [p for p in prefixes if code.startswith(p)]
    if not matching:
        return 0, ""
    return (2 if chosen.intersection(matching) else 1), max(matching, key=len)


def _flake8_decision(linter: Linter, code: str) -> Optional[str]:
    """flake8's own rule (``style_guide.DecisionEngine``): explicit beats default, then the longest prefix;
    a tie is ignored."""
    sel_rank, selector = _rank(code, [name for name, _ in linter.selected], linter.chosen)
    ign_rank, ignore = _rank(code, linter.ignored, linter.chosen_ignored)
    if sel_rank == 0 or code.startswith(linter.off):
        return None
    if ign_rank > sel_rank or (ign_rank == sel_rank and len(ignore) >= len(selector)):
        return None
    return selector


_RUFF_CODE = re.compile(r"([A-Z]+)([0-9]*)")
_PYLINT = frozenset({"PLC", "PLE", "PLR", "PLW"})


def _ruff_covers(selector: str, code: str) -> bool:
    """Ruff's selectors are a linter's letters and a code prefix: ``D`` covers ``D100``, not ``DTZ005``."""
    if selector == "ALL":
        return True
    sel, wanted = _RUFF_CODE.fullmatch(selector), _RUFF_CODE.fullmatch(code)
    if sel is None or wanted is None:
        return False
    letters = sel.group(1) == wanted.group(1) or (sel.group(1) == "PL" and wanted.group(1) in _PYLINT)
    return letters and wanted.group(2).startswith(sel.group(2))


def _ruff_decision(linter: Linter, code: str) -> Optional[str]:
    """Ruff's rule: the most specific selector wins (``ALL`` is the least specific); between a select and an
    ignore as specific, the ignore."""
    def specificity(selector: str) -> int:
        return -1 if selector == "ALL" else len(selector)

    selector = max((s for s, _ in linter.selected if _ruff_covers(s, code)), key=specificity, default=None)
    ignore = max((s for s in linter.ignored if _ruff_covers(s, code)), key=specificity, default=None)
    if selector is None or (ignore is not None and specificity(ignore) >= specificity(selector)):
        return None
    return selector


# ---------------------------------------------------------------------------
# flake8

_FLAKE8_FILES = ("setup.cfg", "tox.ini", ".flake8")
_FLAKE8_CODE = re.compile(r"[A-Z]{1,3}[0-9]{0,3}")
_FLAKE8_RUNNERS = ("precommit:flake8", "tox:flake8", "ci:flake8")


def _flake8_plugins() -> tuple[tuple[str, str], ...]:
    """(code prefix, distribution) of every installed flake8 plugin (pycodestyle's E and W, pyflakes' F and
    mccabe's C90 among them): flake8 selects them all by default."""
    from importlib.metadata import entry_points

    try:
        found = entry_points(group="flake8.extension")
    except TypeError:  # pragma: no cover - Python 3.9
        found = entry_points().get("flake8.extension", ())  # type: ignore[arg-type]  # 3.9 returns a dict
    return tuple(sorted({(ep.name, _distribution(ep)) for ep in found if _FLAKE8_CODE.fullmatch(ep.name)}))


def _distribution(entry_point: Any) -> str:
    """The distribution that installed an entry point (Python 3.10+), else its module."""
    dist = getattr(entry_point, "dist", None)
    return getattr(dist, "name", None) or str(entry_point.value).partition(":")[0]


def _flake8_codes(values: Mapping[str, Any], key: str) -> tuple[str, tuple[str, ...]]:
    """(the option's spelling, or "" when it is not set; its codes)."""
    spelt, value = option(values, key)
    return spelt, selectors(value, _FLAKE8_CODE) if spelt else ()


def _flake8_selection(file: str, where: str, values: Mapping[str, Any]) -> Linter:
    """flake8's selection from one ``[flake8]`` section (``{}`` for its defaults): ``select`` and
    ``extend-select``, or without ``select`` every installed plugin; ``ignore`` (else flake8's default
    ignores) and ``extend-ignore``; mccabe's C90 off unless ``max-complexity`` is set."""
    from flake8.defaults import IGNORE

    select, extend = _flake8_codes(values, "select"), _flake8_codes(values, "extend-select")
    ignore, extend_ignore = _flake8_codes(values, "ignore"), _flake8_codes(values, "extend-ignore")
    chosen = [(code, f"{where} {key}: {code}") for key, codes in (select, extend) if key for code in codes]
    defaults = [] if select[0] else [(name, f"{where}: flake8 plugin {dist} ({name}), on by default")
                                     for name, dist in _flake8_plugins()]
    complexity = number(option(values, "max-complexity")[1])
    return Linter(
        "flake8", tuple((code, Evidence(file, loc, (f"flake8:{code}",), loc)) for code, loc in defaults + chosen),
        ignored=ignore[1] + extend_ignore[1] + (() if ignore[0] else tuple(IGNORE)),
        chosen=frozenset(select[1] + extend[1]), chosen_ignored=frozenset(ignore[1] + extend_ignore[1]),
        off=() if complexity is not None and complexity >= 0 else ("C90",),
    )


def flake8_linter(files: ProjectFiles, evidence: Sequence[Evidence]) -> Optional[Linter]:
    """flake8's selection, from the first of setup.cfg, tox.ini and .flake8 with a [flake8] section (as
    flake8 looks), where the project has one or runs flake8."""
    for rel in _FLAKE8_FILES:
        values = files.table(rel, "ini", ("flake8",))
        if values is not None:
            return _flake8_selection(rel, f"{rel} [flake8]", values)
    found = runner(evidence, _FLAKE8_RUNNERS)
    return _flake8_selection(found.file, f"flake8's defaults, run by {found.location}", {}) if found else None


# ---------------------------------------------------------------------------
# ruff

_RUFF_FILES = ((".ruff.toml", ()), ("ruff.toml", ()), ("pyproject.toml", ("tool", "ruff")))
_RUFF_DEFAULT = ("E4", "E7", "E9", "F")
_RUFF_SELECTOR = re.compile(r"ALL|[A-Z]+[0-9]*")
_RUFF_RUNNERS = ("precommit:ruff", "precommit:ruff-check", "tox:ruff", "ci:ruff")


def _ruff_option(table: Mapping[str, Any], prefix: str, key: str) -> tuple[str, tuple[str, ...]]:
    """(where it is set, its selectors) of a rule option: in the ``lint`` table, else at the top."""
    lint = f"{prefix}.lint" if prefix else "lint"
    for name, values in ((lint, table.get("lint")), (prefix, table)):
        if isinstance(values, dict) and key in values:
            return (f"[{name}] {key}" if name else key), selectors(values[key], _RUFF_SELECTOR)
    return "", ()


def _ruff_selection(file: str, origin: str, table: Mapping[str, Any], prefix: str) -> Linter:
    """Ruff's selection from one table (``{}`` for its defaults): ``select`` (else ruff's defaults) and
    ``extend-select``; ``ignore`` and ``extend-ignore``."""
    select_at, select = _ruff_option(table, prefix, "select")
    extend_at, extend = _ruff_option(table, prefix, "extend-select")
    base = [(s, f"{file} {select_at}: {s}") for s in select] if select_at else [
        (s, f"ruff's default rules ({', '.join(_RUFF_DEFAULT)}), {origin}") for s in _RUFF_DEFAULT]
    chosen = base + [(s, f"{file} {extend_at}: {s}") for s in extend]
    ignored = [s for key in ("ignore", "extend-ignore") for s in _ruff_option(table, prefix, key)[1]]
    return Linter("ruff", tuple((s, Evidence(file, loc, (f"ruff:{s}",), loc)) for s, loc in chosen),
                  tuple(ignored))


def ruff_linter(files: ProjectFiles, evidence: Sequence[Evidence]) -> Optional[Linter]:
    """Ruff's selection, from the first of .ruff.toml, ruff.toml and pyproject.toml [tool.ruff] (as ruff
    looks), where the project has one or runs ruff (its defaults then)."""
    for rel, path in _RUFF_FILES:
        table = files.table(rel, "toml", path)
        if table is not None:
            where = f"{rel} [{'.'.join(path)}]" if path else rel
            return _ruff_selection(rel, where, table, ".".join(path))
    found = runner(evidence, _RUFF_RUNNERS)
    return _ruff_selection(found.file, f"run by {found.location}", {}, "") if found else None
