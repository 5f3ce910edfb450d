"""``pytest --ladder`` on a suite of 3,000 small tests: what the plugin costs per item and per file.

A real suite (toolz's, in run.py) has few tests per file and real work in each; this one is
the other end: 60 test files of 50 tiny tests each, against a small package, so that any
cost the plugin adds per test item or per collected module shows against a run that does
little else. The project is a git repository with one dated commit (as a user's would be)
and a ``[tool.ladder]`` table; it is built once under the benchmark's work directory.

Use: ``small_tests_project(WORK)`` then ``pytest_cases(project, Case, ladder)`` with run.py's
``Case`` and the ``ladder`` executable; the ``--ladder`` case is warmed by one
``ladder check --no-record`` (the analysis cache), and its target is 1.10x plain pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["FILES", "TESTS_PER_FILE", "pytest_cases", "small_tests_project"]

FILES, TESTS_PER_FILE = 60, 50
_WHEN = "2026-11-01T09:00:00Z"
_MODULE = '''"""Pricing helpers, module {n}."""


def total_{n}(prices, discount=0):
    """Sum of prices less a discount, never below zero."""
    total = sum(prices)
    if discount:
        total -= discount
    return max(total, 0)


def label_{n}(amount):
    if amount > 100:
        return "large"
    if amount > 10:
        return "medium"
    return "small"
'''


def _test_file(n: int) -> str:
    module = f"shop.prices_{n % 10}"
    lines = [f"from {module} import label_{n % 10}, total_{n % 10}", ""]
    for t in range(TESTS_PER_FILE):
        fn = f"total_{n % 10}" if t % 2 else f"label_{n % 10}"
        arg = f"[{t}, 1]" if t % 2 else str(t * 3)
        lines += ["", f"def test_case_{t}():", f"    assert {fn}({arg}) is not None", ""]
    return "\n".join(lines)


def small_tests_project(work: Path) -> Path:
    """``work/pytest-small``: ``src/shop`` (10 modules) and ``tests/`` (60 files x 50 tests), committed once."""
    project = work / "pytest-small"
    done = project / ".git" / "bench-done"
    if done.exists():
        return project
    import shutil

    shutil.rmtree(project, ignore_errors=True)
    (project / "src" / "shop").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "pyproject.toml").write_text(
        '[project]\nname = "shop"\nversion = "0"\n\n'
        '[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n\n'
        '[tool.ladder]\npaths = ["src", "tests"]\n')
    (project / "src" / "shop" / "__init__.py").write_text("")
    for n in range(10):
        (project / "src" / "shop" / f"prices_{n}.py").write_text(_MODULE.format(n=n))
    for n in range(FILES):
        (project / "tests" / f"test_prices_{n}.py").write_text(_test_file(n))
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
           "GIT_AUTHOR_DATE": _WHEN, "GIT_COMMITTER_DATE": _WHEN, "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "the suite"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True, capture_output=True)
    done.write_text("")
    return project


def pytest_cases(project: Path, case: Callable[..., Any], ladder: str, tests: str = "tests",
                 label: str = "3,000 small tests") -> list[Any]:
    """Plain pytest and ``pytest --ladder --ladder-no-record`` warm (target 1.10x) on ``tests`` of ``project``,
    as run.py's ``Case``s named after ``label``."""
    def warm() -> None:
        if not (project / ".ladder" / "cache").exists():
            subprocess.run([ladder, "check", "--no-record"], cwd=project, capture_output=True)

    plain = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", tests]
    return [
        case(f"pytest, {label}", plain, project),
        case(f"pytest --ladder, {label} (warm)", [*plain, "--ladder", "--ladder-no-record"], project,
             warm, f"pytest, {label}", 1.10),
    ]
