"""Real git repositories built in a test: commits dated on chosen days, clones, branches."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.reports import ladder

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

DAYS = ("2026-11-01", "2026-11-02", "2026-11-03")
NOW = "2026-11-03T12:00:00Z"
PYPROJECT = '[project]\nname = "shop"\n\n[tool.ladder]\npaths = ["src"]\n'


def git_env(when: str = "2026-11-01T09:00:00Z") -> dict[str, str]:
    """Who commits and when; no user or system configuration leaks in."""
    return {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
            "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
            "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull}


def git(cwd: Path, *args: str, when: str = "2026-11-01T09:00:00Z") -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=git_env(when), check=True)
    return done.stdout


def nested(name: str, depth: int, extra: int = 0) -> str:
    """A function whose cognitive complexity grows with ``depth`` (and a little with ``extra``)."""
    lines = [f"def {name}(a, b, c):", "    total = 0"]
    for i in range(depth):
        lines += [f"    if a > {i}:", f"        if b > {i}:", f"            if c > {i}:",
                  f"                total += {i}"]
    lines += [f"    total += {i}" for i in range(extra)]
    return "\n".join(lines + ["    return total", ""])


def commit(repo: Path, files: dict[str, str], when: str, message: str = "change") -> None:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, when=when)


def new_repo(path: Path, pyproject: str = PYPROJECT) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    commit(path, {"pyproject.toml": pyproject, "src/shop/__init__.py": ""}, "2026-10-30T09:00:00Z", "adopt ladder")
    return path


def clone(source: Path, target: Path, *args: str) -> Path:
    git(source.parent, "clone", "-q", *args, str(source), str(target))
    return target


def day_files(n: int) -> dict[str, str]:
    """Day ``n``'s code: price() made worse, discount() made better, legacy() untouched, cart renamed on day 3."""
    cart = nested("total", 4 + n, extra=n)
    files = {
        "src/shop/pricing.py": nested("price", 4 + n) + "\n\n" + nested("discount", 9 - n) + "\n\n" + nested("legacy", 6),
        ("src/shop/basket.py" if n == 2 else "src/shop/cart.py"): cart,
    }
    return files


def three_days(repo: Path) -> Path:
    """Three days: each day an edit is committed at 10:00 and checked on the laptop at 10:30."""
    for n, day in enumerate(DAYS):
        if n == 2:
            git(repo, "mv", "src/shop/cart.py", "src/shop/basket.py")
        commit(repo, day_files(n), f"{day}T10:00:00Z", f"day {n + 1}")
        ladder(["check"], repo, LADDER_NOW=f"{day}T10:30:00Z")
    return repo


def recording_git(tmp_path: Path) -> tuple[str, Path]:
    """A PATH whose git writes each of its commands to a file, then runs the real git."""
    real = shutil.which("git")
    bin_dir, calls = tmp_path / "spy", tmp_path / "calls.txt"
    bin_dir.mkdir()
    spy = bin_dir / "git"
    spy.write_text(f'#!/bin/sh\necho "$*" >> "{calls}"\nexec "{real}" "$@"\n')
    spy.chmod(0o755)
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}", calls
