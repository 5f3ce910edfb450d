"""Commands: the tools a shell line runs (``ci:pytest``; ``pip install mypy`` runs nothing), and what
their options enforce (``mypy:strict``, ``coverage:fail_under``, ``pytest:strict-markers``,
``pytest:warnings-error``, ``pytest:ladder``). A command is never run: its words are read.
"""

from __future__ import annotations

import re
import shlex
from typing import Callable, Mapping, Optional, Sequence

from .reading import Evidence, clean

__all__ = ["TOOLS", "command_signals", "command_evidence", "pytest_options", "words_of"]

_SHELL_SPLIT = re.compile(r"&&|\|\||[;|\n]")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_PYTHON = re.compile(r"(?:python[0-9.]*|py|pypy[0-9.]*|\{envpython\})(?:\.exe)?")
#: words before the command itself: ``sudo pytest``, ``uvx ruff``, ``env CI=1 pytest``
_PREFIXES = frozenset({"sudo", "time", "exec", "env", "nice", "command", "uvx", "pipx", "npx"})
#: project runners used as ``uv run pytest``, ``poetry run mypy``
_PROJECT_RUNNERS = frozenset({"uv", "poetry", "pdm", "hatch", "pipenv", "rye"})
TOOLS: Mapping[str, str] = {
    "pytest": "pytest", "py.test": "pytest", "unittest": "unittest", "mypy": "mypy", "dmypy": "mypy",
    "pyright": "pyright", "ruff": "ruff", "flake8": "flake8", "pylint": "pylint", "black": "black",
    "isort": "isort", "coverage": "coverage", "pre-commit": "pre-commit", "pre_commit": "pre-commit",
    "tox": "tox", "nox": "nox", "bandit": "bandit", "ladder": "ladder", "detect-secrets": "detect-secrets",
    "detect-secrets-hook": "detect-secrets", "gitleaks": "gitleaks", "trufflehog": "trufflehog",
    "codespell": "codespell", "interrogate": "interrogate", "pydocstyle": "pydocstyle", "vulture": "vulture",
    "pip-audit": "pip-audit", "safety": "safety", "pyupgrade": "pyupgrade",
}
_STRICT_MYPY = frozenset({"--strict", "--disallow-untyped-defs"})
_PRECOMMIT_SETUP = frozenset({"install", "uninstall", "autoupdate", "clean", "gc", "sample-config", "init-templatedir"})
_PYTEST_FLAGS: Mapping[str, str] = {
    "--strict-markers": "pytest:strict-markers", "--strict": "pytest:strict-markers",
    "--strict-config": "pytest:strict-config", "--cov-fail-under": "coverage:fail_under",
    "--ladder": "pytest:ladder", "--doctest-modules": "pytest:doctest",
}


def words_of(segment: str) -> list[str]:
    try:
        return shlex.split(segment, comments=True)
    except ValueError:  # an unbalanced quote: the words as they stand
        return segment.split()


def _base(word: str) -> str:
    """``pytest`` for ``.venv/bin/pytest``, ``C:\\py\\ruff.exe`` or ``{envbindir}/pytest``."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name[:-4] if name.endswith(".exe") else name


def _without_options(words: list[str]) -> list[str]:
    while words and words[0].startswith("-"):
        words = words[1:]
    return words


def _strip_once(words: list[str]) -> Optional[list[str]]:
    """The words without one wrapper (an assignment, ``sudo``, ``uv run``, ``python -m``), or ``None``."""
    if not words:
        return None
    head = _base(words[0])
    if _ASSIGNMENT.fullmatch(words[0]) or head in _PREFIXES:
        return words[1:]
    if head in _PROJECT_RUNNERS and words[1:2] == ["run"]:
        return _without_options(words[2:])
    if _PYTHON.fullmatch(head):
        return words[2:] if words[1:2] == ["-m"] else []  # a script, or ``python -c``: no known tool
    return None


def _unwrapped(words: list[str]) -> list[str]:
    shorter = _strip_once(words)
    while shorter is not None:
        words, shorter = shorter, _strip_once(shorter)
    return words


def _warning_filter(word: str, following: str) -> str:
    """The warning filter an option sets: ``-W error``, ``-Werror``, ``--pythonwarnings=error``."""
    if word in ("-W", "--pythonwarnings"):
        return following
    if word.startswith("--pythonwarnings="):
        return word.partition("=")[2]
    return word[2:].lstrip("=") if word.startswith("-W") else ""


def pytest_options(words: Sequence[str]) -> list[str]:
    """What pytest options enforce: ``--strict-markers``, ``-W error``, ``--cov-fail-under``, ``--ladder``."""
    found = [_PYTEST_FLAGS[w.partition("=")[0]] for w in words if w.partition("=")[0] in _PYTEST_FLAGS]
    pairs = zip(words, [*words[1:], ""])
    if any(_warning_filter(word, following).startswith("error") for word, following in pairs):
        found.append("pytest:warnings-error")
    return found


def _coverage_run(args: list[str]) -> list[str]:
    inner = _segment_signals(args[args.index("-m") + 1:]) if "-m" in args else []
    gate = "report" in args and any(a.startswith("--fail-under") for a in args)
    return ["coverage", *inner, *(["coverage:fail_under"] if gate else [])]


#: tool → what its arguments say beyond "it runs"
_REFINE: Mapping[str, Callable[[list[str]], list[str]]] = {
    "ruff": lambda args: ["ruff-format" if args[:1] == ["format"] else "ruff"],
    "mypy": lambda args: ["mypy", *(["mypy:strict"] if _STRICT_MYPY.intersection(args) else [])],
    "pytest": lambda args: ["pytest", *pytest_options(args)],
    "coverage": _coverage_run,
    "pre-commit": lambda args: [] if args[:1] and args[0] in _PRECOMMIT_SETUP else ["pre-commit"],
}


def _segment_signals(words: list[str]) -> list[str]:
    tool = TOOLS.get(_base(words[0])) if words else None
    if tool is None:
        return []
    refine = _REFINE.get(tool)
    return refine(words[1:]) if refine is not None else [tool]


def command_signals(command: str, namespace: str) -> tuple[str, ...]:
    """The signals of a shell command: ``<namespace>:<tool>`` for each known tool it runs (``ci:pytest``;
    ``pip install mypy`` runs nothing), and what their options enforce (``mypy:strict``,
    ``coverage:fail_under``, ``pytest:strict-markers``, ``pytest:warnings-error``, ``pytest:ladder``)."""
    found: dict[str, None] = {}
    for segment in _SHELL_SPLIT.split(command.replace("\\\n", " ")):
        for name in _segment_signals(_unwrapped(words_of(segment))):
            found.setdefault(name if ":" in name else f"{namespace}:{name}")
    return tuple(found)


def command_evidence(file: str, where: str, command: str, label: str, namespace: str) -> Evidence:
    shown = clean(command, 160)
    return Evidence(file, f"{where}: {shown}", command_signals(command, namespace), clean(f"{label}: {command}"),
                    freeform=True)
