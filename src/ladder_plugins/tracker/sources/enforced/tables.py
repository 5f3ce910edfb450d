"""Configuration tables: coverage's gate, mypy's strictness, pytest's options, black and isort, read from
the files each tool reads them from, in the order it reads them (``mypy:strict``,
``coverage:fail_under``, ``pytest:warnings-error``, ``black:config``, ...).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .commands import pytest_options, words_of
from .reading import Evidence, ProjectFiles, clean, flag, number, option, strings

__all__ = ["config_evidence"]


def _coverage_table(file: str, name: str, values: Mapping[str, Any]) -> list[Evidence]:
    key, value = option(values, "fail_under")
    if (number(value) or 0) <= 0:
        return []
    return [Evidence(file, f"{file} [{name}] {key} = {clean(str(value), 20)}", ("coverage:fail_under",))]


def _mypy_table(file: str, name: str, values: Mapping[str, Any]) -> list[Evidence]:
    strict = [key for key in ("strict", "disallow_untyped_defs") if flag(option(values, key)[1])]
    where = f"{file} [{name}]" + (f" {strict[0]} = true" if strict else "")
    return [Evidence(file, where, ("mypy:config", *(["mypy:strict"] if strict else [])), where)]


def _pytest_keys(values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(signal, key) of pytest's own options: ``filterwarnings = error``, ``xfail_strict``, ``strict``."""
    filters = strings(option(values, "filterwarnings")[1])
    found = [("pytest:warnings-error", "filterwarnings")] if filters and filters[0].startswith("error") else []
    for key, signals in (("xfail_strict", ("pytest:xfail-strict",)), ("strict_markers", ("pytest:strict-markers",)),
                         ("strict", ("pytest:strict-markers", "pytest:strict-config", "pytest:xfail-strict"))):
        found += [(signal, key) for signal in signals if flag(values.get(key))]
    return found


def _pytest_table(file: str, name: str, values: Mapping[str, Any]) -> list[Evidence]:
    key, addopts = option(values, "addopts")
    words = words_of(addopts) if isinstance(addopts, str) else strings(addopts)
    found = [("pytest:config", ""), *((signal, key) for signal in pytest_options(words)), *_pytest_keys(values)]
    return [Evidence(file, f"{file} [{name}]" + (f" {key}" if key else ""), (signal,)) for signal, key in found]


def _present(tool: str) -> Callable[[str, str, Mapping[str, Any]], list[Evidence]]:
    return lambda file, name, values: [Evidence(file, f"{file} [{name}]", (f"{tool}:config",))]


_HANDLERS: Mapping[str, Callable[[str, str, Mapping[str, Any]], list[Evidence]]] = {
    "coverage": _coverage_table, "mypy": _mypy_table, "pytest": _pytest_table,
    "black": _present("black"), "isort": _present("isort"),
}

#: (file, its format, the table's path in it, what it configures), in the order tools read them
_TABLES = (
    ("pyproject.toml", "toml", ("tool", "coverage", "report"), "coverage"),
    ("setup.cfg", "ini", ("coverage:report",), "coverage"),
    ("tox.ini", "ini", ("coverage:report",), "coverage"),
    (".coveragerc", "ini", ("report",), "coverage"),
    ("mypy.ini", "ini", ("mypy",), "mypy"),
    (".mypy.ini", "ini", ("mypy",), "mypy"),
    ("pyproject.toml", "toml", ("tool", "mypy"), "mypy"),
    ("setup.cfg", "ini", ("mypy",), "mypy"),
    ("pytest.ini", "ini", ("pytest",), "pytest"),
    ("pytest.toml", "toml", ("pytest",), "pytest"),
    (".pytest.toml", "toml", ("pytest",), "pytest"),
    ("pyproject.toml", "toml", ("tool", "pytest", "ini_options"), "pytest"),
    ("pyproject.toml", "toml", ("tool", "pytest"), "pytest"),
    ("tox.ini", "ini", ("pytest",), "pytest"),
    ("setup.cfg", "ini", ("tool:pytest",), "pytest"),
    ("pyproject.toml", "toml", ("tool", "black"), "black"),
    ("pyproject.toml", "toml", ("tool", "isort"), "isort"),
    (".isort.cfg", "ini", ("settings",), "isort"),
    ("setup.cfg", "ini", ("isort",), "isort"),
)


def config_evidence(files: ProjectFiles) -> list[Evidence]:
    found = []
    for rel, kind, path, what in _TABLES:
        values = files.table(rel, kind, path)
        if values is not None:
            found += _HANDLERS[what](rel, ".".join(path), values)
    return found
