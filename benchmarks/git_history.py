"""Recurrence from git on a long history: ``ladder check`` with and without git, cold and warm.

The repository is synthetic but made of real code: 60 modules of the running
Python's standard library, then 1,500 commits over three years, each editing one
function of one to three modules (a statement added to its body, so the unit's
code changes as a real edit would). It is built once under the benchmark's work
directory and reused.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Optional

FILES, COMMITS, DAYS = 60, 1500, 3 * 365
END = datetime(2026, 11, 30, 18, 0, tzinfo=timezone.utc)
_DEF = re.compile(r"^( *)def \w+\(.*\):\s*$")


def _sources() -> list[Path]:
    """60 standard-library modules of moderate size (3 to 30 KB), always the same ones."""
    root = Path(sysconfig.get_paths()["stdlib"])
    found = sorted(p for p in root.glob("*.py") if 3_000 <= p.stat().st_size <= 30_000)
    return found[:FILES]


def _git(repo: Path, *args: str, when: datetime, stdin: str = "") -> None:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
           "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp, "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, input=stdin, text=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _edit(text: str, rng: random.Random, n: int) -> str:
    """One statement added at the top of a random function's body."""
    lines = text.split("\n")
    defs = [i for i, line in enumerate(lines) if _DEF.match(line) and i + 1 < len(lines)]
    if not defs:
        return text + f"\n_bench_{n} = {n}\n"
    at = rng.choice(defs)
    indent = _DEF.match(lines[at]).group(1) + "    "
    lines.insert(at + 1, f"{indent}_bench_{n} = {n}")
    return "\n".join(lines)


def build(work: Path) -> Path:
    """The repository (built on first use): ``work/git-history``."""
    repo = work / "git-history"
    if (repo / ".git" / "bench-done").exists():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    (repo / "src").mkdir(parents=True)
    start = END - timedelta(days=DAYS)
    (repo / "pyproject.toml").write_text('[project]\nname = "bench"\n\n[tool.ladder]\npaths = ["src"]\n')
    names = []
    for path in _sources():
        shutil.copyfile(path, repo / "src" / path.name)
        names.append(path.name)
    _git(repo, "init", "-q", "-b", "main", when=start)
    _git(repo, "add", "-A", when=start)
    _git(repo, "commit", "-q", "-m", "import", when=start)
    rng = random.Random(2026)
    step = (END - start) / COMMITS
    for n in range(1, COMMITS + 1):
        for name in rng.sample(names, rng.randint(1, 3)):
            path = repo / "src" / name
            path.write_text(_edit(path.read_text(), rng, n))
        _git(repo, "commit", "-q", "-a", "-m", f"edit {n}", when=start + step * n)
    (repo / ".git" / "bench-done").write_text("")
    return repo


def checkouts(work: Path) -> tuple[Path, Path]:
    """Two clones of the repository: one reading git (the default), one told to use the log alone."""
    repo = build(work)
    clones = []
    for name, source in (("git-clone-git", None), ("git-clone-log", "log")):
        target = work / name
        if target.exists() and _head(target) != _head(repo):  # a clone of an earlier build
            shutil.rmtree(target)
        if not target.exists():
            subprocess.run(["git", "clone", "-q", str(repo), str(target)], check=True)
            if source:
                pyproject = target / "pyproject.toml"
                pyproject.write_text(pyproject.read_text() + f'\n[tool.ladder.recurrence]\nsource = "{source}"\n')
        clones.append(target)
    return clones[0], clones[1]


def _head(repo: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()


def cases(work: Path, case: Callable[..., object], ladder: str, radon: str) -> list[object]:
    """``ladder check`` on the synthetic clones: cold (no ``.ladder``: a CI job that keeps no cache) with
    git against ``radon cc`` on the same tree and against the log alone, warm with git against warm with
    the log alone."""
    with_git, log_only = checkouts(work)
    return project_cases("", (with_git, log_only), case, ladder, radon)


def project_cases(label: str, trees: tuple[Path, Path], case: Callable[..., object], ladder: str,
                  radon: str) -> list[object]:
    """The cases for one repository: two work trees of it, one reading git, one told ``source = "log"``."""
    with_git, log_only = trees

    def cold(project: Path) -> Callable[[], None]:
        return lambda: shutil.rmtree(project / ".ladder", ignore_errors=True)

    def warm(project: Path) -> Callable[[], None]:
        def run_once() -> None:
            if not (project / ".ladder" / "cache").exists():
                subprocess.run([ladder, "check", "--no-record"], cwd=project, stdout=subprocess.DEVNULL)
        return run_once

    argv = [ladder, "check", "--no-record"]
    name = f" {label}" if label else ""
    radon_case = f"radon cc{name}"
    log_cold = f"ladder check{name}, log only (cold)"
    log_warm = f"ladder check{name}, log only (warm)"
    return [
        case(radon_case, [radon, "cc", "-s", "."], with_git),
        case(log_cold, argv, log_only, cold(log_only), radon_case),
        case(f"ladder check{name}, git (cold)", argv, with_git, cold(with_git), radon_case, 3.0),
        case(f"ladder check{name} -j1, git (cold)", argv + ["--jobs", "1"], with_git, cold(with_git), radon_case),
        case(log_warm, argv, log_only, warm(log_only)),
        case(f"ladder check{name}, git (warm)", argv, with_git, warm(with_git), log_warm, 1.1),
    ]


def real_checkouts(work: Path, source: str) -> Optional[tuple[Path, Path, str]]:
    """Two clones of a real repository (a URL or a local git directory), each given a ``[tool.ladder]``
    table that reads the whole history (``git_since = "all"``), one of them told ``source = "log"``;
    ``None`` with a note when it cannot be cloned."""
    name = source.rstrip("/").split("/")[-1].removesuffix(".git") or "repo"
    clones = [work / f"real-{name}-git", work / f"real-{name}-log"]
    for target, extra in zip(clones, ("", 'source = "log"\n')):
        if (target / ".git").exists():
            continue
        done = subprocess.run(["git", "clone", "-q", source, str(target)], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"note: the real-repository figures are skipped (git clone {source}: {done.stderr.strip()[:200]})")
            return None
        pyproject = target / "pyproject.toml"
        text = pyproject.read_text() if pyproject.exists() else ""
        text += "" if "[tool.ladder]" in text else "\n[tool.ladder]\n"
        pyproject.write_text(f'{text}\n[tool.ladder.recurrence]\ngit_since = "all"\n{extra}')
    return clones[0], clones[1], f"{name}: {_count(clones[0])} commits, the whole history read"


def _count(repo: Path) -> str:
    return subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout.strip()


def describe(work: Path) -> str:
    repo = build(work)
    count = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True,
                           check=True).stdout.strip()
    return f"{FILES} modules, {count} commits over {DAYS} days (Python {sys.version.split()[0]} stdlib)"
